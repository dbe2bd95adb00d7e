//! Bots at the table: whose turn, thinking off the task, bot programs' processes.

use super::*;

impl<G: Roster> Table<G> {
    /// The game is over (or abandoned): each bot program at the table
    /// hears the rest of its seat's events and the outcome, and its
    /// process ends, all on the blocking pool; its slot is given back.
    pub(super) fn release_bots(&mut self) {
        let outcome = if self.abandoned {
            None
        } else {
            self.game.outcome()
        };
        for i in 0..self.bots.len() {
            if !self.bots[i].as_ref().is_some_and(|b| b.listens()) {
                continue;
            }
            let Some(mut bot) = self.bots[i].take() else {
                continue;
            };
            let seat = Seat::new(i);
            let started = self.heard.get(i).is_some_and(Option::is_some);
            let hearing = if started { self.hearing(seat) } else { None };
            let outcome = outcome.clone();
            let (metrics, id) = (Arc::clone(&self.metrics), self.id.clone());
            tokio::task::spawn_blocking(move || {
                if let Some(h) = hearing {
                    h.tell(bot.as_mut());
                    if let Some(o) = &outcome {
                        bot.finish(o);
                    }
                }
                for reason in bot.take_strikes() {
                    tracing::warn!(table = %id, seat = %seat, "bot strike: {reason}");
                    metrics.bot_strike();
                }
                drop(bot);
            });
        }
    }

