//! Rules options of The Big Cheese: every point where the rulebooks differ
//! (dice scheme, specials, exact target, target, chips) is a named option.
//!
//! `Options` is a small `Copy` struct stored inside the game state, so the
//! hot path reads plain fields; text goes through [`game::GameOptions`].

use game::{
    bool_text, choice_text, parse_bool, parse_choice, parse_in, GameOptions, OptionError,
    OptionInfo,
};
use std::fmt;
use std::str::FromStr;

/// How a matured number card pays out (B11). Never mixed in one game.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DiceMode {
    /// The card's own die (d2 for the 2, d4, ..., d20); the roll is the payout.
    #[default]
    Polyhedral,
    /// One d6 times the card's value.
    D6,
    /// Two d6, the best one times the value; a Big Cheese re-rolls one die (001 variant 1).
    BestOfTwo,
    /// Value-many d6, the best half summed, times 2; a Big Cheese re-rolls the
    /// dice the owner picks (001 variant 2).
    HalfOfN,
    /// Face value, no dice; a matured Big Cheese hires chips instead (B15).
    NoDice,
}

impl DiceMode {
    /// Every mode, in option-help order.
    pub const ALL: [DiceMode; 5] = [
        DiceMode::Polyhedral,
        DiceMode::D6,
        DiceMode::BestOfTwo,
        DiceMode::HalfOfN,
        DiceMode::NoDice,
    ];

    /// The text form, as in `dice=best-of-two`.
    pub const fn as_str(self) -> &'static str {
        match self {
            DiceMode::Polyhedral => "polyhedral",
            DiceMode::D6 => "d6",
            DiceMode::BestOfTwo => "best-of-two",
            DiceMode::HalfOfN => "half-of-n",
            DiceMode::NoDice => "no-dice",
        }
    }

    /// The default target in this mode (B12), or with `exact` (B13): the
    /// books describe exact play with polyhedral dice only, at 30 (002,
    /// 000); every other mode keeps its own target (B19).
    pub const fn default_target(self, exact: bool) -> u16 {
        match self {
            DiceMode::Polyhedral if exact => 30,
            DiceMode::Polyhedral => 40,
            DiceMode::D6 | DiceMode::BestOfTwo | DiceMode::HalfOfN => 200,
            DiceMode::NoDice => 60,
        }
    }
}

impl fmt::Display for DiceMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not a dice mode's name (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a dice mode")]
pub struct NotADiceMode(pub String);

impl FromStr for DiceMode {
    type Err = NotADiceMode;

    fn from_str(s: &str) -> Result<DiceMode, NotADiceMode> {
        DiceMode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| NotADiceMode(s.to_string()))
    }
}

/// The options of a game of The Big Cheese. Defaults: polyhedral dice,
/// specials on, exact off, target auto, 10 chips.
///
/// Its serde form (in every view) has the option keys of
/// `start` (`dice`, `specials`, `exact`, `target`, `chips`,
/// `veto`, `final_tie`), with typed values: booleans for on/off, `null`
/// for an `auto` target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Options {
    /// Payout scheme (B11).
    pub dice: DiceMode,
    /// Whether the Vetos and Big Cheeses are in the deck (B2).
    pub specials: bool,
    /// Exact-target variant (B13).
    pub exact: bool,
    /// The target score; `None` = the default of the mode (B12, B13).
    pub target: Option<u16>,
    /// Starting chips per player (B1).
    pub chips: u8,
    /// When a Veto may be played (B6, B18).
    pub veto: VetoTiming,
    /// What decides a tie that B14 leaves (B14, B20).
    pub final_tie: FinalTie,
}

/// When a Veto may be played: the `veto` option (B6, B18).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum VetoTiming {
    /// On any turn in an auction, instead of bidding (B6).
    #[default]
    AnyTurn,
    /// Only before the player's first bid in the auction (B18, the French
    /// book's timing).
    BeforeBid,
}

/// What decides a tie that B14 leaves: the `final_tie` option (B14, B20).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FinalTie {
    /// The tied players share the win (B14).
    #[default]
    Shared,
    /// A die picks the winner among them (B20, 001's « jugement de Dieu »).
    Chance,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            dice: DiceMode::Polyhedral,
            specials: true,
            exact: false,
            target: None,
            chips: 10,
            veto: VetoTiming::AnyTurn,
            final_tie: FinalTie::Shared,
        }
    }
}

impl Options {
    /// The largest target accepted.
    pub const MAX_TARGET: u16 = 10_000;
    /// The largest number of starting chips accepted.
    pub const MAX_CHIPS: u8 = 50;

    /// The target in force: the set one, or the mode's default.
    pub const fn target(&self) -> u16 {
        match self.target {
            Some(t) => t,
            None => self.dice.default_target(self.exact),
        }
    }

    /// Number of cards in the deck: 36, or 28 without specials (B2).
    pub const fn deck_size(&self) -> usize {
        Card::kinds(self.specials) * Card::COPIES as usize
    }
}

use crate::Card;

