//! What happens in a game of The Big Cheese, as typed events: the shuffle,
//! auctions, bids, takes, vetoes, maturing projects, rolls, payouts and the
//! win.
//!
//! One event is one line of the game's story. `Display` gives the English
//! line the engine has always logged (scenario files match it); the web
//! client renders each kind from its own template per language, from the
//! fields alone.

use crate::{Card, DiceMode};
use game::{GameEvent, Seat};
use std::fmt;

/// The dice shown for a matured number project (B11), and what they pay.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rolled {
    /// How the game pays projects (the `dice` option).
    pub mode: DiceMode,
    /// The dice, sorted ascending; empty in `no-dice`.
    pub dice: Vec<u8>,
    /// The points the roll pays.
    pub payout: u16,
}

/// Something that happened in a game of The Big Cheese. Every event is
/// public: the game has no hidden hands, only the deck order and the dice
/// to come, which no event shows before they are revealed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// The deck is shuffled and the first leader drawn (B3, B4).
    Shuffled {
        /// Cards in the deck.
        cards: u8,
        /// The top card, face up.
        top: Option<Card>,
        /// The first leader, a seeded random player.
        leader: Seat,
    },
    /// An auction opens on the top card (B5).
    Auction {
        /// The card up for bid.
        card: Card,
        /// Who bids first.
        leader: Seat,
    },
    /// The deck ran out: the discards are shuffled into a new deck (B16).
    Reshuffled {
        /// Cards shuffled into the new deck.
        cards: u8,
    },
    /// No card can ever be revealed again: the game stops with no winner.
    Stuck,
    /// Nothing to reveal: every project advances one step (B16).
    NothingToReveal,
    /// A Veto or Big Cheese project matures into its owner's hand (B9).
    ToHand {
        /// The project's owner.
        owner: Seat,
        /// The card (a Veto or a Big Cheese).
        card: Card,
    },
    /// A Big Cheese project matures in `no-dice`: its owner hires chips
    /// within the caps, and the card is discarded (B15).
    Hire {
        /// The project's owner.
        owner: Seat,
        /// Chips hired now (0 to 2).
        chips: u8,
        /// Chips the owner has hired in the game.
        hired: u8,
        /// Chips hired by everyone in the game.
        total: u8,
    },
    /// A number project matures and rolls; its owner holds a Big Cheese and
    /// may re-roll before it pays (B10, B11).
    Roll {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// The dice.
        roll: Rolled,
    },
    /// A number project matures and pays its owner (B9, B11).
    Payout {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// The dice (none in `no-dice`).
        roll: Rolled,
        /// Points scored.
        amount: u16,
        /// The owner's score now.
        total: u16,
    },
    /// A number project matures, but its payout would pass the exact
    /// target: it is ignored and the card discarded (B13).
    PayoutIgnored {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// The dice (none in `no-dice`).
        roll: Rolled,
        /// The payout that was ignored.
        amount: u16,
        /// The exact target.
        target: u16,
    },
    /// The owner keeps the roll (by choice, or after playing their last
    /// Big Cheese) and scores (B10).
    Keep {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// Whether this is the roll after a Big Cheese, kept because the
        /// owner has no Big Cheese left.
        new_roll: bool,
        /// Points scored.
        amount: u16,
        /// The owner's score now.
        total: u16,
    },
    /// The owner keeps the roll, but its payout would pass the exact
    /// target: it is ignored and the card discarded (B10, B13).
    KeepIgnored {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// Whether this is the roll after a Big Cheese, kept because the
        /// owner has no Big Cheese left.
        new_roll: bool,
        /// The payout that was ignored.
        amount: u16,
        /// The exact target.
        target: u16,
    },
    /// The owner plays a Big Cheese to re-roll dice of the roll (B10).
    Reroll {
        /// The project's owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// The faces of the dice re-rolled (`best-of-two`, `half-of-n`);
        /// empty for the single die.
        rerolled: Vec<u8>,
        /// The dice now.
        roll: Rolled,
    },
    /// A bid (B5).
    Bid {
        /// The bidder.
        seat: Seat,
        /// Chips bid.
        amount: u8,
    },
    /// A pass, final for this auction (B5).
    Pass {
        /// Who passed.
        seat: Seat,
    },
    /// Everyone passed: the card is discarded and nothing advances (B7).
    AllPass {
        /// The discarded card.
        card: Card,
    },
    /// A Veto discards the card up for bid; bids are void and nothing
    /// advances (B6).
    Veto {
        /// Who played the Veto.
        seat: Seat,
        /// The discarded card.
        card: Card,
    },
    /// The auction is won: the card becomes a project with the bid chips
    /// on it (B8).
    Take {
        /// The winner of the auction.
        seat: Seat,
        /// The card taken.
        card: Card,
        /// Chips put on it.
        chips: u8,
    },
    /// `final_tie=chance`: a die with as many faces as tied players picks
    /// the winner among them, in seat order (B20).
    TieBroken {
        /// The tied players, in seat order.
        tied: Vec<Seat>,
        /// Their score.
        score: u16,
        /// The die's face: the winner is the `face`-th tied player.
        face: u8,
        /// The winner.
        winner: Seat,
    },
    /// The game is won (B12 to B14, B20).
    Win {
        /// The winners (more than one when the win is shared).
        winners: Vec<Seat>,
        /// The winning score.
        score: u16,
    },
}

