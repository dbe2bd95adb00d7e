//! `ratrace simulate`: many bot games (`analysis::simulate`), wins per
//! seat and per bot printed as text or JSON.

use crate::args::SimulateArgs;
use crate::cmd::{parse_options, players, print_result, stand_in_ok};
use analysis::simulate;
use cli::{dispatch, Error};

/// Runs `ratrace simulate`.
pub(crate) fn run(args: SimulateArgs) -> Result<bool, Error> {
    dispatch!(args.game.as_str(), G => simulate_game::<G>(args),
        _ => Err(Error::unknown_game(&args.game)))
}

fn simulate_game<G: bots::Roster>(args: SimulateArgs) -> Result<bool, Error> {
    let cfg = simulate::Config::<G> {
        games: args.games,
        players: players::<G>(args.players)?,
        bots: extbot::split_names::<G>(&args.bots),
        options: parse_options::<G>(&args.options)?,
        seed: args.seed,
        threads: analysis::all_cores_unless(args.threads),
        max_actions: args.max_actions,
        rotate: args.rotate,
        limits: args.programs.limits()?,
        save: args.save.sample(false)?,
    };
    let summary = simulate::run(
        &cfg,
        &*cli::progress(!args.output.json && args.games >= 1000),
    )?;
    print_result(&summary, args.output.json)?;
    if let Some(dir) = &args.save.save_games {
        eprintln!("records saved in {} (GAME-gN.json)", dir.display());
    }
    // A simulation rates nothing: the warning is enough.
    Ok(stand_in_ok(&summary.stand_in, true))
}
