//! Post-game analysis on the server (one of the after-game features): a
//! finished game judged decision by decision by the strongest bot
//! ([`analysis::analyze::analyze`]), run in the background with progress,
//! its result stored and served to the replay page (docs/server.md,
//! "Post-game analysis").
//!
//! - `POST /api/tables/{id}/analysis` starts the analysis of a finished
//!   game (202 `queued`). A game that is not over is refused (409
//!   `not_over`), one abandoned before its end too (409 `abandoned`). A
//!   second request while the game's analysis waits or runs starts nothing
//!   and answers its progress; once stored, it answers `done`.
//! - `GET /api/tables/{id}/analysis` answers `{status: "done", analysis}`
//!   (200), `{status: "queued" | "running", done, total}` (202),
//!   `{status: "failed", message}` (500) or `{status: "none"}` (200). A
//!   stored analysis never changes: its answer carries a strong `ETag`
//!   (remembered per table, so a client that has it gets 304 without the
//!   store being read), and sending one is metered per client address
//!   like a record download (`Kind::Record`, 429 beyond): an analysis
//!   may be megabytes.
//!
//! Analyses cost whole seconds of CPU, so they are bounded server-wide:
//! one runs at a time (the gate of `state::analyses::Analyses`), on the blocking pool, with
//! [`Limits::analysis_threads`] worker threads (1 or 2, so play stays
//! responsive); at most [`Limits::analysis_queue`] wait behind it, beyond
//! which a request is refused (503 `busy`). Starting one is metered per
//! client address (`Kind::Analysis`), and loading the record like a record
//! download. The JSON result is stored in the store's `analyses` table
//! (at most [`Limits::analysis_max_bytes`]; the candidates are dropped
//! first to fit), so it is served from there after a restart. Progress
//! lives in the memory of the process running the analysis: a restart
//! forgets analyses that were waiting or running, and they may be asked
//! for again.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::limits::Limits;
use crate::lobby;
use crate::quota::Kind;
use crate::state::analyses::Job;
use crate::state::AppState;
use crate::store::profile::SeatAccuracy;
use crate::store::StoreError;
use ::analysis::analyze::{Analysis, Config, FORMAT};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use game::Game as _;
use sha2::Digest as _;
use std::sync::Arc;

/// The analysis routes.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/tables/{id}/analysis", get(status).post(start))
}

/// What `GET` and `POST /api/tables/{id}/analysis` answer: where the
/// analysis is, and once done, the analysis itself.
#[derive(serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Answer {
    /// Waiting for a worker.
    Queued { done: u64, total: u64 },
    /// Being made: `done` of `total` decisions.
    Running { done: u64, total: u64 },
    /// It failed; it may be asked for again.
    Failed { message: &'static str },
    /// Nobody asked for it.
    None,
    /// Made: the analysis (its stored JSON, `GET` only).
    Done {
        #[serde(skip_serializing_if = "Option::is_none")]
        analysis: Option<Box<serde_json::value::RawValue>>,
    },
}

/// A job's answer: 202 with its progress, or 500 for a failure.
fn job_response(job: &Job) -> Response {
    let (status, answer) = match *job {
        Job::Queued => (StatusCode::ACCEPTED, Answer::Queued { done: 0, total: 0 }),
        Job::Running { done, total } => (
            StatusCode::ACCEPTED,
            Answer::Running {
                done: done as u64,
                total: total as u64,
            },
        ),
        Job::Failed => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Answer::Failed {
                message: "the analysis failed: ask for it again",
            },
        ),
    };
    (status, Json(answer)).into_response()
}

/// The stored analysis of `id` (its JSON text), if any.
async fn stored(state: &AppState, id: &str) -> Result<Option<String>, Error> {
    let store = state.store();
    let key = id.to_string();
    let row = tokio::task::spawn_blocking(move || store.analysis(&key))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(row.map(|(_format, body)| body))
}

/// How long a client may keep a stored analysis without asking again (it
/// never changes; after that it revalidates with its ETag).
const CACHE: &str = "public, max-age=3600";

