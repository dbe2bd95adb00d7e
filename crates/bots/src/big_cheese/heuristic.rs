//! The heuristic bot for The Big Cheese: a few documented rules of thumb
//! over its own seat's view, no search.
//!
//! Strategy:
//! - **Value of a card.** A number card is worth its expected payout in the
//!   game's dice mode, computed over the die's faces where the mode has one
//!   die (polyhedral, d6, no-dice) or two (best-of-two), and from the mean
//!   for half-of-n. With `exact`, faces that would pass the target count as
//!   0. Faces that reach the target (win) get a bonus. Vetos and Big Cheeses
//!   get small fixed values (a Big Cheese that hires chips in no-dice is
//!   worth more while hiring is still allowed).
//! - **Price of a bid.** A bid of `b` locks `b` chips, which come back one
//!   per auction: `b + (b-1) + ... + 1 = b(b+1)/2` chip-auctions, and the
//!   card pays only after `b` auctions. The bot's cap for a card is the
//!   largest `b` whose price `LAMBDA * b(b+1)/2` (scaled to the mode's
//!   typical payout) stays below the card's value.
//! - **Bidding.** If the richest rival still in the auction can be outbid
//!   outright (their free chips + 1) within the cap, bid that and win for
//!   sure; else bid one above the high bid if within the cap; else pass.
//! - **Veto.** Veto a card when a rival holds the high bid and the card's
//!   expected payout would bring that rival to the target.
//! - **Big Cheese.** Re-roll a roll that pays below the die's mean (with
//!   `exact`, re-roll a roll that would pass the target and keep one that
//!   hits it); in best-of-two re-roll the lower die when the higher shows
//!   3 or less; in half-of-n re-roll the counting dice (best half) showing
//!   1 to 3.

