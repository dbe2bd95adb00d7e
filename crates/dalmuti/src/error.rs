//! Why an action is illegal: one enum, [`IllegalAction`], whose messages
//! name the broken rule in plain words (and cite the ruling).
//!
//! The checker builds these without touching the state, so a rejected
//! action always leaves the game unchanged.

use crate::action::{Action, Play};
use crate::card::Card;
use crate::role::Phase;
use game::Seat;
use std::fmt;

/// An action the rules forbid here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalAction {
    /// The session is over.
    GameOver,
    /// The action does not belong to the current phase.
    WrongPhase {
        /// What was tried.
        action: Action,
        /// What the game waits for.
        phase: Phase,
    },
    /// A pass when leading a trick (D9).
    MustLead,
    /// The play does not beat the last play (D9).
    DoesNotBeat {
        /// The set to beat.
        last: Play,
    },
    /// The player lacks the cards.
    NotHeld {
        /// The card kind.
        card: Card,
        /// How many are needed.
        need: u8,
        /// How many are held.
        have: u8,
    },
    /// A tax or market gift of the wrong size (D8, D14).
    GiftSize {
        /// The number required.
        expected: usize,
    },
    /// `revolution`/`no-revolution` from someone who may not (D7).
    NoRevolution,
    /// A market trade with someone who is not another Merchant (D14).
    NotMerchant(Seat),
    /// `market P3 7` under the black market, or `market P3` under the
    /// open market (D14).
    MarketKind {
        /// True when the black market is on.
        black: bool,
    },
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalAction::GameOver => f.write_str("the session is over"),
            IllegalAction::WrongPhase { action, phase } => {
                write!(f, "`{action}` is not possible now: {}", phase.describe())
            }
            IllegalAction::MustLead => {
                f.write_str("the trick leader may play any set but must play (D9)")
            }
            IllegalAction::DoesNotBeat { last } => {
                let n = last.size();
                if last.rank() <= 1 {
                    write!(f, "nothing beats {} (D9)", last.shape())
                } else {
                    write!(
                        f,
                        "a play on {} must be {n} card{} of rank {} or better (D9)",
                        last.shape(),
                        if n == 1 { "" } else { "s" },
                        last.rank().min(13) - 1
                    )
                }
            }
            IllegalAction::NotHeld { card, need: _, have } => {
                if card.is_jester() {
                    write!(
                        f,
                        "you hold only {have} Jester{}",
                        if *have == 1 { "" } else { "s" }
                    )
                } else {
                    write!(
                        f,
                        "you hold only {have} card{} of rank {card}",
                        if *have == 1 { "" } else { "s" }
                    )
                }
            }
            IllegalAction::GiftSize { expected } => write!(
                f,
                "you must give exactly {expected} card{}",
                if *expected == 1 { "" } else { "s" }
            ),
            IllegalAction::NoRevolution => f.write_str(
                "only the holder of both Jesters can declare a revolution, right after the deal (D7)",
            ),
            IllegalAction::NotMerchant(s) => {
                write!(f, "{s} is not another Merchant to trade with (D14)")
            }
            IllegalAction::MarketKind { black } => {
                if *black {
                    f.write_str("the black market draws a random card: write `market P3` (D14)")
                } else {
                    f.write_str("the market trades a chosen card: write `market P3 7` (D14)")
                }
            }
        }
    }
}

impl std::error::Error for IllegalAction {}
