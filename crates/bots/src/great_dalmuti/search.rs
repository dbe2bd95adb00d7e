//! The `search` bot for The Great Dalmuti: the generic ISMCTS engine
//! ([`crate::search`]) with Dalmuti's horizon, rewards and playout policy.
//!
//! - **Horizon.** A search looks at the hand being played only: the descent
//!   and the playout stop when that hand ends (or the session does). The
//!   next deal is chance the seat cannot steer much, and a hand is what a
//!   single-hand game (`hands=1`) scores.
//! - **Rewards.** By finishing place in the hand, linear from first to
//!   last (a session point per seat beaten), plus as much again for going
//!   out first (first place is what wins a single hand), scaled to 0..=1:
//!   with 5 players 1, 0.375, 0.25, 0.125, 0. Measured (1,000 iterations,
//!   200 deals): linear alone 24%, this 28.5% first places.
//! - **Hidden cards.** Every iteration deals the unseen cards anew with the
//!   engine's sampler ([`game::Game::sample_from_view`]), which keeps
//!   everything the seat has seen: its own tax transfers, the Peon's floor
//!   after paying its best cards, who may hold both Jesters.
//! - **Playout policy.** A cheap card-player's rule on the sampled full
//!   state, with a little randomness: lead the worst whole set (going out
//!   with the Jesters when one set is left), follow with the worst set that
//!   beats the trick without breaking a bigger set if possible, Jesters only
//!   late, strong ranks not while the hand is long; pay taxes with the
//!   worst cards. The opponents move by the same policy inside the tree
//!   (see [`crate::search`]). Measured against uniform random playouts
//!   (1,000 iterations, 200 deals, max^n tree): 29% against 24% first
//!   places. Scoring every legal play exactly as the heuristic bot does
//!   was tried too: three times slower and no stronger (26.5%).
//! - **Gifts.** The bot's own gifts (the Dalmutis' taxes D8, the market's
//!   card back D14) are `strong`'s choice ([`Strong`], whose tax rule was
//!   tuned by simulation and is worth about 5 points of first places to
//!   it), taken without a search: a search of the gift sees only the
//!   playout rule's idea of the hand that follows. The Peons' gifts are
//!   forced (D8). Measured against four `strong` (5 players, `hands=1`,
//!   seats rotated, 3,000 iterations, the same 400 deals, seed 11, 2,000
//!   games): 24.8% first places [23.0%, 26.7%] against 24.1%
//!   [22.3%, 26.0%] with searched gifts, a difference well inside the
//!   noise; it also saves the search's time on gifts.
//!
//! Tried against four `strong` and kept as options, off by default,
//! because none measurably helped (same 200 deals, seed 7, 1,000 games,
//! each ±2.7 points at 95%; the search as above but with searched gifts
//! won 24.4% there):
//! - **Pass evidence** ([`DalmutiDomain::trust`], [`Evidence`]): samples
//!   that give a rival a set it just passed on are redrawn (rejection on
//!   the game's sampler). Trust 0.7, 8 draws: 23.5%; trust 1, 16 draws:
//!   23.7% (and up to twice the time).
//! - **A mixture of rival rules** ([`DalmutiDomain::rivals`]): every
//!   iteration each rival plays by the guided rule, a counting rule
//!   ([`Rule::Counting`]: the sure-winner run, no broken sets early) or a
//!   noisy rule, one in three each: 23.8%. The counting rule for the
//!   seat's own playouts: 23.4%.
//! - **First place only** ([`DalmutiDomain::win_only`]): in a single hand
//!   won by going out first (D16) the descent and the playout stop at the
//!   first seat out: 23.6%; with the mixture and pass evidence: 24.5%.
//! - Playing `strong`'s choice unless the search's is better by a margin
//!   of mean reward (0.02, 0.05, 0.1): 24.3%, 23.5%, 23.1% (not kept).