use super::reroll::{poor_roll, RerollStyle};
use crate::Bot;
use bigcheese::{Action, Card, DiceMode, HalfOfNMean, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Chip-auction price in units of a typical card's payout (tuned against
/// random bots: 0.02 and 0.08 both do clearly worse).
const LAMBDA: f64 = 0.045;
/// Bonus, in typical-card units, for a payout that wins the game.
pub(crate) const WIN_BONUS: f64 = 3.0;

/// Heuristic player for The Big Cheese (see the module docs).
#[derive(Debug)]
pub struct Heuristic {
    rng: ChaCha8Rng,
}

impl Heuristic {
    /// A heuristic bot; the seed only breaks exact ties.
    pub fn new(seed: u64) -> Heuristic {
        Heuristic {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// The payout distribution of a number card: (payout, probability);
/// half-of-n at its rough mean (about 4.4 per kept die, x2).
pub(crate) fn payouts(dice: DiceMode, card: Card) -> Vec<(u16, f64)> {
    dice.payouts(card.value() as u16, HalfOfNMean::Rough)
}

/// A typical number card's payout in this mode (the unit of value).
pub(crate) fn unit(dice: DiceMode) -> f64 {
    match dice {
        DiceMode::Polyhedral => 5.0,
        DiceMode::D6 => 31.0,
        DiceMode::BestOfTwo => 40.0,
        DiceMode::HalfOfN => 38.0,
        DiceMode::NoDice => 9.0,
    }
}

/// The heuristic's cap for a card worth `v`: the largest `b` with
/// `LAMBDA * b(b+1)/2 <= v` (the strong bot models rivals with it).
pub(crate) fn cap(v: f64) -> u8 {
    (((1.0 + 8.0 * v / LAMBDA).sqrt() - 1.0) / 2.0).floor() as u8
}

/// Mean payout of a die roll on `card` (for re-roll decisions).
pub(crate) fn mean(dice: DiceMode, card: Card) -> f64 {
    dice.mean_of_payouts(card.value() as u16, HalfOfNMean::Rough)
}

impl Heuristic {
    /// Value of `card` to a player with `score`, in typical-card units.
    pub(crate) fn value(view: &View, card: Card, score: u16, hired: u8) -> f64 {
        let pv = &view.public;
        let o = pv.options;
        let u = unit(o.dice);
        match card {
            Card::Veto => 0.5,
            Card::BigCheese if o.dice == DiceMode::NoDice => {
                if hired < 4 && (pv.hired_total as usize) < 2 * pv.players() {
                    1.4
                } else {
                    0.1
                }
            }
            Card::BigCheese => 0.6,
            _ => payouts(o.dice, card)
                .iter()
                .map(|&(p, q)| {
                    let total = score + p;
                    let counted = if o.exact && total > pv.target {
                        0.0
                    } else {
                        p as f64 / u
                    };
                    let wins = if o.exact {
                        total == pv.target
                    } else {
                        total >= pv.target
                    };
                    q * (counted + if wins { WIN_BONUS } else { 0.0 })
                })
                .sum(),
        }
    }

    fn auction(&mut self, view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let a = pv.auction.as_ref().expect("auction");
        let me = &pv.seats[view.me.index()];
        // Veto a card that would carry a rival high bidder to the target.
        if legal.contains(&Action::Veto) {
            if let Some(b) = a.bidder.filter(|b| *b != view.me) {
                let rival = &pv.seats[b.index()];
                if a.card.is_number() {
                    let ev = mean(pv.options.dice, a.card);
                    let reach = rival.score as f64 + ev;
                    let danger = if pv.options.exact {
                        (reach - pv.target as f64).abs() < 1.0 + ev / 2.0
                    } else {
                        reach >= pv.target as f64
                    };
                    if danger {
                        return Action::Veto;
                    }
                }
            }
        }
        let v = Self::value(view, a.card, me.score, me.hired);
        let cap = cap(v).min(me.free);
        let richest = pv
            .seats
            .iter()
            .filter(|s| s.seat != view.me && !a.passed.contains(&s.seat))
            .map(|s| s.free)
            .max()
            .unwrap_or(0);
        let sure = richest.saturating_add(1).max(a.high + 1);
        let want = if sure <= cap {
            sure
        } else if a.high < cap {
            a.high + 1
        } else {
            return Action::Pass;
        };
        let bid = Action::Bid(want);
        if legal.contains(&bid) {
            bid
        } else {
            Action::Pass
        }
    }

    /// The Big Cheese decision on a roll (shared with the strong bot).
    pub(crate) fn roll(view: &View, legal: &[Action]) -> Action {
        let pv = &view.public;
        let r = pv.roll.as_ref().expect("roll");
        let o = pv.options;
        let score = pv.seats[view.me.index()].score;
        if legal.len() == 1 {
            return Action::Keep;
        }
        let total = score + r.payout;
        if o.exact {
            if total == pv.target {
                return Action::Keep;
            }
            if total > pv.target {
                // Ignored as it stands: any re-roll can only help.
                return legal[1];
            }
        }
        // The heuristic's keenness: below the mean, or counted dice of 3
        // or less; a half-of-n re-roll it may not make is a keep.
        let style = RerollStyle {
            below_mean: 1.0,
            low_face: 3,
        };
        match poor_roll(r, o.dice, style) {
            a @ Action::Reroll(_) if o.dice == DiceMode::HalfOfN && !legal.contains(&a) => {
                Action::Keep
            }
            a => a,
        }
    }
}

impl Bot<bigcheese::BigCheese> for Heuristic {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let choice = if view.public.roll.is_some() {
            Self::roll(view, legal)
        } else if view.public.auction.is_some() {
            self.auction(view, legal)
        } else {
            legal[0]
        };
        if legal.contains(&choice) {
            choice
        } else {
            legal[self.rng.random_range(0..legal.len())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomBot;
    use bigcheese::{BigCheese, Options};
    use game::{Game, GameOptions};

    /// Win rate of one heuristic seat against 3 random bots.
    fn win_rate(opts: &Options, games: u64) -> f64 {
        let mut wins = 0.0;
        let mut legal = Vec::new();
        for seed in 0..games {
            let hero = (seed % 4) as usize;
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..4)
                .map(|i| -> Box<dyn Bot<BigCheese>> {
                    if i == hero {
                        Box::new(Heuristic::new(seed))
                    } else {
                        Box::new(RandomBot::new(seed * 10 + i as u64))
                    }
                })
                .collect();
            let mut g = BigCheese::new(opts, 4, seed).unwrap();
            let mut steps = 0;
            while let Some(s) = g.to_move() {
                g.legal_actions(&mut legal);
                let a = bots[s.index()].choose(&g.view(s), &legal);
                g.apply(a).unwrap();
                steps += 1;
                if steps > 100_000 {
                    break;
                }
            }
            if let Some(o) = g.outcome() {
                if o.winners.iter().any(|w| w.index() == hero) {
                    wins += 1.0 / o.winners.len() as f64;
                }
            }
        }
        wins / games as f64
    }

    #[test]
    fn beats_random_bots() {
        let rate = win_rate(&Options::default(), 1000);
        println!(
            "heuristic first place vs 3 random bots: {:.1}%",
            rate * 100.0
        );
        assert!(rate >= 0.65, "win rate {rate}");
        for dice in ["d6", "best-of-two", "half-of-n", "no-dice"] {
            let mut o = Options::default();
            o.set("dice", dice).unwrap();
            let r = win_rate(&o, 200);
            println!("{dice}: {:.1}%", r * 100.0);
            assert!(r >= 0.5, "{dice}: {r}");
        }
        let mut o = Options::default();
        o.set("exact", "on").unwrap();
        println!("exact: {:.1}%", win_rate(&o, 200) * 100.0);
    }
}
