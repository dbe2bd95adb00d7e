//! Player decisions of The Big Cheese and their text notation
//! (`bid 4`, `pass`, `veto`, `keep`, `reroll`, `reroll 3`, `reroll 1,1,2`).
//!
//! Actions are small `Copy` values: a re-roll of several d6 is a multiset
//! of face values stored as six counters, which is also its canonical form
//! (dice are kept sorted, so naming values is naming dice).

use game::ParseError;
use std::fmt;
use std::str::FromStr;

/// A multiset of d6 faces: `counts[f - 1]` dice showing `f`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faces {
    counts: [u8; 6],
}

impl Faces {
    /// The empty multiset.
    pub const EMPTY: Faces = Faces { counts: [0; 6] };

    /// The multiset of the given face values (each 1..=6).
    ///
    /// # Panics
    /// If a value is not 1..=6.
    pub fn of(values: &[u8]) -> Faces {
        let mut f = Faces::EMPTY;
        for &v in values {
            assert!((1..=6).contains(&v), "a d6 face is 1..=6");
            f.counts[v as usize - 1] += 1;
        }
        f
    }

    /// How many dice showing `face` (1..=6) are named.
    pub fn count(&self, face: u8) -> u8 {
        self.counts[face as usize - 1]
    }

    /// The counts per face, index `f - 1` for face `f`.
    pub fn counts(&self) -> [u8; 6] {
        self.counts
    }

    /// A multiset from counts per face.
    pub const fn from_counts(counts: [u8; 6]) -> Faces {
        Faces { counts }
    }

    /// How many dice are named.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// Whether no die is named.
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 6]
    }

    /// The named values, ascending.
    pub fn values(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=6u8).flat_map(move |f| std::iter::repeat_n(f, self.counts[f as usize - 1] as usize))
    }
}

/// Which dice a Big Cheese re-rolls (B10, B11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RerollDice {
    /// The single die (`polyhedral`, `d6`): written `reroll`.
    Die,
    /// The dice showing these values (`best-of-two`: exactly one;
    /// `half-of-n`: any non-empty multiset): written `reroll 1,1,2`.
    Faces(Faces),
}

/// One decision of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Bid this many chips for the top card (B5): `bid 4`.
    Bid(u8),
    /// Drop out of this auction (final, B5): `pass`.
    Pass,
    /// Play a matured Veto instead of bidding (B6): `veto`.
    Veto,
    /// Accept the roll on your matured project (B10): `keep`.
    Keep,
    /// Play a Big Cheese to re-roll dice of your own roll (B10, B11).
    Reroll(RerollDice),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::Pass => f.write_str("pass"),
            Action::Veto => f.write_str("veto"),
            Action::Keep => f.write_str("keep"),
            Action::Reroll(RerollDice::Die) => f.write_str("reroll"),
            Action::Reroll(RerollDice::Faces(faces)) => {
                f.write_str("reroll ")?;
                for (i, v) in faces.values().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Action, ParseError> {
        let s = s.trim();
        let (word, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
        let rest = rest.trim();
        let no_args = |a: Action| {
            if rest.is_empty() {
                Ok(a)
            } else {
                Err(ParseError::NoArgument {
                    action: word.to_string(),
                    got: rest.to_string(),
                })
            }
        };
        match word {
            "bid" => match rest.parse::<u8>() {
                Ok(n) if !rest.starts_with('+') => Ok(Action::Bid(n)),
                _ => Err(ParseError::bad_argument(
                    "bid",
                    format_args!("needs a number of chips, got `{rest}`"),
                )),
            },
            "pass" => no_args(Action::Pass),
            "veto" => no_args(Action::Veto),
            "keep" => no_args(Action::Keep),
            "reroll" if rest.is_empty() => Ok(Action::Reroll(RerollDice::Die)),
            "reroll" => {
                let mut faces = Faces::EMPTY;
                for part in rest.split(',') {
                    let part = part.trim();
                    match part.parse::<u8>() {
                        Ok(v) if (1..=6).contains(&v) && !part.starts_with('+') => {
                            if faces.counts[v as usize - 1] >= 20 {
                                return Err(ParseError::bad_argument(
                                    "reroll",
                                    "names more than 20 dice",
                                ));
                            }
                            faces.counts[v as usize - 1] += 1;
                        }
                        _ => {
                            return Err(ParseError::bad_argument(
                                "reroll",
                                format_args!(
                                    "takes d6 values 1..6 separated by commas, got `{part}`"
                                ),
                            ))
                        }
                    }
                }
                Ok(Action::Reroll(RerollDice::Faces(faces)))
            }
            "" => Err(ParseError::Empty),
            _ => Err(ParseError::Unknown {
                word: s.to_string(),
                expected: "bid N, pass, veto, keep, reroll or reroll 1,2",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let all = [
            Action::Bid(1),
            Action::Bid(14),
            Action::Pass,
            Action::Veto,
            Action::Keep,
            Action::Reroll(RerollDice::Die),
            Action::Reroll(RerollDice::Faces(Faces::of(&[3]))),
            Action::Reroll(RerollDice::Faces(Faces::of(&[2, 1, 1]))),
        ];
        for a in all {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a), "{a}");
        }
        assert_eq!(
            Action::Reroll(RerollDice::Faces(Faces::of(&[2, 1, 1]))).to_string(),
            "reroll 1,1,2"
        );
        for bad in [
            "bid",
            "bid -1",
            "bid x",
            "pass 2",
            "reroll 7",
            "reroll 0",
            "reroll 1,",
            "jump",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_errors_say_what_is_wrong() {
        assert_eq!("".parse::<Action>(), Err(ParseError::Empty));
        assert!(
            matches!("dance".parse::<Action>(), Err(ParseError::Unknown { word, .. }) if word == "dance")
        );
        assert_eq!(
            "pass now".parse::<Action>(),
            Err(ParseError::NoArgument {
                action: "pass".into(),
                got: "now".into()
            })
        );
        let e = "bid x".parse::<Action>().unwrap_err();
        assert!(matches!(&e, ParseError::BadArgument { action, .. } if action == "bid"));
        assert_eq!(e.to_string(), "`bid`: needs a number of chips, got `x`");
    }
}