use super::evidence::Evidence;
use super::strong::Strong;
use crate::search::{Domain, SearchBot};
use crate::{Bot, Budget};
use dalmuti::{Action, Card, Dalmuti, Hand, Phase, Play, SingleHand, View, JESTER};
use game::{Game, Seat};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Iterations per decision by default: about 21 ms for the first lead of
/// a hand at the measured 141,000 iterations a second (`cargo bench -p
/// bots --bench search`), less as hands shrink. Against four `heuristic`
/// bots (5 players, `hands=1`, seats rotated): 1,000 iterations won
/// 31.2%, 30.8%, 32.9% first places over three runs of 1,000 games;
/// 3,000 won 31.8% (600 games) and 34.2% (1,000 games) on the same deals
/// as the last two. The extra margin costs little, so the default is
/// 3,000. With `strong`'s gifts (see the module docs): 33.2% against four
/// `heuristic` (1,000 games, seed 11) and 24.8% against four `strong`
/// (2,000 games, seed 11), a mean 26 ms per decision with a choice on a
/// busy 2-core machine; 4,500 iterations were no stronger against
/// `strong` (22.9%, before the gifts changed).
pub const DEFAULT_ITERATIONS: u32 = 3000;

/// UCT exploration constant. Measured against four `strong` (the same
/// 2,000 games, seed 11, with `strong`'s gifts): 0.25 won 22.7%
/// [20.9%, 24.5%] first places, 0.5 24.8%, 1.0 24.6%.
pub const EXPLORATION: f64 = 0.5;

/// A playout policy a seat may follow in one iteration (see the module
/// docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The rule of thumb (`guided`) with the domain's `epsilon`.
    Guided,
    /// A counting player on the sampled state (`counting`): the
    /// sure-winner run when leading, never breaking a set early.
    Counting,
    /// The rule of thumb with a random action half of the time.
    Noisy,
}

/// Seats the per-iteration rules can hold (the rules allow 13).
const SEATS: usize = 16;

/// The Dalmuti half of the search (see the module docs).
#[derive(Clone, Debug)]
pub struct DalmutiDomain {
    /// The hand the search looks at.
    hand: u32,
    /// The searching seat.
    me: usize,
    /// Chance of a uniformly random action at each playout step.
    pub epsilon: f64,
    /// Whether playouts follow the rules of thumb (else uniform random).
    pub guided: bool,
    /// Extra reward for going out first, on top of the linear place reward.
    pub first_bonus: f64,
    /// Whether the descent and the playout stop once a seat goes out:
    /// only first place is rewarded (what wins a single hand, D16).
    pub win_only: bool,
    /// `win_only` in a session where it applies (set by `start`).
    cut: bool,
    /// The searching seat's own playout rule.
    pub own: Rule,
    /// The rivals' playout rules with their weights: every iteration each
    /// rival draws one. Empty: [`Rule::Guided`].
    pub rivals: Vec<(Rule, u32)>,
    /// What the rivals' passes told (see [`Evidence`]).
    pub evidence: Evidence,
    /// How far pass evidence is trusted (0: the game's sampler alone).
    pub trust: f64,
    /// Most sampler draws per iteration when weighing by evidence.
    pub tries: u32,
    /// The rule each seat follows in this iteration.
    rule: [Rule; SEATS],
    /// A `strong` player that chooses the gifts (taxes D8, the market's
    /// card back D14) without a search; `None`: they are searched.
    pub taxes: Option<Box<Strong>>,
}

impl Default for DalmutiDomain {
    fn default() -> DalmutiDomain {
        DalmutiDomain {
            hand: 0,
            me: 0,
            epsilon: 0.1,
            guided: true,
            first_bonus: 1.0,
            win_only: false,
            cut: false,
            own: Rule::Guided,
            rivals: Vec::new(),
            evidence: Evidence::default(),
            trust: 0.0,
            tries: 1,
            rule: [Rule::Guided; SEATS],
            taxes: None,
        }
    }
}

