//! `vetoer`: buys Vetos and plays them often. A Veto (B6) is worth about
//! three chips to it while it holds fewer than two, and it plays one
//! whenever a rival holds the high bid on a card of at least typical
//! value that it will not outbid itself, or on any card that would
//! probably win that rival the game; with nobody bidding yet it vetoes a
//! top card (twice the typical value or more) that a rival can afford and
//! it cannot.
//!
//! Its number-card price is points per chip: the card's expected payout
//! in typical cards times four in ten of its starting chips (four chips
//! for a typical card, eight or nine for the best), raised one chip at a
//! time; a card that probably finishes the game is worth all its chips
//! (with `exact`, priced as the `greedy` bot's docs say, B13).
//!
//! Why it is on the panel: a rival that takes good cards off the table
//! rather than buying them; a bot that counts on winning the auctions it
//! leads, or that lets the high bid stand as a sure thing, loses tempo.
//!
//! Big Cheeses are worth one chip; it re-rolls rolls below 80% of the mean
//! (B10).

use super::common::{self, RerollStyle};
use crate::Bot;
use bigcheese::{Action, BigCheese, Card, View};

/// Vetoing bidder (see the module docs).
#[derive(Debug, Default)]
pub struct Vetoer;

impl Vetoer {
    /// A vetoer (it uses no randomness).
    pub fn new(_seed: u64) -> Vetoer {
        Vetoer
    }

    fn price(view: &View, card: Card) -> u8 {
        let pv = &view.public;
        let me = common::me(view);
        let scale = pv.options.chips as f64 / 10.0;
        match card {
            Card::Veto if me.vetos < 2 => (3.0 * scale).round().max(1.0) as u8,
            Card::Veto => 0,
            Card::BigCheese => 1,
            _ => {
                if common::reach_chance(view, card, common::basis(view, me)) >= 0.5 {
                    return me.free;
                }
                let w = common::worth(view, card, me);
                (w * 4.0 * scale).round() as u8
            }
        }
    }

    fn auction(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        let price = Self::price(view, a.card);
        if legal.contains(&Action::Veto) && a.card.is_number() {
            let w = common::mean(pv.options.dice, a.card) / common::typical(pv.options.dice);
            match common::rival_bidder(view) {
                Some(b) => {
                    let danger =
                        common::reach_chance(view, a.card, pv.seats[b.index()].score) >= 0.5;
                    if danger || (w >= 1.0 && price <= a.high) {
                        return Action::Veto;
                    }
                }
                None => {
                    let richest = common::rivals_in(view).map(|s| s.free).max().unwrap_or(0);
                    if w >= 2.0 && richest > price.min(common::me(view).free) {
                        return Action::Veto;
                    }
                }
            }
        }
        common::creep(legal, a.high, price)
    }
}

impl Bot<BigCheese> for Vetoer {
    fn name(&self) -> &'static str {
        "vetoer"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let style = RerollStyle {
            below_mean: 0.8,
            low_face: 2,
        };
        common::decide(view, legal, style, Self::auction)
    }

    fn reseed(&mut self, _seed: u64) -> bool {
        true
    }
}
