//! The table's audience: the connections subscribed to it, each with its
//! seat (or none, a spectator) and its outbox, and what the last broadcast
//! sent them all.
//!
//! Why a part of its own: every message of the table leaves through here,
//! so the rule that no connection is ever forgotten silently (one too slow
//! to take its messages is told why and closed, and its client reconnects)
//! is kept in one place, as is the revision count each connection checks
//! to know it missed nothing.

use super::outbox::{Kick, Kind, Outbox, TOO_SLOW};
use crate::metrics::{Metrics, Refusal};
use crate::protocol::{SeatStatus, ServerMsg};
use game::Seat;
use std::sync::Arc;

/// One connection at the table.
pub(super) struct Sub {
    pub(super) conn: u64,
    pub(super) seat: Option<Seat>,
    /// The seat token this connection said hello with (kept in memory
    /// only: a rematch hands each seat its own).
    pub(super) token: Option<String>,
    pub(super) out: Outbox,
    /// Raw log entries already looked at.
    pub(super) log_pos: usize,
    /// Visible events already sent.
    pub(super) log_sent: usize,
    /// The JSON text of the view it was last sent: the next update is a
    /// patch from it.
    pub(super) view: String,
}

impl Sub {
    /// A connection that has been sent nothing yet.
    pub(super) fn new(conn: u64, seat: Option<Seat>, token: Option<String>, out: Outbox) -> Sub {
        Sub {
            conn,
            seat,
            token,
            out,
            log_pos: 0,
            log_sent: 0,
            view: String::new(),
        }
    }
}

/// See the module docs.
pub(super) struct Audience {
    subs: Vec<Sub>,
    /// The revision of the last message sent to every connection: each
    /// broadcast is one more (connections check they missed none).
    rev: u64,
    /// The seats as the last broadcast sent them: an update carries them
    /// again only when they changed.
    sent_seats: Vec<SeatStatus>,
    /// The public view's JSON as the last broadcast made it.
    sent_public: String,
    metrics: Arc<Metrics>,
}

impl Audience {
    pub(super) fn new(metrics: Arc<Metrics>) -> Audience {
        Audience {
            subs: Vec::new(),
            rev: 0,
            sent_seats: Vec::new(),
            sent_public: String::new(),
            metrics,
        }
    }

    /// Subscribes a connection (in place of an earlier one of the same id).
    pub(super) fn subscribe(&mut self, sub: Sub) {
        self.subs.retain(|s| s.conn != sub.conn);
        self.subs.push(sub);
    }

    /// A connection went away.
    pub(super) fn unsubscribe(&mut self, conn: u64) {
        self.subs.retain(|s| s.conn != conn);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.subs.is_empty()
    }

    /// The connection `conn`, if it is subscribed.
    pub(super) fn get(&self, conn: u64) -> Option<&Sub> {
        self.subs.iter().find(|s| s.conn == conn)
    }

    /// Every connection.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Sub> {
        self.subs.iter()
    }

    /// Whether a connection is subscribed for `seat`.
    pub(super) fn connected(&self, seat: Seat) -> bool {
        self.subs.iter().any(|s| s.seat == Some(seat))
    }

    /// The current revision.
    pub(super) fn rev(&self) -> u64 {
        self.rev
    }

    /// Starts a broadcast: the next revision, whether the seats changed
    /// since the last one (then they are kept as sent), and the public
    /// view's JSON the last one made (to diff against; hand the new one
    /// back with [`Audience::sent_public`]).
    pub(super) fn next_broadcast(&mut self, seats: &[SeatStatus]) -> (u64, bool, String) {
        self.rev += 1;
        let changed = seats != self.sent_seats;
        if changed {
            self.sent_seats = seats.to_vec();
        }
        (self.rev, changed, std::mem::take(&mut self.sent_public))
    }

    /// The public view's JSON as this broadcast made it.
    pub(super) fn sent_public(&mut self, public: String) {
        self.sent_public = public;
    }

    /// Makes each connection's message in turn (with the connection to
    /// update as it goes); nothing is sent.
    pub(super) fn each_mut<T>(&mut self, mut make: impl FnMut(&mut Sub) -> T) -> Vec<T> {
        self.subs.iter_mut().map(&mut make).collect()
    }

    /// Makes `conn`'s message with the connection to update (a whole
    /// state), and sends it as `kind`.
    pub(super) fn send_made(
        &mut self,
        conn: u64,
        kind: Kind,
        make: impl FnOnce(&mut Sub) -> String,
    ) {
        if let Some(i) = self.subs.iter().position(|s| s.conn == conn) {
            let text = make(&mut self.subs[i]);
            if !self.subs[i].out.send(kind, text) {
                let sub = self.subs.swap_remove(i);
                self.too_slow(&sub);
            }
        }
    }

    /// Sends `conn` one message (never dropped from its outbox by a later
    /// state); closes it if it is too slow to take it.
    pub(super) fn send_to(&mut self, conn: u64, msg: ServerMsg) {
        if let Some(sub) = self.subs.iter().find(|s| s.conn == conn) {
            if !sub.out.try_send(msg.to_text()) {
                self.too_slow(sub);
            }
        }
    }

    /// Sends each connection its message (`None`: nothing) as `kind` (an
    /// update is dropped from a connection's outbox by a state queued
    /// after it); closes those too slow to take it and forgets them, and
    /// those already gone. Whether any was forgotten (then the seats'
    /// presence may have changed).
    #[must_use]
    pub(super) fn send_all_as(
        &mut self,
        kind: Kind,
        mut message: impl FnMut(&Sub) -> Option<String>,
    ) -> bool {
        let before = self.subs.len();
        let metrics = &self.metrics;
        self.subs.retain(|sub| match message(sub) {
            None => true,
            Some(text) => {
                let ok = sub.out.send(kind, text);
                if !ok {
                    // Never forget a connection silently: it is told why
                    // and closed, and its client reconnects.
                    sub.out.kick(TOO_SLOW);
                    metrics.refused(Refusal::SlowReader);
                }
                ok
            }
        });
        self.subs.len() != before
    }

    /// Closes every connection with `kick`.
    pub(super) fn kick_all(&self, kick: Kick) {
        for sub in &self.subs {
            sub.out.kick(kick);
        }
    }

    fn too_slow(&self, sub: &Sub) {
        sub.out.kick(TOO_SLOW);
        self.metrics.refused(Refusal::SlowReader);
    }
}
