//! `server`: the ratrace game server (issues 3 and 8, design in
//! `docs/server.md`): a lobby over JSON HTTP, live tables over WebSocket,
//! durable SQLite storage, bots in empty seats, and the embedded browser
//! client, built to face the open internet.
//!
//! It is a library so tests drive the same code the `ratrace serve`
//! binary runs: [`app`] builds the router over an [`AppState`], [`run`]
//! accepts connections on a listener (connection caps, header timeout)
//! until a shutdown future resolves. Each table is one task ([`table`])
//! reached through a channel; the registry below only maps ids to those
//! channels (a std mutex, never held across `.await`). Tables are loaded on
//! demand and leave memory when nobody has touched them for a while, so
//! start-up loads nothing and memory is bounded by what is in use.
//! Operations (metrics, health, the drain on shutdown) are in [`ops`].

pub mod analysis;
pub mod cluster;
pub mod error;
pub mod extbots;
pub mod lobby;
pub mod metrics;
pub mod net;
pub mod ops;
pub mod patch;
pub mod protocol;
pub mod quota;
pub mod social;
pub mod store;
pub mod table;
pub mod web;
pub mod ws;

use crate::error::Error;
use crate::metrics::Metrics;
use crate::net::ClientAddr;
use crate::quota::Quotas;
use crate::store::{Ownership, Store, StoreError};
use crate::table::{Command, TableHandle};
use axum::Router;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

// The fair-deal scheme and the record check are pure and live in the
// `registry` crate (the CLI's `verify` calls them too); the server's code
// names them `crate::fair` and `crate::verify` through these imports.
pub use net::{run, run_cluster};
pub(crate) use registry::dispatch as with_game;
pub use registry::GAMES;
pub(crate) use registry::{fair, verify};

/// Server-wide limits: every resource an outside client can use has one.
/// `ratrace serve --help` sets each; the defaults suit a small public
/// server on two cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Frames per second a WebSocket may send (every kind counts); more
    /// are refused with `rate_limited`.
    pub rate_limit: u32,
    /// Frames per second after which a WebSocket is closed.
    pub rate_close: u32,
    /// Open TCP connections in all (WebSockets included); more are closed
    /// at once.
    pub max_connections: usize,
    /// Open TCP connections per client address (an IPv6 /56 counts as one
    /// address); 0 = no cap (behind a proxy that hides addresses).
    pub max_connections_per_ip: usize,
    /// The kernel send buffer of each connection, in bytes (the kernel
    /// doubles it): with the outbox, what a reader that stops reading can
    /// hold up before it is closed.
    pub send_buffer: usize,
    /// Time to send a request's headers, and the longest idle keep-alive.
    pub header_timeout: Duration,
    /// Time to send a request's body.
    pub body_timeout: Duration,
    /// Time from a WebSocket's upgrade to its `hello`.
    pub hello_timeout: Duration,
    /// Longest silence from a WebSocket client (the web client pings
    /// every 25 s).
    pub idle_timeout: Duration,
    /// Tables an address may create: burst, then one per this many
    /// seconds.
    pub create_burst: u32,
    /// See `create_burst`.
    pub create_every_s: u32,
    /// Seat joins per address: burst.
    pub join_burst: u32,
    /// Seat joins per address: one per this many seconds after the burst.
    pub join_every_s: u32,
    /// Record checks (`POST /api/verify`) per address: burst.
    pub verify_burst: u32,
    /// Record checks per address: one per this many seconds after the
    /// burst.
    pub verify_every_s: u32,
    /// Record downloads per address (each replays a whole game): burst.
    pub record_burst: u32,
    /// Record downloads per address: one per this many seconds after the
    /// burst.
    pub record_every_s: u32,
    /// Unfinished tables in all.
    pub max_live_tables: usize,
    /// Unfinished tables created by one address.
    pub max_live_tables_per_ip: usize,
    /// A table nobody is connected to leaves memory after this long
    /// without activity (it is loaded again on demand).
    pub evict_after: Duration,
    /// An unfinished table without any action or join for this long ends
    /// as `abandoned` (its record is kept).
    pub abandon_after: Duration,
    /// A table that never started (no action yet: a seat nobody came to)
    /// ends as `abandoned` after this long without a join, so tables
    /// nobody uses cannot fill the live-table caps.
    pub unstarted_after: Duration,
    /// Most hands a Dalmuti session may have.
    pub max_hands: u32,
    /// Most actions a table's game may have (it then ends as abandoned),
    /// and a record sent to be checked.
    pub max_actions: usize,
    /// Smallest bot delay of a table with no human seat.
    pub min_bot_delay_ms: u64,
    /// Bot decisions computed at once, server-wide (the rest wait their
    /// turn), so bots never take every core from the people.
    pub bot_threads: usize,
    /// The turn timer of public tables unless the creator sets one.
    pub public_turn_timer_ms: u64,
    /// How long a human seat must stay empty before the table's creator
    /// may give it to a bot.
    pub fill_after: Duration,
    /// D7 at a table with people: the holder of both Jesters' decision
    /// takes effect this long after the deal, whoever holds them (fair
    /// timing, docs/rules/dalmuti.md).
    pub revolution_window_ms: u64,
    /// Post-game analyses one address may start ([`analysis`]): burst.
    pub analysis_burst: u32,
    /// Analyses started per address: one per this many seconds after the
    /// burst.
    pub analysis_every_s: u32,
    /// Analyses waiting for the one that runs, server-wide; more are
    /// refused as `busy`.
    pub analysis_queue: usize,
    /// Worker threads of the analysis that runs (1 or 2: play stays
    /// responsive).
    pub analysis_threads: usize,
    /// MCTS iterations per decision of an analysis; 0 = the game's
    /// default (`analysis::analyze::Config::for_game`).
    pub analysis_search: u32,
    /// Paired rollouts per candidate of an analysis; 0 = the game's
    /// default.
    pub analysis_rollouts: u32,
    /// Largest analysis stored, in bytes of JSON (the candidates are
    /// dropped first to fit).
    pub analysis_max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rate_limit: protocol::RATE_LIMIT,
            rate_close: protocol::RATE_CLOSE,
            max_connections: 4096,
            max_connections_per_ip: 64,
            send_buffer: 128 * 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            create_burst: 10,
            create_every_s: 6,
            join_burst: 30,
            join_every_s: 1,
            verify_burst: 10,
            verify_every_s: 5,
            record_burst: 30,
            record_every_s: 1,
            max_live_tables: 2000,
            max_live_tables_per_ip: 20,
            evict_after: Duration::from_secs(300),
            abandon_after: Duration::from_secs(7 * 24 * 3600),
            unstarted_after: Duration::from_secs(3600),
            max_hands: 100,
            max_actions: 20_000,
            min_bot_delay_ms: 200,
            bot_threads: 1,
            public_turn_timer_ms: 120_000,
            fill_after: Duration::from_secs(60),
            revolution_window_ms: 10_000,
            analysis_burst: 3,
            analysis_every_s: 120,
            analysis_queue: 8,
            analysis_threads: 1,
            analysis_search: 0,
            analysis_rollouts: 0,
            analysis_max_bytes: 4 << 20,
        }
    }
}

