//! JSON Schemas of the values The Great Dalmuti writes as text (`schema`
//! feature): cards, hands (`"2 | 7 7 7 | J J"`), sets played (`2x7+J`),
//! gifts, the join list and the action notation.
//!
//! The serde impls write these with `Display`, so the derive cannot see
//! their shape: the patterns here are the notation's grammar, checked
//! against every view and every legal action of random games by the
//! protocol's schema test (crates/python/tests/test_schemas.py).

use crate::{Action, Card, Gift, Hand, Joins, Play};
use game::schema::schemars::{JsonSchema, Schema, SchemaGenerator};
use game::schema::text;
use std::borrow::Cow;

/// One card: a rank 1 to 12, or J (a Jester).
const CARD: &str = "(1[0-2]|[1-9]|J)";
/// A natural rank, 1 to 12.
const RANK: &str = "(1[0-2]|[1-9])";

/// A set played: `7`, `3x7`, `2x7+J`, `1x7+2J`, `J`, `2xJ`.
fn play() -> String {
    format!("({RANK}|[1-9][0-9]*x{RANK}(\\+2?J)?|J|2xJ)")
}

macro_rules! text_schema {
    ($t:ty, $name:literal, $schema:expr) => {
        impl JsonSchema for $t {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                $schema
            }
        }
    };
}

text_schema!(
    Card,
    "Card",
    text(
        "A card: its rank 1 (the Dalmuti, best) to 12 (the Peasant), or J (a Jester, wild).",
        None,
        &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "J"],
    )
);

text_schema!(
    Hand,
    "Hand",
    text(
        "Cards best first, one group per rank, groups separated by ` | `: \
         `2 | 7 7 7 | J J`; `empty` for none.",
        Some(&format!(
            "^(empty|{CARD}( {CARD})*( \\| {CARD}( {CARD})*)*)$"
        )),
        &[],
    )
);

text_schema!(
    Play,
    "Play",
    text(
        "A set of cards: `7` (one 7), `3x7` (three 7s), `2x7+J` (two 7s and a Jester), \
         `1x7+2J`, `J`, `2xJ` (Jesters alone count as 13).",
        Some(&format!("^{}$", play())),
        &[],
    )
);

text_schema!(
    Gift,
    "Gift",
    text(
        "One or two cards, best first, separated by a space: `3 12`.",
        Some(&format!("^{CARD}( {CARD})?$")),
        &[],
    )
);

text_schema!(
    Joins,
    "Joins",
    text(
        "The hands before which a new player joins, comma-separated (`2,5`), or `none`.",
        Some("^(none|[0-9]+(,[0-9]+)*)$"),
        &[],
    )
);

text_schema!(
    Action,
    "Action",
    text(
        "An action in the text notation: `pass`, `play 2x7+J`, `give 3 12`, `revolution`, \
         `no-revolution`, `market P3 7`, `market P3` (black market), `no-market`, \
         `seat-new above`, `seat-new below`.",
        Some(&format!(
            "^(pass|play {}|give {CARD}( {CARD})?|revolution|no-revolution|\
             market P[1-9][0-9]*( {CARD})?|no-market|seat-new (above|below))$",
            play()
        )),
        &[],
    )
);
