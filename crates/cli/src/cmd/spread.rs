//! `ratrace lab duplicate-spread`: duplicate against plain bot
//! tournaments (`analysis::spread`), every game asked for in one report
//! (DIR/report.md and report.json), a few lines to the terminal.
//!
//! Every game's configuration is checked before any game is played, so a
//! bad flag for the second game does not cost the first one's run.

use crate::args::SpreadArgs;
use crate::cmd::{bar_on_terminal, players};
use analysis::spread;
use bots::Roster;
use cli::{dispatch, Error};
use game::GameOptions;

/// Runs `ratrace lab duplicate-spread`.
pub(crate) fn run(args: SpreadArgs) -> Result<bool, Error> {
    let games: Vec<String> = if args.games.is_empty() {
        cli::GAMES.iter().map(|g| g.to_string()).collect()
    } else {
        args.games.clone()
    };
    if let Some((i, g)) = games
        .iter()
        .enumerate()
        .find(|(i, g)| games[..*i].contains(g))
    {
        return Err(Error::Usage(format!(
            "--game names `{g}` twice (game {} and an earlier one)",
            i + 1
        )));
    }
    if !args.options.is_empty() && games.len() != 1 {
        return Err(Error::Usage(
            "--option sets one game's rules: give it with exactly one --game".into(),
        ));
    }
    let threads = analysis::all_cores_unless(args.threads);
    for g in &games {
        dispatch!(g.as_str(), G => configure::<G>(g, &args, threads).map(|_| ()),
            _ => Err(Error::unknown_game(g)))?;
    }
    spread::report::check_out_dir(&args.out)?;
    let bar = cli::progress(bar_on_terminal(args.quiet));
    let start = std::time::Instant::now();
    let mut studies = Vec::new();
    for g in &games {
        studies.push(
            dispatch!(g.as_str(), G => study::<G>(g, &args, threads, &*bar),
            _ => Err(Error::unknown_game(g)))?,
        );
    }
    let report = spread::Report {
        command: command(&args),
        seed: args.seed,
        deals: args.deals,
        repeats: args.repeats,
        resamples: spread::RESAMPLES,
        games: studies,
        threads,
        seconds: start.elapsed().as_secs_f64(),
    };
    report.write(&args.out)?;
    outln!("{report}");
    outln!(
        "wrote {} and {}",
        args.out.join("report.md").display(),
        args.out.join("report.json").display()
    );
    Ok(true)
}

/// The study of game `name` (`G`) that the flags ask for, checked.
fn configure<G: Roster>(
    name: &str,
    args: &SpreadArgs,
    threads: usize,
) -> Result<spread::Config<G>, Error> {
    let mut options = G::Options::default();
    for pair in analysis::lab::base_options(name)
        .iter()
        .map(|p| p.to_string())
        .chain(args.options.iter().cloned())
    {
        options.set_pair(&pair)?;
    }
    let cfg = spread::Config::<G> {
        options,
        players: players::<G>(args.players)?,
        entrants: if args.bots.is_empty() {
            spread::default_entrants::<G>()
        } else {
            args.bots.iter().map(|b| b.trim().to_string()).collect()
        },
        deals: args.deals,
        repeats: args.repeats,
        seed: args.seed,
        threads,
        max_actions: args.max_actions,
    };
    cfg.validate()?;
    Ok(cfg)
}

/// Plays game `name`'s study.
fn study<G: Roster>(
    name: &str,
    args: &SpreadArgs,
    threads: usize,
    progress: &dyn analysis::Progress,
) -> Result<spread::GameSpread, Error> {
    Ok(spread::run(
        &configure::<G>(name, args, threads)?,
        progress,
    )?)
}

/// The command that makes the report, as typed from the repository's
/// root: the flags given, in a fixed order.
fn command(args: &SpreadArgs) -> String {
    let mut c = String::from("ratrace lab duplicate-spread");
    for g in &args.games {
        c += &format!(" --game {g}");
    }
    if !args.bots.is_empty() {
        c += &format!(" --bots {}", args.bots.join(","));
    }
    if let Some(p) = args.players {
        c += &format!(" --players {p}");
    }
    for o in &args.options {
        c += &format!(" --option {o}");
    }
    c += &format!(
        " --deals {} --repeats {} --seed {}",
        args.deals, args.repeats, args.seed
    );
    if args.max_actions != 100_000 {
        c += &format!(" --max-actions {}", args.max_actions);
    }
    c + &format!(" --out {}", args.out.display())
}
