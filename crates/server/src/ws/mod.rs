//! The WebSocket endpoint `GET /ws/{id}`: one connection, split into a send
//! task (draining the connection's outbox, or closing with a reason when
//! told to) and a receive loop (hello and idle timeouts, size cap, a rate
//! limit that counts every frame, parsing, forwarding commands to the
//! table task).
//!
//! The receive loop never touches the game: it only turns text into
//! [`Command`]s, so a bad message is refused here or by the table task
//! without changing anything, and the server keeps serving others. Every
//! way the server ends a connection (too slow a reader, a cap reached, a
//! flood of frames alike) sends a close frame with a code and a reason,
//! and a connection whose client takes neither that frame nor the time to
//! answer it is reset, so no socket outlives the connection that gave it
//! up.
//!
//! The WebSocket itself, compressed when the client offers it, is in
//! `ws/socket.rs`.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::limits::Limits;
use crate::net::Slot;
use crate::protocol::{ClientMsg, ServerMsg, MAX_MESSAGE};
use crate::state::AppState;
use crate::table::{Command, Kick, Outbox, TOO_SLOW};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use futures_util::{SinkExt, StreamExt};
pub use socket::options;
use socket::{WebSocket, HARD_LIMIT};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::time::Instant;
use yawc::close::CloseCode;
use yawc::{Frame, IncomingUpgrade, OpCode, WebSocketError};

mod socket;

/// Closes: the client said nothing in time, sent too much, or the server
/// is stopping.
const NO_HELLO: Kick = Kick {
    code: 1008,
    reason: "no hello in time",
};
const IDLE: Kick = Kick {
    code: 1001,
    reason: "idle for too long",
};
const FLOOD: Kick = Kick {
    code: 1008,
    reason: "too many messages",
};
/// 1012 "service restart": the client should reconnect, to this server
/// when it is back or to another one.
const STOPPING: Kick = Kick {
    code: 1012,
    reason: "server restarting, reconnect",
};
const GONE: Kick = Kick {
    code: 1011,
    reason: "the table is not available",
};
/// 1009 "message too big": a message over [`HARD_LIMIT`], before or
/// after decompression.
const TOO_BIG: Kick = Kick {
    code: 1009,
    reason: "message too big (at most 64 KiB)",
};
/// 1007 "invalid frame payload data": text that is not UTF-8.
const NOT_UTF8: Kick = Kick {
    code: 1007,
    reason: "text messages are UTF-8",
};
/// 1002 "protocol error": any other frame the WebSocket codec refuses.
const BAD_FRAME: Kick = Kick {
    code: 1002,
    reason: "not a valid WebSocket frame",
};
/// A compressed message that does not inflate: the codec closes with 1011
/// itself (this is what the log says of it; nothing more is sent).
const BAD_DEFLATE: Kick = Kick {
    code: 1011,
    reason: "a compressed message that does not inflate",
};

/// Why a read that failed ends the connection: the close the client is
/// owed (for a frame the codec refused it has sent its own close, with
/// this code and its words, and this one is not sent again: see
/// [`WebSocket`]), or `None` when the connection is gone already.
fn read_failure(e: &WebSocketError) -> Option<Kick> {
    match e {
        WebSocketError::FrameTooLarge => Some(TOO_BIG),
        WebSocketError::InvalidUTF8 => Some(NOT_UTF8),
        WebSocketError::IoError(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            Some(BAD_DEFLATE)
        }
        e if e.is_protocol_error() => Some(BAD_FRAME),
        _ => None,
    }
}