impl Limits {
    /// Limits for tests and load generators that act faster than people
    /// from one address: no rate limits or quotas, the other bounds kept.
    pub fn unlimited() -> Limits {
        Limits {
            rate_limit: 1_000_000,
            rate_close: 1_000_000,
            max_connections_per_ip: 0,
            create_burst: 1_000_000,
            join_burst: 1_000_000,
            verify_burst: 1_000_000,
            record_burst: 1_000_000,
            analysis_burst: 1_000_000,
            max_live_tables: 1_000_000,
            max_live_tables_per_ip: 1_000_000,
            min_bot_delay_ms: 0,
            bot_threads: 2,
            revolution_window_ms: 0,
            ..Limits::default()
        }
    }
}

/// The server's shared state: the store, the live tables and the limits.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

/// The live tables by id.
pub(crate) type Registry = Mutex<HashMap<String, TableHandle>>;

struct Inner {
    store: Arc<dyn Store>,
    /// This process in the store, and how it shares the site with others.
    cluster: cluster::Cluster,
    tables: Arc<Registry>,
    /// Serialises loading a table from the store, so it is spawned once.
    loading: tokio::sync::Mutex<()>,
    closing: watch::Sender<bool>,
    next_conn: AtomicU64,
    limits: Limits,
    quotas: Quotas,
    bot_gate: Arc<Semaphore>,
    /// Record checks run one at a time, server-wide.
    verify_gate: Semaphore,
    /// Post-game analyses: the queue and the one that runs.
    analyses: crate::analysis::Analyses,
    metrics: Arc<Metrics>,
    ops: ops::Ops,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    proxies: std::sync::OnceLock<Vec<std::net::IpAddr>>,
    lobby: lobby::LobbyCache,
    /// The bot programs the operator offers as levels (set once, before
    /// serving; none by default).
    external: std::sync::OnceLock<Arc<extbots::ExternalBots>>,
    /// The site's secret, which keys the hashes of where people join
    /// from ([`social::origin`]).
    origin_key: String,
}

