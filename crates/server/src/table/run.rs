//! The table's task: its loop, what wakes it, and the dispatch of commands.

use super::*;

impl<G: Roster> Table<G> {
    pub(super) async fn run(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        mut closing: watch::Receiver<bool>,
    ) {
        loop {
            if *closing.borrow() || self.moved {
                break;
            }
            let deadline = self.deadline();
            let window = self.quiet.as_ref().map(|q| q.until);
            let idle = self.idle_deadline();
            let programs = self.programs_deadline();
            let wake = {
                let thinking = self.thinking.as_mut().map(|t| &mut t.answer);
                tokio::select! {
                    cmd = rx.recv() => Wake::Command(cmd),
                    () = sleep_until(deadline) => Wake::BotDue,
                    thought = async { thinking.expect("guarded").await }, if thinking.is_some() => Wake::Thought(thought),
                    () = sleep_until(window) => Wake::WindowClosed,
                    () = sleep_until(idle) => Wake::Idle,
                    () = sleep_until(programs) => Wake::ProgramsIdle,
                    _ = closing.changed() => Wake::Closing,
                }
            };
            match wake {
                Wake::Command(Some(cmd)) => {
                    self.last_activity = Instant::now();
                    self.handle(cmd).await;
                }
                Wake::Command(None) | Wake::Closing => break,
                Wake::BotDue => self.bot_turn(),
                Wake::ProgramsIdle => self.stop_programs(),
                Wake::Thought(thought) => self.bot_answer(thought).await,
                Wake::WindowClosed => self.close_window().await,
                Wake::Idle => {
                    if self.evict(&rx) {
                        break;
                    }
                    // Somebody holds a handle: look again later.
                    self.last_activity = Instant::now();
                }
            }
        }
    }

    /// When this table may leave memory: nobody connected, nothing in
    /// progress, and no activity for `evict_after`.
    pub(super) fn idle_deadline(&self) -> Option<Instant> {
        (self.subs.is_empty() && self.thinking.is_none() && self.quiet.is_none())
            .then(|| self.last_activity + self.limits.evict_after)
    }

    /// Leaves the registry if nobody else holds this table's handle and
    /// no command is queued (both checked under the registry's lock, where
    /// every handle is cloned), so no command is ever lost.
    /// Its ownership is released, so any process may take it next.
    pub(super) fn evict(&self, rx: &mpsc::Receiver<Command>) -> bool {
        let mut tables = self.registry.lock().unwrap_or_else(|p| p.into_inner());
        if rx.sender_strong_count() == 1 && rx.is_empty() {
            tables.remove(&self.id);
            drop(tables);
            tracing::debug!(table = %self.id, "left memory");
            let (store, id, node, epoch) = (
                Arc::clone(&self.store),
                self.id.clone(),
                Arc::clone(&self.node),
                self.epoch,
            );
            tokio::task::spawn_blocking(move || {
                if let Err(e) = store.release(&id, &node, epoch) {
                    tracing::warn!(table = %id, "releasing ownership: {e}");
                }
            });
            true
        } else {
            false
        }
    }

    /// After a write the store fenced: another process claimed this
    /// table, so this copy is stale. It leaves memory and closes every
    /// connection with a code that makes clients reconnect, and their
    /// next connection reaches the new owner.
    pub(super) fn moved_away(&mut self, e: &StoreError) {
        tracing::warn!(table = %self.id, "another process owns the table now: {e}");
        self.leave_memory(MOVED);
    }

