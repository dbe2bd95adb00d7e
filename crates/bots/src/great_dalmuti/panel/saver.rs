//! `saver`: keeps its strong cards for the end.
//!
//! Strong cards are ranks 1..=3 and the Jesters. The saver plays none of
//! them, on its own leads or on other players' tricks, while it still has
//! two or more groups of weaker cards: it sheds the weak ones first
//! (leading its worst whole set, following with the worst weak set that
//! beats). Once at most two weak groups are left it switches: it leads
//! its strong sets (likely unbeatable, so it keeps the lead) and follows
//! with them, saving the last weak sets to lead when it has the table. It never
//! gives a strong card in taxes (D8), declines every market (D14, a trade
//! could only weaken a saved hand), and declares a revolution (D7) as
//! either Peon.

use super::{gift_sum, Ctx, Style};
use dalmuti::{Action, Card, Gift, Hand, Play, Role, Side, JESTER};

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Saver;

/// Ranks this good (and the Jesters) are saved ...
const STRONG: u8 = 3;
/// ... until at most this many groups of weaker cards are left.
const END: usize = 2;

fn strong(card: Card) -> bool {
    card.is_jester() || card.index() as u8 <= STRONG
}

/// Whether `p` spends a saved card.
fn spends(p: Play) -> bool {
    p.jesters() > 0 || p.rank() <= STRONG
}

/// The groups of weak cards in `h`.
fn weak_groups(h: &Hand) -> usize {
    (STRONG as usize + 1..JESTER)
        .filter(|&r| h.count(Card::from_index(r)) > 0)
        .count()
}

impl Style for Saver {
    const NAME: &'static str = "saver";

    fn lead(&self, c: &Ctx, p: Play) -> i32 {
        let end = weak_groups(&c.hand) <= END;
        let whole = -(c.breaks(p) as i32) * 100;
        if p.naturals() == 0 {
            return -10_000;
        }
        if spends(p) {
            if !end {
                return -5_000 - p.rank() as i32;
            }
            // the endgame: strong sets first, to keep the lead
            return 1_000 + whole - p.jesters() as i32 * 50 + p.size() as i32;
        }
        p.rank() as i32 * 10 + whole + p.size() as i32
    }

    fn follow(&self, c: &Ctx, p: Play) -> Option<i32> {
        if p.naturals() == 0 {
            return None;
        }
        if spends(p) {
            if weak_groups(&c.hand) > END {
                return None;
            }
            return Some(-(p.jesters() as i32) * 30 - c.breaks(p) as i32 * 10);
        }
        Some(p.rank() as i32 * 10 - c.breaks(p) as i32 * 50)
    }

    fn give(&self, c: &Ctx, g: Gift) -> i32 {
        gift_sum(g, |card| {
            if strong(card) {
                -1_000
            } else {
                card.index() as i32 * 4 + (c.count(card) == 1) as i32 * 3
            }
        })
    }

    fn revolution(&self, c: &Ctx) -> bool {
        matches!(c.role, Role::LesserPeon | Role::GreaterPeon)
    }

    fn market(&self, _c: &Ctx, a: Action) -> i32 {
        match a {
            Action::NoMarket => 0,
            _ => -1,
        }
    }

    fn seat_new(&self, _c: &Ctx) -> Side {
        Side::Above
    }
}
