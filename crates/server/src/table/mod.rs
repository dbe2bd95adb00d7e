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
//! Bounds, so that no client can make a table cost without limit: a
//! connection too slow to take its messages is closed with a reason
//! rather than forgotten; joins and leaves send a small `presence`
//! message, never a state to everyone; a table nobody watches pauses and,
//! after a while, leaves memory; bots think on the blocking pool behind a
//! server-wide gate, while the table keeps answering; and a secret
//! decision (D7) takes effect at a fixed time whoever makes it, so its
//! timing tells nobody who made it.

mod act;
mod bot_play;
mod command;
mod finish;
mod outbox;
mod repair;
mod result;
mod run;
mod seats;
mod views;

pub use command::{Command, Rematched, TableHandle};
pub use outbox::{AddrBudget, AddrBytes, Bounds, Kick, Kind, Outbox, OutboxRx, MOVED, TOO_SLOW};
pub use repair::{record_missing_results, repair_all};
pub(crate) use result::result_of;
use result::{Acted, Decided};

use crate::clock::unix_now;
use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::ids::{new_token, sha256_hex};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::protocol::{SeatStatus, ServerMsg, StateMsg, UpdateMsg};
use crate::store::{
    Access, Epoch, SeatKind, Store, StoreError, StoredAction, StoredFair, StoredSeat, StoredTable,
    TableConfig,
};
use bots::{Bot, Roster};
use game::{ActError, Game, GameOptions, Seat};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch, Semaphore};
use tokio::time::Instant;

/// The live tables by id.
pub(crate) type Registry = Mutex<HashMap<String, TableHandle>>;

/// What a table task needs from the server.
#[derive(Clone)]
pub(crate) struct TableCtx {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) node: Arc<str>,
    pub(crate) closing: watch::Receiver<bool>,
    pub(crate) registry: Arc<Registry>,
    pub(crate) limits: Limits,
    pub(crate) bot_gate: Arc<Semaphore>,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) external: Arc<ExternalBots>,
}

/// Why a stored table cannot be brought to life.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// The table is of a game this server does not know.
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    /// The stored actions skip or repeat a number.
    #[error("table {table}: action seq {seq} out of order")]
    OutOfOrder {
        /// The table.
        table: String,
        /// The first number out of place.
        seq: u64,
    },
    /// The stored actions do not replay.
    #[error("table {table}: {source}")]
    Replay {
        /// The table.
        table: String,
        /// Why not.
        source: game::RecordError,
    },
}

impl From<SpawnError> for Error {
    fn from(e: SpawnError) -> Self {
        Error::Internal(e.to_string())
    }
}

/// Starts the task of a stored table (new, or loaded by replaying its
/// actions). A bot program's seat takes its process slot when it first
/// has to decide (see `crate::extbots`).
pub(crate) fn spawn(
    stored: StoredTable,
    ctx: TableCtx,
    epoch: Epoch,
) -> Result<TableHandle, SpawnError> {
    registry::dispatch!(stored.game.as_str(), G => spawn_game::<G>(stored, ctx, epoch),
        _ => Err(SpawnError::UnknownGame(stored.game)))
}

/// How many of `seats` are played by a bot program (`ratrace serve --bot`).
pub(crate) fn external_seats(game: &str, seats: &[StoredSeat], external: &ExternalBots) -> usize {
    seats
        .iter()
        .filter(|s| matches!(&s.kind, SeatKind::Bot(name) if external.offers_for(game, name)))
        .count()
}

