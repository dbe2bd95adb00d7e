//! Actions and their text notation: `pass`, `play 2x7+J`, `give 3 12`,
//! `revolution`, `market P3 7`, `seat-new above`, ...
//!
//! Every action is a few bytes and `Copy`, so move lists are flat vectors
//! reused between calls. A [`Play`] records how many natural cards and how
//! many Jesters it uses, because distinct ways of making the same set are
//! distinct actions (D6). A [`Gift`] is kept sorted so that one multiset of
//! cards has one representation.

use crate::card::{Card, NotACard};
use game::{ParseError, Seat};
use std::fmt;
use std::str::FromStr;

/// A set of cards played to a trick (D9): `naturals` cards of one rank plus
/// `jesters` Jesters (wild, D6). Jesters alone have rank 13.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    rank: u8,
    naturals: u8,
    jesters: u8,
}

impl Play {
    /// A set of `naturals` cards of `rank` plus `jesters` Jesters. With no
    /// naturals it is Jesters alone (rank 13, D6) and `rank` must be the
    /// Jester. `None` for an empty set, more than 2 Jesters, or a natural
    /// count above 12.
    #[inline]
    pub fn new(rank: Card, naturals: u8, jesters: u8) -> Option<Play> {
        if jesters > 2 || naturals > 12 || naturals + jesters == 0 {
            return None;
        }
        if naturals == 0 {
            if !rank.is_jester() {
                return None;
            }
        } else if rank.is_jester() {
            return None;
        }
        Some(Play {
            rank: rank.index() as u8,
            naturals,
            jesters,
        })
    }

    /// Internal constructor from known-good parts.
    #[inline]
    pub(crate) const fn raw(rank: u8, naturals: u8, jesters: u8) -> Play {
        Play {
            rank,
            naturals,
            jesters,
        }
    }

    /// The rank the set counts as: the naturals' rank, or 13 for Jesters
    /// alone (D6). Lower is better.
    #[inline]
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The card kind of the naturals (the Jester for Jesters alone).
    pub fn card(self) -> Card {
        Card::from_index(self.rank as usize)
    }

    /// Number of natural (non-Jester) cards.
    #[inline]
    pub fn naturals(self) -> u8 {
        self.naturals
    }

    /// Number of Jesters.
    #[inline]
    pub fn jesters(self) -> u8 {
        self.jesters
    }

    /// Number of cards in the set.
    #[inline]
    pub fn size(self) -> u8 {
        self.naturals + self.jesters
    }

    /// Whether this set may be played on `last` (D9): same size, strictly
    /// better (lower) rank.
    #[inline]
    pub fn beats(self, last: Play) -> bool {
        self.size() == last.size() && self.rank < last.rank
    }

    /// The rank and size as a person says it: `3x7` (three 7s), `7`, `2xJ`.
    pub fn shape(self) -> impl fmt::Display {
        struct Shape(Play);
        impl fmt::Display for Shape {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let p = self.0;
                if p.size() == 1 {
                    write!(f, "{}", p.card())
                } else {
                    write!(f, "{}x{}", p.size(), p.card())
                }
            }
        }
        Shape(self)
    }
}

/// `7`, `3x7`, `2x7+J`, `1x7+2J`, `J`, `2xJ`.
impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let card = self.card();
        match (self.naturals, self.jesters) {
            (0, 1) => f.write_str("J"),
            (0, j) => write!(f, "{j}xJ"),
            (1, 0) => write!(f, "{card}"),
            (n, 0) => write!(f, "{n}x{card}"),
            (n, 1) => write!(f, "{n}x{card}+J"),
            (n, j) => write!(f, "{n}x{card}+{j}J"),
        }
    }
}

