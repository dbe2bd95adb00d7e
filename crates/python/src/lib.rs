//! `ratrace._ratrace`: the extension module behind the Python package
//! `ratrace` (the Python half lives in `crates/python/python/ratrace`).
//!
//! It is a thin shell, like the CLI and the server: the rules, bots and
//! statistics are the workspace's crates, reached through one object-safe
//! trait (`table::DynGame`) so each Python method is written once for
//! both games. Structured values (views, events, outcomes, reports) cross
//! as JSON text that the Python side turns into dicts; the hot paths
//! (observations, masks, the vector env) write numpy arrays in place
//! through the buffer protocol. Every error from outside is a Python
//! exception naming what was wrong; nothing here panics on bad input.

use game::{Record, Seed};
use pyo3::buffer::PyBuffer;
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::any::Any;
use std::sync::Mutex;

mod args;
mod env;
mod infostate;
mod observe;
mod policy;
mod pool;
mod runs;
mod table;
mod vector;

use args::{opt, Nat};
use table::DynGame;

create_exception!(
    _ratrace,
    IllegalAction,
    PyValueError,
    "An action the rules refuse; the message names the rule."
);
create_exception!(
    _ratrace,
    SetupError,
    PyValueError,
    "A game that cannot be set up: an unknown game, option, seed or player count."
);
create_exception!(
    _ratrace,
    RecordError,
    PyValueError,
    "A record that cannot be read or replayed."
);

/// Reads a seed given as an int (a legacy 64-bit seed), as text (64 hex
/// digits, or a number), or `None` (a fresh random one).
fn seed_of(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Seed> {
    let Some(seed) = seed.filter(|s| !s.is_none()) else {
        return Ok(Seed::Legacy(rand::random::<u64>()));
    };
    if let Ok(n) = seed.extract::<u64>() {
        return Ok(Seed::Legacy(n));
    }
    if let Ok(text) = seed.extract::<String>() {
        return text
            .parse::<Seed>()
            .map_err(|e| SetupError::new_err(e.to_string()));
    }
    Err(SetupError::new_err(
        "a seed is a non-negative int below 2**64 or text (64 hex digits)",
    ))
}

/// Reads options given as a dict `{key: value}`, as `"key=value,..."`
/// text, or `None` (the defaults).
fn options_of(options: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(String, String)>> {
    let Some(options) = options.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(text) = options.extract::<String>() {
        return text
            .split([',', ' '])
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                p.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| {
                        SetupError::new_err(format!("`{p}` is not of the form key=value"))
                    })
            })
            .collect();
    }
    if let Ok(dict) = options.cast::<pyo3::types::PyDict>() {
        let mut pairs = Vec::new();
        for (k, v) in dict.iter() {
            let key: String = k
                .extract()
                .map_err(|_| SetupError::new_err("option keys are text"))?;
            let value = if let Ok(b) = v.extract::<bool>() {
                if b { "on" } else { "off" }.to_string()
            } else {
                v.str()?.to_string()
            };
            pairs.push((key, value));
        }
        return Ok(pairs);
    }
    Err(SetupError::new_err(
        "options are a dict {key: value} or text \"key=value,key=value\"",
    ))
}

/// A new zeroed numpy array.
fn zeros<'py>(
    py: Python<'py>,
    shape: impl IntoPyObject<'py>,
    dtype: &str,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.call_method1("zeros", (shape, dtype))
}

/// The buffer of `array` seen as elements of type `T` (a numpy `int8` or
/// `bool` array is written through its `uint8` view).
fn buffer_of<T: pyo3::buffer::Element>(
    array: &Bound<'_, PyAny>,
    view_as: Option<&str>,
) -> PyResult<PyBuffer<T>> {
    match view_as {
        Some(dtype) => PyBuffer::get(&array.call_method1("view", (dtype,))?),
        None => PyBuffer::get(array),
    }
}

/// Copies `data` into a numpy array given by the caller or made here;
/// a wrong shape or dtype is a `ValueError` naming what was expected.
fn fill<'py, T: pyo3::buffer::Element + Copy>(
    py: Python<'py>,
    out: Option<Bound<'py, PyAny>>,
    data: &[T],
    dtype: &str,
    view_as: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let out = match out.filter(|o| !o.is_none()) {
        Some(o) => o,
        None => zeros(py, data.len(), dtype)?,
    };
    let buffer = buffer_of::<T>(&out, view_as).map_err(|e| {
        PyValueError::new_err(format!(
            "out must be a writable, contiguous numpy array of {} {dtype}: {e}",
            data.len()
        ))
    })?;
    buffer.copy_from_slice(py, data).map_err(|e| {
        PyValueError::new_err(format!("out must hold {} {dtype} values: {e}", data.len()))
    })?;
    Ok(out)
}

fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// One game of The Big Cheese or The Great Dalmuti.
#[pyclass(module = "ratrace._ratrace")]
pub struct Game {
    inner: Box<dyn DynGame>,
}

impl Game {
    fn seat(&self, seat: i64) -> PyResult<usize> {
        let players = self.inner.players();
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < players)
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "seat {seat} does not exist: this game has seats 0..{players}"
                ))
            })
    }
}

#[pymethods]
impl Game {
    /// `Game(name, players=None, options=None, seed=None)`.
    #[new]
    #[pyo3(signature = (name, players=None, options=None, seed=None))]
    fn new(
        name: &str,
        players: Option<Nat<usize>>,
        options: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let players = opt(players);
        let pairs = options_of(options)?;
        let seed = seed_of(seed)?;
        let inner = table::start(name, &pairs, players, seed).map_err(SetupError::new_err)?;
        Ok(Game { inner })
    }

    /// The game's machine name: `bigcheese` or `dalmuti`.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The rules version records carry.
    #[getter]
    fn rules_version(&self) -> &'static str {
        self.inner.rules_version()
    }

    /// Number of seats now.
    #[getter]
    fn players(&self) -> usize {
        self.inner.players()
    }

    /// The options as `{key: value}` text.
    #[getter]
    fn options(&self) -> std::collections::BTreeMap<String, String> {
        self.inner.options().into_iter().collect()
    }

    /// The seed, as records write it. Whoever holds this object is the
    /// referee: never show it to a player before the game ends.
    #[getter]
    fn seed(&self) -> String {
        self.inner.seed()
    }

    /// Whose turn as the table may know it: `None` when the game is over,
    /// and while a secret decision is pending (D7, the revolution).
    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.inner.to_move()
    }

    /// Who must act now, secret decisions included (for referees and
    /// environments; not for the other players' eyes).
    #[getter]
    fn actor(&self) -> Option<usize> {
        self.inner.actor()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.actor().is_none()
    }

    /// The actor's legal actions, as text.
    fn legal_actions(&self) -> Vec<String> {
        self.inner.legal()
    }

    /// Plays `action` (text) for `seat` (default: the actor). An illegal
    /// action raises `IllegalAction` naming the rule, and changes nothing.
    #[pyo3(signature = (action, seat=None))]
    fn apply(&mut self, action: &str, seat: Option<i64>) -> PyResult<()> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        self.inner
            .apply_text(seat, action)
            .map_err(IllegalAction::new_err)
    }

    /// What `seat` sees, as a dict.
    fn view<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        loads(py, &self.inner.view_json(seat))
    }

    /// What a spectator sees, as a dict.
    fn public_view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.inner.public_view_json())
    }

    /// The text board `seat` sees (`None`: a spectator's).
    #[pyo3(signature = (seat=None))]
    fn render(&self, seat: Option<i64>) -> PyResult<String> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        Ok(self.inner.view_text(seat))
    }

    /// The events `seat` may see (`None`: the public ones), from log index
    /// `start` on: dicts with `index`, `kind`, `text`, `private`, `event`.
    #[pyo3(signature = (seat=None, start=0))]
    fn events<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
        start: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        loads(py, &self.inner.events_json(seat, start))
    }

    /// The result once the game is over (`None` before): winners, places
    /// (1 = first), scores, and whether a length cap stopped it.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.inner.outcome() {
            None => Ok(None),
            Some(o) => {
                let text =
                    serde_json::to_string(&o).map_err(|e| PyValueError::new_err(e.to_string()))?;
                loads(py, &text).map(Some)
            }
        }
    }

    /// Each seat's return once the game is over: 1 for first place down
    /// to -1 for last, linear in the place (tied seats share a place).
    /// Before the end there is none: `ValueError` (read `is_over` first;
    /// a game stopped by a length cap is never over, and its returns are
    /// 0 by convention).
    fn returns(&self) -> PyResult<Vec<f64>> {
        match self.inner.outcome() {
            Some(o) => Ok(o.returns().collect()),
            None => Err(PyValueError::new_err(format!(
                "the game is not over ({} actions played): returns exist once `is_over` is true",
                self.inner.actions_played()
            ))),
        }
    }

    /// The size of the fixed action space: ids are `0..num_actions`
    /// (layout in docs/python.md).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The length of an observation vector.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.obs_len()
    }

    /// The most seats this game can reach: `players` at the start, more
    /// when Dalmuti newcomers join between hands (D13).
    #[getter]
    fn max_players(&self) -> usize {
        self.inner.max_players()
    }

    /// The actor's legal actions, as ids.
    fn legal_ids(&self) -> Vec<usize> {
        self.inner.legal_ids()
    }

    /// The text of action id `id` (`None` if it names no action).
    fn action_text(&self, id: Nat<usize>) -> Option<String> {
        self.inner.action_text(id.0)
    }

    /// The id of an action given as text.
    fn action_id(&self, action: &str) -> PyResult<usize> {
        self.inner.action_id(action).map_err(IllegalAction::new_err)
    }

    /// Plays action id `id` for `seat` (default: the actor); an illegal
    /// one raises `IllegalAction` and changes nothing.
    #[pyo3(signature = (id, seat=None))]
    fn apply_id(&mut self, id: Nat<usize>, seat: Option<i64>) -> PyResult<()> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        self.inner
            .apply_id(seat, id.0)
            .map_err(IllegalAction::new_err)
    }

    /// `seat`'s observation as a float32 numpy vector (written into `out`
    /// when given), from what that seat sees only.
    #[pyo3(signature = (seat, out=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        let mut data = vec![0.0f32; self.inner.obs_len()];
        self.inner.write_obs(seat, &mut data);
        fill(py, out, &data, "float32", None)
    }

    /// A seat's legal actions as an int8 numpy mask over the action ids
    /// (written into `out` when given): the actor's actions for the actor
    /// (the seat by default), all 0 for any other seat and once the game
    /// is over. An array as the only argument is `out`.
    #[pyo3(signature = (seat=None, out=None))]
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (seat, out) = match seat {
            Some(s) if out.is_none() && s.extract::<i64>().is_err() => (None, Some(s)),
            Some(s) => {
                let n = s.extract::<i64>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "seat must be a seat number, not {}",
                        s.get_type()
                            .name()
                            .map_or_else(|_| "?".into(), |n| n.to_string())
                    ))
                })?;
                (Some(self.seat(n)?), out)
            }
            None => (None, out),
        };
        let mut data = vec![0u8; self.inner.num_actions()];
        if seat.is_none() || seat == self.inner.actor() {
            self.inner.write_mask(&mut data);
        }
        fill(py, out, &data, "int8", Some("uint8"))
    }

    /// `seat`'s information state as text, with perfect recall: a line
    /// naming the seat, then every event it saw (public ones and those
    /// told to it alone) and every action it took (`you: ...`), in order.
    /// Two histories give the same text exactly when the seat cannot tell
    /// them apart. A resampled state has none (`ValueError`).
    fn information_state(&self, seat: i64) -> PyResult<String> {
        let seat = self.seat(seat)?;
        self.inner.info_text(seat).map_err(PyValueError::new_err)
    }

    /// The length of `information_state_tensor(seat, steps)`; a length
    /// above 2**24 floats raises `ValueError`.
    fn information_state_size(&self, steps: Nat<usize>) -> PyResult<usize> {
        self.inner.info_len(steps.0).map_err(PyValueError::new_err)
    }

    /// `seat`'s information state as a float32 vector for games of at
    /// most `steps` actions (layout in docs/python.md): the seat's
    /// observation at the start, then one block per action taken (the
    /// action one-hot when it was this seat's, the seat's observation
    /// after it), blocks not yet played 0. A game longer than `steps`
    /// raises `ValueError`.
    #[pyo3(signature = (seat, steps, out=None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        steps: Nat<usize>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        let len = self
            .inner
            .info_len(steps.0)
            .map_err(PyValueError::new_err)?;
        let mut data = vec![0.0f32; len];
        self.inner
            .info_vector(seat, steps.0, &mut data)
            .map_err(PyValueError::new_err)?;
        fill(py, out, &data, "float32", None)
    }

    /// A copy that plays on independently.
    #[pyo3(name = "clone")]
    fn clone_game(&self) -> Game {
        Game {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> Game {
        self.clone_game()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone_game()
    }

    /// The game record so far (JSON text: rules version, options, seed,
    /// actions, outcome), as `ratrace replay`/`verify` read it.
    fn record(&self) -> PyResult<String> {
        serde_json::to_string_pretty(self.inner.record())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Writes the record to `path` (as `ratrace play --save` does).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        let text = self.record()?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// Reads a record file and replays it (every action must be legal,
    /// a recorded outcome must match).
    #[staticmethod]
    fn open(path: std::path::PathBuf) -> PyResult<Game> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display()))
        })?;
        Game::load(&text)
    }

    /// Replays a record (JSON text) into a game.
    #[staticmethod]
    fn load(record: &str) -> PyResult<Game> {
        let record: Record =
            serde_json::from_str(record).map_err(|e| RecordError::new_err(e.to_string()))?;
        let inner = table::load(record).map_err(RecordError::new_err)?;
        Ok(Game { inner })
    }

    /// A state consistent with everything `seat` sees, the hidden rest
    /// (deck order, other hands, dice to come) drawn from `seed`: the
    /// determinization search bots use. It has no record of its own.
    fn resample(&self, seat: i64, seed: Nat<u64>) -> PyResult<Game> {
        let seat = self.seat(seat)?;
        Ok(Game {
            inner: self.inner.resample(seat, seed.0),
        })
    }

    /// Actions played so far.
    fn __len__(&self) -> usize {
        self.inner.actions_played()
    }

    fn __repr__(&self) -> String {
        format!(
            "ratrace.Game({:?}, players={}, actions={}, over={})",
            self.inner.name(),
            self.inner.players(),
            self.inner.actions_played(),
            if self.inner.actor().is_none() {
                "True"
            } else {
                "False"
            }
        )
    }

    fn __str__(&self) -> String {
        self.inner.view_text(None)
    }
}

