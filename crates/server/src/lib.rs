//! `server`: the ratrace game server (issue 3, design in `docs/server.md`):
//! a lobby over JSON HTTP, live tables over WebSocket, durable SQLite
//! storage, bots in empty seats, and the embedded browser client.
//!
//! It is a library so tests drive the same code the `ratrace serve`
//! binary runs: [`app`] builds the router over an [`AppState`], [`run`]
//! serves it on a listener until a shutdown future resolves. Each table is
//! one task ([`table`]) reached through a channel; the registry below only
//! maps ids to those channels (a std mutex, never held across `.await`).

pub mod error;
pub mod fair;
pub mod lobby;
pub mod protocol;
pub mod store;
pub mod table;
pub mod verify;
pub mod web;
pub mod ws;

use crate::error::Error;
use crate::store::{Store, StoreError};
use crate::table::TableHandle;
use axum::serve::ListenerExt;
use axum::Router;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::watch;

pub(crate) use bots::dispatch as with_game;
pub use bots::GAMES;

/// Server-wide limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Messages per second a connection may send; more are refused with
    /// `rate_limited`.
    pub rate_limit: u32,
    /// Messages per second after which a connection is closed.
    pub rate_close: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rate_limit: protocol::RATE_LIMIT,
            rate_close: protocol::RATE_CLOSE,
        }
    }
}

/// The server's shared state: the store and the live tables. Cheap to
/// clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    tables: Mutex<HashMap<String, TableHandle>>,
    /// Serialises loading a table from the store, so it is spawned once.
    loading: tokio::sync::Mutex<()>,
    closing: watch::Sender<bool>,
    next_conn: AtomicU64,
    limits: Limits,
}

impl AppState {
    /// A state over `store`, with every unfinished table resumed from it
    /// (replayed from its record). Tables that fail to replay are logged
    /// and skipped.
    pub async fn open(store: Arc<dyn Store>) -> Result<AppState, StoreError> {
        AppState::open_with(store, Limits::default()).await
    }

    /// [`AppState::open`] with other limits (load tests, fast bot tests).
    pub async fn open_with(store: Arc<dyn Store>, limits: Limits) -> Result<AppState, StoreError> {
        let (closing, _) = watch::channel(false);
        let state = AppState {
            inner: Arc::new(Inner {
                store,
                tables: Mutex::new(HashMap::new()),
                loading: tokio::sync::Mutex::new(()),
                closing,
                next_conn: AtomicU64::new(1),
                limits,
            }),
        };
        let store = Arc::clone(&state.inner.store);
        let unfinished = tokio::task::spawn_blocking(move || store.load_unfinished())
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))??;
        for t in unfinished {
            let id = t.id.clone();
            match table::spawn(t, Arc::clone(&state.inner.store), state.closing()) {
                Ok(handle) => state.insert(id, handle),
                Err(e) => tracing::error!("table {id} cannot resume: {e}"),
            }
        }
        Ok(state)
    }

    /// The store.
    pub fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.inner.store)
    }

    /// How many tables are live in this process.
    pub fn live_tables(&self) -> usize {
        self.lock().len()
    }

    /// Stops every table task and WebSocket connection.
    pub fn close(&self) {
        self.inner.closing.send_replace(true);
    }

    pub(crate) fn closing(&self) -> watch::Receiver<bool> {
        self.inner.closing.subscribe()
    }

    pub(crate) fn limits(&self) -> Limits {
        self.inner.limits
    }

    pub(crate) fn next_conn(&self) -> u64 {
        self.inner.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.inner.tables.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn insert(&self, id: String, handle: TableHandle) {
        self.lock().insert(id, handle);
    }

    /// The live table `id`, loading it from the store (a finished game, or
    /// one created by another run) if needed.
    pub(crate) async fn table(&self, id: &str) -> Result<TableHandle, Error> {
        if !lobby::valid_id(id) {
            return Err(Error::UnknownTable);
        }
        if let Some(h) = self.lock().get(id).cloned() {
            return Ok(h);
        }
        let _loading = self.inner.loading.lock().await;
        if let Some(h) = self.lock().get(id).cloned() {
            return Ok(h);
        }
        let store = self.store();
        let key = id.to_string();
        let stored = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??
            .ok_or(Error::UnknownTable)?;
        let handle = table::spawn(stored, self.store(), self.closing()).map_err(Error::Internal)?;
        self.insert(id.to_string(), handle.clone());
        Ok(handle)
    }
}

/// The router: pages, static files, the JSON API and the WebSocket.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(web::routes())
        .merge(lobby::routes())
        .route("/ws/{id}", axum::routing::get(ws::upgrade))
        .with_state(state)
}

/// Serves `app(state)` on `listener` (with `TCP_NODELAY` on every
/// connection) until `shutdown` resolves, then stops every table and
/// connection.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone());
    let closer = state.clone();
    // No Nagle: a state message is small and must leave at once, not wait
    // for the client's (delayed) ACK of the previous one.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
    });
    let result = axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            closer.close();
        })
        .await;
    state.close();
    result
}
