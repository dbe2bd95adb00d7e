//! The server's WebSocket after the upgrade (yawc's rather than axum's,
//! because it negotiates permessage-deflate, RFC 7692, with a client that
//! offers it: a game's messages repeat one another, so they shrink to
//! between a sixth and two thirds; docs/server.md, "WebSocket
//! compression"),
//! and the options it is made with. Its limits bound what a client sends
//! before decompression and after it alike.

use crate::limits::WsCompression;
use futures_util::SinkExt;
use yawc::{DeflatePool, Frame, HttpStream, OpCode, Options, WebSocketError};

/// Messages above this close the connection outright; between
/// [`crate::protocol::MAX_MESSAGE`] and this a message is answered with
/// `bad_message`.
pub(super) const HARD_LIMIT: usize = 64 * 1024;

/// Bytes read from the socket at a time, and the write buffer's starting
/// size, per connection. Most connections are idle most of the time and a
/// server holds thousands, so the buffers are small (yawc's 8 KiB each
/// cost about 8 KiB more per connection than the server had before yawc:
/// +53 MB at 1,500 tables, `scripts/serve-memory.py`): client messages are
/// small (at most [`crate::protocol::MAX_MESSAGE`] unless refused), an
/// update is a few hundred bytes, and a larger frame (a whole state) grows
/// the buffer for itself alone, which returns to this size once it is
/// written out.
const BUFFER: usize = 2 * 1024;

/// Idle deflate states kept for reuse by connections that compress each
/// message alone: about the messages compressed at one moment, not the
/// connections.
const POOL: usize = 16;

/// Messages shorter than this go uncompressed (a pong, a small error):
/// deflate would save nothing on them.
const COMPRESS_FROM: usize = 64;

/// The WebSocket options for `compression`: the size limits, the buffers,
/// and permessage-deflate as chosen. (A client that offers
/// `client_max_window_bits`, as browsers do, is given the smallest, a
/// 512-byte window: yawc's choice when the server states none.) A client's own messages are always
/// compressed each alone (`client_no_context_takeover`): they are small,
/// and so the server keeps no inflate state per connection.
pub fn options(compression: WsCompression) -> Options {
    static SHARED: std::sync::OnceLock<DeflatePool> = std::sync::OnceLock::new();
    let pool = || SHARED.get_or_init(|| DeflatePool::new(POOL)).clone();
    // The limits are exclusive: HARD_LIMIT itself is still taken.
    // (Text is checked for UTF-8 by the reader, once a message is whole.)
    let base = Options::default()
        .with_limits(HARD_LIMIT + 1, HARD_LIMIT + 1)
        .with_read_buffer_capacity(BUFFER)
        .with_write_buffer_capacity(BUFFER);
    let deflate = || {
        base.clone()
            .with_low_latency_compression()
            .client_no_context_takeover()
            .with_compression_threshold(COMPRESS_FROM)
            .with_deflate_pool(pool())
    };
    match compression {
        WsCompression::Off => base,
        WsCompression::Message => deflate().server_no_context_takeover(),
        WsCompression::Context => deflate(),
    }
}

/// The client's permessage-deflate offer as the server takes it (RFC 7692,
/// section 7): the first offer whose every parameter is known, given once
/// and valid (window bits 8 to 15, no leading zero, a value where one is
/// required) and which the server can honour, written out canonically;
/// `None` declines the extension. A `server_max_window_bits` of 8 cannot
/// be honoured (zlib's raw deflate has no 256-byte window), and a
/// `client_max_window_bits` of 8 is left out of the answer, which the RFC
/// allows: the client then compresses with its default window, which the
/// server inflates. So the codec never answers a parameter without its
/// value, nor a window the client did not allow.
pub(super) fn deflate_offer(headers: &axum::http::HeaderMap) -> Option<String> {
    let offers = headers
        .get_all(axum::http::header::SEC_WEBSOCKET_EXTENSIONS)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    offers.filter_map(canonical_offer).next()
}

