//! `ratrace.observe(game, view)`: the observation and legal-action mask of
//! a seat's view given as JSON, as a bot program of the `ratrace-bot/1`
//! protocol receives it, so a policy trained on the environments' arrays
//! can play as a program (`ratrace.bot`).
//!
//! The view is read by the rules crates' own view types (their options
//! come from the caller, not the view). From there the encoding is the
//! engines' own: a state rebuilt from the view ([`game::Game::sample_from_view`], the hidden
//! rest drawn at random) encoded by [`Tensor::write_obs`], which reads
//! only what the view shows: the vector is the one the environments give
//! that seat. The rules options are taken from the caller when given (a
//! program gets them in its `start` message) and otherwise from the
//! view's `options` object.

use game::{GameOptions, Seat, Tensor};
use rand::SeedableRng;
use serde::Deserialize;
use serde_json::Value;

/// What one observation call returns: the vector, the mask, and the
/// legal actions as (id, text) (empty unless the decision is the seat's).
pub(crate) type Observed = (Vec<f32>, Vec<u8>, Vec<(usize, String)>);

/// The observation and mask of `view` (JSON text) for game `name`, sized
/// for `players` at the start (default: the view's seats) and `options`
/// (default: the view's own).
pub(crate) fn observe(
    name: &str,
    view: &str,
    players: Option<usize>,
    options: Option<&[(String, String)]>,
) -> Result<Observed, String> {
    let value: Value =
        serde_json::from_str(view).map_err(|e| format!("the view is not JSON: {e}"))?;
    match name {
        "dalmuti" => {
            let options = options_for::<dalmuti::Dalmuti>(&value, options, "off")?;
            let view = dalmuti_view(value, options)?;
            let players = players.unwrap_or(view.public.players);
            Ok(encode::<dalmuti::Dalmuti>(
                &view, view.seat, &options, players,
            ))
        }
        "bigcheese" => {
            let options = options_for::<bigcheese::BigCheese>(&value, options, "auto")?;
            let view = bigcheese_view(value, options)?;
            let players = players.unwrap_or(view.public.seats.len());
            Ok(encode::<bigcheese::BigCheese>(
                &view, view.me, &options, players,
            ))
        }
        _ => Err(registry::unknown_game(name)),
    }
}

/// The engines' encoding of a view, for `seat`; the mask is all 0 unless
/// the decision is `seat`'s.
fn encode<G: Tensor>(view: &G::View, seat: Seat, options: &G::Options, players: usize) -> Observed {
    let state = G::sample_from_view(view, &mut rand::rngs::SmallRng::seed_from_u64(0));
    let mut obs = vec![0.0; G::obs_len(options, players)];
    state.write_obs(seat, &mut obs);
    let mut mask = vec![0; G::num_actions(options, players)];
    let mut actions = Vec::new();
    if state.to_move() == Some(seat) {
        let mut legal = Vec::new();
        state.write_mask(&mut legal, &mut mask);
        actions = legal
            .iter()
            .filter_map(|&a| Some((state.action_id(a)?, a.to_string())))
            .collect();
    }
    (obs, mask, actions)
}

/// The options: the caller's pairs, or the view's `public.options` object
/// read as pairs (true/false as on/off, null as `none_word`).
fn options_for<G: game::Game>(
    view: &Value,
    given: Option<&[(String, String)]>,
    none_word: &str,
) -> Result<G::Options, String> {
    let pairs: Vec<(String, String)> = match given {
        Some(pairs) => pairs.to_vec(),
        None => {
            let object = view
                .pointer("/public/options")
                .and_then(Value::as_object)
                .ok_or("the view has no public.options object: pass options=")?;
            object
                .iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    (k, Value::Bool(b)) => (k.to_string(), if *b { "on" } else { "off" }.into()),
                    (k, Value::Null) => (k.to_string(), none_word.to_string()),
                    (k, Value::String(s)) => (k.to_string(), s.clone()),
                    (k, v) => (k.to_string(), v.to_string()),
                })
                .collect()
        }
    };
    G::Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| format!("the options: {e}"))
}

fn read<T: for<'de> Deserialize<'de>>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("not a view of this game: {e}"))
}

/// The view in `value` with the `options` its reader was given (a view
/// reads its own options back as the defaults).
fn dalmuti_view(value: Value, options: dalmuti::Options) -> Result<dalmuti::View, String> {
    let mut view: dalmuti::View = read(value)?;
    view.public.options = options;
    Ok(view)
}

fn bigcheese_view(value: Value, options: bigcheese::Options) -> Result<bigcheese::View, String> {
    let mut view: bigcheese::View = read(value)?;
    view.public.options = options;
    Ok(view)
}

// ---------------------------------------------------------------- Python

use crate::args::{opt, Nat};
use pyo3::prelude::*;

/// `observe(game, view, players=None, options=None) -> (obs, mask)`: the
/// float32 observation and int8 mask of `view` (a dict, or JSON text as a
/// bot program receives it) for `game`; `players` is the seat count at
/// the start (it sizes the vectors; default: the view's), `options` the
/// rules options (default: the view's own).
#[pyfunction]
#[pyo3(name = "observe", signature = (game, view, players=None, options=None))]
pub(crate) fn observe_py<'py>(
    py: Python<'py>,
    game: &str,
    view: &Bound<'py, PyAny>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (text, pairs) = arguments(py, view, options)?;
    let players = opt(players);
    let (obs, mask, _) = py
        .detach(|| observe(game, &text, players, pairs.as_deref()))
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok((
        crate::fill(py, None, &obs, "float32", None)?,
        crate::fill(py, None, &mask, "int8", Some("uint8"))?,
    ))
}

/// `view_actions(game, view, players=None, options=None) -> {id: text}`:
/// the legal actions of the view's seat, by action id, in the notation a
/// bot program answers with (empty when the decision is not the seat's).
#[pyfunction]
#[pyo3(signature = (game, view, players=None, options=None))]
pub(crate) fn view_actions<'py>(
    py: Python<'py>,
    game: &str,
    view: &Bound<'py, PyAny>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<std::collections::BTreeMap<usize, String>> {
    let (text, pairs) = arguments(py, view, options)?;
    let players = opt(players);
    let (_, _, actions) = py
        .detach(|| observe(game, &text, players, pairs.as_deref()))
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok(actions.into_iter().collect())
}

/// Options as `key=value` pairs.
type Pairs = Vec<(String, String)>;

/// The view as JSON text and the options as pairs (`None`: the view's).
fn arguments(
    py: Python<'_>,
    view: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, Option<Pairs>)> {
    let text: String = match view.extract::<String>() {
        Ok(text) => text,
        Err(_) => py
            .import("json")?
            .call_method1("dumps", (view,))?
            .extract()?,
    };
    let pairs = match options.filter(|o| !o.is_none()) {
        Some(o) => Some(crate::options_of(Some(o))?),
        None => None,
    };
    Ok((text, pairs))
}
