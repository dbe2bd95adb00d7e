//! The PostgreSQL backend of [`Store`]: one database shared by several
//! `ratrace serve` processes (issue 9), with the SQLite backend's
//! semantics, statement for statement.
//!
//! Shape: a pool of connections ([`deadpool_postgres`] over
//! [`tokio_postgres`]) driven by the server's tokio runtime, behind the
//! synchronous [`Store`] trait. [`PgStore::connect`] is `async` and keeps
//! a handle to the runtime it is called in; each blocking trait method
//! spawns its work onto that runtime and waits for the outcome on a
//! channel. So the blocking methods must be called from a thread that may
//! block (tokio's blocking pool, `spawn_blocking`, or a plain thread), never
//! from an async worker thread: there a wait could starve the very runtime
//! that is to do the work. [`Store::append_action_then`] queues its work and
//! returns at once, calling `done` from the task that commits it, so it
//! blocks no one.
//!
//! Durability: every write is committed before its call returns (or its
//! `done` is called), with `synchronous_commit` left at its default
//! (`on`). Statements are prepared once per connection (deadpool's cache).
//!
//! Group commit of appends (the one hot write): [`Store::append_action`]
//! and [`Store::append_action_then`] queue the action in one of a few
//! lanes, tokio tasks each committing one batch at a time on a pooled
//! connection. A lane takes every append queued (up to 64) and runs them
//! in one transaction, each in its own savepoint, so one commit (one WAL
//! flush) serves the whole batch. The appends' statements are pipelined:
//! all are sent at once, append after append, each in a savepoint nested
//! in the previous one's. The first append that fails (a duplicate seq, a
//! stale epoch, a finished game) is rolled back to its savepoint with the
//! ones after it, which are then sent again, so it fails alone, with the
//! error it would have had on its own ([`StoreError::Fenced`] for a stale
//! epoch), and the others are stored. Each caller hears its outcome only
//! after the commit; if the commit fails, every append of the batch that
//! had succeeded fails with [`StoreError::Commit`]. A table's appends
//! always go to the same lane (a hash of its id), so they run in the order
//! they were made. Other writes (seats, claims, heartbeats, ends) are rare
//! and stay one transaction each.
//!
//! Deadlocks: a batch holds the rows of many tables until it commits, so
//! it locks them in one order, byte order of the id; the sweep of idle
//! tables (the other write that locks several rows) locks in that order
//! too. Batches of other lanes or other processes, and the sweep, never
//! wait for each other in a cycle; the other writes lock one table's row.
//!
//! Ownership: a write that must be fenced first locks its table's row
//! (`SELECT … FOR UPDATE`) and compares the epoch, so a claim (an `UPDATE`
//! of the same row) is ordered before or after it, never across it. Times
//! of heartbeats and leases come from the database's clock, never the
//! process's, so processes on different machines agree on who is alive.
//!
//! Migrations run at connect, in one transaction that first takes an
//! advisory lock, so processes starting together migrate once.
//!
//! Connections are plain TCP or Unix sockets (no TLS, to keep the build
//! lean): reach the database over a trusted network or a local socket.
//! Error texts never contain the password of the connection URL.

use super::migrate::{self, MIGRATIONS};
use super::model::Change;
use super::model::{
    contributions_json, parse_contributions, seat_of, Access, Done, Epoch, ListLine, Node,
    Ownership, PlayerGame, RatingRow, SeatKind, SeatSummary, Social, Store, StoreError,
    StoredAction, StoredFair, StoredSeat, StoredTable, TableDump, TableSummary,
};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime, Transaction};
use game::Seat;
use std::future::Future;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{IsolationLevel, NoTls, Row, Statement};

/// The database's clock in milliseconds since the epoch (a literal for
/// `concat!`).
macro_rules! now_ms {
    () => {
        "(floor(extract(epoch from clock_timestamp()) * 1000)::bigint)"
    };
}

/// Connections in the pool: enough for the lanes of the group commit
/// ([`LANES`]) and the other calls of a busy process, few enough for a
/// server's `max_connections` to serve several processes.
const POOL_SIZE: usize = 16;

/// Lanes of the group commit: each commits one batch of appends at a time
/// on a connection of the pool, so up to this many batches are in flight
/// (one filling while another waits for its `fsync`).
const LANES: usize = 4;

/// The most appends one transaction holds. Each has a savepoint (a
/// subtransaction): PostgreSQL keeps up to 64 of a transaction's in
/// shared memory, past which every snapshot of every session slows down
/// while it runs.
const MAX_BATCH: usize = 64;

/// How long a call waits for a free connection of the pool before it
/// fails.
const WAIT: Duration = Duration::from_secs(30);
/// How long making a new connection (or checking a pooled one) may take.
const CONNECT: Duration = Duration::from_secs(10);

/// The key of the advisory lock that serialises migrations ("ratrace").
const MIGRATION_LOCK: i64 = 0x0072_6174_7261_6365;

/// The lobby's list: the newest public tables (as SQLite's `LIST`).
const LIST: &str = "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id
           AND s.kind = 'human' AND s.token_hash IS NULL), t.result
     FROM tables t WHERE t.public = 1
     ORDER BY t.created_at DESC LIMIT $1";

/// The tables a person sat at, newest first, with their seat (as
/// SQLite's `GAMES_OF`).
const GAMES_OF: &str = "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = $1 ORDER BY t.created_at DESC LIMIT $2";

/// The columns of a rating row.
/// Lines of a table list (the rows of [`LIST`] or [`GAMES_OF`]) with
/// their seats, read in one more query; the seat of [`GAMES_OF`]'s rows.
async fn summaries(
    pool: Pool,
    sql: &'static str,
    params: Params,
) -> Result<Vec<(TableSummary, Option<i64>)>, StoreError> {
    let rows = query(pool.clone(), sql, params).await?;
    let ids = ids(&rows)?;
    let client = pool.get().await?;
    let stmt = client
        .prepare_cached(
            "SELECT table_id, seat, kind, bot, name FROM seats WHERE table_id = ANY($1)
             ORDER BY table_id, seat",
        )
        .await?;
    let mut seats: std::collections::HashMap<String, Vec<SeatSummary>> =
        std::collections::HashMap::new();
    for r in client.query(&stmt, &[&ids]).await? {
        let kind: String = r.try_get(2)?;
        seats
            .entry(r.try_get(0)?)
            .or_default()
            .push(SeatSummary::of(
                seat_of(r.try_get(1)?)?,
                &kind,
                r.try_get(3)?,
                r.try_get(4)?,
            ));
    }
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.try_get(0)?;
        let seat: Option<i64> = if r.len() > 8 { r.try_get(8)? } else { None };
        let line = ListLine {
            id,
            game: r.try_get(1)?,
            players: r.try_get(2)?,
            created_at: r.try_get(3)?,
            finished_at: r.try_get(4)?,
            ended: r.try_get(5)?,
            free: r.try_get(6)?,
            result: r.try_get(7)?,
        };
        let seats = seats.remove(&line.id).unwrap_or_default();
        out.push((line.summary(seats), seat));
    }
    Ok(out)
}

fn rating_row(r: &Row) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        game: r.try_get(0)?,
        player: r.try_get(1)?,
        name: r.try_get(2)?,
        rating: r.try_get(3)?,
        uncertainty: r.try_get(4)?,
        score: r.try_get(5)?,
        games: u64::try_from(r.try_get::<_, i64>(6)?).unwrap_or(0),
    })
}

