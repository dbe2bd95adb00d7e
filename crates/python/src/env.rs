//! The Python class `VectorEnv` over [`crate::vector`]: it owns its numpy
//! arrays (made once, at construction) and refreshes them after each
//! `reset` and `step`, so a training loop reads the same arrays every
//! time and nothing is allocated per step on the Python side.

use crate::args::{opt, Nat};
use crate::vector::{self, DynVector};
use crate::{buffer_of, options_of, zeros, IllegalAction, SetupError};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

/// The arrays Python reads.
struct Out {
    observations: Py<PyAny>,
    action_masks: Py<PyAny>,
    rewards: Py<PyAny>,
    terminated: Py<PyAny>,
    truncated: Py<PyAny>,
    to_move: Py<PyAny>,
    seats: Py<PyAny>,
    teacher_actions: Py<PyAny>,
    teacher_policies: Py<PyAny>,
    /// The buffers Rust writes them through, one set per part of the
    /// tables (each over that part's rows).
    parts: Vec<PartOut>,
}

impl Out {
    /// Copies every part's rows into the numpy arrays.
    fn refresh(&self, py: Python<'_>, inner: &dyn DynVector) -> PyResult<()> {
        for (i, part) in self.parts.iter().enumerate() {
            part.refresh(py, inner, i)?;
        }
        Ok(())
    }
}

/// One part's rows of the arrays, as buffers.
struct PartOut {
    obs: PyBuffer<f32>,
    mask: PyBuffer<u8>,
    rew: PyBuffer<f32>,
    term: PyBuffer<u8>,
    trunc: PyBuffer<u8>,
    moving: PyBuffer<i64>,
    seat: PyBuffer<i64>,
    teach: PyBuffer<i64>,
    /// `None` without a teacher (the array has no columns).
    policy: Option<PyBuffer<f32>>,
}

impl PartOut {
    /// Buffers over rows `rows` of the arrays.
    fn new(py: Python<'_>, out: &Out, rows: &std::ops::Range<usize>) -> PyResult<PartOut> {
        let slice = pyo3::types::PySlice::new(py, rows.start as isize, rows.end as isize, 1);
        let rows_of = |array: &Py<PyAny>| array.bind(py).get_item(&slice);
        Ok(PartOut {
            obs: buffer_of(&rows_of(&out.observations)?, None)?,
            mask: buffer_of(&rows_of(&out.action_masks)?, Some("uint8"))?,
            rew: buffer_of(&rows_of(&out.rewards)?, None)?,
            term: buffer_of(&rows_of(&out.terminated)?, Some("uint8"))?,
            trunc: buffer_of(&rows_of(&out.truncated)?, Some("uint8"))?,
            moving: buffer_of(&rows_of(&out.to_move)?, None)?,
            seat: buffer_of(&rows_of(&out.seats)?, None)?,
            teach: buffer_of(&rows_of(&out.teacher_actions)?, None)?,
            policy: if out
                .teacher_policies
                .bind(py)
                .getattr("size")?
                .extract::<usize>()?
                > 0
            {
                Some(buffer_of(&rows_of(&out.teacher_policies)?, None)?)
            } else {
                None
            },
        })
    }

    /// Copies part `i`'s rows of `inner`'s arrays into the numpy arrays.
    fn refresh(&self, py: Python<'_>, inner: &dyn DynVector, i: usize) -> PyResult<()> {
        let mut result = Ok(());
        inner.with_arrays(i, &mut |a| result = self.copy(py, &a));
        result
    }

    fn copy(&self, py: Python<'_>, a: &vector::Arrays<'_>) -> PyResult<()> {
        self.obs.copy_from_slice(py, a.obs)?;
        self.mask.copy_from_slice(py, a.mask)?;
        self.rew.copy_from_slice(py, a.rewards)?;
        self.term.copy_from_slice(py, a.terminated)?;
        self.trunc.copy_from_slice(py, a.truncated)?;
        self.moving.copy_from_slice(py, a.to_move)?;
        self.seat.copy_from_slice(py, a.seats)?;
        self.teach.copy_from_slice(py, a.teach)?;
        if let Some(policy) = &self.policy {
            policy.copy_from_slice(py, a.policy)?;
        }
        Ok(())
    }
}

