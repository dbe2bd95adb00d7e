//! One task per live table: it owns the game, the seats, the bots and the
//! connections' outboxes, and is the only writer of its table.
//!
//! The task is generic over the game (`G: Roster`); the rest of the server
//! talks to it only through [`TableHandle`], a channel of game-agnostic
//! [`Command`]s, so the registry holds tables of both games without a trait
//! object. Every action is checked by the engine, appended to the store
//! (transaction committed, through `spawn_blocking`) and only then applied
//! and broadcast. Each connection is sent what its seat may know: its own
//! view and the game events visible to it; a spectator the public view. No
//! lock exists here at all: the task's state is its own.
//!
//! Bounds (issue 8): a connection too slow to take its messages is closed
//! with a reason rather than forgotten (F2); joins and leaves send a small
//! `presence` message, never a state to everyone (F8); a table nobody
//! watches pauses and, after a while, leaves memory (F5, F6); bots think
//! on the blocking pool behind a server-wide gate, while the table keeps
//! answering; and a secret decision (D7) takes effect at a fixed time
//! whoever makes it (F4).

use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::protocol::{SeatStatus, ServerMsg, StateMsg, UpdateMsg};
use crate::store::{
    Access, Epoch, SeatKind, Store, StoreError, StoredAction, StoredFair, StoredSeat, StoredTable,
    TableConfig,
};
use crate::{Limits, Registry, TableCtx};
use bots::{Bot, Roster};
use game::{ActError, Game, GameOptions, Record, Seat};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch, Semaphore};
use tokio::time::Instant;

/// Why a connection is being closed by the server: a WebSocket close code
/// and a reason the client can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kick {
    /// The close code (1008 policy, 1013 try again later).
    pub code: u16,
    /// The reason, in words.
    pub reason: &'static str,
}

/// Where a connection's messages go: JSON text, and a way to close it
/// with a reason when it cannot keep up.
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<String>,
    kick: Arc<watch::Sender<Option<Kick>>>,
}

/// The receiving ends of an [`Outbox`]: the messages and the close order.
pub type OutboxRx = (mpsc::Receiver<String>, watch::Receiver<Option<Kick>>);

impl Outbox {
    /// An outbox holding at most `capacity` unsent messages.
    pub fn new(capacity: usize) -> (Outbox, OutboxRx) {
        let (tx, rx) = mpsc::channel(capacity);
        let (kick, kicked) = watch::channel(None);
        (
            Outbox {
                tx,
                kick: Arc::new(kick),
            },
            (rx, kicked),
        )
    }

    /// Queues a message; `false` if the outbox is full or closed.
    pub fn try_send(&self, text: String) -> bool {
        self.tx.try_send(text).is_ok()
    }

    /// A receiver of the close order (the connection's receive loop stops
    /// on it).
    pub fn kicked(&self) -> watch::Receiver<Option<Kick>> {
        self.kick.subscribe()
    }

    /// Orders the connection closed with `kick` (the first order counts).
    pub fn kick(&self, kick: Kick) {
        self.kick.send_if_modified(|k| {
            let first = k.is_none();
            if first {
                *k = Some(kick);
            }
            first
        });
    }
}

/// The close order for the connections of a table another process took
/// over: reconnecting reaches it (1012, service restart).
pub const MOVED: Kick = Kick {
    code: 1012,
    reason: "the table moved to another server process: reconnecting",
};

/// The close order for a connection that does not read its messages.
pub const TOO_SLOW: Kick = Kick {
    code: 1013,
    reason: "too slow to read the table's messages: reconnect",
};

/// What the rest of the server may ask of a table.
#[derive(Debug)]
pub enum Command {
    /// A connection says hello (with a seat token, or none to spectate).
    /// The answer is its seat; on a bad token the error has already been
    /// sent to `out`.
    Hello {
        /// The connection id.
        conn: u64,
        /// The seat token, if any.
        token: Option<String>,
        /// The person's contribution to a rematch's fair deal (a rematch's
        /// seats are taken when it is made: each person contributes when
        /// they arrive).
        contribution: Option<[u8; 32]>,
        /// Where the connection's messages go.
        out: Outbox,
        /// The seat (`None` = spectator), or `Err` for a bad token.
        reply: oneshot::Sender<Result<Option<Seat>, ()>>,
    },
    /// A connection acts for its seat. Errors and new states go to its
    /// outbox.
    Act {
        /// The connection id.
        conn: u64,
        /// The actions the client has seen.
        seq: u64,
        /// The action text.
        action: String,
    },
    /// A connection asks for its whole state again.
    Resync {
        /// The connection id.
        conn: u64,
    },
    /// A connection went away.
    Leave {
        /// The connection id.
        conn: u64,
    },
    /// A person joins a free human seat.
    Join {
        /// The seat asked for, or the first free one.
        seat: Option<Seat>,
        /// The display name, already cleaned.
        name: String,
        /// The invite key (private tables).
        key: Option<String>,
        /// The person's random contribution to a fair deal.
        contribution: Option<[u8; 32]>,
        /// The person's identity (the hash of their key), if they sent one.
        player: Option<String>,
        /// Where they join from ([`crate::social::origin`]).
        origin: String,
        /// The seat, its token, and the table's published commitment (the
        /// player's browser keeps it beside its contribution).
        reply: oneshot::Sender<Result<(Seat, String, String), Error>>,
    },
    /// The creator gives a human seat nobody joined to a bot.
    Fill {
        /// The seat.
        seat: Seat,
        /// The creator's token.
        creator: String,
        /// The bot.
        bot: String,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Error>>,
    },
    /// The store ended the table as abandoned.
    Abandoned,
    /// Leave memory now and close every connection so it reconnects
    /// (this process is draining, or lost its lease): another process, or
    /// this one again, takes the table over from the store.
    Relinquish,
    /// A seated player asks for a rematch of this finished table: every
    /// player of it comes along (issue 11).
    Rematch {
        /// The asker's seat token.
        token: String,
        /// The asker's client address (the new table's owner for the
        /// live-table caps).
        owner: String,
        /// The new table, the asker's seat there and its token.
        reply: oneshot::Sender<Result<Rematched, Error>>,
    },
    /// A seated connection says something in the table's chat.
    Chat {
        /// The connection id.
        conn: u64,
        /// The connection's client address (a spectator's chat budget).
        who: crate::net::ClientAddr,
        /// What was said: cleaned text or an emote code.
        said: crate::social::Said,
    },
    /// The table's public description (lobby `GET /api/tables/{id}`).
    Info {
        /// The JSON answer.
        reply: oneshot::Sender<serde_json::Value>,
    },
}

