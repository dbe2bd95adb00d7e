//! Requests for a table another process owns: forwarded to it (a
//! WebSocket piped through), and the guard on the cluster listener that
//! admits only the site's own processes.

use super::{PEER_HEADER, SECRET_HEADER};
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::net::Slot;
use crate::state::AppState;
use crate::store::Node;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::client::conn::http1::SendRequest;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long another process may take to answer a forwarded request's
/// headers (every forwarded route answers at once: a join, an info, a
/// WebSocket upgrade); a stopped owner is given up on after this.
pub(crate) const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// Why another process could not be sent a request (nothing was sent).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unreachable {
    /// This process has no cluster secret to send.
    #[error("no cluster secret")]
    NoSecret,
    /// The node's address does not read as a URL with a host (the URL).
    #[error("bad node url {0}")]
    BadUrl(String),
    /// Connecting failed.
    #[error(transparent)]
    Connect(std::io::Error),
    /// Connecting took longer than [`CONNECT_TIMEOUT`].
    #[error("connect timed out")]
    ConnectTimedOut,
    /// The HTTP handshake failed.
    #[error(transparent)]
    Handshake(hyper::Error),
    /// The request's path does not make a URI of its own.
    #[error("bad path")]
    BadPath,
}

/// Sends `req` to `node`'s cluster listener and returns its answer. A
/// WebSocket upgrade is piped both ways for as long as it lives, keeping
/// the client's connection slot. If `node` cannot be reached, the request
/// comes back untouched (nothing was sent).
pub(crate) async fn forward(
    state: &AppState,
    table: &str,
    node: &Node,
    who: ClientAddr,
    mut req: Request,
) -> Result<Response, (Request, Unreachable)> {
    let Some(secret) = state.cluster().secret.clone() else {
        return Err((req, Unreachable::NoSecret));
    };
    let (mut sender, authority) = match connect(node).await {
        Ok(connected) => connected,
        Err(e) => return Err((req, e)),
    };
    let slot = req.extensions().get::<Arc<Slot>>().cloned();
    let client_upgrade = hyper::upgrade::on(&mut req);
    let uri = match path_only(req.uri()) {
        Ok(uri) => uri,
        Err(e) => return Err((req, e)),
    };
    let upstream = upstream_request(req, uri, &authority, who, &secret);
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
        pipe(state, table, node, client_upgrade, server_upgrade, slot);
    }
    Ok(answer.map(Body::new))
}

/// An HTTP/1 connection to `node`'s cluster listener (driven by a task of
/// its own, upgrades included), and the listener's authority.
async fn connect(node: &Node) -> Result<(SendRequest<Body>, Authority), Unreachable> {
    let authority = node
        .url
        .parse::<Uri>()
        .ok()
        .and_then(|u| u.authority().cloned())
        .ok_or_else(|| Unreachable::BadUrl(node.url.clone()))?;
    let tcp = match tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect(authority.as_str()),
    )
    .await
    {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(e)) => return Err(Unreachable::Connect(e)),
        Err(_) => return Err(Unreachable::ConnectTimedOut),
    };
    let _ = tcp.set_nodelay(true);
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
        .await
        .map_err(Unreachable::Handshake)?;
    tokio::spawn(async move {
        if let Err(e) = conn.with_upgrades().await {
            tracing::debug!("forwarded connection: {e}");
        }
    });
    Ok((sender, authority))
}

/// The path (and query) of `uri` alone, as the URI to send on.
fn path_only(uri: &Uri) -> Result<Uri, Unreachable> {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    path.parse().map_err(|_| Unreachable::BadPath)
}

/// The client's request as sent on to the owner at `authority`: its URI
/// `uri`, its host the owner's, and the client's address and the site's
/// secret in the cluster headers (whatever the client put there
/// dropped).
fn upstream_request(
    req: Request,
    uri: Uri,
    authority: &Authority,
    who: ClientAddr,
    secret: &str,
) -> Request {
    let (mut parts, body) = req.into_parts();
    parts.uri = uri;
    let headers = &mut parts.headers;
    headers.remove(PEER_HEADER);
    headers.remove(SECRET_HEADER);
    if let Ok(v) = HeaderValue::from_str(authority.as_str()) {
        headers.insert(axum::http::header::HOST, v);
    }
    if let (Ok(peer), Ok(secret)) = (
        HeaderValue::from_str(&who.0.to_string()),
        HeaderValue::from_str(secret),
    ) {
        headers.insert(PEER_HEADER, peer);
        headers.insert(SECRET_HEADER, secret);
    }
    Request::from_parts(parts, body)
}

/// Pipes an upgraded connection (a WebSocket) between the client and the
/// owner of `table` for as long as it lives, or until the pipes to that
/// owner are cut. If the owner resets its end, so is the client's.
fn pipe(
    state: &AppState,
    table: &str,
    node: &Node,
    client_upgrade: OnUpgrade,
    server_upgrade: OnUpgrade,
    slot: Option<Arc<Slot>>,
) {
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