/// N tables of one game stepped in Rust (see docs/python.md).
///
/// `VectorEnv(game, num_envs, players=None, options=None, opponents=None,
/// seat=0, seed=0, threads=None, autoreset=True, max_actions=100_000,
/// teacher=None)`.
/// Arrays, refreshed in place by `reset` and `step`:
/// `observations` (N, observation_size) float32, `action_masks`
/// (N, num_actions) int8, `rewards` (N, max_players) float32 (each seat's
/// return on the step an episode ends, else 0), `terminated` and
/// `truncated` (N,) bool, `to_move` (N,) int64 (the seat whose decision
/// the observation and mask are for; -1 when none), `seats` (N,) int64
/// (the learner's seat, against bots), `teacher_actions` (N,) int64 (the
/// `teacher` bot's choice for the decision at hand, -1 when none),
/// `teacher_policies` (N, num_actions) float32 with a teacher, (N, 0)
/// without (the share of the search's root visits per action id, or 1 at
/// the teacher's choice when no search made it; 0 when no decision).
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
        self.out.refresh(py, &**self.inner())
    }
}

/// Reads the `opponents` argument: `None` (self-play), a ladder bot's
/// name, or a Python policy `policy(obs, mask) -> action id`.
fn opponents_of(opponents: Option<&Bound<'_, PyAny>>) -> PyResult<Option<vector::Opponents>> {
    let Some(o) = opponents.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(spec) = o.extract::<String>() {
        return Ok(Some(vector::Opponents::Bots(spec)));
    }
    if o.is_callable() {
        return Ok(Some(vector::Opponents::Policy(crate::policy::Policy::new(
            o,
        )?)));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "opponents is a bot name (random, heuristic, strong, learned, search:N), a policy \
         policy(obs, mask) -> action id, or None for self-play",
    ))
}

/// Reads one action id per table (`n` of them) as `i64`s. A contiguous
/// 1-d int64 array of `n` ids, the common case, is read as it is; anything
/// else goes through `ratrace._checks.action_ids`, which refuses a wrong
/// shape and non-integer values with a clear `ValueError`.
fn action_ids(py: Python<'_>, values: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    if let Ok(buffer) = PyBuffer::<i64>::get(values) {
        if buffer.is_c_contiguous() && buffer.shape() == [n] {
            return buffer.to_vec(py);
        }
    }
    let array = py
        .import("ratrace._checks")?
        .call_method1("action_ids", (values, n))?;
    PyBuffer::<i64>::get(&array)?.to_vec(py)
}

/// Reads one seed per table (`n` of them), each in `0..2**64`, through
/// `ratrace._checks.seeds` (errors as [`action_ids`]).
fn seeds(py: Python<'_>, values: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u64>> {
    let array = py
        .import("ratrace._checks")?
        .call_method1("seeds", (values, n))?;
    PyBuffer::<u64>::get(&array)?.to_vec(py)
}

