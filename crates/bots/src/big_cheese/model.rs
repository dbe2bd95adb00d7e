//! A model of how much each rival pays for a card in The Big Cheese,
//! inferred during the game from that rival's own bids and passes.
//!
//! Why: a fixed model of the table (every rival prices cards exactly like
//! the `heuristic` bot) is exact against the heuristic and costly against
//! anyone else: a bot that bids a rival's modelled cap at once overpays
//! every time the rival would have passed lower. Everything in the game is
//! public but the deck order and the dice to come (B3), so the bids,
//! passes and won projects of every seat are evidence the bot may use.
//!
//! Shape:
//! - **Hypotheses.** A rival prices a card like the heuristic with its
//!   value scaled by an unknown factor `k` ([`SCALES`], 0.15 to 2.8): its
//!   cap for a card worth `v` (heuristic units at that rival's score) is
//!   `heuristic::cap(k * v)`, at most its free chips. The model keeps one
//!   log-weight per seat per scale, starting from a prior centred on 1 (the
//!   heuristic) with log-width [`Model::new`]'s `sigma`.
//! - **Evidence.** Only from views the bot is shown at its own decisions.
//!   Per auction (keyed by deck size, card and leader) it notes each
//!   rival's highest bid seen (its cap is at least that) and, for a rival
//!   seen passed with more free chips than the high bid, that its cap is at
//!   most the high bid (B5: a pass is final, so it passed at a high bid no
//!   higher than the one now showing). When the auction is over (the next
//!   view shows another auction or none), the winner is the seat whose
//!   newest project is that card and whose project count grew by one net
//!   of matured ones (B8): the chips on a just-won project are its bid, so
//!   its cap is at least that, and every other rival that could have paid
//!   more passed at or below it. The bounds are then committed, once per
//!   rival per auction, as soft constraints: a scale whose cap misses a
//!   bound by `g` chips loses `penalty * g` of log-weight (soft, because no
//!   outside bot is exactly a scaled heuristic). Only number cards count:
//!   a rival's taste for Vetos and Big Cheeses says little of its price of
//!   chips.
//! - **New game.** The model resets when the view shows fewer seats or
//!   options than before, a score that went down, or a fresh start (no
//!   scores, projects, discards or hands) after a view that was not one.
//!
//! All of it is a few dozen float operations per view.

use super::heuristic::{self, Heuristic};
use bigcheese::{Card, PublicView, View};
use game::Seat;
use rand::Rng;

/// The value multipliers a rival may apply to the heuristic's card values.
pub const SCALES: [f64; 9] = [0.15, 0.25, 0.4, 0.6, 0.8, 1.0, 1.3, 1.8, 2.8];

/// Number of hypotheses per rival.
pub const K: usize = SCALES.len();

/// One auction being watched.
#[derive(Clone, Debug)]
struct Tracked {
    deck: u8,
    card: Card,
    leader: Seat,
    /// Each seat's heuristic value of the card at its score.
    value: Vec<f64>,
    /// Each seat's free chips.
    free: Vec<u8>,
    /// Each seat's project count.
    projects: Vec<usize>,
    /// Each seat's projects at one chip (they mature at the next advance).
    ones: Vec<usize>,
    /// Highest bid seen per seat (0: none).
    lo: Vec<u8>,
    /// Smallest high bid at which the seat was seen passed with chips to
    /// spare.
    hi: Vec<Option<u8>>,
}

/// Per-rival price model (see the module docs).
#[derive(Clone, Debug)]
pub struct Model {
    /// Prior log-width around scale 1.
    sigma: f64,
    /// Log-weight lost per chip a bound is missed by.
    penalty: f64,
    /// Log-weights per seat over [`SCALES`].
    logw: Vec<[f64; K]>,
    /// Bounds committed per seat.
    evidence: Vec<u32>,
    tracked: Option<Tracked>,
    last_scores: Vec<u16>,
    last_start: bool,
}

impl Default for Model {
    fn default() -> Model {
        Model::new(0.5, 0.7)
    }
}

/// Whether the view shows a game that has not yet had a first card taken
/// or thrown away (the first auction of a game).
fn looks_like_start(pv: &PublicView) -> bool {
    pv.discards.is_empty()
        && pv.seats.iter().all(|s| {
            s.score == 0 && s.projects.is_empty() && s.vetos == 0 && s.cheeses == 0 && s.hired == 0
        })
}

impl Model {
    /// A model with prior log-width `sigma` and `penalty` per chip a
    /// bound is missed by.
    pub fn new(sigma: f64, penalty: f64) -> Model {
        Model {
            sigma,
            penalty,
            logw: Vec::new(),
            evidence: Vec::new(),
            tracked: None,
            last_scores: Vec::new(),
            last_start: false,
        }
    }

    /// Forgets everything seen (a new game of `players` seats).
    pub fn reset(&mut self, players: usize) {
        self.logw = vec![self.prior(); players];
        self.evidence = vec![0; players];
        self.tracked = None;
        self.last_scores.clear();
        self.last_start = false;
    }

    /// The prior log-weights.
    fn prior(&self) -> [f64; K] {
        std::array::from_fn(|i| {
            let l = libm::log(SCALES[i]);
            -l * l / (2.0 * self.sigma * self.sigma)
        })
    }

    /// Bounds committed so far about `seat` in this game.
    pub fn evidence(&self, seat: Seat) -> u32 {
        self.evidence.get(seat.index()).copied().unwrap_or(0)
    }