    /// Starts the bot (or the absent human's stand-in) of the seat to move
    /// thinking, off this task, behind the server-wide gate.
    pub(super) fn bot_turn(&mut self) {
        let Some(seat) = self.game.to_move() else {
            return;
        };
        let i = seat.index();
        let view = self.game.view(seat);
        self.game.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return;
        }
        // A program that found no slot when the game started tries again
        // at its decisions, but never during a hidden decision (D7): when
        // it starts would tell whose decision it is.
        if self.game.public_to_move().is_some() {
            self.start_program(seat);
        }
        let (mut bot, stand_in) = match self.bots.get_mut(i).and_then(Option::take) {
            Some(b) => (b, false),
            None => {
                if self.stand_ins.len() <= i {
                    self.stand_ins.resize_with(i + 1, || None);
                }
                match self.stand_ins[i].take() {
                    Some(b) => (b, true),
                    None => match G::bot("heuristic", rand::random()) {
                        Ok(b) => (b, true),
                        Err(e) => {
                            tracing::error!("no heuristic bot: {e}");
                            self.turn_started = Instant::now();
                            return;
                        }
                    },
                }
            }
        };
        let legal = std::mem::take(&mut self.legal);
        let listens = bot.listens();
        let hearing = if listens { self.hearing(seat) } else { None };
        // The gate bounds the CPU bots take from the people. A bot program
        // mostly waits for its process (up to its time limit, or its
        // start-up): it does not queue behind the gate, nor hold it, and
        // the process cap (`--bot-processes`) bounds how many wait.
        let gate = (!listens).then(|| Arc::clone(&self.bot_gate));
        let (reply, answer) = oneshot::channel();
        tokio::spawn(async move {
            let _permit = match gate {
                Some(gate) => match gate.acquire_owned().await {
                    Ok(permit) => Some(permit),
                    Err(_) => {
                        crate::extbots::drop_off_runtime(bot);
                        return;
                    }
                },
                None => None,
            };
            // A search bot spends up to a tenth of a second per decision,
            // which must not stall the runtime's worker threads; a bot
            // program up to its time limit (and its start-up), and its
            // messages go from here too.
            let thought = tokio::task::spawn_blocking(move || {
                if let Some(h) = hearing {
                    h.tell(bot.as_mut());
                }
                let action = bot.choose(&view, &legal);
                let strikes = bot.take_strikes();
                (bot, legal, action, strikes)
            })
            .await;
            if let Ok(t) = thought {
                // The table went away meanwhile: a bot program's end
                // blocks, so it is not dropped here.
                if let Err(t) = reply.send(t) {
                    crate::extbots::drop_off_runtime(t);
                }
            }
        });
        self.thinking = Some(Thinking {
            seq: self.seq,
            seat,
            stand_in,
            answer,
        });
    }

    /// Whether `seat` is played by one of the operator's bot programs.
    pub(super) fn program_seat(&self, seat: Seat) -> bool {
        matches!(self.seats.get(seat.index()).map(|s| &s.kind),
            Some(SeatKind::Bot(name)) if self.ctx.external.offers_for(G::NAME, name))
    }

    /// When the table's running bot programs stop: [`PROGRAMS_GRACE`]
    /// after the last person left, unless one of them is deciding (then
    /// once it has).
    pub(super) fn programs_deadline(&self) -> Option<Instant> {
        let running = self
            .bots
            .iter()
            .any(|b| b.as_ref().is_some_and(|b| b.listens()));
        let since = self.alone_since?;
        (running && self.thinking.is_none()).then(|| since + PROGRAMS_GRACE)
    }

    /// Nobody is at the table any more: its bot programs end (off the
    /// runtime) and give their process slots back; they start again,
    /// fresh, and hear the game so far, when a person is back.
    pub(super) fn stop_programs(&mut self) {
        for i in 0..self.bots.len() {
            if !self.bots[i].as_ref().is_some_and(|b| b.listens()) {
                continue;
            }
            if let Some(bot) = self.bots[i].take() {
                crate::extbots::drop_off_runtime(bot);
            }
            if let Some(started) = self.program_started.get_mut(i) {
                *started = false;
            }
            if let Some(heard) = self.heard.get_mut(i) {
                *heard = None;
            }
        }
        tracing::debug!(table = %self.id, "nobody at the table: its bot programs stopped");
    }

    /// Starts every bot program of the table, together, when the game
    /// starts (or is loaded under way): whose program starts when must
    /// say nothing of the game, the hidden D7 decision least of all.
    pub(super) fn start_programs(&mut self) {
        for i in 0..self.seats.len() {
            self.start_program(Seat::new(i));
        }
    }

    /// If `seat` is a bot program's not started yet, takes a process slot
    /// for it (the caps of `crate::extbots`, counted against the address
    /// that made the table) and makes it; the process starts when the bot
    /// is first told something. Without a free slot the seat is played by
    /// the heuristic bot (logged once per seat) until it finds one.
    pub(super) fn start_program(&mut self, seat: Seat) {
        let i = seat.index();
        let name = match self.seats.get(i).map(|s| &s.kind) {
            Some(SeatKind::Bot(name)) if self.ctx.external.offers_for(G::NAME, name) => {
                name.clone()
            }
            _ => return,
        };
        if self.finished
            || self.bots.get(i).is_some_and(Option::is_some)
            || self.program_started.get(i).copied().unwrap_or(false)
        {
            return;
        }
        let owner = self.access.owner.clone().unwrap_or_default();
        let Some(slot) = self.ctx.external.take(&owner, &self.metrics) else {
            if self.no_slot.len() <= i {
                self.no_slot.resize(i + 1, false);
            }
            if !std::mem::replace(&mut self.no_slot[i], true) {
                tracing::warn!(table = %self.id, seat = %seat, bot = %name,
                    "no free bot process slot: the heuristic bot plays the seat until one is free");
            }
            return;
        };
        let made =
            self.ctx
                .external
                .make::<G>(&name, slot, &self.metrics.bot_processes, rand::random());
        match made {
            Ok(bot) => {
                if self.bots.len() <= i {
                    self.bots.resize_with(i + 1, || None);
                }
                if self.heard.len() <= i {
                    self.heard.resize(i + 1, None);
                }
                // A new process hears `start` and the whole game so far.
                self.heard[i] = None;
                self.bots[i] = Some(bot);
                if self.program_started.len() <= i {
                    self.program_started.resize(i + 1, false);
                }
                self.program_started[i] = true;
            }
            Err(e) => tracing::error!(table = %self.id, seat = %seat, "bot program {name}: {e}"),
        }
    }

    pub(super) async fn bot_answer(
        &mut self,
        thought: Result<Thought<G>, oneshot::error::RecvError>,
    ) {
        let Some(thinking) = self.thinking.take() else {
            return;
        };
        let (seat, i) = (thinking.seat, thinking.seat.index());
        let Ok((mut bot, legal, action, strikes)) = thought else {
            // The bot panicked: the seat falls back to a stand-in next time.
            tracing::error!(table = %self.id, "a bot failed");
            self.turn_started = Instant::now();
            return;
        };
        self.strikes(seat, strikes);
        if self.decided.len() <= i {
            self.decided.resize(i + 1, Decided::default());
        }
        self.decided[i].all += 1;
        self.decided[i].stand_in += if thinking.stand_in {
            1
        } else {
            bot.take_stand_in()
        };
        self.legal = legal;
        if thinking.stand_in {
            self.stand_ins[i] = Some(bot);
        } else {
            self.bots[i] = Some(bot);
        }
        if self.finished {
            self.release_bots();
            return;
        }
        if thinking.seq != self.seq {
            return;
        }
        if let Err(e) = self.game.check_as(seat, action) {
            tracing::error!(table = %self.id, "bot chose an illegal action {action}: {e}");
            self.turn_started = Instant::now();
            return;
        }
        if let Some(quiet) = self.quiet.as_mut() {
            quiet.pending = Some((seat, action, thinking.stand_in));
            return;
        }
        // Whether to tell everyone that a person's decision was a stand-in's:
        // only for a public decision (D7: a hidden one would name its holder).
        let person = thinking.stand_in
            && matches!(self.player(seat), Player::Human)
            && self.game.public_to_move() == Some(seat);
        let away = self.absent_since[i].is_some();
        if let Err(e) = self.commit(seat, action, thinking.stand_in).await {
            tracing::error!(table = %self.id, "storing a bot action failed: {e}");
            // Try again after another delay.
            self.turn_started = Instant::now();
            return;
        }
        if person {
            let text = ServerMsg::StandIn { seat, away }.to_text();
            self.send_all(|_| Some(text.clone()));
        }
    }
}
