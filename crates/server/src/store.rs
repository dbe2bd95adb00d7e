//! Durable storage of tables, seats and actions: one interface ([`Store`])
//! and its SQLite backend ([`SqliteStore`]).
//!
//! Everything the server persists goes through the [`Store`] trait so a
//! PostgreSQL backend for several server processes can be added later
//! without touching the tables or the lobby. Calls are blocking (rusqlite):
//! async callers run them through `tokio::task::spawn_blocking`. Every
//! write is committed before the call returns, with WAL and
//! `synchronous=FULL`, so an acknowledged action survives a crash. Seat
//! tokens are never stored, only their SHA-256.
//!
//! Group commit: the SQLite backend has one writer thread. Writes that
//! arrive while it commits queue up, and it commits all of them in the next
//! transaction (each in its own savepoint, so one failing write changes
//! nothing and does not affect the others). A caller learns the outcome of
//! its write only after the transaction holding it is committed, so many
//! tables share one `fsync` instead of paying one each, and nothing is
//! acknowledged before it is durable. [`Store::append_action_then`] lets
//! the table tasks wait for that without a blocking thread each.

use game::Seat;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};

/// A storage failure. Its text goes to the server log, never to a client.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A stored JSON column does not parse.
    #[error("stored json: {0}")]
    Json(#[from] serde_json::Error),
    /// A stored value is out of range (a seed that is not a u64, a seat
    /// out of range).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The transaction that held this write (with others) failed to
    /// commit: nothing of it was stored.
    #[error("commit: {0}")]
    Commit(String),
}

/// Per-table settings that are not rules options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableConfig {
    /// How long a bot waits before acting, so people can follow.
    pub bot_delay_ms: u64,
    /// If set, a human to move for longer than this is played by the
    /// heuristic bot for that turn.
    pub turn_timer_ms: Option<u64>,
}

impl Default for TableConfig {
    fn default() -> TableConfig {
        TableConfig {
            bot_delay_ms: 600,
            turn_timer_ms: None,
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person, once they join with a name.
    Human {
        /// The display name, once joined.
        name: Option<String>,
        /// SHA-256 hex of the seat token, once joined.
        token_hash: Option<String>,
    },
    /// A bot, by roster name.
    Bot(String),
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// The seat.
    pub seat: Seat,
    /// Who sits there.
    pub kind: SeatKind,
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1-based sequence number, no gaps.
    pub seq: u64,
    /// Who took it.
    pub seat: Seat,
    /// Its text notation (without the seat).
    pub action: String,
}

/// A table as stored: its header, seats, and (when loaded in full) actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// `bigcheese` or `dalmuti`.
    pub game: String,
    /// The rules version the table plays under.
    pub rules_version: String,
    /// Seats at the start.
    pub players: usize,
    /// Every rules option and its value.
    pub options: BTreeMap<String, String>,
    /// The seed of all chance. Never leaves the server before the end. A
    /// fair-deal table's seed is derived from [`StoredTable::fair`] (and is
    /// final once every human seat is taken); an older table's is a
    /// 64-bit number the server drew.
    pub seed: game::Seed,
    /// The public commitment, from creation: a fair-deal table's is
    /// [`crate::fair::commitment`] of its secret; an older table's the hex
    /// SHA-256 of its seed's decimal text.
    pub seed_hash: String,
    /// The fair-deal scheme's secret and the players' contributions
    /// (`None` for tables made before it).
    pub fair: Option<StoredFair>,
    /// Bot delay and turn timer.
    pub config: TableConfig,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, once the game is over.
    pub finished_at: Option<i64>,
    /// Every seat, in order.
    pub seats: Vec<StoredSeat>,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// Who may find and join the table: listed in the lobby, or reached
    /// only through the invite link.
    pub access: Access,
}

/// A fair-deal table's inputs (docs/server.md, "Fairness: commit,
/// contribute, reveal").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFair {
    /// The server's secret, committed to at creation.
    pub secret: [u8; 32],
    /// Each human's contribution, by seat.
    pub contributions: BTreeMap<Seat, [u8; 32]>,
}

impl StoredFair {
    /// The seed these inputs give.
    pub fn seed(&self) -> game::Seed {
        crate::fair::seed(&self.secret, &self.contributions)
    }
}

/// How a table is reached (issue 8: tables are private by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Listed in the lobby, and joined without the invite key.
    pub public: bool,
    /// SHA-256 hex of the invite key a private table's seats need; `None`
    /// for public tables and tables created before keys existed.
    pub invite_hash: Option<String>,
    /// SHA-256 hex of the creator's token (fills an empty seat with a bot).
    pub creator_hash: Option<String>,
    /// The client address that created the table (live-table caps).
    pub owner: Option<String>,
}

