//! The strong heuristic bot for The Great Dalmuti: card counting, a
//! probabilistic count of the sets each opponent could beat, and a plan
//! measured in sets still to play, decided from the seat's own view only.
//!
//! Why it is shaped so: the race to go out first is a race of *leads*. A
//! hand of k sets needs k plays; a set that nobody beats gives the lead
//! back, a set that is beaten hands it away. So the bot values a hand by
//! its sets (see [`Strong`]'s value `V`): every set costs a play, and a set
//! costs more the likelier some opponent can beat it when it is led (the
//! last set is free: it goes out). Every play is scored by how much it
//! lowers `V`, plus the chance that it keeps or wins the lead; a pass scores
//! nothing. So the bot sheds sets that would cost it a lead, keeps the sets
//! that bring the lead back, and passes rather than break a set it needs.
//!
//! The chance that an opponent beats `n` cards of rank `r` is counted, not
//! guessed: the cards nobody has played are dealt among the opponents by
//! their card counts (hypergeometric draws), with what the seat knows
//! folded in:
//! - the cards it gave an opponent in taxes (still theirs unless played);
//! - the Peon's forced best cards it received as a Dalmuti: the Peon
//!   holds nothing better than the worst of them (D8), a hard bound;
//! - passes, as soft evidence: an opponent who passed on `n` cards of rank
//!   `r` probably holds no `n` cards better than `r` (rule-based players
//!   play whenever they can, save their best ranks and Jesters early in
//!   the hand; a strategic pass is allowed for by trusting this only in
//!   part). Counts only shrink while a hand is played, so these bounds hold
//!   for the rest of the hand; the bot remembers them between its turns.
//!
//! When an opponent is close to going out, keeping or winning the lead is
//! worth more (blocking: it must not get the lead, nor an easy follow).
//! Taxes give away the cards whose loss lowers `V` most (loose singles of
//! the worst ranks, sets kept, never a Jester). Revolutions, the market and
//! seating a newcomer follow the rule-based [`Heuristic`]. The plain
//! heuristic's sure-winner run (every set left but one unbeatable: lead
//! them and go out) is kept as an override.
//!
//! A decision is a few thousand floating-point operations (a few
//! microseconds). The bot is deterministic given its seed and the views it
//! is shown; the seed only breaks exact ties.

use super::heuristic::{after, badness, Heuristic, Table};
use crate::{Bot, Scored};
use dalmuti::{Action, Card, Dalmuti, Hand, Phase, Play, Role, TransferKind, View, JESTER};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// Seats the tables below can hold (the rules allow 13).
const SEATS: usize = 16;
/// The largest set: twelve 12s and both Jesters.
const MAX_SET: usize = 14;
/// Cards in the largest deck.
const DECK: usize = 80;

/// The weights of the plan; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Params {
    /// `V`: cost of each set still to play.
    pub set_cost: f64,
    /// `V`: cost of a set's chance of being beaten when led.
    pub lose_cost: f64,
    /// `V`: cost of each card still held.
    pub card_cost: f64,
    /// `V`: cost of each set by its rank (bad ranks are hard to shed by
    /// following: rank 12 costs this much, better ranks less).
    pub rank_cost: f64,
    /// Development: exponent of the rank in `rank_cost`.
    pub rank_pow: f64,
    /// Development: cost of each card by rank.
    pub card_rank_cost: f64,
    /// Whether the likeliest-beaten set counts as free (it goes out last).
    pub last_free: f64,
    /// Leading: value of keeping the lead (times the chance nobody beats).
    pub keep: f64,
    /// Following: value of winning the trick (times the chance it holds).
    pub win: f64,
    /// Value of the lead as the best lead it allows: how much the best
    /// whole set led next would lower `V` (times the chance we get it).
    pub tempo: f64,
    /// Development: 1 gives taxes like the rule-based player.
    pub gift_rules: f64,
    /// How much more the lead is worth when an opponent is near going out.
    pub danger: f64,
    /// An opponent with at most this many cards is near going out.
    pub danger_cards: f64,
    /// How far a pass is trusted as evidence (0: ignored, 1: a fact).
    pub trust: f64,
    /// How far opponents are assumed to save their best ranks and Jesters
    /// early in the hand, as rule-based players do (0..=1).
    pub model: f64,
    /// Score of a pass when following.
    pub pass: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            set_cost: 1.0,
            lose_cost: 3.0,
            card_cost: 0.5,
            rank_cost: 3.0,
            rank_pow: 1.0,
            card_rank_cost: 0.0,
            last_free: 1.0,
            keep: 0.75,
            win: 0.0,
            tempo: 0.0,
            gift_rules: 0.0,
            danger: 1.0,
            danger_cards: 3.0,
            trust: 0.7,
            model: 1.0,
            pass: 0.0,
        }
    }
}

