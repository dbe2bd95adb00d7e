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
    /// The player lacks the cards (D9 for a play, D8 for taxes, D14 at
    /// the market).
    NotHeld {
        /// The phase the cards were needed in (names the ruling).
        phase: Phase,
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
        /// Taxes (D8) or the market's return gift (D14).
        phase: Phase,
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
            IllegalAction::GameOver => f.write_str("the session is over (D12)"),
            IllegalAction::WrongPhase { action, phase } => write!(
                f,
                "`{action}` is not possible now: {} ({})",
                phase.describe(),
                ruling(*phase)
            ),
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
            IllegalAction::NotHeld {
                card,
                need: _,
                have,
                phase,
            } => {
                let s = if *have == 1 { "" } else { "s" };
                if card.is_jester() {
                    write!(f, "you hold only {have} Jester{s} ({})", ruling(*phase))
                } else {
                    write!(
                        f,
                        "you hold only {have} card{s} of rank {card} ({})",
                        ruling(*phase)
                    )
                }
            }
            IllegalAction::GiftSize { expected, phase } => write!(
                f,
                "you must give exactly {expected} card{} ({})",
                if *expected == 1 { "" } else { "s" },
                ruling(*phase)
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

/// The ruling that governs what may be done in `phase`.
fn ruling(phase: Phase) -> &'static str {
    match phase {
        Phase::SeatNew => "D13",
        Phase::Revolution => "D7",
        Phase::GreaterTax | Phase::LesserTax => "D8",
        Phase::Market | Phase::MarketReturn => "D14",
        Phase::Play => "D9",
        Phase::Over => "D12",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Play;

    /// Every message ends with the ruling it enforces: `(Dn)`.
    #[test]
    fn every_message_names_its_ruling() {
        let phases = [
            Phase::SeatNew,
            Phase::Revolution,
            Phase::GreaterTax,
            Phase::LesserTax,
            Phase::Market,
            Phase::MarketReturn,
            Phase::Play,
            Phase::Over,
        ];
        let last: Play = "3x7".parse().unwrap();
        let mut all = vec![
            IllegalAction::GameOver,
            IllegalAction::MustLead,
            IllegalAction::DoesNotBeat { last },
            IllegalAction::DoesNotBeat {
                last: "1".parse().unwrap(),
            },
            IllegalAction::NoRevolution,
            IllegalAction::NotMerchant(Seat::new(2)),
            IllegalAction::MarketKind { black: true },
            IllegalAction::MarketKind { black: false },
        ];
        for phase in phases {
            all.push(IllegalAction::WrongPhase {
                action: Action::Pass,
                phase,
            });
            all.push(IllegalAction::GiftSize { expected: 2, phase });
            for card in [Card::JESTER, Card::rank(4).unwrap()] {
                all.push(IllegalAction::NotHeld {
                    card,
                    need: 1,
                    have: 0,
                    phase,
                });
            }
        }
        for e in all {
            let text = e.to_string();
            let tail = text.rsplit_once(" (D").map(|(_, t)| t);
            assert!(
                tail.is_some_and(|t| t.ends_with(')')
                    && t[..t.len() - 1]
                        .parse::<u8>()
                        .is_ok_and(|n| (1..=15).contains(&n))),
                "{text}"
            );
        }
        assert_eq!(
            IllegalAction::GiftSize {
                expected: 2,
                phase: Phase::GreaterTax
            }
            .to_string(),
            "you must give exactly 2 cards (D8)"
        );
    }
}
