//! JSON Schemas of the values The Big Cheese writes as text (`schema`
//! feature): a card is one of nine names, an action is its notation.
//!
//! The serde impls write these with `Display`, so the derive cannot see
//! their shape: the patterns here are the notation's grammar, checked
//! against every legal action of random games by the protocol's schema
//! test (crates/python/tests/test_schemas.py).

use crate::{Action, Card};
use game::schema::schemars::{JsonSchema, Schema, SchemaGenerator};
use game::schema::text;
use std::borrow::Cow;

impl JsonSchema for Card {
    fn schema_name() -> Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Card::ALL.iter().map(|c| c.as_str()).collect();
        text(
            "A card: a number card (2, 4, 6, 8, 10, 12, 20), V (Veto) or BC (Big Cheese).",
            None,
            &names,
        )
    }
}

impl JsonSchema for Action {
    fn schema_name() -> Cow<'static, str> {
        "Action".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        text(
            "An action in the text notation: `bid N` (chips), `pass`, `veto`, `keep`, \
             `reroll` (the single die), `reroll 1,1,2` (the dice showing these faces).",
            Some("^(bid [1-9][0-9]*|pass|veto|keep|reroll|reroll [1-6](,[1-6])*)$"),
            &[],
        )
    }
}