/// Why a text is not a set of cards to play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPlay {
    /// A word that is not a card.
    #[error(transparent)]
    Card(#[from] NotACard),
    /// A count of 0 (`0x7`).
    #[error("`{0}`: a count is at least 1")]
    ZeroCount(String),
    /// A count that is not a number: the word, then the count.
    #[error("`{0}`: `{1}` is not a card count")]
    NotACount(String, String),
    /// A word ending in J that is not a count of Jesters.
    #[error("`{0}` is not a card or a count of Jesters")]
    NotJesters(String),
    /// Two ranks in one set.
    #[error("a set is cards of one rank (plus Jesters), not {0} and {1}")]
    TwoRanks(Card, Card),
    /// Nothing written.
    #[error("play what? write e.g. `play 3x7` or `play 7 7 J`")]
    Nothing,
    /// More than the 2 Jesters.
    #[error("there are only 2 Jesters")]
    TooManyJesters,
    /// More cards of a rank than any rank has.
    #[error("no rank has {0} cards")]
    TooManyOfRank(u32),
    /// No card at all (counts that add up to none).
    #[error("a set has at least one card")]
    Empty,
    /// Anything else that is not a set (the text).
    #[error("`{0}` is not a set of cards")]
    NotASet(String),
}

fn parse_count_card(tok: &str) -> Result<(u8, Card), BadPlay> {
    // `7`, `3x7`, `J`, `2xJ`, `2J`; a count is at least 1, so `0x7+J`
    // is refused rather than read as a lone Jester.
    let at_least_one = |n: u8| {
        if n == 0 {
            Err(BadPlay::ZeroCount(tok.to_string()))
        } else {
            Ok(n)
        }
    };
    if let Some((n, c)) = tok.split_once(['x', 'X', '×']) {
        let n: u8 = n
            .parse()
            .map_err(|_| BadPlay::NotACount(tok.to_string(), n.to_string()))?;
        return Ok((at_least_one(n)?, c.parse()?));
    }
    if tok.len() > 1 && (tok.ends_with('J') || tok.ends_with('j')) {
        let n: u8 = tok[..tok.len() - 1]
            .parse()
            .map_err(|_| BadPlay::NotJesters(tok.to_string()))?;
        return Ok((at_least_one(n)?, Card::JESTER));
    }
    Ok((1, tok.parse()?))
}

/// Reads `7`, `3x7`, `2x7+J`, `1x7+2J`, `7+J`, `J`, `2xJ`, or a plain list
/// of cards `7 7 J`.
impl FromStr for Play {
    type Err = BadPlay;

    fn from_str(s: &str) -> Result<Play, BadPlay> {
        let mut rank: Option<Card> = None;
        let mut naturals: u32 = 0;
        let mut jesters: u32 = 0;
        let mut any = false;
        for tok in s.split(|c: char| c.is_whitespace() || c == '+') {
            if tok.is_empty() {
                continue;
            }
            any = true;
            let (n, c) = parse_count_card(tok)?;
            if c.is_jester() {
                jesters += n as u32;
            } else {
                if let Some(r) = rank {
                    if r != c {
                        return Err(BadPlay::TwoRanks(r, c));
                    }
                }
                rank = Some(c);
                naturals += n as u32;
            }
        }
        if !any {
            return Err(BadPlay::Nothing);
        }
        if jesters > 2 {
            return Err(BadPlay::TooManyJesters);
        }
        if naturals > 12 {
            return Err(BadPlay::TooManyOfRank(naturals));
        }
        if naturals + jesters == 0 {
            return Err(BadPlay::Empty);
        }
        let card = if naturals == 0 {
            Card::JESTER
        } else {
            rank.unwrap_or(Card::JESTER)
        };
        Play::new(card, naturals as u8, jesters as u8)
            .ok_or_else(|| BadPlay::NotASet(s.to_string()))
    }
}

impl serde::Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One or two cards handed over in taxes or at the market (D8, D14), kept
/// sorted best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gift {
    first: Card,
    second: Option<Card>,
}

impl Gift {
    /// A single card.
    pub const fn one(card: Card) -> Gift {
        Gift {
            first: card,
            second: None,
        }
    }

    /// Two cards, in either order.
    pub fn two(a: Card, b: Card) -> Gift {
        let (first, second) = if a <= b { (a, b) } else { (b, a) };
        Gift {
            first,
            second: Some(second),
        }
    }

    /// The number of cards (1 or 2).
    pub fn len(self) -> usize {
        1 + self.second.is_some() as usize
    }

