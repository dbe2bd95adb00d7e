//! Reading and writing game record files (JSON files of
//! [`game::Record`]); parsing the text and the play-by-play of a replay
//! are [`registry::records`]'s, re-exported here.
//!
//! A record is the one form of a game: a replay re-runs the engine from
//! its seed and actions, so every shuffle, deal and roll is reproduced, not
//! stored. Errors name the file, then the first bad line (JSON) or action
//! (rules).

use crate::Error;
use game::Record;
use std::path::Path;

pub use registry::records::{parse, play_by_play};

/// Reads a record file, with errors that name the file and line.
pub fn read(path: &Path) -> Result<Record, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    parse(&text).map_err(Error::in_file(path))
}

/// Writes a record as pretty JSON, creating parent folders.
pub fn write(path: &Path, record: &Record) -> Result<(), Error> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    }
    let json = serde_json::to_string_pretty(record).map_err(Error::Json)?;
    std::fs::write(path, json + "\n").map_err(Error::io(path))
}
