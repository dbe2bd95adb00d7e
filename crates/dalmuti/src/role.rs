//! Roles (D4) and phases of a hand: small `Copy` enums with kebab-case
//! names, shared by the engine, the views and scenario files.
//!
//! A role is a function of a seat's position in the table order and the
//! number of players, so the state stores only the order; [`Role::of`]
//! derives the rest.

use std::fmt;
use std::str::FromStr;

/// A social role (D4). The table order is role order, best first.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// First in the order: leads the first trick, receives 2 cards of tax.
    GreaterDalmuti,
    /// Second: receives 1 card of tax (4+ players).
    LesserDalmuti,
    /// Everybody in between.
    Merchant,
    /// Second to last: pays 1 card of tax (4+ players).
    LesserPeon,
    /// Last: pays 2 cards of tax.
    GreaterPeon,
}

impl Role {
    /// The role at `position` (0 = first) of a table of `players`.
    /// New ruling: with 3 players the roles are Greater Dalmuti, Merchant,
    /// Greater Peon (only the greater exchange, D8).
    pub fn of(position: usize, players: usize) -> Role {
        if position == 0 {
            Role::GreaterDalmuti
        } else if position + 1 == players {
            Role::GreaterPeon
        } else if players < 4 {
            Role::Merchant
        } else if position == 1 {
            Role::LesserDalmuti
        } else if position + 2 == players {
            Role::LesserPeon
        } else {
            Role::Merchant
        }
    }

    /// The role's name as people say it: `Greater Dalmuti`.
    pub fn name(self) -> &'static str {
        match self {
            Role::GreaterDalmuti => "Greater Dalmuti",
            Role::LesserDalmuti => "Lesser Dalmuti",
            Role::Merchant => "Merchant",
            Role::LesserPeon => "Lesser Peon",
            Role::GreaterPeon => "Greater Peon",
        }
    }

    /// The kebab-case key used in scenario files: `greater-dalmuti`.
    pub fn key(self) -> &'static str {
        match self {
            Role::GreaterDalmuti => "greater-dalmuti",
            Role::LesserDalmuti => "lesser-dalmuti",
            Role::Merchant => "merchant",
            Role::LesserPeon => "lesser-peon",
            Role::GreaterPeon => "greater-peon",
        }
    }
}

/// Written as the kebab-case key.
impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A text that is not a role's key (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a role (greater-dalmuti, lesser-dalmuti, merchant, lesser-peon, greater-peon)"
)]
pub struct NotARole(pub String);

impl FromStr for Role {
    type Err = NotARole;

    fn from_str(s: &str) -> Result<Role, NotARole> {
        [
            Role::GreaterDalmuti,
            Role::LesserDalmuti,
            Role::Merchant,
            Role::LesserPeon,
            Role::GreaterPeon,
        ]
        .into_iter()
        .find(|r| r.key() == s)
        .ok_or_else(|| NotARole(s.to_string()))
    }
}

/// What the game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The Greater Dalmuti seats a newcomer above or below the middle (D13).
    SeatNew,
    /// The holder of both Jesters decides on a revolution (D7).
    Revolution,
    /// The Greater Dalmuti chooses 2 cards to give back (D8).
    GreaterTax,
    /// The Lesser Dalmuti chooses 1 card to give back (D8).
    LesserTax,
    /// The first Merchant may trade with a Merchant (D14).
    Market,
    /// The chosen Merchant gives a card back (D14 `market`).
    MarketReturn,
    /// Tricks are being played (D9..D11).
    Play,
    /// The session is over (D12).
    Over,
}

impl Phase {
    /// The kebab-case key: `greater-tax`.
    pub fn key(self) -> &'static str {
        match self {
            Phase::SeatNew => "seat-new",
            Phase::Revolution => "revolution",
            Phase::GreaterTax => "greater-tax",
            Phase::LesserTax => "lesser-tax",
            Phase::Market => "market",
            Phase::MarketReturn => "market-return",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }

    /// What the phase waits for, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::SeatNew => "the Greater Dalmuti must seat the newcomer (`seat-new above|below`)",
            Phase::Revolution => {
                "the holder of both Jesters must decide (`revolution` or `no-revolution`)"
            }
            Phase::GreaterTax => {
                "the Greater Dalmuti must choose 2 cards to give the Greater Peon (`give A B`)"
            }
            Phase::LesserTax => {
                "the Lesser Dalmuti must choose 1 card to give the Lesser Peon (`give A`)"
            }
            Phase::Market => "the first Merchant may trade (`market PN ...` or `no-market`)",
            Phase::MarketReturn => "the chosen Merchant must give a card back (`give A`)",
            Phase::Play => "cards are being played (`play ...` or `pass`)",
            Phase::Over => "the session is over",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles() {
        let names: Vec<Role> = (0..3).map(|p| Role::of(p, 3)).collect();
        assert_eq!(
            names,
            [Role::GreaterDalmuti, Role::Merchant, Role::GreaterPeon]
        );
        let names: Vec<Role> = (0..4).map(|p| Role::of(p, 4)).collect();
        assert_eq!(
            names,
            [
                Role::GreaterDalmuti,
                Role::LesserDalmuti,
                Role::LesserPeon,
                Role::GreaterPeon
            ]
        );
        assert_eq!(Role::of(2, 5), Role::Merchant);
        for r in (0..6).map(|p| Role::of(p, 6)) {
            assert_eq!(r.key().parse::<Role>(), Ok(r));
        }
    }
}