/// A roll in words, as the log writes it: `d8 rolls 5`,
/// `d6 rolls 5: 5 x 12 = 60`, `2d6 roll 5,6: best 6 x 12 = 72`,
/// `4d6 roll 2,3,5,6: best 2 sum 11 x 2 = 22`, `pays its face value 12`.
struct RollText<'a>(Card, &'a Rolled);

impl fmt::Display for RollText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let RollText(card, roll) = self;
        let value = card.value();
        let pay = roll.payout;
        let first = roll.dice.first().copied().unwrap_or(0);
        let best = roll.dice.last().copied().unwrap_or(0);
        let list = roll
            .dice
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",");
        match roll.mode {
            DiceMode::Polyhedral => write!(f, "d{value} rolls {first}"),
            DiceMode::D6 => write!(f, "d6 rolls {first}: {first} x {value} = {pay}"),
            DiceMode::BestOfTwo => write!(f, "2d6 roll {list}: best {best} x {value} = {pay}"),
            DiceMode::HalfOfN => write!(
                f,
                "{value}d6 roll {list}: best {} sum {} x 2 = {pay}",
                value / 2,
                pay / 2
            ),
            DiceMode::NoDice => write!(f, "pays its face value {value}"),
        }
    }
}

/// `, P1 scores 5 (total 12)` or `, 8 would pass the exact target 30:
/// ignored, 8 discarded (B13)`: the end of a payout line.
fn scores(f: &mut fmt::Formatter<'_>, owner: Seat, amount: u16, total: u16) -> fmt::Result {
    write!(f, ", {owner} scores {amount} (total {total})")
}

fn ignored(f: &mut fmt::Formatter<'_>, card: Card, amount: u16, target: u16) -> fmt::Result {
    write!(
        f,
        ", {amount} would pass the exact target {target}: ignored, {card} discarded (B13)"
    )
}

fn keeps(f: &mut fmt::Formatter<'_>, owner: Seat, new_roll: bool) -> fmt::Result {
    let new = if new_roll { "new " } else { "" };
    write!(f, "{owner} keeps the {new}roll")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Shuffled { cards, top, leader } => {
                let top = top.map_or_else(|| "none".to_string(), |c| c.to_string());
                write!(
                    f,
                    "deck shuffled: {cards} cards, top card {top}; {leader} leads (B4)"
                )
            }
            Event::Auction { card, leader } => write!(f, "auction for {card}: {leader} leads"),
            Event::Reshuffled { cards } => {
                write!(f, "deck empty: {cards} discards shuffled into a new deck")
            }
            Event::Stuck => {
                f.write_str("no card can ever be revealed: the game stops with no winner")
            }
            Event::NothingToReveal => {
                f.write_str("nothing to reveal: every project advances one step (B16)")
            }
            Event::ToHand { .. }
            | Event::Hire { .. }
            | Event::Roll { .. }
            | Event::Payout { .. }
            | Event::PayoutIgnored { .. }
            | Event::Keep { .. }
            | Event::KeepIgnored { .. }
            | Event::Reroll { .. } => self.fmt_matured(f),
            Event::Bid { seat, amount } => write!(f, "{seat} bids {amount}"),
            Event::Pass { seat } => write!(f, "{seat} passes"),
            Event::AllPass { card } => {
                write!(
                    f,
                    "everyone passes: {card} discarded, nothing advances (B7)"
                )
            }
            Event::Veto { seat, card } => write!(
                f,
                "{seat} vetoes {card}: bids are void, nothing advances (B6)"
            ),
            Event::Take { seat, card, chips } => {
                write!(f, "{seat} takes {card} for {chips} chips")
            }
            Event::TieBroken {
                tied,
                score,
                face,
                winner,
            } => {
                let names: Vec<String> = tied.iter().map(Seat::to_string).collect();
                write!(
                    f,
                    "{} tie with {score}: a {}-sided die rolls {face}, {winner} wins (B20)",
                    names.join(" and "),
                    tied.len()
                )
            }
            Event::Win { winners, score } => {
                let names: Vec<String> = winners.iter().map(Seat::to_string).collect();
                let verb = if names.len() > 1 {
                    "share the win"
                } else {
                    "wins"
                };
                write!(f, "{} {verb} with {score}", names.join(" and "))
            }
        }
    }
}

