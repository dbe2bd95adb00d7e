//! `ratrace scenario`: reads scenario files and hands each to
//! [`registry::scenario::run_text`], which runs it for the game its first
//! line names (re-exported here for the CLI's tests and callers).

use game::scenario::{Failure, Report};
use std::path::Path;

pub use registry::scenario::run_text;

/// Runs a scenario file.
pub fn run_file(path: &Path) -> Report {
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => run_text(&name, &text),
        Err(e) => Report {
            checks: 0,
            failures: vec![Failure {
                file: name,
                line: 0,
                message: format!("cannot read: {e}"),
            }],
        },
    }
}
