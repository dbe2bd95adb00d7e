//! The SQLite backend of [`Store`]: the embedded default for one machine,
//! one file, no server to run.
//!
//! WAL and `synchronous=FULL`: a write is on disk before its call returns.
//!
//! Group commit: the backend has one writer thread. Writes that arrive
//! while it commits queue up, and it commits all of them in the next
//! transaction (each in its own savepoint, so one failing write changes
//! nothing and does not affect the others). A caller learns the outcome of
//! its write only after the transaction holding it is committed, so many
//! tables share one `fsync` instead of paying one each, and nothing is
//! acknowledged before it is durable. [`Store::append_action_then`] lets
//! the table tasks wait for that without a blocking thread each. Claims
//! and heartbeats go through the same thread, so ownership changes are
//! serialised with the appends they fence.

use super::migrate::{self, MIGRATIONS};
use super::model::{
    contributions_json, parse_contributions, seat_of, Access, Done, Epoch, ListLine, Node,
    Ownership, PlayerGame, RatingRow, SeatKind, SeatSummary, Social, Store, StoreError,
    StoredAction, StoredFair, StoredSeat, StoredTable, TableDump, TableSummary,
};
use game::Seat;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

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
    done: Done<Applied>,
}

/// What a committed write reports.
#[derive(Debug)]
enum Applied {
    /// Whether it changed anything (a seat that was not free did not).
    Changed(bool),
    /// The ids it touched (the abandoned tables).
    Ids(Vec<String>),
    /// Who owns the table after a claim.
    Owner(Ownership),
    /// A value read back (the site's secret).
    Text(String),
}

impl Applied {
    fn changed(self) -> bool {
        match self {
            Applied::Changed(c) => c,
            Applied::Ids(ids) => !ids.is_empty(),
            Applied::Owner(o) => matches!(o, Ownership::Mine(_)),
            Applied::Text(_) => true,
        }
    }
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 1024;

/// A write waiting to be committed.
#[derive(Debug)]
enum Write {
    Create(Box<StoredTable>, String),
    Restore(Box<TableDump>),
    Append {
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    },
    Abandon {
        before: i64,
        unstarted_before: i64,
        at: i64,
    },
    Fill {
        table: String,
        seat: Seat,
        bot: String,
        epoch: Epoch,
    },
    Finish {
        table: String,
        at: i64,
        ended: &'static str,
        /// `None` for a repair, which needs no ownership.
        epoch: Option<Epoch>,
    },
    TakeSeat {
        table: String,
        seat: Seat,
        name: String,
        token_hash: String,
        contribution: Option<[u8; 32]>,
        player: Option<String>,
        origin: Option<String>,
        epoch: Epoch,
    },
    Contribute {
        table: String,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    },
    Heartbeat(Node),
    Leave(String),
    Claim {
        table: String,
        node: String,
        lease: Duration,
    },
    Release {
        table: String,
        node: String,
        epoch: Epoch,
    },
    /// Stores this secret unless the site has one; reads the site's back.
    SiteSecret(String),
    /// A finished table's analysis (replacing an earlier one).
    Analysis {
        table: String,
        format: String,
        body: String,
        at: i64,
    },
    /// A finished game's result and the ratings it moves.
    Result {
        table: String,
        result: Box<crate::store::ratings::GameResult>,
    },
}

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
           AND s.kind = 'human' AND s.token_hash IS NULL), t.result
     FROM tables t WHERE t.public = 1
     ORDER BY t.created_at DESC LIMIT ?1";

/// The tables a person sat at, newest first, with their seat (through
/// the index on `seats.player`).
const GAMES_OF: &str = "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = ?1 ORDER BY t.created_at DESC LIMIT ?2";

/// One line of a table list as read: id, game, players, created,
/// finished, ended, free seats, result.
type ListRow = (
    String,
    String,
    i64,
    i64,
    Option<i64>,
    Option<String>,
    i64,
    Option<String>,
);

fn list_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
    ))
}

