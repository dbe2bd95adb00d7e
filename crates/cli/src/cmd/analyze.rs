//! `ratrace analyze`: every decision of a record judged
//! (`cli::analyze`), or with `--ladder GAME` the judge checked on the bot
//! ladder (`analysis::analyze::ladder`). Both take the same budget flags.

use crate::args::{AnalyzeArgs, Tables};
use crate::cmd::{bar_on_terminal, players, print_result};
use analysis::analyze::{ladder, Config, Judge};
use cli::{dispatch, records, Error};
use game::{Game, GameOptions};

/// Runs `ratrace analyze`.
pub(crate) fn run(args: AnalyzeArgs) -> Result<bool, Error> {
    if let Some(game) = args.ladder.clone() {
        return dispatch!(game.as_str(), G => check_ladder::<G>(args),
            _ => Err(Error::unknown_game(&game)));
    }
    let budget = budget(&args);
    let Some(file) = args.record else {
        return Err(Error::Usage("give a record file, or --ladder GAME".into()));
    };
    let r = records::read(&file)?;
    let a = cli::analyze::analyze_record(&r, budget, !args.quiet).map_err(Error::in_file(&file))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&a).map_err(Error::Json)?);
    } else {
        out!("{}", cli::analyze::text(&a));
    }
    Ok(true)
}

/// The judge's budget flags (`--search`, `--playouts`, `--candidates`,
/// `--threads`, `--unfinished`) over a game's defaults.
fn budget(args: &AnalyzeArgs) -> impl Fn(Config) -> Config {
    let threads = analysis::all_cores_unless(args.threads);
    let (search, playouts, candidates, unfinished) =
        (args.search, args.playouts, args.candidates, args.unfinished);
    move |mut c: Config| {
        if let Some(s) = search {
            c.search = s;
        }
        if let Some(r) = playouts {
            c.rollouts = r;
        }
        if let Some(k) = candidates {
            c.candidates = k as usize;
        }
        c.threads = threads;
        c.unfinished = unfinished;
        c
    }
}

/// `--ladder`: bot games of every level, the mean loss of each.
fn check_ladder<G: Judge>(args: AnalyzeArgs) -> Result<bool, Error> {
    let mut o = <G as Game>::Options::default();
    if G::NAME == "dalmuti" {
        o.set_pair("hands=1")?;
    }
    for pair in &args.options {
        o.set_pair(pair)?;
    }
    let threads = analysis::all_cores_unless(args.threads);
    let cfg = ladder::Config::<G> {
        games: args.games,
        players: players::<G>(args.players)?,
        options: o,
        levels: if args.bots.is_empty() {
            <G as bots::Roster>::LADDER
                .iter()
                .map(|s| s.to_string())
                .collect()
        } else {
            args.bots.iter().map(|b| b.trim().to_string()).collect()
        },
        seed: args.seed,
        threads,
        judge: Config {
            threads: 1,
            ..budget(&args)(Config::for_game::<G>())
        },
        max_actions: 100_000,
        keep_records: args.save.is_some(),
        tables: match (&args.field, args.tables) {
            (Some(f), _) => ladder::Tables::Field(f.clone()),
            (None, Tables::Alone) => ladder::Tables::Alone,
            (None, Tables::Mixed) => ladder::Tables::Mixed,
        },
    };
    let bar = cli::progress(bar_on_terminal(args.quiet));
    let report = ladder::run(&cfg, &*bar)?;
    if let Some(dir) = &args.save {
        for (g, r) in report.records.iter().enumerate() {
            records::write(&dir.join(format!("ladder-{g}.json")), r)?;
        }
    }
    print_result(&report, args.json)?;
    Ok(true)
}