/// The answer to a rematch request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rematched {
    /// The new table.
    pub id: String,
    /// The asker's seat there (the same as at the old table).
    pub seat: Seat,
    /// The asker's seat token there: their own token of the old table,
    /// which the new table's seat takes over.
    pub token: String,
}

/// The way to reach a table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    tx: mpsc::Sender<Command>,
}

impl TableHandle {
    /// Sends a command; `Err` if the task has stopped.
    pub async fn send(&self, cmd: Command) -> Result<(), Error> {
        self.tx
            .send(cmd)
            .await
            .map_err(|_| Error::Internal("table task stopped".to_string()))
    }

    /// Sends a command, or hands it back if the task has stopped (it left
    /// memory), so the caller can load the table again.
    pub(crate) async fn try_deliver(&self, cmd: Command) -> Result<(), Command> {
        self.tx.send(cmd).await.map_err(|e| e.0)
    }

    /// Whether the task has stopped.
    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

pub(crate) use registry::fair::sha256_hex;

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The stored table as a game record (actions as `SEAT ACTION`).
pub fn record_of(t: &StoredTable) -> Record {
    Record {
        game: t.game.clone(),
        rules_version: t.rules_version.clone(),
        players: t.players,
        options: t.options.clone(),
        seed: t.seed,
        actions: t
            .actions
            .iter()
            .map(|a| format!("{} {}", a.seat, a.action))
            .collect(),
        outcome: None,
        seed_hash: t.fair.is_none().then(|| t.seed_hash.clone()),
        fairness: t.fair.as_ref().map(|f| f.fairness(t.finished_at.is_some())),
    }
}

/// Starts the task of a stored table (new, or loaded by replaying its
/// actions). A bot program's seat takes its process slot when it first
/// has to decide (see `crate::extbots`).
pub(crate) fn spawn(
    stored: StoredTable,
    ctx: TableCtx,
    epoch: Epoch,
) -> Result<TableHandle, String> {
    crate::with_game!(stored.game.as_str(), G => spawn_game::<G>(stored, ctx, epoch),
        _ => Err(format!("unknown game `{}`", stored.game)))
}

/// How many of `seats` are played by a bot program (`ratrace serve --bot`).
pub(crate) fn external_seats(seats: &[StoredSeat], external: &ExternalBots) -> usize {
    seats
        .iter()
        .filter(|s| matches!(&s.kind, SeatKind::Bot(name) if external.offers(name)))
        .count()
}

/// A finished game's result as the store records it (for its ratings):
/// the outcome, and who played each seat (a person by identity and
/// origin, a bot by level). `None` if the outcome does not serialize.
pub(crate) fn result_of(
    game: &str,
    seats: &[StoredSeat],
    social: &crate::store::Social,
    public: bool,
    actions: usize,
    outcome: &game::Outcome,
) -> Option<crate::social::GameResult> {
    use crate::social::Rated;
    let json = serde_json::to_string(outcome).ok()?;
    let rated = (0..outcome.places.len())
        .map(|i| {
            let seat = Seat::new(i);
            match seats.get(i).map(|s| &s.kind) {
                Some(SeatKind::Human { name, .. }) => match social.players.get(&seat) {
                    Some(id) => Rated::Person {
                        id: id.clone(),
                        name: name.clone().unwrap_or_default(),
                        origin: social.origins.get(&seat).cloned(),
                    },
                    None => Rated::Nobody,
                },
                Some(SeatKind::Bot(b)) => Rated::Bot(b.clone()),
                None => Rated::Bot("heuristic".to_string()),
            }
        })
        .collect();
    Some(crate::social::GameResult {
        game: game.to_string(),
        outcome: json,
        places: outcome.places.clone(),
        capped: outcome.capped,
        seats: rated,
        at: unix_now(),
        public,
        actions,
    })
}

/// Records the results a crash left unwritten: every table whose game
/// ended by the rules without its result (the end and the result are two
/// writes) is replayed, and its result and rating updates written, once
/// (the store writes a result only where there is none). Returns how many.
pub fn record_missing_results(store: &dyn Store) -> usize {
    const BATCH: usize = 500;
    let mut recorded = 0;
    let mut after = String::new();
    loop {
        let ids = match store.unrecorded_ids(&after, BATCH) {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("results to repair: {e}");
                return recorded;
            }
        };
        for id in &ids {
            let Ok(Some(t)) = store.load(id) else {
                continue;
            };
            let outcome = crate::with_game!(t.game.as_str(), G => record_of(&t)
                .replay::<G>(false, |_, _, _| {})
                .map(|g| g.outcome()),
                _ => Ok(None));
            let result = match outcome {
                Ok(Some(o)) => result_of(
                    &t.game,
                    &t.seats,
                    &t.social,
                    t.access.public,
                    t.actions.len(),
                    &o,
                ),
                Ok(None) => None,
                Err(e) => {
                    tracing::error!("table {id} does not replay: {e}");
                    None
                }
            };
            match result.map(|r| store.record_result(id, &r)) {
                Some(Ok(true)) => recorded += 1,
                Some(Ok(false)) | None => {}
                Some(Err(e)) => tracing::error!("recording the result of {id}: {e}"),
            }
        }
        // Walked by id, so a table that does not replay (logged) is passed
        // once, not asked again.
        match ids.last() {
            Some(last) if ids.len() == BATCH => after.clone_from(last),
            _ => return recorded,
        }
    }
}

