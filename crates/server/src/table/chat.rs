//! The table's chat rule: who may say something, and who hears it.

use super::*;
use crate::protocol::ServerMsg;

impl<G: Roster> Table<G> {
    /// A chat message from connection `conn`: kept and sent to every
    /// reader (the seated players; spectators too where the table lets
    /// them chat). A spectator may not write unless it does.
    pub(super) fn chat(
        &mut self,
        conn: u64,
        who: crate::addr::ClientAddr,
        said: crate::social::Said,
    ) {
        let Some(sub) = self.audience.get(conn) else {
            return;
        };
        let seat = sub.seat;
        let everyone = self.setup.config.spectator_chat;
        if seat.is_none() && !everyone {
            return self.audience.send_to(
                conn,
                ServerMsg::error(Error::Forbidden(
                    "spectators do not chat at this table".to_string(),
                )),
            );
        }
        let name = seat.and_then(|s| self.seating.name(s));
        let line = match self.talk.say(seat, who, name, said) {
            Ok(line) => line,
            Err(wait) => {
                self.ctx.metrics.refused(crate::metrics::Refusal::Chat);
                return self.audience.send_to(
                    conn,
                    ServerMsg::error(Error::RateLimited {
                        retry_after: wait.as_secs() + 1,
                        message: format!(
                            "at most {} chat messages at once, then one every {} s",
                            crate::social::CHAT_BURST,
                            crate::social::CHAT_EVERY_S
                        ),
                    }),
                );
            }
        };
        let text = ServerMsg::Chat {
            messages: vec![line],
            history: false,
        }
        .to_text();
        self.send_all_as(super::outbox::Kind::Other, |sub| {
            (everyone || sub.seat.is_some()).then(|| text.clone())
        });
    }
}