/// Records a result and moves the ratings (see [`Store::record_result`]):
/// the people's rating rows are made if missing and locked in byte order
/// of their ids, so two games ending together never wait for each other
/// in a cycle, and neither loses the other's update.
async fn record(
    pool: Pool,
    table: String,
    result: crate::store::ratings::GameResult,
) -> Result<bool, StoreError> {
    use crate::store::ratings::Rating;
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE tables SET result = $2 WHERE id = $1 AND result IS NULL
               AND finished_at IS NOT NULL AND ended = 'over'",
        )
        .await?;
    if tx.execute(&stmt, &[&table, &result.outcome]).await? != 1 {
        return Ok(false);
    }
    if crate::store::ratings::rateable(&result) {
        let people = crate::store::ratings::people(&result);
        let start = Rating::START;
        let stmt = tx
            .prepare_cached(
                "INSERT INTO ratings (game, player, name, rating, uncertainty, score, games,
                                      updated_at)
                 VALUES ($1, $2, '', $3, $4, $5, 0, $6) ON CONFLICT (game, player) DO NOTHING",
            )
            .await?;
        for id in &people {
            tx.execute(
                &stmt,
                &[
                    &result.game,
                    id,
                    &start.rating,
                    &start.uncertainty,
                    &start.score(),
                    &result.at,
                ],
            )
            .await?;
        }
        let stmt = tx
            .prepare_cached(
                "SELECT player, rating, uncertainty, games FROM ratings
                 WHERE game = $1 AND player = ANY($2) ORDER BY player FOR UPDATE",
            )
            .await?;
        let mut now = std::collections::HashMap::new();
        for r in tx.query(&stmt, &[&result.game, &people]).await? {
            now.insert(
                r.try_get::<_, String>(0)?,
                crate::store::ratings::Standing {
                    rating: Rating {
                        rating: r.try_get(1)?,
                        uncertainty: r.try_get(2)?,
                    },
                    games: r.try_get(3)?,
                },
            );
        }
        let stmt = tx
            .prepare_cached(
                "UPDATE ratings SET name = $3, rating = $4, uncertainty = $5, score = $6,
                   games = games + 1, updated_at = $7
                 WHERE game = $1 AND player = $2",
            )
            .await?;
        for m in crate::store::ratings::moves(&result, &now) {
            tx.execute(
                &stmt,
                &[
                    &result.game,
                    &m.id,
                    &m.name,
                    &m.rating.rating,
                    &m.rating.uncertainty,
                    &m.rating.score(),
                    &result.at,
                ],
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// The sweep: ends as abandoned (at `$3`) the unfinished tables idle since
/// `$1`, or never started and idle since `$2` (as SQLite's `IDLE`).
///
/// It locks the rows first, in byte order of the id as every batch of
/// appends does, so a sweep and a batch never wait for each other in a
/// cycle. A row an append changed meanwhile is checked again once locked
/// (its `last_active` is then new: it is left alone).
const ABANDON: &str = "WITH idle AS (
       SELECT id FROM tables
       WHERE finished_at IS NULL AND (COALESCE(last_active, created_at) < $1
         OR (COALESCE(last_active, created_at) < $2
             AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_id = tables.id)))
       ORDER BY id COLLATE \"C\"
       FOR UPDATE
     )
     UPDATE tables SET finished_at = $3, ended = 'abandoned'
     FROM idle WHERE tables.id = idle.id AND tables.finished_at IS NULL
     RETURNING tables.id";

/// A claim: a new epoch unless a live other node (a heartbeat younger than
/// `$3` milliseconds by the database's clock) owns the table.
const CLAIM: &str = concat!(
    "UPDATE tables SET owner_node = $2, epoch = epoch + 1
     WHERE id = $1 AND (owner_node IS NULL OR owner_node = $2 OR NOT EXISTS (
       SELECT 1 FROM nodes n WHERE n.id = tables.owner_node
         AND n.heartbeat_ms > ",
    now_ms!(),
    " - $3))
     RETURNING epoch"
);

/// Unfinished tables whose owner is neither `$1` nor alive under a lease
/// of `$2` milliseconds.
const ORPHANS: &str = concat!(
    "SELECT id FROM tables t WHERE owner_node IS NOT NULL AND owner_node <> $1
       AND finished_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM nodes n
                       WHERE n.id = t.owner_node AND n.heartbeat_ms > ",
    now_ms!(),
    " - $2)
     LIMIT $3"
);

/// The processes alive under a lease of `$1` milliseconds.
const LIVE_NODES: &str = concat!(
    "SELECT id, url FROM nodes WHERE heartbeat_ms > ",
    now_ms!(),
    " - $1 ORDER BY id"
);

const HEARTBEAT: &str = concat!(
    "INSERT INTO nodes (id, url, heartbeat_ms) VALUES ($1, $2, ",
    now_ms!(),
    ") ON CONFLICT (id) DO UPDATE SET url = $2, heartbeat_ms = ",
    now_ms!()
);

/// The PostgreSQL backend: a pool of connections and the runtime that
/// drives them (see the module doc for where its methods may be called).
pub struct PgStore {
    pool: Pool,
    rt: tokio::runtime::Handle,
    /// The queues of the group commit's lanes (see the module doc).
    lanes: Vec<mpsc::UnboundedSender<Appending>>,
    /// What the LISTEN connection hears (every process's lobby changes
    /// and departures).
    changes: tokio::sync::broadcast::Sender<Change>,
    /// The LISTEN task, stopped with the store.
    listener: tokio::task::AbortHandle,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

/// The channel of lobby changes (a table made, joined, filled or ended).
const LOBBY_CHANNEL: &str = "ratrace_lobby";
/// The channel of departures (the payload is the process's id).
const NODES_CHANNEL: &str = "ratrace_nodes";

/// Sends a notification to every process of the site (PostgreSQL delivers
/// it to every `LISTEN`ing connection once sent). Best effort: a lost one
/// costs at most a lobby answer older by a second, or a take-over one
/// heartbeat later.
async fn notify(pool: Pool, channel: &'static str, payload: String) {
    let sent = async {
        let client = pool.get().await?;
        client
            .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
            .await?;
        Ok::<_, StoreError>(())
    };
    if let Err(e) = sent.await {
        tracing::debug!("notify {channel}: {e}");
    }
}

/// Listens on the site's channels for as long as the store lives, on a
/// connection of its own (a pooled one would be recycled), reconnecting
/// after a second if it drops; each (re)connection is announced as
/// [`Change::Resync`], since notifications sent meanwhile were missed.
async fn listen(config: tokio_postgres::Config, tx: tokio::sync::broadcast::Sender<Change>) {
    use futures_util::StreamExt as _;
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (heard, mut hear) = mpsc::unbounded_channel();
                // The connection is driven here, so its notifications come
                // out with the answers to the LISTEN below.
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(Ok(m)) = messages.next().await {
                        if let tokio_postgres::AsyncMessage::Notification(n) = m {
                            let _ = heard.send(n);
                        }
                    }
                });
                let listening = client
                    .batch_execute(&format!("LISTEN {LOBBY_CHANNEL}; LISTEN {NODES_CHANNEL}"))
                    .await;
                if listening.is_ok() {
                    let _ = tx.send(Change::Resync);
                    while let Some(n) = hear.recv().await {
                        let _ = tx.send(if n.channel() == NODES_CHANNEL {
                            Change::Left(n.payload().to_string())
                        } else {
                            Change::Lobby
                        });
                    }
                }
                driver.abort();
            }
            Err(e) => tracing::warn!("LISTEN connection: {}", chain(&e)),
        }
        let _ = tx.send(Change::Resync);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").finish_non_exhaustive()
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Postgres(chain(&e))
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Postgres(chain(&e))
    }
}

/// An error's text with its causes (tokio-postgres puts the server's
/// message in the cause).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = c.source();
    }
    text
}

/// A connection URL (or `key=value` string) fit for a log: its password,
/// if any, replaced by `***`.
pub(crate) fn redact(url: &str) -> String {
    let mut out = url.to_string();
    // scheme://user:password@host…
    if let Some(scheme) = out.find("://") {
        let start = scheme + 3;
        let rest = &out[start..];
        let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
        if let Some(at) = authority.rfind('@') {
            if let Some(colon) = authority[..at].find(':') {
                out.replace_range(start + colon + 1..start + at, "***");
            }
        }
    }
    // password=… as a URL query parameter or a key=value pair.
    let mut from = 0;
    while let Some(found) = out[from..].to_ascii_lowercase().find("password") {
        let key_end = from + found + "password".len();
        let after = &out[key_end..];
        let Some(eq) = after.find(|c: char| !c.is_whitespace()) else {
            break;
        };
        if !after[eq..].starts_with('=') {
            from = key_end;
            continue;
        }
        let value_start = key_end + eq + 1;
        let value = &out[value_start..];
        let skip = value.len() - value.trim_start().len();
        let value = value.trim_start();
        let len = if let Some(quoted) = value.strip_prefix('\'') {
            let mut end = quoted.len();
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            1 + end
        } else {
            value
                .find(|c: char| c.is_whitespace() || c == '&')
                .unwrap_or(value.len())
        };
        let start = value_start + skip;
        out.replace_range(start..start + len, "***");
        from = start + 3;
    }
    out
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:
    /// port/db`, or libpq's `key=value` form), brings its schema up to date
    /// and keeps a pool of connections driven by the current tokio runtime.
    /// Fails outside a tokio runtime, if the database cannot be reached, or
    /// if its schema is newer than this program ([`StoreError::TooNew`]).
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let shown = redact(url);
        let about = |text: String| StoreError::Postgres(format!("{shown}: {text}"));
        let rt = tokio::runtime::Handle::try_current()
            .map_err(|e| about(format!("no tokio runtime: {e}")))?;
        let config: tokio_postgres::Config = url.parse().map_err(|e| about(chain(&e)))?;
        let (changes, _) = tokio::sync::broadcast::channel(256);
        let listener = rt
            .spawn(listen(config.clone(), changes.clone()))
            .abort_handle();
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(CONNECT))
            .recycle_timeout(Some(CONNECT))
            .build()
            .map_err(|e| about(chain(&e)))?;
        migrate_db(&pool).await.map_err(|e| match e {
            StoreError::Postgres(text) => about(text),
            other => other,
        })?;
        let lanes = (0..LANES)
            .map(|_| {
                let (tx, rx) = mpsc::unbounded_channel();
                rt.spawn(lane(pool.clone(), rx));
                tx
            })
            .collect();
        Ok(PgStore {
            pool,
            rt,
            lanes,
            changes,
            listener,
        })
    }

    /// Queues an append in its table's lane; `done` gets its outcome once
    /// the transaction holding it is committed (or has failed).
    fn submit(&self, mut job: Appending) {
        if job.append.ends {
            // A game that ends leaves the lobby's "playing" list.
            let (pool, rt, done) = (self.pool.clone(), self.rt.clone(), job.done);
            job.done = Box::new(move |r| {
                if r.is_ok() {
                    rt.spawn(notify(pool, LOBBY_CHANNEL, String::new()));
                }
                done(r);
            });
        }
        let lane = &self.lanes[lane_of(&job.append.table, self.lanes.len())];
        if let Err(mpsc::error::SendError(job)) = lane.send(job) {
            (job.done)(Err(StoreError::Postgres(
                "the appending task stopped".to_string(),
            )));
        }
    }

    /// Tells every process the lobby changed, if `changed`.
    fn lobby_changed(&self, changed: bool) {
        if changed {
            self.rt
                .spawn(notify(self.pool.clone(), LOBBY_CHANNEL, String::new()));
        }
    }

    /// Runs `work` on the store's runtime and blocks until it is done.
    fn block<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.rt.spawn(async move {
            let _ = tx.send(work.await);
        });
        rx.recv().unwrap_or_else(|_| {
            Err(StoreError::Postgres(
                "the runtime stopped before the call ended".to_string(),
            ))
        })
    }

    /// A new pool handle for a task.
    fn pool(&self) -> Pool {
        self.pool.clone()
    }
}

