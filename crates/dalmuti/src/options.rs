//! Rules options for The Great Dalmuti: session length (D12), the deck
//! (D2), joining players (D13), the rulebook's variants (D14) and the
//! small decks for research (D17), each declared once (`game::options!`): name, type, default, allowed values
//! and help.
//!
//! [`Options`] is `Copy` (the join list is a small fixed array) so that the
//! game state, which must hand out `&Options`, stays cheap to clone for
//! rollouts.

use crate::card::Hand;
use game::{OptionError, OptionValue};

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

game::option_choices!(SingleHand {
    "first-out" => SingleHand::FirstOut,
    "points" => SingleHand::Points,
});

impl OptionValue for Joins {
    fn read(key: &str, text: &str, _values: &str) -> Result<Joins, OptionError> {
        Joins::parse(text).map_err(|e| {
            // the form first, then what is wrong with this value
            let expected =
                format!("`none` or hand numbers from 2, comma-separated, such as `3,5`; {e}");
            OptionError::bad_value(key, text, &expected)
        })
    }

    fn write(&self, _values: &str) -> String {
        self.to_string()
    }
}

impl Options {
    /// The deck of a hand with `players` at the table: D2's cut for small
    /// tables (unless `standard_deck`), then D17's (only ranks up to
    /// `ranks`; no Jesters unless `jesters`).
    pub fn deck(&self, players: usize) -> Hand {
        let mut d = Hand::deck_for(players, self.standard_deck);
        for r in (self.ranks as usize + 1)..=12 {
            d.0[r] = 0;
        }
        if !self.jesters {
            d.0[crate::card::JESTER] = 0;
        }
        d
    }
}

/// `market` and `black_market` cannot both be on (D14).
fn one_market(o: &Options) -> Result<(), OptionError> {
    if o.market && o.black_market {
        return Err(OptionError::Conflict(
            "market and black_market cannot both be on (D14)".to_string(),
        ));
    }
    Ok(())
}

game::options! {
    /// The options of a Dalmuti session. Defaults are the rulings'
    /// defaults.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub struct Options {
        hands: u32 = "20", "1..=65535",
            "D12: number of hands in the session; 1 plays a single hand";
        target: Option<u32> = "off", "off|1..",
            "D12: the session also ends at the end of a hand in which someone reaches this score";
        standard_deck: bool = "off", "on|off",
            "D2/D14: keep all 80 cards with 3, 4 or 5 players";
        settling_hand: bool = "off", "on|off",
            "D14: the first hand has no taxes and no revolutions";
        auto_revolution: bool = "off", "on|off",
            "D14/D7: never taxes, but a Great Revolution still reverses the roles and taxes are paid";
        benevolent_rulers: bool = "off", "on|off",
            "D14: +1 point to the Greater Dalmuti if the Greater Peon rises, +1 to the Lesser Dalmuti if the Lesser Peon rises";
        the_elected: bool = "off", "on|off",
            "D14: +1 point to a Greater Peon who becomes Greater Dalmuti";
        market: bool = "off", "on|off",
            "D14: after taxes the first Merchant may give a chosen card to a Merchant, who gives one back (conflicts with black_market)";
        black_market: bool = "off", "on|off",
            "D14: after taxes the first Merchant and a Merchant of their choice each draw a random card from the other (conflicts with market)";
        joins: Joins = "none", "none|H,H,... (hand numbers >= 2)",
            "D13: before each listed hand one new player joins as a Merchant in the middle, with 0 points";
        single_hand: SingleHand = "first-out", "first-out|points",
            "D16: with hands=1, whoever goes out first wins (first-out), or the highest score with the variant bonuses (points)";
        ranks: u32 = "12", "1..=12",
            "D17 (for research): the deck keeps only ranks 1 to this one, after the cut of D2";
        jesters: bool = "on", "on|off",
            "D17 (for research): off takes the two Jesters out of the deck";
    }
    check = one_market;
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::GameOptions;

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
        // the message gives the form before what is wrong with the value
        let e = o.set("joins", "one").unwrap_err().to_string();
        assert_eq!(
            e,
            "option `joins`: `one` is not allowed (expected `none` or hand numbers \
             from 2, comma-separated, such as `3,5`; `one` is not a hand number)"
        );
    }
}