impl DalmutiDomain {
    /// The reward of each seat once the hand is over.
    fn score(&self, g: &Dalmuti, rewards: &mut [f64]) {
        let n = g.players();
        let denom = (n.max(2) - 1) as f64;
        let scale = 1.0 / (1.0 + self.first_bonus);
        let mut put = |place: usize, s: usize| {
            if s < rewards.len() {
                let mut r = (n - 1 - place.min(n - 1)) as f64 / denom;
                if place == 0 {
                    r += self.first_bonus;
                }
                rewards[s] = r * scale;
            }
        };
        if g.hand_number() != self.hand && g.phase() != Phase::Over {
            // the next hand started: its table order is our finishing order
            for (p, s) in g.order().enumerate() {
                put(p, s.index());
            }
        } else {
            for (p, s) in g.finishing_order().enumerate() {
                put(p, s.index());
            }
        }
    }
}

/// The playout rule of thumb for the seat to move (see the module docs);
/// `None` to fall back to a random action.
fn guided(g: &Dalmuti) -> Option<Action> {
    let me = g.to_move()?;
    match g.phase() {
        Phase::Play => {}
        Phase::GreaterTax | Phase::LesserTax => return None,
        _ => return None,
    }
    let h = g.hand(me);
    let left = g.cards_left(me) as usize;
    let j = h.jesters();
    match g.trick() {
        None => {
            let mut worst = 0;
            let mut groups = 0;
            for r in 1..JESTER {
                if h.count(Card::from_index(r)) > 0 {
                    worst = r;
                    groups += 1;
                }
            }
            if groups == 0 {
                return Play::new(Card::JESTER, 0, j).map(Action::Play);
            }
            let c = Card::from_index(worst);
            let jesters = if groups == 1 { j } else { 0 };
            Play::new(c, h.count(c), jesters).map(Action::Play)
        }
        Some((last, _)) => {
            let size = last.size();
            if let Some(out) = go_out(&h, j, left, last) {
                return out;
            }
            let (exact, bigger) = sets_that_beat(&h, last);
            let pick = if exact != 0 && (bigger == 0 || exact > bigger || left <= 8) {
                exact
            } else {
                bigger
            };
            if pick != 0 {
                if pick <= 3 && left > 10 {
                    return Some(Action::Pass);
                }
                return Play::new(Card::from_index(pick), size, 0).map(Action::Play);
            }
            with_jesters(&h, j, left, last).unwrap_or(Some(Action::Pass))
        }
    }
}

/// Going out on `last` with one set and all the Jesters, when `left`
/// cards are exactly that (D6, D11): `Some` of the play once such a set
/// is found.
fn go_out(h: &Hand, j: u8, left: usize, last: Play) -> Option<Option<Action>> {
    let size = last.size();
    if size as usize != left || last.rank() <= 1 {
        return None;
    }
    let r = (1..(last.rank() as usize).min(JESTER)).rev().find(|&r| {
        let k = h.count(Card::from_index(r));
        k > 0 && k + j == size
    })?;
    let c = Card::from_index(r);
    Some(Play::new(c, h.count(c), j).map(Action::Play))
}

/// The worst rank holding exactly `last`'s size, and the worst holding
/// more, that beat `last` without Jesters (0 for none).
fn sets_that_beat(h: &Hand, last: Play) -> (usize, usize) {
    let size = last.size();
    let mut exact = 0;
    let mut bigger = 0;
    for r in (1..(last.rank() as usize).min(JESTER)).rev() {
        let k = h.count(Card::from_index(r));
        if k == size && exact == 0 {
            exact = r;
        } else if k > size && bigger == 0 {
            bigger = r;
        }
    }
    (exact, bigger)
}

/// Late in the hand (`left` ≤ 12), the worst set that beats `last` made
/// up to its size with Jesters (D10): `Some` of the play once such a set
/// is found.
fn with_jesters(h: &Hand, j: u8, left: usize, last: Play) -> Option<Option<Action>> {
    let size = last.size();
    if j == 0 || left > 12 {
        return None;
    }
    let r = (1..(last.rank() as usize).min(JESTER)).rev().find(|&r| {
        let k = h.count(Card::from_index(r));
        k > 0 && k < size && k + j >= size
    })?;
    let k = h.count(Card::from_index(r));
    Some(Play::new(Card::from_index(r), k, size - k).map(Action::Play))
}

