//! The game-specific half of scenario files: setting up a position by hand
//! (deck order, hands, dice to come) and checking game-specific facts.
//!
//! The line format, actions, illegal-action checks and generic
//! expectations live in the scenario runner; a rules crate only answers the
//! lines it alone understands, so the runner stays one piece of code.

mod runner;

pub use runner::{game_of, run, Failure, Report};

use crate::Game;
use std::fmt;

/// An expectation that failed or could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The key is not one this game knows.
    UnknownKey(String),
    /// The arguments could not be read.
    BadArgs(String),
    /// The expectation was read but does not hold: says what was found.
    Failed(String),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::UnknownKey(k) => write!(f, "unknown key `{k}`"),
            ScenarioError::BadArgs(e) => write!(f, "bad arguments: {e}"),
            ScenarioError::Failed(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A game that scenario files can set up and inspect.
pub trait Scenario: Game {
    /// The hand-made parts of a position, gathered from setup lines.
    type Setup: Default;

    /// Reads one setup line `key args` (for example `deck 20 4 V BC`,
    /// `dice 3 5`, `hand P1 1 2 2 J`).
    fn setup_line(setup: &mut Self::Setup, key: &str, args: &str) -> Result<(), ScenarioError>;

    /// Builds the position: like [`Game::new`], then overridden by `setup`
    /// (chance not fixed by the setup still comes from `seed`).
    fn from_setup(
        options: &Self::Options,
        players: usize,
        seed: u64,
        setup: Self::Setup,
    ) -> Result<Self, String>;

    /// Checks one game-specific expectation `key args` (for example
    /// `chips P1 7`, `score P2 12`, `hand P1 1 2 2`, `role P3 greater-peon`).
    fn expect(&self, key: &str, args: &str) -> Result<(), ScenarioError>;
}
