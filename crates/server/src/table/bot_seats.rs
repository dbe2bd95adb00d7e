//! The table's bots: the bot of each seat a bot plays, the stand-ins
//! that play for people away (and for programs without a process slot),
//! the operator's bot programs and their process slots, and the one
//! decision being thought about off the table's task.
//!
//! Why a part of its own: a bot is lent to a blocking thread while it
//! thinks and handed back with its answer, a bot program hears its seat's
//! events before each decision and at the end, and a program's process
//! and slot must end with the table; all of that bookkeeping is here,
//! while whose turn it is and what a decision does stay the table's.

use super::result::Decided;
use crate::extbots::ExternalBots;
use crate::metrics::Metrics;
use bots::{Bot, Roster};
use game::{Game, Outcome, Seat};
use std::sync::Arc;
use tokio::sync::{oneshot, Semaphore};

/// A bot's decision being computed off the table's task.
pub(super) struct Thinking<G: Roster> {
    /// The table's seq when it started: a decision for an older position
    /// is dropped.
    pub(super) seq: u64,
    pub(super) seat: Seat,
    pub(super) stand_in: bool,
    answer: oneshot::Receiver<Thought<G>>,
}

/// What a bot hands back: itself, the legal list, its choice, and the
/// strikes it earned (a bot program's).
pub(super) type Thought<G> = (
    Box<dyn Bot<G>>,
    Vec<<G as Game>::Action>,
    <G as Game>::Action,
    Vec<String>,
);

/// What a listening bot (a bot program) hears before a decision or at
/// the end: `start` if it has not started yet, then its seat's events
/// since it last heard.
pub(super) struct Hearing<G: Game> {
    start: Option<(Seat, usize, G::Options)>,
    events: Vec<G::Event>,
}

impl<G: Game> Hearing<G> {
    fn tell(self, bot: &mut dyn Bot<G>) {
        if let Some((seat, players, options)) = self.start {
            bot.start(seat, players, &options);
        }
        for e in &self.events {
            bot.observe(e);
        }
    }
}

/// Grows `v` to hold index `i`.
fn grow<T: Clone>(v: &mut Vec<T>, i: usize, fill: T) {
    if v.len() <= i {
        v.resize(i + 1, fill);
    }
}

/// See the module docs.
pub(super) struct BotSeats<G: Roster> {
    table: Arc<str>,
    metrics: Arc<Metrics>,
    /// The bot of each seat: a built-in bot, a bot program once started,
    /// `None` for a person (or a program not started).
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    /// Per seat, for a listening bot (a bot program): `None` before its
    /// `start`, then how much of the game's log it has heard.
    heard: Vec<Option<usize>>,
    /// Heuristic bots playing for absent humans (and unconfigured seats
    /// that join a Dalmuti session, and bot programs without a process
    /// slot), made on first use.
    stand_ins: Vec<Option<Box<dyn Bot<G>>>>,
    /// Per seat: a bot program found no free process slot (logged once).
    no_slot: Vec<bool>,
    /// Per seat: its bot program was started in this load of the table (a
    /// program lost later is not started again: the stand-in plays on).
    program_started: Vec<bool>,
    /// Per seat, in this load of the table: the decisions its bot made,
    /// and how many of them a stand-in made instead (no process slot, or
    /// the program's failures). A bot program's seat over
    /// [`extbot::STAND_IN_LIMIT`] is credited to the stand-in.
    decided: Vec<Decided>,
    thinking: Option<Thinking<G>>,
    /// The legal actions' buffer, kept between decisions.
    legal: Vec<G::Action>,
}

impl<G: Roster> BotSeats<G> {
    pub(super) fn new(
        table: Arc<str>,
        metrics: Arc<Metrics>,
        bots: Vec<Option<Box<dyn Bot<G>>>>,
    ) -> BotSeats<G> {
        BotSeats {
            table,
            metrics,
            bots,
            heard: Vec::new(),
            stand_ins: Vec::new(),
            no_slot: Vec::new(),
            program_started: Vec::new(),
            decided: Vec::new(),
            thinking: None,
            legal: Vec::new(),
        }
    }

    /// Per seat, the decisions its bot made in this load of the table.
    pub(super) fn decided(&self) -> &[Decided] {
        &self.decided
    }

    /// Whether a decision is being thought about.
    pub(super) fn thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The answer of the decision being thought about, awaited.
    pub(super) async fn answer(&mut self) -> Result<Thought<G>, oneshot::error::RecvError> {
        match self.thinking.as_mut() {
            Some(t) => (&mut t.answer).await,
            None => std::future::pending().await,
        }
    }

    /// Puts the bot of `seat` in place (a seat filled with a bot).
    pub(super) fn set(&mut self, seat: Seat, bot: Option<Box<dyn Bot<G>>>) {
        let i = seat.index();
        if self.bots.len() <= i {
            self.bots.resize_with(i + 1, || None);
        }
        self.bots[i] = bot;
    }

    /// What the listening bot of `seat` has not heard yet (see
    /// [`Hearing`]): only events visible to its seat.
    fn hearing(&mut self, seat: Seat, game: &G, options: &G::Options) -> Hearing<G> {
        let i = seat.index();
        grow(&mut self.heard, i, None);
        let start = self.heard[i]
            .is_none()
            .then(|| (seat, game.players(), options.clone()));
        let log = game.events();
        let from = self.heard[i].unwrap_or(0).min(log.len());
        let events = log[from..]
            .iter()
            .filter(|e| e.visible_to(Some(seat)))
            .map(|e| e.event.clone())
            .collect();
        self.heard[i] = Some(log.len());
        Hearing { start, events }
    }

