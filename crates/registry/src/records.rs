//! Game records as text: parsing a record's JSON ([`parse`]) and the
//! readable play-by-play of its replay ([`play_by_play`]).
//!
//! A record is the one form of a game: a replay re-runs the engine from
//! its seed and actions, so every shuffle, deal and roll is reproduced, not
//! stored. Here, not in the CLI, because the fuzz checks and the CLI run
//! the same code and neither may depend on the other; reading and writing
//! the files stays in the CLI (no IO here). Errors name the first bad line
//! (JSON) or action (rules).

use game::{Game, Record};
use std::fmt::Write as _;

/// Why a record could not be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Text that is not a game record's JSON, with where it stops making
    /// sense.
    #[error("not a valid game record at line {}, column {}: {}", .0.line(), .0.column(), .0)]
    NotARecord(serde_json::Error),
    /// A record that does not replay (another game, rules or a bad action).
    #[error(transparent)]
    Replay(#[from] game::RecordError),
    /// A record of a game this build does not know.
    #[error("{}", crate::unknown_game(.0))]
    UnknownGame(String),
}

/// Parses record JSON.
pub fn parse(text: &str) -> Result<Record, Error> {
    serde_json::from_str(text).map_err(Error::NotARecord)
}

/// Replays a record and returns a readable play-by-play: every log line of
/// the engine (shuffles, deals, rolls, plays) in order, each action
/// numbered, then the result.
///
/// The seed and the lines meant for one seat (its deal, its tax cards) are
/// shown only once the game is over, or with `reveal`: the record of a
/// game in progress must not show a player the other hands.
pub fn play_by_play(record: &Record, reveal: bool) -> Result<String, Error> {
    crate::dispatch!(record.game.as_str(), G => play_by_play_of::<G>(record, reveal),
        _ => Err(Error::UnknownGame(record.game.clone())))
}

fn write_log<G: Game>(out: &mut String, game: &G, from: usize, private: bool) -> usize {
    let log = game.events();
    for entry in &log[from..] {
        match entry.to {
            None => {
                let _ = writeln!(out, "    {}", entry.event);
            }
            Some(seat) if private => {
                let _ = writeln!(out, "    [{seat} only] {}", entry.event);
            }
            Some(seat) => {
                let _ = writeln!(out, "    [{seat} only] (hidden until the game ends)");
            }
        }
    }
    log.len()
}

fn play_by_play_of<G: Game>(record: &Record, reveal: bool) -> Result<String, Error> {
    // A quiet replay first: it validates the record and tells whether the
    // game is over, which decides what may be shown.
    let finished = record.replay::<G>(false, |_, _, _| {})?.outcome().is_some();
    let private = reveal || finished;
    let mut out = String::new();
    let options: Vec<String> = record
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let seed = if private {
        record.seed.to_string()
    } else {
        "hidden until the game ends".to_string()
    };
    let _ = writeln!(
        out,
        "{} ({}), {} players, seed {seed}\noptions: {}",
        record.game,
        record.rules_version,
        record.players,
        options.join(" ")
    );
    // The set-up (first shuffle, deal, first leader) happens in `new`;
    // engines log it when logging is switched on before the first action.
    let mut start: G = record.start()?;
    start.set_logging(true);
    let _ = writeln!(out, "starting position:\n{}", start.public_view());
    let mut seen = write_log(&mut out, &start, 0, private);
    let mut number = 0;
    let game = record.replay::<G>(true, |g, seat, action| {
        number += 1;
        let _ = writeln!(out, "{number:>4}. {seat} {action}");
        // The replay logs the same set-up lines first; they were shown.
        seen = write_log(&mut out, g, seen.min(g.events().len()), private);
    })?;
    match game.outcome() {
        Some(o) if o.capped => {
            let _ = writeln!(out, "capped: the game was stopped with no winner (B17)");
        }
        Some(o) => {
            let winners: Vec<String> = o.winners.iter().map(ToString::to_string).collect();
            let scores: Vec<String> = o.scores.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                out,
                "result: won by {} (scores {})",
                winners.join(", "),
                scores.join(" / ")
            );
        }
        None => {
            let _ = writeln!(
                out,
                "unfinished: {} actions played, {} to move{}",
                record.actions.len(),
                game.to_move()
                    .map_or("nobody".to_string(), |s| s.to_string()),
                if private {
                    ""
                } else {
                    " (hidden cards are shown once the game ends, or with --reveal)"
                }
            );
        }
    }
    Ok(out)
}
