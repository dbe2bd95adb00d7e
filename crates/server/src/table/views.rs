//! What each connection is sent: its seat's view, the public view, patches, the outbox.

use super::*;

impl<G: Roster> Table<G> {
    /// Sends each connection its message (neither a state nor an
    /// update: kept whatever follows); closes (with a reason) those too
    /// slow to take it, and drops those already gone.
    pub(super) fn send_all(&mut self, message: impl FnMut(&mut Sub) -> Option<String>) {
        self.send_all_as(Kind::Other, message);
    }

    /// [`Table::send_all`] for messages of `kind` (an update is dropped
    /// from a connection's outbox by a state queued after it).
    pub(super) fn send_all_as(
        &mut self,
        kind: Kind,
        mut message: impl FnMut(&mut Sub) -> Option<String>,
    ) {
        let mut subs = std::mem::take(&mut self.subs);
        let before = subs.len();
        subs.retain_mut(|sub| match message(sub) {
            None => true,
            Some(text) => {
                let ok = sub.out.send(kind, text);
                if !ok {
                    // Never forget a connection silently: it is told why
                    // and closed, and its client reconnects.
                    sub.out.kick(TOO_SLOW);
                    self.metrics.refused(crate::metrics::Refusal::SlowReader);
                }
                ok
            }
        });
        let dropped = subs.len() != before;
        self.subs = subs;
        if dropped {
            self.presence_changed(None);
        }
    }

    pub(super) fn send_to(&mut self, conn: u64, msg: ServerMsg) {
        if let Some(sub) = self.subs.iter().find(|s| s.conn == conn) {
            if !sub.out.try_send(msg.to_text()) {
                sub.out.kick(TOO_SLOW);
                self.metrics.refused(crate::metrics::Refusal::SlowReader);
            }
        }
    }

    pub(super) fn seat_statuses(&self) -> Vec<SeatStatus> {
        let n = self.seats.len().max(self.game.players());
        (0..n)
            .map(|i| {
                let seat = Seat::new(i);
                match self.seats.get(i).map(|s| &s.kind) {
                    Some(SeatKind::Human { name, token_hash }) => SeatStatus {
                        seat,
                        name: name.clone(),
                        kind: "human",
                        bot: None,
                        taken: token_hash.is_some(),
                        connected: self.subs.iter().any(|s| s.seat == Some(seat)),
                        conceded: self.social.conceded.contains_key(&seat),
                    },
                    Some(SeatKind::Bot(b)) => SeatStatus {
                        seat,
                        name: Some(b.clone()),
                        kind: "bot",
                        bot: Some(b.clone()),
                        taken: true,
                        connected: true,
                        conceded: false,
                    },
                    None => SeatStatus {
                        seat,
                        name: Some("heuristic".to_string()),
                        kind: "bot",
                        bot: Some("heuristic".to_string()),
                        taken: true,
                        connected: true,
                        conceded: false,
                    },
                }
            })
            .collect()
    }

