//! The Python class `VectorEnv` over [`crate::vector`]: it owns its numpy
//! arrays (made once, at construction) and refreshes them after each
//! `reset` and `step`, so a training loop reads the same arrays every
//! time and nothing is allocated per step on the Python side.

use crate::vector::{self, DynVector};
use crate::{buffer_of, options_of, zeros, IllegalAction, SetupError};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

/// The arrays Python reads, and the buffers Rust writes them through.
struct Out {
    observations: Py<PyAny>,
    action_masks: Py<PyAny>,
    rewards: Py<PyAny>,
    terminated: Py<PyAny>,
    truncated: Py<PyAny>,
    to_move: Py<PyAny>,
    seats: Py<PyAny>,
    obs: PyBuffer<f32>,
    mask: PyBuffer<u8>,
    rew: PyBuffer<f32>,
    term: PyBuffer<u8>,
    trunc: PyBuffer<u8>,
    moving: PyBuffer<i64>,
    seat: PyBuffer<i64>,
}

/// N tables of one game stepped in Rust (see docs/python.md).
///
/// `VectorEnv(game, num_envs, players=None, options=None, opponents=None,
/// seat=0, seed=0, threads=None, autoreset=True, max_actions=100_000)`.
/// Arrays, refreshed in place by `reset` and `step`:
/// `observations` (N, observation_size) float32, `action_masks`
/// (N, num_actions) int8, `rewards` (N, max_players) float32 (each seat's
/// return on the step an episode ends, else 0), `terminated` and
/// `truncated` (N,) bool, `to_move` (N,) int64 (the seat whose decision
/// the observation and mask are for; -1 when none), `seats` (N,) int64
/// (the learner's seat, against bots).
#[pyclass(module = "ratrace._ratrace")]
pub struct VectorEnv {
    /// Behind a mutex only because a Python class must be `Sync` and bots
    /// are not; PyO3's borrow already makes each call exclusive.
    inner: Mutex<Box<dyn DynVector>>,
    out: Out,
}

impl VectorEnv {
    fn inner(&self) -> MutexGuard<'_, Box<dyn DynVector>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn refresh(&self, py: Python<'_>) -> PyResult<()> {
        let inner = self.inner();
        let a = inner.arrays();
        let o = &self.out;
        o.obs.copy_from_slice(py, a.obs)?;
        o.mask.copy_from_slice(py, a.mask)?;
        o.rew.copy_from_slice(py, a.rewards)?;
        o.term.copy_from_slice(py, a.terminated)?;
        o.trunc.copy_from_slice(py, a.truncated)?;
        o.moving.copy_from_slice(py, a.to_move)?;
        o.seat.copy_from_slice(py, a.seats)?;
        Ok(())
    }
}

