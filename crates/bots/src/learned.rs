//! The `learned` level: a policy network trained in Python
//! (training/train.py, through the package's `VectorEnv`) and run here,
//! with no Python at run time.
//!
//! The bot sees what every bot sees, its seat's view, and reads it through
//! the one encoder the Python package uses ([`Encoder`]: the view's state
//! rebuilt by [`Game::sample_from_view`], then [`Tensor::write_obs`], which
//! reads only what the view shows), so a network plays the same action here
//! as in Python on the same view. It takes the legal action with the largest
//! logit. A network is trained for one table size (its metadata says which);
//! at a table whose observation or action space is another size, the bot
//! plays as the `strong` level instead (its hints are then `strong`'s).
//!
//! The Big Cheese's `search` level is guided by the same network
//! ([`Guided`]): the network's probabilities over the first decision are
//! the search's root prior (AlphaZero's PUCT term, [`GUIDE_WEIGHT`]), the
//! rest of the search unchanged; `unguided` names the search without it.
//! Dalmuti's search is not guided: its network did not help it (see
//! `great_dalmuti`'s `Levels::guided`).
//!
//! The weights files are compiled in (`crates/bots/weights/`), read and
//! checked once per process ([`crate::net`]); a file that failed its checks
//! would be a bug in the build (a test reads every shipped file), and the
//! bot would then play as `strong` rather than stop a table.

use crate::net::{Mlp, Scratch};
use crate::search::{Domain, Mcts, SearchBot};
use crate::{Bot, Scored};
use game::{Game, Tensor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A view turned into what a policy reads: the observation and the action
/// id of each legal action. Shared by the learned bot and the Python
/// package's policy bots, so there is one encoder.
pub struct Encoder<G: Game> {
    obs: Vec<f32>,
    ids: Vec<(usize, G::Action)>,
    /// Draws the hidden rest of the rebuilt state, which the observation
    /// never reads.
    rng: rand::rngs::SmallRng,
}

impl<G: Tensor> Default for Encoder<G> {
    fn default() -> Self {
        Encoder {
            obs: Vec::new(),
            ids: Vec::new(),
            rng: rand::rngs::SmallRng::seed_from_u64(0),
        }
    }
}

impl<G: Tensor> Encoder<G> {
    /// Encodes `view` for the seat to move: its observation and the id of
    /// each of `legal` (those that have one), or `None` when the view has
    /// no seat to move. `obs_len` and `num_actions` are the sizes the
    /// caller expects; `None` too when the game's sizes differ.
    pub fn encode(
        &mut self,
        view: &G::View,
        legal: &[G::Action],
        sizes: Option<(usize, usize)>,
    ) -> Option<Encoded<'_, G>> {
        let state = G::sample_from_view(view, &mut self.rng);
        let seat = state.to_move()?;
        let (options, players) = (state.options(), state.players());
        let len = G::obs_len(options, players);
        let actions = G::num_actions(options, players);
        if sizes.is_some_and(|s| s != (len, actions)) {
            return None;
        }
        self.obs.clear();
        self.obs.resize(len, 0.0);
        state.write_obs(seat, &mut self.obs);
        self.ids.clear();
        self.ids.extend(legal.iter().filter_map(|&a| {
            state
                .action_id(a)
                .filter(|&id| id < actions)
                .map(|id| (id, a))
        }));
        Some(Encoded {
            obs: &self.obs,
            ids: &self.ids,
            num_actions: actions,
        })
    }
}

/// One encoded decision ([`Encoder::encode`]).
pub struct Encoded<'a, G: Game> {
    /// The seat's observation.
    pub obs: &'a [f32],
    /// Each legal action with an id, and the id.
    pub ids: &'a [(usize, G::Action)],
    /// The size of the action space.
    pub num_actions: usize,
}

/// A network with what it needs to read a view: what the learned bot
/// and the guided search share.
struct Policy<G: Game> {
    net: Option<Arc<Mlp>>,
    encoder: Encoder<G>,
    scratch: Scratch,
}

impl<G: Tensor> Policy<G> {
    fn new(net: Option<Arc<Mlp>>) -> Policy<G> {
        Policy {
            net,
            encoder: Encoder::default(),
            scratch: Scratch::default(),
        }
    }