/// Applies the migrations the database lacks, in one transaction under an
/// advisory lock.
async fn migrate_db(pool: &Pool) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(migrate::LEDGER).await?;
    let done: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::bigint FROM schema_migrations",
            &[],
        )
        .await?
        .try_get(0)?;
    if done > migrate::latest() {
        return Err(StoreError::TooNew {
            found: done,
            known: migrate::latest(),
        });
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > done) {
        tx.batch_execute(m.postgres).await?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            &[&m.version, &m.name, &crate::clock::unix_now()],
        )
        .await?;
        tracing::info!(
            "postgres: schema migration {} applied: {}",
            m.version,
            m.name
        );
    }
    tx.commit().await?;
    Ok(())
}

/// Locks a table's row for the rest of the transaction and reads its
/// epoch: the first statement of every fenced write.
const FENCE: &str = "SELECT epoch, finished_at FROM tables WHERE id = $1 FOR UPDATE";

/// Fails with [`StoreError::Fenced`] unless `table` is owned under
/// `epoch`; the table's row is then locked until the transaction ends.
async fn fence(tx: &Transaction<'_>, table: &str, epoch: Epoch) -> Result<(), StoreError> {
    let stmt = tx.prepare_cached(FENCE).await?;
    fenced(tx.query_opt(&stmt, &[&table]).await?, table, epoch)
}

/// The verdict of [`FENCE`]'s row.
fn fenced(row: Option<Row>, table: &str, epoch: Epoch) -> Result<(), StoreError> {
    let Some(row) = row else {
        return Err(StoreError::Corrupt(format!("no table {table}")));
    };
    let current: Epoch = row.try_get(0)?;
    if current == epoch {
        Ok(())
    } else {
        Err(StoreError::Fenced {
            table: table.to_string(),
            epoch,
            current,
        })
    }
}

/// Inserts a table's header and seats (not its actions), owned by
/// `owner` under `epoch`.
async fn insert_table(
    tx: &Transaction<'_>,
    t: &StoredTable,
    last_active: Option<i64>,
    ended: Option<&str>,
    owner: Option<&str>,
    epoch: Epoch,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO tables (id, game, rules_version, players, options, seed, seed_hash,
                                 config, created_at, finished_at, public, invite_hash,
                                 creator_hash, owner, last_active, fair_secret,
                                 contributions, ended, owner_node, epoch, rematch,
                                 rematch_of, result, fair_scheme)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                     COALESCE($17::bigint, $9), $15, $16, $18, $19, $20, $21, $22, $23, $24)",
        )
        .await?;
    let seed = if t.fair.is_some() {
        String::new()
    } else {
        t.seed.to_string()
    };
    let secret = t.fair.as_ref().map(|f| registry::fair::hex(&f.secret));
    let contributions = t
        .fair
        .as_ref()
        .map(|f| contributions_json(&f.contributions));
    let scheme = t.fair.as_ref().map(super::model::fair_scheme);
    tx.execute(
        &stmt,
        &[
            &t.id,
            &t.game,
            &t.rules_version,
            &(t.players as i64),
            &serde_json::to_string(&t.options)?,
            &seed,
            &t.seed_hash,
            &serde_json::to_string(&t.config)?,
            &t.created_at,
            &t.finished_at,
            &i64::from(t.access.public),
            &t.access.invite_hash,
            &t.access.creator_hash,
            &t.access.owner,
            &secret,
            &contributions,
            &last_active,
            &ended,
            &owner,
            &epoch,
            &t.social.rematch,
            &t.social.rematch_of,
            &t.social.result,
            &scheme,
        ],
    )
    .await?;
    let stmt = tx
        .prepare_cached(
            "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, player, origin)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .await?;
    for s in &t.seats {
        let (kind, bot, name, token_hash) = match &s.kind {
            SeatKind::Bot(b) => ("bot", Some(b.as_str()), None, None),
            SeatKind::Human { name, token_hash } => {
                ("human", None, name.as_deref(), token_hash.as_deref())
            }
        };
        tx.execute(
            &stmt,
            &[
                &t.id,
                &(s.seat.index() as i64),
                &kind,
                &bot,
                &name,
                &token_hash,
                &t.social.players.get(&s.seat),
                &t.social.origins.get(&s.seat),
            ],
        )
        .await?;
    }
    Ok(())
}

/// Stores one action; the primary key `(table_id, seq)` refuses a stored
/// seq.
const INSERT_ACTION: &str =
    "INSERT INTO actions (table_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)";

/// An append's update of its table: when it was last active and, with its
/// last action, the game's end.
const END_WITH_ACTION: &str = "UPDATE tables SET last_active = $2,
       finished_at = COALESCE(finished_at, $3), ended = COALESCE(ended, $4)
     WHERE id = $1 AND finished_at IS NULL";

/// Inserts one action row (the primary key refuses a stored seq).
async fn insert_action(
    tx: &Transaction<'_>,
    table: &str,
    action: &StoredAction,
    at: i64,
) -> Result<(), StoreError> {
    let stmt = tx.prepare_cached(INSERT_ACTION).await?;
    tx.execute(
        &stmt,
        &[
            &table,
            &(action.seq as i64),
            &(action.seat.index() as i64),
            &action.action,
            &at,
        ],
    )
    .await?;
    Ok(())
}

async fn create(pool: Pool, t: StoredTable, node: String) -> Result<Epoch, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    insert_table(&tx, &t, None, None, Some(&node), 1).await?;
    for a in &t.actions {
        insert_action(&tx, &t.id, a, t.created_at).await?;
    }
    if let Some(old) = &t.social.rematch_of {
        let stmt = tx
            .prepare_cached("UPDATE tables SET rematch = $2 WHERE id = $1 AND rematch IS NULL")
            .await?;
        if tx.execute(&stmt, &[old, &t.id]).await? != 1 {
            return Err(StoreError::Corrupt(format!(
                "table {old} has a rematch already"
            )));
        }
    }
    tx.commit().await?;
    Ok(1)
}

async fn restore(pool: Pool, d: TableDump) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let t = &d.table;
    insert_table(&tx, t, d.last_active, d.ended.as_deref(), None, 0).await?;
    // Every action in one statement (arrays unnested), not one round trip
    // each: a copy of a whole site is bound by round trips otherwise.
    let seqs: Vec<i64> = t.actions.iter().map(|a| a.seq as i64).collect();
    let seats: Vec<i64> = t.actions.iter().map(|a| a.seat.index() as i64).collect();
    let texts: Vec<&str> = t.actions.iter().map(|a| a.action.as_str()).collect();
    let times: Vec<i64> = (0..t.actions.len())
        .map(|i| d.action_times.get(i).copied().unwrap_or(t.created_at))
        .collect();
    let many = tx
        .prepare_cached(
            "INSERT INTO actions (table_id, seq, seat, action, at)
             SELECT $1, s, p, a, w FROM unnest($2::bigint[], $3::bigint[], $4::text[],
                                                $5::bigint[]) AS x(s, p, a, w)",
        )
        .await?;
    tx.execute(&many, &[&t.id, &seqs, &seats, &texts, &times])
        .await?;
    tx.commit().await?;
    Ok(())
}

