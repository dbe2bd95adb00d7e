//! `nopass`: never passes while it can play.
//!
//! The eager player: on every trick it plays whenever any set beats the
//! last play (D9), choosing the cheapest one (the worst rank; a whole set
//! before a split one; Jesters last), and leads its worst whole set. It
//! never holds strong cards back, so it sheds fast early and runs short of
//! winners late: the opposite of the ladder's patience. The same
//! eagerness elsewhere: it always declares a revolution when it holds both
//! Jesters (D7), always trades at the market or black market (D14), giving
//! its worst card to the Merchant with the most cards, and in taxes (D8)
//! gives its worst loose cards, never a Jester.

use super::{gift_sum, Ctx, Style};
use dalmuti::{Action, Gift, Play, Side};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct NoPass;

impl Style for NoPass {
    const NAME: &'static str = "nopass";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        if p.naturals() == 0 {
            return -10_000;
        }
        p.rank() as i32 * 10 - c.breaks(p) as i32 * 100 - p.jesters() as i32 * 200 + p.size() as i32
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.naturals() == 0 {
            return Some(-1_000);
        }
        Some(p.rank() as i32 * 10 - c.breaks(p) as i32 * 30 - p.jesters() as i32 * 60)
    }

    fn give(&self, c: &Ctx, g: Gift) -> i32 {
        gift_sum(g, |card| {
            if card.is_jester() {
                -1_000
            } else {
                card.index() as i32 * 4 + (c.count(card) == 1) as i32 * 3
            }
        })
    }

    fn revolution(&self, _c: &Ctx) -> bool {
        true
    }

    fn market(&self, c: &Ctx, a: Action) -> i32 {
        match a {
            Action::Market(seat, card) if !card.is_jester() => {
                1 + card.index() as i32 * 20 + c.cards_of(seat) as i32
            }
            Action::BlackMarket(seat) => 1 + c.cards_of(seat) as i32,
            Action::NoMarket => 0,
            _ => -1_000,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Above
    }
}
