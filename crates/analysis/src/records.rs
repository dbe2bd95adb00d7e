//! Saving bot games as ordinary records (`--save-games DIR`): which games
//! a run keeps ([`Sample`]), checking the folder before anything is
//! played, and writing one record file per game, named after its id.
//!
//! A saved game is the project's one record form (rules version,
//! options, seed, actions, outcome), so `ratrace replay`, `verify` and
//! `analyze` read it like any other. The runs record a game's actions
//! only when it is to be saved ([`crate::playout::Table::record`]), so a
//! run without `--save-games` does no per-game work for it. Files are
//! written by the worker that played the game: records of different
//! games never share a file, so no order or lock is needed.

use crate::Error;
use game::{Game, Outcome, Record};
use std::path::{Path, PathBuf};

/// Which games of a run are saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    /// Every game.
    Every,
    /// Every `n`th game: the games whose number in the run is a multiple
    /// of `n` (the first game, game `n`, game `2n`, ...).
    EveryNth(u64),
    /// Only the games the candidate (a tournament's entrant 0) did not
    /// win: lost, or stopped by the length cap. A shared win is a win.
    Losses,
}

/// Where and which games a run saves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveGames {
    /// The folder the records go to (made when missing).
    pub dir: PathBuf,
    /// Which games.
    pub sample: Sample,
}

impl SaveGames {
    /// Every game into `dir`, or every `every`th when given; `losses`
    /// keeps only the candidate's losses. The flags' error names them.
    pub fn new(dir: PathBuf, every: Option<u64>, losses: bool) -> Result<SaveGames, Error> {
        let sample = match (every, losses) {
            (Some(_), true) => {
                return Err(Error::Config(
                    "--save-every and --save-losses choose different games: give one".into(),
                ))
            }
            (Some(0), false) => {
                return Err(Error::Config("--save-every must be at least 1".into()))
            }
            (Some(n), false) => Sample::EveryNth(n),
            (None, true) => Sample::Losses,
            (None, false) => Sample::Every,
        };
        Ok(SaveGames { dir, sample })
    }

    /// Makes the folder and checks a file can be written in it, so that a
    /// folder that cannot take the records stops the run before any game
    /// is played, with the folder's name and the system's reason.
    pub fn prepare(&self) -> Result<(), Error> {
        let fail = |source: std::io::Error| Error::SaveGames {
            dir: self.dir.clone(),
            source,
        };
        std::fs::create_dir_all(&self.dir).map_err(fail)?;
        let probe = self
            .dir
            .join(format!(".ratrace-write-check-{}", std::process::id()));
        std::fs::write(&probe, b"").map_err(fail)?;
        std::fs::remove_file(&probe).map_err(fail)
    }

    /// Whether game number `index` of the run (0-based) is recorded while
    /// it is played: the losses sample records every game, as a loss is
    /// known only at the end.
    pub fn records(&self, index: u64) -> bool {
        match self.sample {
            Sample::Every | Sample::Losses => true,
            Sample::EveryNth(n) => index % n == 0,
        }
    }

    /// Whether a recorded game is kept, given whether the candidate won it.
    pub fn keeps(&self, candidate_won: bool) -> bool {
        self.sample != Sample::Losses || !candidate_won
    }

    /// The file game `id` of game `G` is saved to.
    pub fn path<G: Game>(&self, id: &str) -> PathBuf {
        record_path(&self.dir, G::NAME, id)
    }

    /// Writes the record of game `id` and returns its path.
    pub fn write<G: Game>(&self, id: &str, record: &Record) -> Result<PathBuf, Error> {
        let path = self.path::<G>(id);
        write_record(&path, record)?;
        Ok(path)
    }
}

/// `DIR/GAME-ID.json`: the id is made of letters, digits, `-` and `_`
/// already; anything else is replaced so that a name cannot leave `dir`.
pub fn record_path(dir: &Path, game: &str, id: &str) -> PathBuf {
    dir.join(format!("{game}-{}.json", extbot::stderr_log::file_safe(id)))
}

/// Writes `record` as pretty JSON, the form `ratrace play` saves.
pub fn write_record(path: &Path, record: &Record) -> Result<(), Error> {
    let json = serde_json::to_string_pretty(record)?;
    std::fs::write(path, json + "\n").map_err(Error::io(path))
}

/// The record of a game of `G` played from a legacy 64-bit `seed`, with
/// who played each seat (bot specs), its actions and how it ended
/// (checked by `replay` and `verify`).
pub fn record_of<G: Game>(
    options: &G::Options,
    players: usize,
    seed: u64,
    names: Vec<String>,
    actions: Vec<String>,
    outcome: Outcome,
) -> Record {
    let mut record = Record::new::<G>(options, players, seed);
    record.names = names;
    record.actions = actions;
    record.outcome = Some(outcome);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_choose_the_games() {
        let dir = PathBuf::from("x");
        let every = SaveGames::new(dir.clone(), None, false).unwrap();
        assert!((0..5).all(|i| every.records(i)) && every.keeps(true));
        let third = SaveGames::new(dir.clone(), Some(3), false).unwrap();
        let kept: Vec<u64> = (0..10).filter(|&i| third.records(i)).collect();
        assert_eq!(kept, vec![0, 3, 6, 9]);
        let losses = SaveGames::new(dir.clone(), None, true).unwrap();
        assert!(losses.records(7) && losses.keeps(false) && !losses.keeps(true));
        assert!(SaveGames::new(dir.clone(), Some(0), false).is_err());
        let both = SaveGames::new(dir, Some(2), true).unwrap_err();
        assert!(both.to_string().contains("--save-every"), "{both}");
    }

    #[test]
    fn an_id_cannot_leave_the_folder() {
        let p = record_path(Path::new("out"), "dalmuti", "../a b/c");
        assert_eq!(p, Path::new("out").join("dalmuti-___a_b_c.json"));
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_refused_before_play() {
        let file = std::env::temp_dir().join(format!("ratrace-notdir-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let save = SaveGames::new(file.join("sub"), None, false).unwrap();
        let err = save.prepare().unwrap_err().to_string();
        assert!(err.contains("--save-games") && err.contains("sub"), "{err}");
        let _ = std::fs::remove_file(&file);
    }
}
