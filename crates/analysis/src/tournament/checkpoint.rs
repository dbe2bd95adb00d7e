//! The tournament's checkpoint: a JSON-lines file in the output folder, a
//! header line with the configuration's [`Fingerprint`], then one line per
//! finished deal, flushed.
//!
//! One line per deal, appended and flushed, so an interrupt loses at most
//! the deal being written (a torn last line is dropped on reading), and a
//! rerun of the same command resumes where it stopped; the fingerprint
//! makes a rerun of a different tournament an error instead of a mix.

use super::worker::Deal;
use super::Resume;
use crate::Error;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The checkpoint file's format version (its header line's `ratrace_tournament`).
const FORMAT: u32 = 1;

/// What a checkpoint was written for: everything that decides a deal's
/// games. The deal count, threads and SPRT are not in it, so a run can be
/// lengthened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Game name.
    pub game: String,
    /// Seats at the start.
    pub players: usize,
    /// Options as `key=value`.
    pub options: Vec<String>,
    /// The entrants' bot specs.
    pub entrants: Vec<String>,
    /// Each lineup: the entrant in each seat in rotation 0.
    pub lineups: Vec<Vec<usize>>,
    /// The seed.
    pub seed: u64,
    /// The length cap.
    pub max_actions: u64,
}

#[derive(Serialize, Deserialize)]
struct Header {
    ratrace_tournament: u32,
    config: Fingerprint,
}

/// The checkpoint's path in an output folder.
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.jsonl")
}

/// Reads the checkpoint in `dir` (when there is one and `resume` allows)
/// and opens it for appending; a new one gets its header line.
#[allow(clippy::type_complexity)]
pub(crate) fn open_checkpoint(
    dir: &Path,
    fingerprint: &Fingerprint,
    per_deal: u64,
    resume: Resume,
) -> Result<(Vec<Deal>, (PathBuf, std::fs::File)), Error> {
    let path = checkpoint_path(dir);
    if resume == Resume::Require && !path.exists() {
        return Err(Error::NoCheckpoint(path));
    }
    std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    let err = |source: std::io::Error| Error::Io {
        path: path.clone(),
        source,
    };
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) if resume != Resume::Fresh && !text.trim().is_empty() => Some(text),
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(Error::Checkpoint {
                path: Some(path),
                reason: "unreadable checkpoint (not text); use another --out or --fresh".into(),
            })
        }
        Err(e) => return Err(err(e)),
    };
    let Some(text) = existing else {
        if resume == Resume::Require {
            return Err(Error::NoCheckpoint(path));
        }
        let header = serde_json::to_string(&Header {
            ratrace_tournament: FORMAT,
            config: fingerprint.clone(),
        })?;
        let mut file = std::fs::File::create(&path).map_err(err)?;
        file.write_all(format!("{header}\n").as_bytes())
            .map_err(err)?;
        return Ok((Vec::new(), (path, file)));
    };
    let (deals, good_len) =
        parse_checkpoint(&text, fingerprint, per_deal).map_err(|e| match e {
            Error::Checkpoint { path: None, reason } => Error::Checkpoint {
                path: Some(path.clone()),
                reason,
            },
            e => e,
        })?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .map_err(err)?;
    // Drop a last line cut short by an interrupt, then append after the
    // good lines.
    file.set_len(good_len as u64).map_err(err)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(err)?;
    Ok((deals, (path, file)))
}

/// Parses a checkpoint written for `fingerprint`: its deals, and the
/// length of the text up to the last complete line (a torn last line,
/// from an interrupt mid-write, is dropped).
pub fn parse_checkpoint(
    text: &str,
    fingerprint: &Fingerprint,
    per_deal: u64,
) -> Result<(Vec<Deal>, usize), Error> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let header: Header = Some(first)
        .filter(|l| l.ends_with('\n'))
        .and_then(|l| serde_json::from_str(l.trim()).ok())
        .ok_or_else(|| Error::checkpoint("unreadable checkpoint: the first line is not a tournament header; use another --out or --fresh"))?;
    if header.ratrace_tournament != FORMAT {
        return Err(Error::checkpoint(format!(
            "checkpoint format {} is not {FORMAT}; use another --out or --fresh",
            header.ratrace_tournament
        )));
    }
    if header.config != *fingerprint {
        return Err(Error::checkpoint(format!(
            "the checkpoint was written for another tournament ({}); use another --out, or --fresh to replace it",
            differences(&header.config, fingerprint)
        )));
    }
    let mut deals = Vec::new();
    let mut good = first.len();
    let entrants = fingerprint.entrants.len();
    for (i, line) in lines.enumerate() {
        let complete = line.ends_with('\n');
        let parsed = serde_json::from_str::<Deal>(line.trim())
            .map_err(Error::Json)
            .and_then(|d| {
                check_deal(&d, deals.len() as u64, fingerprint, entrants, per_deal).map(|()| d)
            });
        match (parsed, complete) {
            (Ok(mut d), true) => {
                super::games::fill_ids(&mut d, fingerprint.seed);
                deals.push(d);
                good += line.len();
            }
            // A torn last line: the run was stopped mid-write.
            (_, false) => break,
            (Err(e), true) => {
                return Err(Error::checkpoint(format!(
                    "unreadable checkpoint at line {}: {e}",
                    i + 2
                )))
            }
        }
    }
    Ok((deals, good))
}

/// What differs between two fingerprints, for the error message.
fn differences(there: &Fingerprint, here: &Fingerprint) -> String {
    let mut out = Vec::new();
    let mut cmp = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name} {a} there, {b} here"));
        }
    };
    cmp("game", there.game.clone(), here.game.clone());
    cmp(
        "players",
        there.players.to_string(),
        here.players.to_string(),
    );
    cmp("options", there.options.join(" "), here.options.join(" "));
    cmp("bots", there.entrants.join(","), here.entrants.join(","));
    cmp(
        "lineups",
        format!("{:?}", there.lineups),
        format!("{:?}", here.lineups),
    );
    cmp("seed", there.seed.to_string(), here.seed.to_string());
    cmp(
        "max-actions",
        there.max_actions.to_string(),
        here.max_actions.to_string(),
    );
    out.join("; ")
}

/// Checks a deal read back from a checkpoint, so a damaged file is an
/// error rather than a panic in the analysis.
fn check_deal(
    d: &Deal,
    want: u64,
    f: &Fingerprint,
    entrants: usize,
    per_deal: u64,
) -> Result<(), Error> {
    if d.deal != want {
        return Err(Error::checkpoint(format!(
            "deal {} where deal {want} was expected",
            d.deal
        )));
    }
    if d.games.len() as u64 != per_deal {
        return Err(Error::checkpoint(format!(
            "deal {} has {} games, not {per_deal}",
            d.deal,
            d.games.len()
        )));
    }
    for p in &d.games {
        let g = &p.game;
        let n = g.seating.len();
        let ok = p.lineup < f.lineups.len()
            && n >= f.players
            && g.places.len() == n
            && g.scores.len() == n
            && g.seating.iter().all(|&e| e < entrants)
            && g.winners.iter().all(|&w| w < n);
        if !ok {
            return Err(Error::checkpoint(format!(
                "deal {} has a malformed game",
                d.deal
            )));
        }
    }
    Ok(())
}
