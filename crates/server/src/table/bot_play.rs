//! Bots at the table: whose decision a bot takes and when, what its
//! answer does, and which of the operator's bot programs run.

use super::seating::Player;
use super::*;
use game::Seat;

impl<G: Roster> Table<G> {
    /// Starts the bot (or the absent human's stand-in) of the seat to move
    /// thinking, off this task, behind the server-wide gate.
    pub(super) fn bot_turn(&mut self) {
        let Some(seat) = self.play.game.to_move() else {
            return;
        };
        // A program that found no slot when the game started tries again
        // at its decisions, but never during a hidden decision (D7): when
        // it starts would tell whose decision it is.
        if self.play.game.public_to_move().is_some() {
            self.start_program(seat);
        }
        let (play, gate) = (&self.play, &self.ctx.bot_gate);
        if !self
            .bots
            .think(seat, &play.game, &play.options, play.seq, gate)
        {
            self.clock.turn_begins();
        }
    }

    /// A bot's decision came back: applied if the position is still the
    /// one it was made for (held, in a secret decision's window).
    pub(super) async fn bot_answer(
        &mut self,
        thought: Result<bot_seats::Thought<G>, tokio::sync::oneshot::error::RecvError>,
    ) {
        let Some((thinking, action)) = self.bots.answered(thought) else {
            return;
        };
        let Some(action) = action else {
            // The bot failed: the seat falls back to a stand-in next time.
            self.clock.turn_begins();
            return;
        };
        if self.play.finished {
            self.release_bots();
            return;
        }
        let seat = thinking.seat;
        if thinking.seq != self.play.seq {
            return;
        }
        if let Err(e) = self.play.game.check_as(seat, action) {
            tracing::error!(table = %self.setup.id, "bot chose an illegal action {action}: {e}");
            self.clock.turn_begins();
            return;
        }
        if self.clock.hold(seat, action, thinking.stand_in).is_some() {
            return;
        }
        // Whether to tell everyone that a person's decision was a stand-in's:
        // only for a public decision (D7: a hidden one would name its holder).
        let person = thinking.stand_in
            && self.seating.player(seat) == Player::Human
            && self.play.game.public_to_move() == Some(seat);
        let away = self.seating.absent_since(seat).is_some();
        if let Err(e) = self.commit(seat, action, thinking.stand_in).await {
            tracing::error!(table = %self.setup.id, "storing a bot action failed: {e}");
            // Try again after another delay.
            self.clock.turn_begins();
            return;
        }
        if person {
            self.tell_stand_in(seat, away);
        }
    }

    /// The game is over (or abandoned): each bot program at the table
    /// hears the rest of its seat's events and the outcome, and its
    /// process ends; its slot is given back.
    pub(super) fn release_bots(&mut self) {
        let outcome = self.play.final_outcome();
        self.bots
            .release(&self.play.game, &self.play.options, outcome);
    }

    /// The bot program that plays `seat`, if the operator offers it.
    pub(super) fn program_of(&self, seat: Seat) -> Option<&str> {
        match self.seating.kind(seat) {
            Some(SeatKind::Bot(name)) if self.ctx.external.offers_for(G::NAME, name) => Some(name),
            _ => None,
        }
    }

    /// Starts every bot program of the table, together, when the game
    /// starts (or is loaded under way): whose program starts when must
    /// say nothing of the game, the hidden D7 decision least of all.
    pub(super) fn start_programs(&mut self) {
        for i in 0..self.seating.seats().len() {
            self.start_program(Seat::new(i));
        }
    }

    /// Starts the bot program of `seat`, if it is one's and the game is
    /// under way (see `BotSeats::start_program`).
    fn start_program(&mut self, seat: Seat) {
        if self.play.finished {
            return;
        }
        let Some(name) = self.program_of(seat).map(str::to_string) else {
            return;
        };
        let owner = self.setup.access.owner.as_deref().unwrap_or_default();
        self.bots
            .start_program(seat, &name, owner, &self.ctx.external);
    }
}
