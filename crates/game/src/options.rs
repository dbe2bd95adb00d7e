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
                "option `{key}`: `{value}` is not allowed (expected {})",
                values_in_words(expected)
            ),
            OptionError::Malformed(s) => write!(f, "`{s}` is not of the form key=value"),
            OptionError::Conflict(s) => write!(f, "conflicting options: {s}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// An option's allowed values (`OptionInfo::values`: `auto|1..=10000`,
/// `on|off`, `1..`) in words, for people: "auto, or a whole number from 1
/// to 10000". Text that is not of that syntax is returned as it is.
pub fn values_in_words(values: &str) -> String {
    let range = |part: &str| -> Option<String> {
        let (lo, hi) = part.split_once("..")?;
        let lo: u64 = lo.parse().ok()?;
        let hi = hi.strip_prefix('=').unwrap_or(hi);
        if hi.is_empty() {
            return Some(format!("a whole number from {lo} up"));
        }
        let hi: u64 = hi.parse().ok()?;
        Some(format!("a whole number from {lo} to {hi}"))
    };
    let parts: Vec<String> = values
        .split('|')
        .map(|p| range(p).unwrap_or_else(|| p.to_string()))
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] if last.starts_with("a whole number") => {
            format!("{}, or {last}", init.join(", "))
        }
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

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

/// Parses a number option that must lie in `range`; `expected` is what
/// the error says is allowed.
pub fn parse_in<T: std::str::FromStr + PartialOrd>(
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
    expected: &str,
) -> Result<T, OptionError> {
    match value.parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(OptionError::bad_value(key, value, expected)),
    }
}

/// Reads a choice option: one of the named values in `choices`
/// (`veto=before-bid`); the error lists the names (`any-turn|before-bid`).
pub fn parse_choice<T: Copy>(
    key: &str,
    value: &str,
    choices: &[(&str, T)],
) -> Result<T, OptionError> {
    match choices.iter().find(|(name, _)| *name == value) {
        Some(&(_, v)) => Ok(v),
        None => {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            Err(OptionError::bad_value(key, value, &names.join("|")))
        }
    }
}

/// Writes a choice option's value by its name in `choices` (the first
/// name, if the table has none for it).
pub fn choice_text<T: PartialEq>(value: &T, choices: &[(&'static str, T)]) -> String {
    choices
        .iter()
        .find(|(_, v)| v == value)
        .or(choices.first())
        .map_or_else(String::new, |(name, _)| (*name).to_string())
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

#[cfg(test)]
mod tests {

    #[test]
    fn allowed_values_read_as_words() {
        assert_eq!(
            values_in_words("auto|1..=10000"),
            "auto, or a whole number from 1 to 10000"
        );
        assert_eq!(values_in_words("on|off"), "on or off");
        assert_eq!(
            values_in_words("off|1.."),
            "off, or a whole number from 1 up"
        );
        assert_eq!(values_in_words("1..=50"), "a whole number from 1 to 50");
        assert_eq!(values_in_words("a|b|c"), "a, b or c");
        let e = OptionError::bad_value("target", "0", "auto|1..=10000");
        assert_eq!(
            e.to_string(),
            "option `target`: `0` is not allowed (expected auto, or a whole number from 1 to 10000)"
        );
    }

    use super::*;

    #[test]
    fn numbers_and_choices_read_back_and_name_what_is_allowed() {
        assert_eq!(parse_in("chips", "7", 1..=50u8, "1..=50"), Ok(7));
        for bad in ["0", "51", "x", "-1", ""] {
            assert_eq!(
                parse_in("chips", bad, 1..=50u8, "1..=50"),
                Err(OptionError::bad_value("chips", bad, "1..=50"))
            );
        }
        const SIDES: &[(&str, bool)] = &[("left", false), ("right", true)];
        assert_eq!(parse_choice("side", "right", SIDES), Ok(true));
        assert_eq!(
            parse_choice("side", "up", SIDES),
            Err(OptionError::bad_value("side", "up", "left|right"))
        );
        for (name, v) in SIDES {
            assert_eq!(choice_text(v, SIDES), *name);
        }
        assert_eq!(parse_bool("x", "yes"), Ok(true));
        assert_eq!(bool_text(false), "off");
    }
}
