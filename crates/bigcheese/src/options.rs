//! Rules options of The Big Cheese: every point where the rulebooks differ
//! (dice scheme, specials, exact target, target, chips) is a named option.
//!
//! `Options` is a small `Copy` struct stored inside the game state, so the
//! hot path reads plain fields; text goes through [`game::GameOptions`].
//! Each option is declared once (`game::options!`): name, type, default,
//! allowed values and help.

use game::{OptionError, OptionValue};
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

impl Options {
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

game::option_choices!(VetoTiming {
    "any-turn" => VetoTiming::AnyTurn,
    "before-bid" => VetoTiming::BeforeBid,
});
game::option_choices!(FinalTie {
    "shared" => FinalTie::Shared,
    "chance" => FinalTie::Chance,
});

impl OptionValue for DiceMode {
    fn read(key: &str, text: &str, values: &str) -> Result<DiceMode, OptionError> {
        text.parse()
            .map_err(|_| OptionError::bad_value(key, text, values))
    }

    fn write(&self, _values: &str) -> String {
        self.to_string()
    }
}

game::options! {
    /// The options of a game of The Big Cheese, each a point where the
    /// rulebooks differ; the defaults are the rulings' (polyhedral dice,
    /// specials on, exact off, target auto, 10 chips).
    ///
    /// Its serde form (in every view) has the option keys of
    /// `start` (`dice`, `specials`, `exact`, `target`, `chips`,
    /// `veto`, `final_tie`), with typed values: booleans for on/off, `null`
    /// for an `auto` target.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub struct Options {
        dice: DiceMode = "polyhedral", "polyhedral|d6|best-of-two|half-of-n|no-dice",
            "B11 payout: the card's own die (d2 for the 2); one d6 x value; best of two d6 x value \
             (a Big Cheese re-rolls one die); value-many d6, best half x 2 (a Big Cheese re-rolls \
             the dice you pick); face value with no dice (a matured Big Cheese hires 2 chips, B15)";
        specials: bool = "on", "on|off",
            "B2: off removes the 4 Vetos and 4 Big Cheeses (28-card deck)";
        exact: bool = "off", "on|off",
            "B13: a payout that would pass the target is ignored; the first to reach it exactly wins \
             (with polyhedral dice the auto target becomes 30; the 2011 book plays it at 40: target=40)";
        target: Option<u16> = "auto", "auto|1..=10000",
            "B12/B13/B19: auto = polyhedral 40 (30 with exact=on), d6/best-of-two/half-of-n 200, \
             no-dice 60";
        chips: u8 = "10", "1..=50", "B1: starting chips (flunkies) per player";
        veto: VetoTiming = "any-turn", "any-turn|before-bid",
            "B18: when a Veto may be played: on any turn in an auction (B6), or only before \
             your first bid in it (001, the French book)";
        final_tie: FinalTie = "shared", "shared|chance",
            "B14/B20: players still tied after score and scored projects share the win, or \
             one of them wins by a draw from the game's dice (001, the French book)";
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::GameOptions;

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
