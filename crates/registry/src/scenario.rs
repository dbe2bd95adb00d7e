//! Scenario text run for whichever game its first line names: the one
//! runner is [`game::scenario`], generic over the game; this picks the
//! game. Here, not in the CLI, so the fuzz checks and `ratrace scenario`
//! run the same code; reading the files stays in the CLI (no IO here).

use game::scenario::{game_of, Failure, Report};

/// Runs scenario text for whichever game it names; `name` is used in
/// failure messages.
pub fn run_text(name: &str, text: &str) -> Report {
    let game_name = match game_of(name, text) {
        Ok(g) => g,
        Err(f) => {
            return Report {
                checks: 0,
                failures: vec![f],
            }
        }
    };
    crate::dispatch!(game_name.as_str(), G => game::scenario::run::<G>(name, text),
    _ => Report {
        checks: 0,
        failures: vec![Failure {
            file: name.to_string(),
            line: first_line(text),
            message: crate::unknown_game(&game_name),
        }],
    })
}

/// The 1-based number of the first line that is not blank or a comment.
fn first_line(text: &str) -> usize {
    text.lines()
        .position(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
        .map_or(0, |i| i + 1)
}
