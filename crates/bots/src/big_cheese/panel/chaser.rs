//! `chaser`: values only what gets it to the target. Its price for a card
//! is the share of its remaining gap the card is expected to close (the
//! gap is the target less its score and the expected payouts of its own
//! projects on the table; a payout counts at most the gap, and with
//! `exact` a payout that would pass the target counts nothing, B13),
//! times 25 chips (capped by its free chips). So early on it pays little and skips small
//! cards altogether, and it pays more and more as the target nears; a card
//! that probably finishes the game is worth all its chips, bid at once at
//! the price that wins outright (B5).
//!
//! Why it is on the panel: its price moves with its own score, not the
//! card's face, so the same card is cheap to it early and dear late, the
//! opposite shape from a fixed value table.
//!
//! Specials are worth nothing to it (it never bids on them; with no Veto
//! in hand it never vetoes). Big Cheese rolls (B10): a winning roll is kept,
//! a below-average one re-rolled.

use super::common::{self, RerollStyle};
use crate::Bot;
use bigcheese::{Action, BigCheese, View};

/// Chips it pays for a card expected to close its whole gap.
/// (At nine chips it won 2% of games against three random bots.)
const GAP_CHIPS: f64 = 25.0;

/// Target-chasing bidder (see the module docs).
#[derive(Debug, Default)]
pub struct Chaser;

impl Chaser {
    /// A chaser (it uses no randomness).
    pub fn new(_seed: u64) -> Chaser {
        Chaser
    }

    fn auction(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        let me = common::me(view);
        if legal.contains(&Action::Veto) {
            if let Some(b) = common::rival_bidder(view) {
                if common::reach_chance(view, a.card, pv.seats[b.index()].score) >= 0.5 {
                    return Action::Veto;
                }
            }
        }
        if a.card.is_special() {
            return Action::Pass;
        }
        // Points still needed once the projects on the table have paid.
        let left = (pv.target - me.score.min(pv.target)) as f64;
        let gap = (left - common::pending(view, me))
            .max(left.min(1.0))
            .max(1.0);
        let dist = common::payouts(pv.options.dice, a.card);
        let closes: f64 = dist
            .iter()
            .filter(|&&(p, _)| !pv.options.exact || me.score + p <= pv.target)
            .map(|&(p, q)| q * (p as f64).min(gap))
            .sum::<f64>()
            / gap;
        let finish: f64 = dist
            .iter()
            .filter(|&&(p, _)| {
                if pv.options.exact {
                    (p as f64 - gap).abs() < 0.5 || me.score + p == pv.target
                } else {
                    p as f64 >= gap
                }
            })
            .map(|&(_, q)| q)
            .sum();
        let sure = common::sure_price(view);
        if finish >= 0.5 && sure <= me.free {
            return common::bid_or_pass(legal, sure);
        }
        let scale = pv.options.chips as f64 / 10.0;
        let price = (closes * GAP_CHIPS * scale).round() as u8;
        common::creep(legal, a.high, price)
    }
}

impl Bot<BigCheese> for Chaser {
    fn name(&self) -> &'static str {
        "chaser"
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
