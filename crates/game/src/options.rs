//! Rules options: every disagreement between the rulebooks is a named
//! option with a documented default, set as `key=value` text so that the
//! CLI, records and scenario files share one form.
//!
//! A game declares its options once, with [`options!`]: each option's
//! name, type, default, allowed values and help (which names its ruling)
//! in one line, from which the struct, its `Default`, [`GameOptions`]'s
//! `info`, `set` and `pairs`, the CLI's `options` list, the lobby's form
//! and the README's check all follow. A value's type reads and writes its
//! text through [`OptionValue`], against the allowed values declared.

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

/// A type an option's value has: read from text and written back as
/// text, both against the option's declared allowed values (`values`, as
/// in [`OptionInfo::values`]: `on|off`, `1..=50`, `auto|1..=10000`,
/// `first-out|points`).
pub trait OptionValue: Sized {
    /// Reads option `key`'s value from `text`; an error names what
    /// `values` allows.
    fn read(key: &str, text: &str, values: &str) -> Result<Self, OptionError>;

    /// The value as text, as [`OptionValue::read`] reads it back.
    fn write(&self, values: &str) -> String;
}

impl OptionValue for bool {
    fn read(key: &str, text: &str, _values: &str) -> Result<bool, OptionError> {
        parse_bool(key, text)
    }

    fn write(&self, _values: &str) -> String {
        bool_text(*self)
    }
}

/// The range of whole numbers `values` allows (its alternative `LO..=HI`,
/// or `LO..` up to `max`).
fn declared_range(values: &str, max: u64) -> Option<(u64, u64)> {
    values.split('|').find_map(|part| {
        let (lo, hi) = part.split_once("..")?;
        let lo = lo.parse().ok()?;
        let hi = match hi.strip_prefix('=').unwrap_or(hi) {
            "" => max,
            hi => hi.parse().ok()?,
        };
        Some((lo, hi))
    })
}

macro_rules! whole_number_options {
    ($($t:ty),*) => {$(
        impl OptionValue for $t {
            fn read(key: &str, text: &str, values: &str) -> Result<$t, OptionError> {
                let (lo, hi) = declared_range(values, <$t>::MAX as u64)
                    .ok_or_else(|| OptionError::bad_value(key, text, values))?;
                let n: u64 = parse_in(key, text, lo..=hi.min(<$t>::MAX as u64), values)?;
                <$t>::try_from(n).map_err(|_| OptionError::bad_value(key, text, values))
            }

            fn write(&self, _values: &str) -> String {
                self.to_string()
            }
        }
    )*};
}
whole_number_options!(u8, u16, u32, u64);

/// A number or a word for none: `auto|1..=10000` reads `auto` as `None`
/// (the first alternative that is a word names it).
impl<T: OptionValue> OptionValue for Option<T> {
    fn read(key: &str, text: &str, values: &str) -> Result<Option<T>, OptionError> {
        if values.split('|').any(|w| w == text && !w.contains("..")) {
            Ok(None)
        } else {
            T::read(key, text, values).map(Some)
        }
    }

    fn write(&self, values: &str) -> String {
        match self {
            Some(v) => v.write(values),
            None => values
                .split('|')
                .find(|w| !w.contains(".."))
                .unwrap_or("none")
                .to_string(),
        }
    }
}

/// Makes a choice enum an [`OptionValue`]: its values by name
/// (`option_choices!(VetoTiming { "any-turn" => VetoTiming::AnyTurn, ... })`).
#[macro_export]
macro_rules! option_choices {
    ($ty:ty { $($name:literal => $value:expr),+ $(,)? }) => {
        impl $crate::OptionValue for $ty {
            fn read(key: &str, text: &str, _values: &str) -> Result<$ty, $crate::OptionError> {
                $crate::parse_choice(key, text, &[$(($name, $value)),+])
            }

            fn write(&self, _values: &str) -> String {
                $crate::choice_text(self, &[$(($name, $value)),+])
            }
        }
    };
}