    /// Always false: a gift has at least one card.
    pub fn is_empty(self) -> bool {
        false
    }

    /// The cards, best first.
    pub fn cards(self) -> impl Iterator<Item = Card> {
        std::iter::once(self.first).chain(self.second)
    }

    /// The cards as a hand.
    pub fn hand(self) -> crate::Hand {
        let mut h = crate::Hand::EMPTY;
        for c in self.cards() {
            h.add(c, 1);
        }
        h
    }
}

/// The cards separated by a space: `3 12`.
impl fmt::Display for Gift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.second {
            None => write!(f, "{}", self.first),
            Some(s) => write!(f, "{} {}", self.first, s),
        }
    }
}

/// Why a text is not the cards of a gift.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadGift {
    /// A word that is not a card.
    #[error(transparent)]
    Card(#[from] NotACard),
    /// No card.
    #[error("give which cards? write e.g. `give 3 12`")]
    Nothing,
    /// More than 2 cards.
    #[error("you give 1 or 2 cards")]
    TooMany,
}

impl FromStr for Gift {
    type Err = BadGift;

    fn from_str(s: &str) -> Result<Gift, BadGift> {
        let cards: Vec<&str> = s.split_whitespace().collect();
        match cards.as_slice() {
            [a] => Ok(Gift::one(a.parse()?)),
            [a, b] => Ok(Gift::two(a.parse()?, b.parse()?)),
            [] => Err(BadGift::Nothing),
            _ => Err(BadGift::TooMany),
        }
    }
}

impl serde::Serialize for Gift {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

game::deserialize_from_str!(Play, Gift);

/// Where a newcomer sits when the table has no exact middle (D13):
/// just above or just below the middlemost player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// Just above (better placed than) the middlemost player.
    Above,
    /// Just below the middlemost player.
    Below,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Above => "above",
            Side::Below => "below",
        })
    }
}

/// A text that is not a side (the text, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}`: write `above` or `below`")]
pub struct NotASide(pub String);

impl FromStr for Side {
    type Err = NotASide;

    fn from_str(s: &str) -> Result<Side, NotASide> {
        match s.trim() {
            "above" => Ok(Side::Above),
            "below" => Ok(Side::Below),
            other => Err(NotASide(other.to_string())),
        }
    }
}