/// A table list's line with its seats.
fn summary(conn: &Connection, row: ListRow) -> Result<TableSummary, StoreError> {
    let (id, game, players, created_at, finished_at, ended, free, result) = row;
    let seats = conn
        .prepare_cached(
            "SELECT seat, kind, bot, name FROM seats WHERE table_id = ?1 ORDER BY seat",
        )?
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?
        .map(|row| {
            let (seat, kind, bot, name) = row?;
            Ok(SeatSummary::of(seat_of(seat)?, &kind, bot, name))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let line = ListLine {
        id,
        game,
        players,
        created_at,
        finished_at,
        ended,
        free,
        result,
    };
    Ok(line.summary(seats))
}

/// A rating row as read: game, player, name, rating, uncertainty, score,
/// games.
fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        game: r.get(0)?,
        player: r.get(1)?,
        name: r.get(2)?,
        rating: r.get(3)?,
        uncertainty: r.get(4)?,
        score: r.get(5)?,
        games: u64::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
    })
}

const RATING_COLUMNS: &str = "game, player, name, rating, uncertainty, score, games";

/// How far behind the time of a table's last action its `last_active`
/// may be, in seconds (see the append).
const ACTIVE_GRAIN_S: i64 = 60;

/// What [`SqliteStore::fence`] reads besides the epoch.
struct Liveness {
    last_active: Option<i64>,
    finished_at: Option<i64>,
}

/// The tables the sweep ends as abandoned: unfinished, and idle since
/// `?1`, or never started (no action) and idle since `?2`.
const IDLE: &str = "finished_at IS NULL AND (COALESCE(last_active, created_at) < ?1
     OR (COALESCE(last_active, created_at) < ?2
         AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_id = tables.id)))";

/// A node is alive if its heartbeat is younger than the lease: the
/// condition on `tables.owner_node` that lets a claim through.
const OWNER_GONE: &str = "(owner_node IS NULL OR owner_node = ?2 OR NOT EXISTS (
       SELECT 1 FROM nodes n WHERE n.id = tables.owner_node AND n.heartbeat_ms > ?3))";