    /// The posterior weights of `seat` over [`SCALES`] (summing to 1; the
    /// prior before any view).
    pub fn weights(&self, seat: Seat) -> [f64; K] {
        let lw = self
            .logw
            .get(seat.index())
            .copied()
            .unwrap_or_else(|| self.prior());
        let max = lw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut w = lw.map(|l| libm::exp(l - max));
        let sum: f64 = w.iter().sum();
        for x in &mut w {
            *x /= sum;
        }
        w
    }

    /// The posterior mean of `seat`'s log-scale, as a scale (1 = priced
    /// like the heuristic).
    pub fn scale(&self, seat: Seat) -> f64 {
        let w = self.weights(seat);
        libm::exp(
            w.iter()
                .zip(SCALES)
                .map(|(w, k)| w * libm::log(k))
                .sum::<f64>(),
        )
    }

    /// A scale for `seat` drawn from its posterior.
    pub fn sample(&self, seat: Seat, rng: &mut impl Rng) -> f64 {
        let w = self.weights(seat);
        let mut x: f64 = rng.random();
        for (i, p) in w.iter().enumerate() {
            x -= p;
            if x <= 0.0 {
                return SCALES[i];
            }
        }
        SCALES[K - 1]
    }

    /// The highest bid seen from `seat` in the auction now showing (0 if
    /// none).
    pub fn seen_bid(&self, seat: Seat) -> u8 {
        self.tracked
            .as_ref()
            .and_then(|t| t.lo.get(seat.index()).copied())
            .unwrap_or(0)
    }

    /// Reads one view: resets at a new game, closes the auction that
    /// ended since the last view and notes the bids and passes of the
    /// one showing. Reading the same view twice changes nothing.
    pub fn observe(&mut self, view: &View) {
        let pv = &view.public;
        let n = pv.players();
        let start = looks_like_start(pv);
        let new_game = self.logw.len() != n
            || pv
                .seats
                .iter()
                .zip(&self.last_scores)
                .any(|(s, &p)| s.score < p)
            || (start && !self.last_start);
        if new_game {
            self.reset(n);
        }
        self.last_start = start;
        self.last_scores.clear();
        self.last_scores.extend(pv.seats.iter().map(|s| s.score));
        let key = pv
            .auction
            .as_ref()
            .map(|a| (pv.deck_size, a.card, a.leader));
        if let Some(t) = &self.tracked {
            if Some((t.deck, t.card, t.leader)) != key {
                self.close(view);
            }
        }
        let Some(a) = pv.auction.as_ref() else {
            return;
        };
        let t = self.tracked.get_or_insert_with(|| Tracked {
            deck: pv.deck_size,
            card: a.card,
            leader: a.leader,
            value: pv
                .seats
                .iter()
                .map(|s| Heuristic::value(view, a.card, s.score, s.hired))
                .collect(),
            free: pv.seats.iter().map(|s| s.free).collect(),
            projects: pv.seats.iter().map(|s| s.projects.len()).collect(),
            ones: pv
                .seats
                .iter()
                .map(|s| s.projects.iter().filter(|p| p.1 == 1).count())
                .collect(),
            lo: vec![0; n],
            hi: vec![None; n],
        });
        if let Some(b) = a.bidder {
            let lo = &mut t.lo[b.index()];
            *lo = (*lo).max(a.high);
        }
        for p in &a.passed {
            let i = p.index();
            if t.free[i] > a.high {
                t.hi[i] = Some(t.hi[i].map_or(a.high, |h| h.min(a.high)));
            }
        }
    }

    /// Ends the tracked auction: finds its winner and price if a project
    /// shows them (B8), then commits every rival's bounds.
    fn close(&mut self, view: &View) {
        let Some(mut t) = self.tracked.take() else {
            return;
        };
        let pv = &view.public;
        if pv.players() != t.free.len() {
            return;
        }
        let winner = pv.seats.iter().find(|s| {
            let i = s.seat.index();
            s.projects.len() + t.ones[i] == t.projects[i] + 1
                && s.projects.last().is_some_and(|p| p.0 == t.card)
        });
        if let Some(w) = winner {
            let price = w.projects.last().map_or(0, |p| p.1);
            let i = w.seat.index();
            t.lo[i] = t.lo[i].max(price);
            for s in &pv.seats {
                let j = s.seat.index();
                if j != i && t.free[j] > price {
                    t.hi[j] = Some(t.hi[j].map_or(price, |h| h.min(price)));
                }
            }
        }
        if !t.card.is_number() {
            return;
        }
        for s in 0..t.free.len() {
            if s == view.me.index() {
                continue;
            }
            let v = t.value[s];
            let mut touched = false;
            if t.lo[s] > 0 {
                self.bound(s, v, t.lo[s], true);
                touched = true;
            }
            if let Some(h) = t.hi[s] {
                self.bound(s, v, h, false);
                touched = true;
            }
            if touched {
                self.evidence[s] += 1;
            }
        }
    }

    /// Soft bound on seat `s`'s cap for a card worth `v`: at least `b`
    /// (`at_least`) or at most `b`.
    fn bound(&mut self, s: usize, v: f64, b: u8, at_least: bool) {
        for (i, lw) in self.logw[s].iter_mut().enumerate() {
            let c = heuristic::cap(SCALES[i] * v) as f64;
            let miss = if at_least { b as f64 - c } else { c - b as f64 };
            if miss > 0.0 {
                *lw -= self.penalty * miss;
            }
        }
    }
}
