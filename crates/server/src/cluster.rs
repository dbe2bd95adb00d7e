//! Several `ratrace serve` processes, one site (issue 9): heartbeats,
//! taking over the tables of a process that died, and forwarding a
//! request for a table to the process that owns it.
//!
//! Ownership lives in the store, not in a home-made protocol: a table is
//! owned by the process whose claim raised its epoch last, and every write
//! carries that epoch ([`crate::store::Epoch`]), so a stale owner can never
//! append. A process heartbeats every quarter of the lease; one silent for
//! a whole lease counts as dead, and the others claim its tables, replay
//! them from the action log and go on. A process that finds it missed its
//! own lease (it was stopped, or its database was unreachable) hands every
//! table it holds back and claims them again, since another process may
//! have taken some.
//!
//! Any process serves any request. One that is not the owner of the table
//! a request is about forwards it, WebSocket upgrades included, to the
//! owner's cluster listener and pipes the bytes both ways; the client
//! never notices. Forwarding rather than redirecting works behind any load
//! balancer with one public address. The cluster listener trusts only
//! requests that carry the site's secret (kept in the store), and takes
//! the client's address from them, so quotas count the real client.

use crate::error::Error;
use crate::net::{ClientAddr, Slot};
use crate::state::AppState;
use crate::store::Node;
use crate::table::Command;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The header a forwarding process puts the client's address in.
pub const PEER_HEADER: &str = "x-ratrace-peer";
/// The header that carries the site's secret between processes.
pub const SECRET_HEADER: &str = "x-ratrace-secret";

/// How this process shares the site with others.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// This process in the store.
    pub node: Node,
    /// A process silent for this long is dead, and its tables are taken
    /// over.
    pub lease: Duration,
    /// Take over the tables of dead processes without waiting for a
    /// client to ask (so their bots and turn timers go on).
    pub adopt_orphans: bool,
    /// The secret forwarded requests carry; `None` forwards nothing.
    pub secret: Option<String>,
    /// The WebSockets this process pipes to other processes, by table.
    pub(crate) pipes: Arc<Pipes>,
}

/// The WebSocket connections piped to another process, by table id, each
/// with the process it goes to and a way to cut it.
#[derive(Debug, Default)]
pub(crate) struct Pipes {
    open: std::sync::Mutex<std::collections::HashMap<String, Vec<Pipe>>>,
}

/// One piped WebSocket.
#[derive(Debug)]
struct Pipe {
    node: String,
    cut: Arc<tokio::sync::Notify>,
}

type PipeMap = std::collections::HashMap<String, Vec<Pipe>>;

impl Pipes {
    fn lock(&self) -> std::sync::MutexGuard<'_, PipeMap> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new pipe for `table` to `node`; notified to cut it.
    fn open(&self, table: &str, node: &str) -> Arc<tokio::sync::Notify> {
        let cut = Arc::new(tokio::sync::Notify::new());
        self.lock()
            .entry(table.to_string())
            .or_default()
            .push(Pipe {
                node: node.to_string(),
                cut: Arc::clone(&cut),
            });
        cut
    }

    /// Forgets an ended pipe.
    fn close(&self, table: &str, cut: &Arc<tokio::sync::Notify>) {
        let mut open = self.lock();
        if let Some(list) = open.get_mut(table) {
            list.retain(|p| !Arc::ptr_eq(&p.cut, cut));
            if list.is_empty() {
                open.remove(table);
            }
        }
    }

    /// The processes some pipe goes to.
    fn nodes(&self) -> Vec<String> {
        let mut nodes: Vec<String> = self
            .lock()
            .values()
            .flatten()
            .map(|p| p.node.clone())
            .collect();
        nodes.sort();
        nodes.dedup();
        nodes
    }

    /// Cuts every pipe to `node`.
    fn cut_node(&self, node: &str) {
        for p in self.lock().values().flatten().filter(|p| p.node == node) {
            p.cut.notify_one();
        }
    }

    /// Cuts every pipe.
    fn cut_all(&self) {
        for p in self.lock().values().flatten() {
            p.cut.notify_one();
        }
    }
}

impl Cluster {
    /// A process alone on its store: it claims the tables it loads, never
    /// forwards, and adopts nothing.
    pub fn standalone() -> Cluster {
        Cluster {
            node: Node {
                id: crate::store::new_node_id(),
                url: String::new(),
            },
            lease: Duration::from_secs(2),
            adopt_orphans: false,
            secret: None,
            pipes: Arc::default(),
        }
    }

