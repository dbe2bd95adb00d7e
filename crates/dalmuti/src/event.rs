//! What happens in a Dalmuti session, as typed events: the seating draw,
//! roles, deals, revolutions, taxes, markets, plays, going out and the
//! scores.
//!
//! One event is one line of the session's story. `Display` gives the
//! English line the engine has always logged (scenario files match it); the
//! web client renders each kind from its own template per language. Events
//! naming a seat's hidden cards (its deal, its tax cards) are logged as
//! private to that seat ([`game::LogEntry::private`]); the public ones never
//! name a card a player holds.

use crate::action::{Gift, Play, Side};
use crate::card::{Card, Hand};
use crate::role::Role;
use game::{GameEvent, Seat};
use std::fmt;

/// One card drawn in the seating draw (D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Draw {
    /// Who drew it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// Something that happened in a Dalmuti session.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// A seat's role for the coming hand (D4).
    Role {
        /// The seat.
        seat: Seat,
        /// Its role.
        role: Role,
    },
    /// Every player draws a card; the best rank sits first (D3).
    SeatingDraw {
        /// The cards drawn, in seat order.
        draws: Vec<Draw>,
    },
    /// Tied players draw again among themselves (D3).
    SeatingRedraw {
        /// The cards drawn again, in seat order.
        draws: Vec<Draw>,
    },
    /// A new player joins the session before a hand (D13).
    Joins {
        /// The newcomer's seat.
        seat: Seat,
    },
    /// The newcomer sits at a place in the table order (D13).
    Sits {
        /// The newcomer's seat.
        seat: Seat,
        /// The place in the table order, 1 = Greater Dalmuti.
        place: u8,
        /// The role that place has.
        role: Role,
    },
    /// A hand's deck is shuffled and dealt (D2, D5).
    Deal {
        /// The hand number, from 1.
        number: u32,
        /// Cards dealt.
        cards: u8,
    },
    /// A seat's own cards after the deal (private to that seat).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its hand.
        hand: Hand,
    },
    /// Someone holds both Jesters and may declare a revolution; the table
    /// is not told who (D7).
    RevolutionPending,
    /// This seat holds both Jesters and may declare a revolution (D7;
    /// private to that seat).
    BothJesters {
        /// The seat.
        seat: Seat,
    },
    /// No taxes are paid this hand (a revolution, a settling hand, or
    /// `auto_revolution`).
    NoTaxes,
    /// A Peon pays taxes to a Dalmuti: their best cards (D8).
    TaxPaid {
        /// The Peon.
        from: Seat,
        /// The Dalmuti.
        to: Seat,
        /// How many cards.
        count: u8,
    },
    /// A Dalmuti gives cards of their choice back to a Peon (D8).
    TaxReturned {
        /// The Dalmuti.
        from: Seat,
        /// The Peon.
        to: Seat,
        /// How many cards.
        count: u8,
    },
    /// The cards this seat gave, in taxes or at the market (private to
    /// the giver).
    YouGive {
        /// The giver (the seat that sees this).
        from: Seat,
        /// The receiver.
        to: Seat,
        /// The cards.
        cards: Gift,
    },
    /// The cards this seat received, in taxes or at the market (private to
    /// the receiver).
    YouGet {
        /// The giver.
        from: Seat,
        /// The receiver (the seat that sees this).
        to: Seat,
        /// The cards.
        cards: Gift,
    },
    /// A seat leads a new trick (D9, D10).
    Leads {
        /// The leader.
        seat: Seat,
    },
    /// A seat plays a set (D9).
    Play {
        /// The player.
        seat: Seat,
        /// The set.
        play: Play,
    },
    /// A seat passes (D9).
    Pass {
        /// Who passed.
        seat: Seat,
    },
    /// A seat plays its last card and goes out, scoring a point per player
    /// still holding cards (D11, D12).
    Out {
        /// The seat.
        seat: Seat,
        /// Its finishing place, from 1.
        place: u8,
        /// Points scored.
        points: u8,
    },
    /// The last seat still holding cards finishes last, with no points
    /// (D12).
    Last {
        /// The seat.
        seat: Seat,
    },
    /// `benevolent_rulers`: the Greater Peon rose, +1 to the Greater
    /// Dalmuti (D14).
    GreaterPeonRises {
        /// The Greater Peon.
        peon: Seat,
        /// The Greater Dalmuti, who scores.
        dalmuti: Seat,
    },
    /// `benevolent_rulers`: the Lesser Peon rose, +1 to the Lesser Dalmuti
    /// (D14).
    LesserPeonRises {
        /// The Lesser Peon.
        peon: Seat,
        /// The Lesser Dalmuti, who scores.
        dalmuti: Seat,
    },
    /// `the_elected`: the Greater Peon finished first and scores +1 (D14).
    Elected {
        /// The Greater Peon.
        seat: Seat,
    },
    /// A hand ends: the finishing order and every seat's score (D12).
    HandOver {
        /// The hand number, from 1.
        number: u32,
        /// The seats in finishing order.
        order: Vec<Seat>,
        /// Every seat's session score, in seat order.
        scores: Vec<i64>,
    },
    /// The session ends; the highest score wins (D12).
    SessionOver {
        /// Hands played.
        hands: u32,
        /// The winners (more than one on a tie).
        winners: Vec<Seat>,
        /// The winning score.
        points: i64,
    },
    /// A single hand is over and won by whoever went out first, whatever
    /// the points (D16).
    FirstOut {
        /// The winner.
        seat: Seat,
    },
    /// A Dalmuti has chosen the cards to give back (D8); the cards stay
    /// secret until taxes are paid.
    TaxChosen {
        /// The Dalmuti.
        seat: Seat,
    },
    /// The cards this Dalmuti chose to give back (private to them, D8).
    WillGive {
        /// The Dalmuti.
        seat: Seat,
        /// The cards chosen.
        cards: Gift,
        /// Who will get them: the Greater or the Lesser Peon.
        role: Role,
    },
    /// The chosen Merchant gives a card back at the market (D14).
    MarketReturn {
        /// The chosen Merchant.
        from: Seat,
        /// The first Merchant.
        to: Seat,
    },
    /// The Greater Peon declares a Great Revolution: all roles reverse
    /// (D7).
    GreatRevolution {
        /// The Greater Peon.
        seat: Seat,
    },
    /// A revolution is declared: no taxes this hand (D7).
    Revolution {
        /// Who declared it.
        seat: Seat,
    },
    /// This seat declared no revolution (private to it, D7).
    Declined {
        /// The seat.
        seat: Seat,
    },
    /// No revolution is declared; the table is not told who could have
    /// (D7).
    NoRevolution,
    /// The first Merchant gives a chosen card to a Merchant (D14 market).
    MarketTrade {
        /// The first Merchant.
        seat: Seat,
        /// The Merchant chosen.
        partner: Seat,
    },
    /// The first Merchant and a Merchant each draw a random card from the
    /// other (D14 black market).
    BlackMarket {
        /// The first Merchant.
        seat: Seat,
        /// The Merchant chosen.
        partner: Seat,
    },
    /// The cards drawn at the black market, as one of the two sees them
    /// (private to `seat`, D14).
    BlackMarketDraw {
        /// The seat that sees this.
        seat: Seat,
        /// The other trader.
        other: Seat,
        /// The card `other` drew from `seat`.
        lost: Card,
        /// The card `seat` drew from `other`.
        got: Card,
    },
    /// The first Merchant declines to trade (D14 market).
    NoTrade {
        /// The first Merchant.
        seat: Seat,
    },
    /// The Greater Dalmuti seats the newcomer just above or below the
    /// middle player (D13).
    SeatsNewcomer {
        /// The Greater Dalmuti.
        seat: Seat,
        /// Above or below the middle player.
        side: Side,
    },
}