/// Upgrades to a WebSocket for table `id`. The connection's slot (when it
/// came through [`crate::run`]) is held by its socket until that closes;
/// the gauge of open WebSockets drops when the connection has ended, its
/// writer stopped and its socket closed (or reset).
pub async fn upgrade(
    Path(id): Path<String>,
    State(state): State<AppState>,
    who: ClientAddr,
    slot: Option<Extension<Arc<Slot>>>,
    request: axum::extract::Request,
) -> Response {
    use axum::extract::FromRequestParts as _;
    let slot = slot.map(|Extension(s)| s);
    // The client's permessage-deflate offer, checked here (the codec
    // would answer some invalid ones with a parameter and no value):
    // what reaches it is one valid offer or none.
    let (mut parts, _) = request.into_parts();
    match socket::deflate_offer(&parts.headers) {
        Some(offer) => match axum::http::HeaderValue::from_str(&offer) {
            Ok(v) => {
                parts
                    .headers
                    .insert(axum::http::header::SEC_WEBSOCKET_EXTENSIONS, v);
            }
            Err(_) => {
                parts
                    .headers
                    .remove(axum::http::header::SEC_WEBSOCKET_EXTENSIONS);
            }
        },
        None => {
            parts
                .headers
                .remove(axum::http::header::SEC_WEBSOCKET_EXTENSIONS);
        }
    }
    let Ok(ws) = IncomingUpgrade::from_request_parts(&mut parts, &()).await else {
        return (StatusCode::BAD_REQUEST, "not a WebSocket upgrade").into_response();
    };
    let Ok((response, upgraded)) = ws.upgrade(options(state.limits().ws_compression)) else {
        return (StatusCode::BAD_REQUEST, "not a WebSocket upgrade").into_response();
    };
    let open = state.metrics().websockets.hold();
    tokio::spawn(async move {
        if let Ok(socket) = upgraded.await {
            connection(WebSocket::new(socket), state, id, who, slot.as_deref()).await;
        }
        drop(slot);
        drop(open);
    });
    response.into_response()
}

fn send(out: &Outbox, msg: ServerMsg) {
    let _ = out.try_send(msg.to_text());
}