/// Declares a game's options once: the struct (each field documented by
/// its help), its `Default` (each field read from its default text), and
/// its [`GameOptions`] (`info`, `set`, `pairs`, in declaration order).
/// `check` (optional) is called with the options as they would be after a
/// `set`, which is refused, changing nothing, if it fails (options that
/// conflict).
///
/// ```ignore
/// game::options! {
///     /// The options of a game.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub struct Options {
///         chips: u8 = "10", "1..=50", "B1: starting chips per player";
///     }
/// }
/// ```
#[macro_export]
macro_rules! options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($field:ident : $ty:ty = $default:literal, $values:literal, $help:literal;)+
        }
        $(check = $check:path;)?
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                #[doc = $help]
                pub $field: $ty,
            )+
        }

        impl $name {
            /// Every option, as declared.
            const INFO: &'static [$crate::OptionInfo] = &[$(
                $crate::OptionInfo {
                    key: stringify!($field),
                    default: $default,
                    values: $values,
                    help: $help,
                },
            )+];
        }

        impl Default for $name {
            /// Every option at its declared default (each default reads:
            /// `declared_defaults_read` in `game`'s tests, and each game's
            /// own).
            fn default() -> $name {
                $name {$(
                    $field: <$ty as $crate::OptionValue>::read(stringify!($field), $default, $values)
                        .expect("a declared default reads"),
                )+}
            }
        }

        impl $crate::GameOptions for $name {
            fn info() -> &'static [$crate::OptionInfo] {
                $name::INFO
            }

            fn set(&mut self, key: &str, value: &str) -> Result<(), $crate::OptionError> {
                let mut next = self.clone();
                match key {
                    $(stringify!($field) => {
                        next.$field = <$ty as $crate::OptionValue>::read(key, value, $values)?;
                    })+
                    _ => return Err($crate::OptionError::UnknownKey(key.to_string())),
                }
                $($check(&next)?;)?
                *self = next;
                Ok(())
            }

            fn pairs(&self) -> Vec<(String, String)> {
                vec![$(
                    (
                        stringify!($field).to_string(),
                        $crate::OptionValue::write(&self.$field, $values),
                    ),
                )+]
            }
        }
    };
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

    /// The options a test game declares, read and written back.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) enum Side {
        Left,
        Right,
    }
    crate::option_choices!(Side { "left" => Side::Left, "right" => Side::Right });

    fn no_left_with_few(o: &TestOptions) -> Result<(), OptionError> {
        if o.side == Side::Left && o.chips < 3 {
            return Err(OptionError::Conflict("left needs 3 chips".into()));
        }
        Ok(())
    }

    crate::options! {
        #[derive(Clone, Debug, PartialEq)]
        #[allow(unreachable_pub)]
        pub struct TestOptions {
            chips: u8 = "10", "1..=50", "B1: starting chips";
            target: Option<u16> = "auto", "auto|1..=10000", "B12: the target";
            limit: Option<u32> = "off", "off|1..", "D12: a score that ends it";
            fast: bool = "off", "on|off", "X1: fast play";
            side: Side = "right", "left|right", "X2: the side";
        }
        check = no_left_with_few;
    }

    #[test]
    fn declared_options_read_write_and_refuse_without_change() {
        let mut o = TestOptions::default();
        assert_eq!(
            (o.chips, o.target, o.limit, o.fast, o.side),
            (10, None, None, false, Side::Right)
        );
        let info = TestOptions::info();
        assert_eq!(info.len(), 5);
        assert_eq!(info[1].default, "auto");
        assert_eq!(info[0].help, "B1: starting chips");
        for i in info {
            assert_eq!(
                TestOptions::default()
                    .pairs()
                    .iter()
                    .find(|(k, _)| k == i.key)
                    .map(|(_, v)| v.as_str()),
                Some(i.default),
                "{}",
                i.key
            );
        }
        o.set("target", "77").unwrap();
        o.set("limit", "4000000000").unwrap();
        o.set("fast", "yes").unwrap();
        assert_eq!(
            (o.target, o.limit, o.fast),
            (Some(77), Some(4_000_000_000), true)
        );
        let back = TestOptions::from_pairs(o.pairs().iter().map(|(k, v)| (k.as_str(), v.as_str())));
        assert_eq!(back.as_ref(), Ok(&o));
        let before = o.clone();
        for (k, v) in [
            ("chips", "0"),
            ("chips", "51"),
            ("chips", "x"),
            ("target", "0"),
            ("target", "off"),
            ("limit", "0"),
            ("fast", "maybe"),
            ("side", "up"),
            ("nope", "1"),
        ] {
            assert!(o.set(k, v).is_err(), "{k}={v}");
            assert_eq!(o, before, "{k}={v} changed nothing");
        }
        assert_eq!(
            o.set("chips", "51").unwrap_err().to_string(),
            "option `chips`: `51` is not allowed (expected a whole number from 1 to 50)"
        );
        o.set("chips", "2").unwrap();
        assert!(matches!(
            o.set("side", "left"),
            Err(OptionError::Conflict(_))
        ));
        assert_eq!(o.side, Side::Right, "a conflict changes nothing");
    }
}