/// A line of the table list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSummary {
    /// The table id.
    pub id: String,
    /// The game.
    pub game: String,
    /// Seats at the start.
    pub players: usize,
    /// Human seats nobody has joined yet.
    pub free_seats: usize,
    /// `open` (a human seat is free), `playing`, `finished` or
    /// `abandoned`.
    pub status: &'static str,
    /// Unix seconds.
    pub created_at: i64,
}

/// The one storage interface of the server. Every method is blocking and
/// commits before it returns.
pub trait Store: Send + Sync + 'static {
    /// Stores a new table with its seats (no actions).
    fn create_table(&self, table: &StoredTable) -> Result<(), StoreError>;

    /// Appends action `seq` (1-based) of a table, and when `ends` is true
    /// marks the game over in the same transaction (so a crash can never
    /// leave a finished game unmarked). Fails, storing nothing, if that seq
    /// is already stored.
    fn append_action(
        &self,
        table: &str,
        action: &StoredAction,
        at: i64,
        ends: bool,
    ) -> Result<(), StoreError>;

    /// [`Store::append_action`] without blocking the caller: returns at
    /// once and calls `done` (on some other thread) with the outcome once
    /// the action is committed or has failed. The default runs
    /// `append_action` on tokio's blocking pool, so it must be called
    /// inside a tokio runtime.
    fn append_action_then(
        self: Arc<Self>,
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        done: Done<()>,
    ) {
        tokio::task::spawn_blocking(move || done(self.append_action(&table, &action, at, ends)));
    }

    /// Records that a table's game is over (repairs; the normal end is
    /// stored with the last action).
    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError>;

    /// Ends a table that reached the server's length cap as abandoned.
    fn mark_abandoned(&self, table: &str, at: i64) -> Result<(), StoreError>;

    /// Ends as abandoned at `at` every unfinished table with no activity
    /// (an action or a join) since `before`, and every table that never
    /// started (no action) with none since `unstarted_before` (unix
    /// seconds); returns their ids.
    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError>;

    /// Puts bot `bot` in a human seat nobody has joined. Returns `false`
    /// (and changes nothing) if the seat is not a free human seat.
    fn fill_seat(&self, table: &str, seat: Seat, bot: &str) -> Result<bool, StoreError>;

    /// Ids of every table whose game is not over (start-up repair).
    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError>;

    /// Live (unfinished) tables in all, and those created by `owner`.
    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError>;

    /// Seats a person in a free human seat, with their contribution to a
    /// fair deal if any. Returns `false` (and changes nothing) if the seat
    /// is not a free human seat.
    fn take_seat(
        &self,
        table: &str,
        seat: Seat,
        name: &str,
        token_hash: &str,
        contribution: Option<[u8; 32]>,
    ) -> Result<bool, StoreError>;

    /// One table with its seats and actions.
    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError>;

    /// Every table whose game is not over, with seats and actions.
    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError>;

    /// The newest public tables first, at most `limit`.
    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError>;
}

/// What a non-blocking write calls with its outcome.
pub type Done<T> = Box<dyn FnOnce(Result<T, StoreError>) + Send>;

/// The SQLite backend: the writer thread owns one connection and
/// group-commits every write; reads (the lobby, loading a table) use
/// their own connections, so a slow read never delays a commit (F9). An
/// in-memory database has a single connection for both, behind a mutex
/// held only inside blocking calls, never across an `.await`.
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    readers: Vec<Mutex<Connection>>,
    next_reader: std::sync::atomic::AtomicUsize,
    writes: Option<mpsc::Sender<Job>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

/// Read connections of a database file.
const READERS: usize = 2;

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

/// A write for the writer thread and whom to tell its outcome.
struct Job {
    write: Write,
    done: Done<bool>,
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 1024;

/// A write waiting to be committed.
#[derive(Debug)]
enum Write {
    Create(Box<StoredTable>),
    Append {
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
    },
    Abandon {
        before: i64,
        unstarted_before: i64,
        at: i64,
        /// Filled with the ids the write ended (exactly those).
        ended: Arc<Mutex<Vec<String>>>,
    },
    Fill {
        table: String,
        seat: Seat,
        bot: String,
    },
    Finish {
        table: String,
        at: i64,
        ended: &'static str,
    },
    TakeSeat {
        table: String,
        seat: Seat,
        name: String,
        token_hash: String,
        contribution: Option<[u8; 32]>,
    },
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  rules_version TEXT NOT NULL,
  players INTEGER NOT NULL,
  options TEXT NOT NULL,
  seed TEXT NOT NULL,
  seed_hash TEXT NOT NULL,
  config TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  public INTEGER NOT NULL DEFAULT 1,
  invite_hash TEXT,
  creator_hash TEXT,
  owner TEXT,
  last_active INTEGER,
  ended TEXT,
  fair_secret TEXT,
  contributions TEXT
);
CREATE TABLE IF NOT EXISTS seats (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seat INTEGER NOT NULL,
  kind TEXT NOT NULL,
  bot TEXT,
  name TEXT,
  token_hash TEXT,
  PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seq INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  action TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables(finished_at);
";

/// Columns added after the first schema (issue 8), with their types;
/// existing rows keep the old behaviour (listed, no invite key).
const ADDED_COLUMNS: &[(&str, &str)] = &[
    ("public", "INTEGER NOT NULL DEFAULT 1"),
    ("invite_hash", "TEXT"),
    ("creator_hash", "TEXT"),
    ("owner", "TEXT"),
    ("last_active", "INTEGER"),
    ("ended", "TEXT"),
    ("fair_secret", "TEXT"),
    ("contributions", "TEXT"),
];

/// The lobby's list: the newest public tables, through an index, never a
/// scan of every table (F9).
const LIST: &str = "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id
           AND s.kind = 'human' AND s.token_hash IS NULL)
     FROM tables t WHERE t.public = 1
     ORDER BY t.created_at DESC LIMIT ?1";

/// The tables the sweep ends as abandoned: unfinished, and idle since
/// `?1`, or never started (no action) and idle since `?2`.
const IDLE: &str = "finished_at IS NULL AND (COALESCE(last_active, created_at) < ?1
     OR (COALESCE(last_active, created_at) < ?2
         AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_id = tables.id)))";

