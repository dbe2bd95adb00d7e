//! Why an action is illegal: one variant per rule, each naming the rule in
//! plain English (and its ruling id) so that players and scenario files can
//! see which rule refused it.

use crate::Card;
use game::Seat;
use std::fmt;

/// An action the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalAction {
    /// The game is over.
    GameOver,
    /// A bid of 0 (B5).
    BidZero,
    /// A bid not above the high bid (B5).
    BidNotAbove {
        /// The bid.
        bid: u8,
        /// The current high bid.
        high: u8,
    },
    /// A bid above the bidder's free chips (B5).
    BidExceedsChips {
        /// The bid.
        bid: u8,
        /// The bidder's free chips.
        free: u8,
    },
    /// A Veto without a matured Veto in hand (B6).
    NoVeto,
    /// A Veto after bidding in this auction, with `veto=before-bid` (B18).
    VetoAfterBid,
    /// The seat passed this auction already (B5).
    AlreadyPassed,
    /// Keep or re-roll with no roll waiting (B10).
    NoRoll,
    /// Bid, pass or veto while a roll waits for its owner's decision (B10).
    RollPending {
        /// Whose roll it is.
        owner: Seat,
        /// The project rolled for.
        card: Card,
    },
    /// Someone other than the owner tried to re-roll (B10).
    NotYourRoll,
    /// A re-roll without a Big Cheese in hand (B10).
    NoBigCheese,
    /// A re-roll naming dice that were not rolled, or none (B11).
    RerollNotRolled,
    /// A re-roll in the wrong form for the dice mode (B11).
    RerollForm(&'static str),
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalAction::GameOver => f.write_str("the game is over"),
            IllegalAction::BidZero => f.write_str("a bid must be at least 1 chip (B5)"),
            IllegalAction::BidNotAbove { bid, high } => {
                write!(f, "bid {bid} must be above the high bid of {high} (B5)")
            }
            IllegalAction::BidExceedsChips { bid, free } => {
                write!(f, "bid {bid} exceeds your {free} free chips (B5)")
            }
            IllegalAction::NoVeto => f.write_str("you have no matured Veto (B6)"),
            IllegalAction::VetoAfterBid => f.write_str(
                "you have bid in this auction: a Veto only before your first bid (B18, veto=before-bid)",
            ),
            IllegalAction::AlreadyPassed => {
                f.write_str("you passed this auction and cannot bid again (B5)")
            }
            IllegalAction::NoRoll => f.write_str("there is no roll to keep or re-roll (B10)"),
            IllegalAction::RollPending { owner, card } => write!(
                f,
                "no auction now: {owner} must first keep or re-roll the roll on {card} (B10)"
            ),
            IllegalAction::NotYourRoll => {
                f.write_str("a Big Cheese can only re-roll your own roll (B10)")
            }
            IllegalAction::NoBigCheese => f.write_str("you have no Big Cheese to play (B10)"),
            IllegalAction::RerollNotRolled => f.write_str("reroll must name dice you rolled (B11)"),
            IllegalAction::RerollForm(why) => write!(f, "{why} (B11)"),
        }
    }
}

impl std::error::Error for IllegalAction {}
