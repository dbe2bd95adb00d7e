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

mod passkeys;
mod profile;
mod reads;
mod relations;
mod sql;
mod store;
#[cfg(test)]
mod tests;
mod tickets;
mod tournaments;
mod write;
mod writer;

use super::migrate::{self, MIGRATIONS};
use super::model::StoreError;
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use write::Job;

/// The SQLite backend: the writer thread owns one connection and
/// group-commits every write; reads (the lobby, loading a table) use
/// their own connections, so a slow read never delays a commit. An
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

/// Columns added after the first schema (limits, private tables), with their types;
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
            // columns added later (migration 1 creates only what is
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
}

/// Creates `path` readable and writable by its owner only if it does not
/// exist, and takes every other permission from an existing one. SQLite
/// gives its `-wal` and `-shm` files the database file's permissions.
fn private_file(path: &Path) -> Result<(), StoreError> {
    let file = |why: String| StoreError::File {
        path: path.display().to_string(),
        why,
    };
    // named before SQLite tries, whose own words are "unable to open"
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => {
            return Err(file(format!(
                "its folder {} does not exist (make it first)",
                dir.display()
            )))
        }
        _ if path.is_dir() => return Err(file("it is a folder".into())),
        _ => {}
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let io = |e: std::io::Error| file(e.to_string());
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
