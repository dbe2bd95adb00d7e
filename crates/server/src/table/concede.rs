//! A person gives up a game under way: the seat is the stand-in's to the
//! end, and the result rates them below everyone who did not concede.

use super::*;
use crate::protocol::ServerMsg;

impl<G: Roster> Table<G> {
    /// The person at `conn`'s seat concedes: stored first, then the seat
    /// is the stand-in's from this decision on (it plays at the table's
    /// bot speed, not after a turn timer), and every connection is told.
    /// Refused, changing nothing, for a spectator, before the game starts,
    /// after it ends, and a second time.
    pub(super) async fn concede(&mut self, conn: u64) {
        let Some(sub) = self.audience.get(conn) else {
            return;
        };
        let Some(seat) = sub.seat else {
            return self
                .audience
                .send_to(conn, ServerMsg::error(Error::NotSeated));
        };
        let refusal = if self.play.finished || self.play.game.outcome().is_some() {
            Some(Error::GameOver)
        } else if self.seating.conceded(seat) {
            Some(Error::Conceded)
        } else if self.waiting_for_players() {
            Some(Error::BadInput(
                "the game has not started: there is nothing to concede yet".into(),
            ))
        } else {
            None
        };
        if let Some(e) = refusal {
            return self.audience.send_to(conn, ServerMsg::error(e));
        }
        let at = self.play.seq;
        let stored = self
            .ledger
            .write(move |store, id, epoch| store.concede(id, seat, at, epoch))
            .await;
        match stored {
            Ok(true) => {}
            Ok(false) => {
                return self.audience.send_to(
                    conn,
                    ServerMsg::error(Error::BadInput("this seat cannot concede".into())),
                )
            }
            Err(e) => return self.audience.send_to(conn, ServerMsg::error(e.into())),
        }
        tracing::info!(table = %self.setup.id, seat = %seat, at, "a person conceded");
        self.seating.concede(seat, at);
        self.clock.touch();
        // The stand-in takes the decision now if it is the seat's.
        if self.play.game.to_move() == Some(seat) {
            self.clock.turn_begins();
        }
        self.broadcast();
    }
}