async fn connection(
    socket: WebSocket,
    state: AppState,
    id: String,
    who: ClientAddr,
    slot: Option<&Slot>,
) {
    let (sink, mut stream) = socket.split();
    let (out, outbox_rx) = state.outbox(who);
    let mut writer = tokio::spawn(write(sink, outbox_rx, out.clone()));
    match state.table(&id, who).await {
        Ok(_) => receive(&mut stream, &state, &id, who, &out).await,
        Err(e) => {
            let reason = match &e {
                Error::RateLimited { .. } => "too many tables opened: try again later",
                Error::Elsewhere(_) => crate::table::MOVED.reason,
                Error::UnknownTable => GONE.reason,
                _ => {
                    tracing::error!("table {id}: {e:?}");
                    GONE.reason
                }
            };
            let code = e.close_code();
            send(&out, ServerMsg::error(e));
            out.kick(Kick { code, reason });
        }
    }
    // Ends the writer: a close frame with the reason, or a plain one.
    out.kick(Kick {
        code: 1000,
        reason: "",
    });
    let kick = *out.kicked().borrow();
    drop(out);
    if let Some(k) = kick.filter(|k| k.code != 1000 && *k != STOPPING) {
        tracing::info!(table = %id, client = %who.0, code = k.code, "closing: {}", k.reason);
    }
    // The writer gives up on its goodbye by itself; if it is still stuck
    // after that, it is aborted, and with it goes its half of the socket.
    let said_goodbye =
        match tokio::time::timeout(GOODBYE + Duration::from_secs(1), &mut writer).await {
            Ok(Ok(sent)) => sent,
            _ => {
                writer.abort();
                let _ = writer.await;
                false
            }
        };
    // The closing handshake: what the client sends meanwhile is read and
    // dropped until its own close or EOF (closing with unread data would
    // make the kernel answer with a reset, and the client could lose the
    // close frame and its reason before reading them).
    let answered = said_goodbye
        && tokio::time::timeout(CLOSE_WAIT, async {
            loop {
                match stream.next().await {
                    None | Some(Err(_)) => break,
                    Some(Ok(f)) if f.opcode() == OpCode::Close => break,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await
        .is_ok();
    // A client that took neither the close frame nor the time to answer
    // it has its socket reset: what the kernel still holds for it is
    // dropped now, and the connection's slot with it.
    if !answered {
        tracing::debug!(table = %id, client = %who.0, "no closing handshake: reset");
        if let Some(slot) = slot {
            slot.reset_on_close();
        }
    }
}

/// How long the writer tries to send its goodbye (what is queued, then
/// the close frame) to a client that does not read.
const GOODBYE: Duration = Duration::from_secs(3);

/// How long a send may wait for a client that takes no byte before the
/// connection counts as too slow (its messages waiting or not).
const STALL: Duration = Duration::from_secs(10);

/// How long a closed connection waits for the client's own close (or EOF)
/// before its socket is reset.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// The send task of a connection: drains its outbox into the socket
/// until the close order, then says goodbye. Every send races the close
/// order, so a peer that stopped reading (a send blocked on a full kernel
/// buffer) cannot hold the task, and the socket, past it; a send that
/// makes no progress for [`STALL`] gives that order itself (too slow).
/// `true` if the close frame reached the kernel.
async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Frame>,
    mut outbox: crate::table::OutboxRx,
    out: Outbox,
) -> bool {
    let mut kicked = outbox.kicked();
    let ordered = async {
        let _ = kicked.wait_for(Option::is_some).await;
    };
    let pump = async {
        // The messages fed and not yet flushed: their bytes count against
        // the outbox's budgets until they are in the kernel.
        let mut sent = Vec::new();
        while let Some(first) = outbox.recv().await {
            // Everything already queued goes out with one flush. A client
            // that takes no byte for STALL is too slow, however few
            // messages wait for it.
            let mut batch = Some(first);
            while let Some(mut taken) = batch.take().or_else(|| outbox.try_recv()) {
                let text = std::mem::take(&mut taken.text);
                sent.push(taken);
                match tokio::time::timeout(STALL, sink.feed(Frame::text(text))).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => return,
                    Err(_) => return out.kick(TOO_SLOW),
                }
            }
            match tokio::time::timeout(STALL, sink.flush()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return,
                Err(_) => return out.kick(TOO_SLOW),
            }
            sent.clear();
        }
    };
    tokio::select! {
        // A close order stops the sending at once, even mid-send.
        biased;
        () = ordered => {}
        () = pump => {}
    }
    let kick = *kicked.borrow();
    let frame = match kick {
        Some(k) => Frame::close(CloseCode::from(k.code), k.reason),
        None => Frame::close(CloseCode::Normal, ""),
    };
    let goodbye = async {
        // What is queued (an error that explains the close) goes first,
        // unless the client is too slow to take it: then only the reason
        // goes, and it reconnects for the whole state.
        if kick != Some(TOO_SLOW) {
            while let Some(mut taken) = outbox.try_recv() {
                let text = std::mem::take(&mut taken.text);
                if sink.feed(Frame::text(text)).await.is_err() {
                    break;
                }
            }
        }
        if sink.send(frame).await.is_ok() {
            // This side is done (TCP half-closed): the codec's answer to
            // the client's own close would be a second close frame.
            let _ = sink.close().await;
            return true;
        }
        // The client closed first: nothing more may be sent, but its close
        // is owed an answer, which the codec queued; closing our end sends
        // it.
        sink.close().await.is_ok()
    };
    tokio::time::timeout(GOODBYE, goodbye)
        .await
        .unwrap_or(false)
}

/// The connection has ended: the receive loop stops reading.
struct Closed;

/// The receive side of one connection to a table: who it is, whether it
/// has said hello, and the frames it sent this second.
struct Reader<'a> {
    state: &'a AppState,
    id: &'a str,
    who: ClientAddr,
    out: &'a Outbox,
    conn: u64,
    limits: Limits,
    greeted: bool,
    hello_by: Instant,
    last_heard: Instant,
    /// The start of the current one-second rate window, and the frames
    /// counted in it.
    window: Instant,
    count: u32,
    /// A fragmented message under way: its kind and what came so far.
    partial: Option<(OpCode, Vec<u8>)>,
    /// This connection's `resync` budget, made at its first.
    resyncs: Option<crate::quota::TokenBucket>,
}

/// The receive loop of a connection to table `id`.
async fn receive(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    state: &AppState,
    id: &str,
    who: ClientAddr,
    out: &Outbox,
) {
    let mut reader = Reader::new(state, id, who, out);
    let mut closing = state.closing();
    // The table may order this connection closed (too slow): then it
    // stops reading too, and its slot is freed.
    let mut kicked = out.kicked();
    while let Some(frame) = reader.next_frame(stream, &mut closing, &mut kicked).await {
        if reader.take(frame).await.is_err() {
            break;
        }
    }
    // A stopping server's tables are stopping too: telling one would load
    // it again.
    if reader.greeted && !*closing.borrow() {
        let _ = state
            .send(id, who, Command::Leave { conn: reader.conn })
            .await;
    }
}

impl<'a> Reader<'a> {
    fn new(state: &'a AppState, id: &'a str, who: ClientAddr, out: &'a Outbox) -> Self {
        let limits = state.limits();
        let now = Instant::now();
        Reader {
            state,
            id,
            who,
            out,
            conn: state.next_conn(),
            limits,
            greeted: false,
            hello_by: now + limits.hello_timeout,
            last_heard: now,
            window: now,
            count: 0,
            partial: None,
            resyncs: None,
        }
    }

    /// The next frame from the client, or `None` once the connection is
    /// over: the client closed or failed, said nothing in time, the server
    /// is stopping, or the table ordered the connection closed.
    async fn next_frame(
        &mut self,
        stream: &mut futures_util::stream::SplitStream<WebSocket>,
        closing: &mut tokio::sync::watch::Receiver<bool>,
        kicked: &mut tokio::sync::watch::Receiver<Option<Kick>>,
    ) -> Option<Frame> {
        let deadline = if self.greeted {
            self.last_heard + self.limits.idle_timeout
        } else {
            self.hello_by
        };
        let msg = tokio::select! {
            m = stream.next() => m,
            () = tokio::time::sleep_until(deadline) => {
                self.out.kick(if self.greeted { IDLE } else { NO_HELLO });
                return None;
            }
            _ = closing.changed() => {
                self.out.kick(STOPPING);
                return None;
            }
            _ = kicked.changed() => return None,
        };
        match msg {
            Some(Err(e)) => {
                if let Some(kick) = read_failure(&e) {
                    self.out.kick(kick);
                }
                None
            }
            None => None,
            Some(Ok(f)) if f.opcode() == OpCode::Close => None,
            Some(Ok(frame)) => {
                self.last_heard = Instant::now();
                Some(frame)
            }
        }
    }

    /// Takes one frame: counts it, reads it as a message and passes the
    /// command it makes to the table. A refused frame is answered and
    /// dropped; `Err` ends the connection.
    async fn take(&mut self, frame: Frame) -> Result<(), Closed> {
        if !self.within_rate()? {
            return Ok(());
        }
        let Some(text) = self.text(frame)? else {
            return Ok(());
        };
        let Some(msg) = self.parse(&text) else {
            return Ok(());
        };
        let Some(cmd) = self.command(msg).await? else {
            return Ok(());
        };
        self.forward(cmd).await
    }

    /// Counts a frame against the rate limit: every frame counts, whatever
    /// its kind, so pings cannot flood either. `false` drops the frame
    /// (over the limit, told once a second); `Err` closes a client far
    /// over it.
    fn within_rate(&mut self) -> Result<bool, Closed> {
        if self.window.elapsed() >= Duration::from_secs(1) {
            self.window = Instant::now();
            self.count = 0;
        }
        self.count = self.count.saturating_add(1);
        let limits = &self.limits;
        if self.count > limits.rate_close {
            send(
                self.out,
                ServerMsg::error(Error::RateLimited {
                    retry_after: 1,
                    message: "too many messages: closing".into(),
                }),
            );
            self.out.kick(FLOOD);
            return Err(Closed);
        }
        if self.count > limits.rate_limit {
            if self.count == limits.rate_limit + 1 {
                send(
                    self.out,
                    ServerMsg::error(Error::RateLimited {
                        retry_after: 1,
                        message: format!("at most {} messages a second", limits.rate_limit),
                    }),
                );
            }
            return Ok(false);
        }
        Ok(true)
    }

    /// The text of a message once it is whole (its fragments put together,
    /// at most [`HARD_LIMIT`] bytes in all), if it is a text message; a
    /// binary one is refused, pings and pongs are left to the codec. Text
    /// that is not UTF-8, a fragment out of order and a message over the
    /// cap close the connection.
    fn text(&mut self, frame: Frame) -> Result<Option<String>, Closed> {
        let fin = frame.is_fin();
        let (kind, payload) = match (frame.opcode(), self.partial.take()) {
            (OpCode::Ping | OpCode::Pong, partial) => {
                self.partial = partial;
                return Ok(None);
            }
            (OpCode::Close, _) => return Err(Closed),
            (kind @ (OpCode::Text | OpCode::Binary), None) => (kind, frame.into_payload().to_vec()),
            (OpCode::Continuation, Some((kind, mut so_far))) => {
                so_far.extend_from_slice(frame.payload());
                (kind, so_far)
            }
            _ => {
                self.out.kick(BAD_FRAME);
                return Err(Closed);
            }
        };
        if payload.len() > HARD_LIMIT {
            self.out.kick(TOO_BIG);
            return Err(Closed);
        }
        if !fin {
            self.partial = Some((kind, payload));
            return Ok(None);
        }
        if kind == OpCode::Binary {
            send(
                self.out,
                ServerMsg::error(Error::BadMessage("send JSON text messages".into())),
            );
            return Ok(None);
        }
        match String::from_utf8(payload) {
            Ok(text) => Ok(Some(text)),
            Err(_) => {
                self.out.kick(NOT_UTF8);
                Err(Closed)
            }
        }
    }

    /// The client message in a text, or `None` (answered with
    /// `bad_message`) if it is too large or not a message.
    fn parse(&self, text: &str) -> Option<ClientMsg> {
        if text.len() > MAX_MESSAGE {
            send(
                self.out,
                ServerMsg::error(Error::BadMessage(format!(
                    "message too large (at most {MAX_MESSAGE} bytes)"
                ))),
            );
            return None;
        }
        match serde_json::from_str(text) {
            Ok(m) => Some(m),
            Err(e) => {
                send(
                    self.out,
                    ServerMsg::error(Error::BadMessage(format!("not a message: {e}"))),
                );
                None
            }
        }
    }

    /// The table command a client message makes, or `None` when it makes
    /// none: a ping (answered here), a hello (passed on and awaited
    /// here), or a message refused here.
    async fn command(&mut self, msg: ClientMsg) -> Result<Option<Command>, Closed> {
        let conn = self.conn;
        let cmd = match msg {
            ClientMsg::Ping => {
                send(self.out, ServerMsg::Pong);
                return Ok(None);
            }
            ClientMsg::Hello { .. } if self.greeted => {
                send(
                    self.out,
                    ServerMsg::error(Error::BadMessage("hello was already said".into())),
                );
                return Ok(None);
            }
            ClientMsg::Hello {
                token,
                contribution,
                key,
                ..
            } => {
                self.hello(token, contribution, key).await?;
                return Ok(None);
            }
            ClientMsg::Act { .. }
            | ClientMsg::Resync
            | ClientMsg::Concede
            | ClientMsg::Chat { .. }
                if !self.greeted =>
            {
                send(
                    self.out,
                    ServerMsg::error(Error::BadMessage("send hello first".into())),
                );
                return Ok(None);
            }
            ClientMsg::Act { seq, action } => Command::Act { conn, seq, action },
            ClientMsg::Resync => {
                if !self.may_resync() {
                    return Ok(None);
                }
                Command::Resync { conn }
            }
            ClientMsg::Concede => Command::Concede { conn },
            ClientMsg::Chat { text, emote } => return Ok(self.chat(text, emote)),
        };
        Ok(Some(cmd))
    }

    /// Says hello to the table for the client and waits for its answer:
    /// the connection counts as greeted once the table took it.
    async fn hello(
        &mut self,
        token: Option<String>,
        contribution: Option<String>,
        key: Option<String>,
    ) -> Result<(), Closed> {
        let contribution = match contribution
            .as_deref()
            .map(registry::fair::parse_contribution)
        {
            None => None,
            Some(Ok(c)) => Some(c),
            Some(Err(e)) => {
                send(self.out, ServerMsg::error(Error::BadInput(e.to_string())));
                None
            }
        };
        let (reply, answer) = oneshot::channel();
        self.forward(Command::Hello {
            conn: self.conn,
            token,
            contribution,
            key,
            out: self.out.clone(),
            reply,
        })
        .await?;
        self.greeted = matches!(answer.await, Ok(Ok(_)));
        Ok(())
    }

    /// A chat command, or `None` when the address is over its chat budget
    /// or the message is not one to say (both answered here). Chat has
    /// budgets of its own: one per address here, at every table together,
    /// and one per seat at the table.
    fn chat(&self, text: Option<String>, emote: Option<String>) -> Option<Command> {
        if let Err(wait) = self.state.take_quota(crate::quota::Kind::Chat, self.who) {
            send(
                self.out,
                ServerMsg::error(Error::RateLimited {
                    retry_after: wait.as_secs() + 1,
                    message: format!(
                        "at most {} chat messages at once from one address, then one every {} s",
                        crate::quota::CHAT_IP_BURST,
                        crate::quota::CHAT_IP_EVERY_S
                    ),
                }),
            );
            return None;
        }
        match crate::social::Said::parse(text.as_deref(), emote.as_deref()) {
            Ok(said) => Some(Command::Chat {
                conn: self.conn,
                who: self.who,
                said,
            }),
            Err(e) => {
                send(self.out, ServerMsg::error(e));
                None
            }
        }
    }

    /// Whether a `resync` may build a whole state now: within this
    /// connection's budget and its address's (a state is the largest
    /// message a table makes); a refusal is answered here.
    fn may_resync(&mut self) -> bool {
        let (burst, every) = (self.limits.resync_burst, self.limits.resync_every_s);
        let mine = self
            .resyncs
            .get_or_insert_with(|| crate::quota::TokenBucket::new(burst, every))
            .take()
            .map_err(|wait| {
                self.state.metrics().refused(crate::metrics::Refusal::Resync);
                (
                    wait,
                    format!(
                        "at most {burst} resyncs at once on one connection, then one every {every} s"
                    ),
                )
            });
        let allowed = mine.and_then(|()| {
            self.state
                .take_quota(crate::quota::Kind::Resync, self.who)
                .map_err(|wait| {
                    let burst = self.limits.resync_burst_per_ip;
                    (
                        wait,
                        format!(
                            "at most {burst} resyncs at once from one address, then one a second"
                        ),
                    )
                })
        });
        match allowed {
            Ok(()) => true,
            Err((wait, message)) => {
                send(
                    self.out,
                    ServerMsg::error(Error::RateLimited {
                        retry_after: wait.as_secs() + 1,
                        message,
                    }),
                );
                false
            }
        }
    }

    /// Passes a command to the table; a table that is gone closes the
    /// connection.
    async fn forward(&self, cmd: Command) -> Result<(), Closed> {
        if self.state.send(self.id, self.who, cmd).await.is_err() {
            self.out.kick(GONE);
            return Err(Closed);
        }
        Ok(())
    }
}
