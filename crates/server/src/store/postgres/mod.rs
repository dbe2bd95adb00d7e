//! The PostgreSQL backend of [`Store`]: one database shared by several
//! `ratrace serve` processes, with the SQLite backend's
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
//!
//! Files: this one holds [`PgStore`] itself, connecting (the pool, the
//! migrations) and the lobby's change notifications (`LISTEN`/`NOTIFY`);
//! `appends` the group commit of appends; `writes` every other write (a
//! table's rows, fencing, seats, claims, results); `reads` loading tables,
//! lists and summaries; `store` the [`Store`] trait on top of them;
//! `errors` the error texts and the password-free URL; `tests` the tests.
//! Only `store` and the tests import from this file: the others are
//! plain async functions over a [`Pool`] that know nothing of [`PgStore`],
//! so this file may use theirs (the lanes, the error texts) without an
//! import circle.

use crate::store::migrate::{self, MIGRATIONS};
use crate::store::model::{Change, StoreError};
use appends::{lane, lane_of, Appending};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use errors::chain;
use std::future::Future;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::NoTls;

pub(crate) use errors::redact;

/// The database's clock in milliseconds since the epoch (a literal for
/// `concat!`). Defined above the `mod` lines: a `macro_rules!` is seen
/// only below its definition, and `writes` and `reads` use it.
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

/// How long a call waits for a free connection of the pool before it
/// fails.
const WAIT: Duration = Duration::from_secs(30);
/// How long making a new connection (or checking a pooled one) may take.
const CONNECT: Duration = Duration::from_secs(10);

/// The key of the advisory lock that serialises migrations ("ratrace").
const MIGRATION_LOCK: i64 = 0x0072_6174_7261_6365;

mod appends;
mod errors;
mod passkeys;
mod profile;
mod reads;
mod relations;
mod store;
#[cfg(test)]
mod tests;
mod tickets;
mod tournaments;
mod writes;

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