    /// A process of a site of several: it heartbeats as `node`, takes
    /// over the tables of processes silent for `lease`, and forwards with
    /// `secret`.
    pub fn member(node: Node, lease: Duration, secret: String) -> Cluster {
        Cluster {
            node,
            lease,
            adopt_orphans: true,
            secret: Some(secret),
            pipes: Arc::default(),
        }
    }

    /// Whether requests for other processes' tables are forwarded.
    pub fn forwards(&self) -> bool {
        self.secret.is_some()
    }
}

/// Most orphaned tables one process adopts per heartbeat, so survivors
/// share a dead process's tables and none is swamped.
const ADOPT_PER_BEAT: usize = 64;

/// Heartbeats every quarter lease until the server closes. The upkeep
/// (adopting orphans, cutting pipes to dead processes, reclaiming after a
/// missed lease) runs in a task of its own, one at a time, so a long
/// take-over never delays the next heartbeat.
pub(crate) async fn heartbeats(state: AppState) {
    let lease = state.lease();
    let every = (lease / 4).max(Duration::from_millis(50));
    let mut closing = state.closing();
    // When the last heartbeat that succeeded was sent: the store stamped
    // it at some moment after this, so measuring from here never
    // underestimates a gap.
    let mut last_ok = Instant::now();
    let busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            _ = closing.changed() => return,
        }
        if state.is_draining() {
            return;
        }
        let store = state.store();
        let node = state.node().clone();
        let sent = Instant::now();
        let mut missed = false;
        match tokio::task::spawn_blocking(move || store.heartbeat(&node)).await {
            Ok(Ok(())) if state.is_draining() => {
                // The drain left the site while this heartbeat was on its
                // way: leave again, for good.
                leave(&state).await;
                return;
            }
            Ok(Ok(())) => {
                let gap = last_ok.elapsed();
                if gap > lease {
                    tracing::warn!(
                        "this process missed its lease ({} ms between heartbeats): \
                         handing its tables back and claiming them again",
                        gap.as_millis()
                    );
                    missed = true;
                }
                last_ok = sent;
            }
            Ok(Err(e)) => tracing::error!("heartbeat: {e}"),
            Err(e) => tracing::error!("heartbeat: {e}"),
        }
        if !state.cluster().forwards() || busy.swap(true, Ordering::AcqRel) {
            continue;
        }
        let (state, busy) = (state.clone(), Arc::clone(&busy));
        tokio::spawn(async move {
            if missed {
                reclaim_all(&state).await;
            }
            cut_dead_pipes(&state).await;
            if state.cluster().adopt_orphans && !state.is_draining() {
                adopt(&state).await;
            }
            busy.store(false, Ordering::Release);
        });
    }
}

