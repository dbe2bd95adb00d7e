//! Shared replays, "watch together" (docs/server.md, "Shared replays"):
//! a room on a finished table's replay whose leader moves the step for
//! every member, with a chat beside it; the book is `state/rooms.rs`.
//!
//! Plain HTTP with a long poll, as quick pairing: a member's page asks
//! `GET /api/rooms/{room}?rev=N` and the answer is held until the room
//! changes past `N` (at most [`HOLD_S`]), so a step reaches every member
//! at once and nothing is sent while nothing moves. Each member holds a
//! secret (`X-Room-Secret`) that proves them: the leader's moves the
//! replay and hands the lead over, anyone's speaks. Opening a room reads
//! the table's record as a replay would (finished, and a private table's
//! key), so a room is no way to see a game one may not; its members fetch
//! the record themselves through their own link.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::lobby::{finished_record, meter, JsonBody, Proof};
use crate::protocol::{RoomAct, RoomJoin, RoomOpen, RoomTicket, RoomView};
use crate::quota::Kind;
use crate::state::rooms::{Made, RoomError};
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::time::{Duration, Instant};

/// Largest body of a room request.
pub const BODY_LIMIT: usize = 2048;
/// The longest a long poll is held, in seconds.
pub const HOLD_S: u64 = 20;

/// The rooms' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/rooms", post(open))
        .route("/api/rooms/{room}", get(see))
        .route("/api/rooms/{room}/join", post(join))
        .route("/api/rooms/{room}/act", post(act))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// A room's refusal as the API says it.
fn refusal(e: RoomError) -> Error {
    match e {
        RoomError::Unknown => Error::UnknownRoom,
        RoomError::NotAllowed(why) => Error::Forbidden(why.to_string()),
        RoomError::Full(why) => Error::Refused(why.to_string()),
    }
}

/// A room id as the book makes them (checked before the book is asked).
fn room_id(room: &str) -> Result<&str, Error> {
    if crate::ids::valid_id(room) {
        Ok(room)
    } else {
        Err(Error::UnknownRoom)
    }
}

/// The member made, with the room as it is now.
fn ticket(state: &AppState, made: Made) -> Result<Json<RoomTicket>, Error> {
    let (view, _) = state
        .rooms()
        .see(&made.room, Some(&made.secret), Instant::now())
        .map_err(refusal)?;
    Ok(Json(RoomTicket {
        room: made.room,
        member: made.member,
        secret: made.secret,
        view,
    }))
}

/// `POST /api/rooms`: a room on a finished table the asker may replay,
/// at `step`, the asker its leader (201).
async fn open(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<RoomOpen>,
) -> Result<(StatusCode, Json<RoomTicket>), Error> {
    let name = crate::names::clean_name(&req.name)?;
    let proof = Proof::key(req.key);
    let record = finished_record(&state, addr, req.table.clone(), "shared replays", &proof).await?;
    let step = req
        .step
        .min(u32::try_from(record.actions.len()).unwrap_or(u32::MAX));
    let made = state
        .rooms()
        .open(req.table, step, name, addr, Instant::now())
        .map_err(refusal)?;
    Ok((StatusCode::CREATED, ticket(&state, made)?))
}

/// `POST /api/rooms/{room}/join`: a new member (200).
async fn join(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(room): Path<String>,
    JsonBody(req): JsonBody<RoomJoin>,
) -> Result<Json<RoomTicket>, Error> {
    let room = room_id(&room)?;
    let name = crate::names::clean_name(&req.name)?;
    meter(&state, Kind::Room, addr, "room requests")?;
    let made = state
        .rooms()
        .join(room, name, Instant::now())
        .map_err(refusal)?;
    ticket(&state, made)
}

/// The member secret a request carries, if any.
fn secret(headers: &HeaderMap) -> Option<String> {
    headers
        .get("x-room-secret")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// `GET /api/rooms/{room}[?rev=N]`: the room; with `rev`, held until it
/// changes past `N` ([`HOLD_S`] at most). A member's secret in
/// `X-Room-Secret` keeps them in the members' list.
async fn see(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(room): Path<String>,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Json<RoomView>, Error> {
    let room = room_id(&room)?;
    meter(&state, Kind::Room, addr, "room requests")?;
    let known: Option<u64> = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("rev="))
        .and_then(|v| v.parse().ok());
    let secret = secret(&headers);
    let rooms = state.rooms();
    let (view, mut bell) = rooms
        .see(room, secret.as_deref(), Instant::now())
        .map_err(refusal)?;
    let Some(known) = known.filter(|k| *k >= view.rev) else {
        return Ok(Json(view));
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(HOLD_S);
    let mut closing = state.closing();
    loop {
        tokio::select! {
            rang = tokio::time::timeout_at(deadline, bell.changed()) => {
                // the room was closed (its bell dropped) or the wait is over
                if !matches!(rang, Ok(Ok(()))) { break; }
                if *bell.borrow_and_update() > known { break; }
            }
            _ = closing.changed() => break,
        }
    }
    let (view, _) = rooms
        .see(room, secret.as_deref(), Instant::now())
        .map_err(refusal)?;
    Ok(Json(view))
}

/// `POST /api/rooms/{room}/act` with a member's secret: exactly one of
/// `step` (the leader shows it), `lead` (the leader hands over) or `say`
/// (a chat line, metered as chat is).
async fn act(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(room): Path<String>,
    JsonBody(req): JsonBody<RoomAct>,
) -> Result<Json<RoomView>, Error> {
    let room = room_id(&room)?;
    meter(&state, Kind::Room, addr, "room requests")?;
    let rooms = state.rooms();
    let now = Instant::now();
    let view = match (req.step, req.lead, req.say) {
        (Some(step), None, None) => rooms.step(room, &req.secret, step, now),
        (None, Some(to), None) => rooms.hand_over(room, &req.secret, &to, now),
        (None, None, Some(text)) => {
            let text = crate::social::clean_chat(&text)?;
            meter(&state, Kind::Chat, addr, "chat messages")?;
            rooms.say(room, &req.secret, text, crate::clock::unix_now(), now)
        }
        _ => {
            return Err(Error::BadInput(
                "say exactly one of `step`, `lead` or `say`".into(),
            ))
        }
    };
    view.map(Json).map_err(refusal)
}