impl Event {
    /// The text of a project that matures (B8-B11, B15) and of what
    /// follows its roll: the Big Cheese's keep or re-roll.
    fn fmt_matured(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::ToHand { owner, card } => {
                write!(f, "{card} of {owner} matures: into {owner}'s hand")
            }
            Event::Hire {
                owner,
                chips,
                hired,
                total,
            } => write!(
                f,
                "BC of {owner} matures: {owner} hires {chips} chips ({hired} hired, {total} in the game; B15)"
            ),
            Event::Roll { owner, card, roll } => write!(
                f,
                "{card} of {owner} matures: {}; {owner} may play a Big Cheese",
                RollText(*card, roll)
            ),
            Event::Payout {
                owner,
                card,
                roll,
                amount,
                total,
            } => {
                write!(f, "{card} of {owner} matures: {}", RollText(*card, roll))?;
                scores(f, *owner, *amount, *total)
            }
            Event::PayoutIgnored {
                owner,
                card,
                roll,
                amount,
                target,
            } => {
                write!(f, "{card} of {owner} matures: {}", RollText(*card, roll))?;
                ignored(f, *card, *amount, *target)
            }
            Event::Keep {
                owner,
                new_roll,
                amount,
                total,
                ..
            } => {
                keeps(f, *owner, *new_roll)?;
                scores(f, *owner, *amount, *total)
            }
            Event::KeepIgnored {
                owner,
                card,
                new_roll,
                amount,
                target,
            } => {
                keeps(f, *owner, *new_roll)?;
                ignored(f, *card, *amount, *target)
            }
            Event::Reroll {
                owner,
                card,
                rerolled,
                roll,
            } => {
                write!(f, "{owner} plays a Big Cheese: reroll")?;
                for (i, v) in rerolled.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "," })?;
                    write!(f, "{v}")?;
                }
                write!(f, ", now {}", RollText(*card, roll))
            }
            _ => unreachable!("not a maturing project"),
        }
    }
}

impl GameEvent for Event {
    game::event_kinds! {
        Shuffled => "shuffled",
        Auction => "auction",
        Reshuffled => "reshuffled",
        Stuck => "stuck",
        NothingToReveal => "nothing-to-reveal",
        ToHand => "to-hand",
        Hire => "hire",
        Roll => "roll",
        Payout => "payout",
        PayoutIgnored => "payout-ignored",
        Keep => "keep",
        KeepIgnored => "keep-ignored",
        Reroll => "reroll",
        Bid => "bid",
        Pass => "pass",
        AllPass => "all-pass",
        Veto => "veto",
        Take => "take",
        TieBroken => "tie-broken",
        Win => "win",
    }

    /// Shuffles, the first leader's draw, every roll of dice and the die
    /// that breaks a final tie (B20); a payout in `no-dice` (face value)
    /// and a kept roll (rolled before) are not.
    fn is_chance(&self) -> bool {
        match self {
            Event::Shuffled { .. }
            | Event::Reshuffled { .. }
            | Event::Roll { .. }
            | Event::Reroll { .. }
            | Event::TieBroken { .. } => true,
            Event::Payout { roll, .. } | Event::PayoutIgnored { roll, .. } => {
                roll.mode != DiceMode::NoDice
            }
            Event::Auction { .. }
            | Event::Stuck
            | Event::NothingToReveal
            | Event::ToHand { .. }
            | Event::Hire { .. }
            | Event::Keep { .. }
            | Event::KeepIgnored { .. }
            | Event::Bid { .. }
            | Event::Pass { .. }
            | Event::AllPass { .. }
            | Event::Veto { .. }
            | Event::Take { .. }
            | Event::Win { .. } => false,
        }
    }

