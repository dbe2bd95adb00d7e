//! Opening the server's state: the store's heartbeat and the site's
//! secret, the cluster's background tasks, the start-up repair, and the
//! sweeper that ends abandoned tables.

use super::cluster;
use super::lobby_cache::LobbyCache;
use super::{AppState, Inner, Ops};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::quota::Quotas;
use crate::store::{Store, StoreError};
use crate::table;
use crate::table::Command;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

impl AppState {
    /// A state over `store` with the default limits.
    pub async fn open(store: Arc<dyn Store>) -> Result<AppState, StoreError> {
        AppState::open_with(store, Limits::default()).await
    }

    /// A state over `store`. Nothing is loaded: tables come into memory
    /// when somebody asks for them. A background task repairs tables a
    /// crash left inconsistent (a finished game not marked so) and ends
    /// abandoned ones, then keeps sweeping every few minutes.
    pub async fn open_with(store: Arc<dyn Store>, limits: Limits) -> Result<AppState, StoreError> {
        AppState::open_cluster(store, limits, cluster::Cluster::standalone()).await
    }

    /// A state over `store` as one process of a site that may have several:
    /// it heartbeats as `cluster.node`, and, if told to, takes over the
    /// tables of processes that died.
    pub async fn open_cluster(
        store: Arc<dyn Store>,
        limits: Limits,
        cluster: cluster::Cluster,
    ) -> Result<AppState, StoreError> {
        let first = Arc::clone(&store);
        let node = cluster.node.clone();
        let origin_key = tokio::task::spawn_blocking(move || {
            first.heartbeat(&node)?;
            first.site_secret()
        })
        .await
        .map_err(|e| StoreError::Commit(e.to_string()))??;
        let (closing, _) = watch::channel(false);
        let state = AppState {
            inner: Arc::new(Inner {
                store,
                cluster,
                tables: Arc::new(Mutex::new(HashMap::new())),
                loading: tokio::sync::Mutex::new(()),
                closing,
                next_conn: AtomicU64::new(1),
                limits,
                quotas: Quotas::new(limits),
                bot_gate: Arc::new(Semaphore::new(limits.bot_threads.max(1))),
                verify_gate: Semaphore::new(1),
                analyses: super::analyses::Analyses::default(),
                pairing: super::pairing::Pairing::default(),
                friends: super::friends::Friends::default(),
                rooms: super::rooms::Rooms::default(),
                tournaments: super::tournaments::Director::default(),
                webauthn: std::sync::OnceLock::new(),
                ceremonies: super::passkeys::Ceremonies::default(),
                metrics: Arc::new(Metrics::new()),
                ops: Ops::new(),
                proxies: std::sync::OnceLock::new(),
                lobby: LobbyCache::default(),
                external: std::sync::OnceLock::new(),
                outbox_bytes: Arc::default(),
                signing: Arc::new(crate::ids::signing_key(&origin_key)),
                origin_key,
            }),
        };
        tokio::spawn(state.clone().sweeper());
        tokio::spawn(super::nodes::heartbeats(state.clone()));
        if let Some(changes) = state.store().changes() {
            state.inner.lobby.enable();
            tokio::spawn(super::nodes::follow(state.clone(), changes));
        }
        Ok(state)
    }

    /// Repairs once, then ends abandoned tables every few minutes until
    /// the server closes.
    async fn sweeper(self) {
        let store = self.store();
        let repaired = tokio::task::spawn_blocking(move || table::repair_all(store.as_ref())).await;
        match repaired {
            Ok(n) if n > 0 => tracing::warn!(
                "repaired {n} finished games (not marked so, or without their result)"
            ),
            Ok(_) => {}
            Err(e) => tracing::error!("repair failed: {e}"),
        }
        let mut closing = self.closing();
        let shortest = self
            .inner
            .limits
            .abandon_after
            .min(self.inner.limits.unstarted_after);
        let every = (shortest / 10).clamp(Duration::from_secs(1), Duration::from_secs(600));
        loop {
            self.abandon_idle().await;
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = closing.changed() => return,
            }
        }
    }

    /// Ends every table idle for longer than `abandon_after` (or never
    /// started and idle for longer than `unstarted_after`) as abandoned,
    /// telling the live ones.
    pub async fn abandon_idle(&self) {
        // No table is loaded while the sweep ends tables and tells them, so
        // none is in memory as live while the store has it ended.
        let _loading = self.inner.loading.lock().await;
        let store = self.store();
        let age = |d: Duration| i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
        let now = crate::clock::unix_now();
        let before = now.saturating_sub(age(self.inner.limits.abandon_after));
        let unstarted = now.saturating_sub(age(self.inner.limits.unstarted_after));
        let ended =
            tokio::task::spawn_blocking(move || store.abandon_idle(before, unstarted, now)).await;
        match ended {
            Ok(Ok(ids)) => {
                for id in ids {
                    let live = self.lock().get(&id).cloned();
                    if let Some(h) = live {
                        let _ = h.send(Command::Abandoned).await;
                    }
                }
            }
            Ok(Err(e)) => tracing::error!("abandoning idle tables: {e}"),
            Err(e) => tracing::error!("abandoning idle tables: {e}"),
        }
    }
}