impl Params {
    /// Development only: overrides from `STRONG_PARAMS=name=value,...`.
    fn from_env() -> Params {
        let mut p = Params::default();
        if let Ok(s) = std::env::var("STRONG_PARAMS") {
            for kv in s.split(',') {
                if let Some((k, v)) = kv.split_once('=') {
                    let v: f64 = v.trim().parse().unwrap_or(0.0);
                    match k.trim() {
                        "set_cost" => p.set_cost = v,
                        "lose_cost" => p.lose_cost = v,
                        "card_cost" => p.card_cost = v,
                        "rank_cost" => p.rank_cost = v,
                        "rank_pow" => p.rank_pow = v,
                        "card_rank_cost" => p.card_rank_cost = v,
                        "last_free" => p.last_free = v,
                        "keep" => p.keep = v,
                        "win" => p.win = v,
                        "danger" => p.danger = v,
                        "tempo" => p.tempo = v,
                        "gift_rules" => p.gift_rules = v,
                        "danger_cards" => p.danger_cards = v,
                        "trust" => p.trust = v,
                        "model" => p.model = v,
                        "pass" => p.pass = v,
                        _ => {}
                    }
                }
            }
        }
        p
    }
}

/// Rule-based players follow with ranks this good only late in the hand ...
const STRONG: usize = 3;
/// ... with at most this many cards,
const LONG: u8 = 10;
/// ... and spend Jesters with at most this many.
const JESTER_LATE: u8 = 12;

/// What the bot remembers between its turns in one hand: upper bounds on
/// the opponents' holdings learned from their passes.
#[derive(Clone, Debug)]
struct Memory {
    /// The hand these bounds belong to.
    hand_number: u32,
    /// Cards played this hand when last updated (a drop means a new hand).
    played: usize,
    /// Most naturals of each rank each seat may hold.
    naturals: [[u8; JESTER + 1]; SEATS],
    /// Most naturals plus Jesters of each rank each seat may hold.
    with_jesters: [[u8; JESTER + 1]; SEATS],
}

impl Memory {
    fn new() -> Memory {
        Memory {
            hand_number: 0,
            played: 0,
            naturals: [[u8::MAX; JESTER + 1]; SEATS],
            with_jesters: [[u8::MAX; JESTER + 1]; SEATS],
        }
    }

    /// Brings the memory up to `view`: forgets a finished hand, then
    /// records the passes on the current trick.
    fn update(&mut self, view: &View) {
        let pv = &view.public;
        let played: usize = pv.played.iter().map(Hand::len).sum();
        if pv.hand_number != self.hand_number || played < self.played || pv.phase != Phase::Play {
            *self = Memory::new();
            self.hand_number = pv.hand_number;
        }
        self.played = played;
        let Some(trick) = pv.trick else { return };
        let (r, n) = (trick.play.rank() as usize, trick.play.size());
        for s in &pv.passed {
            let o = s.index();
            if o == view.seat.index() || o >= SEATS {
                continue;
            }
            // what a rule-based player would have played had it held it
            let m = pv.cards_left[o];
            let lo = if m > LONG { STRONG + 1 } else { 1 };
            for q in lo..r.min(JESTER) {
                self.naturals[o][q] = self.naturals[o][q].min(n - 1);
                if m <= JESTER_LATE {
                    self.with_jesters[o][q] = self.with_jesters[o][q].min(n - 1);
                }
            }
        }
    }
}

