//! The WebSocket endpoint `GET /ws/{id}`: one connection, split into a send
//! task (draining the connection's outbox) and a receive loop (size cap,
//! rate limit, parsing, forwarding commands to the table task).
//!
//! The receive loop never touches the game: it only turns text into
//! [`Command`]s, so a bad message is refused here or by the table task
//! without changing anything, and the server keeps serving others.

use crate::protocol::{ClientMsg, ErrorCode, ServerMsg, MAX_MESSAGE};
use crate::table::{Command, Outbox};
use crate::AppState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// Frames above this close the connection outright; between
/// [`MAX_MESSAGE`] and this a message is answered with `bad_message`.
const HARD_LIMIT: usize = 64 * 1024;

/// Bytes read from the socket at a time. Client messages are small (at
/// most [`MAX_MESSAGE`] unless refused), and the WebSocket codec zeroes its
/// whole read buffer before every read, so the 128 KiB default cost more
/// than the rest of a read; a larger frame still reserves its own length.
const READ_BUFFER: usize = 8 * 1024;

/// Upgrades to a WebSocket for table `id`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(state): State<AppState>,
) -> Response {
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| connection(socket, state, id))
}

fn send(out: &Outbox, msg: ServerMsg) {
    let _ = out.try_send(msg.to_text());
}

async fn connection(socket: WebSocket, state: AppState, id: String) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<String>(256);
    let writer = tokio::spawn(async move {
        while let Some(text) = outbox.recv().await {
            // Everything already queued goes out with one flush.
            let mut batch = Some(text);
            while let Some(text) = batch.take().or_else(|| outbox.try_recv().ok()) {
                if sink.feed(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
        let _ = sink.send(Message::Close(None)).await;
    });
    let table = match state.table(&id).await {
        Ok(t) => Some(t),
        Err(crate::error::Error::UnknownTable) => {
            send(
                &out,
                ServerMsg::error(ErrorCode::UnknownTable, format!("no table `{id}`")),
            );
            None
        }
        Err(e) => {
            tracing::error!("table {id}: {e:?}");
            send(
                &out,
                ServerMsg::error(ErrorCode::Internal, "the table cannot be opened"),
            );
            None
        }
    };
    if let Some(table) = table {
        let conn = state.next_conn();
        let mut closing = state.closing();
        let mut greeted = false;
        let mut window = Instant::now();
        let mut count = 0u32;
        let limits = state.limits();
        loop {
            let msg = tokio::select! {
                m = stream.next() => m,
                _ = closing.changed() => break,
            };
            let text = match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Binary(_))) => {
                    send(
                        &out,
                        ServerMsg::error(ErrorCode::BadMessage, "send JSON text messages"),
                    );
                    continue;
                }
                Some(Ok(Message::Text(t))) => t,
            };
            if window.elapsed() >= Duration::from_secs(1) {
                window = Instant::now();
                count = 0;
            }
            count += 1;
            if count > limits.rate_close {
                send(
                    &out,
                    ServerMsg::error(ErrorCode::RateLimited, "too many messages: closing"),
                );
                break;
            }
            if count > limits.rate_limit {
                send(
                    &out,
                    ServerMsg::error(
                        ErrorCode::RateLimited,
                        format!("at most {} messages a second", limits.rate_limit),
                    ),
                );
                continue;
            }
            if text.len() > MAX_MESSAGE {
                send(
                    &out,
                    ServerMsg::error(
                        ErrorCode::BadMessage,
                        format!("message too large (at most {MAX_MESSAGE} bytes)"),
                    ),
                );
                continue;
            }
            let msg: ClientMsg = match serde_json::from_str(text.as_str()) {
                Ok(m) => m,
                Err(e) => {
                    send(
                        &out,
                        ServerMsg::error(ErrorCode::BadMessage, format!("not a message: {e}")),
                    );
                    continue;
                }
            };
            let cmd = match msg {
                ClientMsg::Ping => {
                    send(&out, ServerMsg::Pong);
                    continue;
                }
                ClientMsg::Hello { .. } if greeted => {
                    send(
                        &out,
                        ServerMsg::error(ErrorCode::BadMessage, "hello was already said"),
                    );
                    continue;
                }
                ClientMsg::Hello { token, .. } => {
                    let (reply, answer) = oneshot::channel();
                    let cmd = Command::Hello {
                        conn,
                        token,
                        out: out.clone(),
                        reply,
                    };
                    if table.send(cmd).await.is_err() {
                        break;
                    }
                    greeted = matches!(answer.await, Ok(Ok(_)));
                    continue;
                }
                ClientMsg::Act { .. } if !greeted => {
                    send(
                        &out,
                        ServerMsg::error(ErrorCode::BadMessage, "send hello first"),
                    );
                    continue;
                }
                ClientMsg::Act { seq, action } => Command::Act { conn, seq, action },
            };
            if table.send(cmd).await.is_err() {
                break;
            }
        }
        if greeted {
            let _ = table.send(Command::Leave { conn }).await;
        }
    }
    drop(out);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}