/// Indexes of the reads that must not scan (lobby, caps, sweeps).
const INDEXES: &str = "
CREATE INDEX IF NOT EXISTS tables_public_created ON tables(public, created_at);
CREATE INDEX IF NOT EXISTS tables_owner_live ON tables(owner, finished_at);
CREATE INDEX IF NOT EXISTS tables_live_active ON tables(finished_at, last_active);
";

fn seat_of(index: i64) -> Result<Seat, StoreError> {
    usize::try_from(index)
        .ok()
        .filter(|&i| i < Seat::MAX)
        .map(Seat::new)
        .ok_or_else(|| StoreError::Corrupt(format!("seat {index}")))
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and its tables. A new
    /// file is created readable by its owner only (0600), and an existing
    /// one is made so: it holds the seeds of live games.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        private_file(path)?;
        let conn = Connection::open(path)?;
        SqliteStore::prepare(&conn)?;
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let r = Connection::open_with_flags(
                path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            r.busy_timeout(std::time::Duration::from_secs(5))?;
            readers.push(Mutex::new(r));
        }
        SqliteStore::with(conn, readers)
    }

    /// A private in-memory database (tests, throwaway servers).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let conn = Connection::open_in_memory()?;
        SqliteStore::prepare(&conn)?;
        SqliteStore::with(conn, Vec::new())
    }

    fn prepare(conn: &Connection) -> Result<(), StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        let have: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('tables')")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for (name, kind) in ADDED_COLUMNS {
            if !have.iter().any(|h| h == name) {
                conn.execute_batch(&format!("ALTER TABLE tables ADD COLUMN {name} {kind}"))?;
            }
        }
        conn.execute_batch(INDEXES)?;
        Ok(())
    }

    fn with(conn: Connection, readers: Vec<Mutex<Connection>>) -> Result<SqliteStore, StoreError> {
        let conn = Arc::new(Mutex::new(conn));
        let (writes, jobs) = mpsc::channel::<Job>();
        let shared = Arc::clone(&conn);
        let writer = std::thread::Builder::new()
            .name("sqlite-writer".to_string())
            .spawn(move || SqliteStore::writer(&shared, &jobs))
            .map_err(|e| StoreError::Commit(format!("no writer thread: {e}")))?;
        Ok(SqliteStore {
            conn,
            readers,
            next_reader: std::sync::atomic::AtomicUsize::new(0),
            writes: Some(writes),
            writer: Some(writer),
        })
    }

    /// The writer thread: takes every queued write (at most
    /// [`MAX_BATCH`]), commits them in one transaction, then tells each
    /// caller. Ends when the store is dropped.
    fn writer(conn: &Mutex<Connection>, jobs: &mpsc::Receiver<Job>) {
        while let Ok(first) = jobs.recv() {
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match jobs.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let (writes, dones): (Vec<Write>, Vec<Done<bool>>) =
                batch.into_iter().map(|j| (j.write, j.done)).unzip();
            let outcomes = {
                let mut conn = conn.lock().unwrap_or_else(|p| p.into_inner());
                SqliteStore::commit_batch(&mut conn, writes)
            };
            for (done, outcome) in dones.into_iter().zip(outcomes) {
                done(outcome);
            }
        }
    }

    /// Queues `write`; `done` gets its outcome once it is committed.
    fn submit(&self, write: Write, done: Done<bool>) {
        let job = Job { write, done };
        let sent = match &self.writes {
            Some(w) => w.send(job),
            None => Err(mpsc::SendError(job)),
        };
        if let Err(mpsc::SendError(job)) = sent {
            (job.done)(Err(StoreError::Commit(
                "the writer thread stopped".to_string(),
            )));
        }
    }

    /// Queues `write` and blocks until it is committed.
    fn write(&self, write: Write) -> Result<bool, StoreError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.submit(
            write,
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        );
        rx.recv()
            .unwrap_or_else(|_| Err(StoreError::Commit("the writer thread stopped".to_string())))
    }

    /// Runs every write in one transaction, each in its own savepoint, and
    /// commits. If the commit fails, every write fails.
    fn commit_batch(conn: &mut Connection, batch: Vec<Write>) -> Vec<Result<bool, StoreError>> {
        let mut tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                let text = e.to_string();
                return batch
                    .iter()
                    .map(|_| Err(StoreError::Commit(text.clone())))
                    .collect();
            }
        };
        let mut outcomes = Vec::with_capacity(batch.len());
        for w in batch {
            let outcome = tx.savepoint().map_err(StoreError::from).and_then(|mut sp| {
                // A failed write rolls its savepoint back when `sp` drops.
                let changed = SqliteStore::apply(&mut sp, w)?;
                sp.commit()?;
                Ok(changed)
            });
            outcomes.push(outcome);
        }
        if let Err(e) = tx.commit() {
            let text = e.to_string();
            for o in &mut outcomes {
                *o = Err(StoreError::Commit(text.clone()));
            }
        }
        outcomes
    }

    /// One write inside a transaction; `Ok(false)` when it changed nothing
    /// (a seat that is not free).
    fn apply(tx: &mut rusqlite::Savepoint<'_>, w: Write) -> Result<bool, StoreError> {
        match w {
            Write::Create(t) => {
                tx.execute(
                    "INSERT INTO tables (id, game, rules_version, players, options, seed, seed_hash,
                                         config, created_at, finished_at, public, invite_hash,
                                         creator_hash, owner, last_active, fair_secret,
                                         contributions)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?9,
                             ?15, ?16)",
                    params![
                        t.id,
                        t.game,
                        t.rules_version,
                        t.players as i64,
                        serde_json::to_string(&t.options)?,
                        if t.fair.is_some() {
                            String::new()
                        } else {
                            t.seed.to_string()
                        },
                        t.seed_hash,
                        serde_json::to_string(&t.config)?,
                        t.created_at,
                        t.finished_at,
                        i64::from(t.access.public),
                        t.access.invite_hash,
                        t.access.creator_hash,
                        t.access.owner,
                        t.fair.as_ref().map(|f| crate::fair::hex(&f.secret)),
                        t.fair.as_ref().map(|f| contributions_json(&f.contributions)),
                    ],
                )?;
                for s in &t.seats {
                    let (kind, bot, name, token_hash) = match &s.kind {
                        SeatKind::Bot(b) => ("bot", Some(b.as_str()), None, None),
                        SeatKind::Human { name, token_hash } => {
                            ("human", None, name.as_deref(), token_hash.as_deref())
                        }
                    };
                    tx.execute(
                        "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![t.id, s.seat.index() as i64, kind, bot, name, token_hash],
                    )?;
                }
                for a in &t.actions {
                    tx.execute(
                        "INSERT INTO actions (table_id, seq, seat, action, at)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![
                            t.id,
                            a.seq as i64,
                            a.seat.index() as i64,
                            a.action,
                            t.created_at
                        ],
                    )?;
                }
                Ok(true)
            }
            Write::Append {
                table,
                action,
                at,
                ends,
            } => {
                tx.prepare_cached(
                    "INSERT INTO actions (table_id, seq, seat, action, at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    table,
                    action.seq as i64,
                    action.seat.index() as i64,
                    action.action,
                    at
                ])?;
                // The game's end goes in the same transaction as its last
                // action (F3).
                let finished = ends.then_some(at);
                let ended = ends.then_some("over");
                let changed = tx
                    .prepare_cached(
                        "UPDATE tables SET last_active = ?2,
                           finished_at = COALESCE(finished_at, ?3), ended = COALESCE(ended, ?4)
                         WHERE id = ?1 AND finished_at IS NULL",
                    )?
                    .execute(params![table, at, finished, ended])?;
                if changed != 1 {
                    return Err(StoreError::Corrupt(format!(
                        "table {table} is over or missing: action {} refused",
                        action.seq
                    )));
                }
                Ok(true)
            }
            Write::Finish { table, at, ended } => {
                tx.execute(
                    "UPDATE tables SET finished_at = ?2, ended = ?3
                     WHERE id = ?1 AND finished_at IS NULL",
                    params![table, at, ended],
                )?;
                Ok(true)
            }
            Write::Abandon {
                before,
                unstarted_before,
                at,
                ended,
            } => {
                // The ids come from the update itself, so a table a join
                // or an action saved meanwhile is neither ended nor told
                // it was.
                let ids: Vec<String> = tx
                    .prepare(&format!(
                        "UPDATE tables SET finished_at = ?3, ended = 'abandoned' WHERE {IDLE}
                         RETURNING id"
                    ))?
                    .query_map(params![before, unstarted_before, at], |r| r.get(0))?
                    .collect::<Result<_, _>>()?;
                let any = !ids.is_empty();
                *ended.lock().unwrap_or_else(|p| p.into_inner()) = ids;
                Ok(any)
            }
            Write::Fill { table, seat, bot } => {
                let changed = tx.execute(
                    "UPDATE seats SET kind = 'bot', bot = ?3, name = NULL
                     WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL
                       AND EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND finished_at IS NULL)",
                    params![table, seat.index() as i64, bot],
                )?;
                Ok(changed == 1)
            }
            Write::TakeSeat {
                table,
                seat,
                name,
                token_hash,
                contribution,
            } => {
                let changed = tx.execute(
                    "UPDATE seats SET name = ?3, token_hash = ?4
                     WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL",
                    params![table, seat.index() as i64, name, token_hash],
                )?;
                if changed == 1 {
                    tx.execute(
                        "UPDATE tables SET last_active = ?2 WHERE id = ?1",
                        params![table, crate::table::unix_now()],
                    )?;
                    if let Some(c) = contribution {
                        let before: Option<String> = tx.query_row(
                            "SELECT contributions FROM tables WHERE id = ?1",
                            params![table],
                            |r| r.get(0),
                        )?;
                        let mut all = parse_contributions(before.as_deref())?;
                        all.insert(seat, c);
                        tx.execute(
                            "UPDATE tables SET contributions = ?2 WHERE id = ?1",
                            params![table, contributions_json(&all)],
                        )?;
                    }
                }
                Ok(changed == 1)
            }
        }
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half
        // done (rusqlite rolls back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A read connection: a free one if any, else the next in turn; the
    /// writer's own connection only for an in-memory database.
    fn reader(&self) -> MutexGuard<'_, Connection> {
        if self.readers.is_empty() {
            return self.conn();
        }
        for r in &self.readers {
            if let Ok(guard) = r.try_lock() {
                return guard;
            }
        }
        let i = self
            .next_reader
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            % self.readers.len();
        self.readers[i].lock().unwrap_or_else(|p| p.into_inner())
    }

    fn load_with(conn: &Connection, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let header = conn
            .query_row(
                "SELECT id, game, rules_version, players, options, seed, seed_hash, config,
                        created_at, finished_at, public, invite_hash, creator_hash, owner,
                        fair_secret, contributions
                 FROM tables WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                            r.get::<_, String>(6)?,
                            r.get::<_, String>(7)?,
                            r.get::<_, i64>(8)?,
                            r.get::<_, Option<i64>>(9)?,
                        ),
                        Access {
                            public: r.get::<_, i64>(10)? != 0,
                            invite_hash: r.get(11)?,
                            creator_hash: r.get(12)?,
                            owner: r.get(13)?,
                        },
                        (
                            r.get::<_, Option<String>>(14)?,
                            r.get::<_, Option<String>>(15)?,
                        ),
                    ))
                },
            )
            .optional()?;
        let Some((
            (
                id,
                game,
                rules_version,
                players,
                options,
                seed,
                seed_hash,
                config,
                created_at,
                finished_at,
            ),
            access,
            (secret, contributions),
        )) = header
        else {
            return Ok(None);
        };
        let mut seats = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT seat, kind, bot, name, token_hash FROM seats WHERE table_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?;
        for row in rows {
            let (seat, kind, bot, name, token_hash) = row?;
            let kind = match kind.as_str() {
                "bot" => SeatKind::Bot(bot.unwrap_or_else(|| "heuristic".to_string())),
                "human" => SeatKind::Human { name, token_hash },
                other => return Err(StoreError::Corrupt(format!("seat kind {other}"))),
            };
            seats.push(StoredSeat {
                seat: seat_of(seat)?,
                kind,
            });
        }
        let fair = match secret {
            None => None,
            Some(hex) => Some(StoredFair {
                secret: crate::fair::parse_hex32("secret", &hex)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                contributions: parse_contributions(contributions.as_deref())?,
            }),
        };
        let mut actions = Vec::new();
        let mut stmt =
            conn.prepare("SELECT seq, seat, action FROM actions WHERE table_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        for row in rows {
            let (seq, seat, action) = row?;
            actions.push(StoredAction {
                seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("seq {seq}")))?,
                seat: seat_of(seat)?,
                action,
            });
        }
        Ok(Some(StoredTable {
            id,
            game,
            rules_version,
            players: usize::try_from(players)
                .map_err(|_| StoreError::Corrupt(format!("players {players}")))?,
            options: serde_json::from_str(&options)?,
            seed: match &fair {
                Some(f) => f.seed(),
                None => seed
                    .parse()
                    .map_err(|_| StoreError::Corrupt(format!("seed {seed}")))?,
            },
            seed_hash,
            fair,
            config: serde_json::from_str(&config)?,
            created_at,
            finished_at,
            seats,
            actions,
            access,
        }))
    }
}