/// Replays every unfinished table of `store` and marks those whose game
/// is over (a crash between an old server's last action and its separate
/// end mark, F3), then records the results a crash left unwritten
/// ([`record_missing_results`]). Returns how many tables it repaired.
pub fn repair_all(store: &dyn Store) -> usize {
    let ids = store.unfinished_ids().unwrap_or_else(|e| {
        tracing::error!("repair: {e}");
        Vec::new()
    });
    let mut repaired = 0;
    for id in ids {
        let Ok(Some(t)) = store.load(&id) else {
            continue;
        };
        let over = crate::with_game!(t.game.as_str(), G => record_of(&t)
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome().is_some()),
            _ => Ok(false));
        match over {
            Ok(true) => match store.mark_finished(&id, unix_now()) {
                Ok(()) => repaired += 1,
                Err(e) => tracing::error!("repair {id}: {e}"),
            },
            Ok(false) => {}
            Err(e) => tracing::error!("table {id} does not replay: {e}"),
        }
    }
    repaired + record_missing_results(store)
}

fn spawn_game<G: Roster>(
    stored: StoredTable,
    ctx: TableCtx,
    epoch: Epoch,
) -> Result<TableHandle, String> {
    for (i, a) in stored.actions.iter().enumerate() {
        if a.seq != i as u64 + 1 {
            return Err(format!(
                "table {}: action seq {} out of order",
                stored.id, a.seq
            ));
        }
    }
    let game: G = record_of(&stored)
        .replay(true, |_, _, _| {})
        .map_err(|e| format!("table {}: {e}", stored.id))?;
    let now = Instant::now();
    let over = game.outcome().is_some();
    let ended = over || stored.finished_at.is_some();
    let mut bots: Vec<Option<Box<dyn Bot<G>>>> = Vec::new();
    for s in &stored.seats {
        bots.push(match &s.kind {
            // A bot program starts (and takes its slot) at its seat's
            // first decision: `Table::bot_turn`.
            SeatKind::Bot(name) if ctx.external.offers(name) => None,
            SeatKind::Bot(name) => match G::bot(name, rand::random()) {
                Ok(b) => Some(b),
                // A bot program this server no longer offers (started
                // without its --bot): the heuristic bot plays the seat.
                Err(e) => {
                    if !ended {
                        tracing::warn!(table = %stored.id, seat = %s.seat,
                            "{e}: the heuristic bot plays the seat");
                    }
                    None
                }
            },
            SeatKind::Human { .. } => None,
        });
    }
    let repair = over && stored.finished_at.is_none();
    let (tx, rx) = mpsc::channel(256);
    let mut table = Table {
        id: stored.id,
        seq: stored.actions.len() as u64,
        options: stored.options,
        players: stored.players,
        seed: stored.seed,
        seed_hash: stored.seed_hash,
        fair: stored.fair,
        config: stored.config,
        created_at: stored.created_at,
        access: stored.access,
        social: stored.social,
        chat: crate::social::ChatLog::default(),
        chat_meter: crate::social::ChatMeter::default(),
        ctx: ctx.clone(),
        heard: vec![None; stored.seats.len()],
        seats: stored.seats,
        bots,
        stand_ins: Vec::new(),
        no_slot: Vec::new(),
        program_started: Vec::new(),
        game,
        subs: Vec::new(),
        rev: 0,
        sent_seats: Vec::new(),
        sent_public: String::new(),
        absent_since: [Some(now); Seat::MAX],
        turn_started: now,
        last_activity: now,
        finished: over || stored.finished_at.is_some(),
        abandoned: !over && stored.finished_at.is_some(),
        store: ctx.store,
        node: ctx.node,
        epoch,
        moved: false,
        registry: ctx.registry,
        limits: ctx.limits,
        bot_gate: ctx.bot_gate,
        metrics: Arc::clone(&ctx.metrics),
        legal: Vec::new(),
        thinking: None,
        quiet: None,
    };
    table.open_quiet_window();
    if !table.finished && !table.waiting_for_players() {
        table.start_programs();
    }
    // Counted from here until the task ends, so a drain can wait for it.
    let running = ctx.metrics.table_tasks.hold();
    tokio::spawn(async move {
        let _running = running;
        if repair {
            table.repair().await;
        }
        if over && table.social.result.is_none() {
            // A game that ended without its result recorded (a crash in
            // between, or a table from before results were kept).
            table.record_result();
        }
        table.run(rx, ctx.closing).await;
    });
    Ok(TableHandle { tx })
}

