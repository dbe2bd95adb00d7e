//! The strong heuristic for The Big Cheese: the rule-based bot's card
//! values plus a model of the table, still no search.
//!
//! Strategy (values in "typical card" units, as in the heuristic):
//! - **Rivals' reach.** Everything is public (B3), so for every rival still
//!   in the auction the bot estimates the most it would bid: its free chips,
//!   capped by the rule-based bot's own price for the card at that rival's
//!   score (a reasonable player's willingness to pay). The smallest bid no
//!   rival will top is the bot's price for the card.
//! - **Locked chips.** A bid of `b` locks `b` chips that come back one per
//!   won auction (B8): `b(b+1)/2` chip-auctions. The price of a
//!   chip-auction is lower while many of the bot's chips sit idle and
//!   higher when few are free, and the card only pays after `b` auctions,
//!   so its value is discounted per auction of wait.
//! - **Winning.** A payout that brings the bot to the target (counting its
//!   own projects that mature first) gets a bonus, so cards that can end
//!   the game are bought dearly near the end.
//! - **Denial.** If the rival who would get the card could reach the
//!   target with it (score plus its projects maturing first plus the
//!   payout), outbidding that rival or playing a Veto (B6) is worth the
//!   chance it would win.
//! - **Big Cheese.** On its own roll, re-roll when the expected value of a
//!   new roll (win bonus included) beats keeping, so a roll that wins is
//!   always kept; other dice modes defer to the heuristic's rules.
//!
//! Every decision is a short loop over the legal actions and the seats
//! (a few microseconds), and the same scores serve `evaluate`.

use super::heuristic::{self, payouts, unit, Heuristic};
use crate::{Bot, Scored};
use bigcheese::{Action, Card, DiceMode, PublicView, View};
use game::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The strong bot's tunable weights (the defaults are the tuned ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Price of one chip-auction, in typical-card units.
    pub lambda: f64,
    /// Bonus for a payout that reaches the target.
    pub win_bonus: f64,
    /// Value of keeping the card from a rival, per unit of probability
    /// that the card carries that rival to the target.
    pub deny: f64,
    /// Value of a Veto in hand (what playing one costs).
    pub veto: f64,
    /// Value of a matured Veto project.
    pub veto_card: f64,
    /// Value of a matured Big Cheese project (scaled like the
    /// heuristic's: worth more while it can still hire in `no-dice`).
    pub cheese_card: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            lambda: 0.04,
            win_bonus: 3.0,
            deny: 6.0,
            veto: 0.3,
            veto_card: 0.2,
            cheese_card: 0.4,
        }
    }
}

/// Strong heuristic player for The Big Cheese (see the module docs).
#[derive(Debug)]
pub struct Strong {
    rng: ChaCha8Rng,
    params: Params,
}

impl Strong {
    /// A strong bot with the tuned weights; the seed only breaks the
    /// (unreachable) case of a non-legal choice.
    pub fn new(seed: u64) -> Strong {
        Strong::with_params(seed, Params::default())
    }

    /// A strong bot with the given weights (for tuning).
    pub fn with_params(seed: u64, params: Params) -> Strong {
        Strong {
            rng: ChaCha8Rng::seed_from_u64(seed),
            params,
        }
    }
}

/// Whether `total` points win (B12, B13).
fn wins(pv: &PublicView, total: u16) -> bool {
    if pv.options.exact {
        total == pv.target
    } else {
        total >= pv.target
    }
}

/// Points from a payout at `score`: with `exact`, a payout past the
/// target is ignored (B13).
fn counted(pv: &PublicView, score: u16, p: u16) -> f64 {
    if pv.options.exact && score + p > pv.target {
        0.0
    } else {
        p as f64
    }
}

/// Expected points of the number projects of `seat` that mature within
/// `within` auctions (with exact scoring ignored: an estimate).
fn pipeline(pv: &PublicView, seat: Seat, within: u8) -> f64 {
    pv.seats[seat.index()]
        .projects
        .iter()
        .filter(|&&(c, k)| c.is_number() && k <= within)
        .map(|&(c, _)| heuristic::mean(pv.options.dice, c))
        .sum()
}

/// Probability that `card` maturing carries a player whose score will be
/// about `base` (score plus projects maturing first) to the target.
fn reach(pv: &PublicView, base: f64, card: Card) -> f64 {
    if !card.is_number() {
        return 0.0;
    }
    let base = base.round().max(0.0) as u16;
    payouts(pv.options.dice, card)
        .iter()
        .filter(|&&(p, _)| wins(pv, base + p))
        .map(|&(_, q)| q)
        .sum()
}

impl Strong {
    /// Value to the bot of winning `card` with a bid of `b`, before the
    /// price of the chips.
    fn card_value(&self, view: &View, card: Card, b: u8) -> f64 {
        let pv = &view.public;
        let prm = &self.params;
        let me = &pv.seats[view.me.index()];
        let u = unit(pv.options.dice);
        match card {
            Card::Veto => prm.veto_card,
            Card::BigCheese => {
                // The heuristic values a Big Cheese 0.6 (more while it can
                // hire in no-dice): rescale to this bot's weight.
                Heuristic::value(view, card, me.score, me.hired) / 0.6 * prm.cheese_card
            }
            _ => {
                let base = me.score as f64 + pipeline(pv, view.me, b);
                let base = base.round() as u16;
                payouts(pv.options.dice, card)
                    .iter()
                    .map(|&(p, q)| {
                        let total = base + p;
                        let bonus = if wins(pv, total) { prm.win_bonus } else { 0.0 };
                        q * (counted(pv, base, p) / u + bonus)
                    })
                    .sum()
            }
        }
    }

