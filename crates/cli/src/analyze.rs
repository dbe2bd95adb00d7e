//! `ratrace analyze`: a finished game's record judged decision by decision
//! ([`analysis::analyze`]) and printed as a table, a per-player summary and
//! the turning points (or the analysis' JSON); and `ratrace analyze
//! --ladder GAME`, the check that the judge ranks the bot ladder
//! ([`analysis::analyze::ladder`]). `docs/analysis.md` explains the
//! numbers.

use crate::Error;
use analysis::analyze::{self as judge, Analysis, Config, Judge};
use game::Record;
use std::fmt::Write as _;

/// Analyses `record` (any game this build knows) with `cfg`, drawing a
/// progress bar of decisions on standard error when `bar` (and standard
/// error is a terminal).
pub fn analyze_record(
    record: &Record,
    cfg: impl Fn(Config) -> Config,
    bar: bool,
) -> Result<Analysis, Error> {
    crate::dispatch!(record.game.as_str(), G => run::<G>(record, cfg(Config::for_game::<G>()), bar),
        _ => Err(Error::unknown_game(&record.game)))
}

fn run<G: Judge>(record: &Record, cfg: Config, bar: bool) -> Result<Analysis, Error> {
    let show = bar && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = if show {
        let b = indicatif::ProgressBar::new(0);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} decisions  {per_sec}  eta {eta}",
        ) {
            b.set_style(style);
        }
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let result = judge::analyze::<G>(record, &cfg, |done, total| {
        progress.set_length(total as u64);
        progress.set_position(done as u64);
    });
    progress.finish_and_clear();
    Ok(result?)
}

/// A number in the analysis' unit, with the precision it deserves.
fn num(a: &Analysis, x: f64) -> String {
    if a.unit.higher_is_better {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

/// The analysis as text: the decisions table, the per-player summary and
/// the turning points.
pub fn text(a: &Analysis) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), {} players, {} actions{}",
        a.game,
        a.rules_version,
        a.players,
        a.actions,
        if a.finished { "" } else { " (unfinished)" }
    );
    let _ = writeln!(
        out,
        "values: {} ({}, {} is better); loss = best - chosen",
        a.unit.name,
        a.unit.words,
        if a.unit.higher_is_better {
            "higher"
        } else {
            "lower"
        }
    );
    let _ = writeln!(
        out,
        "labels: good < {} <= inaccuracy < {} <= mistake < {} <= blunder",
        num(a, a.thresholds.inaccuracy),
        num(a, a.thresholds.mistake),
        num(a, a.thresholds.blunder)
    );
    let _ = writeln!(
        out,
        "budget per decision: search {} iterations, {} candidates, {} paired rollouts",
        a.budget.search, a.budget.candidates, a.budget.rollouts
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>5}  {:<4}  {:<18} {:<18} {:>7} {:>7} {:>6} {:>5}  label",
        "move", "seat", "chosen", "best", "chosen", "best", "loss", "±se"
    );
    for d in &a.decisions {
        let best = if d.best == d.chosen { "=" } else { &d.best };
        let _ = writeln!(
            out,
            "{:>5}  {:<4}  {:<18} {:<18} {:>7} {:>7} {:>6} {:>5}  {}",
            d.move_number,
            d.seat.to_string(),
            d.chosen,
            best,
            num(a, d.value_chosen),
            num(a, d.value_best),
            num(a, d.loss),
            num(a, d.std_error),
            d.label
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<4}  {:>9} {:>9} {:>5} {:>6} {:>6} {:>6} {:>8}",
        "seat", "decisions", "mean loss", "good", "inacc", "mist", "blund", "accuracy"
    );
    for s in &a.summary {
        let _ = writeln!(
            out,
            "{:<4}  {:>9} {:>9} {:>5} {:>6} {:>6} {:>6} {:>7.0}%",
            s.seat.to_string(),
            s.decisions,
            num(a, s.mean_loss),
            s.good,
            s.inaccuracy,
            s.mistake,
            s.blunder,
            100.0 * s.accuracy
        );
    }
    if !a.turning_points.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "turning points (largest swings of a player's value):");
        for t in &a.turning_points {
            let _ = writeln!(
                out,
                "  move {:>4} {}: {} -> {} ({:+.2} since move {}: {:+.2} from the table, {:+.2} from the choice)",
                t.move_number,
                t.seat,
                num(a, t.from),
                num(a, t.to),
                t.swing,
                t.since,
                t.by_table,
                t.by_choice
            );
        }
    }
    out
}