/// Whether a seat other than `me` still in the hand could beat `size`
/// cards of `rank` with its cards in the sampled state `g` (D6, D9).
fn beatable(g: &Dalmuti, me: Seat, rank: usize, size: u8) -> bool {
    (0..g.players()).map(Seat::new).any(|o| {
        if o == me || g.cards_left(o) == 0 {
            return false;
        }
        let h = g.hand(o);
        let j = h.jesters();
        (1..rank.min(JESTER)).any(|q| {
            let c = h.count(Card::from_index(q));
            c >= size || (c > 0 && c + j >= size)
        })
    })
}

/// A counting player's rule for the seat to move, on the sampled state:
/// leading, when every set but one is one nobody can beat, it runs them
/// (the worst such set first) and goes out with the last, as `strong`
/// does; else it leads its worst set. Following, it plays the worst set of
/// exactly the trick's size that beats it and breaks a bigger set only with
/// 8 cards or fewer. Otherwise as [`guided`]. `None` to fall back to a
/// random action.
fn counting(g: &Dalmuti) -> Option<Action> {
    let me = g.to_move()?;
    if g.phase() != Phase::Play {
        return None;
    }
    let h = g.hand(me);
    let left = g.cards_left(me) as usize;
    let j = h.jesters();
    match g.trick() {
        None => {
            let mut worst = 0;
            let mut groups = 0;
            let mut losers = 0;
            let mut sure = 0;
            for r in 1..JESTER {
                let k = h.count(Card::from_index(r));
                if k > 0 {
                    worst = r;
                    groups += 1;
                    if beatable(g, me, r, k) {
                        losers += 1;
                    } else {
                        sure = r;
                    }
                }
            }
            if groups == 0 {
                return Play::new(Card::JESTER, 0, j).map(Action::Play);
            }
            let r = if losers <= 1 && sure != 0 && groups > 1 {
                sure
            } else {
                worst
            };
            let c = Card::from_index(r);
            let jesters = if groups == 1 { j } else { 0 };
            Play::new(c, h.count(c), jesters).map(Action::Play)
        }
        Some((last, _)) => {
            let size = last.size();
            if let Some(out) = go_out(&h, j, left, last) {
                return out;
            }
            let (exact, bigger) = sets_that_beat(&h, last);
            let pick = if exact != 0 {
                exact
            } else if left <= 8 {
                bigger
            } else {
                0
            };
            if pick != 0 {
                return Play::new(Card::from_index(pick), size, 0).map(Action::Play);
            }
            with_jesters(&h, j, left, last).unwrap_or(Some(Action::Pass))
        }
    }
}

/// The worst gift among the legal ones: highest ranks, never a Jester.
fn worst_gift(legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::Give(g) => Some((a, g.cards().map(super::heuristic::badness).sum::<i32>())),
            _ => None,
        })
        .max_by_key(|&(_, s)| s)
        .map(|(a, _)| a)
}

impl Domain<Dalmuti> for DalmutiDomain {
    fn start(&mut self, view: &View) {
        self.hand = view.public.hand_number;
        self.me = view.seat.index();
        let o = &view.public.options;
        self.cut = self.win_only && o.hands == 1 && o.single_hand == SingleHand::FirstOut;
        self.observe(view);
    }

    fn decide(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let strong = self.taxes.as_mut()?;
        matches!(
            view.public.phase,
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn
        )
        .then(|| strong.choose(view, legal))
    }

    fn observe(&mut self, view: &View) {
        if self.trust > 0.0 {
            self.evidence.update(view);
        }
    }

    fn sample(&mut self, view: &View, rng: &mut ChaCha8Rng) -> Dalmuti {
        if !self.rivals.is_empty() {
            let total: u32 = self.rivals.iter().map(|r| r.1).sum();
            for s in 0..view.public.players.min(SEATS) {
                self.rule[s] = if s == self.me {
                    self.own
                } else {
                    let mut u = rng.random_range(0..total.max(1));
                    let mut pick = Rule::Guided;
                    for &(rule, w) in &self.rivals {
                        if u < w {
                            pick = rule;
                            break;
                        }
                        u -= w;
                    }
                    pick
                };
            }
        } else {
            self.rule = [Rule::Guided; SEATS];
            if self.me < SEATS {
                self.rule[self.me] = self.own;
            }
        }
        if self.trust > 0.0 {
            self.evidence.sample(view, self.trust, self.tries, rng)
        } else {
            Dalmuti::sample_from_view(view, rng)
        }
    }