/// `veto`'s values by name (B18).
const VETO: &[(&str, VetoTiming)] = &[
    ("any-turn", VetoTiming::AnyTurn),
    ("before-bid", VetoTiming::BeforeBid),
];
/// `final_tie`'s values by name (B20).
const FINAL_TIE: &[(&str, FinalTie)] =
    &[("shared", FinalTie::Shared), ("chance", FinalTie::Chance)];

const INFO: &[OptionInfo] = &[
    OptionInfo {
        key: "dice",
        default: "polyhedral",
        values: "polyhedral|d6|best-of-two|half-of-n|no-dice",
        help: "B11 payout: the card's own die (d2 for the 2); one d6 x value; best of two d6 x value \
               (a Big Cheese re-rolls one die); value-many d6, best half x 2 (a Big Cheese re-rolls \
               the dice you pick); face value with no dice (a matured Big Cheese hires 2 chips, B15)",
    },
    OptionInfo {
        key: "specials",
        default: "on",
        values: "on|off",
        help: "B2: off removes the 4 Vetos and 4 Big Cheeses (28-card deck)",
    },
    OptionInfo {
        key: "exact",
        default: "off",
        values: "on|off",
        help: "B13: a payout that would pass the target is ignored; the first to reach it exactly wins \
               (with polyhedral dice the auto target becomes 30; the 2011 book plays it at 40: target=40)",
    },
    OptionInfo {
        key: "target",
        default: "auto",
        values: "auto|1..=10000",
        help: "B12/B13/B19: auto = polyhedral 40 (30 with exact=on), d6/best-of-two/half-of-n 200, \
               no-dice 60",
    },
    OptionInfo {
        key: "chips",
        default: "10",
        values: "1..=50",
        help: "B1: starting chips (flunkies) per player",
    },
    OptionInfo {
        key: "veto",
        default: "any-turn",
        values: "any-turn|before-bid",
        help: "B18: when a Veto may be played: on any turn in an auction (B6), or only before \
               your first bid in it (001, the French book)",
    },
    OptionInfo {
        key: "final_tie",
        default: "shared",
        values: "shared|chance",
        help: "B14/B20: players still tied after score and scored projects share the win, or \
               one of them wins by a draw from the game's dice (001, the French book)",
    },
];

impl GameOptions for Options {
    fn info() -> &'static [OptionInfo] {
        INFO
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let bad = |expected: &str| OptionError::bad_value(key, value, expected);
        match key {
            "dice" => self.dice = value.parse().map_err(|_| bad(INFO[0].values))?,
            "specials" => self.specials = parse_bool(key, value)?,
            "exact" => self.exact = parse_bool(key, value)?,
            "target" => {
                self.target = if value == "auto" {
                    None
                } else {
                    Some(parse_in(
                        key,
                        value,
                        1..=Options::MAX_TARGET,
                        INFO[3].values,
                    )?)
                }
            }
            "chips" => self.chips = parse_in(key, value, 1..=Options::MAX_CHIPS, INFO[4].values)?,
            "veto" => self.veto = parse_choice(key, value, VETO)?,
            "final_tie" => self.final_tie = parse_choice(key, value, FINAL_TIE)?,
            _ => return Err(OptionError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(String, String)> {
        vec![
            ("dice".into(), self.dice.to_string()),
            ("specials".into(), bool_text(self.specials)),
            ("exact".into(), bool_text(self.exact)),
            (
                "target".into(),
                self.target
                    .map_or_else(|| "auto".to_string(), |t| t.to_string()),
            ),
            ("chips".into(), self.chips.to_string()),
            ("veto".into(), choice_text(&self.veto, VETO)),
            ("final_tie".into(), choice_text(&self.final_tie, FINAL_TIE)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_round_trip() {
        let mut o = Options::default();
        assert_eq!(o.target(), 40);
        o.set("exact", "on").unwrap();
        assert_eq!(o.target(), 30, "B13: polyhedral exact plays to 30");
        o.set("dice", "half-of-n").unwrap();
        assert_eq!(o.target(), 200, "B19: other dice keep their own target");
        o.set("dice", "no-dice").unwrap();
        assert_eq!(o.target(), 60);
        o.set("dice", "half-of-n").unwrap();
        o.set("final_tie", "chance").unwrap();
        assert_eq!(o.final_tie, FinalTie::Chance);
        assert!(o.set("final_tie", "coin").is_err());
        o.set("target", "77").unwrap();
        o.set("chips", "12").unwrap();
        o.set("specials", "off").unwrap();
        o.set("veto", "before-bid").unwrap();
        assert_eq!(o.veto, VetoTiming::BeforeBid);
        assert!(o.set("veto", "never").is_err());
        let back =
            Options::from_pairs(o.pairs().iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(back, o);
        assert!(o.set("target", "0").is_err());
        assert!(o.set("chips", "0").is_err());
        assert!(o.set("dice", "d7").is_err());
        assert!(o.set("nope", "1").is_err());
        for m in DiceMode::ALL {
            assert_eq!(m.to_string().parse::<DiceMode>(), Ok(m));
        }
    }
}