    /// The network's logit for each legal action with an id, or `None`
    /// where the network does not fit the table.
    fn logits(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Vec<(f32, G::Action)>> {
        let net = self.net.as_ref()?;
        let e = self
            .encoder
            .encode(view, legal, Some((net.inputs(), net.outputs())))?;
        let z = net.forward(e.obs, &mut self.scratch);
        let out: Vec<(f32, G::Action)> = e.ids.iter().map(|&(id, a)| (z[id], a)).collect();
        (!out.is_empty()).then_some(out)
    }
}

/// The softmax of `scored`'s logits, in its order.
fn softmax<A: Copy>(scored: &[(f32, A)]) -> Vec<(A, f64)> {
    let top = scored.iter().map(|s| s.0).fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = scored
        .iter()
        .map(|s| f64::from(libm::expf(s.0 - top)))
        .sum();
    scored
        .iter()
        .map(|&(z, a)| (a, f64::from(libm::expf(z - top)) / sum))
        .collect()
}

/// A bot that plays a policy network's most likely legal action.
pub struct LearnedBot<G: Game> {
    policy: Policy<G>,
    /// Plays where the network cannot: another table size.
    fallback: Box<dyn Bot<G>>,
}

impl<G: Tensor> LearnedBot<G> {
    /// A bot playing `net` (`None`: the fallback always), and `fallback`
    /// where the network does not fit the table.
    pub fn new(net: Option<Arc<Mlp>>, fallback: Box<dyn Bot<G>>) -> LearnedBot<G> {
        LearnedBot {
            policy: Policy::new(net),
            fallback,
        }
    }
}

impl<G: Tensor> Bot<G> for LearnedBot<G> {
    fn name(&self) -> &'static str {
        "learned"
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            // Still shown to the fallback, which may learn from every view.
            return self.fallback.choose(view, legal);
        }
        match self.policy.logits(view, legal) {
            // The first of the largest, as numpy's argmax.
            Some(scored) => {
                let mut best = scored[0];
                for &(z, a) in &scored[1..] {
                    if z > best.0 {
                        best = (z, a);
                    }
                }
                best.1
            }
            None => self.fallback.choose(view, legal),
        }
    }

    /// The network's probabilities for the legal actions (its softmax over
    /// them), best first; the fallback's values where it plays.
    fn evaluate(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Vec<Scored<G::Action>>> {
        let Some(scored) = self.policy.logits(view, legal) else {
            return self.fallback.evaluate(view, legal);
        };
        let mut out: Vec<Scored<G::Action>> = softmax(&scored)
            .into_iter()
            .map(|(action, value)| Scored {
                action,
                value,
                visits: 0,
            })
            .collect();
        out.sort_by(|a, b| b.value.total_cmp(&a.value));
        Some(out)
    }

    fn reseed(&mut self, seed: u64) -> bool {
        // The network draws nothing; the fallback must be reseeded too.
        self.fallback.reseed(seed)
    }
}

/// Reads compiled-in weights: the network, or `None` if the file fails
/// its checks (a test checks that every shipped file passes).
pub fn load(bytes: &[u8]) -> Option<Arc<Mlp>> {
    Mlp::from_bytes(bytes).ok().map(Arc::new)
}

/// The networks given at run time, by game name: a build without the
/// compiled-in files (no `weights` feature: the browser's engine, which
/// fetches a file only when the level plays) is given them here.
static GIVEN: std::sync::Mutex<Vec<(&'static str, Arc<Mlp>)>> = std::sync::Mutex::new(Vec::new());

/// Gives game `game` (its [`Game::NAME`]) the network in `bytes`, in
/// place of the one before. Fails, giving nothing, on a file that fails
/// its checks.
pub fn give(game: &'static str, bytes: &[u8]) -> Result<(), crate::net::NetError> {
    let net = Arc::new(Mlp::from_bytes(bytes)?);
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    given.retain(|(g, _)| *g != game);
    given.push((game, net));
    Ok(())
}

/// The network given to `game` ([`give`]), if any.
pub fn given(game: &str) -> Option<Arc<Mlp>> {
    let given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    given
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, n)| n.clone())
}

