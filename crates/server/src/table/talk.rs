//! The table's chat: the last lines said, kept in memory only, and each
//! speaker's budget.
//!
//! Who may read and write (the seated players; spectators too where the
//! table lets them) is the table's rule, `Table::chat`; this part keeps
//! the lines and meters the speakers: one budget per seat, whatever
//! connections it has, and a spectator's per client address.

use crate::addr::ClientAddr;
use crate::protocol::ServerMsg;
use crate::social::{ChatLine, ChatLog, ChatMeter, Said};
use game::Seat;
use std::time::Duration;

/// See the module docs.
#[derive(Default)]
pub(super) struct Talk {
    log: ChatLog,
    meter: ChatMeter,
}

impl Talk {
    /// Says `said` for `seat` (`None`: a spectator at `who`) under
    /// `name`: the line kept and to send, or how long to wait before the
    /// speaker's budget allows another.
    pub(super) fn say(
        &mut self,
        seat: Option<Seat>,
        who: ClientAddr,
        name: Option<String>,
        said: Said,
    ) -> Result<ChatLine, Duration> {
        self.meter.take(seat, who)?;
        let line = ChatLine {
            seat,
            name,
            said,
            at: crate::clock::unix_now(),
        };
        self.log.push(line.clone());
        Ok(line)
    }

    /// The chat so far, for a newcomer who may read it; `None` if nothing
    /// was said.
    pub(super) fn history(&self) -> Option<ServerMsg> {
        (!self.log.is_empty()).then(|| ServerMsg::Chat {
            messages: self.log.lines(),
            history: true,
        })
    }
}