    pub(super) fn status(&self) -> &'static str {
        if self.abandoned {
            "abandoned"
        } else if self.finished {
            "finished"
        } else if self.waiting_for_players() {
            "open"
        } else {
            "playing"
        }
    }

    pub(super) fn info(&self) -> serde_json::Value {
        let seats: Vec<serde_json::Value> = self
            .seat_statuses()
            .into_iter()
            .map(|s| {
                serde_json::json!({
                    "seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                    "taken": s.taken, "connected": s.connected,
                })
            })
            .collect();
        serde_json::json!({
            "id": self.id,
            "game": G::NAME,
            "players": self.players,
            "options": self.options,
            "seats": seats,
            "seq": self.seq,
            "status": self.status(),
            "public": self.access.public,
            "seed_hash": self.seed_hash,
            "seed": self.finished.then(|| self.seed.to_string()),
            "secret": self.revealed_secret(),
            "fair": self.fair.is_some(),
            "bot_delay_ms": self.config.bot_delay_ms,
            "turn_timer_ms": self.config.turn_timer_ms,
            "created_at": self.created_at,
            // seconds until the creator may give a free seat to a bot
            "fill_in_s": (self.created_at + self.limits.fill_after.as_secs() as i64)
                .saturating_sub(unix_now())
                .max(0),
        })
    }

    /// The JSON text of the view `sub` may see. `public` is the public
    /// view's, when a broadcast has already made it (one encoding for all
    /// spectators).
    pub(super) fn view_json(&self, seat: Option<Seat>, public: Option<&str>) -> String {
        // Until every human seat is taken nothing is dealt for real (a
        // fair deal's seed does not exist yet): everyone sees the table.
        // Room for a whole view at once: growing the buffer step by step
        // was a good part of the cost.
        let mut json = Vec::with_capacity(2048);
        let written = match seat {
            Some(seat) if !self.waiting_for_players() && seat.index() < self.game.players() => {
                serde_json::to_writer(&mut json, &self.game.view(seat))
            }
            _ => match public {
                Some(p) => return p.to_string(),
                None => serde_json::to_writer(&mut json, &self.game.public_view()),
            },
        };
        match written.map(|()| String::from_utf8(json)) {
            Ok(Ok(text)) => text,
            _ => {
                tracing::error!("a view does not serialize");
                "null".to_string()
            }
        }
    }

    /// What every message to `sub` carries besides the view: whose
    /// decision it is, the legal actions (only its own), and the events it
    /// may see that it has not had yet.
    pub(super) fn fresh(&self, sub: &mut Sub) -> Fresh {
        let started = !self.waiting_for_players();
        let mover = if self.finished {
            None
        } else {
            self.game.to_move()
        };
        // A seat whose person conceded is the stand-in's: its connection
        // watches, and is told no decision.
        let mine = sub.seat.is_some()
            && mover == sub.seat
            && !sub
                .seat
                .is_some_and(|s| self.social.conceded.contains_key(&s));
        let to_move = if mine {
            mover
        } else if self.finished {
            None
        } else {
            self.game.public_to_move()
        };
        let mut legal = Vec::new();
        if mine && started {
            let mut list = Vec::new();
            self.game.legal_actions(&mut list);
            legal = list.iter().map(ToString::to_string).collect();
        }
        let log = if started { self.game.events() } else { &[] };
        if sub.log_pos > log.len() {
            sub.log_pos = 0;
            sub.log_sent = 0;
        }
        let log_from = sub.log_sent;
        let lines: Vec<Box<RawValue>> = log[sub.log_pos..]
            .iter()
            .filter(|e| e.visible_to(sub.seat))
            .filter_map(|e| {
                serde_json::value::to_raw_value(&e.event)
                    .inspect_err(|x| tracing::error!("event does not serialize: {x}"))
                    .ok()
            })
            .collect();
        sub.log_pos = log.len();
        sub.log_sent += lines.len();
        Fresh {
            to_move,
            legal,
            log_from,
            log: lines,
            started,
        }
    }

    /// The whole state `sub` may see (on `hello` and `resync`): the view
    /// and every event from the first.
    pub(super) fn state_for(&self, sub: &mut Sub, seats: &[SeatStatus]) -> StateMsg {
        sub.log_pos = 0;
        sub.log_sent = 0;
        sub.view = self.view_json(sub.seat, None);
        let fresh = self.fresh(sub);
        let view = RawValue::from_string(sub.view.clone()).unwrap_or_else(|e| {
            tracing::error!("view is not JSON: {e}");
            RawValue::NULL.to_owned()
        });
        StateMsg {
            table: self.id.clone(),
            seat: sub.seat,
            rev: self.rev,
            seq: self.seq,
            view,
            legal: fresh.legal,
            to_move: fresh.to_move,
            log_from: fresh.log_from,
            log: fresh.log,
            over: self.finished,
            abandoned: self.abandoned,
            outcome: self.game.outcome(),
            seed_hash: self.seed_hash.clone(),
            seed: self.finished.then(|| self.seed.to_string()),
            secret: self.revealed_secret(),
            started: fresh.started,
            seats: seats.to_vec(),
            turn_left_ms: self.turn_left_ms(),
        }
    }

    /// The turn timer's time left for the person to move, if the table
    /// has a timer and a person is to move in a game under way. During a
    /// secret decision (D7) it is the same for everyone, whoever decides,
    /// and whatever the table's timer: the time left in the window after
    /// which the decision lands, if one is open, else nothing; a person's
    /// timer there would tell that a person holds the Jesters.
    pub(super) fn turn_left_ms(&self) -> Option<u64> {
        if self.finished || self.waiting_for_players() {
            return None;
        }
        let mover = self.game.to_move()?;
        if self.game.public_to_move().is_none() {
            let left = self
                .quiet
                .as_ref()?
                .until
                .saturating_duration_since(Instant::now());
            return Some(u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
        }
        let timer = self.config.turn_timer_ms?;
        if !matches!(self.player(mover), Player::Human) {
            return None;
        }
        let spent = u64::try_from(self.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Some(timer.saturating_sub(spent))
    }

    /// Sends `conn` its whole state; closes it if it is too slow to take
    /// it.
    pub(super) fn send_state(&mut self, conn: u64) {
        let seats = self.seat_statuses();
        if let Some(i) = self.subs.iter().position(|s| s.conn == conn) {
            let mut sub = self.subs.swap_remove(i);
            let msg = ServerMsg::State(Box::new(self.state_for(&mut sub, &seats)));
            if sub.out.send(Kind::State, msg.to_text()) {
                self.subs.push(sub);
            } else {
                sub.out.kick(TOO_SLOW);
                self.metrics.refused(crate::metrics::Refusal::SlowReader);
            }
        }
    }

    /// Sends every connection what changed for it: the new events, a
    /// patch of its view, the small fields whole. Closes connections whose
    /// outbox is full (too slow) and drops those already gone.
    pub(super) fn broadcast(&mut self) {
        self.rev += 1;
        let seats = self.seat_statuses();
        let seats_changed = seats != self.sent_seats;
        // Every seat's view holds the public view: its diff is made once
        // here and reused inside each seat's.
        let public = crate::patch::Shared::new(
            std::mem::take(&mut self.sent_public),
            self.view_json(None, None),
        );
        // The same for every connection.
        let outcome = self.game.outcome();
        let seed = self.finished.then(|| self.seed.to_string());
        let secret = self.revealed_secret();
        let mut subs = std::mem::take(&mut self.subs);
        let texts: Vec<String> = subs
            .iter_mut()
            .map(|sub| {
                let view = self.view_json(sub.seat, Some(public.new_text()));
                let patch = crate::patch::diff_with(&sub.view, &view, Some(&public));
                let patch = match RawValue::from_string(patch) {
                    Ok(patch) => {
                        sub.view = view;
                        patch
                    }
                    // Cannot happen (the texts are serde's); the client
                    // keeps the view it has, and so does `sub.view`.
                    Err(e) => {
                        tracing::error!("a patch is not JSON: {e}");
                        RawValue::from_string("[]".to_string()).expect("[] is JSON")
                    }
                };
                let fresh = self.fresh(sub);
                ServerMsg::Update(Box::new(UpdateMsg {
                    rev: self.rev,
                    seq: self.seq,
                    patch,
                    legal: fresh.legal,
                    to_move: fresh.to_move,
                    log_from: fresh.log_from,
                    log: fresh.log,
                    over: self.finished,
                    abandoned: self.abandoned,
                    started: fresh.started,
                    outcome: outcome.clone(),
                    seed: seed.clone(),
                    secret: secret.clone(),
                    seats: seats_changed.then(|| seats.clone()),
                }))
                .to_text()
            })
            .collect();
        self.subs = subs;
        self.sent_seats = seats;
        self.sent_public = public.into_new();
        let mut texts = texts.into_iter();
        self.send_all_as(Kind::Update, |_| texts.next());
    }
}

/// See [`Table::fresh`].
pub(super) struct Fresh {
    pub(super) to_move: Option<Seat>,
    pub(super) legal: Vec<String>,
    pub(super) log_from: usize,
    pub(super) log: Vec<Box<RawValue>>,
    pub(super) started: bool,
}