/// Milliseconds since the epoch by this machine's clock (one machine:
/// every process of a SQLite site shares it).
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The oldest heartbeat that still counts as alive under `lease`.
fn alive_since(lease: Duration) -> i64 {
    now_ms().saturating_sub(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
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
        SqliteStore::migrate(conn)
    }

    /// Applies the migrations this database lacks, in one transaction
    /// (`BEGIN IMMEDIATE`: two processes opening one file migrate once).
    fn migrate(conn: &Connection) -> Result<(), StoreError> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let outcome = SqliteStore::migrate_in(conn);
        let end = if outcome.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        conn.execute_batch(end)?;
        outcome
    }

    fn migrate_in(conn: &Connection) -> Result<(), StoreError> {
        conn.execute_batch(migrate::LEDGER)?;
        let done: i64 = conn.query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |r| r.get(0),
        )?;
        if done > migrate::latest() {
            return Err(StoreError::TooNew {
                found: done,
                known: migrate::latest(),
            });
        }
        if done == 0 {
            // A file from before migrations: its `tables` may lack the
            // columns issue 8 added (migration 1 creates only what is
            // missing).
            let have: Vec<String> = conn
                .prepare("SELECT name FROM pragma_table_info('tables')")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            if !have.is_empty() {
                for (name, kind) in ADDED_COLUMNS {
                    if !have.iter().any(|h| h == name) {
                        conn.execute_batch(&format!(
                            "ALTER TABLE tables ADD COLUMN {name} {kind}"
                        ))?;
                    }
                }
            }
        }
        for m in MIGRATIONS.iter().filter(|m| m.version > done) {
            conn.execute_batch(m.sqlite)?;
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                params![m.version, m.name, crate::clock::unix_now()],
            )?;
            tracing::info!("sqlite: schema migration {} applied: {}", m.version, m.name);
        }
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
            let (writes, dones): (Vec<Write>, Vec<Done<Applied>>) =
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
    fn submit(&self, write: Write, done: Done<Applied>) {
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
    fn write(&self, write: Write) -> Result<Applied, StoreError> {
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
    fn commit_batch(conn: &mut Connection, batch: Vec<Write>) -> Vec<Result<Applied, StoreError>> {
        // IMMEDIATE: the write lock is taken at BEGIN, where the busy
        // timeout waits for it, never later when a read snapshot would have
        // to be upgraded (which fails at once if another process of the
        // site wrote meanwhile).
        let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
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
            // Each write in its own savepoint, through cached statements
            // (rusqlite's `Savepoint` parses its SQL text every time, which
            // was a tenth of the writer's time under load).
            let outcome = SqliteStore::savepoint(&tx, "SAVEPOINT w").and_then(|()| {
                match SqliteStore::apply(&tx, w) {
                    Ok(changed) => {
                        SqliteStore::savepoint(&tx, "RELEASE w")?;
                        Ok(changed)
                    }
                    Err(e) => {
                        // A failed write is undone; the others stay.
                        SqliteStore::savepoint(&tx, "ROLLBACK TO w")?;
                        SqliteStore::savepoint(&tx, "RELEASE w")?;
                        Err(e)
                    }
                }
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

    /// Runs one savepoint statement (`SAVEPOINT w`, `RELEASE w`,
    /// `ROLLBACK TO w`), prepared once.
    fn savepoint(tx: &Connection, sql: &str) -> Result<(), StoreError> {
        tx.prepare_cached(sql)?.execute([])?;
        Ok(())
    }

    /// Fails with [`StoreError::Fenced`] unless `table` is owned under
    /// `epoch` (the table row is then write-locked by this transaction);
    /// else the table's `last_active` and `finished_at`, read in the same
    /// query for the append.
    fn fence(tx: &Connection, table: &str, epoch: Epoch) -> Result<Liveness, StoreError> {
        let row: Option<(Epoch, Option<i64>, Option<i64>)> = tx
            .prepare_cached("SELECT epoch, last_active, finished_at FROM tables WHERE id = ?1")?
            .query_row(params![table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        match row {
            Some((c, last_active, finished_at)) if c == epoch => Ok(Liveness {
                last_active,
                finished_at,
            }),
            Some((current, ..)) => Err(StoreError::Fenced {
                table: table.to_string(),
                epoch,
                current,
            }),
            None => Err(StoreError::Corrupt(format!("no table {table}"))),
        }
    }

    /// One write inside a transaction; `Changed(false)` when it changed
    /// nothing (a seat that is not free).
    fn apply(tx: &Connection, w: Write) -> Result<Applied, StoreError> {
        match w {
            Write::Create(t, node) => {
                SqliteStore::insert_table(tx, &t, None, None)?;
                tx.execute(
                    "UPDATE tables SET owner_node = ?2, epoch = 1 WHERE id = ?1",
                    params![t.id, node],
                )?;
                if let Some(old) = &t.social.rematch_of {
                    let linked = tx.execute(
                        "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
                        params![old, t.id],
                    )?;
                    if linked != 1 {
                        return Err(StoreError::Corrupt(format!(
                            "table {old} has a rematch already"
                        )));
                    }
                }
                for a in &t.actions {
                    SqliteStore::insert_action(tx, &t.id, a, t.created_at)?;
                }
                Ok(Applied::Changed(true))
            }
            Write::Restore(d) => {
                let t = &d.table;
                SqliteStore::insert_table(tx, t, d.last_active, d.ended.as_deref())?;
                for (i, a) in t.actions.iter().enumerate() {
                    let at = d.action_times.get(i).copied().unwrap_or(t.created_at);
                    SqliteStore::insert_action(tx, &t.id, a, at)?;
                }
                Ok(Applied::Changed(true))
            }
            Write::Append {
                table,
                action,
                at,
                ends,
                epoch,
            } => {
                let live = SqliteStore::fence(tx, &table, epoch)?;
                if live.finished_at.is_some() {
                    return Err(StoreError::Corrupt(format!(
                        "table {table} is over: action {} refused",
                        action.seq
                    )));
                }
                SqliteStore::insert_action(tx, &table, &action, at)?;
                // The game's end goes in the same transaction as its last
                // action (F3). `last_active` only serves the sweep of idle
                // tables (hours): it is moved on at most once a minute, not
                // with every action (rewriting the row and its index was a
                // good part of each commit).
                let stale = live.last_active.is_none_or(|l| at - l >= ACTIVE_GRAIN_S);
                if ends || stale {
                    let finished = ends.then_some(at);
                    let ended = ends.then_some("over");
                    tx.prepare_cached(
                        "UPDATE tables SET last_active = ?2,
                           finished_at = COALESCE(finished_at, ?3), ended = COALESCE(ended, ?4)
                         WHERE id = ?1",
                    )?
                    .execute(params![table, at, finished, ended])?;
                }
                Ok(Applied::Changed(true))
            }
            Write::Finish {
                table,
                at,
                ended,
                epoch,
            } => {
                if let Some(epoch) = epoch {
                    SqliteStore::fence(tx, &table, epoch)?;
                }
                tx.execute(
                    "UPDATE tables SET finished_at = ?2, ended = ?3
                     WHERE id = ?1 AND finished_at IS NULL",
                    params![table, at, ended],
                )?;
                Ok(Applied::Changed(true))
            }
            Write::Abandon {
                before,
                unstarted_before,
                at,
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
                Ok(Applied::Ids(ids))
            }
            Write::Fill {
                table,
                seat,
                bot,
                epoch,
            } => {
                SqliteStore::fence(tx, &table, epoch)?;
                let changed = tx.execute(
                    "UPDATE seats SET kind = 'bot', bot = ?3, name = NULL
                     WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL
                       AND EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND finished_at IS NULL)",
                    params![table, seat.index() as i64, bot],
                )?;
                Ok(Applied::Changed(changed == 1))
            }
            Write::Contribute {
                table,
                seat,
                value,
                epoch,
            } => {
                let live = SqliteStore::fence(tx, &table, epoch)?;
                if live.finished_at.is_some() {
                    return Ok(Applied::Changed(false));
                }
                let before: Option<String> = tx.query_row(
                    "SELECT contributions FROM tables WHERE id = ?1",
                    params![table],
                    |r| r.get(0),
                )?;
                let mut all = parse_contributions(before.as_deref())?;
                if all.contains_key(&seat) {
                    return Ok(Applied::Changed(false));
                }
                all.insert(seat, value);
                tx.execute(
                    "UPDATE tables SET contributions = ?2, last_active = ?3 WHERE id = ?1",
                    params![table, contributions_json(&all), crate::clock::unix_now()],
                )?;
                Ok(Applied::Changed(true))
            }
            Write::TakeSeat {
                table,
                seat,
                name,
                token_hash,
                contribution,
                player,
                origin,
                epoch,
            } => {
                SqliteStore::fence(tx, &table, epoch)?;
                let changed = tx.execute(
                    "UPDATE seats SET name = ?3, token_hash = ?4, player = ?5, origin = ?6
                     WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL
                       AND EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND finished_at IS NULL)",
                    params![table, seat.index() as i64, name, token_hash, player, origin],
                )?;
                if changed == 1 {
                    tx.execute(
                        "UPDATE tables SET last_active = ?2 WHERE id = ?1",
                        params![table, crate::clock::unix_now()],
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
                Ok(Applied::Changed(changed == 1))
            }
            Write::Heartbeat(node) => {
                tx.prepare_cached(
                    "INSERT INTO nodes (id, url, heartbeat_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT (id) DO UPDATE SET url = ?2, heartbeat_ms = ?3",
                )?
                .execute(params![node.id, node.url, now_ms()])?;
                Ok(Applied::Changed(true))
            }
            Write::Leave(node) => {
                tx.execute("DELETE FROM nodes WHERE id = ?1", params![node])?;
                Ok(Applied::Changed(true))
            }
            Write::Claim { table, node, lease } => {
                let epoch: Option<Epoch> = tx
                    .prepare_cached(&format!(
                        "UPDATE tables SET owner_node = ?2, epoch = epoch + 1
                         WHERE id = ?1 AND {OWNER_GONE} RETURNING epoch"
                    ))?
                    .query_row(params![table, node, alive_since(lease)], |r| r.get(0))
                    .optional()?;
                if let Some(e) = epoch {
                    return Ok(Applied::Owner(Ownership::Mine(e)));
                }
                let owner: Option<(String, String)> = tx
                    .query_row(
                        "SELECT t.owner_node, COALESCE(n.url, '') FROM tables t
                         LEFT JOIN nodes n ON n.id = t.owner_node WHERE t.id = ?1",
                        params![table],
                        |r| {
                            Ok((
                                r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                                r.get(1)?,
                            ))
                        },
                    )
                    .optional()?;
                Ok(Applied::Owner(match owner {
                    None => Ownership::Missing,
                    Some((id, url)) => Ownership::Other(Node { id, url }),
                }))
            }
            Write::Release { table, node, epoch } => {
                let changed = tx.execute(
                    "UPDATE tables SET owner_node = NULL
                     WHERE id = ?1 AND owner_node = ?2 AND epoch = ?3",
                    params![table, node, epoch],
                )?;
                Ok(Applied::Changed(changed == 1))
            }
            Write::Result { table, result } => {
                let changed = tx
                    .prepare_cached(
                        "UPDATE tables SET result = ?2 WHERE id = ?1 AND result IS NULL
                           AND finished_at IS NOT NULL AND ended = 'over'",
                    )?
                    .execute(params![table, result.outcome])?;
                if changed != 1 {
                    return Ok(Applied::Changed(false));
                }
                if !crate::store::ratings::rateable(&result) {
                    return Ok(Applied::Changed(true));
                }
                let mut now = std::collections::HashMap::new();
                for id in crate::store::ratings::people(&result) {
                    let standing = tx
                        .prepare_cached(
                            "SELECT rating, uncertainty, games FROM ratings
                             WHERE game = ?1 AND player = ?2",
                        )?
                        .query_row(params![result.game, id], |r| {
                            Ok(crate::store::ratings::Standing {
                                rating: crate::store::ratings::Rating {
                                    rating: r.get(0)?,
                                    uncertainty: r.get(1)?,
                                },
                                games: r.get(2)?,
                            })
                        })
                        .optional()?;
                    if let Some(standing) = standing {
                        now.insert(id.to_string(), standing);
                    }
                }
                for m in crate::store::ratings::moves(&result, &now) {
                    tx.prepare_cached(
                        "INSERT INTO ratings (game, player, name, rating, uncertainty, score,
                                              games, updated_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7)
                         ON CONFLICT (game, player) DO UPDATE SET name = ?3, rating = ?4,
                           uncertainty = ?5, score = ?6, games = ratings.games + 1,
                           updated_at = ?7",
                    )?
                    .execute(params![
                        result.game,
                        m.id,
                        m.name,
                        m.rating.rating,
                        m.rating.uncertainty,
                        m.rating.score(),
                        result.at
                    ])?;
                }
                Ok(Applied::Changed(true))
            }
            Write::Analysis {
                table,
                format,
                body,
                at,
            } => {
                let n = tx
                    .prepare_cached(
                        "INSERT INTO analyses (table_id, format, body, created_at)
                         VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (table_id) DO UPDATE SET format = ?2, body = ?3,
                           created_at = ?4",
                    )?
                    .execute(params![table, format, body, at])?;
                Ok(Applied::Changed(n > 0))
            }
            Write::SiteSecret(fresh) => {
                tx.prepare_cached(
                    "INSERT INTO site (key, value) VALUES ('secret', ?1)
                     ON CONFLICT (key) DO NOTHING",
                )?
                .execute(params![fresh])?;
                let value = tx
                    .prepare_cached("SELECT value FROM site WHERE key = 'secret'")?
                    .query_row([], |r| r.get(0))?;
                Ok(Applied::Text(value))
            }
        }
    }

    /// Inserts a table's header and seats (not its actions).
    fn insert_table(
        tx: &Connection,
        t: &StoredTable,
        last_active: Option<i64>,
        ended: Option<&str>,
    ) -> Result<(), StoreError> {
        tx.execute(
            "INSERT INTO tables (id, game, rules_version, players, options, seed, seed_hash,
                                         config, created_at, finished_at, public, invite_hash,
                                         creator_hash, owner, last_active, fair_secret,
                                         contributions, ended, rematch, rematch_of, result,
                                         fair_scheme)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,
                             COALESCE(?17, ?9), ?15, ?16, ?18, ?19, ?20, ?21, ?22)",
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
                t.fair.as_ref().map(|f| registry::fair::hex(&f.secret)),
                t.fair
                    .as_ref()
                    .map(|f| contributions_json(&f.contributions)),
                last_active,
                ended,
                t.social.rematch,
                t.social.rematch_of,
                t.social.result,
                t.fair.as_ref().map(super::model::fair_scheme),
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
                "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, player, origin)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    t.id,
                    s.seat.index() as i64,
                    kind,
                    bot,
                    name,
                    token_hash,
                    t.social.players.get(&s.seat),
                    t.social.origins.get(&s.seat)
                ],
            )?;
        }
        Ok(())
    }

    /// Inserts one action row.
    fn insert_action(
        tx: &Connection,
        table: &str,
        action: &StoredAction,
        at: i64,
    ) -> Result<(), StoreError> {
        tx.prepare_cached(
            "INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            table,
            action.seq as i64,
            action.seat.index() as i64,
            action.action,
            at
        ])?;
        Ok(())
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
                        fair_secret, contributions, rematch, rematch_of, result, fair_scheme
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
                            r.get::<_, Option<i64>>(19)?,
                        ),
                        Social {
                            rematch: r.get(16)?,
                            rematch_of: r.get(17)?,
                            result: r.get(18)?,
                            players: BTreeMap::new(),
                            origins: BTreeMap::new(),
                        },
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
            (secret, contributions, scheme),
            mut social,
        )) = header
        else {
            return Ok(None);
        };
        let mut seats = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT seat, kind, bot, name, token_hash, player, origin FROM seats
             WHERE table_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<String>>(6)?,
            ))
        })?;
        for row in rows {
            let (seat, kind, bot, name, token_hash, player, origin) = row?;
            if let Some(p) = player {
                social.players.insert(seat_of(seat)?, p);
            }
            if let Some(o) = origin {
                social.origins.insert(seat_of(seat)?, o);
            }
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
                secret: registry::fair::parse_hex32("secret", &hex)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                contributions: parse_contributions(contributions.as_deref())?,
                table: super::model::fair_table(scheme, &id)?,
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
            social,
        }))
    }
}

impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn create_table(&self, t: &StoredTable, node: &str) -> Result<Epoch, StoreError> {
        self.write(Write::Create(Box::new(t.clone()), node.to_string()))
            .map(|_| 1)
    }

    fn append_action(
        &self,
        table: &str,
        a: &StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    ) -> Result<(), StoreError> {
        self.write(Write::Append {
            table: table.to_string(),
            action: a.clone(),
            at,
            ends,
            epoch,
        })
        .map(|_| ())
    }

    fn append_action_then(
        self: Arc<Self>,
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
        done: Done<()>,
    ) {
        self.submit(
            Write::Append {
                table,
                action,
                at,
                ends,
                epoch,
            },
            Box::new(move |r| done(r.map(|_| ()))),
        );
    }

    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError> {
        self.write(Write::Finish {
            table: table.to_string(),
            at,
            ended: "over",
            epoch: None,
        })
        .map(|_| ())
    }

    fn mark_abandoned(&self, table: &str, at: i64, epoch: Epoch) -> Result<(), StoreError> {
        self.write(Write::Finish {
            table: table.to_string(),
            at,
            ended: "abandoned",
            epoch: Some(epoch),
        })
        .map(|_| ())
    }

    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError> {
        match self.write(Write::Abandon {
            before,
            unstarted_before,
            at,
        })? {
            Applied::Ids(ids) => Ok(ids),
            other => Err(StoreError::Commit(format!("abandon reported {other:?}"))),
        }
    }

    fn fill_seat(
        &self,
        table: &str,
        seat: Seat,
        bot: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::Fill {
            table: table.to_string(),
            seat,
            bot: bot.to_string(),
            epoch,
        })
        .map(Applied::changed)
    }

    fn take_seat_as(
        &self,
        table: &str,
        seat: Seat,
        name: &str,
        token_hash: &str,
        contribution: Option<[u8; 32]>,
        player: Option<&str>,
        origin: Option<&str>,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::TakeSeat {
            table: table.to_string(),
            seat,
            name: name.to_string(),
            token_hash: token_hash.to_string(),
            contribution,
            player: player.map(str::to_string),
            origin: origin.map(str::to_string),
            epoch,
        })
        .map(Applied::changed)
    }

    fn unrecorded_ids(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let ids = conn
            .prepare_cached(
                "SELECT id FROM tables WHERE ended = 'over' AND result IS NULL AND id > ?1
                 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![after, limit as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn contribute(
        &self,
        table: &str,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::Contribute {
            table: table.to_string(),
            seat,
            value,
            epoch,
        })
        .map(Applied::changed)
    }

    fn heartbeat(&self, node: &Node) -> Result<(), StoreError> {
        self.write(Write::Heartbeat(node.clone())).map(|_| ())
    }

    fn leave(&self, node: &str) -> Result<(), StoreError> {
        self.write(Write::Leave(node.to_string())).map(|_| ())
    }

    fn claim(&self, id: &str, node: &str, lease: Duration) -> Result<Ownership, StoreError> {
        match self.write(Write::Claim {
            table: id.to_string(),
            node: node.to_string(),
            lease,
        })? {
            Applied::Owner(o) => Ok(o),
            other => Err(StoreError::Commit(format!("claim reported {other:?}"))),
        }
    }

    fn release(&self, id: &str, node: &str, epoch: Epoch) -> Result<(), StoreError> {
        self.write(Write::Release {
            table: id.to_string(),
            node: node.to_string(),
            epoch,
        })
        .map(|_| ())
    }

    fn orphans(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM tables t WHERE owner_node IS NOT NULL AND owner_node <> ?1
               AND finished_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM nodes n
                               WHERE n.id = t.owner_node AND n.heartbeat_ms > ?2)
             LIMIT ?3",
        )?;
        let ids = stmt
            .query_map(params![node, alive_since(lease), limit as i64], |r| {
                r.get(0)
            })?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn live_nodes(&self, lease: Duration) -> Result<Vec<Node>, StoreError> {
        let conn = self.reader();
        let mut stmt =
            conn.prepare_cached("SELECT id, url FROM nodes WHERE heartbeat_ms > ?1 ORDER BY id")?;
        let nodes = stmt
            .query_map(params![alive_since(lease)], |r| {
                Ok(Node {
                    id: r.get(0)?,
                    url: r.get(1)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(nodes)
    }

    fn ids_after(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt =
            conn.prepare_cached("SELECT id FROM tables WHERE id > ?1 ORDER BY id LIMIT ?2")?;
        let ids = stmt
            .query_map(params![after, limit as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn dump(&self, id: &str) -> Result<Option<TableDump>, StoreError> {
        let conn = self.reader();
        let tx = conn.unchecked_transaction()?;
        let Some(table) = SqliteStore::load_with(&tx, id)? else {
            return Ok(None);
        };
        let (last_active, ended) = tx.query_row(
            "SELECT last_active, ended FROM tables WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let action_times = tx
            .prepare("SELECT at FROM actions WHERE table_id = ?1 ORDER BY seq")?
            .query_map(params![id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        tx.finish()?;
        Ok(Some(TableDump {
            table,
            last_active,
            ended,
            action_times,
        }))
    }

    fn restore(&self, dump: &TableDump) -> Result<(), StoreError> {
        self.write(Write::Restore(Box::new(dump.clone())))
            .map(|_| ())
    }

    fn site_secret(&self) -> Result<String, StoreError> {
        let fresh = registry::fair::hex(&rand::random::<[u8; 32]>());
        match self.write(Write::SiteSecret(fresh))? {
            Applied::Text(value) => Ok(value),
            other => Err(StoreError::Commit(format!(
                "site secret reported {other:?}"
            ))),
        }
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
        let rows: Vec<ListRow> = conn
            .prepare_cached(LIST)?
            .query_map(params![limit as i64], list_row)?
            .collect::<Result<_, _>>()?;
        rows.into_iter().map(|row| summary(&conn, row)).collect()
    }

    fn record_result(
        &self,
        table: &str,
        result: &crate::store::ratings::GameResult,
    ) -> Result<bool, StoreError> {
        self.write(Write::Result {
            table: table.to_string(),
            result: Box::new(result.clone()),
        })
        .map(Applied::changed)
    }

    fn games_of(&self, player: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let conn = self.reader();
        let rows: Vec<(ListRow, i64)> = conn
            .prepare_cached(GAMES_OF)?
            .query_map(params![player, limit as i64], |r| {
                Ok((list_row(r)?, r.get(8)?))
            })?
            .collect::<Result<_, _>>()?;
        rows.into_iter()
            .map(|(row, seat)| {
                Ok(PlayerGame {
                    table: summary(&conn, row)?,
                    seat: seat_of(seat)?,
                })
            })
            .collect()
    }

    fn leaderboard(&self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StoreError> {
        let conn = self.reader();
        let rows = conn
            .prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE game = ?1
                 ORDER BY score DESC, player LIMIT ?2"
            ))?
            .query_map(params![game, limit as i64], rating_row)?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    fn put_analysis(
        &self,
        table: &str,
        format: &str,
        body: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Analysis {
            table: table.to_string(),
            format: format.to_string(),
            body: body.to_string(),
            at,
        })
        .map(|_| ())
    }

    fn analysis(&self, table: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(self
            .reader()
            .prepare_cached("SELECT format, body FROM analyses WHERE table_id = ?1")?
            .query_row(params![table], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StoreError> {
        let conn = self.reader();
        let mut out = Vec::new();
        for game in registry::GAMES {
            let row = conn
                .prepare_cached(&format!(
                    "SELECT {RATING_COLUMNS} FROM ratings WHERE game = ?1 AND player = ?2"
                ))?
                .query_row(params![game, player], rating_row)
                .optional()?;
            out.extend(row);
        }
        Ok(out)
    }
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
    use super::super::contract;
    use super::*;

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "ratrace-store-{name}-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("test.db")
    }

    /// Runs `check` on a fresh database file, then removes it.
    fn on_file(name: &str, check: impl FnOnce(Arc<dyn Store>)) {
        let path = temp_db(name);
        check(Arc::new(SqliteStore::open(&path).unwrap()));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// Runs `check` on a fresh in-memory database.
    fn in_memory(check: impl FnOnce(Arc<dyn Store>)) {
        check(Arc::new(SqliteStore::in_memory().unwrap()));
    }

    /// The contract on a database file.
    mod file {
        use super::super::super::contract;
        contract::contract_tests!(super::on_file_fresh);
    }

    /// The contract on an in-memory database.
    mod memory {
        use super::super::super::contract;
        contract::contract_tests!(super::in_memory);
    }

    fn on_file_fresh(check: impl FnOnce(Arc<dyn Store>)) {
        on_file("contract", check);
    }

    #[test]
    fn concurrent_appends_and_a_dump_hold_on_file() {
        on_file("group", contract::concurrent_appends);
        on_file("dump", |from| {
            contract::dump_and_restore(from.as_ref(), &SqliteStore::in_memory().unwrap());
        });
    }

    #[test]
    fn tables_survive_reopening_with_wal() {
        let path = temp_db("reopen");
        {
            let s = SqliteStore::open(&path).unwrap();
            s.create_table(&contract::table("t1"), "n").unwrap();
            s.append_action("t1", &contract::act(1, 1, "bid 2"), 101, false, 1)
                .unwrap();
            let mut fair = contract::table("f");
            fair.fair = Some(StoredFair {
                secret: [7; 32],
                contributions: std::collections::BTreeMap::new(),
                table: Some("f".into()),
            });
            s.create_table(&fair, "n").unwrap();
            assert!(s
                .take_seat("f", Seat::new(0), "Ann", "h", Some([9; 32]), 1)
                .unwrap());
        }
        let s = SqliteStore::open(&path).unwrap();
        let journal: String = s
            .conn()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(journal, "wal");
        assert_eq!(s.load("t1").unwrap().unwrap().actions.len(), 1);
        let fair = s.load("f").unwrap().unwrap().fair.unwrap();
        assert_eq!(fair.contributions[&Seat::new(0)], [9; 32]);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// A file from before migrations (issue 4's schema: no issue 8
    /// columns, no ledger) is brought up to date with its rows; a file
    /// from a newer ratrace is refused.
    #[test]
    fn old_files_are_migrated_and_newer_ones_refused() {
        let path = temp_db("migrate");
        {
            let c = Connection::open(&path).unwrap();
            c.execute_batch(
                "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,
                   rules_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
                   seed TEXT NOT NULL, seed_hash TEXT NOT NULL, config TEXT NOT NULL,
                   created_at INTEGER NOT NULL, finished_at INTEGER);
                 CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,
                   kind TEXT NOT NULL, bot TEXT, name TEXT, token_hash TEXT,
                   PRIMARY KEY (table_id, seat));
                 CREATE TABLE actions (table_id TEXT NOT NULL, seq INTEGER NOT NULL,
                   seat INTEGER NOT NULL, action TEXT NOT NULL, at INTEGER NOT NULL,
                   PRIMARY KEY (table_id, seq));
                 INSERT INTO tables VALUES ('old', 'bigcheese', 'bigcheese/1', 3, '{}', '42',
                   'h', '{}', 5, NULL);
                 INSERT INTO seats VALUES ('old', 0, 'bot', 'random', NULL, NULL),
                   ('old', 1, 'bot', 'random', NULL, NULL), ('old', 2, 'bot', 'random', NULL, NULL);
                 INSERT INTO actions VALUES ('old', 1, 0, 'pass', 6);",
            )
            .unwrap();
        }
        {
            let s = SqliteStore::open(&path).unwrap();
            let t = s.load("old").unwrap().unwrap();
            assert_eq!((t.actions.len(), t.access.public), (1, true));
            assert_eq!(
                s.claim("old", "n", Duration::from_secs(5)).unwrap(),
                Ownership::Mine(1)
            );
            let versions: Vec<i64> = s
                .conn()
                .prepare("SELECT version FROM schema_migrations ORDER BY version")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(versions, (1..=migrate::latest()).collect::<Vec<_>>());
            s.conn()
                .execute(
                    "INSERT INTO schema_migrations VALUES (?1, 'from the future', 0)",
                    params![migrate::latest() + 1],
                )
                .unwrap();
        }
        assert!(matches!(
            SqliteStore::open(&path),
            Err(StoreError::TooNew { .. })
        ));
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
}