    /// Logs and counts a bot program's strikes.
    fn strikes(&self, seat: Seat, strikes: Vec<String>) {
        for reason in strikes {
            tracing::warn!(table = %self.table, seat = %seat, "bot strike: {reason}");
            self.metrics.bot_strike();
        }
    }

    /// The game is over (or abandoned: `outcome` is `None`): each bot
    /// program at the table hears the rest of its seat's events and the
    /// outcome, and its process ends, all on the blocking pool; its slot
    /// is given back.
    pub(super) fn release(&mut self, game: &G, options: &G::Options, outcome: Option<Outcome>) {
        for i in 0..self.bots.len() {
            if !self.bots[i].as_ref().is_some_and(|b| b.listens()) {
                continue;
            }
            let Some(mut bot) = self.bots[i].take() else {
                continue;
            };
            let seat = Seat::new(i);
            let started = self.heard.get(i).is_some_and(Option::is_some);
            let hearing = started.then(|| self.hearing(seat, game, options));
            let outcome = outcome.clone();
            let (metrics, id) = (Arc::clone(&self.metrics), Arc::clone(&self.table));
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

    /// Starts the bot of `seat` (or its stand-in) thinking about its
    /// decision at `game` (`seq` actions played), off the table's task; a
    /// built-in bot behind the server-wide `gate`. False if the seat has
    /// no decision or no bot could be made (the table tries again later).
    pub(super) fn think(
        &mut self,
        seat: Seat,
        game: &G,
        options: &G::Options,
        seq: u64,
        gate: &Arc<Semaphore>,
    ) -> bool {
        let i = seat.index();
        let view = game.view(seat);
        game.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return true;
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
                            return false;
                        }
                    },
                }
            }
        };
        let legal = std::mem::take(&mut self.legal);
        let listens = bot.listens();
        let hearing = listens.then(|| self.hearing(seat, game, options));
        // The gate bounds the CPU bots take from the people. A bot program
        // mostly waits for its process (up to its time limit, or its
        // start-up): it does not queue behind the gate, nor hold it, and
        // the process cap (`--bot-processes`) bounds how many wait.
        let gate = (!listens).then(|| Arc::clone(gate));
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
            seq,
            seat,
            stand_in,
            answer,
        });
        true
    }

    /// A decision came back: its bot is put back in its place and its
    /// decision counted. The decision (`None` if the bot failed: the seat
    /// falls back to a stand-in next time) and who was thinking.
    pub(super) fn answered(
        &mut self,
        thought: Result<Thought<G>, oneshot::error::RecvError>,
    ) -> Option<(Thinking<G>, Option<G::Action>)> {
        let thinking = self.thinking.take()?;
        let i = thinking.seat.index();
        let Ok((mut bot, legal, action, strikes)) = thought else {
            tracing::error!(table = %self.table, "a bot failed");
            return Some((thinking, None));
        };
        self.strikes(thinking.seat, strikes);
        grow(&mut self.decided, i, Decided::default());
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
        Some((thinking, Some(action)))
    }

    /// Whether a bot program is running at the table.
    pub(super) fn programs_running(&self) -> bool {
        self.bots
            .iter()
            .any(|b| b.as_ref().is_some_and(|b| b.listens()))
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
        tracing::debug!(table = %self.table, "nobody at the table: its bot programs stopped");
    }

    /// Starts the bot program `name` of `seat` if it is not started yet:
    /// takes a process slot for it (the caps of `crate::extbots`, counted
    /// against `owner`, the address that made the table) and makes it; the
    /// process starts when the bot is first told something. Without a free
    /// slot the seat is played by the heuristic bot (logged once per seat)
    /// until it finds one.
    pub(super) fn start_program(
        &mut self,
        seat: Seat,
        name: &str,
        owner: &str,
        external: &ExternalBots,
    ) {
        let i = seat.index();
        if self.bots.get(i).is_some_and(Option::is_some)
            || self.program_started.get(i).copied().unwrap_or(false)
        {
            return;
        }
        let Some(slot) = external.take(owner, &self.metrics) else {
            grow(&mut self.no_slot, i, false);
            if !std::mem::replace(&mut self.no_slot[i], true) {
                tracing::warn!(table = %self.table, seat = %seat, bot = %name,
                    "no free bot process slot: the heuristic bot plays the seat until one is free");
            }
            return;
        };
        match external.make::<G>(name, slot, &self.metrics.bot_processes, rand::random()) {
            Ok(bot) => {
                self.set(seat, Some(bot));
                // A new process hears `start` and the whole game so far.
                grow(&mut self.heard, i, None);
                self.heard[i] = None;
                grow(&mut self.program_started, i, false);
                self.program_started[i] = true;
            }
            Err(e) => tracing::error!(table = %self.table, seat = %seat, "bot program {name}: {e}"),
        }
    }
}

impl<G: Roster> Drop for BotSeats<G> {
    /// The table task ends (the game left memory, or the server closes):
    /// its bot programs end too, off the runtime (their end blocks).
    fn drop(&mut self) {
        for slot in &mut self.bots {
            if slot.as_ref().is_some_and(|b| b.listens()) {
                if let Some(bot) = slot.take() {
                    crate::extbots::drop_off_runtime(bot);
                }
            }
        }
    }
}
