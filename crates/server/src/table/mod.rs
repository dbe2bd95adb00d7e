//! One task per live table: it owns the game, the seats, the bots and the
//! connections' outboxes, and is the only writer of its table.
//!
//! The task is generic over the game (`G: Roster`); the rest of the server
//! talks to it only through [`TableHandle`], a channel of game-agnostic
//! [`Command`]s, so the registry holds tables of both games without a trait
//! object. No lock exists here at all: the task's state is its own.
//!
//! The task holds little itself (the game and its sequence, `Play`) and
//! hands each concern to a part with its own fields and methods, as
//! lila's round actor does:
//! - `Audience` (`audience.rs`): the connections and their outboxes;
//!   every message leaves through it, and one too slow to take its
//!   messages is closed with a reason rather than forgotten;
//! - `Seating` (`seating.rs`): who sits where, concessions, presence;
//! - `BotSeats` (`bot_seats.rs`): bots, stand-ins, bot programs and their
//!   slots, the decision being thought about;
//! - `Ledger` (`ledger.rs`): every write of the table, under its
//!   ownership epoch; a fenced write is noticed there, once;
//! - `Talk` (`talk.rs`): the chat; `Clock` (`clock.rs`): the turn,
//!   idleness, and the secret decision's window.
//!
//! What the table does is told in the files of `impl Table`, one flow
//! each: `run.rs` (the loop), `due.rs` (when it wakes by itself),
//! `dispatch.rs` (each command to its flow), `connect.rs` and
//! `presence.rs` (connections coming and going), `act.rs` (an action
//! checked, committed, applied), `ended.rs` (ends other than by an
//! action), `seats.rs` (join, fill, the start), `concede.rs`, `chat.rs`,
//! `window.rs` (D7), `bot_play.rs`, `views.rs` (what each connection is
//! sent) and `finish.rs` (result, rematch).
//!
//! An action, end to end: `dispatch.rs` hands `Command::Act` to
//! `Table::act`, which checks it with the engine; `Table::commit` appends
//! it through the ledger (committed before anything else), applies it and
//! broadcasts (`views.rs`: each seat its own view, as a patch).
//!
//! Bounds, so that no client can make a table cost without limit: joins
//! and leaves send a small `presence` message, never a state to everyone;
//! a table nobody watches pauses and, after a while, leaves memory; bots
//! think on the blocking pool behind a server-wide gate, while the table
//! keeps answering; and a secret decision (D7) takes effect at a fixed
//! time whoever makes it, so its timing tells nobody who made it.

mod act;
mod audience;
mod bot_play;
mod bot_seats;
mod chat;
mod clock;
mod command;
mod concede;
mod connect;
mod dispatch;
mod due;
mod ended;
mod finish;
mod ledger;
mod outbox;
mod play;
mod presence;
mod repair;
mod result;
mod run;
mod seating;
mod seats;
mod talk;
mod views;
mod window;

pub use command::{Command, Rematched, TableHandle};
pub use outbox::{AddrBudget, AddrBytes, Bounds, Kick, Kind, Outbox, OutboxRx, MOVED, TOO_SLOW};
pub(crate) use repair::stored_result;
pub use repair::{record_missing_results, repair_all};
pub(crate) use result::result_of;

use audience::Audience;
use bot_seats::BotSeats;
use clock::Clock;
use ledger::Ledger;
use play::Play;
use result::Acted;
use seating::Seating;
use talk::Talk;

