//! Connections coming and going: hello (with a seat's token, or to watch),
//! leave, and the presence every other connection is told of.

use super::audience::Sub;
use super::*;
use crate::ids::sha256_hex;
use crate::protocol::ServerMsg;
use game::Seat;
use tokio::sync::oneshot;

impl<G: Roster> Table<G> {
    /// A connection says hello: it subscribes to the table with the seat
    /// its token belongs to, or as a spectator without one, and is
    /// answered with that seat; a token of no seat here is refused.
    pub(super) async fn hello(
        &mut self,
        conn: u64,
        token: Option<String>,
        contribution: Option<[u8; 32]>,
        key: Option<&str>,
        out: Outbox,
        reply: oneshot::Sender<Result<Option<Seat>, ()>>,
    ) {
        let hash = token.as_deref().map(sha256_hex);
        let seat = match hash.map(|h| self.seating.seat_of_token_hash(&h)) {
            // A private table is watched only with its invite key, as it
            // is joined.
            None if !self.setup.access.admits(key) => {
                let _ = out.try_send(
                    ServerMsg::error(Error::Forbidden(
                        "this table is private: watch it through its invite link".into(),
                    ))
                    .to_text(),
                );
                let _ = reply.send(Err(()));
                return;
            }
            None => None,
            Some(Some(seat)) => Some(seat),
            Some(None) => {
                let _ = out.try_send(
                    ServerMsg::error(Error::BadToken(
                        "this token does not belong to a seat of this table".into(),
                    ))
                    .to_text(),
                );
                let _ = reply.send(Err(()));
                return;
            }
        };
        self.audience
            .subscribe(Sub::new(conn, seat, seat.and(token), out));
        let _ = reply.send(Ok(seat));
        self.welcome(conn, seat, contribution).await;
    }

    /// After a hello: a person's contribution to a rematch's deal is
    /// taken, the newcomer gets the whole state, and the others hear only
    /// that a seat is connected now, and spectators nothing (a join must
    /// not send a whole state to everyone).
    async fn welcome(&mut self, conn: u64, seat: Option<Seat>, contribution: Option<[u8; 32]>) {
        let arrived = match (seat, contribution) {
            (Some(seat), Some(c)) => self.arrive(seat, c).await,
            _ => false,
        };
        self.open_quiet_window();
        self.send_state(conn);
        self.presence_changed(Some(conn));
        if arrived {
            // The last contribution of a rematch starts the game.
            self.broadcast();
        }
        self.greet(conn);
    }

    /// What a newcomer gets after its state: the chat so far (if it may
    /// read it) and, at a finished table with a rematch, where to go.
    fn greet(&mut self, conn: u64) {
        let Some(sub) = self.audience.get(conn) else {
            return;
        };
        if sub.seat.is_some() || self.setup.config.spectator_chat {
            if let Some(history) = self.talk.history() {
                self.audience.send_to(conn, history);
            }
        }
        self.tell_rematch(Some(conn));
    }

    /// A connection went away.
    pub(super) fn leave(&mut self, conn: u64) {
        self.audience.unsubscribe(conn);
        self.presence_changed(None);
    }
}
