//! The one bot game loop: bots play a game from where it stands to its
//! end, or to the length cap (B17), each decision taken from the seat's
//! own view.
//!
//! The simulator and duplicate play (so the tournament and the lab) run
//! every game through [`play_out`]. A seat's bot is made when that seat
//! first has to move, so a seat that joins mid-session (Dalmuti's joins)
//! gets one too; each bot owns its seeded RNG, so a game is a function of
//! the game's seed and the bots' seeds. Who sits where, and how a bot is
//! seeded, is the caller's: that is where the simulator and duplicate play
//! differ.

use crate::Error;
use bots::Bot;
use game::{Game, Outcome};
use serde::{Deserialize, Serialize};

/// How long one seat's bot thought over a game, counting only the
/// decisions with a choice (a forced move costs a search bot nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Think {
    /// Decisions with more than one legal action.
    pub decisions: u32,
    /// Their total thinking time, microseconds.
    pub total_us: u64,
    /// The longest one, microseconds.
    pub max_us: u64,
}

/// A game played out by bots.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedOut {
    /// How it ended (capped, with no winner, at the length cap).
    pub outcome: Outcome,
    /// Actions played.
    pub actions: u64,
    /// Per seat that got a bot, in seat order, how long it thought (all
    /// zero unless the play was timed).
    pub think: Vec<Think>,
}

/// Plays `game` to its end with bots, stopping it with
/// [`Game::capped_outcome`] once `max_actions` actions are played.
/// `bot(s)` makes the bot of seat index `s` when that seat first moves;
/// `illegal(s, action, error)` words the error ([`Error::Engine`]) when
/// seat `s`'s bot chooses an illegal action (a bot bug). With `timed`, each decision with
/// a choice is timed by the wall clock.
pub fn play_out<G: Game>(
    game: &mut G,
    max_actions: u64,
    timed: bool,
    mut bot: impl FnMut(usize) -> Result<Box<dyn Bot<G>>, Error>,
    illegal: impl Fn(usize, String, String) -> String,
) -> Result<PlayedOut, Error> {
    let mut bots: Vec<Box<dyn Bot<G>>> = Vec::new();
    let mut think: Vec<Think> = Vec::new();
    let mut legal = Vec::new();
    let mut actions = 0u64;
    let outcome = loop {
        let Some(seat) = game.to_move() else {
            break game.outcome().ok_or_else(|| {
                Error::Engine("the game has no one to move but no outcome".into())
            })?;
        };
        if actions >= max_actions {
            break game.capped_outcome();
        }
        while bots.len() <= seat.index() {
            bots.push(bot(bots.len())?);
            think.push(Think::default());
        }
        game.legal_actions(&mut legal);
        let view = game.view(seat);
        let clock = timed.then(std::time::Instant::now);
        let action = bots[seat.index()].choose(&view, &legal);
        if let Some(clock) = clock.filter(|_| legal.len() > 1) {
            let us = clock.elapsed().as_micros() as u64;
            let t = &mut think[seat.index()];
            t.decisions += 1;
            t.total_us += us;
            t.max_us = t.max_us.max(us);
        }
        game.apply(action)
            .map_err(|e| Error::Engine(illegal(seat.index(), action.to_string(), e.to_string())))?;
        actions += 1;
    };
    Ok(PlayedOut {
        outcome,
        actions,
        think,
    })
}
