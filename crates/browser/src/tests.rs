//! The engine's answers, natively: a whole game against bots through
//! requests alone, refusals that change nothing, and a seat's state that
//! holds only what it may know.

use crate::handle;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    let text = handle(&request.to_string(), &[], &mut |_, _| {});
    serde_json::from_str(&text).expect("an answer is JSON")
}

fn ok(request: Value) -> Value {
    let a = ask(request.clone());
    a.get("ok")
        .cloned()
        .unwrap_or_else(|| panic!("{request} refused: {a}"))
}

const SEED: &str = "0101010101010101010101010101010101010101010101010101010101010101";

#[test]
fn a_whole_game_is_played_through_requests() {
    for (game, players) in [("bigcheese", 4), ("dalmuti", 4)] {
        let mut record = ok(json!({"cmd": "new", "game": game, "players": players, "seed": SEED}));
        let levels = json!([null, "random", "heuristic", "strong"]);
        let mut steps = 0;
        loop {
            let me = ok(json!({"cmd": "state", "record": record, "seat": "P1"}));
            if me["over"] == true {
                assert_eq!(me["seed"], SEED, "the seed is told once over");
                break;
            }
            assert!(me.get("seed").is_none(), "the seed stays hidden");
            record = if let Some(first) = me["legal"].as_array().and_then(|l| l.first()) {
                ok(json!({"cmd": "act", "record": record, "seat": "P1", "action": first}))
            } else {
                ok(json!({"cmd": "bot", "record": record, "levels": levels}))
            };
            steps += 1;
            assert!(steps < 20_000, "{game} never ended");
        }
        assert!(record["outcome"].is_object(), "the record has its outcome");
    }
}

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let record = ok(json!({"cmd": "new", "game": "dalmuti", "players": 4, "seed": SEED}));
    let a = ask(json!({"cmd": "act", "record": record, "seat": "P1", "action": "dance"}));
    let b = ask(json!({"cmd": "new", "game": "chess", "players": 4, "seed": SEED}));
    let c = ask(json!({"cmd": "new", "game": "dalmuti", "players": 40, "seed": SEED}));
    let d =
        ask(json!({"cmd": "bot", "record": record, "levels": ["search:5ms", null, null, null]}));
    let e = ask(json!({"cmd": "nope"}));
    for (answer, code) in [
        (&b, "unknown_game"),
        (&c, "bad_record"),
        (&e, "bad_request"),
    ] {
        assert_eq!(answer["error"]["code"], code, "{answer}");
    }
    assert!(
        a["error"]["code"] == "illegal" || a["error"]["code"] == "not_your_turn",
        "{a}"
    );
    assert!(
        d["error"]["code"] == "unknown_bot" || d["error"]["code"] == "not_your_turn",
        "{d}"
    );
    assert!(!a["error"]["message"].as_str().unwrap_or("").is_empty());
    let f = ask(json!({"cmd": "analyze", "record": record}));
    assert_eq!(f["error"]["code"], "unfinished", "{f}");
}

#[test]
fn a_seat_sees_its_own_hand_and_not_the_others() {
    let record = ok(json!({"cmd": "new", "game": "bigcheese", "players": 4, "seed": SEED}));
    let mine = ok(json!({"cmd": "state", "record": record, "seat": "P2"}));
    let public = ok(json!({"cmd": "state", "record": record, "seat": null}));
    assert!(public["legal"].as_array().is_some_and(Vec::is_empty));
    assert_ne!(mine["view"], public["view"]);
    // Private events are only the seat's own: no other seat is named as
    // the receiver of an event this seat sees.
    let text = mine["log"].to_string();
    assert!(!text.contains("\"to\":\"P3\""), "{text}");
}

/// At every step of random games, each seat is told exactly the events
/// the game addresses to everyone or to it, legal actions only on its own
/// decision, and the seed only once the game is over; a spectator is told
/// the public events only.
#[test]
fn each_seat_is_told_only_what_it_may_know() {
    use game::{Game, Record, Seat};
    for (game, players) in [("bigcheese", 4), ("dalmuti", 5)] {
        for k in 0..3 {
            let seed = format!("{:064x}", 77 + k);
            let options = if game == "dalmuti" {
                json!({"hands": "2"})
            } else {
                json!({})
            };
            let trace = ok(json!({"cmd": "trace", "game": game, "players": players,
                "options": options, "seed": seed, "cap": 400}));
            let full: Record = serde_json::from_value(trace["record"].clone()).expect("a record");
            for n in (0..=full.actions.len()).step_by(7) {
                let mut record = full.clone();
                record.actions.truncate(n);
                record.outcome = None;
                let played: Vec<(Option<Seat>, usize, Option<Seat>)> = match game {
                    "bigcheese" => expected::<bigcheese::BigCheese>(&record),
                    _ => expected::<dalmuti::Dalmuti>(&record),
                };
                for (seat, events, mover) in played {
                    let told = ok(json!({"cmd": "state", "record": record, "seat": seat}));
                    let log = told["log"].as_array().map_or(0, Vec::len);
                    assert_eq!(log, events, "{game} at {n}: {seat:?} is told {log} events");
                    let legal = told["legal"].as_array().map_or(0, Vec::len);
                    assert_eq!(
                        legal > 0,
                        seat.is_some() && seat == mover,
                        "{game} at {n}: {seat:?}"
                    );
                    assert_eq!(told.get("seed").is_some(), told["over"] == true);
                }
            }
        }
    }

    /// Per seat and for a spectator: how many events it may see, and
    /// whose decision it is.
    fn expected<G: Game>(record: &Record) -> Vec<(Option<Seat>, usize, Option<Seat>)> {
        let g: G = record.replay_actions(true, |_, _, _| {}).expect("replays");
        Seat::all(g.players())
            .map(Some)
            .chain([None])
            .map(|s| {
                let n = g.events().iter().filter(|e| e.visible_to(s)).count();
                (s, n, g.to_move())
            })
            .collect()
    }
}
