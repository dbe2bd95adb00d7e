//! `ratrace play`: a person against bots in the terminal, the game saved
//! as a record after every action (the loop is `cli::play`).

use crate::args::PlayArgs;
use crate::cmd::{parse_options, players};
use cli::{dispatch, play, Error};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Runs `ratrace play`.
pub(crate) fn run(args: PlayArgs) -> Result<bool, Error> {
    dispatch!(args.game.as_str(), G => play_game::<G>(args),
        _ => Err(Error::unknown_game(&args.game)))
}

fn play_game<G: bots::Roster>(args: PlayArgs) -> Result<bool, Error> {
    let file_name = args
        .seed
        .map_or_else(|| unix_time().to_string(), |s| s.to_string());
    let seed = args.seed.unwrap_or_else(clock_seed);
    let cfg = play::Config::<G> {
        players: players::<G>(args.players)?,
        options: parse_options::<G>(&args.options)?,
        seed,
        bots: extbot::split_names::<G>(&args.bots),
        human: args.seat.0,
        pace: std::time::Duration::from_millis(args.pace),
        record_path: args
            .record
            .unwrap_or_else(|| default_record(&args.game, &file_name)),
        limits: args.programs.limits()?,
    };
    // A person at a terminal gets line editing and history;
    // piped moves (scripts, tests) are read line by line.
    let stdin = std::io::stdin();
    if cfg.human.is_none() {
        // Nobody to ask: the bots play every seat.
        play::play(&cfg, std::io::empty(), std::io::stdout())?;
    } else if stdin.is_terminal() && std::io::stdout().is_terminal() {
        let editor = cli::prompt::Editor::new()?;
        play::play_with(&cfg, editor, std::io::stdout())?;
    } else {
        play::play(&cfg, stdin.lock(), std::io::stdout())?;
    }
    Ok(true)
}

/// `games/GAME-NAME.json`, numbered if taken. `name` is the seed when the
/// person chose it, else the start time: a file named after a secret seed
/// would give it away.
fn default_record(game: &str, name: &str) -> PathBuf {
    let dir = Path::new("games");
    let mut path = dir.join(format!("{game}-{name}.json"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("{game}-{name}-{n}.json"));
    }
    path
}

fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        % 1_000_000_000
}