/// One append (the arguments of [`Store::append_action`]).
struct Append {
    table: String,
    action: StoredAction,
    at: i64,
    ends: bool,
    epoch: Epoch,
}

/// An append waiting in its lane's queue, and whom to tell its outcome.
struct Appending {
    append: Append,
    done: Done<()>,
}

/// The lane of `table`: one table's appends always go through one lane,
/// so they run in the order they were submitted, and two lanes of one
/// process never lock the same table's row.
fn lane_of(table: &str, lanes: usize) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    table.hash(&mut h);
    (h.finish() % lanes.max(1) as u64) as usize
}

/// A lane of the group commit: takes every queued append (at most
/// [`MAX_BATCH`]), commits them in one transaction, then tells each
/// caller. Ends when the store (every sender) is dropped.
async fn lane(pool: Pool, mut queue: mpsc::UnboundedReceiver<Appending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queue.recv_many(&mut batch, MAX_BATCH).await > 0 {
        // Every batch (of every lane and every process) locks its tables'
        // rows in one order, byte order of the id, as the sweep does
        // (ABANDON): no cycle of waits, no deadlock. The sort is stable,
        // so a table's appends keep their order.
        batch.sort_by(|a, b| a.append.table.cmp(&b.append.table));
        let (appends, dones): (Vec<Append>, Vec<Done<()>>) =
            batch.drain(..).map(|j| (j.append, j.done)).unzip();
        let outcomes = commit_batch(&pool, &appends).await;
        for (done, outcome) in dones.into_iter().zip(outcomes) {
            done(outcome);
        }
    }
}

/// The statements of an append, prepared on the batch's connection.
struct AppendStatements {
    lock: Statement,
    insert: Statement,
    end: Statement,
}

/// Commits `batch` in one transaction, each append in its own savepoint
/// (see the module doc); the outcome of each, in order. If the
/// transaction cannot begin or go on, every append fails with
/// [`StoreError::Postgres`]; if it fails to commit, every append that had
/// succeeded fails with [`StoreError::Commit`].
async fn commit_batch(pool: &Pool, batch: &[Append]) -> Vec<Result<(), StoreError>> {
    let mut outcomes = Vec::with_capacity(batch.len());
    let failed = match run_batch(pool, batch, &mut outcomes).await {
        Ok(()) => return outcomes,
        Err(e) => e,
    };
    let (commit, text) = match failed {
        StoreError::Commit(text) => (true, text),
        StoreError::Postgres(text) => (false, text),
        other => (false, other.to_string()),
    };
    let mut all = Vec::with_capacity(batch.len());
    for i in 0..batch.len() {
        all.push(match outcomes.get_mut(i) {
            // A failed append keeps its own error: it failed whatever
            // became of the others.
            Some(o) if o.is_err() => std::mem::replace(o, Ok(())),
            _ if commit => Err(StoreError::Commit(text.clone())),
            _ => Err(StoreError::Postgres(text.clone())),
        });
    }
    all
}

/// [`commit_batch`]'s work: pushes the outcome of each append to
/// `outcomes`; an `Err` is a failure of the whole transaction (nothing of
/// it is stored): [`StoreError::Commit`] if it failed to commit.
async fn run_batch(
    pool: &Pool,
    batch: &[Append],
    outcomes: &mut Vec<Result<(), StoreError>>,
) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let (lock, insert, end) = futures_util::future::try_join3(
        client.prepare_cached(FENCE),
        client.prepare_cached(INSERT_ACTION),
        client.prepare_cached(END_WITH_ACTION),
    )
    .await?;
    let st = AppendStatements { lock, insert, end };
    let tx = client.transaction().await?;
    while outcomes.len() < batch.len() {
        // Every append still to run, pipelined (one round trip), each in
        // a savepoint nested in the previous one's; the first that fails
        // is rolled back to its savepoint with every later one, which
        // then run again (rarely: a failure is a duplicate or a write of
        // a process that lost the table).
        let from = outcomes.len();
        let pass = in_order(
            batch[from..]
                .iter()
                .enumerate()
                .map(|(i, a)| append_in_savepoint(&tx, &st, from + i, a)),
        )
        .await;
        match pass.iter().position(Result::is_err) {
            None => outcomes.extend(pass),
            Some(bad) => {
                outcomes.extend(pass.into_iter().take(bad + 1));
                tx.batch_execute(&format!("ROLLBACK TO SAVEPOINT a{}", from + bad))
                    .await?;
            }
        }
    }
    tx.commit().await.map_err(|e| StoreError::Commit(chain(&e)))
}

/// Runs `futures` concurrently, polling every unfinished one in order
/// whenever woken, so their first polls (where each sends its statements
/// to the connection) follow the order of the batch, whatever their
/// number; their outputs, in order.
async fn in_order<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let mut running: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = running.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut finished = true;
        for (f, out) in running.iter_mut().zip(outputs.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => finished = false,
                }
            }
        }
        if finished {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// Runs append `a` (the `i`th of its batch) in a new savepoint `a{i}`:
/// the statements are sent at once and run in order (the fence's row lock
/// first); their outcomes are read in the same order, so a fenced write
/// reports [`StoreError::Fenced`] whatever the others said, as a lone
/// transaction would. On `Err` the caller rolls back to the savepoint.
async fn append_in_savepoint(
    tx: &Transaction<'_>,
    st: &AppendStatements,
    i: usize,
    a: &Append,
) -> Result<(), StoreError> {
    let savepoint = format!("SAVEPOINT a{i}");
    let (saved, locked, inserted, ended) = futures_util::future::join4(
        tx.batch_execute(&savepoint),
        tx.query_opt(&st.lock, &[&a.table]),
        tx.execute(
            &st.insert,
            &[
                &a.table,
                &(a.action.seq as i64),
                &(a.action.seat.index() as i64),
                &a.action.action,
                &a.at,
            ],
        ),
        // The game's end goes in the same transaction as its last action
        // (F3).
        tx.execute(
            &st.end,
            &[
                &a.table,
                &a.at,
                &a.ends.then_some(a.at),
                &a.ends.then_some("over"),
            ],
        ),
    )
    .await;
    saved?;
    fenced(locked?, &a.table, a.epoch)?;
    inserted?;
    if ended? != 1 {
        return Err(StoreError::Corrupt(format!(
            "table {} is over or missing: action {} refused",
            a.table, a.action.seq
        )));
    }
    Ok(())
}

async fn finish(
    pool: Pool,
    table: String,
    at: i64,
    ended: &'static str,
    epoch: Option<Epoch>,
) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    if let Some(epoch) = epoch {
        fence(&tx, &table, epoch).await?;
    }
    let stmt = tx
        .prepare_cached(
            "UPDATE tables SET finished_at = $2, ended = $3
             WHERE id = $1 AND finished_at IS NULL",
        )
        .await?;
    tx.execute(&stmt, &[&table, &at, &ended]).await?;
    tx.commit().await?;
    Ok(())
}

async fn abandon(
    pool: Pool,
    before: i64,
    unstarted_before: i64,
    at: i64,
) -> Result<Vec<String>, StoreError> {
    // The ids come from the update itself, so a table a join or an action
    // saved meanwhile is neither ended nor told it was.
    let client = pool.get().await?;
    let stmt = client.prepare_cached(ABANDON).await?;
    let rows = client
        .query(&stmt, &[&before, &unstarted_before, &at])
        .await?;
    rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
}

async fn fill(
    pool: Pool,
    table: String,
    seat: Seat,
    bot: String,
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    fence(&tx, &table, epoch).await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET kind = 'bot', bot = $3, name = NULL
             WHERE table_id = $1 AND seat = $2 AND kind = 'human' AND token_hash IS NULL
               AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND finished_at IS NULL)",
        )
        .await?;
    let changed = tx
        .execute(&stmt, &[&table, &(seat.index() as i64), &bot])
        .await?;
    tx.commit().await?;
    Ok(changed == 1)
}

/// A seat taken by a person (the arguments of [`Store::take_seat`]).
struct Taking {
    table: String,
    seat: Seat,
    name: String,
    token_hash: String,
    contribution: Option<[u8; 32]>,
    player: Option<String>,
    origin: Option<String>,
    epoch: Epoch,
}

