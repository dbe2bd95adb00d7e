//! `leadhigh`: leads its best set first.
//!
//! Where the ladder leads its worst cards and keeps its strong ones to win
//! tricks later, this player leads with its best (lowest-rank) whole
//! natural set, to take control of the table early and keep the lead as
//! long as its strength lasts; once its high sets (ranks 1..=6) are spent
//! it leads the rest worst first. Only its very best rank is held back (off its leads, and off
//! other players' tricks while it holds more than a few cards), as the
//! one way back into the lead. On other players' tricks it plays the
//! worst set that beats, whole sets before split ones, and spends Jesters
//! only in the last few cards. Taxes (D8) give away the worst ranks (never
//! a Jester). It declares a revolution (D7) whenever it is not a Dalmuti:
//! a Peon skips the tax or turns the table over, a Merchant loses
//! nothing. It declines every market (D14) and seats a newcomer below the
//! middle (D13).

use super::{gift_sum, groups, rank_of, Ctx, Style};
use dalmuti::{Action, Card, Gift, Play, Role, Side, JESTER};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct LeadHigh;

/// The ranks it leads high, best first.
const HIGH: u8 = 6;
/// Hands of at most this many cards may spend Jesters on a trick.
const JESTERS_LATE: usize = 6;

/// Our best natural rank.
fn best_group(c: &Ctx) -> Option<Card> {
    (1..JESTER).map(Card::from_index).find(|&k| c.count(k) > 0)
}

impl Style for LeadHigh {
    const NAME: &'static str = "leadhigh";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        if p.jesters() > 0 {
            return -10_000 - p.jesters() as i32;
        }
        // the best group is the way back in: led only when it is all
        // that is left besides the Jesters
        let kept = Some(p.card()) == best_group(c) && groups(&c.hand) > 1;
        // a high set, best first; with none left, the worst set first
        let order = if p.rank() <= HIGH {
            2_000 - p.rank() as i32 * 10
        } else {
            p.rank() as i32 * 10
        };
        order - c.breaks(p) as i32 * 200 - kept as i32 * 5_000 + p.size() as i32
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.naturals() == 0
            || (p.jesters() > 0 && c.left > JESTERS_LATE)
            || (Some(p.card()) == best_group(c) && c.left > JESTERS_LATE)
        {
            return None;
        }
        Some(p.rank() as i32 * 10 - c.breaks(p) as i32 * 50 - p.jesters() as i32 * 80)
    }

    fn give(&self, _c: &Ctx, g: Gift) -> i32 {
        gift_sum(g, rank_of)
    }

    fn revolution(&self, c: &Ctx) -> bool {
        !matches!(c.role, Role::GreaterDalmuti | Role::LesserDalmuti)
    }

    fn market(&self, _c: &Ctx, a: Action) -> i32 {
        match a {
            Action::NoMarket => 0,
            _ => -1,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Below
    }
}