impl Store for SqliteStore {
    fn create_table(&self, t: &StoredTable) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(t.clone()))).map(|_| ())
    }

    fn append_action(
        &self,
        table: &str,
        a: &StoredAction,
        at: i64,
        ends: bool,
    ) -> Result<(), StoreError> {
        self.write(Write::Append {
            table: table.to_string(),
            action: a.clone(),
            at,
            ends,
        })
        .map(|_| ())
    }

    fn append_action_then(
        self: Arc<Self>,
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        done: Done<()>,
    ) {
        self.submit(
            Write::Append {
                table,
                action,
                at,
                ends,
            },
            Box::new(move |r| done(r.map(|_| ()))),
        );
    }

    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError> {
        self.write(Write::Finish {
            table: table.to_string(),
            at,
            ended: "over",
        })
        .map(|_| ())
    }

    fn mark_abandoned(&self, table: &str, at: i64) -> Result<(), StoreError> {
        self.write(Write::Finish {
            table: table.to_string(),
            at,
            ended: "abandoned",
        })
        .map(|_| ())
    }

    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError> {
        let ended = Arc::new(Mutex::new(Vec::new()));
        self.write(Write::Abandon {
            before,
            unstarted_before,
            at,
            ended: Arc::clone(&ended),
        })?;
        let ids = std::mem::take(&mut *ended.lock().unwrap_or_else(|p| p.into_inner()));
        Ok(ids)
    }

    fn fill_seat(&self, table: &str, seat: Seat, bot: &str) -> Result<bool, StoreError> {
        self.write(Write::Fill {
            table: table.to_string(),
            seat,
            bot: bot.to_string(),
        })
    }

    fn take_seat(
        &self,
        table: &str,
        seat: Seat,
        name: &str,
        token_hash: &str,
        contribution: Option<[u8; 32]>,
    ) -> Result<bool, StoreError> {
        self.write(Write::TakeSeat {
            table: table.to_string(),
            seat,
            name: name.to_string(),
            token_hash: token_hash.to_string(),
            contribution,
        })
    }

    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let conn = self.reader();
        // One read transaction: the header, seats and actions of one
        // moment.
        let tx = conn.unchecked_transaction()?;
        let table = SqliteStore::load_with(&tx, id)?;
        tx.finish()?;
        Ok(table)
    }

    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        let conn = self.reader();
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(t) = SqliteStore::load_with(&conn, &id)? {
                out.push(t);
            }
        }
        Ok(out)
    }

    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .reader()
            .prepare("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }

    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError> {
        let conn = self.reader();
        let all: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM tables WHERE finished_at IS NULL")?
            .query_row([], |r| r.get(0))?;
        let mine: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM tables WHERE owner = ?1 AND finished_at IS NULL")?
            .query_row(params![owner], |r| r.get(0))?;
        Ok((
            usize::try_from(all).unwrap_or(0),
            usize::try_from(mine).unwrap_or(0),
        ))
    }

    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(LIST)?;
        let rows = stmt.query_map(params![limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, game, players, created_at, finished_at, ended, free) = row?;
            let free_seats = usize::try_from(free).unwrap_or(0);
            out.push(TableSummary {
                id,
                game,
                players: usize::try_from(players).unwrap_or(0),
                free_seats,
                status: if ended.as_deref() == Some("abandoned") {
                    "abandoned"
                } else if finished_at.is_some() {
                    "finished"
                } else if free_seats > 0 {
                    "open"
                } else {
                    "playing"
                },
                created_at,
            });
        }
        Ok(out)
    }
}

