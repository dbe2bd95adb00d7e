//! Bot games in bulk from Python: `simulate`, `tournament` and `lab`, the
//! same library calls `ratrace simulate`, `ratrace tournament` and
//! `ratrace lab` make (`analysis`), returning their JSON reports as dicts.
//!
//! They run with the GIL released, on `threads` worker threads (default:
//! every core), and their figures equal the CLI's for the same arguments.

use crate::args::{opt, Nat};
use crate::{loads, options_of, SetupError};
use analysis::simulate as sim;
use analysis::tournament as tour;
use game::Game;
use pyo3::prelude::*;

fn players_of<G: Game>(players: Option<usize>) -> Result<usize, String> {
    analysis::players::<G>(players).map_err(|e| e.to_string())
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// Plays `games` bot games and returns the simulator's summary (per seat
/// and per bot win rates with 95% intervals, game lengths).
#[pyfunction]
#[pyo3(signature = (game, games, bots=None, players=None, options=None, seed=Nat(0), threads=None, max_actions=Nat(100_000), rotate=false))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    game: &str,
    games: Nat<u64>,
    bots: Option<Vec<String>>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
    seed: Nat<u64>,
    threads: Option<Nat<usize>>,
    max_actions: Nat<u64>,
    rotate: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (Nat(games), Nat(seed), Nat(max_actions)) = (games, seed, max_actions);
    let (players, threads) = (opt(players), opt(threads));
    let pairs = options_of(options)?;
    let bots = bots.unwrap_or_else(|| vec!["random".to_string()]);
    let threads = analysis::all_cores_unless(threads);
    let text = py
        .detach(|| {
            registry::dispatch!(game, G => {
                let cfg = sim::Config::<G> {
                    games,
                    players: players_of::<G>(players)?,
                    bots,
                    options: crate::table::options_of::<G>(&pairs)?,
                    seed,
                    threads,
                    max_actions,
                    rotate,
                    limits: Default::default(),
                    save: None,
                };
                let summary = sim::run(&cfg, &analysis::Quiet).map_err(|e| e.to_string())?;
                to_json(&summary)
            }, _ => Err(registry::unknown_game(game)))
        })
        .map_err(SetupError::new_err)?;
    loads(py, &text)
}

/// A bot given by name; a Python policy is refused with where it can play.
fn bot_name(bot: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(name) = bot.extract::<String>() {
        return Ok(name);
    }
    let what = if bot.is_callable() {
        "a Python policy reaches the tournament as the bot program that serves it: call \
         the package's ratrace.tournament with a function defined at the top level of a \
         module (it names the program, ratrace.bot.program), or give the name \
         ratrace.bot.program(policy) returns"
    } else {
        "a bot is named: random, heuristic, strong, learned, search:N, or cmd:COMMAND for a bot program"
    };
    Err(pyo3::exceptions::PyTypeError::new_err(what))
}

