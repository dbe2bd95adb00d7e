//! Keeping a bot program's stderr per game (`--bot-log DIR`): one file
//! per seat and game, bounded in size, so a bot author can read what
//! their program said during the game they are looking at.
//!
//! The process's stderr drain thread writes into the log it is handed
//! ([`crate::Process::log_stderr`]); a new game hands it a new file. The
//! pipe is read as the bot writes, so lines written in the last moments of
//! a game may land at the start of the next game's file. A file stops at
//! [`LOG_CAP`] bytes with a marker saying so, as the flood limit stops the
//! bot itself; a file that cannot be made is no strike (the game goes on,
//! unlogged): the shells check the folder before the run.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bytes kept per file; what comes after is counted, not kept.
pub const LOG_CAP: u64 = 1 << 20;

/// One game's stderr file.
pub struct StderrLog {
    file: File,
    written: u64,
    cut: bool,
}

impl StderrLog {
    /// Creates (or replaces) the file at `path`.
    pub fn create(path: &Path) -> std::io::Result<StderrLog> {
        Ok(StderrLog {
            file: File::create(path)?,
            written: 0,
            cut: false,
        })
    }

    /// Appends what the bot wrote, up to [`LOG_CAP`] bytes in all, then
    /// the marker once. Write errors stop the log quietly: a full disk
    /// must not stop the game.
    pub fn write(&mut self, bytes: &[u8]) {
        if self.cut {
            return;
        }
        let room = LOG_CAP.saturating_sub(self.written) as usize;
        let keep = &bytes[..bytes.len().min(room)];
        if self.file.write_all(keep).is_err() {
            self.cut = true;
            return;
        }
        self.written += keep.len() as u64;
        if keep.len() < bytes.len() {
            self.cut = true;
            let _ = write!(
                self.file,
                "\n[ratrace: stderr log cut at {LOG_CAP} bytes; the rest of this game's stderr is not kept]\n"
            );
        }
    }
}

/// The file of the bot at `seat` in game `game` (its id, e.g.
/// `dalmuti-d3-l0-r1`) in `dir`: `GAME-SEAT.stderr.log`, with anything
/// but letters, digits, `-` and `_` in the id replaced, so that a name
/// cannot leave `dir`.
pub fn log_path(dir: &Path, game: &str, seat: game::Seat) -> PathBuf {
    dir.join(format!("{}-{seat}.stderr.log", file_safe(game)))
}

/// `name` as a part of a file name: letters, digits, `-` and `_` kept,
/// anything else (a `/`, a `.`) replaced by `_`, so that the name stays in
/// its folder.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_stops_at_the_cap_with_a_marker() {
        let dir = std::env::temp_dir().join(format!("ratrace-stderr-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = log_path(&dir, "g/../1", game::Seat::new(1));
        assert_eq!(path.parent(), Some(dir.as_path()));
        let mut log = StderrLog::create(&path).unwrap();
        let chunk = vec![b'x'; 300_000];
        for _ in 0..5 {
            log.write(&chunk);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("xxx"));
        let marker = text.find("[ratrace: stderr log cut").unwrap();
        assert_eq!(marker as u64, LOG_CAP + 1, "the cap, then a newline");
        assert!(text.len() < LOG_CAP as usize + 200);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
