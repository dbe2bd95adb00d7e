//! Finished games as records: the download, the replay positions, and the
//! record check (fair deal, every shuffle and roll recomputed).

use super::body::{meter, JsonBody};
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::quota::Kind;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use game::{Game, Seat};
use serde::Serialize;
use std::sync::Arc;

/// What a request shows to see a private table's game, as its seat-taking
/// does: the invite key (`?k=KEY`) or a seat's token (`?t=TOKEN`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Proof {
    key: Option<String>,
    token: Option<String>,
}

impl Proof {
    /// The proof in a request's query.
    pub(crate) fn of(uri: &axum::http::Uri) -> Proof {
        let mut proof = Proof::default();
        for pair in uri.query().unwrap_or_default().split('&') {
            match pair.split_once('=') {
                Some(("k", v)) => proof.key = Some(v.to_string()),
                Some(("t", v)) => proof.token = Some(v.to_string()),
                _ => {}
            }
        }
        proof
    }

    /// The invite key of a private table (or none), as a proof.
    pub(crate) fn key(key: Option<String>) -> Proof {
        Proof { key, token: None }
    }

    /// Refused (403) unless `table` is open to this proof.
    pub(crate) fn check(&self, table: &crate::store::StoredTable) -> Result<(), Error> {
        if table.admits(self.key.as_deref(), self.token.as_deref()) {
            Ok(())
        } else {
            Err(Error::Forbidden(
                "this table is private: open it through its invite link".to_string(),
            ))
        }
    }
}

/// Refused (403) unless the stored table `id` is open to `proof`; an
/// unknown table is `unknown_table`.
pub(crate) async fn check_access(state: &AppState, id: &str, proof: &Proof) -> Result<(), Error> {
    let store = state.store();
    let key = id.to_string();
    let stored = tokio::task::spawn_blocking(move || store.load(&key))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??
        .ok_or(Error::UnknownTable)?;
    proof.check(&stored)
}

/// A finished table's record, for a download or a replay (`what`, in the
/// quota's refusal): metered per address, since each replays a game;
/// refused before the end (`not_over`), and at a private table without its
/// key or a seat's token (`proof`).
pub(crate) async fn finished_record(
    state: &AppState,
    addr: ClientAddr,
    id: String,
    what: &str,
    proof: &Proof,
) -> Result<game::Record, Error> {
    if !crate::ids::valid_id(&id) {
        return Err(Error::UnknownTable);
    }
    meter(state, Kind::Record, addr, what)?;
    let store = state.store();
    let stored = tokio::task::spawn_blocking(move || store.load(&id))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??
        .ok_or(Error::UnknownTable)?;
    proof.check(&stored)?;
    if stored.finished_at.is_none() {
        return Err(Error::NotOver);
    }
    Ok(stored.record())
}

pub(super) async fn record(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<game::Record>, Error> {
    let proof = Proof::of(&uri);
    let mut record = finished_record(&state, addr, id, "record downloads", &proof).await?;
    state.sign(&mut record);
    let outcome = registry::dispatch!(record.game.as_str(), G => record
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome())
            .map_err(|e| Error::Internal(e.to_string()))?,
        _ => None);
    record.outcome = outcome;
    Ok(Json(record))
}

/// The most positions one replay request returns.
pub const REPLAY_BATCH: usize = 100;

/// One position of a finished game's replay: after `step` actions (0 is
/// the deal), the whole board. The game is over and its seed revealed, so
/// every hand may be shown, and every event, private ones included.
#[derive(Serialize)]
pub(super) struct ReplayStep {
    /// Actions applied so far.
    step: usize,
    /// The action that led here (`P2 bid 3`); none at step 0.
    action: Option<String>,
    /// Who decides next (none at the end).
    to_move: Option<Seat>,
    /// The public view: what the table shows.
    public: serde_json::Value,
    /// The public view as a text board.
    board: String,
    /// Each seat's hidden cards (its view's `hand`; null where the game
    /// keeps none).
    hands: Vec<serde_json::Value>,
    /// What happened in this step, in order: the public typed events
    /// (`{"kind":"bid","seat":"P1","amount":3}`); a seat's private ones
    /// (its deal, its tax cards) are left out, the hands are shown whole.
    events: Vec<serde_json::Value>,
}

/// `GET /api/tables/{id}/replay/{from}`: a finished game's positions from
/// step `from`, at most [`REPLAY_BATCH`] of them, rebuilt by replaying its
/// record (`{"steps": total actions, "positions": [...]}`). Metered like a
/// record download; an unfinished game is refused (`not_over`).
pub(super) async fn replay(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path((id, from)): Path<(String, usize)>,
    uri: axum::http::Uri,
) -> Result<Json<ReplayPage>, Error> {
    let record = finished_record(&state, addr, id, "replays", &Proof::of(&uri)).await?;
    tokio::task::spawn_blocking(move || {
        registry::dispatch!(record.game.as_str(), G => replay_positions::<G>(&record, from),
            _ => Err(Error::UnknownTable))
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))?
    .map(Json)
}

