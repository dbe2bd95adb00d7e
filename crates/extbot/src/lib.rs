//! `extbot`: bots in any language. A bot program speaks `ratrace-bot/1`
//! (docs/bot-protocol.md), one JSON object per line over its stdin and
//! stdout, and sits at any table as an ordinary [`bots::Bot`]:
//! [`External`] runs it as a child process and answers for it (with the
//! `heuristic` bot) whenever it fails, so that no bot can hurt a game.
//!
//! Bots are named `cmd:COMMAND` wherever a bot name is taken
//! (`ratrace play --bots`, `ratrace tournament --candidate`); [`bot`] makes
//! either kind from a name, so the shells need no case of their own.

mod bot;
pub mod process;
pub mod protocol;
pub mod sandbox;
pub mod stderr_log;

pub use bot::{Answer, External, Limits, Record};
pub use process::Process;
pub use sandbox::Sandbox;

use bots::{Bot, Roster};

/// Why a bot named on a command line or a table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// A `cmd:` name with no command (the name).
    #[error("empty command in bot `{0}`: write cmd:COMMAND")]
    EmptyCommand(String),
    /// A roster name the game does not make, in [`Roster::bot`]'s words.
    #[error(transparent)]
    Roster(#[from] bots::BotError),
}

/// The prefix that names a bot program: `cmd:python3 my_bot.py`.
pub const PREFIX: &str = "cmd:";

/// The command of a bot named `cmd:COMMAND`, or `None` for a roster name.
pub fn command(spec: &str) -> Option<&str> {
    spec.trim_start().strip_prefix(PREFIX).map(str::trim)
}

/// Makes the bot named by `spec`: a bot program for `cmd:COMMAND` (run
/// under `limits`, its stand-in seeded with `seed`), otherwise the
/// roster's bot ([`Roster::bot`]).
pub fn bot_with<G: Roster>(
    spec: &str,
    seed: u64,
    limits: &Limits,
) -> Result<Box<dyn Bot<G>>, BotError> {
    match command(spec) {
        Some("") => Err(BotError::EmptyCommand(spec.to_string())),
        Some(cmd) => Ok(Box::new(External::<G>::new(cmd, limits.clone(), seed)?)),
        None => Ok(G::bot(spec, seed)?),
    }
}

/// [`bot_with`] under the default [`Limits`].
pub fn bot<G: Roster>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, BotError> {
    bot_with(spec, seed, &Limits::default())
}

/// Checks a bot name without starting anything: a `cmd:` name with a
/// command, or a roster name.
pub fn check<G: Roster>(spec: &str) -> Result<(), BotError> {
    match command(spec) {
        Some("") => Err(BotError::EmptyCommand(spec.to_string())),
        Some(_) => Ok(()),
        None => Ok(G::bot(spec, 0).map(|_| ())?),
    }
}
