//! `ratrace db copy`: moves a whole site from one store to another (a
//! SQLite file that outgrew one machine into PostgreSQL), every table with
//! its seats and actions, column for column, then proves it.
//!
//! The copy walks the source in id order, a page at a time, so it needs
//! no more memory for 40,000 tables than for 40. Each table is restored
//! unowned in its own write, and a table the target already holds is
//! skipped if it is the same and refused if it differs, so an interrupted
//! copy can be run again. The proof: every table's dump reads back equal
//! from the target, and every finished game's record, made from the
//! target, passes the same check as `ratrace verify` against the outcome
//! the source's record gives (it replays and ends the same; whether its
//! commitment proves anything is `ratrace verify --key`'s to say).

use super::model::{Store, StoreError, TableDump};
use game::Game;

/// Tables read from the source per page.
const PAGE: usize = 500;

/// What a copy did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Tables in the source.
    pub tables: usize,
    /// Of them, written to the target now.
    pub copied: usize,
    /// Of them, already in the target, the same (an earlier run).
    pub already: usize,
    /// Actions in all.
    pub actions: usize,
    /// Finished games whose record, made from the target, verified.
    pub verified: usize,
}

/// Why a copy stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CopyError {
    /// A store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The target holds a different table under the same id.
    #[error("table {0}: the target already holds a different table with this id")]
    Conflict(String),
    /// The target reads back something other than what was written.
    #[error("table {0}: the target reads back differently from the source")]
    Differs(String),
    /// A finished game's record from the target does not verify.
    #[error("table {id}: its record does not verify on the target: {reason}")]
    Unverified {
        /// The table.
        id: String,
        /// The check's first failure.
        reason: String,
    },
}

/// How many tables `store` holds (one pass over the ids).
pub fn count(store: &dyn Store) -> Result<usize, StoreError> {
    let mut after = String::new();
    let mut n = 0;
    loop {
        let page = store.ids_after(&after, PAGE * 10)?;
        let Some(last) = page.last() else {
            return Ok(n);
        };
        n += page.len();
        after = last.clone();
    }
}

/// Tables copied at once (each worker copies and checks its share of a
/// page; replaying finished games to verify them is the CPU part).
const WORKERS: usize = 4;

/// What copying one table did.
struct One {
    already: bool,
    actions: usize,
    verified: bool,
}

/// Copies every table of `from` into `to` and checks each, calling
/// `progress` after each table. Blocking: run it off any async worker.
pub fn copy(
    from: &dyn Store,
    to: &dyn Store,
    mut progress: impl FnMut(&CopyReport),
) -> Result<CopyReport, CopyError> {
    let mut report = CopyReport::default();
    let mut after = String::new();
    loop {
        let page = from.ids_after(&after, PAGE)?;
        let Some(last) = page.last() else {
            return Ok(report);
        };
        after = last.clone();
        let share = page.len().div_ceil(WORKERS);
        let done: Vec<Result<Vec<One>, CopyError>> = std::thread::scope(|s| {
            let workers: Vec<_> = page
                .chunks(share)
                .map(|ids| {
                    s.spawn(move || {
                        ids.iter()
                            .filter_map(|id| copy_one(from, to, id).transpose())
                            .collect()
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join().unwrap_or_else(|_| {
                        Err(CopyError::Differs("a copy worker panicked".to_string()))
                    })
                })
                .collect()
        });
        for share in done {
            for one in share? {
                if one.already {
                    report.already += 1;
                } else {
                    report.copied += 1;
                }
                report.verified += usize::from(one.verified);
                report.tables += 1;
                report.actions += one.actions;
                progress(&report);
            }
        }
    }
}

/// Copies table `id` (unless the target has it already, the same) and
/// checks it; `None` if the source no longer has it.
fn copy_one(from: &dyn Store, to: &dyn Store, id: &str) -> Result<Option<One>, CopyError> {
    let Some(dump) = from.dump(id)? else {
        return Ok(None);
    };
    let already = match to.dump(id)? {
        Some(there) if there == dump => true,
        Some(_) => return Err(CopyError::Conflict(id.to_string())),
        None => {
            to.restore(&dump)?;
            false
        }
    };
    let there = to
        .dump(id)?
        .ok_or_else(|| CopyError::Differs(id.to_string()))?;
    if there != dump {
        return Err(CopyError::Differs(id.to_string()));
    }
    Ok(Some(One {
        already,
        actions: dump.table.actions.len(),
        verified: check(&dump, &there)?,
    }))
}

/// For a finished game: its record made from the target verifies against
/// the outcome the source's record gives. `Ok(false)` for tables with no
/// finished game to verify (unfinished, abandoned).
fn check(source: &TableDump, target: &TableDump) -> Result<bool, CopyError> {
    if source.ended.as_deref() != Some("over") {
        return Ok(false);
    }
    let id = &source.table.id;
    let unverified = |reason: String| CopyError::Unverified {
        id: id.clone(),
        reason,
    };
    let want = source.table.record();
    let outcome = registry::dispatch!(want.game.as_str(), G => want
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome())
            .map_err(|e| unverified(format!("the source's record does not replay: {e}")))?,
        _ => return Err(unverified(format!("unknown game {}", want.game))));
    let mut record = target.table.record();
    record.outcome = outcome;
    // What the copy proves is that the record replays and ends the same:
    // a legacy seed hash, or a signature this check has no key for, is
    // not the copy's to judge (`ratrace verify --key` is).
    let report = registry::verify::verify(&record);
    if report.verdict != registry::verify::Verdict::Failed {
        Ok(true)
    } else {
        Err(unverified(
            report.error.unwrap_or_else(|| "mismatch".to_string()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::contract::{act, table};
    use super::*;
    use crate::store::SqliteStore;

    #[test]
    fn a_copy_moves_everything_proves_it_and_can_run_again() {
        let from = SqliteStore::in_memory().unwrap();
        let to = SqliteStore::in_memory().unwrap();
        for i in 0..1203 {
            from.create_table(&table(&format!("t{i:05}")), "n").unwrap();
        }
        from.append_action("t00007", &act(1, 1, "pass"), 5, false, 1)
            .unwrap();
        assert_eq!(count(&from).unwrap(), 1203);
        let mut calls = 0;
        let report = copy(&from, &to, |_| calls += 1).unwrap();
        assert_eq!(calls, 1203);
        assert_eq!(
            (report.tables, report.copied, report.already, report.actions),
            (1203, 1203, 0, 1)
        );
        assert_eq!(to.dump("t00007").unwrap(), from.dump("t00007").unwrap());
        let again = copy(&from, &to, |_| {}).unwrap();
        assert_eq!((again.copied, again.already), (0, 1203));
        // A different table under a copied id is refused, not overwritten.
        let other = SqliteStore::in_memory().unwrap();
        let mut t = table("t00001");
        t.players = 4;
        other.create_table(&t, "n").unwrap();
        assert!(matches!(
            copy(&other, &to, |_| {}),
            Err(CopyError::Conflict(id)) if id == "t00001"
        ));
    }
}
