//! A player's action: checked by the engine, committed to the store, then
//! applied and broadcast.

use super::ledger::WriteError;
use super::*;
use crate::protocol::ServerMsg;
use crate::store::StoredAction;
use game::{ActError, Seat};

/// Why an action was not committed.
#[derive(Debug, thiserror::Error)]
pub(super) enum CommitError {
    /// The game waits for its human seats to be taken.
    #[error("the game has not started")]
    NotStarted,
    /// The store did not take it (it may have been fenced: another
    /// process owns the table now).
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl<G: Roster> Table<G> {
    /// A connection's action for its seat, at the position it has seen
    /// (`seq`): refused with the reason (the rule it breaks, for an
    /// illegal one), held in a secret decision's window, or committed.
    pub(super) async fn act(&mut self, conn: u64, seq: u64, text: &str) {
        let (seat, action) = match self.checked(conn, seq, text) {
            Ok(checked) => checked,
            Err(Some(e)) => return self.audience.send_to(conn, ServerMsg::error(e)),
            Err(None) => return,
        };
        if let Some(left) = self.clock.hold(seat, action, false) {
            return self.audience.send_to(
                conn,
                ServerMsg::Notice {
                    code: "held",
                    message: format!(
                        "your decision ({action}) is in: it takes effect for everyone in {} s, \
                         when the decision window closes (D7)",
                        left.as_secs() + 1
                    ),
                },
            );
        }
        if let Err(e) = self.commit(seat, action, false).await {
            tracing::error!(table = %self.setup.id, "storing an action failed: {e}");
            self.audience.send_to(
                conn,
                ServerMsg::error(Error::Internal(
                    "the server could not store the action".into(),
                )),
            );
        }
    }

    /// The seat of connection `conn` and the action `text` names, if it
    /// may make it now, having seen `seq` actions; else why not (the
    /// engine's reason for an illegal action; `None`: the connection is
    /// gone).
    fn checked(&self, conn: u64, seq: u64, text: &str) -> Result<(Seat, G::Action), Option<Error>> {
        let sub = self.audience.get(conn).ok_or(None)?;
        let seat = sub.seat.ok_or(Some(Error::NotSeated))?;
        if self.seating.conceded(seat) {
            return Err(Some(Error::Conceded));
        }
        if self.play.finished || self.play.game.to_move().is_none() {
            return Err(Some(Error::GameOver));
        }
        if seq != self.play.seq {
            return Err(Some(Error::Stale(format!(
                "you have seen {seq} actions, the table is at {}: nothing was applied",
                self.play.seq
            ))));
        }
        if self.waiting_for_players() {
            return Err(Some(Error::NotYourTurn(
                "the game starts when every human seat is taken".into(),
            )));
        }
        let action: G::Action = text
            .trim()
            .parse()
            .map_err(|e| Some(Error::Illegal(Box::new(e))))?;
        let refusal = match self.play.game.check_as(seat, action) {
            Ok(()) => return Ok((seat, action)),
            Err(ActError::GameOver) => Error::GameOver,
            Err(ActError::NotYourTurn { expected, .. }) => {
                // Name the mover only when the whole table may know it.
                Error::NotYourTurn(if self.play.game.public_to_move() == Some(expected) {
                    format!("it is {expected}'s turn")
                } else {
                    "it is not your turn".to_string()
                })
            }
            Err(ActError::Illegal(e)) => Error::Illegal(Box::new(e)),
        };
        Err(Some(refusal))
    }

    /// Stores, then applies and broadcasts, a checked action (made by a
    /// stand-in for the seat's own player if `stand_in`). The game's end,
    /// if this action ends it, is stored in the same transaction.
    pub(super) async fn commit(
        &mut self,
        seat: Seat,
        action: G::Action,
        stand_in: bool,
    ) -> Result<(), CommitError> {
        if self.waiting_for_players() {
            return Err(CommitError::NotStarted);
        }
        let mut next = self.play.game.clone();
        next.apply_unchecked(action);
        let ends = next.outcome().is_some();
        let stored = StoredAction {
            seq: self.play.seq + 1,
            seat,
            action: action.to_string(),
            stand_in,
        };
        // Committed before anything below happens.
        let answer = self.ledger.append(stored, ends).await;
        if let Err(e) = self.ledger.appended(answer) {
            if !self.ledger.fenced() {
                self.check_ended().await;
            }
            return Err(e.into());
        }
        self.play.game = next;
        self.play.seq += 1;
        self.seating.count_decision(seat, stand_in);
        self.clock.acted();
        self.end_if_over(ends).await;
        self.open_quiet_window();
        self.broadcast();
        Ok(())
    }
}
