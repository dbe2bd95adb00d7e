//! The director: one task per process that drives the tournaments it
//! holds, and takes over those whose process is gone (its predecessor
//! after a crash, or another process of the site), every [`TICK`] and
//! whenever a person changes one.
//!
//! Driving one is: load its document, read the results of its tables
//! that ended (replayed from the store, so a table another process
//! serves is read the same), ask the rules for the next tables
//! ([`Tournament::advance`]), save the plan (compared on the version,
//! so a join made meanwhile is never lost: the plan is dropped and made
//! again next time), then make each planned table, an ordinary public
//! table seated as the plan says, and save again. A table planned but not
//! marked made (a crash between the two) is made on the next pass, or
//! found made already: its id is the plan's, so it is never made twice.

use super::{now_ms, save};
use crate::error::Error;
use crate::lobby::blocking;
use crate::state::tournaments::{Outcome, Tournament};
use crate::state::AppState;
use crate::store::tournaments::TournamentRow;
use crate::store::StoredFair;
use crate::table::{self, Command};
use crate::tournament_wire::TournamentKind;
use game::Seat;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::oneshot;

/// How often the director looks without being woken.
const TICK: Duration = Duration::from_secs(1);

/// Tournaments driven at once, at most.
const DRIVEN_AT_ONCE: usize = 200;

/// Starts the director unless it runs.
pub(crate) fn ensure_running(state: &AppState) {
    if state.tournaments().started.swap(true, Ordering::SeqCst) {
        return;
    }
    tokio::spawn(run(state.clone()));
}

async fn run(state: AppState) {
    let mut closing = state.closing();
    loop {
        if *closing.borrow() {
            return;
        }
        if let Err(e) = pass(&state).await {
            tracing::error!("tournaments: {e}");
        }
        tokio::select! {
            () = state.tournaments().wake.notified() => {}
            () = tokio::time::sleep(TICK) => {}
            changed = closing.changed() => if changed.is_err() { return },
        }
    }
}

/// One pass over every tournament this process drives.
async fn pass(state: &AppState) -> Result<(), Error> {
    let store = state.store();
    let me = state.node().id.clone();
    let lease = if state.cluster().adopt_orphans {
        state.lease()
    } else {
        // alone, every other process's tournament is a predecessor's
        Duration::ZERO
    };
    let rows = blocking(move || store.driven_tournaments(&me, lease, DRIVEN_AT_ONCE)).await?;
    for row in rows {
        let id = row.id.clone();
        if let Err(e) = drive(state, row).await {
            tracing::error!("tournament {id}: {e}");
        }
    }
    Ok(())
}

/// Drives tournament `row` one step.
async fn drive(state: &AppState, mut row: TournamentRow) -> Result<(), Error> {
    let me = state.node().id.clone();
    if row.node != me {
        let (store, id, from, to) = (state.store(), row.id.clone(), row.node.clone(), me.clone());
        if !blocking(move || store.take_tournament(&id, &from, &to)).await? {
            return Ok(());
        }
        tracing::info!(
            "tournament {}: taken over from a process that stopped",
            row.id
        );
        row.node = me;
    }
    let mut t: Tournament = serde_json::from_str(&row.doc)
        .map_err(|e| Error::Internal(format!("a stored tournament does not read: {e}")))?;
    let before = t.clone();
    let now = now_ms();
    for i in 0..t.tables.len() {
        if t.tables[i].made && t.tables[i].result.is_none() {
            match outcome_of(state, &t.tables[i].id).await? {
                Some(outcome) => t.record(i, outcome, now),
                // in this process's memory, so that it plays (after a
                // restart, or once another process that served it is gone)
                None => awake(state, &t.tables[i].id).await,
            }
        }
    }
    t.advance(now);
    if t != before {
        if !save(state, &row, &t).await? {
            // changed meanwhile (a join): the next pass starts again from it
            return Ok(());
        }
        row.version += 1;
    }
    let mut made = false;
    for i in 0..t.tables.len() {
        if t.tables[i].made {
            continue;
        }
        match make(state, &t, i).await {
            Ok(()) => {
                t.tables[i].made = true;
                made = true;
            }
            // tried again next pass (the server may be at its cap)
            Err(e) => tracing::warn!("tournament {}: table {}: {e}", t.id, t.tables[i].id),
        }
    }
    if made {
        save(state, &row, &t).await?;
    }
    Ok(())
}

