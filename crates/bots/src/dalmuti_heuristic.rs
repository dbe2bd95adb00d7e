//! The heuristic bot for The Great Dalmuti: a handful of card-player's rules
//! of thumb, decided from the seat's own view only.
//!
//! Strategy:
//! - **Play:** go out whenever one play empties the hand. Otherwise lead the
//!   worst (highest-rank) complete set, never breaking a set and keeping
//!   Jesters back; follow with the worst complete set that beats the trick,
//!   so good cards and Jesters stay in hand to win a trick and regain the
//!   lead later. A set is broken, or Jesters added, only late in the hand
//!   (few cards left), and strong cards (ranks 1..=3) are not spent on a
//!   trick while the hand is still long.
//! - **Taxes and market:** give away the worst cards, preferring loose
//!   singles over cards that belong to a set; never a Jester. The market is
//!   declined (a trade with a stronger partner is a wash at best).
//! - **Revolution:** declare it as a Peon (a Great Revolution as Greater
//!   Peon turns the table over, a plain one spares a Lesser Peon the tax);
//!   keep quiet as a Dalmuti or Merchant, who gain from taxes or do not care.
//! - **Seating a newcomer:** above the middle (no real effect on us).
//!
//! The bot is deterministic given its seed and view; the seed only breaks
//! ties between equally good actions.

use crate::Bot;
use dalmuti::{Action, Card, Dalmuti, Gift, Hand, Phase, Play, Role, Side, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Heuristic player for The Great Dalmuti (see the module docs).
#[derive(Debug)]
pub struct Heuristic {
    rng: ChaCha8Rng,
}

impl Heuristic {
    /// A heuristic bot; `seed` only breaks ties.
    pub fn new(seed: u64) -> Heuristic {
        Heuristic {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Picks the action with the highest score, ties broken at random.
    fn best(&mut self, legal: &[Action], mut score: impl FnMut(Action) -> i32) -> Action {
        let mut best = legal[0];
        let mut best_score = i32::MIN;
        let mut ties = 0;
        for &a in legal {
            let s = score(a);
            if s > best_score {
                best = a;
                best_score = s;
                ties = 1;
            } else if s == best_score {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = a;
                }
            }
        }
        best
    }
}

/// How much we want to get rid of `card`: its rank, Jesters never.
fn badness(card: Card) -> i32 {
    if card.is_jester() {
        -100
    } else {
        card.index() as i32
    }
}

/// A gift's value to give away: bad cards first, loose singles first.
fn gift_score(hand: &Hand, g: Gift) -> i32 {
    g.cards()
        .map(|c| badness(c) * 4 + if hand.count(c) == 1 { 3 } else { 0 })
        .sum()
}

/// Scores a play for a seat holding `hand`; `None` means "rather pass".
fn play_score(hand: &Hand, p: Play, leading: bool) -> Option<i32> {
    let left = hand.len();
    if p.size() as usize == left {
        return Some(10_000); // going out
    }
    let count = if p.naturals() == 0 {
        0
    } else {
        hand.count(p.card())
    };
    let breaks = p.naturals() > 0 && p.naturals() < count;
    let late = left <= 5;
    if p.naturals() == 0 {
        // Jesters alone: only as a last resort late in the hand
        return if late { Some(1) } else { None };
    }
    if p.jesters() > 0 && !late {
        return None;
    }
    if breaks && !late {
        return None;
    }
    let rank = p.rank() as i32;
    if !leading && rank <= 3 && left > 8 {
        return None; // keep the strongest cards to regain the lead later
    }
    // prefer shedding bad ranks and big sets; penalise Jesters and breaking
    Some(rank * 10 + p.size() as i32 * 3 - p.jesters() as i32 * 25 - breaks as i32 * 15)
}

impl Bot<Dalmuti> for Heuristic {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let hand = view.hand;
        let pv = &view.public;
        let me = view.seat;
        let role = pv.roles.get(me.index()).copied().unwrap_or(Role::Merchant);
        match pv.phase {
            Phase::Revolution => {
                let want = matches!(role, Role::GreaterPeon | Role::LesserPeon);
                let a = if want {
                    Action::Revolution
                } else {
                    Action::NoRevolution
                };
                if legal.contains(&a) {
                    a
                } else {
                    legal[0]
                }
            }
            Phase::SeatNew => {
                let a = Action::SeatNew(Side::Above);
                if legal.contains(&a) {
                    a
                } else {
                    legal[0]
                }
            }
            Phase::Market => {
                if legal.contains(&Action::NoMarket) {
                    Action::NoMarket
                } else {
                    legal[0]
                }
            }
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn => {
                self.best(legal, |a| match a {
                    Action::Give(g) => gift_score(&hand, g),
                    Action::Pass
                    | Action::Play(_)
                    | Action::Revolution
                    | Action::NoRevolution
                    | Action::Market(..)
                    | Action::BlackMarket(_)
                    | Action::NoMarket
                    | Action::SeatNew(_) => i32::MIN + 1,
                })
            }
            Phase::Play | Phase::Over => {
                let leading = pv.trick.is_none();
                self.best(legal, |a| match a {
                    Action::Play(p) => play_score(&hand, p, leading).unwrap_or(-1_000),
                    Action::Pass => -500,
                    Action::Give(_)
                    | Action::Revolution
                    | Action::NoRevolution
                    | Action::Market(..)
                    | Action::BlackMarket(_)
                    | Action::NoMarket
                    | Action::SeatNew(_) => i32::MIN + 1,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Game, GameOptions, Seat};

    fn play_sessions(games: u64) -> (u64, u64) {
        let mut opts = dalmuti::Options::default();
        opts.set("hands", "10").unwrap();
        let mut firsts = 0;
        for g in 0..games {
            let hero = (g % 4) as usize;
            let mut game = Dalmuti::new(&opts, 4, g).unwrap();
            let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..4)
                .map(|s| -> Box<dyn Bot<Dalmuti>> {
                    if s == hero {
                        Box::new(Heuristic::new(g))
                    } else {
                        Box::new(crate::RandomBot::new(g * 7 + s as u64))
                    }
                })
                .collect();
            let mut legal = Vec::new();
            while let Some(seat) = game.to_move() {
                game.legal_actions(&mut legal);
                let a = bots[seat.index()].choose(&game.view(seat), &legal);
                game.apply(a).unwrap();
            }
            let out = game.outcome().unwrap();
            if out.winners.contains(&Seat::new(hero)) {
                firsts += 1;
            }
        }
        (firsts, games)
    }

    #[test]
    fn beats_random_bots() {
        let (firsts, games) = play_sessions(40);
        eprintln!("heuristic first in {firsts}/{games} sessions");
        assert!(firsts * 100 >= games * 70, "{firsts}/{games} first places");
    }
}
