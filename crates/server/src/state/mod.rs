//! The server's shared state ([`AppState`]): the store, the live tables,
//! the limits, the quotas and the queues, cheap to clone into every
//! handler. It sits between the connections (which hold it) and the
//! tables (which it starts and finds).

pub(crate) mod analyses;
pub(crate) mod cluster;
pub mod friends;
pub(crate) mod lobby_cache;
pub(crate) mod nodes;
mod open;
pub mod pairing;
pub mod passkeys;
pub mod rooms;
pub mod tournaments;

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::quota::Quotas;
use crate::store::{Ownership, Store};
use crate::table::{Command, Registry, TableCtx, TableHandle};
use crate::{extbots, quota, social, store, table};
use lobby_cache::LobbyCache;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The server's shared state: the store, the live tables and the limits.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

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
    analyses: analyses::Analyses,
    /// Quick pairing's pools and tickets.
    pairing: pairing::Pairing,
    /// Who is online and where, and invitations waiting.
    friends: friends::Friends,
    /// Shared replays' rooms.
    rooms: rooms::Rooms,
    /// The tournament director's bell and whether it runs.
    tournaments: tournaments::Director,
    /// Passkeys: the site as WebAuthn knows it (set once, before serving;
    /// none: passkeys are off), and the ceremonies in progress.
    webauthn: std::sync::OnceLock<Arc<webauthn_rs::Webauthn>>,
    ceremonies: passkeys::Ceremonies,
    metrics: Arc<Metrics>,
    ops: Ops,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    proxies: std::sync::OnceLock<Vec<std::net::IpAddr>>,
    lobby: LobbyCache,
    /// The bot programs the operator offers as levels (set once, before
    /// serving; none by default).
    external: std::sync::OnceLock<Arc<extbots::ExternalBots>>,
    /// The site's secret, which keys the hashes of where people join
    /// from ([`social::origin`]).
    origin_key: String,
    /// Bytes queued for each client address's WebSockets, across them.
    outbox_bytes: Arc<table::AddrBytes>,
    /// The site's key, which signs every table's commitment.
    signing: Arc<registry::signed::Key>,
}

impl AppState {
    /// The operations state (drain, readiness probe, metrics token).
    pub(crate) fn ops(&self) -> &Ops {
        &self.inner.ops
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

    /// Turns passkeys on for the site at `origin` (`ratrace serve
    /// --passkey-origin`, see [`passkeys::site`]): its host is the WebAuthn
    /// relying party, which a passkey is bound to for good. Set once,
    /// before serving.
    pub fn offer_passkeys(&self, origin: &str) -> Result<(), passkeys::BadOrigin> {
        let site = passkeys::site(origin)?;
        self.inner
            .webauthn
            .set(Arc::new(site))
            .map_err(|_| passkeys::BadOrigin {
                origin: origin.to_string(),
                why: "passkeys are set up already".into(),
            })
    }

    /// The site as WebAuthn knows it, if passkeys are on.
    pub(crate) fn webauthn(&self) -> Option<Arc<webauthn_rs::Webauthn>> {
        self.inner.webauthn.get().cloned()
    }

    /// Passkeys' ceremonies in progress.
    pub(crate) fn ceremonies(&self) -> &passkeys::Ceremonies {
        &self.inner.ceremonies
    }

    /// The bot programs offered as levels.
    pub fn external_bots(&self) -> Arc<extbots::ExternalBots> {
        Arc::clone(
            self.inner
                .external
                .get_or_init(|| Arc::new(extbots::ExternalBots::default())),
        )
    }

    pub(crate) fn lobby_cache(&self) -> &LobbyCache {
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

    /// The outbox of a new WebSocket from `who`: bounded in messages and
    /// bytes, its bytes also counted against `who`'s budget across its
    /// connections.
    pub(crate) fn outbox(&self, who: ClientAddr) -> (table::Outbox, table::OutboxRx) {
        let l = &self.inner.limits;
        let bounds = table::Bounds {
            messages: l.outbox_messages,
            bytes: l.outbox_bytes,
        };
        let budget = table::AddrBudget::new(&self.inner.outbox_bytes, who, l.outbox_bytes_per_ip);
        table::Outbox::new(bounds, Some(budget))
    }

    /// Bytes queued now for the WebSockets of `who`.
    pub fn outbox_bytes_of(&self, who: ClientAddr) -> usize {
        self.inner.outbox_bytes.of(who)
    }

    /// The site's signing key (its public half is `GET /api/key`).
    pub fn signing_key(&self) -> &registry::signed::Key {
        &self.inner.signing
    }

    /// Signs a record's fair-deal section, if it is a signed one (version
    /// 3): its `key` and `signature`.
    pub fn sign(&self, record: &mut game::Record) {
        if let Some(f) = record.fairness.as_mut() {
            self.inner.signing.sign(f);
        }
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

    /// Quick pairing's pools and tickets.
    pub(crate) fn pairing(&self) -> &pairing::Pairing {
        &self.inner.pairing
    }

    /// Who is online and where, and invitations waiting.
    pub(crate) fn friends(&self) -> &friends::Friends {
        &self.inner.friends
    }

    /// Shared replays' rooms.
    pub(crate) fn rooms(&self) -> &rooms::Rooms {
        &self.inner.rooms
    }

    /// The tournament director's bell and whether it runs.
    pub(crate) fn tournaments(&self) -> &tournaments::Director {
        &self.inner.tournaments
    }

    pub(crate) fn analyses(&self) -> &analyses::Analyses {
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
        if !crate::ids::valid_id(id) {
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
            .map_err(|e| Error::Internal(e.to_string()))??;
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

/// The operations state of an [`AppState`].
pub(crate) struct Ops {
    pub(crate) draining: watch::Sender<bool>,
    /// The last readiness probe: when, and its answer.
    pub(crate) probe: tokio::sync::Mutex<Option<(tokio::time::Instant, Result<(), &'static str>)>>,
    /// The SHA-256 of the bearer token `/metrics` asks for, if any.
    pub(crate) token: std::sync::OnceLock<[u8; 32]>,
}

impl Ops {
    pub(crate) fn new() -> Ops {
        Ops {
            draining: watch::channel(false).0,
            probe: tokio::sync::Mutex::new(None),
            token: std::sync::OnceLock::new(),
        }
    }
}
