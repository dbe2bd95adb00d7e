//! What an operator and an orchestrator see of a running server
//! (docs/server.md "Operations"): `GET /metrics` (the figures of
//! [`crate::metrics`]), `GET /healthz` (the process answers), `GET /readyz`
//! (it can serve: the store answers and it is not draining), and the drain
//! that ends a process cleanly on SIGTERM.
//!
//! They are methods of [`AppState`] so a later layer (several processes
//! sharing tables) can add conditions to readiness and steps to the drain
//! without touching the routes. `/metrics` holds counts only, so it is on
//! the public router, closed by a bearer token when one is set
//! ([`AppState::require_metrics_token`]). `/readyz` reads the store, so its
//! probe runs at most once a second whatever the request rate: a flood of
//! probes costs one blocking read a second.

use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};
use std::time::Duration;
use tokio::time::Instant;

/// How long the readiness probe waits for the store.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a readiness answer is reused.
const PROBE_EVERY: Duration = Duration::from_secs(1);

/// The longest a drain waits for tables and connections to end, so a
/// process told to stop exits within about ten seconds.
pub const DRAIN_LIMIT: Duration = Duration::from_secs(9);

/// The content type of the Prometheus text exposition format 0.0.4.
pub const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The routes: `/metrics`, `/healthz`, `/readyz`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
}

impl AppState {
    /// From now on `/metrics` answers only requests carrying
    /// `Authorization: Bearer <token>` (401 otherwise). Set once; a later
    /// call changes nothing and returns `false`.
    pub fn require_metrics_token(&self, token: &str) -> bool {
        let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        self.ops().token.set(hash).is_ok()
    }

    /// Marks this process as draining: `/readyz` answers 503 `draining`,
    /// so a load balancer stops sending clients here, while everything
    /// else is served as before. [`AppState::drain`] does this first; a
    /// layer that hands tables to other processes may do it earlier.
    pub fn set_draining(&self) {
        self.ops().draining.send_replace(true);
    }

    /// Whether this process is draining.
    pub fn is_draining(&self) -> bool {
        *self.ops().draining.borrow()
    }

    /// Whether this process can serve: not draining or stopping, and the
    /// store answers a trivial read within [`READY_TIMEOUT`]. The store's
    /// answer is reused for a second. The error is a short reason.
    pub async fn readiness(&self) -> Result<(), &'static str> {
        if self.is_draining() {
            return Err("draining");
        }
        if *self.closing().borrow() {
            return Err("stopping");
        }
        let mut last = self.ops().probe.lock().await;
        if let Some((at, answer)) = *last {
            if at.elapsed() < PROBE_EVERY {
                return answer;
            }
        }
        let store = self.store();
        let read = tokio::task::spawn_blocking(move || store.count_live(""));
        let answer = match tokio::time::timeout(READY_TIMEOUT, read).await {
            Ok(Ok(Ok(_))) => Ok(()),
            Ok(Ok(Err(e))) => {
                tracing::warn!("readiness: the store failed: {e}");
                self.metrics().store_error();
                Err("store failing")
            }
            Ok(Err(e)) => {
                tracing::warn!("readiness: the store read panicked: {e}");
                self.metrics().store_error();
                Err("store failing")
            }
            Err(_) => {
                tracing::warn!("readiness: the store did not answer in {READY_TIMEOUT:?}");
                self.metrics().store_error();
                Err("store not answering")
            }
        };
        *last = Some((Instant::now(), answer));
        answer
    }

    /// Ends this process's service cleanly: marks it draining (not
    /// ready), hands its tables over to the site's other processes if it
    /// has any (`crate::cluster`), closes the state (so [`crate::run`] stops accepting), closes every WebSocket with 1012 "server
    /// restarting, reconnect", lets every table task finish the commit it
    /// is in, and waits for the tables and the connections to end, for at
    /// most [`DRAIN_LIMIT`]. [`crate::run`] calls it when its shutdown
    /// future resolves; calling it first also stops `run`.
    pub async fn drain(&self) {
        self.set_draining();
        crate::state::nodes::hand_over(self).await;
        self.close();
        let deadline = Instant::now() + DRAIN_LIMIT;
        let m = self.metrics();
        let busy = || m.table_tasks.get() > 0 || m.connections.get() > 0 || m.websockets.get() > 0;
        while busy() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if busy() {
            tracing::warn!(
                tables = m.table_tasks.get(),
                connections = m.connections.get(),
                "drain: gave up waiting after {DRAIN_LIMIT:?}"
            );
        }
    }
}

/// Whether `headers` carry the operator's token (`Authorization: Bearer`,
/// the metrics token): `false` when none is set.
pub(crate) fn operator(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(want) = state.ops().token.get() else {
        return false;
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| <[u8; 32]>::from(Sha256::digest(t.trim().as_bytes())));
    // Hashes compared byte by byte without stopping early: the time
    // tells nothing about the token.
    given.is_some_and(|g| g.iter().zip(want).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0)
}

/// `GET /metrics`.
async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if state.ops().token.get().is_some() && !operator(&state, &headers) {
        let mut r = (StatusCode::UNAUTHORIZED, "a bearer token is required\n").into_response();
        r.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return r;
    }
    let text = state.metrics().render(state.live_tables());
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(METRICS_CONTENT_TYPE),
        )],
        text,
    )
        .into_response()
}

/// `GET /readyz`.
async fn readyz(State(state): State<AppState>) -> Response {
    match state.readiness().await {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(why) => (StatusCode::SERVICE_UNAVAILABLE, format!("{why}\n")).into_response(),
    }
}
