//! A Python function as a bot: `policy(obs, mask) -> action id`, called
//! with the seat's float32 observation and int8 legal-action mask (the
//! arrays the environments give a learner), so a policy trained in them
//! plays where ladder bots play: as `Bot(policy)`, and as the opponents
//! of `VectorEnv` and the Gymnasium environments.
//!
//! A bot decides from its seat's view only. The observation is computed
//! from the view by [`Encoder`], the one the Rust `learned` bot uses:
//! [`game::Game::sample_from_view`] rebuilds a state that keeps everything
//! the view shows (the hidden rest drawn at random), and
//! [`Tensor::write_obs`] reads only what the view shows, so the vector is
//! the one the seat's real state gives. The bot takes the GIL for each
//! call, from whichever thread steps its table; a Python error, or an id
//! that is not legal, is kept for the caller to raise after the step,
//! and the bot plays the first legal action meanwhile so no table stalls.

use bots::learned::Encoder;
use bots::Bot;
use game::{Game, Tensor};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// A Python policy shared by every bot made from it, with the first
/// error any of them met.
#[derive(Clone)]
pub(crate) struct Policy {
    callable: Arc<Py<PyAny>>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl Policy {
    /// `callable` as a policy; a `TypeError` if it cannot be called.
    pub(crate) fn new(callable: &Bound<'_, PyAny>) -> PyResult<Policy> {
        if !callable.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a bot is a ladder name (random, heuristic, strong, learned, search:N) or a Python \
                 policy: a callable policy(obs, mask) -> action id",
            ));
        }
        Ok(Policy {
            callable: Arc::new(callable.clone().unbind()),
            error: Arc::new(Mutex::new(None)),
        })
    }

    /// The action id the policy chooses for `obs` and `mask`, with the GIL
    /// held; an error if it raises, returns no integer, or returns an id
    /// `mask` does not allow.
    pub(crate) fn choose(&self, py: Python<'_>, obs: &[f32], mask: &[u8]) -> PyResult<usize> {
        let o = crate::fill(py, None, obs, "float32", None)?;
        let m = crate::fill(py, None, mask, "int8", Some("uint8"))?;
        let answer = self.callable.bind(py).call1((o, m))?;
        let id: i64 = py
            .import("ratrace._checks")?
            .call_method1("action_id", (answer,))?
            .extract()?;
        usize::try_from(id)
            .ok()
            .filter(|&i| mask.get(i) == Some(&1))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "the policy chose action id {id}, which the mask does not allow"
                ))
            })
    }

    /// The first error a bot of this policy met since the last call, if
    /// any.
    pub(crate) fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn keep_error(&self, err: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(err);
        }
    }
}

/// A bot of game `G` playing a [`Policy`].
pub(crate) struct PolicyBot<G: Game> {
    policy: Policy,
    /// The view as the policy reads it: the encoder the learned bot
    /// uses too.
    encoder: Encoder<G>,
    sizes: (usize, usize),
    mask: Vec<u8>,
}

impl<G: Tensor> PolicyBot<G> {
    /// A bot for a game of these sizes (`Tensor::obs_len` and
    /// `Tensor::num_actions` of its options and starting players).
    pub(crate) fn new(policy: Policy, obs_len: usize, num_actions: usize) -> PolicyBot<G> {
        PolicyBot {
            policy,
            encoder: Encoder::default(),
            sizes: (obs_len, num_actions),
            mask: vec![0; num_actions],
        }
    }
}

impl<G: Tensor> Bot<G> for PolicyBot<G> {
    fn name(&self) -> &'static str {
        "python"
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action {
        let Some(e) = self.encoder.encode(view, legal, Some(self.sizes)) else {
            return legal[0];
        };
        self.mask.fill(0);
        for &(id, _) in e.ids {
            self.mask[id] = 1;
        }
        let chosen = Python::attach(|py| self.policy.choose(py, e.obs, &self.mask));
        match chosen {
            Ok(id) => e
                .ids
                .iter()
                .find(|&&(i, _)| i == id)
                .map_or(legal[0], |&(_, a)| a),
            Err(err) => {
                self.policy.keep_error(err);
                legal[0]
            }
        }
    }

    fn reseed(&mut self, _seed: u64) -> bool {
        // It draws nothing that changes its play.
        true
    }
}
