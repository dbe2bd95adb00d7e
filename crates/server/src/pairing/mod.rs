//! Quick pairing, "Play now" (docs/server.md, "Quick pairing"): the HTTP
//! API that puts a person in a preset's pool and tells them where they
//! stand, over the book in the shared state (`state/pairing.rs`), and the
//! seater task that turns due groups into ordinary tables (`seat.rs`).
//!
//! Plain HTTP, a long poll the waiting page makes again as soon as it is
//! answered, rather than a WebSocket: a wait is short, the answer is
//! small, the asking is the ticket's heartbeat (a closed page stops
//! asking and its ticket expires), and a reload needs nothing but the
//! ticket id the page kept.
//! Every input is checked before the book sees it: the preset, the name,
//! the identity, the bot level and the wait from declared lists, the body
//! at most [`BODY_LIMIT`] bytes, and a new ticket is metered per address
//! (`quota::Kind::Pairing`).

mod keep;
mod seat;

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::lobby::{meter, JsonBody};
use crate::protocol::{PairingRequest, PairingStatus, PairingTicket};
use crate::quota::Kind;
use crate::state::pairing::{Joining, DEFAULT_WAIT_S, PRESETS, WAITS_S};
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use bots::Roster;
use std::time::{Duration, Instant};

/// Largest body of `POST /api/pairing`.
pub const BODY_LIMIT: usize = 2048;

/// Starts the seater, which first takes over the waiting tickets of a
/// process that is gone (this one's predecessor, after a crash): called
/// once the server serves.
pub fn resume(state: &AppState) {
    seat::ensure_running(state);
}

/// The pairing routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/pairing", post(join))
        .route("/api/pairing/{ticket}", get(see).delete(cancel))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// `POST /api/pairing`: a new ticket in the preset's pool (201), or a
/// refusal that changes nothing.
async fn join(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<PairingRequest>,
) -> Result<(StatusCode, Json<PairingTicket>), Error> {
    let who = check(&state, &req, addr)?;
    meter(&state, Kind::Pairing, addr, "pairing tickets")?;
    let limits = state.limits();
    live_tables_allow(&state, addr).await?;
    let id = crate::ids::new_token();
    let ticket = state
        .pairing()
        .book()
        .join(id.clone(), who.clone(), &limits, Instant::now())?;
    // kept before it is answered: a ticket its holder heard of survives a
    // crash of this process
    if let Err(e) = keep::keep(&state, &id, &who).await {
        let _ = state.pairing().book().cancel(&id);
        return Err(e);
    }
    seat::ensure_running(&state);
    state.pairing().wake.notify_one();
    state.pairing().touch();
    Ok((StatusCode::CREATED, Json(ticket)))
}

/// Refuses a ticket while `addr` has as many unfinished tables as it may
/// (a pairing table is its longest waiter's, as a created one is its
/// creator's), so that waiting alone for bots is no way around the cap.
async fn live_tables_allow(state: &AppState, addr: ClientAddr) -> Result<(), Error> {
    let store = state.store();
    let key = addr.0.to_string();
    let (_, mine) = tokio::task::spawn_blocking(move || store.count_live(&key))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    if mine >= state.limits().max_live_tables_per_ip {
        state.metrics().refused(crate::metrics::Refusal::LiveTables);
        return Err(Error::RateLimited {
            retry_after: 60,
            message: format!(
                "your address has {mine} unfinished tables, the most it may have: finish one first"
            ),
        });
    }
    Ok(())
}

/// A request checked against the declared lists: the person to put in
/// the pool.
fn check(state: &AppState, req: &PairingRequest, addr: ClientAddr) -> Result<Joining, Error> {
    let preset = PRESETS
        .iter()
        .position(|p| p.id == req.preset)
        .ok_or_else(|| {
            let ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
            Error::BadInput(format!("unknown preset (choose from: {})", ids.join(", ")))
        })?;
    let name = crate::names::clean_name_among(&req.name, &state.external_bots().names())?;
    let player = crate::social::player_id(&req.player)?;
    let wait_s = req.wait_s.unwrap_or(DEFAULT_WAIT_S);
    if !WAITS_S.contains(&wait_s) {
        return Err(Error::BadInput(format!(
            "wait_s is one of {WAITS_S:?} (seconds before bots fill the free seats)"
        )));
    }
    let bot = req.bot.clone().unwrap_or_else(|| "heuristic".to_string());
    let ladder = registry::dispatch!(PRESETS[preset].game, G => <G as Roster>::LADDER,
        _ => &[][..]);
    if !ladder.contains(&bot.as_str()) {
        return Err(Error::BadInput(format!(
            "bot is one of the game's levels: {}",
            ladder.join(", ")
        )));
    }
    let contribution = req
        .contribution
        .as_deref()
        .map(registry::fair::parse_contribution)
        .transpose()
        .map_err(|e| Error::BadInput(e.to_string()))?;
    Ok(Joining {
        preset,
        name,
        player,
        addr,
        bot,
        wait: Duration::from_secs(wait_s),
        contribution,
    })
}

/// A ticket id as the API takes it: 64 hex digits.
fn ticket_id(ticket: &str) -> Result<&str, Error> {
    if ticket.len() == 64 && ticket.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(ticket)
    } else {
        Err(Error::UnknownTicket)
    }
}

/// The longest a long poll (`?wait=1`) is held.
pub const LONG_POLL: Duration = Duration::from_secs(20);

/// `GET /api/pairing/{ticket}`: where the ticket stands (its heartbeat).
/// With `?wait=1`, a waiting ticket's answer is held until it changes
/// (another person came or left, it is seated) or for [`LONG_POLL`], so a
/// page learns of its seat at once without asking many times a second.
async fn see(
    State(state): State<AppState>,
    Path(ticket): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<PairingTicket>, Error> {
    let id = ticket_id(&ticket)?;
    let pairing = state.pairing();
    let mut changes = pairing.changes();
    let first = pairing.book().see(id, Instant::now())?;
    let hold = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .any(|pair| pair == "wait=1");
    if !hold || !matches!(first.status, PairingStatus::Waiting { .. }) {
        return Ok(Json(first));
    }
    let deadline = tokio::time::Instant::now() + LONG_POLL;
    while let Ok(Ok(())) = tokio::time::timeout_at(deadline, changes.changed()).await {
        let now = pairing.book().see(id, Instant::now())?;
        if !same_wait(&first.status, &now.status) {
            return Ok(Json(now));
        }
    }
    Ok(Json(pairing.book().see(id, Instant::now())?))
}

/// Whether two answers about a waiting ticket say the same but for the
/// time (which always moves).
fn same_wait(a: &PairingStatus, b: &PairingStatus) -> bool {
    match (a, b) {
        (
            PairingStatus::Waiting {
                here: h1,
                players: p1,
                ..
            },
            PairingStatus::Waiting {
                here: h2,
                players: p2,
                ..
            },
        ) => h1 == h2 && p1 == p2,
        _ => false,
    }
}

/// `DELETE /api/pairing/{ticket}`: leaves the pool (204); a ticket being
/// seated or seated is not cancelled (409).
async fn cancel(
    State(state): State<AppState>,
    Path(ticket): Path<String>,
) -> Result<StatusCode, Error> {
    let id = ticket_id(&ticket)?;
    state.pairing().book().cancel(id)?;
    keep::forget(&state, vec![id.to_string()]).await;
    state.pairing().touch();
    Ok(StatusCode::NO_CONTENT)
}
