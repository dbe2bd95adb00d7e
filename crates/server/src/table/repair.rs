//! Mending what a crash left half-written: games over but not marked so, results not recorded.

use super::result::{result_of, Acted};
use crate::store::Store;
use game::Game as _;

/// Records the results a crash left unwritten: every table whose game
/// ended by the rules without its result (the end and the result are two
/// writes) is replayed, and its result and rating updates written, once
/// (the store writes a result only where there is none). Returns how many.
pub fn record_missing_results(store: &dyn Store) -> usize {
    const BATCH: usize = 500;
    let mut recorded = 0;
    let mut after = String::new();
    loop {
        let ids = match store.unrecorded_ids(&after, BATCH) {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("results to repair: {e}");
                return recorded;
            }
        };
        for id in &ids {
            let Ok(Some(t)) = store.load(id) else {
                continue;
            };
            let result = match stored_result(&t) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!("table {id} does not replay: {e}");
                    None
                }
            };
            match result.map(|r| store.record_result(id, &r)) {
                Some(Ok(true)) => recorded += 1,
                Some(Ok(false)) | None => {}
                Some(Err(e)) => tracing::error!("recording the result of {id}: {e}"),
            }
        }
        // Walked by id, so a table that does not replay (logged) is passed
        // once, not asked again.
        match ids.last() {
            Some(last) if ids.len() == BATCH => after.clone_from(last),
            _ => return recorded,
        }
    }
}

/// Replays every unfinished table of `store` and marks those whose game is
/// over (a crash between an old server's last action and its separate end
/// mark left a finished game looking unfinished), then records the results
/// a crash left unwritten ([`record_missing_results`]). Returns how many
/// tables it repaired.
pub fn repair_all(store: &dyn Store) -> usize {
    let ids = store.unfinished_ids().unwrap_or_else(|e| {
        tracing::error!("repair: {e}");
        Vec::new()
    });
    let mut repaired = 0;
    for id in ids {
        let Ok(Some(t)) = store.load(&id) else {
            continue;
        };
        let over = registry::dispatch!(t.game.as_str(), G => t.record()
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome().is_some()),
            _ => Ok(false));
        match over {
            Ok(true) => match store.mark_finished(&id, crate::clock::unix_now()) {
                Ok(()) => repaired += 1,
                Err(e) => tracing::error!("repair {id}: {e}"),
            },
            Ok(false) => {}
            Err(e) => tracing::error!("table {id} does not replay: {e}"),
        }
    }
    repaired + record_missing_results(store)
}

/// The result of stored table `t`, replayed from its actions: `None` if
/// its game is not over by the rules (still playing, or abandoned);
/// an error if it does not replay.
pub(crate) fn stored_result(
    t: &crate::store::StoredTable,
) -> Result<Option<crate::social::GameResult>, game::RecordError> {
    let outcome = registry::dispatch!(t.game.as_str(), G => t.record()
        .replay::<G>(false, |_, _, _| {})
        .map(|g| g.outcome()),
        _ => Ok(None))?;
    Ok(outcome.and_then(|o| {
        result_of(
            &t.game,
            &t.seats,
            &t.social,
            t.access.public,
            t.actions.len(),
            &o,
            // Who decided what died with the process: a program seat
            // keeps its credit.
            &[],
            &Acted::of(&t.actions, t.seats.len()),
        )
        .map(|r| crate::social::GameResult {
            tutorial: t.config.tutorial,
            ..r
        })
    }))
}
