//! One module per `ratrace` command: each takes its flags as parsed in
//! `crate::args` and returns whether the command succeeded (exit status 0
//! or 1) or the error it stopped on (`main` prints it).
//!
//! The commands are glue: the work is in the `cli` library and the crates
//! below it. What several commands share (reading `--option` pairs, the
//! player count, bot programs' limits, printing a result) is here.

pub(crate) mod analyze;
pub(crate) mod bot_check;
pub(crate) mod db;
pub(crate) mod lab;
pub(crate) mod options;
pub(crate) mod play;
pub(crate) mod replay;
pub(crate) mod scenario;
pub(crate) mod serve;
pub(crate) mod simulate;
pub(crate) mod site;
pub(crate) mod spread;
pub(crate) mod tournament;
pub(crate) mod verify;

use cli::Error;
use game::{Game, GameOptions};

/// The limits of bot programs with `--bot-time MS` per decision.
fn bot_limits(ms: u64) -> extbot::Limits {
    extbot::Limits {
        move_time: std::time::Duration::from_millis(ms),
        ..extbot::Limits::default()
    }
}

impl crate::args::ProgramArgs {
    /// The limits bot programs run under: `--bot-time` per decision, and
    /// `--bot-log`'s folder checked (see [`with_bot_log`]).
    pub(crate) fn limits(&self) -> Result<extbot::Limits, Error> {
        with_bot_log(bot_limits(self.bot_time), self.bot_log.as_deref())
    }
}

/// `limits` with each game's stderr of bot programs kept in `dir`
/// (`--bot-log DIR`), after checking a file can be written there: a
/// folder that cannot take the logs stops the command before any game.
fn with_bot_log(
    limits: extbot::Limits,
    dir: Option<&std::path::Path>,
) -> Result<extbot::Limits, Error> {
    let Some(dir) = dir else {
        return Ok(limits);
    };
    let fail = |e: std::io::Error| {
        Error::Usage(format!(
            "--bot-log: cannot write logs into {}: {e}",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".ratrace-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)?;
    Ok(extbot::Limits {
        stderr_log: Some(dir.to_path_buf()),
        ..limits
    })
}

/// The rules options of `--option KEY=VALUE` pairs, over the defaults.
pub(crate) fn parse_options<G: Game>(pairs: &[String]) -> Result<G::Options, Error> {
    let mut o = <G as Game>::Options::default();
    for p in pairs {
        o.set_pair(p)?;
    }
    Ok(o)
}

/// `--players`, or the game's default, checked against the game.
pub(crate) fn players<G: Game>(p: Option<usize>) -> Result<usize, Error> {
    Ok(analysis::players::<G>(p)?)
}

/// Whether a progress bar is drawn: unless `quiet`, when standard error
/// is a terminal.
pub(crate) fn bar_on_terminal(quiet: bool) -> bool {
    !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// Prints a run's result: as JSON with `--json`, else as its text form.
pub(crate) fn print_result<T: serde::Serialize + std::fmt::Display>(
    result: &T,
    json: bool,
) -> Result<(), Error> {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(result).map_err(Error::Json)?
        );
    } else {
        outln!("{result}");
    }
    Ok(())
}

/// Warns on stderr of every bot program whose stand-in played more than
/// the limit of its decisions; false (exit 1) when there is one and
/// `--allow-stand-in` was not given.
pub(crate) fn stand_in_ok(stand_in: &[analysis::strikes::StandInStats], allow: bool) -> bool {
    let flagged: Vec<_> = stand_in.iter().filter(|s| s.flagged).collect();
    for s in &flagged {
        eprintln!(
            "warning: the stand-in (the heuristic bot) played {} of {}'s {} decisions, \
             over the {} limit: its results are not its own (see its strikes)",
            analysis::stats::pct(s.share, 2),
            s.bot,
            s.decisions,
            analysis::stats::pct(analysis::strikes::STAND_IN_LIMIT, 0)
        );
    }
    if !flagged.is_empty() && !allow {
        eprintln!("error: a bot program's results are mostly its stand-in's; fix the bot, or pass --allow-stand-in to accept the report");
        return false;
    }
    true
}
