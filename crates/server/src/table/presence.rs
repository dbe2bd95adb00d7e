//! Who is connected: each seat's presence, told to every connection in
//! one small message when it changes, and the bot programs that run only
//! while a person is at the table.

use super::audience::Sub;
use super::outbox::Kind;
use super::*;
use crate::protocol::ServerMsg;

impl<G: Roster> Table<G> {
    /// Recomputes which seats are connected; if that changed, tells every
    /// connection (but `except`, which has just had the whole state) in
    /// one small message. Bot programs run only while a person is at the
    /// table: they stop a moment after the last one leaves
    /// (`Table::programs_deadline`), and start again, all together, when
    /// one is back.
    pub(super) fn presence_changed(&mut self, except: Option<u64>) {
        let changed = self.seating.update_presence(&self.audience);
        if self.seating.alone_since().is_none()
            && !self.play.finished
            && !self.waiting_for_players()
        {
            self.start_programs();
        }
        if changed {
            let text = ServerMsg::Presence {
                seats: self.seat_statuses(),
            }
            .to_text();
            self.send_all_as(Kind::Update, |sub| {
                (Some(sub.conn) != except).then(|| text.clone())
            });
        }
    }

    /// Sends each connection its message (`None`: nothing) as `kind`; a
    /// connection it had to close changes who is present.
    pub(super) fn send_all_as(&mut self, kind: Kind, message: impl FnMut(&Sub) -> Option<String>) {
        if self.audience.send_all_as(kind, message) {
            self.presence_changed(None);
        }
    }
}