/// `GET /api/tables/{id}/analysis`.
async fn status(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response, Error> {
    if !crate::ids::valid_id(&id) {
        return Err(Error::UnknownTable);
    }
    // The job first: a finished one is stored before it leaves the map.
    if let Some(job) = state.analyses().get(&id) {
        if job != Job::Failed {
            return Ok(job_response(&job));
        }
    }
    // A client that has the stored analysis: nothing is read or sent.
    if let Some(etag) = state.analyses().etag(&id) {
        if crate::web::not_modified(&headers, &etag) {
            return Ok(not_modified(etag));
        }
    }
    // Sending it is metered like a record download.
    lobby::meter(&state, Kind::Record, addr, "analysis downloads")?;
    match stored(&state, &id).await? {
        Some(body) => {
            // A private table's analysis, as its record, needs its key or
            // a seat's token.
            lobby::records::check_access(&state, &id, &lobby::records::Proof::of(&uri)).await?;
            let hash = sha2::Sha256::digest(body.as_bytes());
            let etag = format!("\"a{}\"", registry::fair::hex(&hash[..16]));
            let etag = HeaderValue::from_str(&etag).expect("hex is a valid header");
            state.analyses().remember(&id, etag.clone());
            if crate::web::not_modified(&headers, &etag) {
                return Ok(not_modified(etag));
            }
            // The body was encoded by this server from an `Analysis`.
            let analysis = serde_json::value::RawValue::from_string(body)
                .map_err(|e| Error::Internal(format!("a stored analysis is not JSON: {e}")))?;
            let answer = serde_json::to_string(&Answer::Done {
                analysis: Some(analysis),
            })
            .map_err(|e| Error::Internal(e.to_string()))?;
            Ok((
                StatusCode::OK,
                [
                    (
                        header::CONTENT_TYPE,
                        HeaderValue::from_static("application/json"),
                    ),
                    (header::ETAG, etag),
                    (header::CACHE_CONTROL, HeaderValue::from_static(CACHE)),
                ],
                answer,
            )
                .into_response())
        }
        None => {
            // Nothing was sent: the token comes back.
            state.give_back_quota(Kind::Record, addr);
            match state.analyses().get(&id) {
                Some(job) => Ok(job_response(&job)),
                // Not an error: most games have none, and a page that asks
                // should not log a failed request.
                None => Ok((StatusCode::OK, Json(Answer::None)).into_response()),
            }
        }
    }
}

fn not_modified(etag: HeaderValue) -> Response {
    (
        StatusCode::NOT_MODIFIED,
        [
            (header::ETAG, etag),
            (header::CACHE_CONTROL, HeaderValue::from_static(CACHE)),
        ],
    )
        .into_response()
}

/// `POST /api/tables/{id}/analysis`.
async fn start(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Response, Error> {
    if !crate::ids::valid_id(&id) {
        return Err(Error::UnknownTable);
    }
    match state.analyses().get(&id) {
        Some(Job::Failed) | None => {}
        Some(job) => return Ok(job_response(&job)),
    }
    if stored(&state, &id).await?.is_some() {
        return Ok((StatusCode::OK, Json(Answer::Done { analysis: None })).into_response());
    }
    let proof = lobby::records::Proof::of(&uri);
    let record =
        lobby::records::finished_record(&state, addr, id.clone(), "analyses", &proof).await?;
    let record = tokio::task::spawn_blocking(move || {
        let over = registry::dispatch!(record.game.as_str(), G => record
                .replay::<G>(false, |_, _, _| {})
                .map_err(|e| Error::Internal(e.to_string()))?
                .outcome()
                .is_some(),
            _ => false);
        if over {
            Ok(record)
        } else {
            Err(Error::Abandoned("it has no analysis"))
        }
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))??;
    lobby::meter(&state, Kind::Analysis, addr, "analyses")?;
    let limits = state.limits();
    match state.analyses().enqueue(&id, limits.analysis_queue) {
        Ok(None) => {}
        Ok(Some(job)) => return Ok(job_response(&job)),
        Err(()) => {
            state.give_back_quota(Kind::Analysis, addr);
            return Err(Error::Busy(format!(
                "the server is analysing other games ({} waiting): try again in a few minutes",
                limits.analysis_queue
            )));
        }
    }
    tokio::spawn(run(state.clone(), id.clone(), record));
    Ok(job_response(&Job::Queued))
}

/// Waits for the gate, analyses `record` on the blocking pool with
/// progress, and stores the result.
async fn run(state: AppState, id: String, record: game::Record) {
    let gate = Arc::clone(&state.analyses().gate);
    let mut closing = state.closing();
    let permit = tokio::select! {
        p = gate.acquire_owned() => p,
        _ = closing.changed() => {
            state.analyses().remove(&id);
            return;
        }
    };
    let Ok(permit) = permit else {
        state.analyses().remove(&id);
        return;
    };
    state
        .analyses()
        .set(&id, Job::Running { done: 0, total: 0 });
    let limits = state.limits();
    let (shared, key) = (state.clone(), id.clone());
    let outcome = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let analysis = compute(&record, &limits, |done, total| {
            shared.analyses().set(&key, Job::Running { done, total });
        })?;
        let seats: Vec<SeatAccuracy> = analysis
            .summary
            .iter()
            .map(|p| SeatAccuracy {
                seat: u8::try_from(p.seat.index()).unwrap_or(u8::MAX),
                decisions: p.decisions as u64,
                accuracy: p.accuracy,
                mistakes: p.mistake as u64,
                blunders: p.blunder as u64,
            })
            .collect();
        let body = encode(analysis, limits.analysis_max_bytes)?;
        shared
            .store()
            .put_analysis(&key, FORMAT, &body, crate::clock::unix_now(), &seats)?;
        Ok::<(), AnalysisError>(())
    })
    .await;
    match outcome {
        Ok(Ok(())) => state.analyses().remove(&id),
        Ok(Err(cause)) => {
            tracing::error!("analysis of {id} failed: {cause}");
            state.analyses().set(&id, Job::Failed);
        }
        Err(e) => {
            tracing::error!("analysis of {id} stopped: {e}");
            state.analyses().set(&id, Job::Failed);
        }
    }
}