    /// Price of locking `b` chips until they come back: `b(b+1)/2`
    /// chip-auctions (one chip returns per won auction, B8).
    fn price(&self, b: u8) -> f64 {
        self.params.lambda * (b as f64) * (b as f64 + 1.0) / 2.0
    }

    /// The most `seat` is expected to bid for `card`: the rule-based
    /// bot's cap at its score, at most its free chips.
    fn rival_max(view: &View, seat: Seat, card: Card) -> u8 {
        let s = &view.public.seats[seat.index()];
        heuristic::cap(Heuristic::value(view, card, s.score, s.hired)).min(s.free)
    }

    /// Scores for every legal auction action.
    fn auction_scores(&self, view: &View, legal: &[Action]) -> Vec<Scored<Action>> {
        let pv = &view.public;
        let prm = &self.params;
        let Some(a) = pv.auction.as_ref() else {
            return legal.iter().map(|&action| scored(action, 0.0)).collect();
        };
        // Rivals still able to bid after us.
        let mut top = 0u8;
        let mut taker: Option<Seat> = a.bidder.filter(|&b| b != view.me);
        for s in &pv.seats {
            if s.seat == view.me || a.passed.contains(&s.seat) {
                continue;
            }
            let m = Self::rival_max(view, s.seat, a.card);
            if m > top || (m == top && taker.is_none() && m > a.high) {
                top = m;
                if m > a.high {
                    taker = Some(s.seat);
                }
            }
        }
        // Denial: the chance that the card carries its likely taker to
        // the target.
        let threat = taker.map_or(0.0, |t| {
            let price = top.max(a.high).max(1);
            let base = pv.seats[t.index()].score as f64 + pipeline(pv, t, price);
            reach(pv, base, a.card)
        });
        let deny = prm.deny * threat;
        let need = top.max(a.high + 1).max(1);
        legal
            .iter()
            .map(|&action| {
                let v = match action {
                    Action::Pass => 0.0,
                    Action::Veto => {
                        if taker.is_some() {
                            deny - prm.veto
                        } else {
                            -prm.veto
                        }
                    }
                    Action::Bid(b) => {
                        let net = self.card_value(view, a.card, b) - self.price(b);
                        if b >= need {
                            net + deny
                        } else {
                            // Topped by the model: nothing gained (pushing
                            // the price up lost in tuning), and the card
                            // at this price if the model is wrong.
                            net.min(0.0)
                        }
                    }
                    Action::Keep | Action::Reroll(_) => 0.0,
                };
                scored(action, v)
            })
            .collect()
    }

    /// Scores for keep and re-roll on the bot's own roll.
    fn roll_scores(&self, view: &View, legal: &[Action]) -> Vec<Scored<Action>> {
        let pv = &view.public;
        let Some(r) = pv.roll.as_ref() else {
            return legal.iter().map(|&action| scored(action, 0.0)).collect();
        };
        let me = &pv.seats[view.me.index()];
        let u = unit(pv.options.dice);
        let worth = |p: u16| {
            counted(pv, me.score, p) / u
                + if wins(pv, me.score + p) {
                    self.params.win_bonus
                } else {
                    0.0
                }
        };
        let keep = worth(r.payout);
        match pv.options.dice {
            DiceMode::Polyhedral | DiceMode::D6 => {
                // A kept Big Cheese is worth about a re-roll's mean gain.
                let hold = 0.3;
                let again: f64 = payouts(pv.options.dice, r.card)
                    .iter()
                    .map(|&(p, q)| q * worth(p))
                    .sum::<f64>()
                    - hold;
                legal
                    .iter()
                    .map(|&action| {
                        let v = match action {
                            Action::Keep => keep,
                            _ => again,
                        };
                        scored(action, v)
                    })
                    .collect()
            }
            _ => {
                // Keep a winning roll; otherwise the heuristic's rules.
                let pick = if wins(pv, me.score + r.payout) {
                    Action::Keep
                } else {
                    Heuristic::roll(view, legal)
                };
                legal
                    .iter()
                    .map(|&action| scored(action, if action == pick { 1.0 } else { 0.0 }))
                    .collect()
            }
        }
    }

    fn scores(&self, view: &View, legal: &[Action]) -> Vec<Scored<Action>> {
        let mut s = if view.public.roll.is_some() {
            self.roll_scores(view, legal)
        } else {
            self.auction_scores(view, legal)
        };
        // Best first; stable, so ties keep the legal order (pass, low bids).
        s.sort_by(|x, y| y.value.total_cmp(&x.value));
        s
    }
}

fn scored(action: Action, value: f64) -> Scored<Action> {
    Scored {
        action,
        value,
        visits: 0,
    }
}

impl Bot<bigcheese::BigCheese> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let s = self.scores(view, legal);
        match s.first() {
            Some(best) if legal.contains(&best.action) => best.action,
            _ => legal[self.rng.random_range(0..legal.len())],
        }
    }

    fn evaluate(&mut self, view: &View, legal: &[Action]) -> Option<Vec<Scored<Action>>> {
        Some(self.scores(view, legal))
    }
}
