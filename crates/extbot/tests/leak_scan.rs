//! The leak scan: everything written to a bot program's stdin over 1,000
//! games of each game is read back and held against what its seat may
//! know: each `act`'s view is exactly the seat's view at that decision,
//! each `event` exactly the next event visible to the seat, `start` and
//! `end` carry only the seat, the options and the outcome, and the game's
//! seed appears nowhere.

mod common;

use bots::{Bot, Roster};
use common::{root, temp_dir};
use extbot::{External, Limits};
use game::Seat;
use serde_json::{json, Value};

/// What the seat may be sent in one game, in order.
struct Expected {
    seat: Seat,
    players: usize,
    messages: Vec<Value>,
}

fn scan<G: Roster>(games: u64, options: &[(&str, &str)]) {
    let dir = temp_dir(&format!("leak-{}", G::NAME));
    let cmd = format!(
        "python3 {} {}",
        root()
            .join("crates/extbot/tests/bots/recorder.py")
            .display(),
        dir.display()
    );
    let mut ext = External::<G>::new(&cmd, Limits::default(), 5).unwrap();
    let opts = <G::Options as game::GameOptions>::from_pairs(options.iter().copied()).unwrap();
    let counts: Vec<usize> = G::PLAYERS.collect();
    let mut pending: Option<(u64, Expected, u64)> = None;
    let mut checked = 0u64;
    for g in 0..games {
        let players = counts[g as usize % counts.len()];
        // A seed whose digits cannot turn up by chance.
        let seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(g + 1) | (1 << 63);
        let mut game = G::new(&opts, players, seed).unwrap();
        game.set_logging(true);
        let seat = Seat::new(g as usize % players);
        let mut others: Vec<Box<dyn Bot<G>>> = (0..players)
            .map(|s| G::bot("heuristic", g * 10 + s as u64).unwrap())
            .collect();
        ext.start(seat, players, game.options());
        // The last game's messages are all written once this one started.
        if let Some((n, exp, seed)) = pending.take() {
            check(&dir, n, &exp, seed);
            checked += 1;
        }
        let mut exp = Expected {
            seat,
            players,
            messages: Vec::new(),
        };
        let mut heard = 0;
        let mut legal = Vec::new();
        let outcome = loop {
            for e in &game.events()[heard..] {
                if e.visible_to(Some(seat)) {
                    ext.observe(&e.event);
                    exp.messages
                        .push(json!({"type": "event", "event": e.event}));
                }
            }
            heard = game.events().len();
            let Some(to_move) = game.to_move() else {
                break game.outcome().unwrap();
            };
            game.legal_actions(&mut legal);
            let view = game.view(to_move);
            let action = if to_move == seat {
                let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
                exp.messages
                    .push(json!({"type": "act", "view": view, "legal": texts}));
                ext.choose(&view, &legal)
            } else {
                others[to_move.index()].choose(&view, &legal)
            };
            game.act(to_move, action).unwrap();
        };
        ext.finish(&outcome);
        exp.messages
            .push(json!({"type": "end", "outcome": outcome}));
        assert!(
            ext.take_strikes().is_empty(),
            "the recorder plays by the rules"
        );
        pending = Some((g + 1, exp, seed));
    }
    ext.shutdown();
    if let Some((n, mut exp, seed)) = pending.take() {
        // The last game's file ends with the match's end.
        exp.messages.push(json!({"type": "quit"}));
        check(&dir, n, &exp, seed);
        checked += 1;
    }
    assert_eq!(checked, games);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Holds game `n`'s recorded stdin against what its seat may know.
fn check(dir: &std::path::Path, n: u64, exp: &Expected, seed: u64) {
    let path = dir.join(format!("{n}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    std::fs::remove_file(&path).unwrap();
    for needle in [
        seed.to_string(),
        format!("{seed:x}"),
        "\"seed\"".to_string(),
    ] {
        assert!(
            !text.contains(&needle),
            "game {n}: the bot was sent {needle}"
        );
    }
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (start, rest) = lines.split_first().expect("a start");
    assert_eq!(start["type"], "start");
    assert_eq!(start["seat"], json!(exp.seat));
    assert_eq!(start["players"], json!(exp.players));
    let keys: Vec<&str> = start
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "game",
            "match",
            "options",
            "players",
            "protocol",
            "rules_version",
            "seat",
            "time",
            "type"
        ],
        "start carries nothing else"
    );
    assert_eq!(rest.len(), exp.messages.len(), "game {n}: message count");
    for (i, (got, want)) in rest.iter().zip(&exp.messages).enumerate() {
        let mut got = got.clone();
        if got["type"] == "act" {
            // The id and the time left are the referee's, not the game's.
            let o = got.as_object_mut().unwrap();
            assert!(o.remove("id").is_some_and(|v| v.is_u64()));
            assert!(o.remove("time_ms").is_some_and(|v| v.is_u64()));
        }
        assert_eq!(
            &got,
            want,
            "game {n}, message {}: not the seat's own",
            i + 2
        );
    }
}

/// Games per scan: 1,000, or `RATRACE_LEAK_GAMES`.
fn games() -> u64 {
    std::env::var("RATRACE_LEAK_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000)
}

#[test]
fn a_bot_is_sent_nothing_outside_its_seats_view_bigcheese() {
    scan::<bigcheese::BigCheese>(games(), &[]);
}

#[test]
fn a_bot_is_sent_nothing_outside_its_seats_view_dalmuti_hands() {
    scan::<dalmuti::Dalmuti>(games(), &[("hands", "1")]);
}

/// Whole Dalmuti sessions (several hands, taxes between them) are long:
/// 50 here, `RATRACE_LEAK_GAMES` for more.
#[test]
fn a_bot_is_sent_nothing_outside_its_seats_view_dalmuti_sessions() {
    scan::<dalmuti::Dalmuti>(games() / 20, &[]);
}