/// Follows what the other processes change (PostgreSQL's LISTEN/NOTIFY):
/// a lobby change empties the lobby cache; a process that left has its
/// tables taken over at once instead of at the next heartbeat.
pub(crate) async fn follow(
    state: AppState,
    mut changes: tokio::sync::broadcast::Receiver<crate::store::Change>,
) {
    use crate::store::Change;
    use tokio::sync::broadcast::error::RecvError;
    let mut closing = state.closing();
    loop {
        let change = tokio::select! {
            c = changes.recv() => c,
            _ = closing.changed() => return,
        };
        match change {
            Ok(Change::Lobby | Change::Resync) | Err(RecvError::Lagged(_)) => {
                state.lobby_cache().invalidate();
            }
            Ok(Change::Left(node)) => {
                state.lobby_cache().invalidate();
                if node != state.node().id
                    && state.cluster().forwards()
                    && state.cluster().adopt_orphans
                    && !state.is_draining()
                {
                    let state = state.clone();
                    tokio::spawn(async move {
                        state.cluster().pipes.cut_node(&node);
                        adopt(&state).await;
                    });
                }
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// Removes this process from the site: its tables may be claimed by the
/// others at once.
pub(crate) async fn leave(state: &AppState) {
    let store = state.store();
    let node = state.node().id.clone();
    match tokio::task::spawn_blocking(move || store.leave(&node)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::error!("leaving the site: {e}"),
        Err(e) => tracing::error!("leaving the site: {e}"),
    }
}

/// How long a drain's hand-over may take before the drain goes on.
const HAND_OVER_LIMIT: Duration = Duration::from_secs(3);

/// The cluster's part of a drain: leave the site (so the others may claim
/// this process's tables at once, and take them over within a heartbeat),
/// cut the WebSockets piped to other processes, then close every table's
/// connections so their clients reconnect to another process. A write
/// from a table still in memory after another process claimed it is
/// fenced. A process alone only leaves (so its next start does not wait
/// for its lease).
pub(crate) async fn hand_over(state: &AppState) {
    let work = async {
        leave(state).await;
        if !state.cluster().forwards() {
            return;
        }
        state.cluster().pipes.cut_all();
        let n = state.relinquish_all().await.len();
        tracing::info!("handed {n} tables over to the other processes");
    };
    if tokio::time::timeout(HAND_OVER_LIMIT, work).await.is_err() {
        tracing::warn!("hand-over: gave up after {HAND_OVER_LIMIT:?}");
    }
}

/// Cuts the WebSockets piped to processes that are no longer alive (died,
/// stopped, or left), so their clients reconnect and reach the table's
/// new owner.
async fn cut_dead_pipes(state: &AppState) {
    let nodes = state.cluster().pipes.nodes();
    if nodes.is_empty() {
        return;
    }
    let (store, lease) = (state.store(), state.lease());
    let live = match tokio::task::spawn_blocking(move || store.live_nodes(lease)).await {
        Ok(Ok(live)) => live,
        _ => return,
    };
    for node in nodes {
        if !live.iter().any(|n| n.id == node) {
            state.cluster().pipes.cut_node(&node);
        }
    }
}

/// Takes over tables whose owner died or left.
async fn adopt(state: &AppState) {
    let store = state.store();
    let (node, lease) = (state.node().id.clone(), state.lease());
    let ids = match tokio::task::spawn_blocking(move || store.orphans(&node, lease, ADOPT_PER_BEAT))
        .await
    {
        Ok(Ok(ids)) => ids,
        Ok(Err(e)) => return tracing::error!("looking for orphaned tables: {e}"),
        Err(e) => return tracing::error!("looking for orphaned tables: {e}"),
    };
    for id in ids {
        match state.load_table(&id, None).await {
            Ok(_) => tracing::info!(table = %id, "took over from a process that stopped"),
            Err(Error::Elsewhere(_)) => {}
            Err(e) => tracing::warn!(table = %id, "taking over: {e}"),
        }
    }
}

/// How long a relinquished table may take to leave memory before it is
/// claimed again anyway.
const LEAVE_LIMIT: Duration = Duration::from_secs(2);

/// Every table in memory leaves it (its connections reconnect), then is
/// claimed again once its task has stopped: those another process took
/// meanwhile stay there.
async fn reclaim_all(state: &AppState) {
    for (id, h) in state.relinquish_all().await {
        let deadline = Instant::now() + LEAVE_LIMIT;
        while !h.is_closed() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if let Err(e) = state.load_table(&id, None).await {
            tracing::info!(table = %id, "not reclaimed: {e}");
        }
    }
}

impl AppState {
    /// Makes every table in memory leave it, closing its connections so
    /// they reconnect; returns them.
    pub(crate) async fn relinquish_all(&self) -> Vec<(String, crate::table::TableHandle)> {
        let held = self.handles();
        for (_, h) in &held {
            let _ = h.send(Command::Relinquish).await;
        }
        held
    }
}

/// Middleware on the routes of one table: a request for a table another
/// live process owns is forwarded there; everything else goes on here.
/// While the owner cannot be reached (it just died and its lease has not
/// run out), the request waits, claiming again, for up to two leases.
pub(crate) async fn to_owner(
    State(state): State<AppState>,
    Path(id): Path<String>,
    who: ClientAddr,
    req: Request,
    next: Next,
) -> Response {
    if !state.cluster().forwards() {
        return next.run(req).await;
    }
    let give_up = Instant::now() + state.lease() * 2;
    let mut req = Some(req);
    loop {
        let node = match state.table(&id, who).await {
            Err(Error::Elsewhere(node)) if !node.url.is_empty() => node,
            _ => break,
        };
        let Some(r) = req.take() else { break };
        match forward(&state, &id, &node, who, r).await {
            Ok(response) => return response,
            Err((back, e)) => {
                tracing::debug!(table = %id, "owner {} unreachable: {e}", node.id);
                req = Some(back);
            }
        }
        if Instant::now() >= give_up {
            return Error::Elsewhere(node).into_response();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    match req {
        Some(r) => next.run(r).await,
        None => Error::Internal("request lost while forwarding".to_string()).into_response(),
    }
}

/// How long connecting to another process may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long another process may take to answer a forwarded request's
/// headers (every forwarded route answers at once: a join, an info, a
/// WebSocket upgrade); a stopped owner is given up on after this.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// Sends `req` to `node`'s cluster listener and returns its answer. A
/// WebSocket upgrade is piped both ways for as long as it lives, keeping
/// the client's connection slot. If `node` cannot be reached, the request
/// comes back untouched (nothing was sent).
async fn forward(
    state: &AppState,
    table: &str,
    node: &Node,
    who: ClientAddr,
    mut req: Request,
) -> Result<Response, (Request, String)> {
    let Some(secret) = state.cluster().secret.clone() else {
        return Err((req, "no cluster secret".to_string()));
    };
    let authority = match node
        .url
        .parse::<Uri>()
        .ok()
        .and_then(|u| u.authority().cloned())
    {
        Some(a) => a,
        None => return Err((req, format!("bad node url {}", node.url))),
    };
    let tcp = match tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect(authority.as_str()),
    )
    .await
    {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(e)) => return Err((req, e.to_string())),
        Err(_) => return Err((req, "connect timed out".to_string())),
    };
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) = match hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await {
        Ok(pair) => pair,
        Err(e) => return Err((req, e.to_string())),
    };
    tokio::spawn(async move {
        if let Err(e) = conn.with_upgrades().await {
            tracing::debug!("forwarded connection: {e}");
        }
    });
    let slot = req.extensions().get::<Arc<Slot>>().cloned();
    let client_upgrade = hyper::upgrade::on(&mut req);
    let (mut parts, body) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    parts.uri = match path.parse() {
        Ok(u) => u,
        Err(_) => return Err((Request::from_parts(parts, body), "bad path".to_string())),
    };
    let headers = &mut parts.headers;
    headers.remove(PEER_HEADER);
    headers.remove(SECRET_HEADER);
    if let Ok(v) = HeaderValue::from_str(authority.as_str()) {
        headers.insert(axum::http::header::HOST, v);
    }
    if let (Ok(peer), Ok(secret)) = (
        HeaderValue::from_str(&who.0.to_string()),
        HeaderValue::from_str(&secret),
    ) {
        headers.insert(PEER_HEADER, peer);
        headers.insert(SECRET_HEADER, secret);
    }
    let upstream = Request::from_parts(parts, body);
    let mut answer = match tokio::time::timeout(ANSWER_TIMEOUT, sender.send_request(upstream)).await
    {
        Ok(Ok(a)) => a,
        // The request was sent: it cannot come back.
        Ok(Err(e)) => {
            tracing::warn!("forwarding to {}: {e}", node.id);
            return Ok(Error::Elsewhere(node.clone()).into_response());
        }
        Err(_) => return Ok(Error::Elsewhere(node.clone()).into_response()),
    };
    if answer.status() == StatusCode::SWITCHING_PROTOCOLS {
        let server_upgrade = hyper::upgrade::on(&mut answer);
        let cut = state.cluster().pipes.open(table, &node.id);
        let pipes = Arc::clone(&state.cluster().pipes);
        let table = table.to_string();
        tokio::spawn(async move {
            let (Ok(client), Ok(server)) = tokio::join!(client_upgrade, server_upgrade) else {
                return pipes.close(&table, &cut);
            };
            let mut client = TokioIo::new(client);
            let mut server = TokioIo::new(server);
            tokio::select! {
                copied = tokio::io::copy_bidirectional(&mut client, &mut server) => {
                    // The owner reset its end (a client too slow to take
                    // its close): so is the client's, or its unsent
                    // bytes would keep the socket here.
                    if copied.is_err() {
                        if let Some(slot) = &slot {
                            slot.reset_on_close();
                        }
                    }
                }
                () = cut.notified() => {}
            }
            pipes.close(&table, &cut);
        });
    }
    Ok(answer.map(Body::new))
}

/// Middleware of the cluster listener: only requests with the site's
/// secret pass, and their client address is the one the forwarding
/// process saw.
pub(crate) async fn trusted(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Response {
    let expected = state.cluster().secret.as_deref();
    let given = req
        .headers()
        .get(SECRET_HEADER)
        .and_then(|v| v.to_str().ok());
    // Compared as digests, so the time taken says nothing about the secret.
    let digest = crate::ids::sha256_hex;
    let ok = matches!((expected, given), (Some(e), Some(g)) if digest(e) == digest(g));
    if !ok {
        return (StatusCode::FORBIDDEN, "cluster requests only").into_response();
    }
    let peer = req
        .headers()
        .get(PEER_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    if let Some(ip) = peer {
        req.extensions_mut().insert(ClientAddr::of(ip));
    }
    next.run(req).await
}
