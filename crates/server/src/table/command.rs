//! What the rest of the server may ask of a table, and the handle it asks through.

use super::outbox::Outbox;
use crate::error::Error;
use game::Seat;
use tokio::sync::{mpsc, oneshot};

/// What the rest of the server may ask of a table.
#[derive(Debug)]
pub enum Command {
    /// A connection says hello (with a seat token, or none to spectate).
    /// The answer is its seat; on a bad token the error has already been
    /// sent to `out`.
    Hello {
        /// The connection id.
        conn: u64,
        /// The seat token, if any.
        token: Option<String>,
        /// The person's contribution to a rematch's fair deal (a rematch's
        /// seats are taken when it is made: each person contributes when
        /// they arrive).
        contribution: Option<[u8; 32]>,
        /// The invite key a spectator of a private table gives.
        key: Option<String>,
        /// Where the connection's messages go.
        out: Outbox,
        /// The seat (`None` = spectator), or `Err` for a bad token.
        reply: oneshot::Sender<Result<Option<Seat>, ()>>,
    },
    /// A connection acts for its seat. Errors and new states go to its
    /// outbox.
    Act {
        /// The connection id.
        conn: u64,
        /// The actions the client has seen.
        seq: u64,
        /// The action text.
        action: String,
    },
    /// A connection's person concedes the game.
    Concede {
        /// The connection id.
        conn: u64,
    },
    /// A connection asks for its whole state again.
    Resync {
        /// The connection id.
        conn: u64,
    },
    /// A connection went away.
    Leave {
        /// The connection id.
        conn: u64,
    },
    /// A person joins a free human seat.
    Join {
        /// The seat asked for, or the first free one.
        seat: Option<Seat>,
        /// The display name, already cleaned.
        name: String,
        /// The invite key (private tables).
        key: Option<String>,
        /// The person's random contribution to a fair deal.
        contribution: Option<[u8; 32]>,
        /// The person's identity (the hash of their key), if they sent one.
        player: Option<String>,
        /// Where they join from ([`crate::social::origin`]).
        origin: String,
        /// The seat, its token, and the table's published commitment (the
        /// player's browser keeps it beside its contribution).
        reply: oneshot::Sender<Result<(Seat, String, String), Error>>,
    },
    /// A person whose identity holds a seat here comes back to it from
    /// another device: the seat gets a new token.
    Reclaim {
        /// The person's identity (the hash of their key).
        player: String,
        /// The seat and its new token.
        reply: oneshot::Sender<Result<(Seat, String), Error>>,
    },
    /// The creator gives a human seat nobody joined to a bot.
    Fill {
        /// The seat.
        seat: Seat,
        /// The creator's token.
        creator: String,
        /// The bot.
        bot: String,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Error>>,
    },
    /// The store ended the table as abandoned.
    Abandoned,
    /// Leave memory now and close every connection so it reconnects
    /// (this process is draining, or lost its lease): another process, or
    /// this one again, takes the table over from the store.
    Relinquish,
    /// A seated player asks for a rematch of this finished table: every
    /// player of it comes along.
    Rematch {
        /// The asker's seat token.
        token: String,
        /// The asker's client address (the new table's owner for the
        /// live-table caps).
        owner: String,
        /// The new table, the asker's seat there and its token.
        reply: oneshot::Sender<Result<Rematched, Error>>,
    },
    /// A seated connection says something in the table's chat.
    Chat {
        /// The connection id.
        conn: u64,
        /// The connection's client address (a spectator's chat budget).
        who: crate::addr::ClientAddr,
        /// What was said: cleaned text or an emote code.
        said: crate::social::Said,
    },
    /// The table's public description (lobby `GET /api/tables/{id}`).
    Info {
        /// The answer.
        reply: oneshot::Sender<crate::protocol::TableInfo>,
    },
}

/// The answer to a rematch request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rematched {
    /// The new table.
    pub id: String,
    /// The asker's seat there (the same as at the old table).
    pub seat: Seat,
    /// The asker's seat token there: their own token of the old table,
    /// which the new table's seat takes over.
    pub token: String,
}

/// The way to reach a table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    pub(super) tx: mpsc::Sender<Command>,
}

impl TableHandle {
    /// Sends a command; `Err` if the task has stopped.
    pub async fn send(&self, cmd: Command) -> Result<(), Error> {
        self.tx
            .send(cmd)
            .await
            .map_err(|_| Error::Internal("table task stopped".to_string()))
    }

    /// Sends a command, or hands it back if the task has stopped (it left
    /// memory), so the caller can load the table again.
    pub(crate) async fn try_deliver(&self, cmd: Command) -> Result<(), Command> {
        self.tx.send(cmd).await.map_err(|e| e.0)
    }

    /// Whether the task has stopped.
    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
