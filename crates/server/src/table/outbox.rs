//! A connection's outbox, and why the server closes a connection.

use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// Why a connection is being closed by the server: a WebSocket close code
/// and a reason the client can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kick {
    /// The close code (1008 policy, 1013 try again later).
    pub code: u16,
    /// The reason, in words.
    pub reason: &'static str,
}

/// Where a connection's messages go: JSON text, and a way to close it
/// with a reason when it cannot keep up.
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<String>,
    kick: Arc<watch::Sender<Option<Kick>>>,
}

/// The receiving ends of an [`Outbox`]: the messages and the close order.
pub type OutboxRx = (mpsc::Receiver<String>, watch::Receiver<Option<Kick>>);

impl Outbox {
    /// An outbox holding at most `capacity` unsent messages.
    pub fn new(capacity: usize) -> (Outbox, OutboxRx) {
        let (tx, rx) = mpsc::channel(capacity);
        let (kick, kicked) = watch::channel(None);
        (
            Outbox {
                tx,
                kick: Arc::new(kick),
            },
            (rx, kicked),
        )
    }

    /// Queues a message; `false` if the outbox is full or closed.
    pub fn try_send(&self, text: String) -> bool {
        self.tx.try_send(text).is_ok()
    }

    /// A receiver of the close order (the connection's receive loop stops
    /// on it).
    pub fn kicked(&self) -> watch::Receiver<Option<Kick>> {
        self.kick.subscribe()
    }

    /// Orders the connection closed with `kick` (the first order counts).
    pub fn kick(&self, kick: Kick) {
        self.kick.send_if_modified(|k| {
            let first = k.is_none();
            if first {
                *k = Some(kick);
            }
            first
        });
    }
}

/// The close order for the connections of a table another process took
/// over: reconnecting reaches it (1012, service restart).
pub const MOVED: Kick = Kick {
    code: 1012,
    reason: "the table moved to another server process: reconnecting",
};

/// The close order for a connection that does not read its messages.
pub const TOO_SLOW: Kick = Kick {
    code: 1013,
    reason: "too slow to read the table's messages: reconnect",
};
