//! The one error type of the library ([`Error`]): what can stop a
//! simulation, a tournament or a lab run, by what went wrong.
//!
//! Shaped so that a caller can tell the kinds apart (a file it cannot
//! write, a configuration to fix, a checkpoint of another run, a bot bug)
//! while the `Display` text of every variant is word for word the message
//! the CLI has always printed: the words are part of the interface (the
//! CLI's tests check them), the variants only add structure. Errors of
//! the crates below (the rules' setup errors, serde's) are kept whole,
//! with their own text, the bots' ([`Error::Bot`]) included.

use std::path::PathBuf;

/// Why a run (or its configuration, or its report) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file or folder of the run (the tournament's
    /// checkpoint and reports): the path, then the system's error.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The lab report could not be written into its folder.
    #[error("cannot write the report to {}: {source}", .dir.display())]
    Report {
        /// The report's folder.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The folder of `--save-games` cannot take the records (checked
    /// before anything is played).
    #[error("--save-games: cannot write records into {}: {source}", .dir.display())]
    SaveGames {
        /// The folder.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A result could not be turned into JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The game refused its setup (player count, options).
    #[error(transparent)]
    Setup(#[from] game::SetupError),
    /// An unknown or malformed bot spec, in the bots' registry's words.
    #[cfg(feature = "programs")]
    #[error(transparent)]
    Bot(#[from] extbot::BotError),
    /// An unknown or malformed bot name (a build without bot programs).
    #[cfg(not(feature = "programs"))]
    #[error(transparent)]
    Bot(#[from] bots::BotError),
    /// A configuration that cannot run (too few players or bots, a bad
    /// variant, preset or lineup, an option that does not apply), with
    /// the flag to change when there is one.
    #[error("{0}")]
    Config(String),
    /// One lab variant's matches cannot be played.
    #[error("variant `{name}`: {source}")]
    Variant {
        /// The variant's name.
        name: String,
        /// Why.
        source: Box<Error>,
    },
    /// `--resume` with no checkpoint in the output folder.
    #[error("--resume: there is no checkpoint to resume at {}", .0.display())]
    NoCheckpoint(PathBuf),
    /// A checkpoint that cannot be resumed: damaged, of another format or
    /// written for another tournament. `path` is the file when known.
    #[error("{}{reason}", at(.path))]
    Checkpoint {
        /// The checkpoint file, when known.
        path: Option<PathBuf>,
        /// What is wrong with it, and what to do.
        reason: String,
    },
    /// A lab plot could not be drawn (plotters' error, debug-printed).
    #[error("drawing a plot: {0}")]
    Plot(String),
    /// A game record that does not replay (another game, unknown rules,
    /// a bad action, an outcome that does not match), in the record
    /// reader's words.
    #[error(transparent)]
    Record(#[from] game::RecordError),
    /// `analyze` was given a game that is not over: its analysis would
    /// show what each seat holds.
    #[error(
        "the game is not over ({actions} actions played): an analysis shows what every seat \
         held, so only a finished game is analysed"
    )]
    Unfinished {
        /// Actions in the record.
        actions: usize,
    },
    /// A bot program that cannot play at all (it never said `ready`):
    /// the run stops rather than rate its stand-in. The words name the
    /// command and quote the end of its stderr.
    #[error("{0}")]
    Unusable(String),
    /// A game misbehaved during a bot playout: a bot chose an illegal
    /// action, or a game stopped without an outcome (bugs, not input).
    #[error("{0}")]
    Engine(String),
}

/// `PATH: ` when there is a path, else nothing.
fn at(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or_else(String::new, |p| format!("{}: ", p.display()))
}

// Used by the runs that write files (tournaments, the lab).
#[cfg(feature = "programs")]
impl Error {
    /// A checkpoint error with no file named (yet).
    pub(crate) fn checkpoint(reason: impl Into<String>) -> Error {
        Error::Checkpoint {
            path: None,
            reason: reason.into(),
        }
    }

    /// An [`Error::Io`] maker for `map_err`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }
}

/// A result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A roster bot that cannot be made is [`Error::Bot`], as a bot program
/// that cannot be is.
#[cfg(feature = "programs")]
impl From<bots::BotError> for Error {
    fn from(e: bots::BotError) -> Error {
        Error::Bot(e.into())
    }
}