/// The weight of the network's prior in the guided search's root
/// selection ([`Mcts::prior_weight`]). Measured against three `strong`
/// Big Cheese bots over the same 150 deals (600 games each, default
/// budget): 1: 36.0%, 4: 37.0%, 8: 37.7% first places (the network alone
/// 36.6%, the unguided search 33.7% over 2,000 games). Narrowing the root
/// to the network's top 2 or 3 actions instead gave 33.0%.
pub const GUIDE_WEIGHT: f64 = 8.0;

/// A search domain guided by a policy network: the network's
/// probabilities over the searching seat's first decision are the
/// search's root prior ([`Domain::root_prior`]). Everything else is the
/// inner domain's. Where the network does not fit the table, the search
/// is the inner one's alone.
pub struct Guided<G: Game, D> {
    /// The unguided domain.
    pub inner: D,
    policy: Policy<G>,
    /// The prior of the current search, by action.
    prior: Vec<(G::Action, f64)>,
}

impl<G: Game, D> std::fmt::Debug for Guided<G, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guided")
            .field("net", &self.policy.net.is_some())
            .finish_non_exhaustive()
    }
}

impl<G: Tensor, D: Domain<G>> Guided<G, D> {
    /// Guides `inner` by `net` (`None`: not at all).
    pub fn new(inner: D, net: Option<Arc<Mlp>>) -> Guided<G, D> {
        Guided {
            inner,
            policy: Policy::new(net),
            prior: Vec::new(),
        }
    }

    /// The network's softmax over `legal` (0 for an action with no id),
    /// into `self.prior`; empty where the network does not fit.
    fn compute(&mut self, view: &G::View, legal: &[G::Action]) {
        self.prior.clear();
        let Some(scored) = self.policy.logits(view, legal) else {
            return;
        };
        let probs = softmax(&scored);
        self.prior.extend(legal.iter().map(|&a| {
            let p = probs.iter().find(|x| x.0 == a).map_or(0.0, |x| x.1);
            (a, p)
        }));
    }
}

impl<G: Tensor, D: Domain<G>> Domain<G> for Guided<G, D>
where
    G::Action: Send,
{
    fn start(&mut self, view: &G::View) {
        self.inner.start(view);
    }

    fn observe(&mut self, view: &G::View) {
        self.inner.observe(view);
    }

    fn root_actions(&mut self, view: &G::View, legal: &[G::Action], keep: &mut Vec<G::Action>) {
        self.inner.root_actions(view, legal, keep);
    }

    fn root_prior(&mut self, view: &G::View, legal: &[G::Action], prior: &mut Vec<f64>) {
        self.compute(view, legal);
        if self.prior.len() == legal.len() {
            prior.extend(self.prior.iter().map(|x| x.1));
        }
    }

    fn begin(&mut self, rng: &mut ChaCha8Rng) {
        self.inner.begin(rng);
    }

    fn sample(&mut self, view: &G::View, rng: &mut ChaCha8Rng) -> G {
        self.inner.sample(view, rng)
    }

    fn stop(&self, state: &G) -> bool {
        self.inner.stop(state)
    }

    fn policy(
        &mut self,
        state: &G,
        rng: &mut ChaCha8Rng,
        scratch: &mut Vec<G::Action>,
    ) -> G::Action {
        self.inner.policy(state, rng, scratch)
    }

    fn decide(&mut self, view: &G::View, legal: &[G::Action]) -> Option<G::Action> {
        self.inner.decide(view, legal)
    }

    fn horizon(&self) -> u32 {
        self.inner.horizon()
    }

    fn rewards(&self, state: &G, rewards: &mut [f64]) {
        self.inner.rewards(state, rewards);
    }
}

/// `search` guided by `net`: the same domain, budget, exploration and
/// opponent model, with the network's root prior at `weight`.
pub fn guide<G: Tensor, D: Domain<G>>(
    search: SearchBot<G, D>,
    net: Option<Arc<Mlp>>,
    weight: f64,
    seed: u64,
) -> SearchBot<G, Guided<G, D>>
where
    G::Action: Send,
{
    let Mcts {
        domain,
        budget,
        exploration,
        opponents_by_policy,
        ..
    } = search.mcts;
    let mut bot = SearchBot::new(Guided::new(domain, net), budget, exploration, seed);
    bot.mcts.opponents_by_policy = opponents_by_policy;
    bot.mcts.prior_weight = weight;
    bot
}