/// `ln(k!)` for `k` in `0..=DECK`.
fn ln_fact() -> &'static [f64; DECK + 1] {
    static T: OnceLock<[f64; DECK + 1]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [0.0; DECK + 1];
        for k in 1..=DECK {
            t[k] = t[k - 1] + (k as f64).ln();
        }
        t
    })
}

/// `P(X >= x)` for `x` in `0..=MAX_SET + 1` where `X` counts the marked
/// cards among `draws` cards drawn from `pool` cards of which `marked` are
/// marked (hypergeometric).
fn tails(pool: usize, marked: usize, draws: usize) -> [f64; MAX_SET + 2] {
    let mut t = [0.0; MAX_SET + 2];
    let draws = draws.min(pool);
    let marked = marked.min(pool);
    let lo = draws.saturating_sub(pool - marked);
    let hi = marked.min(draws);
    let lf = ln_fact();
    let ln_c = |n: usize, k: usize| lf[n] - lf[k] - lf[n - k];
    let mut pmf = [0.0; MAX_SET + 2];
    let mut p = (ln_c(marked, lo) + ln_c(pool - marked, draws - lo) - ln_c(pool, draws)).exp();
    for x in lo..=hi {
        if x <= MAX_SET {
            pmf[x] = p;
        } else {
            pmf[MAX_SET + 1] += p;
        }
        if x < hi {
            // p(x+1) / p(x)
            let num = ((marked - x) * (draws - x)) as f64;
            let den = ((x + 1) * (pool - marked - draws + x + 1)) as f64;
            p *= num / den;
        }
    }
    let mut acc = 0.0;
    for x in (0..=MAX_SET + 1).rev() {
        acc += pmf[x];
        t[x] = acc.min(1.0);
    }
    t
}

/// What the seat can tell about the table this turn.
struct Know {
    /// `beaten[r][n]`: the chance that some opponent can beat `n` cards of
    /// rank `r` (13: Jesters alone).
    beaten: [[f64; MAX_SET + 1]; JESTER + 1],
    /// 0..=1: how close the nearest opponent is to going out.
    danger: f64,
}

impl Know {
    fn new(view: &View, mem: &Memory, p: &Params) -> Know {
        let pv = &view.public;
        let me = view.seat.index();
        let players = pv.players.min(SEATS);
        let unseen = Table::new(view).unseen;
        // cards we know each opponent holds: what we gave them and they
        // have not played since
        let mut known = [Hand::EMPTY; SEATS];
        // ranks an opponent surely lacks (D8): better than this bound
        let mut floor = [0usize; SEATS];
        for t in &view.transfers {
            let (from, to) = (t.from.index(), t.to.index());
            if from == me && to < SEATS {
                known[to].add_all(&t.cards.hand());
            }
            if to == me && from < SEATS && t.kind == TransferKind::Tax {
                let peon = matches!(
                    pv.roles.get(from),
                    Some(Role::GreaterPeon | Role::LesserPeon)
                );
                if peon {
                    // the Peon's best cards: nothing better than the worst
                    let worst = t.cards.cards().map(Card::index).max().unwrap_or(0);
                    floor[from] = floor[from].max(worst);
                }
            }
        }
        let mut pool = unseen;
        for (o, k) in known.iter_mut().enumerate().take(players) {
            for c in Card::all() {
                let played = pv.played.get(o).map_or(0, |h| h.count(c));
                let n = k.count(c).saturating_sub(played).min(pool.count(c));
                k.remove(c, k.count(c) - n);
                pool.remove(c, n);
            }
        }
        let pool_len = pool.len();
        let pool_j = pool.jesters() as usize;
        let mut not_beaten = [[1.0f64; MAX_SET + 1]; JESTER + 1];
        let mut danger: f64 = 0.0;
        for o in 0..players {
            let m = pv.cards_left.get(o).copied().unwrap_or(0);
            if o == me || m == 0 {
                continue;
            }
            let close = (p.danger_cards + 1.0 - m as f64) / p.danger_cards.max(1.0);
            danger = danger.max(close.clamp(0.0, 1.0));
            let draws = (m as usize).saturating_sub(known[o].len());
            let kj = known[o].jesters() as usize;
            let jmax = kj + pool_j.min(draws);
            let no_jesters = if m > JESTER_LATE { p.model } else { 0.0 };
            let mut holds = [1.0f64; MAX_SET + 1];
            for q in 1..JESTER {
                for (n, nb) in not_beaten[q].iter_mut().enumerate().skip(1) {
                    *nb *= holds[n];
                }
                let c = Card::from_index(q);
                let kq = known[o].count(c) as usize;
                let (t_nat, t_all) = if q < floor[o] {
                    // nothing of this rank beyond what we gave them
                    let mut t = [0.0; MAX_SET + 2];
                    t[0] = 1.0;
                    (t, t)
                } else {
                    let nat = pool.count(c) as usize;
                    (tails(pool_len, nat, draws), tails(pool_len, nat + pool_j, draws))
                };
                for n in 1..=MAX_SET {
                    if n > m as usize {
                        break;
                    }
                    let tn = t_nat[n.saturating_sub(kq).min(MAX_SET + 1)];
                    let ta = t_all[n.saturating_sub(kq + kj).min(MAX_SET + 1)];
                    let mut t = no_jesters * tn + (1.0 - no_jesters) * ta;
                    if kq + kj < n {
                        if q <= STRONG && m > LONG {
                            t *= 1.0 - p.model;
                        }
                        if (mem.naturals[o][q] as usize) + jmax < n {
                            t *= 1.0 - p.trust;
                        }
                        if (mem.with_jesters[o][q] as usize) < n {
                            t *= 1.0 - p.trust;
                        }
                    }
                    holds[n] *= 1.0 - t.clamp(0.0, 1.0);
                }
            }
            for (n, nb) in not_beaten[JESTER].iter_mut().enumerate().skip(1) {
                *nb *= holds[n];
            }
        }
        let mut beaten = [[0.0; MAX_SET + 1]; JESTER + 1];
        for r in 1..=JESTER {
            for n in 1..=MAX_SET {
                beaten[r][n] = 1.0 - not_beaten[r][n];
            }
        }
        Know { beaten, danger }
    }