/// Adds a contribution for `seat` unless it has one (see
/// [`Store::contribute`]).
async fn contribute(
    pool: Pool,
    table: String,
    seat: Seat,
    value: [u8; 32],
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stmt = tx.prepare_cached(FENCE).await?;
    let row = tx.query_opt(&stmt, &[&table]).await?;
    let finished: Option<i64> = match &row {
        Some(r) => r.try_get(1)?,
        None => None,
    };
    fenced(row, &table, epoch)?;
    if finished.is_some() {
        return Ok(false);
    }
    // The row is locked by the fence: no other write interleaves.
    let stmt = tx
        .prepare_cached("SELECT contributions FROM tables WHERE id = $1")
        .await?;
    let before: Option<String> = tx.query_one(&stmt, &[&table]).await?.try_get(0)?;
    let mut all = parse_contributions(before.as_deref())?;
    if all.contains_key(&seat) {
        return Ok(false);
    }
    all.insert(seat, value);
    let stmt = tx
        .prepare_cached("UPDATE tables SET contributions = $2, last_active = $3 WHERE id = $1")
        .await?;
    tx.execute(
        &stmt,
        &[&table, &contributions_json(&all), &crate::clock::unix_now()],
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

async fn take(pool: Pool, w: Taking) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    fence(&tx, &w.table, w.epoch).await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET name = $3, token_hash = $4, player = $5, origin = $6
             WHERE table_id = $1 AND seat = $2 AND kind = 'human' AND token_hash IS NULL
               AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND finished_at IS NULL)",
        )
        .await?;
    let changed = tx
        .execute(
            &stmt,
            &[
                &w.table,
                &(w.seat.index() as i64),
                &w.name,
                &w.token_hash,
                &w.player,
                &w.origin,
            ],
        )
        .await?;
    if changed == 1 {
        let stmt = tx
            .prepare_cached("UPDATE tables SET last_active = $2 WHERE id = $1")
            .await?;
        tx.execute(&stmt, &[&w.table, &crate::clock::unix_now()])
            .await?;
        if let Some(c) = w.contribution {
            // The row is locked by the fence: no other write interleaves.
            let stmt = tx
                .prepare_cached("SELECT contributions FROM tables WHERE id = $1")
                .await?;
            let before: Option<String> = tx.query_one(&stmt, &[&w.table]).await?.try_get(0)?;
            let mut all = parse_contributions(before.as_deref())?;
            all.insert(w.seat, c);
            let stmt = tx
                .prepare_cached("UPDATE tables SET contributions = $2 WHERE id = $1")
                .await?;
            tx.execute(&stmt, &[&w.table, &contributions_json(&all)])
                .await?;
        }
    }
    tx.commit().await?;
    Ok(changed == 1)
}

async fn claim(
    pool: Pool,
    table: String,
    node: String,
    lease_ms: i64,
) -> Result<Ownership, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stmt = tx.prepare_cached(CLAIM).await?;
    if let Some(row) = tx.query_opt(&stmt, &[&table, &node, &lease_ms]).await? {
        let epoch: Epoch = row.try_get(0)?;
        tx.commit().await?;
        return Ok(Ownership::Mine(epoch));
    }
    let stmt = tx
        .prepare_cached(
            "SELECT t.owner_node, COALESCE(n.url, '') FROM tables t
             LEFT JOIN nodes n ON n.id = t.owner_node WHERE t.id = $1",
        )
        .await?;
    let owner = match tx.query_opt(&stmt, &[&table]).await? {
        None => Ownership::Missing,
        Some(row) => Ownership::Other(Node {
            id: row.try_get::<_, Option<String>>(0)?.unwrap_or_default(),
            url: row.try_get(1)?,
        }),
    };
    tx.commit().await?;
    Ok(owner)
}

/// The parameters of a statement run by a task.
type Params = Vec<Box<dyn tokio_postgres::types::ToSql + Send + Sync>>;

/// Runs one statement that writes (its own transaction); the rows changed.
async fn execute(pool: Pool, sql: &'static str, params: Params) -> Result<u64, StoreError> {
    let client = pool.get().await?;
    let stmt = client.prepare_cached(sql).await?;
    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
        .iter()
        .map(|p| p.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect();
    Ok(client.execute(&stmt, &refs).await?)
}

/// Runs one query; its rows.
async fn query(pool: Pool, sql: &'static str, params: Params) -> Result<Vec<Row>, StoreError> {
    let client = pool.get().await?;
    let stmt = client.prepare_cached(sql).await?;
    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
        .iter()
        .map(|p| p.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect();
    Ok(client.query(&stmt, &refs).await?)
}

/// The first column of every row, as text.
fn ids(rows: &[Row]) -> Result<Vec<String>, StoreError> {
    rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
}

/// A read-only transaction that sees one moment of the database.
async fn snapshot(client: &mut deadpool_postgres::Object) -> Result<Transaction<'_>, StoreError> {
    Ok(client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?)
}

/// One table with its seats and actions.
async fn load_with(tx: &Transaction<'_>, id: &str) -> Result<Option<StoredTable>, StoreError> {
    let stmt = tx
        .prepare_cached(
            "SELECT id, game, rules_version, players, options, seed, seed_hash, config,
                    created_at, finished_at, public, invite_hash, creator_hash, owner,
                    fair_secret, contributions, rematch, rematch_of, result, fair_scheme
             FROM tables WHERE id = $1",
        )
        .await?;
    let Some(r) = tx.query_opt(&stmt, &[&id]).await? else {
        return Ok(None);
    };
    let id: String = r.try_get(0)?;
    let players: i64 = r.try_get(3)?;
    let options: String = r.try_get(4)?;
    let seed: String = r.try_get(5)?;
    let config: String = r.try_get(7)?;
    let access = Access {
        public: r.try_get::<_, i64>(10)? != 0,
        invite_hash: r.try_get(11)?,
        creator_hash: r.try_get(12)?,
        owner: r.try_get(13)?,
    };
    let secret: Option<String> = r.try_get(14)?;
    let contributions: Option<String> = r.try_get(15)?;
    let scheme: Option<i64> = r.try_get(19)?;
    let mut social = Social {
        rematch: r.try_get(16)?,
        rematch_of: r.try_get(17)?,
        result: r.try_get(18)?,
        players: std::collections::BTreeMap::new(),
        origins: std::collections::BTreeMap::new(),
    };
    let stmt = tx
        .prepare_cached(
            "SELECT seat, kind, bot, name, token_hash, player, origin FROM seats
             WHERE table_id = $1 ORDER BY seat",
        )
        .await?;
    let mut seats = Vec::new();
    for s in tx.query(&stmt, &[&id]).await? {
        if let Some(p) = s.try_get::<_, Option<String>>(5)? {
            social.players.insert(seat_of(s.try_get(0)?)?, p);
        }
        if let Some(o) = s.try_get::<_, Option<String>>(6)? {
            social.origins.insert(seat_of(s.try_get(0)?)?, o);
        }
        let kind: String = s.try_get(1)?;
        let kind = match kind.as_str() {
            "bot" => SeatKind::Bot(
                s.try_get::<_, Option<String>>(2)?
                    .unwrap_or_else(|| "heuristic".to_string()),
            ),
            "human" => SeatKind::Human {
                name: s.try_get(3)?,
                token_hash: s.try_get(4)?,
            },
            other => return Err(StoreError::Corrupt(format!("seat kind {other}"))),
        };
        seats.push(StoredSeat {
            seat: seat_of(s.try_get(0)?)?,
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
    let stmt = tx
        .prepare_cached("SELECT seq, seat, action FROM actions WHERE table_id = $1 ORDER BY seq")
        .await?;
    let mut actions = Vec::new();
    for a in tx.query(&stmt, &[&id]).await? {
        let seq: i64 = a.try_get(0)?;
        actions.push(StoredAction {
            seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("seq {seq}")))?,
            seat: seat_of(a.try_get(1)?)?,
            action: a.try_get(2)?,
        });
    }
    Ok(Some(StoredTable {
        id,
        game: r.try_get(1)?,
        rules_version: r.try_get(2)?,
        players: usize::try_from(players)
            .map_err(|_| StoreError::Corrupt(format!("players {players}")))?,
        options: serde_json::from_str(&options)?,
        seed: match &fair {
            Some(f) => f.seed(),
            None => seed
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("seed {seed}")))?,
        },
        seed_hash: r.try_get(6)?,
        fair,
        config: serde_json::from_str(&config)?,
        created_at: r.try_get(8)?,
        finished_at: r.try_get(9)?,
        seats,
        actions,
        access,
        social,
    }))
}

async fn load(pool: Pool, id: String) -> Result<Option<StoredTable>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let table = load_with(&tx, &id).await?;
    tx.commit().await?;
    Ok(table)
}

async fn load_unfinished(pool: Pool) -> Result<Vec<StoredTable>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let stmt = tx
        .prepare_cached("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")
        .await?;
    let mut out = Vec::new();
    for id in ids(&tx.query(&stmt, &[]).await?)? {
        if let Some(t) = load_with(&tx, &id).await? {
            out.push(t);
        }
    }
    tx.commit().await?;
    Ok(out)
}

