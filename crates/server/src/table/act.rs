//! A player's action: checked by the engine, committed to the store, then applied.

use super::*;

/// Why an action was not committed.
#[derive(Debug, thiserror::Error)]
pub(super) enum CommitError {
    /// The game waits for its human seats to be taken.
    #[error("the game has not started")]
    NotStarted,
    /// The store went away before it answered.
    #[error("the store dropped the write")]
    Dropped,
    /// The store refused the write (it may have been fenced: another
    /// process owns the table now).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl<G: Roster> Table<G> {
    pub(super) async fn act(&mut self, conn: u64, seq: u64, text: &str) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let Some(seat) = sub.seat else {
            return self.send_to(conn, ServerMsg::error(Error::NotSeated));
        };
        if self.social.conceded.contains_key(&seat) {
            return self.send_to(conn, ServerMsg::error(Error::Conceded));
        }
        if self.finished || self.game.to_move().is_none() {
            return self.send_to(conn, ServerMsg::error(Error::GameOver));
        }
        if seq != self.seq {
            return self.send_to(
                conn,
                ServerMsg::error(Error::Stale(format!(
                    "you have seen {seq} actions, the table is at {}: nothing was applied",
                    self.seq
                ))),
            );
        }
        if self.waiting_for_players() {
            return self.send_to(
                conn,
                ServerMsg::error(Error::NotYourTurn(
                    "the game starts when every human seat is taken".into(),
                )),
            );
        }
        let action: G::Action = match text.trim().parse() {
            Ok(a) => a,
            Err(e) => {
                return self.send_to(conn, ServerMsg::error(Error::Illegal(Box::new(e))));
            }
        };
        match self.game.check_as(seat, action) {
            Ok(()) => {}
            Err(ActError::GameOver) => {
                return self.send_to(conn, ServerMsg::error(Error::GameOver))
            }
            Err(ActError::NotYourTurn { expected, .. }) => {
                // Name the mover only when the whole table may know it.
                let message = if self.game.public_to_move() == Some(expected) {
                    format!("it is {expected}'s turn")
                } else {
                    "it is not your turn".to_string()
                };
                return self.send_to(conn, ServerMsg::error(Error::NotYourTurn(message)));
            }
            Err(ActError::Illegal(e)) => {
                return self.send_to(conn, ServerMsg::error(Error::Illegal(Box::new(e))))
            }
        }
        if let Some(quiet) = self.quiet.as_mut() {
            quiet.pending = Some((seat, action, false));
            let left = quiet.until.saturating_duration_since(Instant::now());
            return self.send_to(
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
            tracing::error!(table = %self.id, "storing an action failed: {e}");
            self.send_to(
                conn,
                ServerMsg::error(Error::Internal(
                    "the server could not store the action".into(),
                )),
            );
        }
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
        let mut next = self.game.clone();
        next.apply_unchecked(action);
        let ends = next.outcome().is_some();
        // Committed before anything below happens.
        let written = match self.submit_action(seat, action, ends, stand_in).await {
            Ok(written) => written.map_err(CommitError::Store),
            Err(_) => Err(CommitError::Dropped),
        };
        if let Err(e) = written {
            if let CommitError::Store(fenced @ StoreError::Fenced { .. }) = &e {
                self.moved_away(fenced);
            }
            if !self.moved {
                self.check_ended().await;
            }
            return Err(e);
        }
        self.game = next;
        self.seq += 1;
        self.count_decision(seat, stand_in);
        self.turn_started = Instant::now();
        self.last_activity = self.turn_started;
        if ends {
            self.finished = true;
            self.record_result();
        } else if self.seq >= self.limits.max_actions as u64 {
            // The server's length cap: the game ends, abandoned, its record
            // kept (a game must not grow without end).
            let store = Arc::clone(&self.store);
            let (id, epoch) = (self.id.clone(), self.epoch);
            let _ =
                tokio::task::spawn_blocking(move || store.mark_abandoned(&id, unix_now(), epoch))
                    .await;
            self.finished = true;
            self.abandoned = true;
        }
        if self.finished {
            self.release_bots();
        }
        self.open_quiet_window();
        self.broadcast();
        Ok(())
    }

    /// Counts a committed decision of `seat` (its own player's, or a
    /// stand-in's).
    fn count_decision(&mut self, seat: Seat, stand_in: bool) {
        let i = seat.index();
        if self.acted.len() <= i {
            self.acted.resize(i + 1, Acted::default());
        }
        self.acted[i].all += 1;
        self.acted[i].own += u64::from(!stand_in);
    }

    /// Submits the action to the table's record in the store: the
    /// answer comes once it is committed (possibly in one transaction
    /// with other tables' actions).
    fn submit_action(
        &self,
        seat: Seat,
        action: G::Action,
        ends: bool,
        stand_in: bool,
    ) -> oneshot::Receiver<Result<(), StoreError>> {
        let stored = StoredAction {
            seq: self.seq + 1,
            seat,
            action: action.to_string(),
            stand_in,
        };
        let (done, committed) = oneshot::channel();
        let metrics = Arc::clone(&self.metrics);
        let submitted = std::time::Instant::now();
        Arc::clone(&self.store).append_action_then(
            self.id.clone(),
            stored,
            unix_now(),
            ends,
            self.epoch,
            Box::new(move |r| {
                metrics.committed(submitted.elapsed(), r.is_ok());
                let _ = done.send(r);
            }),
        );
        committed
    }

    /// What the listening bot of `seat` has not heard yet (see
    /// [`Hearing`]): only events visible to its seat.
    pub(super) fn hearing(&mut self, seat: Seat) -> Option<Hearing<G>> {
        let i = seat.index();
        if self.heard.len() <= i {
            self.heard.resize(i + 1, None);
        }
        let start = match self.heard[i] {
            Some(_) => None,
            None => {
                let options = G::Options::from_pairs(
                    self.options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
                );
                match options {
                    Ok(o) => Some((seat, self.game.players(), o)),
                    Err(e) => {
                        tracing::error!(table = %self.id, "options do not read: {e}");
                        return None;
                    }
                }
            }
        };
        let log = self.game.events();
        let from = self.heard[i].unwrap_or(0).min(log.len());
        let events = log[from..]
            .iter()
            .filter(|e| e.visible_to(Some(seat)))
            .map(|e| e.event.clone())
            .collect();
        self.heard[i] = Some(log.len());
        Some(Hearing { start, events })
    }

    /// Logs and counts a bot program's strikes.
    pub(super) fn strikes(&self, seat: Seat, strikes: Vec<String>) {
        for reason in strikes {
            tracing::warn!(table = %self.id, seat = %seat, "bot strike: {reason}");
            self.metrics.bot_strike();
        }
    }
}
