//! The fuzz checks of every parser that reads outside input, one
//! `pub fn NAME(data: &[u8])` per `cargo fuzz` target, each panicking on any
//! failure (a crash in the parser or engine, or a broken round trip).
//!
//! They live in an ordinary stable crate rather than in `fuzz/` so that the
//! same checks run twice: under libFuzzer on nightly (`fuzz/fuzz_targets/`
//! only calls them) and under `cargo test` on stable, where
//! `tests/corpus.rs` replays every committed corpus and regression input.
//! Round trips are checked where a display exists: parse, display, parse
//! again must give the same value.

use game::{Record, Seat};
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// Records larger than this are skipped: a bigger one says nothing new and
/// would only slow the fuzzer down.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;
/// Records with more actions than this are parsed and round-tripped but not
/// replayed, so that no input can take long.
pub const MAX_REPLAY_ACTIONS: usize = 2_000;
/// Scenario texts larger than this are skipped (every line is at most one
/// action, so this bounds the work).
pub const MAX_SCENARIO_BYTES: usize = 32 * 1024;

/// A fuzz check: returns on any input it accepts or rejects cleanly,
/// panics on a finding.
pub type Check = fn(&[u8]);

/// Every check by its target name, the name of its `fuzz/fuzz_targets/`
/// file and of its folders under `fuzz/corpus/` and `fuzz/regressions/`.
pub const TARGETS: &[(&str, Check)] = &[
    ("bigcheese_action", bigcheese_action),
    ("dalmuti_action", dalmuti_action),
    ("record", record),
    ("client_msg", client_msg),
    ("scenario", scenario),
    ("lobby", lobby),
];

/// Parses `text` as a `T`; when that works, displays the value, parses the
/// display again and panics unless it gives the same value. Returns the
/// value, or `None` when `text` does not parse.
///
/// # Panics
/// When the display does not read back as the same value.
pub fn round_trip<T>(text: &str) -> Option<T>
where
    T: FromStr + Display + PartialEq + Debug,
    T::Err: Debug,
{
    let value = text.parse::<T>().ok()?;
    let shown = value.to_string();
    match shown.parse::<T>() {
        Ok(again) => assert_eq!(
            again, value,
            "`{text}` reads as {value:?}, shown as `{shown}`, which reads as {again:?}"
        ),
        Err(e) => panic!("`{text}` reads as {value:?}, shown as `{shown}`, which fails: {e:?}"),
    }
    Some(value)
}

/// A seat and an action written `SEAT ACTION`, as in a record: both parts
/// must round-trip when they parse.
fn seat_and_action<A>(text: &str) -> Option<(Seat, A)>
where
    A: FromStr + Display + PartialEq + Debug,
    A::Err: Debug,
{
    let (seat, action) = text.trim().split_once(' ')?;
    Some((round_trip::<Seat>(seat)?, round_trip::<A>(action.trim())?))
}

/// The Big Cheese action notation (`bid 4`, `reroll 1,1,2`), seats (`P3`),
/// cards and `SEAT ACTION`: each must round-trip, and a parsed action must
/// be checked by a fresh engine without a panic.
pub fn bigcheese_action(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    round_trip::<Seat>(text);
    round_trip::<bigcheese::Card>(text);
    seat_and_action::<bigcheese::Action>(text);
    if let Some(action) = round_trip::<bigcheese::Action>(text) {
        use game::Game;
        let engine = bigcheese::BigCheese::new(&bigcheese::Options::default(), 4, 1)
            .expect("the default game sets up");
        let _ = engine.check(action);
    }
}

/// The Great Dalmuti action notation (`play 2x7+J`, `give 3 12`,
/// `market P3 7`) and its parts (sets, gifts, sides, cards, hands, seats,
/// `SEAT ACTION`): each must round-trip, and a parsed action must be
/// checked by a fresh engine without a panic.
pub fn dalmuti_action(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    round_trip::<Seat>(text);
    round_trip::<dalmuti::Card>(text);
    round_trip::<dalmuti::Hand>(text);
    round_trip::<dalmuti::Play>(text);
    round_trip::<dalmuti::Gift>(text);
    round_trip::<dalmuti::Side>(text);
    seat_and_action::<dalmuti::Action>(text);
    if let Some(action) = round_trip::<dalmuti::Action>(text) {
        use game::Game;
        let engine = dalmuti::Dalmuti::new(&dalmuti::Options::default(), 5, 1)
            .expect("the default game sets up");
        let _ = engine.check(action);
    }
}