use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::store::{Access, Epoch, SeatKind, Store, StoredSeat, StoredTable, TableConfig};
use bots::{Bot, Roster};
use game::GameOptions;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, watch, Semaphore};

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
    if !table.play.finished && !table.waiting_for_players() {
        table.start_programs();
    }
    // Counted from here until the task ends, so a drain can wait for it.
    let running = ctx.metrics.table_tasks.hold();
    tokio::spawn(async move {
        let _running = running;
        if repair {
            table.ledger.mark_finished().await;
        }
        if over && table.seating.social.result.is_none() {
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

/// The seed of a tutorial table's bot in `seat` (`lobby::tutorial`): the
/// same every time, so the guided game plays the same for the same moves.
pub(crate) fn tutorial_bot_seed(seat: game::Seat) -> u64 {
    1000 + seat.index() as u64
}

/// The bot of each seat: a built-in bot where one plays, `None` for a
/// person, a bot program (it starts, and takes its slot, at its seat's
/// first decision: `Table::bot_turn`), or a bot program this server no
/// longer offers (started without its --bot: the heuristic bot plays the
/// seat, with a warning unless the table has `ended`). A tutorial's bots
/// are seeded by their seat ([`tutorial_bot_seed`]), so its guided game
/// plays the same every time the person plays the same.
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
            SeatKind::Bot(name) => match G::bot(
                name,
                if stored.config.tutorial {
                    tutorial_bot_seed(s.seat)
                } else {
                    rand::random()
                },
            ) {
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
        let over = game.outcome().is_some();
        let id: Arc<str> = Arc::from(stored.id.as_str());
        let options =
            G::Options::from_pairs(stored.options.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .unwrap_or_else(|e| {
                    tracing::error!(table = %id, "options do not read: {e}");
                    G::Options::default()
                });
        let acted = Acted::of(&stored.actions, stored.seats.len());
        Table {
            play: Play {
                game,
                options,
                seq: stored.actions.len() as u64,
                finished: over || stored.finished_at.is_some(),
                abandoned: !over && stored.finished_at.is_some(),
                seed: stored.seed,
                seed_hash: stored.seed_hash,
                fair: stored.fair,
            },
            seating: Seating::new(stored.seats, stored.social, acted),
            audience: Audience::new(Arc::clone(&ctx.metrics)),
            bots: BotSeats::new(Arc::clone(&id), Arc::clone(&ctx.metrics), bots),
            ledger: Ledger::new(
                Arc::clone(&ctx.store),
                Arc::clone(&id),
                Arc::clone(&ctx.node),
                epoch,
                Arc::clone(&ctx.metrics),
            ),
            talk: Talk::default(),
            clock: Clock::new(),
            setup: Setup {
                id,
                options: stored.options,
                players: stored.players,
                config: stored.config,
                created_at: stored.created_at,
                access: stored.access,
            },
            ctx,
        }
    }

    /// A table waits for every human seat to be joined before anybody
    /// plays; a rematch, whose seats are taken when it is made, waits for
    /// every person's contribution to its fair deal (each sends one when
    /// they arrive).
    fn waiting_for_players(&self) -> bool {
        self.seating.any_open() || self.awaiting_contributions()
    }

    /// A rematch not started whose fair deal lacks a seated person's
    /// contribution.
    fn awaiting_contributions(&self) -> bool {
        let Some(fair) = &self.play.fair else {
            return false;
        };
        self.seating.social.rematch_of.is_some()
            && self.play.seq == 0
            && self.seating.lacks_contribution(fair)
    }
}

/// What the table is, as it was made: fixed for its life.
struct Setup {
    id: Arc<str>,
    /// The rules options as the store keeps them (`key` → `value` text).
    options: BTreeMap<String, String>,
    players: usize,
    config: TableConfig,
    created_at: i64,
    access: Access,
}

/// One table's task: the game and its sequence, and a part for each
/// concern, each with its own fields and methods (see the module docs).
struct Table<G: Roster> {
    setup: Setup,
    play: Play<G>,
    seating: Seating,
    audience: Audience,
    bots: BotSeats<G>,
    ledger: Ledger,
    talk: Talk,
    clock: Clock<G::Action>,
    /// The server's shared handles (the store, the registry, the limits,
    /// the bot gate, the metrics, the bot programs).
    ctx: TableCtx,
}

/// How long a table's bot programs keep running once no person is
/// connected at it (a reload of the page, a short drop): then they stop
/// and give their process slots back.
pub(crate) const PROGRAMS_GRACE: Duration = Duration::from_secs(3);