fn spawn_game<G: Roster>(
    stored: StoredTable,
    ctx: TableCtx,
    epoch: Epoch,
) -> Result<TableHandle, SpawnError> {
    let game: G = replay(&stored)?;
    let over = game.outcome().is_some();
    let repair = over && stored.finished_at.is_none();
    let bots = seat_bots::<G>(&stored, &ctx.external, over || stored.finished_at.is_some());
    let (tx, rx) = mpsc::channel(256);
    let mut table = Table::new(stored, game, bots, ctx.clone(), epoch);
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

/// The position a stored table has reached: its actions, numbered in
/// order, replayed from the start.
fn replay<G: Roster>(stored: &StoredTable) -> Result<G, SpawnError> {
    for (i, a) in stored.actions.iter().enumerate() {
        if a.seq != i as u64 + 1 {
            return Err(SpawnError::OutOfOrder {
                table: stored.id.clone(),
                seq: a.seq,
            });
        }
    }
    stored
        .record()
        .replay(true, |_, _, _| {})
        .map_err(|source| SpawnError::Replay {
            table: stored.id.clone(),
            source,
        })
}

/// The bot of each seat: a built-in bot where one plays, `None` for a
/// person, a bot program (it starts, and takes its slot, at its seat's
/// first decision: `Table::bot_turn`), or a bot program this server no
/// longer offers (started without its --bot: the heuristic bot plays the
/// seat, with a warning unless the table has `ended`).
fn seat_bots<G: Roster>(
    stored: &StoredTable,
    external: &ExternalBots,
    ended: bool,
) -> Vec<Option<Box<dyn Bot<G>>>> {
    stored
        .seats
        .iter()
        .map(|s| match &s.kind {
            SeatKind::Bot(name) if external.offers_for(G::NAME, name) => None,
            SeatKind::Bot(name) => match G::bot(name, rand::random()) {
                Ok(b) => Some(b),
                Err(e) => {
                    if !ended {
                        tracing::warn!(table = %stored.id, seat = %s.seat,
                            "{e}: the heuristic bot plays the seat");
                    }
                    None
                }
            },
            SeatKind::Human { .. } => None,
        })
        .collect()
}

impl<G: Roster> Table<G> {
    /// The table task's state for a stored table at position `game`, its
    /// seats played by `bots`: every person counts as absent until they
    /// connect, and the turn starts now.
    fn new(
        stored: StoredTable,
        game: G,
        bots: Vec<Option<Box<dyn Bot<G>>>>,
        ctx: TableCtx,
        epoch: Epoch,
    ) -> Self {
        let now = Instant::now();
        let over = game.outcome().is_some();
        let acted = Acted::of(&stored.actions, stored.seats.len());
        Table {
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
            decided: Vec::new(),
            acted,
            game,
            subs: Vec::new(),
            rev: 0,
            sent_seats: Vec::new(),
            sent_public: String::new(),
            absent_since: [Some(now); Seat::MAX],
            alone_since: Some(now),
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
            metrics: ctx.metrics,
            legal: Vec::new(),
            thinking: None,
            quiet: None,
        }
    }
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

/// A secret decision's window (D7, its timing must not tell who made it):
/// the decision is held until `until`, then applied, whoever made it and
/// whenever.
struct Quiet<G: Roster> {
    until: Instant,
    /// The decision held: its seat, action, and whether a stand-in made it.
    pending: Option<(Seat, G::Action, bool)>,
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
    /// Per seat, in this load of the table: the decisions its bot made,
    /// and how many of them a stand-in made instead (no process slot, or
    /// the program's failures). A bot program's seat over
    /// [`extbot::STAND_IN_LIMIT`] is credited to the stand-in.
    decided: Vec<Decided>,
    /// Per seat, over the whole game: its decisions, and how many of them
    /// its own player made (the rest a stand-in's), from the stored
    /// actions and then each commit. Whether a person took part is
    /// judged from these.
    acted: Vec<Acted>,
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
    /// Since when no person at the table is connected (its bot programs
    /// stop [`PROGRAMS_GRACE`] later); `None` while one is.
    alone_since: Option<Instant>,
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
    /// has claimed the table.
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

/// How long a table's bot programs keep running once no person is
/// connected at it (a reload of the page, a short drop): then they stop
/// and give their process slots back.
pub(crate) const PROGRAMS_GRACE: Duration = Duration::from_secs(3);

/// What woke the table's task.
enum Wake<G: Roster> {
    Command(Option<Command>),
    BotDue,
    ProgramsIdle,
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
