//! `ratrace lab`: rules variants compared side by side (`analysis::lab`);
//! the report goes to files, one line per variant to the terminal. The
//! lab's studies of their own (`lab duplicate-spread`) are in
//! [`super::spread`].

use crate::args::{LabArgs, LabStudy};
use analysis::lab;
use cli::{dispatch, Error};

/// Runs `ratrace lab`.
pub(crate) fn run(args: LabArgs) -> Result<bool, Error> {
    if let Some(LabStudy::DuplicateSpread(a)) = args.study {
        return super::spread::run(a);
    }
    let game = args.game.clone().unwrap_or_default();
    dispatch!(game.as_str(), G => compare::<G>(&game, args),
        _ => Err(Error::unknown_game(&game)))
}

fn compare<G: lab::Positions>(game: &str, args: LabArgs) -> Result<bool, Error> {
    let cfg = lab::configure::<G>(
        game,
        lab::Args {
            variants: args.variants,
            presets: args.presets,
            players: args.players,
            options: args.options,
            deals: args.deals,
            seed: args.seed,
            threads: analysis::all_cores_unless(args.threads),
            bots: args.bots,
            max_actions: args.max_actions,
            out: args.out,
        },
    )?;
    let mut cfg = cfg;
    cfg.save = args.save.sample(false)?;
    lab::report::check_out_dir(&cfg.out)?;
    let report = lab::run(&cfg, &cli::Bar::default())?;
    lab::report::write(&report, &cfg.out)?;
    for v in &report.variants {
        outln!(
            "{:<16} seat spread {:5.1} pts (p {:.3})  mean length {:7.1}  skill index {:.3}  luck share {:4.1}%",
            v.name,
            100.0 * (v.seats.rates.iter().map(|r| r.value).fold(0.0, f64::max)
                - v.seats.rates.iter().map(|r| r.value).fold(1.0, f64::min)),
            v.seats.chi_square.p_value,
            v.lengths.summary.mean,
            v.skill.index.value,
            100.0 * v.luck.luck.value,
        );
    }
    outln!(
        "{} games in {:.1} s; wrote {} and {}",
        report.games,
        report.seconds,
        cfg.out.join("report.html").display(),
        cfg.out.join("report.md").display()
    );
    Ok(true)
}
