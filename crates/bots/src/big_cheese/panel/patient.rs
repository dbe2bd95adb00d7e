//! `patient`: bids low in a bidding war and waits for bargains. It never
//! raises one chip at a time beyond a low price (about two chips per
//! typical card of expected payout); it pays more only when a bid wins
//! the auction outright at once, because the rivals still in are short of
//! free chips (one above the richest of them, B5), and that bid is within
//! its bargain price (about six chips per typical card). It keeps one
//! chip in ten back, except for a card that probably brings it to the
//! target, which is worth all its chips. Patience ends when a rival nears
//! the target (its score plus its projects' expected payouts reach 70% of
//! it): then it raises one chip at a time up to its bargain price.
//!
//! Why it is on the panel: it lets the table fight over cards and spend
//! its chips, then takes cards when nobody can answer; a bot that wins
//! auctions by raising one chip at a time finds it never bids against it,
//! and a bot that spends its chips down finds it waiting.
//!
//! Specials only as bargains (one chip). It hoards Big Cheeses and spends
//! one only on a really bad roll (a third of the mean or less, B10), and
//! plays a Veto (B6) when a rival's high bid has a fair chance (30%) of
//! taking that rival to the target. With `exact`, priced as the `greedy`
//! bot's docs say (B13).
//!
//! (Tuning against random bots only: keeping 30-40% of the chips back, or
//! a bargain price of 3-4 chips, won 0-35% of first places against three
//! random bots, below a fair share; chips come back one per won auction,
//! B8, so chips kept idle are worth little.)

use super::common::{self, RerollStyle};
use crate::Bot;
use bigcheese::{Action, BigCheese, Card, View};

/// Share of the starting chips kept back (except for a finishing card).
const RESERVE: f64 = 0.1;
/// Chips per typical card it pays for a sure win of the auction.
const BARGAIN: f64 = 6.0;
/// Chips per typical card it will reach by raising one at a time.
const OPENING: f64 = 2.0;
/// Share of the target a rival's score and projects reach when patience ends.
const ALARM: f64 = 0.7;

/// Patient bidder (see the module docs).
#[derive(Debug, Default)]
pub struct Patient;

impl Patient {
    /// A patient bot (it uses no randomness).
    pub fn new(_seed: u64) -> Patient {
        Patient
    }

    fn auction(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = common::auction(view);
        let me = common::me(view);
        if legal.contains(&Action::Veto) {
            if let Some(b) = common::rival_bidder(view) {
                if common::reach_chance(view, a.card, pv.seats[b.index()].score) >= 0.3 {
                    return Action::Veto;
                }
            }
        }
        let sure = common::sure_price(view);
        if a.card.is_number() && common::reach_chance(view, a.card, common::basis(view, me)) >= 0.5
        {
            return if sure <= me.free {
                common::bid_or_pass(legal, sure)
            } else {
                common::bid_or_pass(legal, a.high + 1)
            };
        }
        let scale = pv.options.chips as f64 / 10.0;
        let reserve = (pv.options.chips as f64 * RESERVE).round() as u8;
        let spendable = me.free.saturating_sub(reserve);
        let w = match a.card {
            Card::Veto | Card::BigCheese => 0.6,
            c => common::worth(view, c, me),
        };
        if w <= 0.0 {
            return Action::Pass;
        }
        let bargain = ((BARGAIN * w * scale).ceil() as u8).min(spendable);
        let bargain = if a.card.is_special() {
            bargain.min(1)
        } else {
            bargain
        };
        if sure <= bargain {
            return common::bid_or_pass(legal, sure);
        }
        // Patience ends when a rival nears the target (its score and the
        // expected payouts of its projects reach ALARM of it): then it
        // raises one chip at a time up to its bargain price.
        let alarm = pv.seats.iter().any(|s| {
            s.seat != view.me
                && s.score as f64 + common::pending(view, s) >= ALARM * pv.target as f64
        });
        let opening = if a.card.is_special() {
            0
        } else if alarm {
            bargain
        } else {
            (OPENING * w * scale).round() as u8
        };
        common::creep(legal, a.high, opening.min(spendable))
    }
}

impl Bot<BigCheese> for Patient {
    fn name(&self) -> &'static str {
        "patient"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let style = RerollStyle {
            below_mean: 0.34,
            low_face: 1,
        };
        common::decide(view, legal, style, Self::auction)
    }

    fn reseed(&mut self, _seed: u64) -> bool {
        true
    }
}