/// One player decision in The Great Dalmuti.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `pass`: play nothing now (D9); you may still play later in the trick.
    Pass,
    /// `play 3x7`: play a set to the trick (D9, D6).
    Play(Play),
    /// `give 3 12`: the cards a Dalmuti gives back in taxes (D8), or the
    /// card a Merchant gives back at the market (D14).
    Give(Gift),
    /// `revolution`: the holder of both Jesters declares a revolution (D7).
    Revolution,
    /// `no-revolution`: the holder of both Jesters keeps quiet (D7).
    NoRevolution,
    /// `market P3 7`: the first Merchant gives a 7 to Merchant P3, who
    /// then gives one card back (D14 `market`).
    Market(Seat, Card),
    /// `market P3`: the first Merchant and Merchant P3 each draw a random
    /// card from the other (D14 `black_market`).
    BlackMarket(Seat),
    /// `no-market`: the first Merchant declines to trade (D14).
    NoMarket,
    /// `seat-new above|below`: where the Greater Dalmuti seats a newcomer
    /// when the table has no exact middle (D13).
    SeatNew(Side),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("pass"),
            Action::Play(p) => write!(f, "play {p}"),
            Action::Give(g) => write!(f, "give {g}"),
            Action::Revolution => f.write_str("revolution"),
            Action::NoRevolution => f.write_str("no-revolution"),
            Action::Market(s, c) => write!(f, "market {s} {c}"),
            Action::BlackMarket(s) => write!(f, "market {s}"),
            Action::NoMarket => f.write_str("no-market"),
            Action::SeatNew(side) => write!(f, "seat-new {side}"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Action, ParseError> {
        let s = s.trim();
        let (verb, rest) = match s.split_once(char::is_whitespace) {
            Some((v, r)) => (v, r.trim()),
            None => (s, ""),
        };
        let no_args = |a: Action| {
            if rest.is_empty() {
                Ok(a)
            } else {
                Err(ParseError::NoArgument {
                    action: verb.to_string(),
                    got: rest.to_string(),
                })
            }
        };
        let bad = |e: &dyn fmt::Display| ParseError::bad_argument(verb, e);
        match verb {
            "pass" => no_args(Action::Pass),
            "revolution" => no_args(Action::Revolution),
            "no-revolution" => no_args(Action::NoRevolution),
            "no-market" => no_args(Action::NoMarket),
            "play" => Ok(Action::Play(rest.parse().map_err(|e| bad(&e))?)),
            "give" => Ok(Action::Give(rest.parse().map_err(|e| bad(&e))?)),
            "seat-new" => Ok(Action::SeatNew(rest.parse().map_err(|e| bad(&e))?)),
            "market" => {
                let mut it = rest.split_whitespace();
                let seat: Seat = it
                    .next()
                    .ok_or_else(|| bad(&"with whom? write `market P3 7` or `market P3`"))?
                    .parse()
                    .map_err(|e: game::SeatParseError| bad(&e))?;
                match (it.next(), it.next()) {
                    (None, _) => Ok(Action::BlackMarket(seat)),
                    (Some(c), None) => Ok(Action::Market(seat, c.parse().map_err(|e| bad(&e))?)),
                    (Some(_), Some(_)) => Err(bad(&"the market trades one card")),
                }
            }
            "" => Err(ParseError::Empty),
            other => Err(ParseError::Unknown {
                word: other.to_string(),
                expected:
                    "pass, play, give, revolution, no-revolution, market, no-market, seat-new",
            }),
        }
    }
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Play {
        s.parse().unwrap()
    }

    #[test]
    fn play_notation() {
        for (text, n, j, rank) in [
            ("7", 1, 0, 7),
            ("3x7", 3, 0, 7),
            ("2x7+J", 2, 1, 7),
            ("1x7+2J", 1, 2, 7),
            ("1x7+J", 1, 1, 7),
            ("J", 0, 1, 13),
            ("2xJ", 0, 2, 13),
        ] {
            let play = p(text);
            assert_eq!((play.naturals(), play.jesters(), play.rank()), (n, j, rank));
            assert_eq!(play.to_string(), text);
        }
        assert_eq!(p("7 7 J"), p("2x7+J"));
        assert_eq!(p("7+J"), p("1x7+J"));
        assert_eq!(p("J J"), p("2xJ"));
        assert!("7 8".parse::<Play>().is_err());
        assert!("3xJ".parse::<Play>().is_err());
        assert!("".parse::<Play>().is_err());
        assert!("0x7".parse::<Play>().is_err());
        // A zero count is refused, not read as a lone Jester.
        for zero in ["0x7+J", "0x7 J", "2x7+0J", "0xJ", "0J"] {
            let e = zero.parse::<Play>().unwrap_err().to_string();
            assert!(e.contains("at least 1"), "{zero}: {e}");
        }
        assert!(p("3x6").beats(p("2x7+J")));
        assert!(!p("2x6").beats(p("2x7+J")));
        assert!(!p("3x7").beats(p("3x7")));
        assert!(p("12").beats(p("J")));
        assert_eq!(p("2x7+J").shape().to_string(), "3x7");
    }

    #[test]
    fn action_notation() {
        for text in [
            "pass",
            "play 2x7+J",
            "give 3 12",
            "give 5",
            "give 3 J",
            "revolution",
            "no-revolution",
            "market P3 7",
            "market P3",
            "no-market",
            "seat-new above",
            "seat-new below",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        assert_eq!(
            "give 12 3".parse::<Action>().unwrap().to_string(),
            "give 3 12"
        );
        assert!(matches!(
            "give 1 2 3".parse::<Action>(),
            Err(ParseError::BadArgument { action, .. }) if action == "give"
        ));
        assert_eq!(
            "play 3xJ".parse::<Action>().unwrap_err().to_string(),
            "`play`: there are only 2 Jesters"
        );
        assert!("pass now".parse::<Action>().is_err());
        assert!("dance".parse::<Action>().is_err());
    }
}