/// The contributions column: a JSON object from seat (`P2`) to 64 hex
/// digits.
fn contributions_json(all: &BTreeMap<Seat, [u8; 32]>) -> String {
    let map: BTreeMap<String, String> = all
        .iter()
        .map(|(s, c)| (s.to_string(), crate::fair::hex(c)))
        .collect();
    serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_string())
}

fn parse_contributions(text: Option<&str>) -> Result<BTreeMap<Seat, [u8; 32]>, StoreError> {
    let map: BTreeMap<String, String> = serde_json::from_str(text.unwrap_or("{}"))?;
    map.into_iter()
        .map(|(s, c)| {
            let seat: Seat = s
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("contribution seat {s}")))?;
            let value = crate::fair::parse_contribution(&c)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            Ok((seat, value))
        })
        .collect()
}

/// Creates `path` readable and writable by its owner only if it does not
/// exist, and takes every other permission from an existing one. SQLite
/// gives its `-wal` and `-shm` files the database file's permissions.
fn private_file(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let io = |e: std::io::Error| StoreError::Corrupt(format!("{}: {e}", path.display()));
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        for suffix in ["", "-wal", "-shm"] {
            let p = format!("{}{suffix}", path.display());
            if std::path::Path::new(&p).exists() {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl Drop for SqliteStore {
    /// Stops the writer thread once it has committed what is queued.
    fn drop(&mut self) {
        self.writes = None;
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(id: &str) -> StoredTable {
        StoredTable {
            id: id.to_string(),
            game: "bigcheese".to_string(),
            rules_version: "bigcheese/1".to_string(),
            players: 3,
            options: [("dice".to_string(), "d6".to_string())].into(),
            seed: u64::MAX.into(),
            seed_hash: "abc".to_string(),
            fair: None,
            config: TableConfig::default(),
            created_at: 100,
            finished_at: None,
            seats: vec![
                StoredSeat {
                    seat: Seat::new(0),
                    kind: SeatKind::Human {
                        name: None,
                        token_hash: None,
                    },
                },
                StoredSeat {
                    seat: Seat::new(1),
                    kind: SeatKind::Bot("heuristic".to_string()),
                },
                StoredSeat {
                    seat: Seat::new(2),
                    kind: SeatKind::Bot("random".to_string()),
                },
            ],
            actions: Vec::new(),
            access: Access {
                public: true,
                ..Access::default()
            },
        }
    }

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "ratrace-store-{name}-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("test.db")
    }

    #[test]
    fn tables_seats_and_actions_survive_reopening() {
        let path = temp_db("reopen");
        {
            let s = SqliteStore::open(&path).unwrap();
            s.create_table(&table("t1")).unwrap();
            s.create_table(&table("t2")).unwrap();
            let a = |seq, seat, action: &str| StoredAction {
                seq,
                seat: Seat::new(seat),
                action: action.to_string(),
            };
            s.append_action("t1", &a(1, 1, "bid 2"), 101, false)
                .unwrap();
            s.append_action("t1", &a(2, 2, "pass"), 102, false).unwrap();
            assert!(
                s.append_action("t1", &a(2, 0, "pass"), 103, false).is_err(),
                "a seq is stored once"
            );
            assert!(s
                .take_seat("t1", Seat::new(0), "Ann", "hash", None)
                .unwrap());
            assert!(!s.take_seat("t1", Seat::new(0), "Bob", "h2", None).unwrap());
            assert!(!s.take_seat("t1", Seat::new(1), "Bob", "h2", None).unwrap());
            s.mark_finished("t2", 200).unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        let journal: String = s
            .conn()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(journal, "wal");
        let live = s.load_unfinished().unwrap();
        assert_eq!(live.len(), 1);
        let t = &live[0];
        assert_eq!(t.id, "t1");
        assert_eq!(t.seed, u64::MAX.into());
        assert_eq!(t.options["dice"], "d6");
        assert_eq!(t.actions.len(), 2);
        assert_eq!(t.actions[1].action, "pass");
        assert_eq!(t.actions[1].seat, Seat::new(2));
        assert_eq!(
            t.seats[0].kind,
            SeatKind::Human {
                name: Some("Ann".to_string()),
                token_hash: Some("hash".to_string())
            }
        );
        assert_eq!(t.seats[2].kind, SeatKind::Bot("random".to_string()));
        assert_eq!(s.load("t2").unwrap().unwrap().finished_at, Some(200));
        assert!(s.load("nope").unwrap().is_none());
        let list = s.list(10).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].id, "t2", "newest first");
        assert_eq!(list[0].status, "finished");
        assert_eq!(list[1].status, "playing");
        assert_eq!(list[1].free_seats, 0);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// F9: the lobby's list and the caps' counts read through indexes,
    /// with no scan of every table and no sort.
    #[test]
    fn lobby_and_cap_reads_use_indexes() {
        let s = SqliteStore::in_memory().unwrap();
        let plan = |sql: &str| -> String {
            let conn = s.conn();
            let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let rows: Vec<String> = stmt
                .query_map([1], |r| r.get::<_, String>(3))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            rows.join(" | ")
        };
        let list = plan(LIST);
        assert!(list.contains("tables_public_created"), "{list}");
        assert!(
            !list.contains("SCAN t") && !list.contains("TEMP B-TREE"),
            "{list}"
        );
        let mine = plan("SELECT COUNT(*) FROM tables WHERE owner = ?1 AND finished_at IS NULL");
        assert!(mine.contains("tables_owner_live"), "{mine}");
        let idle = plan(&format!("SELECT id FROM tables WHERE {IDLE}").replace("?2", "?1"));
        assert!(!idle.starts_with("SCAN"), "{idle}");
    }

    /// F3: the last action and the game's end are one write; an action
    /// after the end is refused.
    #[test]
    fn the_last_action_and_the_end_are_stored_together() {
        let s = SqliteStore::in_memory().unwrap();
        s.create_table(&table("e")).unwrap();
        let a = |seq| StoredAction {
            seq,
            seat: Seat::new(0),
            action: "pass".to_string(),
        };
        s.append_action("e", &a(1), 10, false).unwrap();
        assert_eq!(s.load("e").unwrap().unwrap().finished_at, None);
        s.append_action("e", &a(2), 11, true).unwrap();
        assert_eq!(s.load("e").unwrap().unwrap().finished_at, Some(11));
        assert!(s.append_action("e", &a(3), 12, false).is_err());
        assert_eq!(s.load("e").unwrap().unwrap().actions.len(), 2);
        assert_eq!(s.list(5).unwrap()[0].status, "finished");
    }

    #[test]
    fn idle_tables_are_abandoned_and_seats_filled_once() {
        let s = SqliteStore::in_memory().unwrap();
        s.create_table(&table("old")).unwrap();
        assert!(s.fill_seat("old", Seat::new(0), "random").unwrap());
        assert!(!s.fill_seat("old", Seat::new(0), "random").unwrap());
        assert!(!s.fill_seat("old", Seat::new(1), "random").unwrap());
        assert_eq!(
            s.load("old").unwrap().unwrap().seats[0].kind,
            SeatKind::Bot("random".to_string())
        );
        assert_eq!(s.count_live("nobody").unwrap(), (1, 0));
        assert!(
            s.abandon_idle(100, 100, 500).unwrap().is_empty(),
            "active at 100"
        );
        // A table that started is kept by the short rule...
        s.create_table(&table("begun")).unwrap();
        let pass = StoredAction {
            seq: 1,
            seat: Seat::new(1),
            action: "pass".to_string(),
        };
        s.append_action("begun", &pass, 100, false).unwrap();
        assert_eq!(
            s.abandon_idle(50, 101, 500).unwrap(),
            vec!["old".to_string()],
            "never started, idle since 100: ended by the short rule"
        );
        assert_eq!(s.load("old").unwrap().unwrap().finished_at, Some(500));
        assert_eq!(s.load("begun").unwrap().unwrap().finished_at, None);
        // ...and ended by the long one.
        assert_eq!(
            s.abandon_idle(101, 101, 500).unwrap(),
            vec!["begun".to_string()]
        );
        assert!(s.list(5).unwrap().iter().all(|t| t.status == "abandoned"));
        assert_eq!(s.count_live("nobody").unwrap(), (0, 0));
        assert!(s.unfinished_ids().unwrap().is_empty());
    }

    #[test]
    fn a_fair_tables_secret_and_contributions_survive_reopening() {
        let path = temp_db("fair");
        let secret = [7u8; 32];
        {
            let s = SqliteStore::open(&path).unwrap();
            let mut t = table("f");
            t.fair = Some(StoredFair {
                secret,
                contributions: BTreeMap::new(),
            });
            t.seed = t.fair.as_ref().unwrap().seed();
            s.create_table(&t).unwrap();
            assert!(s
                .take_seat("f", Seat::new(0), "Ann", "h", Some([9u8; 32]))
                .unwrap());
        }
        let s = SqliteStore::open(&path).unwrap();
        let t = s.load("f").unwrap().unwrap();
        let fair = t.fair.unwrap();
        assert_eq!(fair.secret, secret);
        assert_eq!(fair.contributions[&Seat::new(0)], [9u8; 32]);
        assert_eq!(t.seed, crate::fair::seed(&secret, &fair.contributions));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_table_id_is_stored_once() {
        let s = SqliteStore::in_memory().unwrap();
        s.create_table(&table("x")).unwrap();
        assert!(s.create_table(&table("x")).is_err());
        assert_eq!(s.list(10).unwrap()[0].status, "open");
    }

    #[test]
    fn concurrent_writes_are_group_committed_and_fail_alone() {
        let path = temp_db("group");
        let s = std::sync::Arc::new(SqliteStore::open(&path).unwrap());
        for i in 0..8 {
            s.create_table(&table(&format!("g{i}"))).unwrap();
        }
        let a = |seq| StoredAction {
            seq,
            seat: Seat::new(0),
            action: "pass".to_string(),
        };
        // Eight threads append 50 actions each; every fourth also retries
        // a seq that is already stored, which must fail on its own.
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let s = std::sync::Arc::clone(&s);
                std::thread::spawn(move || {
                    let id = format!("g{i}");
                    for seq in 1..=50 {
                        s.append_action(&id, &a(seq), 1, false).unwrap();
                        if seq % 4 == 0 {
                            assert!(s.append_action(&id, &a(seq), 1, false).is_err());
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // The non-blocking form reports once committed.
        let (tx, rx) = std::sync::mpsc::channel();
        std::sync::Arc::clone(&s).append_action_then(
            "g0".to_string(),
            a(51),
            2,
            false,
            Box::new(move |r| tx.send(r.is_ok()).unwrap()),
        );
        assert!(rx.recv().unwrap());
        drop(s);
        let s = SqliteStore::open(&path).unwrap();
        for t in s.load_unfinished().unwrap() {
            let want = if t.id == "g0" { 51 } else { 50 };
            assert_eq!(t.actions.len(), want, "{}", t.id);
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
