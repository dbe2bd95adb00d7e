//! The seater: one task per process that asks the book which groups are
//! due (on every join, and every [`TICK`] for the waits and expiries) and
//! makes each group's table, an ordinary one: created and stored as
//! `POST /api/tables` would, then each person joined to their seat as
//! `POST /api/tables/{id}/join` would, so their token, their identity,
//! their contribution to the fair deal and the ratings work as anywhere.
//!
//! The book decides alone and at once (under its lock); the slow part
//! (the store, the table task) runs in a task per group, after which the
//! tickets are settled with their seats, or with the reason it failed.

use crate::error::Error;
use crate::lobby::{build, CreateRequest, SeatRequest};
use crate::protocol::PairingStatus;
use crate::state::pairing::Group;
use crate::state::AppState;
use crate::table::{self, Command};
use game::Seat;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How often the seater looks at the waits without being woken.
const TICK: Duration = Duration::from_millis(250);

/// The longest a group's table may take to be made and joined.
const MAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// Starts the seater unless it runs.
pub(super) fn ensure_running(state: &AppState) {
    if state.pairing().started.swap(true, Ordering::SeqCst) {
        return;
    }
    tokio::spawn(run(state.clone()));
}

async fn run(state: AppState) {
    let mut closing = state.closing();
    let mut adopted_at: Option<Instant> = None;
    loop {
        if *closing.borrow() {
            return;
        }
        // the tickets of a process that is gone, at start and every lease
        if adopted_at.is_none_or(|at| at.elapsed() >= state.lease()) {
            super::keep::adopt(&state).await;
            adopted_at = Some(Instant::now());
        }
        let (groups, changed, expired) = {
            let limits = state.limits();
            let mut book = state.pairing().book();
            let held = book.len();
            let groups = book.due(&limits, Instant::now());
            let changed = !groups.is_empty() || book.len() != held;
            (groups, changed, book.take_expired())
        };
        super::keep::forget(&state, expired).await;
        if changed {
            state.pairing().touch();
        }
        for group in groups {
            tokio::spawn(seat(state.clone(), group));
        }
        tokio::select! {
            () = state.pairing().wake.notified() => {}
            () = tokio::time::sleep(TICK) => {}
            changed = closing.changed() => if changed.is_err() { return },
        }
    }
}

/// Makes `group`'s table and settles its tickets, within [`MAKE_TIMEOUT`]
/// (a store that does not answer leaves nobody seating for ever).
async fn seat(state: AppState, group: Group) {
    let outcome = tokio::time::timeout(MAKE_TIMEOUT, make(&state, &group))
        .await
        .unwrap_or_else(|_| {
            Err(Error::Busy(
                "the server took too long to make the table: press Play now again".to_string(),
            ))
        });
    let now = Instant::now();
    {
        let mut book = state.pairing().book();
        match outcome {
            Ok(seated) => {
                for ((id, _), status) in group.people.iter().zip(seated) {
                    book.settle(id, status, now);
                }
            }
            Err(e) => {
                if let Error::Internal(cause) = &e {
                    tracing::error!("pairing: no table for a group: {cause}");
                }
                for (id, _) in &group.people {
                    let message = e.to_string();
                    book.settle(id, PairingStatus::Failed { message }, now);
                }
            }
        }
    }
    // seated or refused: no longer waiting anywhere
    super::keep::forget(
        &state,
        group.people.iter().map(|(id, _)| id.clone()).collect(),
    )
    .await;
    state.pairing().touch();
}

/// The table for `group`, stored and running, and each person's status
/// there (in the group's order).
async fn make(state: &AppState, group: &Group) -> Result<Vec<PairingStatus>, Error> {
    let limits = state.limits();
    let external = state.external_bots();
    let preset = group.preset;
    let mut seats: Vec<SeatRequest> = group.people.iter().map(|_| SeatRequest::Human).collect();
    while seats.len() < preset.players {
        seats.push(SeatRequest::Bot {
            bot: Some(group.bot.clone()),
        });
    }
    let req = CreateRequest {
        game: preset.game.to_string(),
        players: Some(preset.players),
        options: preset
            .options
            .iter()
            .map(|(k, v)| {
                (
                    (*k).to_string(),
                    serde_json::Value::String((*v).to_string()),
                )
            })
            .collect(),
        seats: Some(seats),
        bot_delay_ms: None,
        // Strangers share every pairing table: nobody may stall it.
        turn_timer_ms: Some(limits.public_turn_timer_ms),
        public: preset.public,
        spectator_chat: false,
    };
    let mut stored = registry::dispatch!(preset.game, G => build::<G>(&req, &limits, &external),
        _ => Err(Error::BadInput("unknown game".to_string())))?;
    let store = state.store();
    // The table is its longest waiter's: it counts in their address's cap
    // on unfinished tables as a table they created would (a ticket is
    // refused while that cap is full, so tickets are no way around it).
    let owner = group
        .people
        .first()
        .map(|(_, who)| who.addr.0.to_string())
        .unwrap_or_default();
    let key = owner.clone();
    let (all, _) = tokio::task::spawn_blocking(move || store.count_live(&key))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    if all >= limits.max_live_tables {
        return Err(Error::RateLimited {
            retry_after: 60,
            message: format!("the server has {all} unfinished tables, its most: try again later"),
        });
    }
    let key = (!preset.public).then(crate::ids::new_token);
    stored.access.invite_hash = key.as_deref().map(crate::ids::sha256_hex);
    stored.access.owner = Some(owner);
    let store = state.store();
    let copy = stored.clone();
    let node = state.node().id.clone();
    let epoch = tokio::task::spawn_blocking(move || store.create_table(&copy, &node))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    let id = stored.id.clone();
    let handle = table::spawn(stored, state.ctx(), epoch)?;
    state.insert(id.clone(), handle);
    state.metrics().table_created();
    let mut out = Vec::with_capacity(group.people.len());
    for (i, (_, who)) in group.people.iter().enumerate() {
        let (reply, answer) = oneshot::channel();
        let cmd = Command::Join {
            seat: Some(Seat::new(i)),
            name: who.name.clone(),
            key: key.clone(),
            contribution: who.contribution,
            player: Some(who.player.clone()),
            origin: state.origin(who.addr),
            reply,
        };
        let joined = match state.send(&id, who.addr, cmd).await {
            Ok(_) => answer
                .await
                .map_err(|_| Error::Internal("table task stopped".to_string()))
                .and_then(|r| r),
            Err(e) => Err(e),
        };
        out.push(match joined {
            Ok((seat, token, commitment)) => PairingStatus::Seated {
                table: id.clone(),
                seat,
                token,
                commitment,
                key: state.signing_key().public_hex(),
            },
            Err(e) => PairingStatus::Failed {
                message: e.to_string(),
            },
        });
    }
    Ok(out)
}
