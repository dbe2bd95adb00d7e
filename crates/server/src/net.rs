//! The accept loop: every TCP connection takes a slot (a cap in all and per
//! client address), gets a header-read timeout that also bounds idle
//! keep-alive, and carries its client address and slot into the request (so
//! no client can hold connections open without limit). The socket itself
//! holds the slot (`Tcp`), so the caps count what the kernel really has
//! open, however a connection ends: a WebSocket the server gave up on keeps
//! its place until its socket is gone, and the code that gives up can make
//! that close a reset ([`Slot::reset_on_close`]), so a peer that reads
//! nothing cannot keep it alive with a full send buffer.
//!
//! It replaces `axum::serve`, which sets no timeouts and no caps: hyper's
//! HTTP/1 connection builder is driven directly, with upgrades for the
//! WebSocket. On shutdown (or a drain begun elsewhere) it stops accepting
//! at once, asks open HTTP connections to finish, and runs
//! [`AppState::drain`] before returning.

use crate::addr::ClientAddr;
use crate::metrics::{Held, Refusal};
use crate::state::AppState;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower_service::Service;

/// The client address a trusted reverse proxy put last in
/// `X-Forwarded-For` (the one it saw; earlier entries are the client's
/// own word and are ignored).
fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let last = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .last()?;
    last.trim().parse().ok()
}

/// A connection's place under the caps; released when the last holder
/// drops it, and the socket (`Tcp`) is always one of them, so the place
/// is held until the socket is closed.
#[derive(Debug)]
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    _open: Held,
    addr: ClientAddr,
    counts: Arc<Mutex<HashMap<ClientAddr, usize>>>,
    reset: AtomicBool,
}

impl Slot {
    /// Makes the socket's close a reset (`SO_LINGER` 0): whatever the
    /// kernel still holds unsent is dropped at once, instead of waiting,
    /// maybe for minutes, for a peer that reads nothing. For a connection
    /// the server gave up on after its close frame could not be delivered.
    pub fn reset_on_close(&self) {
        self.reset.store(true, Ordering::Relaxed);
    }
}

/// An accepted TCP connection, holding its [`Slot`] for as long as the
/// socket is open; when dropped after [`Slot::reset_on_close`] it is
/// closed with a reset.
struct Tcp {
    stream: TcpStream,
    slot: Arc<Slot>,
}

impl Drop for Tcp {
    fn drop(&mut self) {
        if self.slot.reset.load(Ordering::Relaxed) {
            let linger = socket2::SockRef::from(&self.stream).set_linger(Some(Duration::ZERO));
            if let Err(e) = linger {
                tracing::debug!("SO_LINGER: {e}");
            }
        }
    }
}

impl AsyncRead for Tcp {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Tcp {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}

/// The connection caps.
struct Caps {
    all: Arc<Semaphore>,
    per_addr: usize,
    counts: Arc<Mutex<HashMap<ClientAddr, usize>>>,
    metrics: Arc<crate::metrics::Metrics>,
}

impl Caps {
    fn take(&self, addr: ClientAddr) -> Option<Slot> {
        let permit = Arc::clone(&self.all).try_acquire_owned().ok()?;
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = counts.entry(addr).or_insert(0);
        if self.per_addr > 0 && *n >= self.per_addr {
            return None;
        }
        *n += 1;
        Some(Slot {
            _permit: permit,
            _open: self.metrics.connections.hold(),
            addr,
            counts: Arc::clone(&self.counts),
            reset: AtomicBool::new(false),
        })
    }
}

/// Bounds what one connection may hold in the kernel: its send buffer
/// (`SO_SNDBUF`, which Linux doubles for its bookkeeping), and how long
/// data may stay unacknowledged or unsent for want of a window
/// (`TCP_USER_TIMEOUT`), after which the kernel drops the connection
/// itself: a peer that vanished or stopped reading cannot keep a socket
/// and its buffer, even one no task holds any more.
fn bound_kernel_buffers(tcp: &TcpStream, limits: &crate::limits::Limits) {
    let sock = socket2::SockRef::from(tcp);
    if let Err(e) = sock.set_send_buffer_size(limits.send_buffer) {
        tracing::debug!("SO_SNDBUF: {e}");
    }
    if let Err(e) = sock.set_tcp_user_timeout(Some(USER_TIMEOUT)) {
        tracing::debug!("TCP_USER_TIMEOUT: {e}");
    }
}

/// How long sent data may go unacknowledged (or unsent, the peer's window
/// shut) before the kernel gives the connection up. Far above any honest
/// client's round trip; below the WebSocket idle timeout.
pub const USER_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `router` on every connection `listener` accepts (see
/// [`crate::run`]), with at most `per_addr` connections from one address
/// (0: no such cap).
pub(crate) async fn accept(
    listener: TcpListener,
    state: AppState,
    router: axum::Router,
    per_addr: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.limits();
    let caps = Caps {
        all: Arc::new(Semaphore::new(limits.max_connections.max(1))),
        per_addr,
        counts: Arc::new(Mutex::new(HashMap::new())),
        metrics: state.metrics(),
    };
    let (stop, stopped) = watch::channel(false);
    let mut closing = state.closing();
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    // Out of descriptors or a connection reset before
                    // accept: wait a little instead of spinning.
                    tracing::debug!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
            // A drain begun elsewhere (AppState::drain) stops accepting too.
            () = async { let _ = closing.wait_for(|c| *c).await; } => break,
        };
        let addr = ClientAddr::of(peer.ip());
        let Some(slot) = caps.take(addr) else {
            caps.metrics.refused(Refusal::Connections);
            // Reset, not closed: a closed socket would wait for the
            // client's own close in the kernel, past the cap.
            let _ = socket2::SockRef::from(&tcp).set_linger(Some(Duration::ZERO));
            drop(tcp);
            continue;
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
        bound_kernel_buffers(&tcp, &limits);
        let router = router.clone();
        let mut stopped = stopped.clone();
        let proxied = state.trusts_proxy(peer.ip());
        tokio::spawn(async move {
            let slot = Arc::new(slot);
            let tcp = Tcp {
                stream: tcp,
                slot: Arc::clone(&slot),
            };
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                let who = if proxied {
                    forwarded_for(req.headers()).map_or(addr, ClientAddr::of)
                } else {
                    addr
                };
                req.extensions_mut().insert(who);
                req.extensions_mut().insert(Arc::clone(&slot));
                let mut router = router.clone();
                async move { router.call(req).await }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .max_buf_size(64 * 1024);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!("connection from {peer}: {e}");
                    }
                }
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
                }
            }
        });
    }
    // Not ready, and new connections are refused by the kernel from here
    // on.
    state.set_draining();
    drop(listener);
    tracing::info!("stopping: draining tables and connections");
    let _ = stop.send(true);
    state.drain().await;
    Ok(())
}