    #[inline]
    fn stop(&self, g: &Dalmuti) -> bool {
        g.phase() == Phase::Over
            || g.hand_number() != self.hand
            || (self.cut && g.finishing_order().next().is_some())
    }

    #[inline]
    fn policy(&mut self, g: &Dalmuti, rng: &mut ChaCha8Rng, scratch: &mut Vec<Action>) -> Action {
        let rule = g
            .to_move()
            .map_or(Rule::Guided, |s| self.rule[s.index().min(SEATS - 1)]);
        let epsilon = if rule == Rule::Noisy {
            0.5
        } else {
            self.epsilon
        };
        let a = if self.guided && rng.random::<f64>() >= epsilon {
            match (g.phase(), rule) {
                (Phase::GreaterTax | Phase::LesserTax, _) => {
                    g.legal_actions(scratch);
                    worst_gift(scratch)
                }
                (_, Rule::Counting) => counting(g),
                _ => guided(g),
            }
        } else {
            None
        };
        match a {
            Some(a) => a,
            None => g.random_action(rng, scratch),
        }
    }

    fn rewards(&self, g: &Dalmuti, rewards: &mut [f64]) {
        self.score(g, rewards);
    }
}

/// The Great Dalmuti's search bot.
pub type Search = SearchBot<Dalmuti, DalmutiDomain>;