async fn dump(pool: Pool, id: String) -> Result<Option<TableDump>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let Some(table) = load_with(&tx, &id).await? else {
        return Ok(None);
    };
    let stmt = tx
        .prepare_cached("SELECT last_active, ended FROM tables WHERE id = $1")
        .await?;
    let row = tx.query_one(&stmt, &[&id]).await?;
    let stmt = tx
        .prepare_cached("SELECT at FROM actions WHERE table_id = $1 ORDER BY seq")
        .await?;
    let action_times = tx
        .query(&stmt, &[&id])
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    tx.commit().await?;
    Ok(Some(TableDump {
        table,
        last_active: row.try_get(0)?,
        ended: row.try_get(1)?,
        action_times,
    }))
}

async fn site_secret(pool: Pool) -> Result<String, StoreError> {
    let fresh = registry::fair::hex(&rand::random::<[u8; 32]>());
    let client = pool.get().await?;
    let stmt = client
        .prepare_cached(
            "INSERT INTO site (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING",
        )
        .await?;
    client.execute(&stmt, &[&fresh]).await?;
    let stmt = client
        .prepare_cached("SELECT value FROM site WHERE key = 'secret'")
        .await?;
    Ok(client.query_one(&stmt, &[]).await?.try_get(0)?)
}

/// Milliseconds of a lease, for SQL.
fn millis(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX)
}

