//! Taking a seat at a table (by invite, as a spectator, a rematch seat)
//! and filling an empty one with a bot.

use super::body::{meter, JsonBody};
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::quota::Kind;
use crate::state::AppState;
use crate::table::Command;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use game::Seat;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

/// The body of `POST /api/tables/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The seat wanted (default: the first free human seat).
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The display name.
    pub name: String,
    /// The invite key of a private table (from its invite link).
    #[serde(default)]
    pub key: Option<String>,
    /// The person's contribution to the fair deal: 32 random bytes as 64
    /// hex digits, made by their own browser (or program).
    #[serde(default)]
    pub contribution: Option<String>,
    /// The person's identity key (64 hex digits their browser made once
    /// and keeps): the seat is linked to its hash, for "my games" and
    /// ratings.
    #[serde(default)]
    pub player: Option<String>,
}

/// The body of `POST /api/tables/{id}/fill`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillRequest {
    /// The human seat nobody joined.
    pub seat: Seat,
    /// The creator's token (from the answer to the table's creation).
    pub creator: String,
    /// The bot (default: the game's first bot).
    #[serde(default)]
    pub bot: Option<String>,
}

#[derive(Serialize)]
pub(super) struct Joined {
    seat: Seat,
    token: String,
    /// The table's published commitment (`seed_hash`), as the player was
    /// shown it when they joined: their browser keeps it beside their
    /// contribution and compares the final record's with it.
    commitment: String,
    /// The public key that signs the commitment (`GET /api/key`): the
    /// browser keeps it, to check records against it.
    key: String,
}

pub(super) async fn join(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let name = crate::names::clean_name_among(&req.name, &state.external_bots().names())?;
    let player = req
        .player
        .as_deref()
        .map(crate::social::player_id)
        .transpose()?;
    let contribution = req
        .contribution
        .as_deref()
        .map(registry::fair::parse_contribution)
        .transpose()
        .map_err(|e| Error::BadInput(e.to_string()))?;
    meter(&state, Kind::Join, addr, "joins")?;
    let (reply, answer) = oneshot::channel();
    state
        .send(
            &id,
            addr,
            Command::Join {
                seat: req.seat,
                name,
                key: req.key,
                contribution,
                player,
                origin: state.origin(addr),
                reply,
            },
        )
        .await?;
    let (seat, token, commitment) = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(Json(Joined {
        seat,
        token,
        commitment,
        key: state.signing_key().public_hex(),
    }))
}

pub(super) async fn fill(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<FillRequest>,
) -> Result<StatusCode, Error> {
    meter(&state, Kind::Join, addr, "seat changes")?;
    let (reply, answer) = oneshot::channel();
    let bot = req.bot.unwrap_or_else(|| "heuristic".to_string());
    state
        .send(
            &id,
            addr,
            Command::Fill {
                seat: req.seat,
                creator: req.creator,
                bot,
                reply,
            },
        )
        .await?;
    answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(StatusCode::NO_CONTENT)
}

/// What `POST /api/tables/{id}/reclaim` answers.
#[derive(Debug, Serialize)]
pub(super) struct Reclaimed {
    /// The seat the person holds.
    seat: Seat,
    /// Its new token (the one it had before no longer opens it).
    token: String,
}

/// `POST /api/tables/{id}/reclaim` with the header `X-Ratrace-Key`: a
/// person back at the seat their identity holds at this table, from
/// another device (their identity link brought the key, not the seat's
/// token): the seat gets a new token, which is answered. Metered like
/// joins; refused (403) if the identity holds no seat there, or the game
/// is over (`game_over`).
pub(super) async fn reclaim(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Json<Reclaimed>, Error> {
    let player = super::players::identity(&headers)?;
    meter(&state, Kind::Join, addr, "joins")?;
    let (reply, answer) = oneshot::channel();
    state
        .send(&id, addr, Command::Reclaim { player, reply })
        .await?;
    let (seat, token) = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(Json(Reclaimed { seat, token }))
}
