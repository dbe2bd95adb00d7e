//! Seats and presence: joining, arriving, filling with bots, the secret decision's window, chat.

use super::*;
use crate::store::SeatTaking;

impl<G: Roster> Table<G> {
    /// How the seat is played now: a person's seat is a bot's once they
    /// conceded (its stand-in plays it).
    pub(super) fn player(&self, seat: Seat) -> Player {
        match self.seats.get(seat.index()).map(|s| &s.kind) {
            Some(SeatKind::Human { .. }) if self.social.conceded.contains_key(&seat) => Player::Bot,
            Some(SeatKind::Human { .. }) => Player::Human,
            Some(SeatKind::Bot(_)) | None => Player::Bot,
        }
    }

    /// Whether a person seated at the table (and playing: not conceded)
    /// is connected now, at a seat other than `except`.
    pub(super) fn person_connected(&self, except: Option<Seat>) -> bool {
        self.subs.iter().any(|s| {
            s.seat.is_some_and(|seat| {
                Some(seat) != except && matches!(self.player(seat), Player::Human)
            })
        })
    }

    pub(super) fn has_humans(&self) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s.kind, SeatKind::Human { .. }))
    }

    /// A table waits for every human seat to be joined before anybody
    /// plays; a rematch, whose seats are taken when it is made, waits for
    /// every person's contribution to its fair deal (each sends one when
    /// they arrive).
    pub(super) fn waiting_for_players(&self) -> bool {
        self.seats.iter().any(|s| {
            matches!(
                &s.kind,
                SeatKind::Human {
                    token_hash: None,
                    ..
                }
            )
        }) || self.awaiting_contributions()
    }

    /// A rematch not started whose fair deal lacks a seated person's
    /// contribution.
    pub(super) fn awaiting_contributions(&self) -> bool {
        let Some(fair) = &self.fair else {
            return false;
        };
        self.social.rematch_of.is_some()
            && self.seq == 0
            && self.seats.iter().any(|s| {
                matches!(s.kind, SeatKind::Human { .. })
                    && !fair.contributions.contains_key(&s.seat)
            })
    }

    /// Opens a secret decision's window if the game just reached one at a
    /// table with people (D7 fair timing: when a decision takes effect
    /// must not tell who made it).
    pub(super) fn open_quiet_window(&mut self) {
        // Not before the game starts: until every human seat is taken
        // nothing is dealt and nobody decides.
        let secret = !self.finished
            && !self.waiting_for_players()
            && self.game.to_move().is_some()
            && self.game.public_to_move().is_none();
        // Nor while nobody is connected: the table does not move then.
        if secret
            && !self.subs.is_empty()
            && self.quiet.is_none()
            && self.has_humans()
            && self.limits.revolution_window_ms > 0
        {
            self.quiet = Some(Quiet {
                until: Instant::now() + Duration::from_millis(self.limits.revolution_window_ms),
                pending: None,
            });
        }
    }

    /// The window is over: the held decision (or the silent one) is
    /// applied now, for everyone at once.
    pub(super) async fn close_window(&mut self) {
        let Some(quiet) = self.quiet.take() else {
            return;
        };
        if self.waiting_for_players() {
            return;
        }
        let Some(mover) = self.game.to_move() else {
            return;
        };
        // Saying nothing is the holder's own choice (it declines).
        let choice = quiet
            .pending
            .or_else(|| self.game.silent_choice().map(|a| (mover, a, false)));
        if let Some((seat, action, stand_in)) = choice {
            if self.game.check_as(seat, action).is_ok() {
                if let Err(e) = self.commit(seat, action, stand_in).await {
                    tracing::error!(table = %self.id, "storing a held decision failed: {e}");
                    // Held again for another window, never applied at once
                    // (its timing would name the holder).
                    if !self.finished {
                        self.quiet = Some(Quiet {
                            until: Instant::now()
                                + Duration::from_millis(self.limits.revolution_window_ms),
                            pending: quiet.pending,
                        });
                    }
                }
            }
        }
    }

    /// Recomputes which seats are connected; if that changed, tells every
    /// connection (but `except`, which has just had the whole state) in
    /// one small message.
    pub(super) fn presence_changed(&mut self, except: Option<u64>) {
        let before: Vec<bool> = (0..Seat::MAX)
            .map(|i| self.absent_since[i].is_none())
            .collect();
        let now = Instant::now();
        for i in 0..Seat::MAX {
            let connected = self.subs.iter().any(|s| s.seat == Some(Seat::new(i)));
            if connected {
                self.absent_since[i] = None;
            } else if self.absent_since[i].is_none() {
                self.absent_since[i] = Some(now);
            }
        }
        // Bot programs run only while a person is at the table: they stop
        // a moment after the last one leaves (`Table::stop_programs`),
        // and start again, all together, when one is back.
        if self.person_connected(None) {
            self.alone_since = None;
            if !self.finished && !self.waiting_for_players() {
                self.start_programs();
            }
        } else if self.alone_since.is_none() {
            self.alone_since = Some(now);
        }
        let changed = (0..Seat::MAX).any(|i| before[i] != self.absent_since[i].is_none());
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

    pub(super) fn free(s: &StoredSeat) -> bool {
        matches!(
            &s.kind,
            SeatKind::Human {
                token_hash: None,
                ..
            }
        )
    }

    pub(super) async fn join(
        &mut self,
        seat: Option<Seat>,
        name: String,
        key: Option<String>,
        contribution: Option<[u8; 32]>,
        player: Option<String>,
        origin: String,
    ) -> Result<(Seat, String, String), Error> {
        if self.finished {
            return Err(Error::SeatTaken("the game is over".to_string()));
        }
        if let Some(hash) = &self.access.invite_hash {
            if key.as_deref().map(sha256_hex).as_ref() != Some(hash) {
                return Err(Error::Forbidden(
                    "this table is private: join it through its invite link".to_string(),
                ));
            }
        }
        let seat = match seat {
            Some(seat) => match self.seats.get(seat.index()) {
                None => return Err(Error::BadInput(format!("this table has no seat {seat}"))),
                Some(s) if Self::free(s) => seat,
                Some(_) => return Err(Error::SeatTaken(format!("{seat} is not a free seat"))),
            },
            None => match self.seats.iter().find(|s| Self::free(s)) {
                Some(s) => s.seat,
                None => return Err(Error::SeatTaken("no seat is free".to_string())),
            },
        };
        let token = new_token();
        let hash = sha256_hex(&token);
        let store = Arc::clone(&self.store);
        let (id, n, h) = (self.id.clone(), name.clone(), hash.clone());
        let contribution = contribution.filter(|_| self.fair.is_some());
        let epoch = self.epoch;
        let (p, o) = (player.clone(), origin.clone());
        let taken = tokio::task::spawn_blocking(move || {
            store.take_seat_as(SeatTaking {
                contribution,
                player: p,
                origin: Some(o),
                ..SeatTaking::person(&id, seat, &n, &h, epoch)
            })
        })
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
        .inspect_err(|e| {
            if matches!(e, StoreError::Fenced { .. }) {
                self.moved_away(e);
            }
        })?;
        if !taken {
            return Err(Error::SeatTaken(format!("{seat} is not a free seat")));
        }
        self.seats[seat.index()].kind = SeatKind::Human {
            name: Some(name),
            token_hash: Some(hash),
        };
        if let (Some(fair), Some(c)) = (self.fair.as_mut(), contribution) {
            fair.contributions.insert(seat, c);
        }
        if let Some(p) = player {
            self.social.players.insert(seat, p);
        }
        self.social.origins.insert(seat, origin);
        self.start_if_ready();
        Ok((seat, token, self.seed_hash.clone()))
    }

    /// A seated person arrives at a rematch with their contribution to its
    /// fair deal: it is stored, and the last one starts the game. Whether
    /// anything changed for the table.
    pub(super) async fn arrive(&mut self, seat: Seat, contribution: [u8; 32]) -> bool {
        let missing = self
            .fair
            .as_ref()
            .is_some_and(|f| !f.contributions.contains_key(&seat));
        if !self.awaiting_contributions() || !missing {
            return false;
        }
        let store = Arc::clone(&self.store);
        let (id, epoch) = (self.id.clone(), self.epoch);
        let added =
            tokio::task::spawn_blocking(move || store.contribute(&id, seat, contribution, epoch))
                .await;
        match added {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => return false,
            Ok(Err(e)) => {
                if matches!(e, StoreError::Fenced { .. }) {
                    self.moved_away(&e);
                } else {
                    tracing::error!(table = %self.id, "storing a contribution failed: {e}");
                }
                return false;
            }
            Err(e) => {
                tracing::error!(table = %self.id, "storing a contribution failed: {e}");
                return false;
            }
        }
        if let Some(fair) = self.fair.as_mut() {
            fair.contributions.insert(seat, contribution);
        }
        self.start_if_ready();
        true
    }

    /// What a newcomer gets after its state: the chat so far (if it may
    /// read it) and, at a finished table with a rematch, where to go.
    pub(super) fn greet(&mut self, conn: u64) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        if (sub.seat.is_some() || self.config.spectator_chat) && !self.chat.is_empty() {
            let text = ServerMsg::Chat {
                messages: self.chat.lines(),
                history: true,
            };
            self.send_to(conn, text);
        }
        self.tell_rematch(Some(conn));
    }

    /// A chat message from connection `conn`: kept and sent to every
    /// reader (the seated players; spectators too where the table lets
    /// them chat). A spectator may not write unless it does.
    pub(super) fn chat(
        &mut self,
        conn: u64,
        who: crate::addr::ClientAddr,
        said: crate::social::Said,
    ) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let seat = sub.seat;
        if seat.is_none() && !self.config.spectator_chat {
            return self.send_to(
                conn,
                ServerMsg::error(Error::Forbidden(
                    "spectators do not chat at this table".to_string(),
                )),
            );
        }
        // One budget per seat, whatever connections it has; a spectator's
        // per address.
        if let Err(wait) = self.chat_meter.take(seat, who) {
            self.metrics.refused(crate::metrics::Refusal::Chat);
            return self.send_to(
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
        let name = seat.and_then(|s| match self.seats.get(s.index()).map(|x| &x.kind) {
            Some(SeatKind::Human { name, .. }) => name.clone(),
            _ => None,
        });
        let line = crate::social::ChatLine {
            seat,
            name,
            said,
            at: unix_now(),
        };
        self.chat.push(line.clone());
        let text = ServerMsg::Chat {
            messages: vec![line],
            history: false,
        }
        .to_text();
        let everyone = self.config.spectator_chat;
        self.send_all(|sub| (everyone || sub.seat.is_some()).then(|| text.clone()));
    }

    /// Once every human seat is taken the game starts: a fair-deal table
    /// derives its seed from the secret and every contribution now, and
    /// deals from it.
    pub(super) fn start_if_ready(&mut self) {
        if self.waiting_for_players() {
            return;
        }
        if let Some(fair) = &self.fair {
            if self.seq == 0 {
                let seed = fair.seed();
                let options = G::Options::from_pairs(
                    self.options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
                );
                match options.map(|o| G::new_seeded(&o, self.players, &seed)) {
                    Ok(Ok(mut game)) => {
                        game.set_logging(true);
                        self.game = game;
                        self.seed = seed;
                        tracing::debug!(table = %self.id, "dealt from the secret and {} contributions", fair.contributions.len());
                    }
                    _ => {
                        // Cannot happen (the options were checked at
                        // creation); the placeholder deal must never be
                        // played, so the table stops here.
                        tracing::error!(table = %self.id, "the fair deal cannot start");
                        self.finished = true;
                        self.abandoned = true;
                        return;
                    }
                }
            }
        }
        self.turn_started = Instant::now();
        self.open_quiet_window();
        self.start_programs();
    }

    /// The creator gives a seat whose human never came to a bot, once the
    /// seat has been free for `fill_after`.
    /// The person at `conn`'s seat concedes: stored first, then the seat
    /// is the stand-in's from this decision on (it plays at the table's
    /// bot speed, not after a turn timer), and every connection is told.
    /// Refused, changing nothing, for a spectator, before the game starts,
    /// after it ends, and a second time.
    pub(super) async fn concede(&mut self, conn: u64) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let Some(seat) = sub.seat else {
            return self.send_to(conn, ServerMsg::error(Error::NotSeated));
        };
        let refusal = if self.finished || self.game.outcome().is_some() {
            Some(Error::GameOver)
        } else if self.social.conceded.contains_key(&seat) {
            Some(Error::Conceded)
        } else if self.waiting_for_players() {
            Some(Error::BadInput(
                "the game has not started: there is nothing to concede yet".into(),
            ))
        } else {
            None
        };
        if let Some(e) = refusal {
            return self.send_to(conn, ServerMsg::error(e));
        }
        let store = Arc::clone(&self.store);
        let (id, at, epoch) = (self.id.clone(), self.seq, self.epoch);
        let stored = tokio::task::spawn_blocking(move || store.concede(&id, seat, at, epoch)).await;
        match stored {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => {
                return self.send_to(
                    conn,
                    ServerMsg::error(Error::BadInput("this seat cannot concede".into())),
                )
            }
            Ok(Err(e)) => {
                if matches!(e, StoreError::Fenced { .. }) {
                    self.moved_away(&e);
                }
                return self.send_to(conn, ServerMsg::error(Error::from(e)));
            }
            Err(e) => return self.send_to(conn, ServerMsg::error(Error::Internal(e.to_string()))),
        }
        tracing::info!(table = %self.id, seat = %seat, at, "a person conceded");
        self.social.conceded.insert(seat, at);
        self.last_activity = Instant::now();
        // The stand-in takes the decision now if it is the seat's.
        if self.game.to_move() == Some(seat) {
            self.turn_started = Instant::now();
        }
        self.broadcast();
    }

    pub(super) async fn fill(&mut self, seat: Seat, creator: &str, bot: &str) -> Result<(), Error> {
        if self.access.creator_hash.as_deref() != Some(sha256_hex(creator).as_str()) {
            return Err(Error::Forbidden(
                "only the table's creator may fill a seat".to_string(),
            ));
        }
        if self.finished {
            return Err(Error::SeatTaken("the game is over".to_string()));
        }
        match self.seats.get(seat.index()) {
            Some(s) if Self::free(s) => {}
            Some(_) => return Err(Error::SeatTaken(format!("{seat} is not a free seat"))),
            None => return Err(Error::BadInput(format!("this table has no seat {seat}"))),
        }
        let waited = unix_now().saturating_sub(self.created_at);
        let after = self.limits.fill_after.as_secs() as i64;
        if waited < after {
            return Err(Error::RateLimited {
                retry_after: (after - waited) as u64,
                message: format!(
                    "a seat can be given to a bot {after} s after the table was created"
                ),
            });
        }
        let external = Arc::clone(&self.ctx.external);
        crate::extbots::server_bot::<G>(bot, &external)?;
        // A bot program starts (and takes its process slot) at its first
        // decision; it is refused now if it could not run.
        let made = if external.offers_for(G::NAME, bot) {
            // A bot program plays only while a person is at its table:
            // one seat of a person must stay.
            let persons = self
                .seats
                .iter()
                .filter(|s| matches!(s.kind, SeatKind::Human { .. }))
                .count();
            if persons <= 1 {
                return Err(Error::BadInput(
                    "bot programs play only at a table with a person: give the last person's \
                     seat to a built-in level"
                        .to_string(),
                ));
            }
            let owner = self.access.owner.clone().unwrap_or_default();
            external.check(1, &owner, &self.metrics)?;
            None
        } else {
            Some(G::bot(bot, rand::random()).map_err(|e| Error::BadInput(e.to_string()))?)
        };
        let store = Arc::clone(&self.store);
        let (id, b, epoch) = (self.id.clone(), bot.to_string(), self.epoch);
        let filled = tokio::task::spawn_blocking(move || store.fill_seat(&id, seat, &b, epoch))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
            .inspect_err(|e| {
                if matches!(e, StoreError::Fenced { .. }) {
                    self.moved_away(e);
                }
            })?;
        if !filled {
            return Err(Error::SeatTaken(format!("{seat} is not a free seat")));
        }
        self.seats[seat.index()].kind = SeatKind::Bot(bot.to_string());
        if self.bots.len() <= seat.index() {
            self.bots.resize_with(seat.index() + 1, || None);
        }
        self.bots[seat.index()] = made;
        self.start_if_ready();
        Ok(())
    }
}
