//! The command line's error type ([`Error`]): everything that makes
//! `ratrace` print `error: ...` and exit with status 2 (but
//! [`Error::Unverifiable`], status 3).
//!
//! Shaped like the analysis library's [`analysis::Error`], which it wraps
//! whole: variants by what went wrong (a file, a record that is not one,
//! a flag to fix, the server failing to start), each keeping the error of
//! the crate below when there is one. The `Display` text of every variant
//! is word for word the message the CLI printed when these were strings;
//! users and the CLI's tests read those words, so they do not change.

use std::path::PathBuf;

/// Why a `ratrace` command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A simulation, tournament or lab run failed, or its configuration.
    #[error(transparent)]
    Analysis(#[from] analysis::Error),
    /// A `--sprt` text that is not a test.
    #[error(transparent)]
    Sprt(#[from] analysis::tournament::BadSprt),
    /// Reading or writing a file or folder: the path, then the system's
    /// error.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// What is wrong in a named file (a record that does not parse or
    /// replay): the file, then the error.
    #[error("{}: {source}", .path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        source: Box<Error>,
    },
    /// A record's text that is not a record, or that does not replay:
    /// [`registry::records`]'s words.
    #[error(transparent)]
    Record(#[from] registry::records::Error),
    /// A record that does not replay (another game, rules or a bad action).
    #[error(transparent)]
    Replay(#[from] game::RecordError),
    /// Something could not be turned into JSON.
    #[error(transparent)]
    Json(serde_json::Error),
    /// A game name this build does not know.
    #[error("{}", registry::unknown_game(.0))]
    UnknownGame(String),
    /// A bad `--option`.
    #[error(transparent)]
    Option(#[from] game::OptionError),
    /// The game refused its setup (player count, options).
    #[error(transparent)]
    Setup(#[from] game::SetupError),
    /// An unknown or malformed bot spec, in the bots' registry's words.
    #[error(transparent)]
    Bot(#[from] extbot::BotError),
    /// A game with no bots to give a hint.
    #[error("this game has no bots")]
    NoBots,
    /// Flags that do not go together or are out of range (player count,
    /// seat, the bots of a mode).
    #[error("{0}")]
    Usage(String),
    /// The terminal (standard input or output) failed during play.
    #[error(transparent)]
    Terminal(std::io::Error),
    /// A game refused the action it was given during terminal play (a
    /// bug, not input).
    #[error("internal error: {0}")]
    Engine(String),
    /// The server or its database failed to start, run or copy: the
    /// message names what (a flag, the database, an address).
    #[error("{0}")]
    Server(String),
    /// `verify` of a record with no commitment to its seed: the file and
    /// why (exit status 3, not 2).
    #[error("{0}")]
    Unverifiable(String),
}

impl Error {
    /// An [`Error::Io`] maker for `map_err`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// An [`Error::InFile`] maker for `map_err`, from any error that
    /// becomes an [`Error`].
    pub fn in_file<E: Into<Error>>(path: impl Into<PathBuf>) -> impl FnOnce(E) -> Error {
        let path = path.into();
        move |e| Error::InFile {
            path,
            source: Box::new(e.into()),
        }
    }

    /// [`Error::UnknownGame`] for `name`.
    pub fn unknown_game(name: &str) -> Error {
        Error::UnknownGame(name.to_string())
    }
}