/// Game records as `ratrace replay` and `ratrace verify` read them (JSON):
/// deserialize, serialize, deserialize must give the same record; a record
/// of at most [`MAX_REPLAY_ACTIONS`] actions is then replayed as both games
/// (with the event log on, every event read back from its JSON), as a
/// play-by-play and by the verifier, none of which may panic.
pub fn record(data: &[u8]) {
    if data.len() > MAX_RECORD_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = registry::records::parse(text) else {
        return;
    };
    for json in [
        serde_json::to_string(&record),
        serde_json::to_string_pretty(&record),
    ] {
        let json = json.expect("a record serializes");
        let again: Record = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{record:?} serializes as {json}, which fails: {e}"));
        assert_eq!(again, record, "{record:?} serializes as {json}");
    }
    if record.actions.len() > MAX_REPLAY_ACTIONS {
        return;
    }
    replay_events::<bigcheese::BigCheese>(&record);
    replay_events::<dalmuti::Dalmuti>(&record);
    let _ = registry::records::play_by_play(&record, false);
    let _ = registry::verify::verify(&record);
}

/// Replays a record with the event log on: every event must read back
/// from its JSON (what the server sends) unchanged.
fn replay_events<G: game::Game>(record: &Record) {
    let Ok(game) = record.replay_actions::<G>(true, |_, _, _| {}) else {
        return;
    };
    let _ = record.check_outcome(&game);
    for entry in game.events() {
        let json = serde_json::to_string(&entry.event).expect("an event serializes");
        let back: G::Event = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
        assert_eq!(back, entry.event, "{json}");
        let _ = entry.event.to_string();
    }
}

