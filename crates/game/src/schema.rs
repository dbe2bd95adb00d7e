//! JSON Schemas of the shared vocabulary (`schema` feature): the seat, the
//! outcome, and a helper for the many values written as text (cards, hands,
//! actions), whose schema is a string with a pattern or a list of words.
//!
//! Only built with the `schema` feature, so the rules crates stay free of
//! `schemars` unless docs/protocol/ is being generated or checked.

use crate::Seat;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

pub use schemars;

/// A string schema: `description`, and either a `pattern` (a regular
/// expression the whole text matches) or, with `None`, `words` (the text
/// is one of them).
pub fn text(description: &str, pattern: Option<&str>, words: &[&str]) -> Schema {
    match pattern {
        Some(p) => json_schema!({"type": "string", "pattern": p, "description": description}),
        None => json_schema!({"type": "string", "enum": words, "description": description}),
    }
}

impl JsonSchema for Seat {
    fn schema_name() -> Cow<'static, str> {
        "Seat".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        text(
            "A seat: P1, P2, ... (P1 is the first seat).",
            Some("^P([1-9]|1[0-6])$"),
            &[],
        )
    }
}
