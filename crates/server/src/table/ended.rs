//! How a game ends besides by a player's action: the server's length cap,
//! and the store ending the table (the abandon sweep).

use super::*;

impl<G: Roster> Table<G> {
    /// After an action is applied: if the game is over by the rules
    /// (`over`) its result is recorded; at the server's length cap it ends,
    /// abandoned, its record kept (a game must not grow without end). An
    /// ended game's bot programs hear the end and stop.
    pub(super) async fn end_if_over(&mut self, over: bool) {
        if over {
            self.play.finished = true;
            self.record_result();
        } else if self.play.seq >= self.ctx.limits.max_actions as u64 {
            let _ = self
                .ledger
                .write(|store, id, epoch| store.mark_abandoned(id, crate::clock::unix_now(), epoch))
                .await;
            self.play.abandon();
        }
        if self.play.finished {
            self.release_bots();
        }
    }

    /// After a refused write: if the store has ended this table (the
    /// abandon sweep), the table ends too instead of trying again forever.
    pub(super) async fn check_ended(&mut self) {
        if let Some(t) = self.ledger.load().await {
            if t.finished_at.is_some() && !self.play.finished {
                self.play.finished = true;
                self.play.abandoned = self.play.game.outcome().is_none();
                self.ended_elsewhere();
            }
        }
    }

    /// The store ended the table as abandoned: it ends here too.
    pub(super) fn abandon(&mut self) {
        if !self.play.finished {
            self.play.abandon();
            self.ended_elsewhere();
        }
    }

    /// The game was ended outside the table: no decision is held any
    /// more, its bot programs stop, and everyone is told.
    fn ended_elsewhere(&mut self) {
        self.clock.close_window();
        self.release_bots();
        self.broadcast();
    }
}