/// Reads table indices (each in `0..n`, at most `n` of them) through
/// `ratrace._checks.indices` (errors as [`action_ids`]).
fn indices(py: Python<'_>, values: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
    let array = py
        .import("ratrace._checks")?
        .call_method1("indices", (values, n))?;
    let v = PyBuffer::<i64>::get(&array)?.to_vec(py)?;
    Ok(v.into_iter().map(|i| i as usize).collect())
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, players=None, options=None, opponents=None, seat=Nat(0), seed=Nat(0), threads=None, autoreset=true, max_actions=Nat(100_000), teacher=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: Nat<usize>,
        players: Option<Nat<usize>>,
        options: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Nat<usize>,
        seed: Nat<u64>,
        threads: Option<Nat<usize>>,
        autoreset: bool,
        max_actions: Nat<u64>,
        teacher: Option<String>,
    ) -> PyResult<VectorEnv> {
        let (Nat(num_envs), Nat(seat), Nat(seed), Nat(max_actions)) =
            (num_envs, seat, seed, max_actions);
        let (players, threads) = (opt(players), opt(threads));
        let opponents = opponents_of(opponents)?;
        let pairs = options_of(options)?;
        let threads = analysis::all_cores_unless(threads);
        let taught = teacher.is_some();
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
                        teacher,
                    },
                )
            })
            .map_err(SetupError::new_err)?;
        if let Some(err) = inner.policy_error() {
            return Err(err);
        }
        let (n, p) = (inner.num_envs(), inner.max_players());
        let observations = zeros(py, (n, inner.obs_len()), "float32")?;
        let action_masks = zeros(py, (n, inner.num_actions()), "int8")?;
        let rewards = zeros(py, (n, p), "float32")?;
        let terminated = zeros(py, n, "bool")?;
        let truncated = zeros(py, n, "bool")?;
        let to_move = zeros(py, n, "int64")?;
        let seats = zeros(py, n, "int64")?;
        let teacher_actions = zeros(py, n, "int64")?;
        let policy_cols = if taught { inner.num_actions() } else { 0 };
        let teacher_policies = zeros(py, (n, policy_cols), "float32")?;
        let mut out = Out {
            parts: Vec::new(),
            observations: observations.unbind(),
            action_masks: action_masks.unbind(),
            rewards: rewards.unbind(),
            terminated: terminated.unbind(),
            truncated: truncated.unbind(),
            to_move: to_move.unbind(),
            seats: seats.unbind(),
            teacher_actions: teacher_actions.unbind(),
            teacher_policies: teacher_policies.unbind(),
        };
        out.parts = inner
            .parts()
            .iter()
            .map(|rows| PartOut::new(py, &out, rows))
            .collect::<PyResult<_>>()?;
        let env = VectorEnv {
            inner: Mutex::new(inner),
            out,
        };
        env.refresh(py)?;
        Ok(env)
    }

    /// Deals every table again, table `i` from `seeds[i]` (its later
    /// episodes from seeds derived from it); with `indices`, only tables
    /// `indices[k]`, from `seeds[k]`, and the others keep their state and
    /// arrays. A bad seed or index raises `ValueError` and deals nothing.
    #[pyo3(signature = (seeds, indices=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: &Bound<'_, PyAny>,
        indices: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let n = self.inner().num_envs();
        let indices = match indices.filter(|i| !i.is_none()) {
            Some(i) => Some(self::indices(py, i, n)?),
            None => None,
        };
        let seeds = self::seeds(py, seeds, indices.as_ref().map_or(n, Vec::len))?;
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        py.detach(|| inner.reset(&seeds, indices.as_deref()))
            .map_err(PyValueError::new_err)?;
        self.refresh(py)?;
        self.inner().policy_error().map_or(Ok(()), Err)
    }

    /// Plays `actions[i]` (an action id) at table `i`, for every table;
    /// then the bots, the ends of episodes and, with `autoreset`, new
    /// deals. One illegal action raises `IllegalAction` and no table moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = action_ids(py, actions, self.inner().num_envs())?;
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        if inner.calls_python() {
            // The workers call the opponents' policy: they need the GIL.
            py.detach(|| inner.step(&actions, &mut |_, _| {}))
                .map_err(IllegalAction::new_err)?;
            self.out.refresh(py, &**inner)?;
        } else {
            // The workers step in Rust alone; this thread keeps the GIL
            // and copies each part into the arrays as soon as it is
            // stepped, while they step the others.
            let mut copied = Ok(());
            let parts = &self.out.parts;
            inner
                .step(&actions, &mut |i, a| {
                    if copied.is_ok() {
                        copied = parts[i].copy(py, &a);
                    }
                })
                .map_err(IllegalAction::new_err)?;
            copied?;
        }
        inner.policy_error().map_or(Ok(()), Err)
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
    fn set_seat(&mut self, py: Python<'_>, table: Nat<usize>, seat: Nat<usize>) -> PyResult<()> {
        self.inner()
            .set_seat(table.0, seat.0)
            .map_err(PyValueError::new_err)?;
        self.refresh(py)
    }

    /// The text board of table `table` as `seat` sees it (`None`: a
    /// spectator).
    #[pyo3(signature = (table, seat=None))]
    fn render(&self, table: Nat<usize>, seat: Option<Nat<usize>>) -> PyResult<String> {
        self.inner()
            .render(table.0, opt(seat))
            .map_err(PyValueError::new_err)
    }

    /// The threads that step the tables, the caller's included: `threads`
    /// as given (default: every core), or 1 below 64 tables, where a step
    /// is too short to share.
    #[getter]
    fn threads(&self) -> usize {
        self.inner().threads()
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
    fn teacher_actions(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.teacher_actions.clone_ref(py)
    }

    #[getter]
    fn teacher_policies(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.teacher_policies.clone_ref(py)
    }

    #[getter]
    fn seats(&self, py: Python<'_>) -> Py<PyAny> {
        self.out.seats.clone_ref(py)
    }
}