/// What a table task needs from the server.
#[derive(Clone)]
pub(crate) struct TableCtx {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) node: Arc<str>,
    pub(crate) closing: watch::Receiver<bool>,
    pub(crate) registry: Arc<Registry>,
    pub(crate) limits: Limits,
    pub(crate) bot_gate: Arc<Semaphore>,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) external: Arc<extbots::ExternalBots>,
}

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

    /// A state over `store` as one process of a site that may have
    /// several (issue 9): it heartbeats as `cluster.node`, and, if told
    /// to, takes over the tables of processes that died.
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
                analyses: crate::analysis::Analyses::default(),
                metrics: Arc::new(Metrics::new()),
                ops: ops::Ops::new(),
                proxies: std::sync::OnceLock::new(),
                lobby: lobby::LobbyCache::default(),
                external: std::sync::OnceLock::new(),
                origin_key,
            }),
        };
        tokio::spawn(state.clone().sweeper());
        tokio::spawn(cluster::heartbeats(state.clone()));
        if let Some(changes) = state.store().changes() {
            state.inner.lobby.enable();
            tokio::spawn(cluster::follow(state.clone(), changes));
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
        let now = table::unix_now();
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

    /// Trusts `X-Forwarded-For` from these reverse proxies (a load
    /// balancer in front of the site): the client address quotas count
    /// is the last one they add. Set once, before serving.
    pub fn trust_proxies(&self, proxies: Vec<std::net::IpAddr>) {
        let _ = self.inner.proxies.set(proxies);
    }

    /// Offers these bot programs as levels (`ratrace serve --bot`). Set
    /// once, before serving: `false` if they were already set (or read).
    pub fn offer_bots(&self, bots: extbots::ExternalBots) -> bool {
        self.inner.external.set(Arc::new(bots)).is_ok()
    }

    /// The bot programs offered as levels.
    pub fn external_bots(&self) -> Arc<extbots::ExternalBots> {
        Arc::clone(
            self.inner
                .external
                .get_or_init(|| Arc::new(extbots::ExternalBots::default())),
        )
    }

    pub(crate) fn lobby_cache(&self) -> &lobby::LobbyCache {
        &self.inner.lobby
    }

    /// Whether connections from `ip` come from a trusted reverse proxy.
    pub fn trusts_proxy(&self, ip: std::net::IpAddr) -> bool {
        self.inner
            .proxies
            .get()
            .is_some_and(|p| p.iter().any(|t| t.to_canonical() == ip.to_canonical()))
    }

    /// This process as the store knows it.
    pub fn node(&self) -> &store::Node {
        &self.inner.cluster.node
    }

    /// How long a process's heartbeat keeps its tables its own.
    pub fn lease(&self) -> Duration {
        self.inner.cluster.lease
    }

    pub(crate) fn cluster(&self) -> &cluster::Cluster {
        &self.inner.cluster
    }

    /// The store.
    pub fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.inner.store)
    }

    /// How many tables are in memory in this process.
    pub fn live_tables(&self) -> usize {
        self.lock().len()
    }

    /// The operational figures `/metrics` shows; other layers may add
    /// gauges ([`Metrics::gauge`]).
    pub fn metrics(&self) -> Arc<Metrics> {
        Arc::clone(&self.inner.metrics)
    }

    /// Stops every table task and WebSocket connection (the WebSockets
    /// close with 1012). [`AppState::drain`] also waits for them.
    pub fn close(&self) {
        self.inner.closing.send_replace(true);
    }

    pub(crate) fn closing(&self) -> watch::Receiver<bool> {
        self.inner.closing.subscribe()
    }

    /// Where a person at `who` joins from, as ratings compare it: a hash
    /// of the address under the site's secret ([`social::origin`]).
    pub(crate) fn origin(&self, who: ClientAddr) -> String {
        social::origin(&self.inner.origin_key, who)
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// Takes a token of `kind` for `who` (counting a refusal), or says
    /// how long until one is there.
    pub(crate) fn take_quota(&self, kind: quota::Kind, who: ClientAddr) -> Result<(), Duration> {
        self.inner.quotas.take(kind, who).inspect_err(|_| {
            self.inner.metrics.refused(kind.into());
        })
    }

    pub(crate) fn analyses(&self) -> &crate::analysis::Analyses {
        &self.inner.analyses
    }

    /// Post-game analyses waiting or running in this process.
    pub fn analyses_pending(&self) -> usize {
        self.inner.analyses.pending()
    }

    /// Gives back a token of `kind` taken for work that was not done.
    pub(crate) fn give_back_quota(&self, kind: quota::Kind, who: ClientAddr) {
        self.inner.quotas.give_back(kind, who);
    }

    pub(crate) fn verify_gate(&self) -> &Semaphore {
        &self.inner.verify_gate
    }

    pub(crate) fn next_conn(&self) -> u64 {
        self.inner.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.inner.tables.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn ctx(&self) -> TableCtx {
        TableCtx {
            store: self.store(),
            node: Arc::from(self.inner.cluster.node.id.as_str()),
            closing: self.closing(),
            registry: Arc::clone(&self.inner.tables),
            limits: self.inner.limits,
            bot_gate: Arc::clone(&self.inner.bot_gate),
            metrics: self.metrics(),
            external: self.external_bots(),
        }
    }

    /// Every table in memory.
    pub(crate) fn handles(&self) -> Vec<(String, TableHandle)> {
        self.lock()
            .iter()
            .map(|(id, h)| (id.clone(), h.clone()))
            .collect()
    }

    pub(crate) fn insert(&self, id: String, handle: TableHandle) {
        self.lock().insert(id, handle);
    }

    /// The live table `id`, loading it from the store if needed. A load
    /// replays the whole game, so it is metered for the client address
    /// `who` (the record-download quota), and runs on the blocking pool.
    pub(crate) async fn table(&self, id: &str, who: ClientAddr) -> Result<TableHandle, Error> {
        self.load_table(id, Some(who)).await
    }

    /// [`AppState::table`], metered for `who` if given (a take-over by
    /// this process itself is not metered).
    pub(crate) async fn load_table(
        &self,
        id: &str,
        who: Option<ClientAddr>,
    ) -> Result<TableHandle, Error> {
        if !lobby::valid_id(id) {
            return Err(Error::UnknownTable);
        }
        if let Some(h) = self.lock().get(id).cloned() {
            if !h.is_closed() {
                return Ok(h);
            }
        }
        let _loading = self.inner.loading.lock().await;
        if let Some(h) = self.lock().get(id).cloned() {
            if !h.is_closed() {
                return Ok(h);
            }
        }
        if self.is_draining() {
            // A process on its way out takes no table: the client goes
            // to another process.
            return Err(Error::Elsewhere(store::Node {
                id: String::new(),
                url: String::new(),
            }));
        }
        if let Some(who) = who {
            self.take_quota(quota::Kind::Record, who)
                .map_err(|wait| Error::quota("table loads", wait))?;
        }
        // Only the table's owner may load it: claim it first (a new epoch
        // fences any older owner), unless a live process owns it.
        let store = self.store();
        // A process alone on its store (it forwards nothing) takes any
        // table at once: an owner it does not know is a crashed earlier
        // run of itself.
        let lease = if self.cluster().forwards() {
            self.lease()
        } else {
            Duration::ZERO
        };
        let (key, node) = (id.to_string(), self.node().id.clone());
        let owned = tokio::task::spawn_blocking(move || store.claim(&key, &node, lease))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
        let epoch = match owned {
            Ownership::Mine(epoch) => epoch,
            other => {
                // Nothing is loaded here: the token was not spent.
                if let Some(who) = who {
                    self.inner.quotas.give_back(quota::Kind::Record, who);
                }
                return Err(match other {
                    Ownership::Other(node) => Error::Elsewhere(node),
                    _ => Error::UnknownTable,
                });
            }
        };
        let store = self.store();
        let key = id.to_string();
        let stored = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??
            .ok_or(Error::UnknownTable)?;
        let ctx = self.ctx();
        let handle = tokio::task::spawn_blocking(move || table::spawn(stored, ctx, epoch))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
            .map_err(Error::Internal)?;
        self.insert(id.to_string(), handle.clone());
        Ok(handle)
    }

    /// Sends `cmd` to table `id`, loading it if needed. A table that left
    /// memory between the lookup and the send is loaded again and gets
    /// the command: nothing sent is lost to an eviction.
    pub(crate) async fn send(
        &self,
        id: &str,
        who: ClientAddr,
        mut cmd: Command,
    ) -> Result<TableHandle, Error> {
        for _ in 0..3 {
            let handle = self.table(id, who).await?;
            match handle.try_deliver(cmd).await {
                Ok(()) => return Ok(handle),
                Err(back) => cmd = back,
            }
        }
        Err(Error::Internal(format!("table {id} keeps stopping")))
    }
}

/// The router: pages, static files, the JSON API and the WebSocket, with
/// the security headers on every answer.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(web::routes())
        .merge(lobby::routes(state.clone()))
        .merge(crate::analysis::routes())
        .merge(ops::routes())
        .merge(
            Router::new()
                .route("/ws/{id}", axum::routing::get(ws::upgrade))
                .route_layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    cluster::to_owner,
                )),
        )
        .layer(axum::middleware::map_response(web::security_headers))
        .with_state(state)
}