/// Plays a duplicate tournament: `candidate` against `field` (default:
/// the game's default opponent), or a round robin of `bots`, over `deals`
/// deals (or exactly `games` games) in every seat rotation; returns the
/// report (rates with intervals, paired differences, Plackett-Luce
/// ratings, per-seat figures, SPRT verdict when `sprt` is given as
/// `"p0,p1[,alpha,beta]"`).
#[pyfunction]
#[pyo3(signature = (game, candidate=None, field=None, bots=None, players=None, options=None, deals=None, games=None, seed=Nat(0), threads=None, max_actions=Nat(100_000), sprt=None))]
#[allow(clippy::too_many_arguments)]
fn tournament<'py>(
    py: Python<'py>,
    game: &str,
    candidate: Option<&Bound<'py, PyAny>>,
    field: Option<&Bound<'py, PyAny>>,
    bots: Option<Vec<Bound<'py, PyAny>>>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
    deals: Option<Nat<u64>>,
    games: Option<Nat<u64>>,
    seed: Nat<u64>,
    threads: Option<Nat<usize>>,
    max_actions: Nat<u64>,
    sprt: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (Nat(seed), Nat(max_actions)) = (seed, max_actions);
    let (players, deals, games, threads) = (opt(players), opt(deals), opt(games), opt(threads));
    let pairs = options_of(options)?;
    let threads = analysis::all_cores_unless(threads);
    let candidate = candidate.map(bot_name).transpose()?;
    let field = field.map(bot_name).transpose()?;
    let bots = bots
        .map(|list| list.iter().map(bot_name).collect::<PyResult<Vec<_>>>())
        .transpose()?;
    let text = py
        .detach(|| {
            registry::dispatch!(game, G => {
                let mode = match (candidate, bots) {
                    (Some(candidate), _) => tour::Mode::Candidate {
                        candidate,
                        field: field.unwrap_or_else(|| <G as bots::Roster>::BOTS[0].to_string()),
                    },
                    (None, Some(bots)) if !bots.is_empty() => tour::Mode::RoundRobin { bots },
                    _ => return Err("give candidate= (against field=) or bots=[...] for a round robin".to_string()),
                };
                let length = match (deals, games) {
                    (_, Some(g)) => tour::Length::Games(g),
                    (d, None) => tour::Length::Deals(d.unwrap_or(100)),
                };
                let cfg = tour::Config::<G> {
                    mode,
                    players: players_of::<G>(players)?,
                    options: crate::table::options_of::<G>(&pairs)?,
                    length,
                    seed,
                    threads,
                    max_actions,
                    sprt: sprt.map(|s| s.parse()).transpose().map_err(|e: tour::BadSprt| e.to_string())?,
                    out: None,
                    resume: tour::Resume::Fresh,
                    command: "ratrace.tournament (Python)".to_string(),
                    limits: Default::default(),
                    save: None,
                };
                let report = tour::run(&cfg, &analysis::Quiet).map_err(|e| e.to_string())?;
                to_json(&report)
            }, _ => Err(registry::unknown_game(game)))
        })
        .map_err(SetupError::new_err)?;
    loads(py, &text)
}

/// Runs the rules lab: each variant's seat advantage, game length, skill
/// index and luck share (as `ratrace lab`); `variants` are `NAME` or
/// `NAME=key=value,...`, `presets` named question sets. With `out`, the
/// HTML and Markdown reports with their plots are written there too.
#[pyfunction]
#[pyo3(signature = (game, variants=None, presets=None, players=None, options=None, deals=Nat(200), seed=Nat(0), threads=None, bots=None, max_actions=Nat(100_000), out=None))]
#[allow(clippy::too_many_arguments)]
fn lab<'py>(
    py: Python<'py>,
    game: &str,
    variants: Option<Vec<String>>,
    presets: Option<Vec<String>>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
    deals: Nat<u64>,
    seed: Nat<u64>,
    threads: Option<Nat<usize>>,
    bots: Option<Vec<String>>,
    max_actions: Nat<u64>,
    out: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let (Nat(deals), Nat(seed), Nat(max_actions)) = (deals, seed, max_actions);
    let (players, threads) = (opt(players), opt(threads));
    let options: Vec<String> = options_of(options)?
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let args = analysis::lab::Args {
        variants: variants.unwrap_or_default(),
        presets: presets.unwrap_or_default(),
        players,
        options,
        deals,
        seed,
        threads: analysis::all_cores_unless(threads),
        bots: bots.unwrap_or_default(),
        max_actions,
        out: out.clone().unwrap_or_default(),
    };
    let text = py
        .detach(|| {
            registry::dispatch!(game, G => {
                let cfg = analysis::lab::configure::<G>(game, args).map_err(|e| e.to_string())?;
                if let Some(dir) = &out {
                    analysis::lab::report::check_out_dir(dir).map_err(|e| e.to_string())?;
                }
                let report = analysis::lab::run(&cfg, &analysis::Quiet).map_err(|e| e.to_string())?;
                if let Some(dir) = &out {
                    analysis::lab::report::write(&report, dir).map_err(|e| e.to_string())?;
                }
                to_json(&report)
            }, _ => Err(registry::unknown_game(game)))
        })
        .map_err(SetupError::new_err)?;
    loads(py, &text)
}

/// Adds the functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(tournament, m)?)?;
    m.add_function(wrap_pyfunction!(lab, m)?)?;
    Ok(())
}
