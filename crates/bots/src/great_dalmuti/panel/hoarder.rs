//! `hoarder`: a plain "shed the worst" player whose one habit is hoarding
//! the Jesters.
//!
//! Two wild cards (D6) are the most flexible cards in the deck, and the
//! hoarder treats them as its insurance: it never plays a Jester except in
//! the play that empties its hand (the frame takes that one), never gives
//! one in taxes (D8) or at the market (D14), and never takes a black
//! market draw, which could cost it one. Otherwise it leads its worst
//! whole set and follows with the worst natural set that beats, splitting
//! a set only when nothing whole fits, and keeps its 1s and 2s off other
//! players' tricks while the hand is long. It declares a revolution (D7)
//! only as Greater Peon, where it turns the table over; holding both
//! Jesters is reason enough to play the hand as it is.

use super::{gift_sum, Ctx, Style};
use dalmuti::{Action, Gift, Play, Role, Side};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Hoarder;

/// Hands longer than this keep the 1s and 2s for their own leads.
const LONG: usize = 8;

impl Style for Hoarder {
    const NAME: &'static str = "hoarder";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        if p.jesters() > 0 {
            return -10_000 - p.jesters() as i32;
        }
        p.rank() as i32 * 10 - c.breaks(p) as i32 * 100 + p.size() as i32
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.jesters() > 0 {
            return None;
        }
        let r = p.rank() as i32;
        if r <= 2 && c.left > LONG {
            return None;
        }
        Some(r * 10 - c.breaks(p) as i32 * 60)
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

    fn revolution(&self, c: &Ctx) -> bool {
        c.role == Role::GreaterPeon
    }

    fn market(&self, c: &Ctx, a: Action) -> i32 {
        match a {
            // trade away a bad card, to the Merchant with the most cards
            Action::Market(seat, card) if !card.is_jester() => {
                (card.index() as i32 - 8) * 20 + c.cards_of(seat) as i32
            }
            Action::NoMarket => 0,
            _ => -1_000,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Above
    }
}
