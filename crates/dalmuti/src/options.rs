//! Rules options for The Great Dalmuti: session length (D12), the deck
//! (D2), joining players (D13) and the rulebook's variants (D14).
//!
//! [`Options`] is `Copy` (the join list is a small fixed array) so that the
//! game state, which must hand out `&Options`, stays cheap to clone for
//! rollouts.

use game::{
    bool_text, choice_text, parse_bool, parse_choice, parse_in, GameOptions, OptionError,
    OptionInfo,
};

/// The largest number of joins a session can have: 3 players growing to 13.
pub const MAX_JOINS: usize = 10;

/// The hand numbers before which a new player joins (D13), ascending,
/// distinct, each at least 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Joins {
    len: u8,
    at: [u16; MAX_JOINS],
}

impl Joins {
    /// The hand numbers, ascending.
    pub fn hands(&self) -> &[u16] {
        &self.at[..self.len as usize]
    }

    /// Whether a player joins before hand `hand`.
    pub fn before(&self, hand: u32) -> bool {
        self.hands().iter().any(|&h| h as u32 == hand)
    }

    /// The number of joins.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nobody joins.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn parse(value: &str) -> Result<Joins, BadJoins> {
        let mut j = Joins::default();
        if matches!(value, "none" | "off" | "") {
            return Ok(j);
        }
        for tok in value.split(',') {
            let h: u16 = tok
                .trim()
                .parse()
                .map_err(|_| BadJoins::NotAHand(tok.to_string()))?;
            if h < 2 {
                return Err(BadJoins::TooEarly);
            }
            if j.hands().contains(&h) {
                return Err(BadJoins::Twice(h));
            }
            if j.len as usize == MAX_JOINS {
                return Err(BadJoins::TooMany);
            }
            j.at[j.len as usize] = h;
            j.len += 1;
        }
        j.at[..j.len as usize].sort_unstable();
        Ok(j)
    }
}

/// Why a `joins` value is not a list of joins.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadJoins {
    /// A word that is not a hand number.
    #[error("`{0}` is not a hand number")]
    NotAHand(String),
    /// A join before hand 2.
    #[error("players join before hand 2 or later")]
    TooEarly,
    /// A hand listed twice.
    #[error("hand {0} is listed twice")]
    Twice(u16),
    /// More joins than a table can take.
    #[error("at most {MAX_JOINS} joins (13 players)")]
    TooMany,
}

impl std::fmt::Display for Joins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for (i, h) in self.hands().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for Joins {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Joins {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Joins, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Joins::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Who wins a single hand (`hands=1`, D16).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SingleHand {
    /// Whoever goes out first wins, whatever the variant bonuses (003:
    /// « se si gioca una sola partita, vince chi esce per primo »).
    #[default]
    FirstOut,
    /// The session rule (D12) on one hand: the highest score, bonuses
    /// included, wins, and ties share (`dalmuti/1` played this way).
    Points,
}

/// `single_hand`'s values by name (D16).
const SINGLE_HAND: &[(&str, SingleHand)] = &[
    ("first-out", SingleHand::FirstOut),
    ("points", SingleHand::Points),
];

/// The options of a Dalmuti session. Defaults are the rulings' defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Options {
    /// Number of hands in the session (D12); `1` is a single hand.
    pub hands: u32,
    /// Session ends at the end of a hand where someone has this many
    /// points (D12); `None` = off.
    pub target: Option<u32>,
    /// Keep all 80 cards with 4 or 5 players (D2, D14).
    pub standard_deck: bool,
    /// First hand: no taxes, no revolutions (D14).
    pub settling_hand: bool,
    /// Never taxes, but a Great Revolution still reverses roles and taxes
    /// are paid (D14).
    pub auto_revolution: bool,
    /// +1 to the Greater Dalmuti if the Greater Peon rises, +1 to the
    /// Lesser Dalmuti if the Lesser Peon rises (D14).
    pub benevolent_rulers: bool,
    /// +1 to a Greater Peon who becomes Greater Dalmuti (D14).
    pub the_elected: bool,
    /// The first Merchant may trade a chosen card with a Merchant (D14).
    pub market: bool,
    /// The first Merchant and a Merchant may draw a random card from each
    /// other (D14). Conflicts with `market`.
    pub black_market: bool,
    /// Hands before which one new player joins (D13).
    pub joins: Joins,
    /// Who wins a single hand (D16).
    pub single_hand: SingleHand,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hands: 20,
            target: None,
            standard_deck: false,
            settling_hand: false,
            auto_revolution: false,
            benevolent_rulers: false,
            the_elected: false,
            market: false,
            black_market: false,
            joins: Joins::default(),
            single_hand: SingleHand::FirstOut,
        }
    }
}

