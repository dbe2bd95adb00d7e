//! `shedder`: empties its hand by volume.
//!
//! It leads its biggest set first (most cards, then the worst rank):
//! a big set is hard to follow (D9: same size, better rank), so it often
//! sheds many cards at once and keeps the lead; late in the hand it adds
//! Jesters (D6) to make the lead bigger still. On other players' tricks it
//! plays anything that beats except its strong cards (ranks 1..=3) while
//! the hand is long, Jesters only late. Its taxes (D8) give away what
//! removes whole groups (loose singles, then a pair) rather than simply
//! the worst ranks, because fewer groups means fewer leads to make; the
//! market (D14) is a chance to lose a loose bad single, and a black market
//! draw is declined. It declares a revolution (D7) as either Peon.

use super::{gift_sum, groups, Ctx, Style};
use dalmuti::{Action, Gift, Play, Role, Side};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Shedder;

/// Ranks this good are kept off other players' tricks ...
const STRONG: u8 = 3;
/// ... while the hand holds more than this many cards.
const LONG: usize = 5;
/// Hands of at most this many cards use Jesters to enlarge a lead ...
const JESTERS_LEAD: usize = 10;
/// ... or to beat a trick.
const JESTERS_FOLLOW: usize = 8;

impl Style for Shedder {
    const NAME: &'static str = "shedder";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        if p.naturals() == 0 {
            return -10_000;
        }
        let jesters = if c.left > JESTERS_LEAD { 1_000 } else { 30 };
        p.size() as i32 * 100 + p.rank() as i32 * 2 - p.jesters() as i32 * jesters
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.naturals() == 0
            || (p.rank() <= STRONG && c.left > LONG)
            || (p.jesters() > 0 && c.left > JESTERS_FOLLOW)
        {
            return None;
        }
        Some(p.rank() as i32 * 10 - c.breaks(p) as i32 * 40 - p.jesters() as i32 * 50)
    }

    fn give(&self, c: &Ctx, g: Gift) -> i32 {
        let rest = c.hand.minus(&g.hand()).unwrap_or(c.hand);
        let gone = groups(&c.hand) as i32 - groups(&rest) as i32;
        gone * 40
            + gift_sum(g, |card| {
                if card.is_jester() {
                    -1_000
                } else {
                    card.index() as i32 * 4
                }
            })
    }

    fn revolution(&self, c: &Ctx) -> bool {
        matches!(c.role, Role::LesserPeon | Role::GreaterPeon)
    }

    fn market(&self, c: &Ctx, a: Action) -> i32 {
        match a {
            Action::Market(seat, card)
                if !card.is_jester() && c.count(card) == 1 && card.index() >= 6 =>
            {
                card.index() as i32 * 20 + c.cards_of(seat) as i32
            }
            Action::NoMarket => 0,
            _ => -1,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Below
    }
}