struct Sub {
    conn: u64,
    seat: Option<Seat>,
    /// The seat token this connection said hello with (kept in memory
    /// only: a rematch hands each seat its own).
    token: Option<String>,
    out: Outbox,
    /// Raw log entries already looked at.
    log_pos: usize,
    /// Visible events already sent.
    log_sent: usize,
    /// The JSON text of the view it was last sent: the next update is a
    /// patch from it.
    view: String,
}

/// A bot's decision being computed off the table's task.
struct Thinking<G: Roster> {
    /// The table's seq when it started: a decision for an older position
    /// is dropped.
    seq: u64,
    seat: Seat,
    stand_in: bool,
    answer: oneshot::Receiver<Thought<G>>,
}

/// What a bot hands back: itself, the legal list, its choice, and the
/// strikes it earned (a bot program's).
type Thought<G> = (
    Box<dyn Bot<G>>,
    Vec<<G as Game>::Action>,
    <G as Game>::Action,
    Vec<String>,
);

/// What a listening bot (a bot program) hears before a decision or at
/// the end: `start` if it has not started yet, then its seat's events
/// since it last heard.
struct Hearing<G: Game> {
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

/// A secret decision's window (D7, F4): the decision is held until
/// `until`, then applied, whoever made it and whenever.
struct Quiet<G: Roster> {
    until: Instant,
    pending: Option<(Seat, G::Action)>,
}

struct Table<G: Roster> {
    id: String,
    seq: u64,
    options: BTreeMap<String, String>,
    players: usize,
    /// The seed; a fair-deal table's is final once every human seat is
    /// taken (until then the game is a placeholder nobody sees).
    seed: game::Seed,
    seed_hash: String,
    fair: Option<StoredFair>,
    config: TableConfig,
    created_at: i64,
    access: Access,
    /// Rematch links and the seats' identities.
    social: crate::store::Social,
    /// The last chat messages, in memory only.
    chat: crate::social::ChatLog,
    /// Each seat's chat budget (and each spectating address's).
    chat_meter: crate::social::ChatMeter,
    /// What a new table (a rematch) started from here needs.
    ctx: TableCtx,
    seats: Vec<StoredSeat>,
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
    game: G,
    subs: Vec<Sub>,
    /// The revision of the last message sent to every connection: each
    /// broadcast is one more (connections check they missed none).
    rev: u64,
    /// The seats as the last broadcast sent them: an update carries them
    /// again only when they changed.
    sent_seats: Vec<SeatStatus>,
    /// The public view's JSON as the last broadcast made it.
    sent_public: String,
    /// Per seat: since when no client is connected for it.
    absent_since: [Option<Instant>; Seat::MAX],
    /// When the current decision became due.
    turn_started: Instant,
    /// The last command or action: a table idle for long leaves memory.
    last_activity: Instant,
    finished: bool,
    /// Ended by the store for inactivity, not by the rules.
    abandoned: bool,
    store: Arc<dyn Store>,
    /// This process's id in the store (the owner of this table).
    node: Arc<str>,
    /// The ownership epoch this process claimed the table under: every
    /// write carries it, and the store refuses it once another process
    /// has claimed the table (issue 9).
    epoch: Epoch,
    /// Another process owns the table now: this copy stops.
    moved: bool,
    registry: Arc<Registry>,
    limits: Limits,
    bot_gate: Arc<Semaphore>,
    metrics: Arc<crate::metrics::Metrics>,
    legal: Vec<G::Action>,
    thinking: Option<Thinking<G>>,
    quiet: Option<Quiet<G>>,
}

/// How a seat is played right now.
enum Player {
    Bot,
    Human,
}

/// What woke the table's task.
enum Wake<G: Roster> {
    Command(Option<Command>),
    BotDue,
    Thought(Result<Thought<G>, oneshot::error::RecvError>),
    WindowClosed,
    Idle,
    Closing,
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

impl<G: Roster> Drop for Table<G> {
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

impl<G: Roster> Table<G> {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut closing: watch::Receiver<bool>) {
        loop {
            if *closing.borrow() || self.moved {
                break;
            }
            let deadline = self.deadline();
            let window = self.quiet.as_ref().map(|q| q.until);
            let idle = self.idle_deadline();
            let wake = {
                let thinking = self.thinking.as_mut().map(|t| &mut t.answer);
                tokio::select! {
                    cmd = rx.recv() => Wake::Command(cmd),
                    () = sleep_until(deadline) => Wake::BotDue,
                    thought = async { thinking.expect("guarded").await }, if thinking.is_some() => Wake::Thought(thought),
                    () = sleep_until(window) => Wake::WindowClosed,
                    () = sleep_until(idle) => Wake::Idle,
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
    fn idle_deadline(&self) -> Option<Instant> {
        (self.subs.is_empty() && self.thinking.is_none() && self.quiet.is_none())
            .then(|| self.last_activity + self.limits.evict_after)
    }

    /// Leaves the registry if nobody else holds this table's handle and
    /// no command is queued (both checked under the registry's lock, where
    /// every handle is cloned), so no command is ever lost.
    /// Its ownership is released, so any process may take it next.
    fn evict(&self, rx: &mpsc::Receiver<Command>) -> bool {
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
    fn moved_away(&mut self, e: &StoreError) {
        tracing::warn!(table = %self.id, "another process owns the table now: {e}");
        self.leave_memory(MOVED);
    }

    /// Stops this copy of the table: out of the registry, every
    /// connection closed with `kick`. Ownership stays as the store has it.
    fn leave_memory(&mut self, kick: Kick) {
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
    async fn check_ended(&mut self) {
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

    async fn repair(&mut self) {
        let store = Arc::clone(&self.store);
        let id = self.id.clone();
        let done = tokio::task::spawn_blocking(move || store.mark_finished(&id, unix_now())).await;
        if !matches!(done, Ok(Ok(()))) {
            tracing::error!(table = %self.id, "marking a finished game failed");
        }
    }

    fn player(&self, seat: Seat) -> Player {
        match self.seats.get(seat.index()).map(|s| &s.kind) {
            Some(SeatKind::Human { .. }) => Player::Human,
            Some(SeatKind::Bot(_)) | None => Player::Bot,
        }
    }

    fn has_humans(&self) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s.kind, SeatKind::Human { .. }))
    }

    /// A table waits for every human seat to be joined before anybody
    /// plays; a rematch, whose seats are taken when it is made, waits for
    /// every person's contribution to its fair deal (each sends one when
    /// they arrive).
    fn waiting_for_players(&self) -> bool {
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
    fn awaiting_contributions(&self) -> bool {
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

    /// When a bot should next act for the seat to move, if ever. Nothing
    /// moves while nobody is connected (an all-bot table plays only while
    /// watched, F6), while a bot is thinking, or once a held secret
    /// decision is in.
    fn deadline(&self) -> Option<Instant> {
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
        // minimum bot speed, whatever its own delay (F6): a seat filled
        // with a bot, or a human who joined and never came, must not turn
        // a table into a bot-against-bot loop at full speed.
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
            Player::Bot => Some(self.turn_started + delay),
            Player::Human => {
                let absent = self.absent_since[mover.index()]
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

    /// Opens a secret decision's window if the game just reached one at a
    /// table with people (D7 fair timing, F4).
    fn open_quiet_window(&mut self) {
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
    async fn close_window(&mut self) {
        let Some(quiet) = self.quiet.take() else {
            return;
        };
        if self.waiting_for_players() {
            return;
        }
        let Some(mover) = self.game.to_move() else {
            return;
        };
        let choice = quiet
            .pending
            .or_else(|| self.game.silent_choice().map(|a| (mover, a)));
        if let Some((seat, action)) = choice {
            if self.game.check_as(seat, action).is_ok() {
                if let Err(e) = self.commit(seat, action).await {
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

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Hello {
                conn,
                token,
                contribution,
                out,
                reply,
            } => {
                let seat = match token.as_deref() {
                    None => None,
                    Some(token) => {
                        let hash = sha256_hex(token);
                        let found = self.seats.iter().find(|s| {
                            matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash)
                        });
                        match found {
                            Some(s) => Some(s.seat),
                            None => {
                                let _ = out.try_send(
                                    ServerMsg::error(Error::BadToken(
                                        "this token does not belong to a seat of this table".into(),
                                    ))
                                    .to_text(),
                                );
                                let _ = reply.send(Err(()));
                                return;
                            }
                        }
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
                let arrived = match (seat, contribution) {
                    (Some(seat), Some(c)) => self.arrive(seat, c).await,
                    _ => false,
                };
                self.open_quiet_window();
                // The newcomer gets the whole state; the others hear only
                // that a seat is connected now, and spectators nothing (F8).
                self.send_state(conn);
                self.presence_changed(Some(conn));
                if arrived {
                    // The last contribution of a rematch starts the game.
                    self.broadcast();
                }
                self.greet(conn);
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
            Command::Chat { conn, who, said } => self.chat(conn, who, said),
            Command::Resync { conn } => self.send_state(conn),
            Command::Act { conn, seq, action } => self.act(conn, seq, &action).await,
            Command::Leave { conn } => {
                self.subs.retain(|s| s.conn != conn);
                self.presence_changed(None);
            }
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
                let ok = answer.is_ok();
                let _ = reply.send(answer);
                if ok {
                    self.broadcast();
                }
            }
            Command::Fill {
                seat,
                creator,
                bot,
                reply,
            } => {
                let answer = self.fill(seat, &creator, &bot).await;
                let ok = answer.is_ok();
                let _ = reply.send(answer);
                if ok {
                    self.broadcast();
                }
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Command::Abandoned => {
                if !self.finished {
                    self.finished = true;
                    self.abandoned = true;
                    self.quiet = None;
                    self.release_bots();
                    self.broadcast();
                }
            }
            Command::Relinquish => {
                tracing::info!(table = %self.id, "handed over");
                self.leave_memory(MOVED);
            }
        }
    }

    /// Recomputes which seats are connected; if that changed, tells every
    /// connection (but `except`, which has just had the whole state) in
    /// one small message.
    fn presence_changed(&mut self, except: Option<u64>) {
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
        let changed = (0..Seat::MAX).any(|i| before[i] != self.absent_since[i].is_none());
        if changed {
            let text = ServerMsg::Presence {
                seats: self.seat_statuses(),
            }
            .to_text();
            self.send_all(|sub| (Some(sub.conn) != except).then(|| text.clone()));
        }
    }

    /// Sends each connection its message; closes (with a reason) those
    /// too slow to take it, and drops those already gone.
    fn send_all(&mut self, mut message: impl FnMut(&mut Sub) -> Option<String>) {
        let mut subs = std::mem::take(&mut self.subs);
        let before = subs.len();
        subs.retain_mut(|sub| match message(sub) {
            None => true,
            Some(text) => {
                let ok = sub.out.try_send(text);
                if !ok {
                    // F2: never forget a connection silently; it is told
                    // why and closed, and its client reconnects.
                    sub.out.kick(TOO_SLOW);
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

    fn send_to(&mut self, conn: u64, msg: ServerMsg) {
        if let Some(sub) = self.subs.iter().find(|s| s.conn == conn) {
            if !sub.out.try_send(msg.to_text()) {
                sub.out.kick(TOO_SLOW);
            }
        }
    }

    async fn act(&mut self, conn: u64, seq: u64, text: &str) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let Some(seat) = sub.seat else {
            return self.send_to(conn, ServerMsg::error(Error::NotSeated));
        };
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
                return self.send_to(conn, ServerMsg::error(Error::Illegal(e.to_string())));
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
                return self.send_to(conn, ServerMsg::error(Error::Illegal(e.to_string())))
            }
        }
        if let Some(quiet) = self.quiet.as_mut() {
            quiet.pending = Some((seat, action));
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
        if let Err(e) = self.commit(seat, action).await {
            tracing::error!(table = %self.id, "storing an action failed: {e}");
            self.send_to(
                conn,
                ServerMsg::error(Error::Internal(
                    "the server could not store the action".into(),
                )),
            );
        }
    }

    /// Stores, then applies and broadcasts, a checked action. The game's
    /// end, if this action ends it, is stored in the same transaction.
    async fn commit(&mut self, seat: Seat, action: G::Action) -> Result<(), String> {
        if self.waiting_for_players() {
            return Err("the game has not started".to_string());
        }
        let mut next = self.game.clone();
        next.apply_unchecked(action);
        let ends = next.outcome().is_some();
        let stored = StoredAction {
            seq: self.seq + 1,
            seat,
            action: action.to_string(),
        };
        // Committed (possibly in one transaction with other tables'
        // actions) before anything below happens.
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
        let stored = committed
            .await
            .map_err(|_| "the store dropped the write".to_string())
            .and_then(|r| {
                r.map_err(|e| {
                    if matches!(e, StoreError::Fenced { .. }) {
                        self.moved_away(&e);
                    }
                    e.to_string()
                })
            });
        if let Err(e) = stored {
            if !self.moved {
                self.check_ended().await;
            }
            return Err(e);
        }
        self.game = next;
        self.seq += 1;
        self.turn_started = Instant::now();
        self.last_activity = self.turn_started;
        if ends {
            self.finished = true;
            self.record_result();
        } else if self.seq >= self.limits.max_actions as u64 {
            // The server's length cap: the game ends, abandoned, its record
            // kept (F6).
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

    /// What the listening bot of `seat` has not heard yet (see
    /// [`Hearing`]): only events visible to its seat.
    fn hearing(&mut self, seat: Seat) -> Option<Hearing<G>> {
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
    fn strikes(&self, seat: Seat, strikes: Vec<String>) {
        for reason in strikes {
            tracing::warn!(table = %self.id, seat = %seat, "bot strike: {reason}");
            self.metrics.bot_strike();
        }
    }

    /// The game is over (or abandoned): each bot program at the table
    /// hears the rest of its seat's events and the outcome, and its
    /// process ends, all on the blocking pool; its slot is given back.
    fn release_bots(&mut self) {
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
    fn bot_turn(&mut self) {
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

    /// Starts every bot program of the table, together, when the game
    /// starts (or is loaded under way): whose program starts when must
    /// say nothing of the game, the hidden D7 decision least of all.
    fn start_programs(&mut self) {
        for i in 0..self.seats.len() {
            self.start_program(Seat::new(i));
        }
    }

    /// If `seat` is a bot program's not started yet, takes a process slot
    /// for it (the caps of `crate::extbots`, counted against the address
    /// that made the table) and makes it; the process starts when the bot
    /// is first told something. Without a free slot the seat is played by
    /// the heuristic bot (logged once per seat) until it finds one.
    fn start_program(&mut self, seat: Seat) {
        let i = seat.index();
        let name = match self.seats.get(i).map(|s| &s.kind) {
            Some(SeatKind::Bot(name)) if self.ctx.external.offers(name) => name.clone(),
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

    async fn bot_answer(&mut self, thought: Result<Thought<G>, oneshot::error::RecvError>) {
        let Some(thinking) = self.thinking.take() else {
            return;
        };
        let (seat, i) = (thinking.seat, thinking.seat.index());
        let Ok((bot, legal, action, strikes)) = thought else {
            // The bot panicked: the seat falls back to a stand-in next time.
            tracing::error!(table = %self.id, "a bot failed");
            self.turn_started = Instant::now();
            return;
        };
        self.strikes(seat, strikes);
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
            quiet.pending = Some((seat, action));
            return;
        }
        if let Err(e) = self.commit(seat, action).await {
            tracing::error!(table = %self.id, "storing a bot action failed: {e}");
            // Try again after another delay.
            self.turn_started = Instant::now();
        }
    }

    fn free(s: &StoredSeat) -> bool {
        matches!(
            &s.kind,
            SeatKind::Human {
                token_hash: None,
                ..
            }
        )
    }

    async fn join(
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
            store.take_seat_as(
                &id,
                seat,
                &n,
                &h,
                contribution,
                p.as_deref(),
                Some(&o),
                epoch,
            )
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
    async fn arrive(&mut self, seat: Seat, contribution: [u8; 32]) -> bool {
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
    fn greet(&mut self, conn: u64) {
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

    /// Tells every connection (or only `only`) that this table has a
    /// rematch: a seated one with its own seat token (the new table's seat
    /// takes the same token), a spectator only the table.
    fn tell_rematch(&mut self, only: Option<u64>) {
        let Some(id) = self.social.rematch.clone() else {
            return;
        };
        self.send_all(|sub| {
            if only.is_some_and(|c| c != sub.conn) {
                return None;
            }
            Some(
                ServerMsg::Rematch {
                    table: id.clone(),
                    seat: sub.token.as_ref().and(sub.seat),
                    token: sub.token.clone(),
                }
                .to_text(),
            )
        });
    }

    /// A rematch of this finished table (issue 11): the same game, options,
    /// settings and access; every seat as it was (a person's seat keeps
    /// them, with the token they hold; a bot's keeps its bot); a new server
    /// secret and its commitment. Only a seated player may ask, and asking
    /// again gives the same table.
    async fn rematch(&mut self, token: &str, owner: String) -> Result<Rematched, Error> {
        let hash = sha256_hex(token);
        let seat = self
            .seats
            .iter()
            .find(|s| matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash))
            .map(|s| s.seat)
            .ok_or_else(|| {
                Error::Forbidden("only a player seated at this table may ask for a rematch".into())
            })?;
        if self.abandoned {
            return Err(Error::SeatTaken(
                "this game was abandoned: create a new table".to_string(),
            ));
        }
        if !self.finished {
            return Err(Error::NotOver);
        }
        let answer = |id: String| Rematched {
            id,
            seat,
            token: token.to_string(),
        };
        if let Some(id) = &self.social.rematch {
            return Ok(answer(id.clone()));
        }
        let id = crate::lobby::new_id();
        let fair = StoredFair::new(&id);
        let stored = StoredTable {
            id,
            game: G::NAME.to_string(),
            rules_version: G::RULES_VERSION.to_string(),
            players: self.players,
            options: self.options.clone(),
            seed: fair.seed(),
            seed_hash: crate::fair::commitment(&fair.secret),
            fair: Some(fair),
            config: self.config,
            created_at: unix_now(),
            finished_at: None,
            seats: self.seats.clone(),
            actions: Vec::new(),
            access: Access {
                owner: Some(owner),
                ..self.access.clone()
            },
            social: crate::store::Social {
                rematch_of: Some(self.id.clone()),
                players: self.social.players.clone(),
                // The same people, from where they joined: they rate each
                // other at the rematch as they did at the table.
                origins: self.social.origins.clone(),
                ..Default::default()
            },
        };
        let external = Arc::clone(&self.ctx.external);
        external.check(
            external_seats(&stored.seats, &external),
            stored.access.owner.as_deref().unwrap_or_default(),
            &self.metrics,
        )?;
        let store = Arc::clone(&self.store);
        let (copy, node) = (stored.clone(), self.node.to_string());
        let made = tokio::task::spawn_blocking(move || store.create_table(&copy, &node))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?;
        let epoch = match made {
            Ok(epoch) => epoch,
            Err(e) => {
                // The store links one rematch per table: if another
                // process made it first, that one is the rematch.
                let store = Arc::clone(&self.store);
                let id = self.id.clone();
                if let Ok(Ok(Some(t))) = tokio::task::spawn_blocking(move || store.load(&id)).await
                {
                    if let Some(r) = t.social.rematch {
                        self.social.rematch = Some(r.clone());
                        return Ok(answer(r));
                    }
                }
                return Err(Error::Internal(e.to_string()));
            }
        };
        let id = stored.id.clone();
        let handle = spawn(stored, self.ctx.clone(), epoch).map_err(Error::Internal)?;
        self.ctx
            .registry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), handle);
        self.ctx.metrics.table_created();
        tracing::info!(table = %self.id, rematch = %id, "rematch");
        self.social.rematch = Some(id.clone());
        Ok(answer(id))
    }

    /// Records the game's result and moves its people's ratings (issue 11),
    /// off this task: the store records it once, whoever asks again.
    fn record_result(&mut self) {
        let Some(outcome) = self.game.outcome() else {
            return;
        };
        if self.abandoned {
            return;
        }
        let Some(result) = result_of(
            G::NAME,
            &self.seats,
            &self.social,
            self.access.public,
            self.seq as usize,
            &outcome,
        ) else {
            return;
        };
        self.social.result = Some(result.outcome.clone());
        let (store, id) = (Arc::clone(&self.store), self.id.clone());
        tokio::task::spawn_blocking(move || {
            if let Err(e) = store.record_result(&id, &result) {
                tracing::error!(table = %id, "recording the result failed: {e}");
            }
        });
    }

    /// A chat message from connection `conn`: kept and sent to every
    /// reader (the seated players; spectators too where the table lets
    /// them chat). A spectator may not write unless it does.
    fn chat(&mut self, conn: u64, who: crate::net::ClientAddr, said: crate::social::Said) {
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
    fn start_if_ready(&mut self) {
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
    async fn fill(&mut self, seat: Seat, creator: &str, bot: &str) -> Result<(), Error> {
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
        crate::lobby::server_bot::<G>(bot, &external)?;
        // A bot program starts (and takes its process slot) at its first
        // decision; it is refused now if it could not run.
        let made = if external.offers(bot) {
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

    fn seat_statuses(&self) -> Vec<SeatStatus> {
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
                    },
                    Some(SeatKind::Bot(b)) => SeatStatus {
                        seat,
                        name: Some(b.clone()),
                        kind: "bot",
                        bot: Some(b.clone()),
                        taken: true,
                        connected: true,
                    },
                    None => SeatStatus {
                        seat,
                        name: Some("heuristic".to_string()),
                        kind: "bot",
                        bot: Some("heuristic".to_string()),
                        taken: true,
                        connected: true,
                    },
                }
            })
            .collect()
    }

    /// A fair-deal table's secret, once the game is over.
    fn revealed_secret(&self) -> Option<String> {
        self.fair
            .as_ref()
            .filter(|_| self.finished)
            .map(|f| crate::fair::hex(&f.secret))
    }

    fn status(&self) -> &'static str {
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

    fn info(&self) -> serde_json::Value {
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
        })
    }

    /// The JSON text of the view `sub` may see. `public` is the public
    /// view's, when a broadcast has already made it (one encoding for all
    /// spectators).
    fn view_json(&self, seat: Option<Seat>, public: Option<&str>) -> String {
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
    fn fresh(&self, sub: &mut Sub) -> Fresh {
        let started = !self.waiting_for_players();
        let mover = if self.finished {
            None
        } else {
            self.game.to_move()
        };
        let mine = sub.seat.is_some() && mover == sub.seat;
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
    fn state_for(&self, sub: &mut Sub, seats: &[SeatStatus]) -> StateMsg {
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
    fn turn_left_ms(&self) -> Option<u64> {
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
    fn send_state(&mut self, conn: u64) {
        let seats = self.seat_statuses();
        if let Some(i) = self.subs.iter().position(|s| s.conn == conn) {
            let mut sub = self.subs.swap_remove(i);
            let msg = ServerMsg::State(Box::new(self.state_for(&mut sub, &seats)));
            if sub.out.try_send(msg.to_text()) {
                self.subs.push(sub);
            } else {
                sub.out.kick(TOO_SLOW);
            }
        }
    }

    /// Sends every connection what changed for it: the new events, a
    /// patch of its view, the small fields whole. Closes connections whose
    /// outbox is full (too slow) and drops those already gone.
    fn broadcast(&mut self) {
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
        self.send_all(|_| texts.next());
    }
}

/// See [`Table::fresh`].
struct Fresh {
    to_move: Option<Seat>,
    legal: Vec<String>,
    log_from: usize,
    log: Vec<Box<RawValue>>,
    started: bool,
}

/// A new secret (seat token, invite key, creator token): 32 random bytes,
/// hex.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
