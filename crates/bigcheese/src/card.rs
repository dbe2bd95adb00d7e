//! Cards of The Big Cheese: seven number cards and two specials (B2).
//!
//! A card is a one-byte `Copy` enum so that decks, projects and discard
//! counts are plain fixed arrays; `Card::index` numbers the nine kinds for
//! per-kind count arrays.

use std::fmt;
use std::str::FromStr;

/// One card (a "project"). Written `2`, `4`, `6`, `8`, `10`, `12`, `20`, `V`
/// (Veto) and `BC` (Big Cheese).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Card {
    /// The 2 (a d2 in polyhedral mode).
    Two,
    /// The 4.
    Four,
    /// The 6.
    Six,
    /// The 8.
    Eight,
    /// The 10.
    Ten,
    /// The 12.
    Twelve,
    /// The 20.
    Twenty,
    /// A Veto: matures into a hand card that discards a project up for bid (B6).
    Veto,
    /// A Big Cheese: matures into a hand card that re-rolls your own roll (B10),
    /// or hires two chips in `no-dice` (B15).
    BigCheese,
}

impl Card {
    /// Every kind, in index order: the number cards ascending, then `V`, `BC`.
    pub const ALL: [Card; 9] = [
        Card::Two,
        Card::Four,
        Card::Six,
        Card::Eight,
        Card::Ten,
        Card::Twelve,
        Card::Twenty,
        Card::Veto,
        Card::BigCheese,
    ];

    /// Copies of each kind in a full deck (B2: 4 of each).
    pub const COPIES: u8 = 4;

    /// The 0-based kind index, for per-kind count arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (`i < 9`).
    ///
    /// # Panics
    /// If `i >= 9`.
    pub const fn from_index(i: usize) -> Card {
        Card::ALL[i]
    }

    /// The face value of a number card, 0 for a special.
    pub const fn value(self) -> u8 {
        match self {
            Card::Two => 2,
            Card::Four => 4,
            Card::Six => 6,
            Card::Eight => 8,
            Card::Ten => 10,
            Card::Twelve => 12,
            Card::Twenty => 20,
            Card::Veto | Card::BigCheese => 0,
        }
    }

    /// Whether this is a number card (pays points when it matures).
    pub const fn is_number(self) -> bool {
        !self.is_special()
    }

    /// Whether this is a Veto or a Big Cheese.
    pub const fn is_special(self) -> bool {
        matches!(self, Card::Veto | Card::BigCheese)
    }

    /// How many kinds are in play: 9 with specials, 7 without (B2).
    pub const fn kinds(specials: bool) -> usize {
        if specials {
            9
        } else {
            7
        }
    }

    /// The text form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Card::Two => "2",
            Card::Four => "4",
            Card::Six => "6",
            Card::Eight => "8",
            Card::Ten => "10",
            Card::Twelve => "12",
            Card::Twenty => "20",
            Card::Veto => "V",
            Card::BigCheese => "BC",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not a card's name (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (write 2, 4, 6, 8, 10, 12, 20, V or BC)")]
pub struct NotACard(pub String);

impl FromStr for Card {
    type Err = NotACard;

    fn from_str(s: &str) -> Result<Card, NotACard> {
        Card::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| NotACard(s.to_string()))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

game::deserialize_from_str!(Card);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for (i, c) in Card::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Card::from_index(i), c);
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert_eq!("bc".parse::<Card>(), Ok(Card::BigCheese));
        assert!("3".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
    }
}