/// How table `id` ended, if it did: replayed from the store, so that a
/// table served by another process, or ended before a restart, is read
/// the same. A table over without a result by the rules (abandoned) is
/// void.
async fn outcome_of(state: &AppState, id: &str) -> Result<Option<Outcome>, Error> {
    let store = state.store();
    let key = id.to_string();
    let loading = key.clone();
    let Some(t) = blocking(move || store.load(&loading)).await? else {
        // planned and lost: nobody can play it
        return Ok(Some(void(0)));
    };
    if t.finished_at.is_none() {
        return Ok(None);
    }
    let n = t.seats.len();
    let result = tokio::task::spawn_blocking(move || table::stored_result(&t))
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
        .map_err(|e| Error::Internal(format!("table {key} does not replay: {e}")))?;
    Ok(Some(match result {
        Some(r) => Outcome {
            stand_in: (0..r.places.len())
                .map(|i| r.engaged.get(i).is_some_and(|e| !e))
                .collect(),
            places: r.places,
            void: false,
        },
        None => void(n),
    }))
}

/// Loads live table `id` here unless some process serves it.
async fn awake(state: &AppState, id: &str) {
    if let Err(e) = state.load_table(id, None).await {
        if !matches!(e, Error::Elsewhere(_)) {
            tracing::warn!("tournament table {id}: {e}");
        }
    }
}

fn void(seats: usize) -> Outcome {
    Outcome {
        places: vec![0; seats],
        stand_in: vec![false; seats],
        void: true,
    }
}

/// Makes table `i` of `t` as planned: created and stored as `POST
/// /api/tables` would (unless it exists), public so that anyone may
/// watch, then each person joined to their seat under their identity
/// (unless they hold it): they take it from any device with
/// `/t/{id}#back`, which gives it a token.
async fn make(state: &AppState, t: &Tournament, i: usize) -> Result<(), Error> {
    let planned = &t.tables[i];
    let store = state.store();
    let id = planned.id.clone();
    let joined = match blocking(move || store.load(&id)).await? {
        Some(existing) => existing.social.players,
        None => {
            create(state, t, i).await?;
            Default::default()
        }
    };
    for (s, e) in planned.seats.iter().enumerate() {
        let Some(entrant) = s_entrant(t, *e) else {
            continue;
        };
        if joined.contains_key(&Seat::new(s)) {
            continue;
        }
        let (reply, answer) = oneshot::channel();
        let cmd = Command::Join {
            seat: Some(Seat::new(s)),
            name: entrant.name.clone(),
            key: None,
            contribution: None,
            player: entrant.player.clone(),
            origin: entrant.origin.clone().unwrap_or_default(),
            reply,
        };
        let addr = crate::addr::ClientAddr(std::net::Ipv4Addr::LOCALHOST.into());
        state.send(&planned.id, addr, cmd).await?;
        answer
            .await
            .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    }
    Ok(())
}

/// Creates and starts table `i` of `t`.
async fn create(state: &AppState, t: &Tournament, i: usize) -> Result<(), Error> {
    let planned = &t.tables[i];
    let limits = state.limits();
    let mut stored = super::table_request(t, &planned.seats, &state.external_bots(), &limits)?;
    stored.id = planned.id.clone();
    let fair = if t.kind == TournamentKind::Duplicate {
        // every table of the round deals from the round's secret, bound
        // to no table and open to no contribution: the same cards
        StoredFair {
            secret: t.deal_secret(planned.round),
            contributions: Default::default(),
            table: None,
            signed: false,
        }
    } else {
        StoredFair::new(&stored.id)
    };
    stored.config.unattended = true;
    stored.seed = fair.seed();
    stored.seed_hash = registry::fair::commitment(&fair.secret);
    stored.fair = Some(fair);
    // counted against no address's cap: the tournament holds it
    stored.access.owner = Some(format!("tournament:{}", t.id));
    let store = state.store();
    let (all, _) = blocking(move || store.count_live("")).await?;
    if all >= limits.max_live_tables {
        return Err(Error::Busy(format!(
            "the server has {all} unfinished tables, its most"
        )));
    }
    let store = state.store();
    let copy = stored.clone();
    let node = state.node().id.clone();
    let epoch = blocking(move || store.create_table(&copy, &node)).await?;
    let id = stored.id.clone();
    let handle = table::spawn(stored, state.ctx(), epoch)?;
    state.insert(id, handle);
    state.metrics().table_created();
    Ok(())
}

/// The person entrant at a seat, if a person holds it.
fn s_entrant(t: &Tournament, e: Option<usize>) -> Option<&crate::state::tournaments::Entrant> {
    e.map(|e| &t.entrants[e]).filter(|e| e.player.is_some())
}
