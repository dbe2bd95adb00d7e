//! `greedy`: pays a lot and buys much. Its price for a number card is
//! linear in the card's expected payout and steep (about five chips for a
//! typical card, ten for the best, capped by its free chips), so it ignores that a big bid locks its
//! chips for many auctions (B8). It bids the price that wins outright
//! (one above the richest rival still in, B5) whenever its price allows,
//! else one above the high bid. Big Cheeses are worth two chips to it
//! (three in `no-dice` while hiring is open, B15), Vetos one; a card that
//! probably wins the game is worth all its chips.
//!
//! Why it is on the panel: a rival that drives prices up and leaves the
//! table short of chips; a bot that expects rivals to stop at a
//! value-for-tempo price misjudges it.
//!
//! It plays a Veto (B6) only to stop a rival's probable win, and spends a
//! Big Cheese on any roll below average (B10). With `exact` it prices a
//! card from its score plus its projects' expected payouts, and a payout
//! that hits the target counts three typical cards more (B13).

use super::common::{self, RerollStyle};
use crate::Bot;
use bigcheese::{Action, BigCheese, Card, DiceMode, View};

/// Chips per typical card of expected payout.
const SLOPE: f64 = 5.0;

/// Greedy bidder (see the module docs).
#[derive(Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// A greedy bot (it uses no randomness).
    pub fn new(_seed: u64) -> Greedy {
        Greedy
    }

    fn price(view: &View, card: Card) -> u8 {
        let pv = &view.public;
        let me = common::me(view);
        let scale = pv.options.chips as f64 / 10.0;
        match card {
            Card::Veto => 1,
            Card::BigCheese
                if pv.options.dice == DiceMode::NoDice
                    && me.hired < 4
                    && (pv.hired_total as usize) < 2 * pv.players() =>
            {
                (3.0 * scale).round().max(1.0) as u8
            }
            Card::BigCheese if pv.options.dice == DiceMode::NoDice => 0,
            Card::BigCheese => (2.0 * scale).round().max(1.0) as u8,
            _ => {
                if common::reach_chance(view, card, common::basis(view, me)) >= 0.5 {
                    return me.free;
                }
                let w = common::worth(view, card, me);
                (SLOPE * w * scale).ceil() as u8
            }
        }
    }

    fn auction(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        if legal.contains(&Action::Veto) {
            if let Some(b) = common::rival_bidder(view) {
                if common::reach_chance(view, a.card, pv.seats[b.index()].score) >= 0.5 {
                    return Action::Veto;
                }
            }
        }
        let price = Self::price(view, a.card);
        let sure = common::sure_price(view);
        if sure <= price {
            common::bid_or_pass(legal, sure)
        } else {
            common::creep(legal, a.high, price)
        }
    }
}

impl Bot<BigCheese> for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let style = RerollStyle {
            below_mean: 1.0,
            low_face: 4,
        };
        common::decide(view, legal, style, Self::auction)
    }

    fn reseed(&mut self, _seed: u64) -> bool {
        true
    }
}
