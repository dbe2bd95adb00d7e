//! `breaker`: thinks card by card, not set by set.
//!
//! The ladder keeps sets whole; the breaker does not care about sets at
//! all. It leads its worst rank one or two cards at a time, never more,
//! keeping the rest of a big set as cheap cards to follow small tricks
//! with; it follows with the worst cards that beat, whatever they split,
//! and keeps only its 1s, 2s and Jesters off other players' tricks while
//! the hand is long. Its taxes (D8) are the worst ranks whatever sets they
//! break (never a Jester). It always takes a black market draw and trades
//! a bad card at the market (D14). It declares a revolution (D7) as
//! Greater Peon, or with a weak hand (average rank above 7), where taxes
//! would only hurt.

use super::{gift_sum, rank_of, Ctx, Style};
use dalmuti::{Action, Gift, Play, Role, Side};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Breaker;

/// Hands longer than this keep ranks 1..=2 and Jesters off other
/// players' tricks.
const LONG: usize = 8;

impl Style for Breaker {
    const NAME: &'static str = "breaker";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        // the worst rank, at most a pair of it
        let want = c.count(p.card()).min(2);
        if p.jesters() == 0 && p.naturals() == want {
            p.rank() as i32 * 10
        } else {
            -10_000 - p.size() as i32
        }
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.naturals() == 0 || (c.left > LONG && (p.rank() <= 2 || p.jesters() > 0)) {
            return None;
        }
        Some(p.rank() as i32 * 10 - p.jesters() as i32 * 100)
    }

    fn give(&self, _c: &Ctx, g: Gift) -> i32 {
        gift_sum(g, rank_of)
    }

    fn revolution(&self, c: &Ctx) -> bool {
        let naturals: Vec<i32> = c
            .hand
            .cards()
            .filter(|k| !k.is_jester())
            .map(|k| k.index() as i32)
            .collect();
        let weak = !naturals.is_empty() && naturals.iter().sum::<i32>() > 7 * naturals.len() as i32;
        c.role == Role::GreaterPeon || weak
    }

    fn market(&self, c: &Ctx, a: Action) -> i32 {
        match a {
            Action::BlackMarket(seat) => 1 + c.cards_of(seat) as i32,
            Action::Market(seat, card) if !card.is_jester() => {
                (card.index() as i32 - 6) * 20 + c.cards_of(seat) as i32
            }
            Action::NoMarket => 0,
            _ => -1_000,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Below
    }
}