/// A count read back as a size.
fn count(rows: &[Row]) -> Result<usize, StoreError> {
    let n: i64 = rows
        .first()
        .ok_or_else(|| StoreError::Corrupt("a count returned no row".to_string()))?
        .try_get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn create_table(&self, t: &StoredTable, node: &str) -> Result<Epoch, StoreError> {
        let made = self.block(create(self.pool(), t.clone(), node.to_string()));
        self.lobby_changed(made.is_ok());
        made
    }

    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }

    fn append_action(
        &self,
        table: &str,
        a: &StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    ) -> Result<(), StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.submit(Appending {
            append: Append {
                table: table.to_string(),
                action: a.clone(),
                at,
                ends,
                epoch,
            },
            done: Box::new(move |r| {
                let _ = tx.send(r);
            }),
        });
        rx.recv().unwrap_or_else(|_| {
            Err(StoreError::Postgres(
                "the appending task stopped before the call ended".to_string(),
            ))
        })
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
        self.submit(Appending {
            append: Append {
                table,
                action,
                at,
                ends,
                epoch,
            },
            done,
        });
    }

    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError> {
        let done = self.block(finish(self.pool(), table.to_string(), at, "over", None));
        self.lobby_changed(done.is_ok());
        done
    }

    fn mark_abandoned(&self, table: &str, at: i64, epoch: Epoch) -> Result<(), StoreError> {
        let done = self.block(finish(
            self.pool(),
            table.to_string(),
            at,
            "abandoned",
            Some(epoch),
        ));
        self.lobby_changed(done.is_ok());
        done
    }

    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError> {
        let ended = self.block(abandon(self.pool(), before, unstarted_before, at));
        self.lobby_changed(ended.as_ref().is_ok_and(|ids| !ids.is_empty()));
        ended
    }

    fn fill_seat(
        &self,
        table: &str,
        seat: Seat,
        bot: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        let filled = self.block(fill(
            self.pool(),
            table.to_string(),
            seat,
            bot.to_string(),
            epoch,
        ));
        self.lobby_changed(filled.as_ref().is_ok_and(|&f| f));
        filled
    }

    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            "SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at",
            Vec::new(),
        ))?;
        ids(&rows)
    }

    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError> {
        let all = self.block(query(
            self.pool(),
            "SELECT COUNT(*) FROM tables WHERE finished_at IS NULL",
            Vec::new(),
        ))?;
        let mine = self.block(query(
            self.pool(),
            "SELECT COUNT(*) FROM tables WHERE owner = $1 AND finished_at IS NULL",
            vec![Box::new(owner.to_string())],
        ))?;
        Ok((count(&all)?, count(&mine)?))
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
        let taken = self.block(take(
            self.pool(),
            Taking {
                table: table.to_string(),
                seat,
                name: name.to_string(),
                token_hash: token_hash.to_string(),
                contribution,
                player: player.map(str::to_string),
                origin: origin.map(str::to_string),
                epoch,
            },
        ));
        self.lobby_changed(taken.as_ref().is_ok_and(|&t| t));
        taken
    }

    fn unrecorded_ids(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let pool = self.pool();
        let after = after.to_string();
        self.block(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT id FROM tables WHERE ended = 'over' AND result IS NULL
                       AND id COLLATE \"C\" > $1 ORDER BY id COLLATE \"C\" LIMIT $2",
                )
                .await?;
            let rows = client.query(&stmt, &[&after, &(limit as i64)]).await?;
            rows.iter()
                .map(|r| r.try_get(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn contribute(
        &self,
        table: &str,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        let added = self.block(contribute(
            self.pool(),
            table.to_string(),
            seat,
            value,
            epoch,
        ));
        self.lobby_changed(added.as_ref().is_ok_and(|&a| a));
        added
    }

    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        self.block(load(self.pool(), id.to_string()))
    }

    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.block(load_unfinished(self.pool()))
    }

    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError> {
        let lines = self.block(summaries(
            self.pool(),
            LIST,
            vec![Box::new(i64::try_from(limit).unwrap_or(i64::MAX))],
        ))?;
        Ok(lines.into_iter().map(|(t, _)| t).collect())
    }

    fn record_result(
        &self,
        table: &str,
        result: &crate::store::ratings::GameResult,
    ) -> Result<bool, StoreError> {
        let recorded = self.block(record(self.pool(), table.to_string(), result.clone()));
        self.lobby_changed(recorded.as_ref().is_ok_and(|&r| r));
        recorded
    }

    fn games_of(&self, player: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let lines = self.block(summaries(
            self.pool(),
            GAMES_OF,
            vec![
                Box::new(player.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        lines
            .into_iter()
            .map(|(table, seat)| {
                Ok(PlayerGame {
                    table,
                    seat: seat_of(seat.unwrap_or(-1))?,
                })
            })
            .collect()
    }

    fn leaderboard(&self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StoreError> {
        const BOARD: &str = concat!(
            "SELECT game, player, name, rating, uncertainty, score, games FROM ratings",
            // (a row is made, at 0 games, to lock it while a result whose
            // ratings did not move that person is recorded)
            " WHERE game = $1 AND games > 0 ORDER BY score DESC, player LIMIT $2"
        );
        let rows = self.block(query(
            self.pool(),
            BOARD,
            vec![
                Box::new(game.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        rows.iter().map(rating_row).collect()
    }

    fn put_analysis(
        &self,
        table: &str,
        format: &str,
        body: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        const PUT: &str = concat!(
            "INSERT INTO analyses (table_id, format, body, created_at) VALUES ($1, $2, $3, $4)",
            " ON CONFLICT (table_id) DO UPDATE SET format = $2, body = $3, created_at = $4"
        );
        self.block(execute(
            self.pool(),
            PUT,
            vec![
                Box::new(table.to_string()),
                Box::new(format.to_string()),
                Box::new(body.to_string()),
                Box::new(at),
            ],
        ))
        .map(|_| ())
    }

    fn analysis(&self, table: &str) -> Result<Option<(String, String)>, StoreError> {
        const GET: &str = "SELECT format, body FROM analyses WHERE table_id = $1";
        let rows = self.block(query(self.pool(), GET, vec![Box::new(table.to_string())]))?;
        match rows.first() {
            Some(r) => Ok(Some((r.try_get(0)?, r.try_get(1)?))),
            None => Ok(None),
        }
    }

    fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StoreError> {
        const MINE: &str = concat!(
            "SELECT game, player, name, rating, uncertainty, score, games FROM ratings",
            " WHERE player = $1 AND game = ANY($2) AND games > 0 ORDER BY game"
        );
        let games: Vec<String> = registry::GAMES.iter().map(|g| g.to_string()).collect();
        let rows = self.block(query(
            self.pool(),
            MINE,
            vec![Box::new(player.to_string()), Box::new(games)],
        ))?;
        rows.iter().map(rating_row).collect()
    }

    fn heartbeat(&self, node: &Node) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            HEARTBEAT,
            vec![Box::new(node.id.clone()), Box::new(node.url.clone())],
        ))
        .map(|_| ())
    }

    fn leave(&self, node: &str) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            "DELETE FROM nodes WHERE id = $1",
            vec![Box::new(node.to_string())],
        ))?;
        // The others may take this process's tables over at once.
        let pool = self.pool();
        let payload = node.to_string();
        self.block(async move {
            notify(pool, NODES_CHANNEL, payload).await;
            Ok(())
        })
    }

    fn claim(&self, id: &str, node: &str, lease: Duration) -> Result<Ownership, StoreError> {
        self.block(claim(
            self.pool(),
            id.to_string(),
            node.to_string(),
            millis(lease),
        ))
    }

    fn release(&self, id: &str, node: &str, epoch: Epoch) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            "UPDATE tables SET owner_node = NULL WHERE id = $1 AND owner_node = $2 AND epoch = $3",
            vec![
                Box::new(id.to_string()),
                Box::new(node.to_string()),
                Box::new(epoch),
            ],
        ))
        .map(|_| ())
    }

    fn orphans(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            ORPHANS,
            vec![
                Box::new(node.to_string()),
                Box::new(millis(lease)),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        ids(&rows)
    }

    fn live_nodes(&self, lease: Duration) -> Result<Vec<Node>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            LIVE_NODES,
            vec![Box::new(millis(lease))],
        ))?;
        rows.iter()
            .map(|r| {
                Ok(Node {
                    id: r.try_get(0)?,
                    url: r.try_get(1)?,
                })
            })
            .collect()
    }

    fn ids_after(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        // Byte order, as SQLite's: the "C" collation (migration 4 indexes
        // it), whatever the database's default.
        let rows = self.block(query(
            self.pool(),
            "SELECT id FROM tables WHERE id COLLATE \"C\" > $1
             ORDER BY id COLLATE \"C\" LIMIT $2",
            vec![
                Box::new(after.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        ids(&rows)
    }

    fn dump(&self, id: &str) -> Result<Option<TableDump>, StoreError> {
        self.block(dump(self.pool(), id.to_string()))
    }

    fn restore(&self, d: &TableDump) -> Result<(), StoreError> {
        self.block(restore(self.pool(), d.clone()))
    }

    fn site_secret(&self) -> Result<String, StoreError> {
        self.block(site_secret(self.pool()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{contract, SqliteStore};
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The test server's URL (`RATRACE_TEST_PG`, e.g. from `scripts/pg.sh
    /// start DIR`); `None` (the test is skipped) if unset, unless
    /// `RATRACE_REQUIRE_PG=1`, which makes a missing server a failure.
    fn server() -> Option<String> {
        match std::env::var("RATRACE_TEST_PG") {
            Ok(url) if !url.is_empty() => Some(url),
            _ => {
                assert!(
                    std::env::var("RATRACE_REQUIRE_PG").as_deref() != Ok("1"),
                    "RATRACE_REQUIRE_PG=1 but RATRACE_TEST_PG is not set"
                );
                eprintln!(
                    "skipped: set RATRACE_TEST_PG=postgres://… (scripts/pg.sh start DIR) \
                     to test the PostgreSQL backend"
                );
                None
            }
        }
    }

    /// `url` naming database `db` instead of its own.
    fn with_db(url: &str, db: &str) -> String {
        let (base, query) = match url.find('?') {
            Some(q) => url.split_at(q),
            None => (url, ""),
        };
        let authority = base.find("://").map_or(0, |i| i + 3);
        let base = match base[authority..].find('/') {
            Some(slash) => &base[..authority + slash],
            None => base,
        };
        format!("{base}/{db}{query}")
    }

    /// Runs `sql` on a plain connection to `url`.
    async fn admin(url: &str, sql: &str) -> Result<(), tokio_postgres::Error> {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
        let driver = tokio::spawn(connection);
        let outcome = client.batch_execute(sql).await;
        drop(client);
        let _ = driver.await;
        outcome
    }

    /// A fresh database on the test server, with a runtime of its own to
    /// drive its stores; dropped (best-effort) at the end.
    struct Fresh {
        rt: tokio::runtime::Runtime,
        server: String,
        name: String,
        url: String,
    }

    impl Fresh {
        fn new() -> Option<Fresh> {
            let server = server()?;
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let name = format!("ratrace_t_{:016x}", rand::random::<u64>());
            rt.block_on(admin(&server, &format!("CREATE DATABASE {name}")))
                .unwrap();
            let url = with_db(&server, &name);
            Some(Fresh {
                rt,
                server,
                name,
                url,
            })
        }

        fn connect(&self) -> Result<PgStore, StoreError> {
            self.rt.block_on(PgStore::connect(&self.url))
        }

        fn store(&self) -> Arc<PgStore> {
            Arc::new(self.connect().unwrap())
        }

        /// Runs `sql` in the database.
        fn sql(&self, sql: &str) {
            self.rt.block_on(admin(&self.url, sql)).unwrap();
        }

        /// The versions recorded in `schema_migrations`.
        fn versions(&self) -> Vec<i64> {
            self.rt.block_on(async {
                let (client, connection) = tokio_postgres::connect(&self.url, NoTls).await.unwrap();
                tokio::spawn(connection);
                client
                    .query(
                        "SELECT version FROM schema_migrations ORDER BY version",
                        &[],
                    )
                    .await
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect()
            })
        }
    }

    impl Drop for Fresh {
        fn drop(&mut self) {
            let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
            let _ = self.rt.block_on(admin(&self.server, &sql));
        }
    }

    /// Runs `check` on a store of a fresh database (from this plain test
    /// thread, where the blocking methods may block).
    fn on_fresh(check: impl FnOnce(Arc<dyn Store>)) {
        let Some(db) = Fresh::new() else {
            return;
        };
        check(db.store());
    }

    /// LISTEN/NOTIFY: a lobby change or a departure made through one
    /// process's store is heard by another's.
    #[test]
    fn every_process_hears_lobby_changes_and_departures() {
        let Some(db) = Fresh::new() else {
            return;
        };
        let (one, other) = (db.store(), db.store());
        let mut heard = one.changes().expect("PostgreSQL reports changes");
        let next = |heard: &mut tokio::sync::broadcast::Receiver<Change>, wait: Duration| {
            db.rt.block_on(async {
                loop {
                    match tokio::time::timeout(wait, heard.recv()).await {
                        Ok(Ok(Change::Resync)) => continue,
                        Ok(Ok(c)) => return Some(c),
                        _ => return None,
                    }
                }
            })
        };
        // Tables made until one is heard: the listening connection may
        // still be connecting for the first ones.
        let mut lobby = None;
        for i in 0..30 {
            other
                .create_table(&contract::table(&format!("n{i}")), "B")
                .unwrap();
            lobby = next(&mut heard, Duration::from_millis(500));
            if lobby.is_some() {
                break;
            }
        }
        assert_eq!(lobby, Some(Change::Lobby));
        // Drain what the other creations sent.
        while next(&mut heard, Duration::from_millis(200)).is_some() {}
        other.leave("B").unwrap();
        assert_eq!(
            next(&mut heard, Duration::from_secs(10)),
            Some(Change::Left("B".to_string()))
        );
    }

    contract::contract_tests!(on_fresh);

    #[test]
    fn contract_concurrent_appends() {
        on_fresh(contract::concurrent_appends);
    }

    #[test]
    fn contract_dump_to_sqlite_and_back() {
        on_fresh(|pg| {
            contract::dump_and_restore(pg.as_ref(), &SqliteStore::in_memory().unwrap());
        });
        on_fresh(|pg| {
            contract::dump_and_restore(&SqliteStore::in_memory().unwrap(), pg.as_ref());
        });
    }

    /// Appends `seq` of `table` without blocking; its outcome comes on
    /// the receiver.
    fn then(
        s: &Arc<PgStore>,
        table: &str,
        seq: u64,
        ends: bool,
        epoch: Epoch,
    ) -> std::sync::mpsc::Receiver<Result<(), StoreError>> {
        let (tx, rx) = std::sync::mpsc::channel();
        Arc::clone(s).append_action_then(
            table.to_string(),
            contract::act(seq, 1, "pass"),
            7,
            ends,
            epoch,
            Box::new(move |r| tx.send(r).unwrap()),
        );
        rx
    }

    /// Group commit under contention: many threads append to many tables
    /// at once, blocking and not, with duplicates, appends after a game's
    /// end and tables claimed by another node mid-way. Each failing append
    /// fails alone, with the error a lone transaction gives; every other
    /// is stored, and every table's history is contiguous.
    #[test]
    fn batched_appends_fail_alone() {
        let Some(db) = Fresh::new() else {
            return;
        };
        let s = db.store();
        const N: u64 = 60;
        let mut ids = Vec::new();
        for kind in ["b", "p", "f", "e"] {
            let count = match kind {
                "b" | "p" => 8,
                "f" => 4,
                _ => 2,
            };
            for i in 0..count {
                let id = format!("{kind}{i}");
                s.create_table(&contract::table(&id), "A").unwrap();
                ids.push(id);
            }
        }
        let duplicate = |r: Result<(), StoreError>| {
            assert!(
                matches!(&r, Err(StoreError::Postgres(t)) if t.contains("duplicate key")),
                "{r:?}"
            );
        };
        let mut threads = Vec::new();
        for id in ids.clone() {
            let s = Arc::clone(&s);
            threads.push(std::thread::spawn(move || match &id[..1] {
                // Blocking, a duplicate of every fifth action.
                "b" => {
                    for seq in 1..=N {
                        s.append_action(&id, &contract::act(seq, 0, "pass"), 1, false, 1)
                            .unwrap();
                        if seq % 5 == 0 {
                            duplicate(s.append_action(
                                &id,
                                &contract::act(seq, 2, "other"),
                                1,
                                false,
                                1,
                            ));
                        }
                    }
                }
                // Every action queued at once (so a batch holds several of
                // one table, in order), a duplicate of every fifth.
                "p" => {
                    let mut waits = Vec::new();
                    for seq in 1..=N {
                        waits.push((true, then(&s, &id, seq, false, 1)));
                        if seq % 5 == 0 {
                            waits.push((false, then(&s, &id, seq, false, 1)));
                        }
                    }
                    for (first, rx) in waits {
                        let r = rx.recv().unwrap();
                        if first {
                            r.unwrap();
                        } else {
                            duplicate(r);
                        }
                    }
                }
                // Claimed by node B mid-way: the next append is fenced,
                // then B's (under epoch 2) go on; stale appends queued at
                // once are all fenced.
                "f" => {
                    let claimed = Arc::new(AtomicBool::new(false));
                    let claimer = {
                        let (s, id) = (Arc::clone(&s), id.clone());
                        let claimed = Arc::clone(&claimed);
                        std::thread::spawn(move || {
                            std::thread::sleep(Duration::from_millis(20));
                            let long = Duration::from_secs(3600);
                            assert_eq!(s.claim(&id, "B", long).unwrap(), Ownership::Mine(2));
                            claimed.store(true, Ordering::SeqCst);
                            let stale: Vec<_> =
                                (N + 1..N + 6).map(|q| then(&s, &id, q, false, 1)).collect();
                            for rx in stale {
                                let r = rx.recv().unwrap();
                                assert!(
                                    matches!(
                                        &r,
                                        Err(StoreError::Fenced { table, epoch: 1, current: 2 })
                                            if *table == id
                                    ),
                                    "{r:?}"
                                );
                            }
                        })
                    };
                    let mut epoch = 1;
                    for seq in 1..=N {
                        if seq == N / 2 {
                            // The claim is made by the second half at the
                            // latest: an append is fenced.
                            while !claimed.load(Ordering::SeqCst) {
                                std::thread::sleep(Duration::from_millis(1));
                            }
                        }
                        match s.append_action(&id, &contract::act(seq, 0, "pass"), 1, false, epoch)
                        {
                            Ok(()) => {}
                            Err(StoreError::Fenced {
                                epoch: 1,
                                current: 2,
                                ..
                            }) if epoch == 1 => {
                                epoch = 2;
                                s.append_action(&id, &contract::act(seq, 0, "pass"), 1, false, 2)
                                    .unwrap();
                            }
                            Err(e) => panic!("{e:?}"),
                        }
                    }
                    assert_eq!(epoch, 2, "the claim fenced an append");
                    claimer.join().unwrap();
                }
                // The game ends with action 10, queued with 11 and 12 after
                // it: those are refused.
                _ => {
                    let waits: Vec<_> = (1..=12).map(|q| then(&s, &id, q, q == 10, 1)).collect();
                    for (q, rx) in (1..).zip(waits) {
                        let r = rx.recv().unwrap();
                        if q <= 10 {
                            r.unwrap();
                        } else {
                            assert!(
                                matches!(&r, Err(StoreError::Corrupt(t)) if t.contains("over")),
                                "{r:?}"
                            );
                        }
                    }
                }
            }));
        }
        for t in threads {
            t.join().unwrap();
        }
        for id in ids {
            let t = s.load(&id).unwrap().unwrap();
            let want = if id.starts_with('e') { 10 } else { N };
            let seqs: Vec<u64> = t.actions.iter().map(|a| a.seq).collect();
            assert_eq!(seqs, (1..=want).collect::<Vec<_>>(), "{id}");
            assert!(
                t.actions.iter().all(|a| a.action == "pass"),
                "{id}: a duplicate was stored"
            );
            assert_eq!(t.finished_at.is_some(), id.starts_with('e'), "{id}");
        }
    }

    /// A rough figure, not a check: 64 threads each append 200 actions
    /// to a table of their own (`cargo test -p server --lib
    /// append_throughput -- --ignored --nocapture`).
    #[test]
    #[ignore = "a measurement"]
    fn append_throughput() {
        let Some(db) = Fresh::new() else {
            return;
        };
        let s = db.store();
        for i in 0..64 {
            s.create_table(&contract::table(&format!("t{i}")), "A")
                .unwrap();
        }
        let start = std::time::Instant::now();
        let threads: Vec<_> = (0..64)
            .map(|i| {
                let s = Arc::clone(&s);
                std::thread::spawn(move || {
                    let mut worst = Duration::ZERO;
                    for seq in 1..=200 {
                        let one = std::time::Instant::now();
                        s.append_action(
                            &format!("t{i}"),
                            &contract::act(seq, 0, "pass"),
                            1,
                            false,
                            1,
                        )
                        .unwrap();
                        worst = worst.max(one.elapsed());
                    }
                    worst
                })
            })
            .collect();
        let worst = threads.into_iter().map(|t| t.join().unwrap()).max();
        let took = start.elapsed();
        eprintln!(
            "12800 appends in {took:?}: {:.0}/s, slowest {worst:?}",
            12800.0 / took.as_secs_f64()
        );
    }

    /// Every migration is recorded once; processes starting together
    /// migrate once (the advisory lock); a newer database is refused.
    #[test]
    fn migrations_run_once_and_newer_databases_are_refused() {
        let Some(db) = Fresh::new() else {
            return;
        };
        let (a, b) = db
            .rt
            .block_on(async { tokio::join!(PgStore::connect(&db.url), PgStore::connect(&db.url)) });
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(db.versions(), (1..=migrate::latest()).collect::<Vec<_>>());
        drop((a, b));
        db.store();
        assert_eq!(db.versions(), (1..=migrate::latest()).collect::<Vec<_>>());
        db.sql(&format!(
            "INSERT INTO schema_migrations VALUES ({}, 'from the future', 0)",
            migrate::latest() + 1
        ));
        assert!(matches!(
            db.connect(),
            Err(StoreError::TooNew { found, known })
                if found == migrate::latest() + 1 && known == migrate::latest()
        ));
    }

    /// Leases are measured by the database's clock: a heartbeat made now
    /// is alive under a lease of a minute, and not under none.
    #[test]
    fn leases_use_the_database_clock() {
        on_fresh(|s| {
            s.heartbeat(&Node {
                id: "A".to_string(),
                url: String::new(),
            })
            .unwrap();
            s.create_table(&contract::table("c"), "A").unwrap();
            let minute = Duration::from_secs(60);
            assert!(s.orphans("B", minute, 10).unwrap().is_empty());
            assert_eq!(s.orphans("B", Duration::ZERO, 10).unwrap(), vec!["c"]);
        });
    }

    #[test]
    fn passwords_never_reach_an_error() {
        for (url, shown) in [
            (
                "postgres://ann:s3cret@db:5432/ratrace",
                "postgres://ann:***@db:5432/ratrace",
            ),
            (
                "postgresql://ann:p%40ss@db/ratrace?sslmode=disable",
                "postgresql://ann:***@db/ratrace?sslmode=disable",
            ),
            ("postgres://ann@db/ratrace", "postgres://ann@db/ratrace"),
            (
                "postgres://db/ratrace?user=ann&password=s3cret&x=1",
                "postgres://db/ratrace?user=ann&password=***&x=1",
            ),
            (
                "host=db user=ann password='s3 cret' dbname=r",
                "host=db user=ann password=*** dbname=r",
            ),
            (
                "host=db PASSWORD = s3cret dbname=r",
                "host=db PASSWORD = *** dbname=r",
            ),
        ] {
            assert_eq!(redact(url), shown);
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // Nothing listens on port 1: the connection fails, and its error
        // names the database without the password.
        let err = rt
            .block_on(PgStore::connect("postgres://ann:s3cret@127.0.0.1:1/r"))
            .unwrap_err()
            .to_string();
        assert!(!err.contains("s3cret"), "{err}");
        assert!(err.contains("ann:***@127.0.0.1:1"), "{err}");
        let err = rt
            .block_on(super::super::open("postgresql://ann:s3cret@127.0.0.1:1/r"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("ann:***@") && !err.contains("s3cret"), "{err}");
    }
}
