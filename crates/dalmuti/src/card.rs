//! Cards and hands: a [`Card`] is a rank 1..=12 or the Jester (D6), and a
//! [`Hand`] is a count per rank, not a list of cards.
//!
//! Dalmuti cards of one rank are interchangeable, so a hand is 16 small
//! counters (index 0 unused, 1..=12 the ranks, 13 the Jester, 14 and 15
//! padding so that the counters load as one 128-bit word). That makes a
//! hand `Copy`, 16 bytes, and every rules question (do you hold 3 sevens?)
//! one array lookup; rollouts never allocate.

use crate::swar;
use std::fmt;
use std::str::FromStr;

/// The index of the Jester in a [`Hand`]'s counters (its rank when alone, D6).
pub const JESTER: usize = 13;

/// One card: a rank 1..=12 (lower is better) or the Jester.
///
/// Ordered by rank, the Jester last (it is the worst card alone, D6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The Jester (wild, D6). Written `J`.
    pub const JESTER: Card = Card(JESTER as u8);

    /// The card of rank `rank` (1..=12), or `None` if out of range.
    pub const fn rank(rank: u8) -> Option<Card> {
        if rank >= 1 && rank <= 12 {
            Some(Card(rank))
        } else {
            None
        }
    }

    /// Builds a card from its counter index (1..=13, 13 = Jester).
    ///
    /// # Panics
    /// If `index` is not in 1..=13.
    #[inline]
    pub const fn from_index(index: usize) -> Card {
        assert!(index >= 1 && index <= JESTER, "card index out of range");
        Card(index as u8)
    }

    /// The counter index: the rank, or 13 for the Jester.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is a Jester.
    #[inline]
    pub const fn is_jester(self) -> bool {
        self.0 as usize == JESTER
    }

    /// Every card kind, best first, the Jester last.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (1..=JESTER).map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_jester() {
            f.write_str("J")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A text that is not a card (the text, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (ranks are 1 to 12, J is the Jester)")]
pub struct NotACard(pub String);

impl FromStr for Card {
    type Err = NotACard;

    fn from_str(s: &str) -> Result<Card, NotACard> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("j") || t.eq_ignore_ascii_case("jester") {
            return Ok(Card::JESTER);
        }
        match t.parse::<u8>() {
            Ok(r) if !t.starts_with('+') => Card::rank(r).ok_or_else(|| NotACard(t.to_string())),
            _ => Err(NotACard(t.to_string())),
        }
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A multiset of cards as a count per rank (index 1..=12) and Jesters
/// (index 13); bytes 0, 14 and 15 are always 0. `Copy` and 16 bytes, so
/// that all the counters load as one 128-bit word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub(crate) [u8; 16]);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand([0; 16]);

    /// The full 80-card deck: rank r has r copies, plus 2 Jesters (D2).
    pub const FULL_DECK: Hand = Hand([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2, 0, 0]);

    /// The deck for `players` players (D2): 4 players drop the 12s and 11s
    /// (57 cards), 5 players the 12s (68 cards), otherwise all 80;
    /// `standard_deck` keeps all 80 always.
    pub const fn deck_for(players: usize, standard_deck: bool) -> Hand {
        let mut d = Hand::FULL_DECK;
        if !standard_deck {
            if players <= 5 {
                d.0[12] = 0;
            }
            if players <= 4 {
                d.0[11] = 0;
            }
        }
        d
    }

    /// How many copies of `card` this hand holds.
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// How many Jesters this hand holds.
    #[inline]
    pub fn jesters(&self) -> u8 {
        self.0[JESTER]
    }

    /// The counters as one little-endian 128-bit word (byte r = rank r),
    /// for branch-free (SWAR) comparisons of all ranks at once.
    #[inline]
    pub(crate) fn lanes(&self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    /// The number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| c as usize).sum()
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Adds `n` copies of `card`.
    #[inline]
    pub fn add(&mut self, card: Card, n: u8) {
        self.0[card.index()] += n;
    }

    /// Removes `n` copies of `card`.
    ///
    /// # Panics
    /// In debug builds, if the hand holds fewer than `n`.
    #[inline]
    pub fn remove(&mut self, card: Card, n: u8) {
        self.0[card.index()] -= n;
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Hand) {
        for i in 1..=JESTER {
            self.0[i] += other.0[i];
        }
    }

    /// Whether every card of `other` is also in `self` (as a multiset).
    pub fn contains_all(&self, other: &Hand) -> bool {
        (1..=JESTER).all(|i| self.0[i] >= other.0[i])
    }

    /// `self - other` per rank, or `None` if `other` is not contained.
    pub fn minus(&self, other: &Hand) -> Option<Hand> {
        let mut h = *self;
        for i in 1..=JESTER {
            h.0[i] = self.0[i].checked_sub(other.0[i])?;
        }
        Some(h)
    }

    /// The best card held (lowest rank; Jesters count worst, D8), if any.
    pub fn best(&self) -> Option<Card> {
        (1..=JESTER).find(|&i| self.0[i] > 0).map(Card::from_index)
    }

    /// Every card, one item per copy, best first.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (1..=JESTER).flat_map(move |i| std::iter::repeat_n(Card::from_index(i), self.0[i] as usize))
    }

    /// The card at position `k` (0-based) of [`Hand::cards`]: the first
    /// kind whose running count exceeds `k`, found branch-free (SWAR) for
    /// any hand of fewer than 128 cards (every real hand: the deck has 80).
    ///
    /// # Panics
    /// If `k` is not below the number of cards.
    pub(crate) fn nth(&self, k: usize) -> Card {
        debug_assert!(self.len() < 128);
        // byte r: the number of cards of kinds 1..=r
        let sums = swar::prefix_sums(self.lanes());
        assert!(k < swar::last(sums) as usize, "card position out of range");
        // the first kind whose running count exceeds k
        Card::from_index(swar::first_at_least(sums, k as u32 + 1) as usize)
    }
}

/// Written best first, ranks grouped: `3 | 5 5 | 7 7 7 | J`; `empty` for none.
impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first_group = true;
        for i in 1..=JESTER {
            let c = self.0[i];
            if c == 0 {
                continue;
            }
            if !first_group {
                f.write_str(" | ")?;
            }
            first_group = false;
            for k in 0..c {
                if k > 0 {
                    f.write_str(" ")?;
                }
                fmt::Display::fmt(&Card::from_index(i), f)?;
            }
        }
        if first_group {
            f.write_str("empty")?;
        }
        Ok(())
    }
}

