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
pub mod schema;
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
    /// A name that is neither a roster bot nor `cmd:`, in
    /// [`Roster::bot`]'s words, which list the roster; here a bot program
    /// may sit too, so the words say so.
    #[error("{0}; or cmd:COMMAND, a bot program (docs/bot-protocol.md)")]
    Unknown(bots::BotError),
    /// A roster name the game does not make (a bad budget, say), in
    /// [`Roster::bot`]'s words.
    #[error(transparent)]
    Roster(bots::BotError),
}

impl From<bots::BotError> for BotError {
    fn from(e: bots::BotError) -> BotError {
        match e {
            e @ bots::BotError::Unknown { .. } => BotError::Unknown(e),
            e => BotError::Roster(e),
        }
    }
}

/// The share of a bot program's decisions its stand-in may play before
/// its results stop being its own: above it a tournament flags the
/// program's rows, and a server table credits its seat to the stand-in.
pub const STAND_IN_LIMIT: f64 = 0.05;

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

/// Bot names as given on a command line, each value split at commas
/// (`--bots random,heuristic`). A `cmd:` bot's command may hold commas
/// (`--bots "cmd:python3 bot.py a,b"`): after a `cmd:` name, a comma
/// starts a new bot only when what follows is one of the game's bots or
/// another `cmd:` name (`--bots cmd:./bot,heuristic`). Blank names are
/// dropped.
pub fn split_names<G: Roster>(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let mut in_command = false;
        for piece in v.split(',') {
            let name = piece.trim();
            let starts_bot = command(name).is_some() || G::bot(name, 0).is_ok();
            match out.last_mut() {
                Some(last) if in_command && !starts_bot => {
                    last.push(',');
                    last.push_str(piece);
                    continue;
                }
                _ => {}
            }
            in_command = command(name).is_some();
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
        if let Some(last) = out.last_mut().filter(|_| in_command) {
            *last = last.trim().to_string();
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_keeps_its_commas() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let split = |xs: &[&str]| split_names::<dalmuti::Dalmuti>(&v(xs));
        assert_eq!(
            split(&["random, heuristic", "cmd:python3 bot.py a,b", ""]),
            v(&["random", "heuristic", "cmd:python3 bot.py a,b"])
        );
        assert_eq!(
            split(&["cmd:./bot x,y,heuristic,cmd:./other,search:200"]),
            v(&["cmd:./bot x,y", "heuristic", "cmd:./other", "search:200"])
        );
        assert_eq!(split(&["nobody,random"]), v(&["nobody", "random"]));
    }

    #[test]
    fn an_unknown_name_mentions_bot_programs() {
        let e = check::<dalmuti::Dalmuti>("b").unwrap_err().to_string();
        assert!(
            e.starts_with("unknown bot `b` for dalmuti (choose from: "),
            "{e}"
        );
        assert!(e.contains("or cmd:COMMAND, a bot program"), "{e}");
        let e = check::<dalmuti::Dalmuti>("heuristic:abc")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("cmd:"), "{e}");
    }
}