/// `P1 5, P2 3, P3 J`.
struct Draws<'a>(&'a [Draw]);

impl fmt::Display for Draws<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {}", d.seat, d.card)?;
        }
        Ok(())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`.
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `""` for one, `"s"` for more.
fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Role { seat, role } => write!(f, "{seat} is {}", role.name()),
            Event::SeatingDraw { draws } => write!(f, "seating draw (D3): {}", Draws(draws)),
            Event::SeatingRedraw { draws } => write!(f, "tie, drawing again: {}", Draws(draws)),
            Event::Joins { seat } => write!(f, "{seat} joins the session (D13)"),
            Event::Sits { seat, place, role } => {
                write!(f, "{seat} sits at place {place} as {}", role.name())
            }
            Event::Deal { number, cards } => {
                write!(f, "hand {number}: the deck of {cards} cards is dealt (D5)")
            }
            Event::Dealt { hand, .. } => write!(f, "you are dealt {hand}"),
            Event::RevolutionPending => {
                f.write_str("a player holds both Jesters and may declare a revolution (D7)")
            }
            Event::BothJesters { .. } => {
                f.write_str("you hold both Jesters: you may declare a revolution (D7)")
            }
            Event::NoTaxes => f.write_str("no taxes this hand"),
            Event::TaxPaid { from, to, count } => write!(
                f,
                "{from} pays {count} card{} of tax to {to} (D8)",
                plural(u64::from(*count))
            ),
            Event::TaxReturned { from, to, count } => write!(
                f,
                "{from} gives {count} card{} back to {to} (D8)",
                plural(u64::from(*count))
            ),
            Event::YouGive { to, cards, .. } => write!(f, "you give {cards} to {to}"),
            Event::YouGet { from, cards, .. } => write!(f, "{from} gives you {cards}"),
            Event::Leads { seat } => write!(f, "{seat} leads"),
            Event::Play { seat, play } => write!(f, "{seat} plays {play}"),
            Event::Pass { seat } => write!(f, "{seat} passes"),
            Event::Out { .. }
            | Event::Last { .. }
            | Event::GreaterPeonRises { .. }
            | Event::LesserPeonRises { .. }
            | Event::Elected { .. }
            | Event::HandOver { .. }
            | Event::SessionOver { .. }
            | Event::FirstOut { .. } => self.fmt_scoring(f),
            Event::TaxChosen { seat } => write!(f, "{seat} has chosen (D8)"),
            Event::WillGive { cards, role, .. } => {
                write!(f, "you will give {cards} to the {}", role.name())
            }
            Event::MarketReturn { from, to } => {
                write!(f, "{from} gives a card back to {to} (market)")
            }
            Event::GreatRevolution { seat } => write!(
                f,
                "{seat} declares a Great Revolution: all roles reverse (D7)"
            ),
            Event::Revolution { seat } => {
                write!(f, "{seat} declares a revolution: no taxes this hand (D7)")
            }
            Event::Declined { .. } => f.write_str("you declare no revolution"),
            Event::NoRevolution => f.write_str("no revolution is declared (D7)"),
            Event::MarketTrade { seat, partner } => {
                write!(f, "{seat} trades a card with {partner} (market)")
            }
            Event::BlackMarket { seat, partner } => write!(
                f,
                "{seat} and {partner} each draw a random card from the other (black market)"
            ),
            Event::BlackMarketDraw {
                other, lost, got, ..
            } => write!(f, "{other} draws your {lost}; you draw their {got}"),
            Event::NoTrade { seat } => write!(f, "{seat} declines to trade (market)"),
            Event::SeatsNewcomer { seat, side } => {
                write!(f, "{seat} seats the newcomer {side} the middle player")
            }
        }
    }
}

impl Event {
    /// The text of the end of a hand and of a session: who goes out and
    /// scores what (D10, D16), the rulers' variants, the hand's and the
    /// session's results.
    fn fmt_scoring(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Out {
                seat,
                place,
                points,
            } => write!(
                f,
                "{seat} goes out {} (+{points})",
                ordinal(usize::from(*place))
            ),
            Event::Last { seat } => write!(f, "{seat} is last (+0)"),
            Event::GreaterPeonRises { peon, dalmuti } => write!(
                f,
                "the Greater Peon {peon} rises: +1 to the Greater Dalmuti {dalmuti} (benevolent_rulers)"
            ),
            Event::LesserPeonRises { peon, dalmuti } => write!(
                f,
                "the Lesser Peon {peon} rises: +1 to the Lesser Dalmuti {dalmuti} (benevolent_rulers)"
            ),
            Event::Elected { seat } => write!(
                f,
                "the Greater Peon {seat} becomes Greater Dalmuti: +1 (the_elected)"
            ),
            Event::HandOver {
                number,
                order,
                scores,
            } => {
                write!(f, "hand {number} over: finishing order ")?;
                for (i, s) in order.iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { " " })?;
                    write!(f, "{s}")?;
                }
                f.write_str("; scores ")?;
                for (i, s) in scores.iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { ", " })?;
                    // a list longer than any table is shown by number
                    match i < Seat::MAX {
                        true => write!(f, "{} {s}", Seat::new(i))?,
                        false => write!(f, "seat {} {s}", i + 1)?,
                    }
                }
                Ok(())
            }
            Event::SessionOver {
                hands,
                winners,
                points,
            } => {
                let names: Vec<String> = winners.iter().map(Seat::to_string).collect();
                write!(
                    f,
                    "the session is over after {hands} hand{}: {} win{} with {points} points",
                    plural(u64::from(*hands)),
                    names.join(" and "),
                    if names.len() == 1 { "s" } else { "" }
                )
            }
            Event::FirstOut { seat } => {
                write!(f, "the hand is over: {seat} wins, out first (D16)")
            }
            _ => unreachable!("not a scoring event"),
        }
    }
}

impl GameEvent for Event {
    game::event_kinds! {
        Role => "role",
        SeatingDraw => "seating-draw",
        SeatingRedraw => "seating-redraw",
        Joins => "joins",
        Sits => "sits",
        Deal => "deal",
        Dealt => "dealt",
        RevolutionPending => "revolution-pending",
        BothJesters => "both-jesters",
        NoTaxes => "no-taxes",
        TaxPaid => "tax-paid",
        TaxReturned => "tax-returned",
        YouGive => "you-give",
        YouGet => "you-get",
        Leads => "leads",
        Play => "play",
        Pass => "pass",
        Out => "out",
        Last => "last",
        GreaterPeonRises => "greater-peon-rises",
        LesserPeonRises => "lesser-peon-rises",
        Elected => "elected",
        HandOver => "hand-over",
        SessionOver => "session-over",
        FirstOut => "first-out",
        TaxChosen => "tax-chosen",
        WillGive => "will-give",
        MarketReturn => "market-return",
        GreatRevolution => "great-revolution",
        Revolution => "revolution",
        Declined => "declined",
        NoRevolution => "no-revolution",
        MarketTrade => "market-trade",
        BlackMarket => "black-market",
        BlackMarketDraw => "black-market-draw",
        NoTrade => "no-trade",
        SeatsNewcomer => "seats-newcomer",
    }

    /// The seating draw (D3) is made from a deck of its own: once the
    /// roles it gives are known (they are kept), its cards tell nothing
    /// about the play, and in a game over a few chosen deals they would
    /// name the deal and so every hidden hand.
    fn recalled(&self) -> bool {
        !matches!(
            self,
            Event::SeatingDraw { .. } | Event::SeatingRedraw { .. }
        )
    }

    /// The seating draws, the deal (and each seat's dealt hand) and the
    /// black market's random draws.
    fn is_chance(&self) -> bool {
        match self {
            Event::SeatingDraw { .. }
            | Event::SeatingRedraw { .. }
            | Event::Deal { .. }
            | Event::Dealt { .. }
            | Event::BlackMarket { .. }
            | Event::BlackMarketDraw { .. } => true,
            Event::Role { .. }
            | Event::Joins { .. }
            | Event::Sits { .. }
            | Event::RevolutionPending
            | Event::BothJesters { .. }
            | Event::NoTaxes
            | Event::TaxPaid { .. }
            | Event::TaxReturned { .. }
            | Event::YouGive { .. }
            | Event::YouGet { .. }
            | Event::Leads { .. }
            | Event::Play { .. }
            | Event::Pass { .. }
            | Event::Out { .. }
            | Event::Last { .. }
            | Event::GreaterPeonRises { .. }
            | Event::LesserPeonRises { .. }
            | Event::Elected { .. }
            | Event::HandOver { .. }
            | Event::SessionOver { .. }
            | Event::FirstOut { .. }
            | Event::TaxChosen { .. }
            | Event::WillGive { .. }
            | Event::MarketReturn { .. }
            | Event::GreatRevolution { .. }
            | Event::Revolution { .. }
            | Event::Declined { .. }
            | Event::NoRevolution
            | Event::MarketTrade { .. }
            | Event::NoTrade { .. }
            | Event::SeatsNewcomer { .. } => false,
        }
    }

    fn examples() -> Vec<Event> {
        let s = Seat::new;
        let card = |r| Card::rank(r).unwrap_or(Card::JESTER);
        let draws = vec![
            Draw {
                seat: s(0),
                card: card(5),
            },
            Draw {
                seat: s(1),
                card: Card::JESTER,
            },
        ];
        let gift = Gift::two(card(3), card(12));
        let mut hand = Hand::EMPTY;
        for (c, k) in [(card(1), 1), (card(3), 2), (card(12), 1), (Card::JESTER, 1)] {
            hand.add(c, k);
        }
        let play = Play::raw(7, 2, 1);
        let mut examples = vec![
            Event::Role {
                seat: s(0),
                role: Role::GreaterDalmuti,
            },
            Event::SeatingDraw {
                draws: draws.clone(),
            },
            Event::SeatingRedraw { draws },
            Event::Joins { seat: s(5) },
            Event::Sits {
                seat: s(5),
                place: 3,
                role: Role::Merchant,
            },
            Event::Deal {
                number: 1,
                cards: 80,
            },
            Event::Dealt { seat: s(0), hand },
            Event::RevolutionPending,
            Event::BothJesters { seat: s(2) },
            Event::NoTaxes,
        ];
        examples.extend(Event::tax_examples(gift));
        examples.extend([
            Event::Leads { seat: s(0) },
            Event::Play { seat: s(1), play },
            Event::Pass { seat: s(2) },
        ]);
        examples.extend(Event::scoring_examples());
        examples.extend([
            Event::TaxChosen { seat: s(0) },
            Event::WillGive {
                seat: s(0),
                cards: gift,
                role: Role::GreaterPeon,
            },
            Event::MarketReturn {
                from: s(3),
                to: s(2),
            },
            Event::GreatRevolution { seat: s(4) },
            Event::Revolution { seat: s(2) },
            Event::Declined { seat: s(2) },
            Event::NoRevolution,
            Event::MarketTrade {
                seat: s(2),
                partner: s(3),
            },
            Event::BlackMarket {
                seat: s(2),
                partner: s(3),
            },
            Event::BlackMarketDraw {
                seat: s(2),
                other: s(3),
                lost: card(7),
                got: card(11),
            },
            Event::NoTrade { seat: s(2) },
            Event::SeatsNewcomer {
                seat: s(0),
                side: Side::Above,
            },
        ]);
        examples
    }
}

impl Event {
    /// The examples of the taxes (D8), in their place in
    /// [`GameEvent::KINDS`] (after `no-taxes`), with `gift` as the cards.
    fn tax_examples(gift: Gift) -> Vec<Event> {
        let s = Seat::new;
        vec![
            Event::TaxPaid {
                from: s(4),
                to: s(0),
                count: 2,
            },
            Event::TaxReturned {
                from: s(1),
                to: s(3),
                count: 1,
            },
            Event::YouGive {
                from: s(0),
                to: s(4),
                cards: gift,
            },
            Event::YouGet {
                from: s(4),
                to: s(0),
                cards: gift,
            },
        ]
    }

    /// The examples of the scoring events, in their place in
    /// [`GameEvent::KINDS`] (after `pass`).
    fn scoring_examples() -> Vec<Event> {
        let s = Seat::new;
        vec![
            Event::Out {
                seat: s(1),
                place: 1,
                points: 4,
            },
            Event::Last { seat: s(3) },
            Event::GreaterPeonRises {
                peon: s(4),
                dalmuti: s(0),
            },
            Event::LesserPeonRises {
                peon: s(3),
                dalmuti: s(1),
            },
            Event::Elected { seat: s(4) },
            Event::HandOver {
                number: 1,
                order: vec![s(1), s(0), s(2)],
                scores: vec![1, 2, 0],
            },
            Event::SessionOver {
                hands: 20,
                winners: vec![s(1)],
                points: 31,
            },
            Event::FirstOut { seat: s(1) },
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
    fn ordinals() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(4), "4th");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(13), "13th");
    }

    #[test]
    fn the_english_lines_are_the_logs_of_old() {
        let text: Vec<String> = Event::examples().iter().map(Event::to_string).collect();
        assert_eq!(
            text,
            [
                "P1 is Greater Dalmuti",
                "seating draw (D3): P1 5, P2 J",
                "tie, drawing again: P1 5, P2 J",
                "P6 joins the session (D13)",
                "P6 sits at place 3 as Merchant",
                "hand 1: the deck of 80 cards is dealt (D5)",
                "you are dealt 1 | 3 3 | 12 | J",
                "a player holds both Jesters and may declare a revolution (D7)",
                "you hold both Jesters: you may declare a revolution (D7)",
                "no taxes this hand",
                "P5 pays 2 cards of tax to P1 (D8)",
                "P2 gives 1 card back to P4 (D8)",
                "you give 3 12 to P5",
                "P5 gives you 3 12",
                "P1 leads",
                "P2 plays 2x7+J",
                "P3 passes",
                "P2 goes out 1st (+4)",
                "P4 is last (+0)",
                "the Greater Peon P5 rises: +1 to the Greater Dalmuti P1 (benevolent_rulers)",
                "the Lesser Peon P4 rises: +1 to the Lesser Dalmuti P2 (benevolent_rulers)",
                "the Greater Peon P5 becomes Greater Dalmuti: +1 (the_elected)",
                "hand 1 over: finishing order P2 P1 P3; scores P1 1, P2 2, P3 0",
                "the session is over after 20 hands: P2 wins with 31 points",
                "the hand is over: P2 wins, out first (D16)",
                "P1 has chosen (D8)",
                "you will give 3 12 to the Greater Peon",
                "P4 gives a card back to P3 (market)",
                "P5 declares a Great Revolution: all roles reverse (D7)",
                "P3 declares a revolution: no taxes this hand (D7)",
                "you declare no revolution",
                "no revolution is declared (D7)",
                "P3 trades a card with P4 (market)",
                "P3 and P4 each draw a random card from the other (black market)",
                "P4 draws your 7; you draw their 11",
                "P3 declines to trade (market)",
                "P1 seats the newcomer above the middle player",
            ]
        );
    }
}
