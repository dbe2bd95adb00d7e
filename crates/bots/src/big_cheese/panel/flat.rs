//! `flat`: one price for every card. The bot will pay up to the same
//! number of chips (six in ten of the starting chips) for a 2, a 20, a
//! Veto or a Big Cheese: it bids at once the price that wins outright (one
//! above the richest rival still in, B5) when that is within its price,
//! and otherwise climbs one chip at a time to it.
//!
//! Why it is on the panel: a rival whose price does not follow the card at
//! all. It overpays for small cards and gives up big ones cheaply, so a bot
//! that assumes rivals price by value misreads it in both directions.
//!
//! Sensible touches that do not change the flat price: with `exact` a card
//! that can only pass the target (and so pays nothing, B13) is not bought;
//! a held Veto (B6) is played when a rival's high bid would probably carry
//! that rival to the target; Big Cheeses re-roll a below-average roll
//! (B10, B11).
//!
//! (At a third of the chips, its first price, it won no game in 200
//! against three random bots: chips come back one per won auction, B8,
//! so a low price only gives cards away.)

use super::common::{self, RerollStyle};
use crate::Bot;
use bigcheese::{Action, BigCheese, View};

/// Flat-price bidder (see the module docs).
#[derive(Debug, Default)]
pub struct Flat;

impl Flat {
    /// A flat bot (it uses no randomness; the seed is not needed).
    pub fn new(_seed: u64) -> Flat {
        Flat
    }

    fn auction(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        if legal.contains(&Action::Veto) {
            if let Some(b) = common::rival_bidder(view) {
                let rival = &pv.seats[b.index()];
                if common::reach_chance(view, a.card, rival.score) >= 0.5 {
                    return Action::Veto;
                }
            }
        }
        let me = common::me(view);
        let useful = a.card.is_special()
            || common::scoring_mean(view, a.card, common::basis(view, me)) > 0.0;
        let price = ((pv.options.chips as f64 * 0.6).round() as u8).max(1);
        let sure = common::sure_price(view);
        if useful && sure <= price {
            common::bid_or_pass(legal, sure)
        } else if useful {
            common::creep(legal, a.high, price)
        } else {
            Action::Pass
        }
    }
}

impl Bot<BigCheese> for Flat {
    fn name(&self) -> &'static str {
        "flat"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let style = RerollStyle {
            below_mean: 1.0,
            low_face: 3,
        };
        common::decide(view, legal, style, Self::auction)
    }

    fn reseed(&mut self, _seed: u64) -> bool {
        true
    }
}