    fn examples() -> Vec<Event> {
        let (p1, p2) = (Seat::new(0), Seat::new(1));
        let roll = Rolled {
            mode: DiceMode::D6,
            dice: vec![5],
            payout: 60,
        };
        vec![
            Event::Shuffled {
                cards: 36,
                top: Some(Card::Eight),
                leader: p2,
            },
            Event::Auction {
                card: Card::Eight,
                leader: p1,
            },
            Event::Reshuffled { cards: 12 },
            Event::Stuck,
            Event::NothingToReveal,
            Event::ToHand {
                owner: p1,
                card: Card::Veto,
            },
            Event::Hire {
                owner: p1,
                chips: 2,
                hired: 2,
                total: 4,
            },
            Event::Roll {
                owner: p1,
                card: Card::Twelve,
                roll: roll.clone(),
            },
            Event::Payout {
                owner: p1,
                card: Card::Twelve,
                roll: roll.clone(),
                amount: 60,
                total: 72,
            },
            Event::PayoutIgnored {
                owner: p1,
                card: Card::Twelve,
                roll: roll.clone(),
                amount: 60,
                target: 30,
            },
            Event::Keep {
                owner: p1,
                card: Card::Twelve,
                new_roll: false,
                amount: 60,
                total: 72,
            },
            Event::KeepIgnored {
                owner: p1,
                card: Card::Twelve,
                new_roll: true,
                amount: 60,
                target: 30,
            },
            Event::Reroll {
                owner: p1,
                card: Card::Twelve,
                rerolled: vec![2],
                roll,
            },
            Event::Bid {
                seat: p2,
                amount: 3,
            },
            Event::Pass { seat: p2 },
            Event::AllPass { card: Card::Twenty },
            Event::Veto {
                seat: p2,
                card: Card::Twenty,
            },
            Event::Take {
                seat: p2,
                card: Card::Four,
                chips: 3,
            },
            Event::TieBroken {
                tied: vec![p1, p2],
                score: 41,
                face: 2,
                winner: p2,
            },
            Event::Win {
                winners: vec![p1, p2],
                score: 41,
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_an_example_and_its_serde_tag() {
        game::check_event_kinds::<Event>().unwrap();
    }

    #[test]
    fn the_english_lines_are_the_logs_of_old() {
        let text: Vec<String> = Event::examples().iter().map(Event::to_string).collect();
        assert_eq!(
            text,
            [
                "deck shuffled: 36 cards, top card 8; P2 leads (B4)",
                "auction for 8: P1 leads",
                "deck empty: 12 discards shuffled into a new deck",
                "no card can ever be revealed: the game stops with no winner",
                "nothing to reveal: every project advances one step (B16)",
                "V of P1 matures: into P1's hand",
                "BC of P1 matures: P1 hires 2 chips (2 hired, 4 in the game; B15)",
                "12 of P1 matures: d6 rolls 5: 5 x 12 = 60; P1 may play a Big Cheese",
                "12 of P1 matures: d6 rolls 5: 5 x 12 = 60, P1 scores 60 (total 72)",
                "12 of P1 matures: d6 rolls 5: 5 x 12 = 60, 60 would pass the exact target 30: ignored, 12 discarded (B13)",
                "P1 keeps the roll, P1 scores 60 (total 72)",
                "P1 keeps the new roll, 60 would pass the exact target 30: ignored, 12 discarded (B13)",
                "P1 plays a Big Cheese: reroll 2, now d6 rolls 5: 5 x 12 = 60",
                "P2 bids 3",
                "P2 passes",
                "everyone passes: 20 discarded, nothing advances (B7)",
                "P2 vetoes 20: bids are void, nothing advances (B6)",
                "P2 takes 4 for 3 chips",
                "P1 and P2 tie with 41: a 2-sided die rolls 2, P2 wins (B20)",
                "P1 and P2 share the win with 41",
            ]
        );
        let json = serde_json::to_string(&Event::examples()[7]).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"roll","owner":"P1","card":"12","roll":{"mode":"d6","dice":[5],"payout":60}}"#
        );
    }
}
