//! A secret decision's window (D7): when the holder of both Jesters
//! decides whether to call a revolution, the decision takes effect when a
//! fixed window closes, whoever made it and whenever, so its timing tells
//! nobody who holds them.

use super::*;

impl<G: Roster> Table<G> {
    /// Opens a secret decision's window if the game just reached one at a
    /// table with people. Not at a tutorial: its deal is published, so the
    /// timing would tell nothing the deal does not, and a newcomer reading
    /// the coach must not see their decision taken for them when a window
    /// closes.
    pub(super) fn open_quiet_window(&mut self) {
        // Not before the game starts: until every human seat is taken
        // nothing is dealt and nobody decides.
        let game = &self.play.game;
        let secret = !self.play.finished
            && !self.waiting_for_players()
            && game.to_move().is_some()
            && game.public_to_move().is_none();
        let length = self.ctx.limits.revolution_window_ms;
        // Nor while nobody is connected: the table does not move then.
        if secret
            && !self.audience.is_empty()
            && !self.clock.window_open()
            && self.seating.has_humans()
            && !self.setup.config.tutorial
            && length > 0
        {
            self.clock.open_window(Duration::from_millis(length), None);
        }
    }

    /// The window is over: the held decision (or the silent one) is
    /// applied now, for everyone at once.
    pub(super) async fn close_window(&mut self) {
        let Some(quiet) = self.clock.close_window() else {
            return;
        };
        if self.waiting_for_players() {
            return;
        }
        let Some(mover) = self.play.game.to_move() else {
            return;
        };
        // Saying nothing is the holder's own choice (it declines).
        let choice = quiet
            .pending
            .or_else(|| self.play.game.silent_choice().map(|a| (mover, a, false)));
        let Some((seat, action, stand_in)) = choice else {
            return;
        };
        if self.play.game.check_as(seat, action).is_err() {
            return;
        }
        if let Err(e) = self.commit(seat, action, stand_in).await {
            tracing::error!(table = %self.setup.id, "storing a held decision failed: {e}");
            // Held again for another window, never applied at once
            // (its timing would name the holder).
            if !self.play.finished {
                let length = Duration::from_millis(self.ctx.limits.revolution_window_ms);
                self.clock.open_window(length, quiet.pending);
            }
        }
    }
}