/// A search bot with `budget` (default [`DEFAULT_ITERATIONS`]).
pub fn new(budget: Option<Budget>, seed: u64) -> Search {
    let domain = DalmutiDomain {
        taxes: Some(Box::new(Strong::new(seed ^ 0x7a5e5))),
        ..DalmutiDomain::default()
    };
    SearchBot::with_policy_opponents(domain, budget, DEFAULT_ITERATIONS, EXPLORATION, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The playout rule only ever names legal actions, and a finished hand
    /// rewards places in order: first 1, last 0.
    #[test]
    fn guided_playouts_are_legal_and_rewards_follow_places() {
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut guided_moves = 0;
        for seed in 0..60 {
            let opts = dalmuti::Options {
                hands: 1,
                ..dalmuti::Options::default()
            };
            let players = 4 + (seed as usize % 4);
            let mut g = Dalmuti::new(&opts, players, seed).expect("game");
            let mut d = DalmutiDomain::default();
            d.start(&g.view(game::Seat::new(0)));
            while g.to_move().is_some() {
                g.legal_actions(&mut legal);
                if let Some(a) = guided(&g) {
                    assert!(legal.contains(&a), "{a} not legal");
                    guided_moves += 1;
                }
                let a = d.policy(&g, &mut rng, &mut Vec::new());
                assert!(legal.contains(&a));
                g.apply(a).expect("legal");
            }
            assert!(d.stop(&g));
            let mut r = vec![-1.0; players];
            d.rewards(&g, &mut r);
            let order: Vec<usize> = g.finishing_order().map(|s| s.index()).collect();
            assert_eq!(order.len(), players);
            assert_eq!(r[order[0]], 1.0);
            assert_eq!(r[order[players - 1]], 0.0);
            assert!(order.windows(2).all(|w| r[w[0]] > r[w[1]]), "{r:?}");
        }
        assert!(guided_moves > 2000, "{guided_moves}");
    }

    /// The counting rule only names legal actions, and a domain drawing
    /// every rival's rule from the mixture plays legal actions for every
    /// seat, whichever rule it drew (the rules differ somewhere).
    #[test]
    fn counting_and_mixture_playouts_are_legal() {
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut counted = 0;
        let mut differ = 0;
        let mut drawn = [0usize; 3];
        for seed in 0..40 {
            let opts = dalmuti::Options {
                hands: 1 + (seed as u32 % 2),
                ..dalmuti::Options::default()
            };
            let players = 4 + (seed as usize % 4);
            let mut g = Dalmuti::new(&opts, players, seed).expect("game");
            let mut d = DalmutiDomain {
                rivals: vec![(Rule::Guided, 1), (Rule::Counting, 1), (Rule::Noisy, 1)],
                own: Rule::Counting,
                ..DalmutiDomain::default()
            };
            let me = Seat::new(seed as usize % players);
            while let Some(s) = g.to_move() {
                g.legal_actions(&mut legal);
                if let Some(a) = counting(&g) {
                    assert!(legal.contains(&a), "{a} not legal");
                    counted += 1;
                    if Some(a) != guided(&g) {
                        differ += 1;
                    }
                }
                if s == me || g.phase() != Phase::Play {
                    let v = g.view(me);
                    d.start(&v);
                    let x = d.sample(&v, &mut rng);
                    assert_eq!(x.hand(me), v.hand);
                    assert_eq!(d.rule[me.index()], Rule::Counting);
                    for o in (0..players).filter(|&o| o != me.index()) {
                        drawn[d.rule[o] as usize] += 1;
                    }
                }
                let a = d.policy(&g, &mut rng, &mut Vec::new());
                assert!(legal.contains(&a), "{a} not legal");
                g.apply(a).expect("legal");
            }
        }
        assert!(counted > 2000, "{counted}");
        assert!(differ > 50, "{differ}");
        assert!(drawn.iter().all(|&n| n > 100), "{drawn:?}");
    }

    /// With `win_only` a single hand's descent and playouts stop at the
    /// first seat out, which alone is rewarded; a session of several
    /// hands is unaffected.
    #[test]
    fn win_only_stops_at_the_first_out_of_a_single_hand() {
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for hands in [1, 3] {
            let opts = dalmuti::Options {
                hands,
                ..dalmuti::Options::default()
            };
            let mut g = Dalmuti::new(&opts, 5, 8).expect("game");
            let mut d = DalmutiDomain {
                win_only: true,
                ..DalmutiDomain::default()
            };
            d.start(&g.view(Seat::new(0)));
            while !d.stop(&g) {
                g.legal_actions(&mut legal);
                let a = d.policy(&g, &mut rng, &mut Vec::new());
                g.apply(a).expect("legal");
            }
            let out = g.finishing_order().count();
            if hands == 1 {
                assert_eq!(out, 1);
                let mut r = vec![0.0; 5];
                d.rewards(&g, &mut r);
                let first = g.finishing_order().next().expect("one out").index();
                assert_eq!(r[first], 1.0);
                assert_eq!(r.iter().sum::<f64>(), 1.0);
            } else {
                assert!(out == 5 || g.hand_number() == 2, "{out}");
            }
        }
    }

    /// The bot's gifts are `strong`'s, taken without a search (no
    /// iterations run), and the bot stays reproducible: two bots with one
    /// seed give the same gifts and plays over whole sessions.
    #[test]
    fn gifts_are_strong_s_without_a_search() {
        let opts = dalmuti::Options {
            hands: 3,
            ..dalmuti::Options::default()
        };
        let mut legal = Vec::new();
        let mut gifts = 0;
        for seed in 0..6 {
            let mut g = Dalmuti::new(&opts, 5, seed).expect("game");
            let mut a = new(Some(Budget::Iterations(60)), seed);
            let mut b = new(Some(Budget::Iterations(60)), seed);
            let mut strong = Strong::new(seed ^ 0x7a5e5);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Some(s) = g.to_move() {
                g.legal_actions(&mut legal);
                let v = g.view(s);
                let x = if s.index() == 0 {
                    let before = a.mcts.last_iterations;
                    let x = a.choose(&v, &legal);
                    assert_eq!(x, b.choose(&v, &legal));
                    let phase = g.phase();
                    if legal.len() > 1 && matches!(phase, Phase::GreaterTax | Phase::LesserTax) {
                        assert_eq!(x, strong.choose(&v, &legal));
                        assert_eq!(a.mcts.last_iterations, before);
                        gifts += 1;
                    }
                    x
                } else {
                    g.random_action(&mut rng, &mut Vec::new())
                };
                assert!(legal.contains(&x));
                g.apply(x).expect("legal");
            }
        }
        assert!(gifts > 5, "{gifts}");
    }
}