/// Why a text is not a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAHand {
    /// A word that is not a card.
    #[error(transparent)]
    Card(#[from] NotACard),
    /// More copies of a card than a hand can count.
    #[error("too many cards")]
    TooMany,
}

/// Reads cards separated by spaces (`|` ignored), or `empty`.
impl FromStr for Hand {
    type Err = NotAHand;

    fn from_str(s: &str) -> Result<Hand, NotAHand> {
        let mut h = Hand::EMPTY;
        for tok in s.split(|c: char| c.is_whitespace() || c == '|' || c == ',') {
            if tok.is_empty() || tok == "empty" || tok == "-" {
                continue;
            }
            let c: Card = tok.parse()?;
            if h.0[c.index()] == u8::MAX {
                return Err(NotAHand::TooMany);
            }
            h.0[c.index()] += 1;
        }
        Ok(h)
    }
}

impl serde::Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

game::deserialize_from_str!(Card, Hand);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_round_trip() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert!("0".parse::<Card>().is_err());
        assert!("13".parse::<Card>().is_err());
        assert!("+3".parse::<Card>().is_err());
        assert!("x".parse::<Card>().is_err());
    }

    #[test]
    fn decks() {
        assert_eq!(Hand::FULL_DECK.len(), 80);
        assert_eq!(Hand::deck_for(4, false).len(), 57);
        assert_eq!(Hand::deck_for(5, false).len(), 68);
        assert_eq!(Hand::deck_for(5, true).len(), 80);
        assert_eq!(Hand::deck_for(3, false).len(), 57);
        assert_eq!(Hand::deck_for(6, false).len(), 80);
    }

    #[test]
    fn hand_text() {
        let h: Hand = "3 5 5 7 7 7 J".parse().unwrap();
        assert_eq!(h.to_string(), "3 | 5 5 | 7 7 7 | J");
        assert_eq!(h.to_string().parse::<Hand>(), Ok(h));
        assert_eq!(Hand::EMPTY.to_string(), "empty");
        assert_eq!("empty".parse::<Hand>(), Ok(Hand::EMPTY));
        assert_eq!(h.best(), Some(Card::rank(3).unwrap()));
        assert_eq!(h.nth(6), Card::JESTER);
        let all: Vec<Card> = (0..80).map(|k| Hand::FULL_DECK.nth(k)).collect();
        assert_eq!(all, Hand::FULL_DECK.cards().collect::<Vec<_>>());
        let all: Vec<Card> = (0..7).map(|k| h.nth(k)).collect();
        assert_eq!(all, h.cards().collect::<Vec<_>>());
        assert_eq!(h.cards().count(), 7);
    }
}