    /// The chance that `n` cards of rank `r` are beaten.
    fn beaten(&self, r: usize, n: usize) -> f64 {
        self.beaten[r.min(JESTER)][n.clamp(1, MAX_SET)]
    }

    /// The hand's cost `V`: the plays and lost leads it still needs.
    fn value(&self, hand: &Hand, p: &Params) -> f64 {
        let j = hand.jesters() as usize;
        let mut sets = 0;
        let mut sum = 0.0;
        let mut worst: f64 = 0.0;
        let mut boost: f64 = 0.0;
        let mut ranks = 0.0;
        let mut card_ranks = 0.0;
        for r in 1..JESTER {
            let c = hand.count(Card::from_index(r)) as usize;
            if c == 0 {
                continue;
            }
            sets += 1;
            ranks += (r as f64 / 12.0).powf(p.rank_pow);
            card_ranks += c as f64 * r as f64 / 12.0;
            let b = self.beaten(r, c);
            sum += b;
            worst = worst.max(b);
            if j > 0 {
                boost = boost.min(self.beaten(r, c + j) - b);
            }
        }
        if sets == 0 {
            return if j > 0 { p.set_cost } else { 0.0 };
        }
        p.set_cost * sets as f64
            + p.lose_cost * (sum - p.last_free * worst + boost)
            + p.card_cost * hand.len() as f64
            + p.rank_cost * ranks
            + p.card_rank_cost * card_ranks
    }
}

impl Know {
    /// How much the best whole set led from `hand` (of cost `now`) would
    /// lower its cost.
    fn best_lead(&self, hand: &Hand, now: f64, p: &Params) -> f64 {
        let mut best: f64 = 0.0;
        for r in 1..JESTER {
            let c = Card::from_index(r);
            let n = hand.count(c);
            if n > 0 {
                let mut h = *hand;
                h.remove(c, n);
                best = best.max(now - self.value(&h, p));
            }
        }
        best
    }
}

/// Strong heuristic player for The Great Dalmuti (see the module docs).
#[derive(Debug)]
pub struct Strong {
    rng: ChaCha8Rng,
    rules: Heuristic,
    params: Params,
    memory: Memory,
}

