//! The messages of `ratrace-bot/1` (docs/bot-protocol.md), as serde types:
//! what ratrace writes to a bot ([`ToBot`]) and what it reads back
//! ([`FromBot`]).
//!
//! Messages to the bot borrow what they carry (the view, the events, the
//! legal list), so a decision is serialized straight from the engine's
//! values into one line without copies; the legal actions are written with
//! their `Display` notation.
//!
//! Each type also derives `JsonSchema`: docs/protocol/ is generated from
//! these very types (see [`crate::schema`]), so the schemas cannot drift
//! from what is written.

use game::{Outcome, Seat};
use schemars::JsonSchema;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt::Display;

/// The protocol's version number, sent in `start` and expected in `ready`.
pub const PROTOCOL: u32 = 1;

/// The longest line a bot may write (bytes, newline excluded): an answer
/// is a few dozen bytes, so a longer line is a flood.
pub const MAX_LINE: usize = 64 * 1024;

/// A bot's time limits, as `start` announces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Time {
    /// The most one decision may take, milliseconds.
    pub move_ms: u64,
    /// The bank for the whole game, milliseconds; `None`: no bank.
    pub game_ms: Option<u64>,
}

/// Where this game stands in the process's match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Match {
    /// 1 for the first game this process plays, then 2, 3, ...
    #[schemars(range(min = 1))]
    pub game: u64,
}

/// A message to the bot. `V` is the game's view, `E` its event, `A` its
/// action.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot<'a, V, E, A: Display> {
    /// A game begins; the bot answers `ready`.
    Start {
        /// The protocol's version: 1.
        #[schemars(extend("const" = PROTOCOL))]
        protocol: u32,
        /// The game's machine name: `bigcheese` or `dalmuti`.
        game: &'a str,
        /// The rules version the engine plays.
        rules_version: &'a str,
        /// Every rules option, `key: value` text, as records keep them
        /// (the view has the same keys, with typed values).
        #[serde(serialize_with = "pairs")]
        #[schemars(with = "std::collections::BTreeMap<String, String>")]
        options: &'a [(String, String)],
        /// Seats at the start (a Dalmuti session may grow later: the
        /// view is always current).
        #[schemars(range(min = 1))]
        players: usize,
        /// The bot's seat.
        seat: Seat,
        /// The time limits.
        time: Time,
        /// The match so far.
        #[serde(rename = "match")]
        match_: Match,
    },
    /// An event the bot's seat may see.
    Event {
        /// The game's typed event (tagged by `kind`).
        event: &'a E,
    },
    /// A decision; the bot answers `action` with the same `id`.
    Act {
        /// The decision's number in this process, from 1.
        #[schemars(range(min = 1))]
        id: u64,
        /// The seat's view.
        view: &'a V,
        /// Every legal action, as text (never empty), in the engine's
        /// fixed order.
        #[serde(serialize_with = "texts")]
        #[schemars(with = "Vec<A>", length(min = 1))]
        legal: &'a [A],
        /// How long this decision may take, milliseconds.
        time_ms: u64,
    },
    /// The game is over.
    End {
        /// How it ended.
        outcome: &'a Outcome,
    },
    /// The match is over: the bot should exit.
    Quit,
}

fn pairs<S: Serializer>(pairs: &&[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

fn texts<S: Serializer, A: Display>(list: &&[A], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(list.len()))?;
    for a in list.iter() {
        seq.serialize_element(&Text(a))?;
    }
    seq.end()
}

/// A value written as its `Display` text.
struct Text<'a, A>(&'a A);

impl<A: Display> Serialize for Text<'_, A> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// A message from the bot. Unknown fields are ignored.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The answer to `start`.
    Ready {
        /// The bot's name, for reports (cut to 64 characters).
        name: String,
        /// The protocol version it speaks: must be 1.
        #[schemars(extend("const" = PROTOCOL))]
        protocol: u32,
    },
    /// The answer to `act`.
    Action {
        /// The decision's `id`.
        #[schemars(range(min = 1))]
        id: u64,
        /// One of the legal actions, as text.
        action: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_documented_shape() {
        let opts = vec![("hands".to_string(), "1".to_string())];
        let start: ToBot<'_, (), (), u8> = ToBot::Start {
            protocol: PROTOCOL,
            game: "dalmuti",
            rules_version: "dalmuti/3",
            options: &opts,
            players: 4,
            seat: Seat::new(1),
            time: Time {
                move_ms: 1000,
                game_ms: None,
            },
            match_: Match { game: 1 },
        };
        assert_eq!(
            serde_json::to_string(&start).unwrap(),
            r#"{"type":"start","protocol":1,"game":"dalmuti","rules_version":"dalmuti/3","options":{"hands":"1"},"players":4,"seat":"P2","time":{"move_ms":1000,"game_ms":null},"match":{"game":1}}"#
        );
        let act: ToBot<'_, u8, (), u8> = ToBot::Act {
            id: 7,
            view: &3,
            legal: &[1, 2],
            time_ms: 998,
        };
        assert_eq!(
            serde_json::to_string(&act).unwrap(),
            r#"{"type":"act","id":7,"view":3,"legal":["1","2"],"time_ms":998}"#
        );
        let quit: ToBot<'_, (), (), u8> = ToBot::Quit;
        assert_eq!(serde_json::to_string(&quit).unwrap(), r#"{"type":"quit"}"#);
    }

    #[test]
    fn answers_read_with_unknown_fields_and_refuse_the_wrong_shape() {
        let a: FromBot =
            serde_json::from_str(r#"{"type":"action","id":3,"action":"pass","why":"x"}"#).unwrap();
        assert_eq!(
            a,
            FromBot::Action {
                id: 3,
                action: "pass".into()
            }
        );
        for bad in [
            r#"{"type":"action","action":"pass"}"#,
            r#"{"type":"move","id":1,"action":"pass"}"#,
            r#"{"id":1,"action":"pass"}"#,
            r#"["action"]"#,
            "pass",
        ] {
            assert!(serde_json::from_str::<FromBot>(bad).is_err(), "{bad}");
        }
    }
}