/// Reads a list or array of ints as `i64`s.
fn ints(py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    // The common case, a contiguous int64 array, is read as it is.
    if let Ok(buffer) = PyBuffer::<i64>::get(values) {
        if buffer.is_c_contiguous() {
            return buffer.to_vec(py);
        }
    }
    let array = py
        .import("numpy")?
        .call_method1("ascontiguousarray", (values, "int64"))
        .map_err(|e| PyValueError::new_err(format!("expected a list or array of ints: {e}")))?;
    PyBuffer::<i64>::get(&array)?.to_vec(py)
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, players=None, options=None, opponents=None, seat=0, seed=0, threads=None, autoreset=true, max_actions=100_000))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: usize,
        players: Option<usize>,
        options: Option<&Bound<'_, PyAny>>,
        opponents: Option<String>,
        seat: usize,
        seed: u64,
        threads: Option<usize>,
        autoreset: bool,
        max_actions: u64,
    ) -> PyResult<VectorEnv> {
        let pairs = options_of(options)?;
        let threads = analysis::all_cores_unless(threads);
        let inner = py
            .detach(|| {
                vector::make(
                    game,
                    &pairs,
                    vector::Config {
                        num_envs,
                        players,
                        opponents,
                        seat,
                        seed,
                        threads,
                        autoreset,
                        max_actions,
                    },
                )
            })
            .map_err(SetupError::new_err)?;
        let (n, p) = (inner.num_envs(), inner.max_players());
        let observations = zeros(py, (n, inner.obs_len()), "float32")?;
        let action_masks = zeros(py, (n, inner.num_actions()), "int8")?;
        let rewards = zeros(py, (n, p), "float32")?;
        let terminated = zeros(py, n, "bool")?;
        let truncated = zeros(py, n, "bool")?;
        let to_move = zeros(py, n, "int64")?;
        let seats = zeros(py, n, "int64")?;
        let out = Out {
            obs: buffer_of(&observations, None)?,
            mask: buffer_of(&action_masks, Some("uint8"))?,
            rew: buffer_of(&rewards, None)?,
            term: buffer_of(&terminated, Some("uint8"))?,
            trunc: buffer_of(&truncated, Some("uint8"))?,
            moving: buffer_of(&to_move, None)?,
            seat: buffer_of(&seats, None)?,
            observations: observations.unbind(),
            action_masks: action_masks.unbind(),
            rewards: rewards.unbind(),
            terminated: terminated.unbind(),
            truncated: truncated.unbind(),
            to_move: to_move.unbind(),
            seats: seats.unbind(),
        };
        let env = VectorEnv {
            inner: Mutex::new(inner),
            out,
        };
        env.refresh(py)?;
        Ok(env)
    }

    /// Deals every table again, table `i` from `seeds[i]` (its later
    /// episodes from seeds derived from it).
    fn reset(&mut self, py: Python<'_>, seeds: &Bound<'_, PyAny>) -> PyResult<()> {
        let seeds: Vec<u64> = ints(py, seeds)?.into_iter().map(|s| s as u64).collect();
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        py.detach(|| inner.reset(&seeds))
            .map_err(PyValueError::new_err)?;
        self.refresh(py)
    }

    /// Plays `actions[i]` (an action id) at table `i`, for every table;
    /// then the bots, the ends of episodes and, with `autoreset`, new
    /// deals. One illegal action raises `IllegalAction` and no table moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = ints(py, actions)?;
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        py.detach(|| inner.step(&actions))
            .map_err(IllegalAction::new_err)?;
        self.refresh(py)
    }

    /// A uniformly random legal action id for every table (-1 where there
    /// is no decision), drawn in Rust from a generator seeded by the env's
    /// `seed`: exploration and baselines without a numpy draw per action.
    fn sample_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut inner = self.inner();
        let mut out = vec![0i64; inner.num_envs()];
        inner.sample_actions(&mut out);
        crate::fill(py, None, &out, "int64", None)
    }

    /// Seats the learner of table `table` at `seat` from its next deal.
    fn set_seat(&mut self, py: Python<'_>, table: usize, seat: usize) -> PyResult<()> {
        self.inner()
            .set_seat(table, seat)
            .map_err(PyValueError::new_err)?;
        self.refresh(py)
    }

    /// The text board of table `table` as `seat` sees it (`None`: a
    /// spectator).
    #[pyo3(signature = (table, seat=None))]
    fn render(&self, table: usize, seat: Option<usize>) -> PyResult<String> {
        self.inner()
            .render(table, seat)
            .map_err(PyValueError::new_err)
    }

    /// Number of tables.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner().num_envs()
    }

    /// Seats per table at the start.
    #[getter]
    fn players(&self) -> usize {
        self.inner().players()
    }

    /// The most seats a table can reach (Dalmuti joins, D13): the width
    /// of `rewards`.
    #[getter]
    fn max_players(&self) -> usize {
        self.inner().max_players()
    }

    /// The length of one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner().obs_len()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner().num_actions()
    }

    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.observations.clone_ref(py)
    }

    #[getter]
    fn action_masks(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.action_masks.clone_ref(py)
    }

    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.rewards.clone_ref(py)
    }

    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.terminated.clone_ref(py)
    }

    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.truncated.clone_ref(py)
    }

    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.to_move.clone_ref(py)
    }

    #[getter]
    fn seats(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.seats.clone_ref(py)
    }
}