impl Strong {
    /// A strong heuristic bot; `seed` only breaks exact ties.
    pub fn new(seed: u64) -> Strong {
        Strong {
            rng: ChaCha8Rng::seed_from_u64(seed),
            rules: Heuristic::new(seed ^ 0x5eed),
            params: Params::from_env(),
            memory: Memory::new(),
        }
    }

    /// Scores for a tax, market or play decision, in `legal`'s order;
    /// `None` in the other phases (left to the rule-based player).
    fn scores(&mut self, view: &View, legal: &[Action]) -> Option<Vec<f64>> {
        let pv = &view.public;
        let hand = view.hand;
        let p = self.params;
        match pv.phase {
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn if p.gift_rules == 0.0 => {
                self.memory.update(view);
                let know = Know::new(view, &self.memory, &p);
                Some(
                    legal
                        .iter()
                        .map(|&a| match a {
                            Action::Give(g) => {
                                let cards = g.hand();
                                match hand.minus(&cards) {
                                    Some(rest) if cards.jesters() == 0 => {
                                        let bad: i32 = g.cards().map(badness).sum();
                                        -know.value(&rest, &p) + bad as f64 * 1e-4
                                    }
                                    _ => -1e6,
                                }
                            }
                            _ => -1e9,
                        })
                        .collect(),
                )
            }
            Phase::Play => {
                self.memory.update(view);
                let know = Know::new(view, &self.memory, &p);
                let table = Table::new(view);
                let leading = pv.trick.is_none();
                let now = know.value(&hand, &p);
                let lead = 1.0 + p.danger * know.danger;
                Some(
                    legal
                        .iter()
                        .map(|&a| match a {
                            Action::Play(play) => {
                                play_score(&hand, &know, &table, &p, play, leading, now, lead)
                            }
                            Action::Pass => p.pass,
                            _ => -1e9,
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }
}

/// A play's score: how much it lowers the hand's cost, plus the chance it
/// keeps (leading) or wins (following) the lead, weighted by `lead`.
#[allow(clippy::too_many_arguments)]
fn play_score(
    hand: &Hand,
    know: &Know,
    table: &Table,
    p: &Params,
    play: Play,
    leading: bool,
    now: f64,
    lead: f64,
) -> f64 {
    let left = hand.len();
    let size = play.size() as usize;
    if size == left {
        return 1e6; // going out
    }
    let rest = after(hand, play);
    let sure = play.naturals() > 0 && !table.beatable(play.rank(), play.size());
    if sure && table.losers(&rest) <= 1 {
        // keep the lead to the end: sure winners, then the last set
        return 1e5 + play.rank() as f64 * 10.0 - play.jesters() as f64 * 100.0;
    }
    let held = 1.0 - know.beaten(play.rank() as usize, size);
    let bonus = if leading { p.keep } else { p.win };
    let later = know.value(&rest, p);
    let tempo = if p.tempo != 0.0 {
        p.tempo * know.best_lead(&rest, later, p)
    } else {
        0.0
    };
    now - later + (bonus + tempo) * held * lead
}

impl Bot<Dalmuti> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let Some(scores) = self.scores(view, legal) else {
            return self.rules.choose(view, legal);
        };
        let mut best = 0;
        let mut ties = 0;
        for (i, &s) in scores.iter().enumerate() {
            if s > scores[best] + 1e-9 {
                best = i;
                ties = 1;
            } else if (s - scores[best]).abs() <= 1e-9 {
                ties += 1;
                if ties > 1 && self.rng.random_range(0..ties) == 0 {
                    best = i;
                }
            }
        }
        legal[best]
    }

    fn evaluate(&mut self, view: &View, legal: &[Action]) -> Option<Vec<Scored<Action>>> {
        let scores = match self.scores(view, legal) {
            Some(s) => s,
            None => {
                let pick = self.rules.choose(view, legal);
                legal
                    .iter()
                    .map(|&a| if a == pick { 1.0 } else { 0.0 })
                    .collect()
            }
        };
        let mut out: Vec<Scored<Action>> = legal
            .iter()
            .zip(scores)
            .map(|(&action, value)| Scored {
                action,
                value,
                visits: 0,
            })
            .collect();
        out.sort_by(|a, b| b.value.total_cmp(&a.value));
        Some(out)
    }
}