/// Replays `record` and keeps the positions `from..from + REPLAY_BATCH`.
pub(super) fn replay_positions<G: Game>(
    record: &game::Record,
    from: usize,
) -> Result<ReplayPage, Error> {
    let total = record.actions.len();
    if from > total {
        return Err(Error::BadInput(format!(
            "the game has {total} actions: no step {from}"
        )));
    }
    let last = total.min(from + REPLAY_BATCH - 1);
    let broken = |e: String| Error::Internal(format!("a stored record does not replay: {e}"));
    let mut g: G = record.start().map_err(|e| broken(e.to_string()))?;
    g.set_logging(true);
    let mut positions = Vec::with_capacity(last + 1 - from);
    let mut seen = 0;
    for step in 0..=last {
        let mut action = None;
        if step > 0 {
            let (seat, a) = record
                .parse_action::<G>(step - 1)
                .map_err(|e| broken(e.to_string()))?;
            g.act(seat, a).map_err(|e| broken(e.to_string()))?;
            action = Some(format!("{seat} {a}"));
        }
        if step >= from {
            let hands = Seat::all(g.players())
                .map(|s| {
                    json_value(&g.view(s))
                        .get("hand")
                        .cloned()
                        .unwrap_or(serde_json::Value::Null)
                })
                .collect();
            let public = g.public_view();
            positions.push(ReplayStep {
                step,
                action,
                to_move: g.to_move(),
                public: json_value(&public),
                board: public.to_string(),
                hands,
                events: g.events()[seen..]
                    .iter()
                    .filter(|e| e.visible_to(None))
                    .map(|e| json_value(&e.event))
                    .collect(),
            });
        }
        seen = g.events().len();
    }
    Ok(ReplayPage {
        steps: total,
        positions,
    })
}

/// A page of a replay (`GET /api/tables/{id}/replay/{from}`): how many
/// steps the game has, and the positions from the one asked for.
#[derive(Serialize)]
pub(super) struct ReplayPage {
    steps: usize,
    positions: Vec<ReplayStep>,
}

/// Anything serializable as a JSON value (null if it cannot be).
pub(super) fn json_value<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// A record check's token, taken before the (up to 4 MiB) body is read.
pub(super) struct VerifyToken;

impl axum::extract::FromRequestParts<AppState> for VerifyToken {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Error> {
        let Ok(addr) = ClientAddr::from_request_parts(parts, state).await;
        meter(state, Kind::Verify, addr, "record checks").map(|()| VerifyToken)
    }
}

/// The public key that signs this site's commitments.
#[derive(Serialize)]
pub(super) struct SiteKey {
    /// The signature scheme: `ed25519`.
    scheme: &'static str,
    /// The key, hex.
    key: String,
}

/// `GET /api/key`: the public key that signs this site's commitments.
pub(super) async fn key(State(state): State<AppState>) -> Json<SiteKey> {
    Json(SiteKey {
        scheme: "ed25519",
        key: state.signing_key().public_hex(),
    })
}

pub(super) async fn verify(
    State(state): State<AppState>,
    _token: VerifyToken,
    uri: axum::http::Uri,
    JsonBody(record): JsonBody<game::Record>,
) -> Result<Json<registry::verify::Report>, Error> {
    // `?key=HEX`: the server key to trust (the one the browser kept from
    // the table page), else this server's own.
    let key = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("key="));
    let trusted = match key {
        None => state.signing_key().public(),
        Some(text) => {
            registry::signed::parse_key(text).map_err(|e| Error::BadInput(e.to_string()))?
        }
    };
    let most = state.limits().max_actions;
    if record.actions.len() > most {
        return Err(Error::BadInput(format!(
            "this server checks records of at most {most} actions"
        )));
    }
    // One check at a time, server-wide: each replays a whole game.
    let _permit = match tokio::time::timeout(
        std::time::Duration::from_secs(10),
        state.verify_gate().acquire(),
    )
    .await
    {
        Ok(Ok(p)) => p,
        _ => {
            return Err(Error::RateLimited {
                retry_after: 5,
                message: "the server is checking other records: try again soon".to_string(),
            })
        }
    };
    // Replaying is CPU work proportional to the record: off the reactor.
    let record = Arc::new(record);
    let report =
        tokio::task::spawn_blocking(move || registry::verify::verify_with(&record, &[trusted]))
            .await
            .unwrap_or_else(|_| registry::verify::Report::failed("the check failed"));
    Ok(Json(report))
}