const INFO: &[OptionInfo] = &[
    OptionInfo {
        key: "hands",
        default: "20",
        values: "1..=65535",
        help: "D12: number of hands in the session; 1 plays a single hand",
    },
    OptionInfo {
        key: "target",
        default: "off",
        values: "off|1..",
        help: "D12: the session also ends at the end of a hand in which someone reaches this score",
    },
    OptionInfo {
        key: "standard_deck",
        default: "off",
        values: "on|off",
        help: "D2/D14: keep all 80 cards with 3, 4 or 5 players",
    },
    OptionInfo {
        key: "settling_hand",
        default: "off",
        values: "on|off",
        help: "D14: the first hand has no taxes and no revolutions",
    },
    OptionInfo {
        key: "auto_revolution",
        default: "off",
        values: "on|off",
        help: "D14/D7: never taxes, but a Great Revolution still reverses the roles and taxes are paid",
    },
    OptionInfo {
        key: "benevolent_rulers",
        default: "off",
        values: "on|off",
        help: "D14: +1 point to the Greater Dalmuti if the Greater Peon rises, +1 to the Lesser Dalmuti if the Lesser Peon rises",
    },
    OptionInfo {
        key: "the_elected",
        default: "off",
        values: "on|off",
        help: "D14: +1 point to a Greater Peon who becomes Greater Dalmuti",
    },
    OptionInfo {
        key: "market",
        default: "off",
        values: "on|off",
        help: "D14: after taxes the first Merchant may give a chosen card to a Merchant, who gives one back (conflicts with black_market)",
    },
    OptionInfo {
        key: "black_market",
        default: "off",
        values: "on|off",
        help: "D14: after taxes the first Merchant and a Merchant of their choice each draw a random card from the other (conflicts with market)",
    },
    OptionInfo {
        key: "joins",
        default: "none",
        values: "none|H,H,... (hand numbers >= 2)",
        help: "D13: before each listed hand one new player joins as a Merchant in the middle, with 0 points",
    },
    OptionInfo {
        key: "single_hand",
        default: "first-out",
        values: "first-out|points",
        help: "D16: with hands=1, whoever goes out first wins (first-out), or the highest score with the variant bonuses (points)",
    },
];

impl GameOptions for Options {
    fn info() -> &'static [OptionInfo] {
        INFO
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let bad = |expected: &str| OptionError::bad_value(key, value, expected);
        match key {
            "hands" => {
                self.hands = parse_in(key, value, 1..=65535, "a number of hands from 1 to 65535")?
            }
            "target" => {
                self.target = match value {
                    "off" | "none" => None,
                    v => Some(parse_in(
                        key,
                        v,
                        1..=u32::MAX,
                        "off or a score of at least 1",
                    )?),
                }
            }
            "standard_deck" => self.standard_deck = parse_bool(key, value)?,
            "settling_hand" => self.settling_hand = parse_bool(key, value)?,
            "auto_revolution" => self.auto_revolution = parse_bool(key, value)?,
            "benevolent_rulers" => self.benevolent_rulers = parse_bool(key, value)?,
            "the_elected" => self.the_elected = parse_bool(key, value)?,
            "market" => {
                let on = parse_bool(key, value)?;
                if on && self.black_market {
                    return Err(OptionError::Conflict(
                        "market and black_market cannot both be on (D14)".to_string(),
                    ));
                }
                self.market = on;
            }
            "black_market" => {
                let on = parse_bool(key, value)?;
                if on && self.market {
                    return Err(OptionError::Conflict(
                        "market and black_market cannot both be on (D14)".to_string(),
                    ));
                }
                self.black_market = on;
            }
            "joins" => {
                self.joins = Joins::parse(value).map_err(|e| bad(&e.to_string()))?;
            }
            "single_hand" => self.single_hand = parse_choice(key, value, SINGLE_HAND)?,
            _ => return Err(OptionError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(String, String)> {
        vec![
            ("hands".into(), self.hands.to_string()),
            (
                "target".into(),
                self.target.map_or("off".to_string(), |t| t.to_string()),
            ),
            ("standard_deck".into(), bool_text(self.standard_deck)),
            ("settling_hand".into(), bool_text(self.settling_hand)),
            ("auto_revolution".into(), bool_text(self.auto_revolution)),
            (
                "benevolent_rulers".into(),
                bool_text(self.benevolent_rulers),
            ),
            ("the_elected".into(), bool_text(self.the_elected)),
            ("market".into(), bool_text(self.market)),
            ("black_market".into(), bool_text(self.black_market)),
            ("joins".into(), self.joins.to_string()),
            (
                "single_hand".into(),
                choice_text(&self.single_hand, SINGLE_HAND),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut o = Options::default();
        o.set("hands", "5").unwrap();
        o.set("target", "30").unwrap();
        o.set("black_market", "on").unwrap();
        o.set("joins", "5,3").unwrap();
        o.set("the_elected", "yes").unwrap();
        o.set("single_hand", "points").unwrap();
        assert_eq!(o.joins.hands(), &[3, 5]);
        let pairs = o.pairs();
        assert_eq!(pairs.len(), Options::info().len());
        let back =
            Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(back, o);
        let d = Options::default();
        let back =
            Options::from_pairs(d.pairs().iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(back, d);
    }

    #[test]
    fn errors() {
        let mut o = Options::default();
        o.set("market", "on").unwrap();
        assert!(matches!(
            o.set("black_market", "on"),
            Err(OptionError::Conflict(_))
        ));
        assert!(matches!(
            o.set("nope", "on"),
            Err(OptionError::UnknownKey(_))
        ));
        assert!(o.set("hands", "0").is_err());
        assert!(o.set("single_hand", "last-out").is_err());
        assert!(o.set("target", "0").is_err());
        assert!(o.set("joins", "1").is_err());
        assert!(o.set("joins", "2,2").is_err());
        assert!(o.set("joins", "2,3,4,5,6,7,8,9,10,11,12").is_err());
    }
}