/// The analysis' settings on this server: the game's defaults, with the
/// budget and threads of `limits`.
pub fn config_for<G: ::analysis::analyze::Judge>(limits: &Limits) -> Config {
    let mut cfg = Config::for_game::<G>();
    if limits.analysis_search > 0 {
        cfg.search = limits.analysis_search;
    }
    if limits.analysis_rollouts > 0 {
        cfg.rollouts = limits.analysis_rollouts;
    }
    cfg.threads = limits.analysis_threads.clamp(1, 2);
    cfg
}

/// Why an analysis could not be made or kept (logged; the client sees
/// only that it failed).
#[derive(Debug, thiserror::Error)]
enum AnalysisError {
    /// The record is of a game this server does not know.
    #[error("unknown game {0}")]
    UnknownGame(String),
    /// The analysis itself failed.
    #[error(transparent)]
    Analyze(#[from] ::analysis::Error),
    /// The analysis did not encode.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// Even without its candidates, the analysis is over the size kept.
    #[error("the analysis takes {size} bytes, more than the {max} kept")]
    TooLarge {
        /// Its size in bytes.
        size: usize,
        /// The most kept.
        max: usize,
    },
    /// The store did not keep it.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Analyses a finished game's record with the server's settings.
fn compute(
    record: &game::Record,
    limits: &Limits,
    progress: impl FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    registry::dispatch!(record.game.as_str(), G => {
            let cfg = config_for::<G>(limits);
            Ok(::analysis::analyze::analyze::<G>(record, &cfg, progress)?)
        },
        _ => Err(AnalysisError::UnknownGame(record.game.clone())))
}

/// The analysis as stored: its JSON, at most `max` bytes (without the
/// candidates if it must).
fn encode(mut a: Analysis, max: usize) -> Result<String, AnalysisError> {
    let body = serde_json::to_string(&a)?;
    if body.len() <= max {
        return Ok(body);
    }
    for d in &mut a.decisions {
        d.candidates.clear();
    }
    let body = serde_json::to_string(&a)?;
    if body.len() <= max {
        Ok(body)
    } else {
        Err(AnalysisError::TooLarge {
            size: body.len(),
            max,
        })
    }
}
