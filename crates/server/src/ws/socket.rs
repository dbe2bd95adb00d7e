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
/// size: client messages are small (at most [`crate::protocol::MAX_MESSAGE`]
/// unless refused); a larger frame grows the buffer for itself alone.
const BUFFER: usize = 8 * 1024;

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
