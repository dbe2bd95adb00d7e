//! `jumper`: jump-bids and bluffs. It never creeps up one chip at a time:
//! when it wants a card it bids its whole price at once (or the bid that
//! wins outright, one above the richest rival still in, when that is
//! lower, B5), and when outbid it jumps again to its price or passes.
//! One time in four, when it opens an auction on a card it values at all,
//! it bluffs one chip above its price, to push creeping bidders out or
//! make them pay more.
//!
//! Its price is its own: the expected payout in typical cards, times
//! chips-per-card that shrink as its free chips run low (a poorer jumper
//! jumps lower), about five chips for a typical card with a full pool;
//! with `exact`, priced as the `greedy` bot's docs say (B13).
//!
//! Why it is on the panel: rivals that raise one chip at a time meet a bid
//! that skips their whole range; a bot that expects a rival to creep, or
//! reads the high bid as the bidder's true price, is misled.
//!
//! Specials: Vetos and Big Cheeses are worth one chip. It plays a Veto (B6)
//! when a rival's high bid would probably win that rival the game, and
//! re-rolls below-average rolls with a Big Cheese (B10). Its coin flips
//! come from its own seeded RNG.

use super::common::{self, RerollStyle};
use crate::{Bot, BotRng};
use bigcheese::{Action, BigCheese, View};
use rand::{Rng, SeedableRng};

/// Chance of a bluff on an opening bid.
const BLUFF: f64 = 0.25;

/// Jump bidder (see the module docs).
#[derive(Debug)]
pub struct Jumper {
    rng: BotRng,
}

impl Jumper {
    /// A jumper with its own seeded RNG.
    pub fn new(seed: u64) -> Jumper {
        Jumper {
            rng: BotRng::seed_from_u64(seed),
        }
    }

    fn price(view: &View) -> u8 {
        let pv = &view.public;
        let a = common::auction(view);
        let me = common::me(view);
        if a.card.is_special() {
            return 1;
        }
        if common::reach_chance(view, a.card, common::basis(view, me)) >= 0.5 {
            return me.free;
        }
        let w = common::worth(view, a.card, me);
        let chips = pv.options.chips as f64;
        let rich = 0.5 + 0.5 * (me.free as f64 / chips).min(1.0);
        (5.0 * w * rich * chips / 10.0).round() as u8
    }

    fn auction(&mut self, view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        if legal.contains(&Action::Veto) {
            if let Some(b) = common::rival_bidder(view) {
                if common::reach_chance(view, a.card, pv.seats[b.index()].score) >= 0.5 {
                    return Action::Veto;
                }
            }
        }
        let mut price = Self::price(view);
        if a.high == 0 && price > 0 && self.rng.random_bool(BLUFF) {
            price += 1;
        }
        if price <= a.high {
            return Action::Pass;
        }
        let jump = price.min(common::sure_price(view));
        common::bid_or_pass(legal, jump)
    }
}

impl Bot<BigCheese> for Jumper {
    fn name(&self) -> &'static str {
        "jumper"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let style = RerollStyle {
            below_mean: 1.0,
            low_face: 3,
        };
        common::decide(view, legal, style, |v, l| self.auction(v, l))
    }

    fn reseed(&mut self, seed: u64) -> bool {
        *self = Jumper::new(seed);
        true
    }
}