/// One offer (`permessage-deflate; a; b=9`) checked and written out, or
/// `None` if it must be declined.
fn canonical_offer(offer: &str) -> Option<String> {
    let mut parts = offer.split(';').map(str::trim);
    if !parts.next()?.eq_ignore_ascii_case("permessage-deflate") {
        return None;
    }
    let bits = |v: Option<&str>| -> Option<Option<u8>> {
        let Some(v) = v else {
            return Some(None);
        };
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        let n: u8 = v.parse().ok()?;
        (v.len() <= 2 && !v.starts_with('0') && (8..=15).contains(&n)).then_some(Some(n))
    };
    let mut seen: Vec<String> = Vec::new();
    let (mut server_nct, mut client_nct) = (false, false);
    let (mut server_bits, mut client_bits): (Option<u8>, Option<Option<u8>>) = (None, None);
    for p in parts {
        let (name, value) = match p.split_once('=') {
            Some((n, v)) => (n.trim().to_ascii_lowercase(), Some(v)),
            None => (p.to_ascii_lowercase(), None),
        };
        if seen.contains(&name) {
            return None;
        }
        seen.push(name.clone());
        match name.as_str() {
            "server_no_context_takeover" if value.is_none() => server_nct = true,
            "client_no_context_takeover" if value.is_none() => client_nct = true,
            "server_max_window_bits" => server_bits = Some(bits(value)??),
            "client_max_window_bits" => client_bits = Some(bits(value)?),
            _ => return None,
        }
    }
    if server_bits == Some(8) {
        return None;
    }
    let mut out = String::from("permessage-deflate");
    if server_nct {
        out.push_str("; server_no_context_takeover");
    }
    if client_nct {
        out.push_str("; client_no_context_takeover");
    }
    if let Some(n) = server_bits {
        out.push_str(&format!("; server_max_window_bits={n}"));
    }
    match client_bits {
        Some(Some(8)) | None => {}
        Some(Some(n)) => out.push_str(&format!("; client_max_window_bits={n}")),
        Some(None) => out.push_str("; client_max_window_bits"),
    }
    Some(out)
}

/// A server's WebSocket after the upgrade: frames as they come (a
/// fragmented message is put together by the reader in `ws/mod.rs`, which counts every
/// fragment against the rate limit), and the error that ends them.
///
/// It also keeps the closing handshake to one close frame each way: the
/// codec answers a client's close, and closes on a frame it refuses, by
/// itself; nothing the server sends after that goes out.
pub(super) struct WebSocket {
    inner: yawc::streaming::Streaming<HttpStream>,
    /// A close frame has gone (or is queued) to the client.
    closed: bool,
}

impl WebSocket {
    pub(super) fn new(socket: yawc::WebSocket<HttpStream>) -> WebSocket {
        WebSocket {
            inner: socket.into_streaming(),
            closed: false,
        }
    }
}

impl futures_util::Stream for WebSocket {
    type Item = Result<Frame, WebSocketError>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let next = std::task::ready!(self.inner.poll_next_frame(cx));
        match &next {
            // The codec answered the client's close.
            Ok(f) if f.opcode() == OpCode::Close => self.closed = true,
            // A message that does not inflate (corrupt deflate data, or a
            // compressed continuation): the codec has sent its close
            // (1011) already.
            Err(WebSocketError::IoError(e)) if e.kind() == std::io::ErrorKind::InvalidInput => {
                self.closed = true;
            }
            Ok(_) | Err(WebSocketError::ConnectionClosed | WebSocketError::IoError(_)) => {}
            // The codec refused a frame and sent its close, with the code.
            Err(_) => self.closed = true,
        }
        std::task::Poll::Ready(Some(next))
    }
}

impl futures_util::Sink<Frame> for WebSocket {
    type Error = WebSocketError;

    fn poll_ready(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), WebSocketError>> {
        self.inner.poll_ready_unpin(cx)
    }

    /// Nothing follows a close frame (RFC 6455, 5.5.1): what is sent after
    /// one is dropped.
    fn start_send(mut self: std::pin::Pin<&mut Self>, frame: Frame) -> Result<(), WebSocketError> {
        if self.closed {
            return Ok(());
        }
        self.closed = frame.opcode() == OpCode::Close;
        self.inner.start_send_unpin(frame)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), WebSocketError>> {
        self.inner.poll_flush_unpin(cx)
    }

    fn poll_close(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), WebSocketError>> {
        self.inner.poll_close_unpin(cx)
    }
}
