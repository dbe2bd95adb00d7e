//! The JSON Schemas of `ratrace-bot/1`, generated from the protocol's own
//! serde types ([`ToBot`], [`FromBot`]) and a game's view, event and action
//! types, so that docs/protocol/ cannot drift from what is written.
//!
//! One file set per game (its `to-bot` messages embed its view, events and
//! action notation) and one `from-bot` for both. The test
//! `schemas_are_up_to_date` (crates/extbot/tests/schemas.rs) compares these
//! with the committed files; crates/python/tests/test_schemas.py checks
//! every message of random games against them.

use crate::protocol::{FromBot, ToBot};
use game::OptionInfo;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{json, Value};
use std::fmt::Display;

/// One schema file: its path under docs/protocol/ and its content.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaFile {
    /// The path under docs/protocol/, `/`-separated: `dalmuti/view.json`.
    pub path: String,
    /// The schema.
    pub schema: Value,
}

impl SchemaFile {
    /// The file's text: pretty JSON with a final newline.
    pub fn text(&self) -> String {
        let mut t = serde_json::to_string_pretty(&self.schema).expect("a schema is JSON");
        t.push('\n');
        t
    }
}

/// The root schema of `T` for what ratrace writes (the serialize form:
/// every field always present, `null` for none).
fn written<T: JsonSchema + ?Sized>() -> Schema {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// `schema` as a file at `path`, with a title and a description first.
fn file(path: String, title: String, description: &str, schema: Schema) -> SchemaFile {
    let mut out = serde_json::Map::new();
    let mut rest = schema.to_value();
    let rest = rest.as_object_mut().expect("a root schema is an object");
    if let Some(s) = rest.remove("$schema") {
        out.insert("$schema".into(), s);
    }
    rest.remove("title");
    rest.remove("description");
    out.insert("title".into(), Value::String(title));
    out.insert("description".into(), Value::String(description.into()));
    out.append(rest);
    SchemaFile {
        path,
        schema: Value::Object(out),
    }
}

/// The messages a bot writes, for both games (the action is checked
/// against the game's `action.json` and, above all, `legal`).
pub fn from_bot() -> SchemaFile {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<FromBot>();
    file(
        "from-bot.json".into(),
        "ratrace-bot/1: a message from the bot".into(),
        "`ready` answers `start`; `action` answers `act`, with the act's `id` and one string \
         of its `legal`. Unknown fields are ignored. See docs/bot-protocol.md.",
        schema,
    )
}

/// The schema of one option's text in `start`: its help, values and
/// default, and its values as an `enum` (words: `on|off`) or a `pattern`
/// (words and numbers: `auto|1..=10000`); a value list in prose
/// (`none|H,H,... (...)`) is described only.
fn option_text(o: &OptionInfo) -> Value {
    let description = format!("{}. Values: {}; default {}.", o.help, o.values, o.default);
    let tokens: Vec<&str> = o.values.split('|').collect();
    if tokens.iter().any(|t| t.contains(['(', ','])) {
        return json!({"type": "string", "description": description});
    }
    let words: Vec<&str> = tokens
        .iter()
        .copied()
        .filter(|t| !t.contains(".."))
        .collect();
    if words.len() == tokens.len() {
        return json!({"type": "string", "enum": words, "description": description});
    }
    let mut alternatives = words.join("|");
    if !alternatives.is_empty() {
        alternatives.push('|');
    }
    let pattern = format!("^({alternatives}[0-9]+)$");
    json!({"type": "string", "pattern": pattern, "description": description})
}

/// The schema files of game `game` (`V` its seat view, `E` its event, `A`
/// its action, `options` its rules options): `GAME/to-bot.json` (every
/// message to the bot), and its parts alone, `GAME/view.json`,
/// `GAME/event.json`, `GAME/action.json`.
pub fn game<V, E, A>(game: &str, options: &[OptionInfo]) -> Vec<SchemaFile>
where
    V: JsonSchema + 'static,
    E: JsonSchema + 'static,
    A: JsonSchema + Display + 'static,
{
    let mut to_bot = written::<ToBot<'static, V, E, A>>();
    if let Some(variants) = to_bot.get_mut("oneOf").and_then(Value::as_array_mut) {
        for v in variants {
            if v.pointer("/properties/type/const") == Some(&json!("start")) {
                if let Some(g) = v.pointer_mut("/properties/game") {
                    *g = json!({"const": game, "description": "The game's machine name."});
                }
                if let Some(o) = v.pointer_mut("/properties/options") {
                    let keys: Vec<&str> = options.iter().map(|o| o.key).collect();
                    let props: serde_json::Map<String, Value> = options
                        .iter()
                        .map(|o| (o.key.to_string(), option_text(o)))
                        .collect();
                    o["properties"] = Value::Object(props);
                    o["required"] = json!(keys);
                }
            }
        }
    }
    let path = |name: &str| format!("{game}/{name}.json");
    vec![
        file(
            path("to-bot"),
            format!("ratrace-bot/1: a message to a {game} bot"),
            "`start` (answer `ready`), `event` (no answer), `act` (answer `action`), `end`, \
             `quit`, told apart by `type`. A bot must ignore fields it does not know. \
             See docs/bot-protocol.md.",
            to_bot,
        ),
        file(
            path("view"),
            format!("{game}: a seat's view"),
            "What one seat knows, as `act` carries it and the seat's web client gets it: \
             everything public and the seat's own secrets, never another seat's.",
            written::<V>(),
        ),
        file(
            path("event"),
            format!("{game}: an event"),
            "Something that happened, tagged by `kind`, as `event` carries it (only events \
             the seat may see).",
            written::<E>(),
        ),
        file(
            path("action"),
            format!("{game}: an action"),
            "An action in the game's text notation, as `legal` lists them and `action` \
             answers one.",
            written::<A>(),
        ),
    ]
}