/// The JSON of one client message, in the server's order of work: a
/// message of at most `MAX_MESSAGE` bytes is parsed as a
/// `server::protocol::ClientMsg`, and an `act` message's action as either
/// game's notation. `ClientMsg` has no `Serialize`, so the round trip
/// re-encodes it here by hand in the documented wire format
/// (docs/server.md) and parses that again.
pub fn client_msg(data: &[u8]) {
    use server::protocol::{ClientMsg, MAX_MESSAGE};
    if data.len() > MAX_MESSAGE {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(msg) = serde_json::from_str::<ClientMsg>(text) else {
        return;
    };
    let encoded = match &msg {
        ClientMsg::Hello {
            token,
            lang,
            contribution,
            key,
        } => {
            serde_json::json!({"type": "hello", "token": token, "lang": lang,
                               "contribution": contribution, "key": key})
        }
        ClientMsg::Chat { text, emote } => {
            serde_json::json!({"type": "chat", "text": text, "emote": emote})
        }
        ClientMsg::Act { seq, action } => {
            round_trip::<bigcheese::Action>(action);
            round_trip::<dalmuti::Action>(action);
            serde_json::json!({"type": "act", "seq": seq, "action": action})
        }
        ClientMsg::Resync => serde_json::json!({"type": "resync"}),
        ClientMsg::Concede => serde_json::json!({"type": "concede"}),
        ClientMsg::Ping => serde_json::json!({"type": "ping"}),
    }
    .to_string();
    let again = serde_json::from_str::<ClientMsg>(&encoded)
        .unwrap_or_else(|e| panic!("{msg:?} re-encoded as {encoded} fails: {e}"));
    assert_eq!(again, msg, "`{text}` re-encoded as {encoded}");
}

/// Scenario files as `ratrace scenario` runs them (the text of one file, at
/// most [`MAX_SCENARIO_BYTES`]): running must not panic, whatever the
/// lines say. A scenario has no display, so there is no round trip; a
/// failing scenario is an answer, not a finding.
pub fn scenario(data: &[u8]) {
    if data.len() > MAX_SCENARIO_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let report = registry::scenario::run_text("fuzz.scen", text);
    assert!(
        report.failures.iter().all(|f| !f.message.is_empty()),
        "a scenario failure says nothing: {:?}",
        report.failures
    );
}

/// Whether two JSON values are the same, floats to within a relative
/// 1e-12. serde_json, built without its `float_roundtrip` feature, does not
/// always read its own output of a float back bit for bit (found by the
/// `lobby` target: `100000022222222200000000001594783922` reads, prints as
/// `1.0000002222222219e+35` and reads back one bit apart). No option of
/// either game takes a float, so that loss never reaches a table.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}

/// The lobby's JSON bodies, `POST /api/tables` (`CreateRequest`) and
/// `POST /api/tables/{id}/join` (`JoinRequest`): the same bytes are read
/// as each. Neither type has `Serialize` or `PartialEq`, so a parsed body
/// is re-encoded here by hand in the documented format (docs/server.md),
/// parsed again, and the two compared field by field (floats in options
/// to within a rounding, see `same_json`).
pub fn lobby(data: &[u8]) {
    use server::lobby::{CreateRequest, FillRequest, JoinRequest, SeatRequest};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(req) = serde_json::from_str::<CreateRequest>(text) {
        let seats = req.seats.as_ref().map(|seats| {
            seats
                .iter()
                .map(|s| match s {
                    SeatRequest::Human => serde_json::json!({"kind": "human"}),
                    SeatRequest::Bot { bot } => serde_json::json!({"kind": "bot", "bot": bot}),
                })
                .collect::<Vec<_>>()
        });
        let encoded = serde_json::json!({
            "game": req.game,
            "players": req.players,
            "options": req.options,
            "seats": seats,
            "bot_delay_ms": req.bot_delay_ms,
            "turn_timer_ms": req.turn_timer_ms,
            "public": req.public,
        })
        .to_string();
        let again = serde_json::from_str::<CreateRequest>(&encoded)
            .unwrap_or_else(|e| panic!("{req:?} re-encoded as {encoded} fails: {e}"));
        let same = again.game == req.game
            && again.players == req.players
            && format!("{:?}", again.seats) == format!("{:?}", req.seats)
            && again.bot_delay_ms == req.bot_delay_ms
            && again.turn_timer_ms == req.turn_timer_ms
            && again.public == req.public
            && again.options.len() == req.options.len()
            && again
                .options
                .iter()
                .zip(&req.options)
                .all(|((ka, va), (kb, vb))| ka == kb && same_json(va, vb));
        assert!(same, "`{text}` re-encoded as {encoded} reads as {again:?}");
    }
    if let Ok(req) = serde_json::from_str::<JoinRequest>(text) {
        let encoded = serde_json::json!({"seat": req.seat, "name": req.name, "key": req.key,
                                         "contribution": req.contribution})
        .to_string();
        let again = serde_json::from_str::<JoinRequest>(&encoded)
            .unwrap_or_else(|e| panic!("{req:?} re-encoded as {encoded} fails: {e}"));
        assert_eq!(
            format!("{again:?}"),
            format!("{req:?}"),
            "`{text}` re-encoded as {encoded}"
        );
        // A cleaned name is clean: cleaning it again changes nothing.
        if let Ok(name) = server::names::clean_name(&req.name) {
            assert_eq!(
                server::names::clean_name(&name).ok().as_deref(),
                Some(name.as_str()),
                "`{}` cleans to `{name}`, which does not clean to itself",
                req.name
            );
        }
        if let Some(c) = &req.contribution {
            let _ = registry::fair::parse_contribution(c);
        }
    }
    if let Ok(req) = serde_json::from_str::<FillRequest>(text) {
        let encoded = serde_json::json!({"seat": req.seat, "creator": req.creator, "bot": req.bot})
            .to_string();
        let again = serde_json::from_str::<FillRequest>(&encoded)
            .unwrap_or_else(|e| panic!("{req:?} re-encoded as {encoded} fails: {e}"));
        assert_eq!(format!("{again:?}"), format!("{req:?}"), "`{text}`");
    }
}