    /// Stops this copy of the table: out of the registry, every
    /// connection closed with `kick`. Ownership stays as the store has it.
    pub(super) fn leave_memory(&mut self, kick: Kick) {
        self.moved = true;
        self.registry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.id);
        for sub in &self.subs {
            sub.out.kick(kick);
        }
    }

    /// After a refused write: if the store has ended this table (the
    /// abandon sweep), the table ends too instead of trying again forever.
    pub(super) async fn check_ended(&mut self) {
        let store = Arc::clone(&self.store);
        let id = self.id.clone();
        let row = tokio::task::spawn_blocking(move || store.load(&id)).await;
        if let Ok(Ok(Some(t))) = row {
            if t.finished_at.is_some() && !self.finished {
                self.finished = true;
                self.abandoned = self.game.outcome().is_none();
                self.quiet = None;
                self.release_bots();
                self.broadcast();
            }
        }
    }

    pub(super) async fn repair(&mut self) {
        let store = Arc::clone(&self.store);
        let id = self.id.clone();
        let done = tokio::task::spawn_blocking(move || store.mark_finished(&id, unix_now())).await;
        if !matches!(done, Ok(Ok(()))) {
            tracing::error!(table = %self.id, "marking a finished game failed");
        }
    }

    /// When a bot should next act for the seat to move, if ever. Nothing
    /// moves while nobody is connected (an all-bot table plays only while
    /// watched, so an unwatched table costs nothing), while a bot is
    /// thinking, or once a held secret decision is in.
    pub(super) fn deadline(&self) -> Option<Instant> {
        if self.finished
            || self.waiting_for_players()
            || self.subs.is_empty()
            || self.thinking.is_some()
            || self.quiet.as_ref().is_some_and(|q| q.pending.is_some())
        {
            return None;
        }
        let mover = self.game.to_move()?;
        // A table no person watches from a seat plays at the server's
        // minimum bot speed, whatever its own delay (an unwatched table
        // must stay cheap): a seat filled with a bot, or a human who joined
        // and never came, must not turn a table into a bot-against-bot
        // loop at full speed.
        let person_here = self.subs.iter().any(|s| {
            s.seat
                .is_some_and(|seat| matches!(self.player(seat), Player::Human))
        });
        let delay_ms = if person_here {
            self.config.bot_delay_ms
        } else {
            self.config.bot_delay_ms.max(self.limits.min_bot_delay_ms)
        };
        let delay = Duration::from_millis(delay_ms);
        match self.player(mover) {
            // A bot program decides only for people at the table: at a
            // table they have all left, its seat waits (no stand-in
            // plays it either).
            Player::Bot if self.program_seat(mover) && !person_here => None,
            Player::Bot => Some(self.turn_started + delay),
            Player::Human => {
                // The stand-in plays for a person who is away only on a
                // timer: the table's turn timer, or, while another person
                // at the table is connected and waits for them, three bot
                // delays. Spectators waiting make nothing move.
                let waited_for = self.person_connected(Some(mover));
                let absent = self.absent_since[mover.index()]
                    .filter(|_| waited_for)
                    .map(|since| (since + delay * 3).max(self.turn_started + delay));
                let timer = self
                    .config
                    .turn_timer_ms
                    .map(|t| self.turn_started + Duration::from_millis(t));
                match (absent, timer) {
                    (Some(a), Some(t)) => Some(a.min(t)),
                    (a, t) => a.or(t),
                }
            }
        }
    }

    /// Dispatches a command from the rest of the server to what handles it.
    pub(super) async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Hello {
                conn,
                token,
                contribution,
                key,
                out,
                reply,
            } => {
                self.hello(conn, token, contribution, key.as_deref(), out, reply)
                    .await
            }
            Command::Resync { conn } => self.send_state(conn),
            Command::Concede { conn } => self.concede(conn).await,
            Command::Leave { conn } => self.leave(conn),
            Command::Act { conn, seq, action } => self.act(conn, seq, &action).await,
            Command::Chat { conn, who, said } => self.chat(conn, who, said),
            Command::Join {
                seat,
                name,
                key,
                contribution,
                player,
                origin,
                reply,
            } => {
                let answer = self
                    .join(seat, name, key, contribution, player, origin)
                    .await;
                self.answer_seat_change(reply, answer);
            }
            Command::Fill {
                seat,
                creator,
                bot,
                reply,
            } => {
                let answer = self.fill(seat, &creator, &bot).await;
                self.answer_seat_change(reply, answer);
            }
            Command::Rematch {
                token,
                owner,
                reply,
            } => {
                let answer = self.rematch(&token, owner).await;
                let made = answer.is_ok();
                let _ = reply.send(answer);
                if made {
                    self.tell_rematch(None);
                }
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Command::Abandoned => self.abandon(),
            Command::Relinquish => {
                tracing::info!(table = %self.id, "handed over");
                self.leave_memory(MOVED);
            }
        }
    }

    /// A connection says hello: it subscribes to the table with the seat
    /// its token belongs to, or as a spectator without one, and is
    /// answered with that seat; a token of no seat here is refused.
    async fn hello(
        &mut self,
        conn: u64,
        token: Option<String>,
        contribution: Option<[u8; 32]>,
        key: Option<&str>,
        out: Outbox,
        reply: oneshot::Sender<Result<Option<Seat>, ()>>,
    ) {
        let seat = match token.as_deref().map(|t| self.seat_of_token(t)) {
            // A private table is watched only with its invite key, as it
            // is joined.
            None if !self.access.admits(key) => {
                let _ = out.try_send(
                    ServerMsg::error(Error::Forbidden(
                        "this table is private: watch it through its invite link".into(),
                    ))
                    .to_text(),
                );
                let _ = reply.send(Err(()));
                return;
            }
            None => None,
            Some(Some(seat)) => Some(seat),
            Some(None) => {
                let _ = out.try_send(
                    ServerMsg::error(Error::BadToken(
                        "this token does not belong to a seat of this table".into(),
                    ))
                    .to_text(),
                );
                let _ = reply.send(Err(()));
                return;
            }
        };
        self.subs.retain(|s| s.conn != conn);
        self.subs.push(Sub {
            conn,
            seat,
            token: seat.and(token),
            out,
            log_pos: 0,
            log_sent: 0,
            view: String::new(),
        });
        let _ = reply.send(Ok(seat));
        self.welcome(conn, seat, contribution).await;
    }

    /// The human seat whose token this is.
    fn seat_of_token(&self, token: &str) -> Option<Seat> {
        let hash = sha256_hex(token);
        self.seats
            .iter()
            .find(|s| matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash))
            .map(|s| s.seat)
    }

    /// After a hello: a person's contribution to a rematch's deal is
    /// taken, the newcomer gets the whole state, and the others hear only
    /// that a seat is connected now, and spectators nothing (a join must
    /// not send a whole state to everyone).
    async fn welcome(&mut self, conn: u64, seat: Option<Seat>, contribution: Option<[u8; 32]>) {
        let arrived = match (seat, contribution) {
            (Some(seat), Some(c)) => self.arrive(seat, c).await,
            _ => false,
        };
        self.open_quiet_window();
        self.send_state(conn);
        self.presence_changed(Some(conn));
        if arrived {
            // The last contribution of a rematch starts the game.
            self.broadcast();
        }
        self.greet(conn);
    }

    /// A connection went away.
    fn leave(&mut self, conn: u64) {
        self.subs.retain(|s| s.conn != conn);
        self.presence_changed(None);
    }

    /// Answers a join or a fill; a seat that changed hands changes
    /// everyone's view.
    fn answer_seat_change<T>(
        &mut self,
        reply: oneshot::Sender<Result<T, Error>>,
        answer: Result<T, Error>,
    ) {
        let ok = answer.is_ok();
        let _ = reply.send(answer);
        if ok {
            self.broadcast();
        }
    }

    /// The store ended the table as abandoned: it ends here too.
    fn abandon(&mut self) {
        if !self.finished {
            self.finished = true;
            self.abandoned = true;
            self.quiet = None;
            self.release_bots();
            self.broadcast();
        }
    }
}