/// A bot from the ladder (`random`, `heuristic`, `strong`, `search:1000`,
/// ...), for either game: made for a game the first time it acts in one.
#[pyclass(module = "ratrace._ratrace")]
pub struct Bot {
    spec: String,
    seed: u64,
    slot: Mutex<Slot>,
    /// A Python policy, for `Bot(policy)`.
    policy: Option<policy::Policy>,
}

/// A bot slot: the bot made for the game it last played, if any.
type Slot = Option<Box<dyn Any + Send>>;

impl Bot {
    /// The action a policy bot chooses: the policy is called with `seat`'s
    /// observation (what its view shows) and the legal-action mask, which
    /// needs `seat` to be the one to act.
    fn act_policy(
        &self,
        py: Python<'_>,
        policy: &policy::Policy,
        game: &Game,
        seat: Option<i64>,
    ) -> PyResult<String> {
        let actor = game
            .inner
            .actor()
            .ok_or_else(|| IllegalAction::new_err("the game is over"))?;
        let seat = seat.map(|s| game.seat(s)).transpose()?.unwrap_or(actor);
        if seat != actor {
            return Err(IllegalAction::new_err(format!(
                "seat {seat} has no decision to take: seat {actor} acts now"
            )));
        }
        let mut obs = vec![0.0f32; game.inner.obs_len()];
        game.inner.write_obs(seat, &mut obs);
        let mut mask = vec![0u8; game.inner.num_actions()];
        game.inner.write_mask(&mut mask);
        let id = policy.choose(py, &obs, &mask)?;
        game.inner
            .action_text(id)
            .ok_or_else(|| IllegalAction::new_err(format!("action id {id} names no action")))
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` for `seat` (default: the actor) with the GIL released:
    /// the bot leaves its slot while it thinks, and comes back whatever
    /// the result.
    fn think<T: Send>(
        &self,
        py: Python<'_>,
        game: &Game,
        seat: Option<i64>,
        f: impl FnOnce(&dyn DynGame, &mut Slot, &str, u64, usize) -> Result<T, String> + Send,
    ) -> PyResult<T> {
        let seat = match seat {
            Some(s) => game.seat(s)?,
            None => game
                .inner
                .actor()
                .ok_or_else(|| IllegalAction::new_err("the game is over"))?,
        };
        let mut bot = self.slot().take();
        let inner = &*game.inner;
        let (spec, seed) = (self.spec.as_str(), self.seed);
        let result = py.detach(|| f(inner, &mut bot, spec, seed, seat));
        *self.slot() = bot;
        result.map_err(IllegalAction::new_err)
    }
}

#[pymethods]
impl Bot {
    /// `Bot(spec, seed=0)`: `spec` a ladder name, or a Python policy
    /// `policy(obs, mask) -> action id` (see the `policy` module).
    #[new]
    #[pyo3(signature = (spec, seed=Nat(0)))]
    fn new(spec: &Bound<'_, PyAny>, seed: Nat<u64>) -> PyResult<Bot> {
        let Nat(seed) = seed;
        let spec = match spec.extract::<String>() {
            Ok(text) => text,
            Err(_) => {
                return Ok(Bot {
                    spec: "python".to_string(),
                    seed,
                    slot: Mutex::new(None),
                    policy: Some(policy::Policy::new(spec)?),
                })
            }
        };
        let spec = spec.as_str();
        if spec.trim_start().starts_with("cmd:") {
            return Err(SetupError::new_err(format!(
                "`{spec}` names a bot program: programs play through ratrace.tournament and \
                 ratrace.simulate (and the CLI's tournament, play and serve), which run them \
                 under their time limits; Bot takes a ladder name (random, heuristic, strong, \
                 search:N)"
            )));
        }
        // Refuse an unknown spec now, not at the first move.
        for name in registry::GAMES {
            let known = registry::dispatch!(*name,
                G => <G as bots::Roster>::bot(spec, seed).map(|_| ()),
                _ => Ok(()));
            if known.is_ok() {
                return Ok(Bot {
                    spec: spec.to_string(),
                    seed,
                    slot: Mutex::new(None),
                    policy: None,
                });
            }
        }
        let why = registry::dispatch!("dalmuti",
            G => <G as bots::Roster>::bot(spec, seed).err().map(|e| e.to_string()), _ => None);
        Err(SetupError::new_err(
            why.unwrap_or_else(|| format!("unknown bot `{spec}`")),
        ))
    }

    /// The spec it was made from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The action (text) this bot chooses for `seat` (default: the
    /// actor), from that seat's view only.
    #[pyo3(signature = (game, seat=None))]
    fn act(&self, py: Python<'_>, game: &Game, seat: Option<i64>) -> PyResult<String> {
        if let Some(policy) = &self.policy {
            return self.act_policy(py, policy, game, seat);
        }
        self.think(py, game, seat, |inner, bot, spec, seed, seat| {
            inner.bot_choose(bot, spec, seed, seat)
        })
    }

    /// The bot's value of each legal action for `seat`, best first, as
    /// `(action, value, visits)`; `None` for a bot without values.
    #[pyo3(signature = (game, seat=None))]
    fn evaluate(
        &self,
        py: Python<'_>,
        game: &Game,
        seat: Option<i64>,
    ) -> PyResult<Option<Vec<table::Valued>>> {
        if self.policy.is_some() {
            return Ok(None);
        }
        let mut list = self.think(py, game, seat, |inner, bot, spec, seed, seat| {
            inner.bot_evaluate(bot, spec, seed, seat)
        })?;
        if let Some(list) = list.as_mut() {
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        format!("ratrace.Bot({:?}, seed={})", self.spec, self.seed)
    }
}

/// Checks a record (JSON text): replays it and compares the outcome and,
/// for fair-deal records, the seed's commitment; a dict with `ok`,
/// `verdict`, `checks`, `chance`, `error`. A signed record is verified only
/// against `key`, the server's public key (64 hex digits, its `GET
/// /api/key`); a key that is not one raises `RecordError`.
#[pyfunction]
#[pyo3(signature = (record, key=None))]
fn verify<'py>(py: Python<'py>, record: &str, key: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let record: Record =
        serde_json::from_str(record).map_err(|e| RecordError::new_err(e.to_string()))?;
    let trusted = key
        .map(registry::signed::parse_key)
        .transpose()
        .map_err(|e| RecordError::new_err(e.to_string()))?;
    loads(py, &table::verify(&record, trusted.as_slice()))
}

/// The games this build knows.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::GAMES.to_vec()
}

/// The module.
#[pymodule]
fn _ratrace(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<Bot>()?;
    m.add_class::<env::VectorEnv>()?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(observe::observe_py, m)?)?;
    m.add_function(wrap_pyfunction!(observe::view_actions, m)?)?;
    runs::register(m)?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    Ok(())
}
