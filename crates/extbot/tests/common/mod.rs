//! What the referee's integration tests share: a game loop that drives the
//! bot hooks as the real loops do, paths, and a check that a process is
//! gone.

#![allow(dead_code, unreachable_pub)]

use bots::{Bot, Roster};
use game::{Game, Outcome, Seat};
use std::path::PathBuf;

/// The workspace's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Plays `game` to its end with one bot per seat (`bots[s]` at seat `s`),
/// giving listening bots `start`, their seat's events and `finish`.
/// Returns the outcome and every strike (seat index, reason).
pub fn play<G: Roster>(
    game: &mut G,
    bots: &mut [&mut dyn Bot<G>],
) -> (Outcome, Vec<(usize, String)>) {
    game.set_logging(true);
    for (s, b) in bots.iter_mut().enumerate() {
        b.start(Seat::new(s), game.players(), game.options());
    }
    let mut heard = 0;
    let mut legal = Vec::new();
    let mut actions = 0;
    let outcome = loop {
        deliver(game, bots, &mut heard);
        let Some(seat) = game.to_move() else {
            break game.outcome().expect("an outcome");
        };
        if actions > 20_000 {
            break game.capped_outcome();
        }
        game.legal_actions(&mut legal);
        let view = game.view(seat);
        let a = bots[seat.index()].choose(&view, &legal);
        game.act(seat, a).expect("bots answer legal actions");
        actions += 1;
    };
    let mut strikes = Vec::new();
    for (s, b) in bots.iter_mut().enumerate() {
        b.finish(&outcome);
        strikes.extend(b.take_strikes().into_iter().map(|r| (s, r)));
    }
    (outcome, strikes)
}

fn deliver<G: Game>(game: &G, bots: &mut [&mut dyn Bot<G>], heard: &mut usize) {
    for e in &game.events()[*heard..] {
        for (s, b) in bots.iter_mut().enumerate() {
            if e.visible_to(Some(Seat::new(s))) {
                b.observe(&e.event);
            }
        }
    }
    *heard = game.events().len();
}

/// Whether process `pid` still runs (a zombie waiting for its parent to
/// reap it does not count: it runs nothing and holds nothing).
pub fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            !matches!(state, Some("Z" | "X"))
        }
    }
}

/// A fresh temporary folder for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("extbot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
