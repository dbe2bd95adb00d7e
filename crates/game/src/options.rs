//! Rules options: every disagreement between the rulebooks is a named
//! option with a documented default, set as `key=value` text so that the
//! CLI, records and scenario files share one form.

use std::fmt;

/// One option a game understands, for `--help` lists and docs.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The key, as in `key=value`.
    pub key: &'static str,
    /// The default value, as text.
    pub default: &'static str,
    /// Allowed values, as text (`on|off`, `3..=6`, ...).
    pub values: &'static str,
    /// What it does, with the ruling id.
    pub help: &'static str,
}

/// An option that was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No such key.
    UnknownKey(String),
    /// The key exists but the value is not allowed.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// Text that is not of the form `key=value`.
    Malformed(String),
    /// The options contradict each other or the player count.
    Conflict(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownKey(k) => write!(f, "unknown option `{k}`"),
            OptionError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "option `{key}`: `{value}` is not allowed (expected {expected})"
            ),
            OptionError::Malformed(s) => write!(f, "`{s}` is not of the form key=value"),
            OptionError::Conflict(s) => write!(f, "conflicting options: {s}"),
        }
    }
}

impl std::error::Error for OptionError {}

impl OptionError {
    /// `value` is not allowed for `key`; `expected` says what is.
    pub fn bad_value(key: &str, value: &str, expected: &str) -> OptionError {
        OptionError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }
}

/// A game's options. Text in, text out: `set("dice", "d6")`, and `pairs()`
/// lists every option with its current value for records.
pub trait GameOptions: Default + Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Every option this game has.
    fn info() -> &'static [OptionInfo];

    /// Sets one option from text.
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError>;

    /// Every option and its current value, in [`GameOptions::info`] order.
    fn pairs(&self) -> Vec<(String, String)>;

    /// Sets one option from `key=value` text.
    fn set_pair(&mut self, pair: &str) -> Result<(), OptionError> {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| OptionError::Malformed(pair.to_string()))?;
        self.set(k.trim(), v.trim())
    }

    /// Builds options from defaults plus `key=value` pairs, in order.
    fn from_pairs<'a, I: IntoIterator<Item = (&'a str, &'a str)>>(
        pairs: I,
    ) -> Result<Self, OptionError> {
        let mut o = Self::default();
        for (k, v) in pairs {
            o.set(k, v)?;
        }
        Ok(o)
    }
}

/// Parses `on|off|true|false|yes|no|1|0` for boolean options.
pub fn parse_bool(key: &str, value: &str) -> Result<bool, OptionError> {
    match value {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(OptionError::bad_value(key, value, "on or off")),
    }
}

/// Writes a boolean option the way [`parse_bool`] reads it.
pub fn bool_text(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}
