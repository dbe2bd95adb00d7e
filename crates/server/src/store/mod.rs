//! Durable storage of tables, seats and actions: one interface ([`Store`])
//! and its two backends, SQLite ([`SqliteStore`], the embedded default for
//! one machine) and PostgreSQL ([`PgStore`], for several `ratrace serve`
//! processes sharing one database); [`open`] picks one from a URL or path.
//!
//! Everything the server persists goes through the [`Store`] trait, so
//! the tables and the lobby never know which backend they run on. Calls
//! are blocking: async callers run them through
//! `tokio::task::spawn_blocking`, and the one hot write
//! ([`Store::append_action_then`]) reports through a callback instead. Every
//! write is committed before the call returns, so an acknowledged action
//! survives a crash. Seat tokens are never stored, only their SHA-256.
//!
//! Both backends keep a versioned schema ([`migrate`]) that each process
//! brings up to date at start-up, and both fence a table's writes by its
//! ownership [`Epoch`], so two processes can never both append to one
//! table's history.

/// The columns of the `ratings` table that `columns::rating_row` reads,
/// in its order: a macro, so that both backends' queries are `concat!`ed
/// constants. Defined above the `mod` lines, where a `macro_rules!` must be
/// to be seen in them.
macro_rules! rating_columns {
    () => {
        "game, player, name, rating, uncertainty, score, games"
    };
}

/// The profile's accuracy query (both backends, `?` written per backend):
/// per game, the analysed seats of `player` at public tables.
macro_rules! accuracy_query {
    ($p:literal) => {
        concat!(
            "SELECT t.game, COUNT(*), SUM(a.decisions), SUM(a.accuracy * a.decisions),
               SUM(a.mistakes), SUM(a.blunders)
             FROM analysis_seats a
             JOIN seats s ON s.table_id = a.table_id AND s.seat = a.seat
             JOIN tables t ON t.id = a.table_id
             WHERE s.player = ",
            $p,
            " AND t.public = 1 AND a.decisions > 0
             GROUP BY t.game ORDER BY t.game"
        )
    };
}

mod columns;
#[cfg(test)]
mod contract;
#[cfg(test)]
mod contract_profile;
pub mod copy;
mod lists;
pub mod migrate;
mod model;
pub mod passkeys;
mod postgres;
pub mod profile;
pub mod ratings;
pub mod relations;
mod sqlite;
pub mod tickets;
pub mod tournaments;

pub use lists::*;
pub use model::*;
pub use postgres::PgStore;
pub use sqlite::SqliteStore;

use std::sync::Arc;

/// Opens the store `spec` names: a `postgres://` or `postgresql://` URL
/// connects a [`PgStore`] (inside the current tokio runtime); `sqlite:PATH`
/// or a plain path opens (creating if needed) a [`SqliteStore`] file, and
/// `sqlite::memory:` a private in-memory one. Opening a SQLite file blocks
/// the caller briefly (it runs the migrations).
pub async fn open(spec: &str) -> Result<Arc<dyn Store>, StoreError> {
    if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
        return Ok(Arc::new(PgStore::connect(spec).await?));
    }
    let path = spec.strip_prefix("sqlite:").unwrap_or(spec);
    if path == ":memory:" {
        return Ok(Arc::new(SqliteStore::in_memory()?));
    }
    Ok(Arc::new(SqliteStore::open(std::path::Path::new(path))?))
}

/// A store spec fit for a log or an error: a PostgreSQL URL's password
/// is replaced by `***`; a SQLite path is kept.
pub fn redact(spec: &str) -> String {
    postgres::redact(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sqlite:PATH`, a plain path and `sqlite::memory:` open SQLite (a
    /// PostgreSQL URL is tested with the PostgreSQL backend).
    #[test]
    fn open_picks_the_backend_from_the_spec() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let dir = std::env::temp_dir().join(format!(
            "ratrace-open-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.db");
        for spec in [
            "sqlite::memory:".to_string(),
            format!("sqlite:{}", file.display()),
            file.display().to_string(),
        ] {
            let store = rt.block_on(open(&spec)).unwrap();
            assert_eq!(store.backend(), "sqlite", "{spec}");
            assert_eq!(store.site_secret().unwrap().len(), 64);
        }
        assert!(file.exists());
        // a missing folder or a folder named as the file: said in words,
        // and nothing is made
        let missing = dir.join("no/such/folder/x.db");
        let Err(e) = rt.block_on(open(&missing.display().to_string())) else {
            panic!("a file in a missing folder opened");
        };
        assert!(
            e.to_string()
                .ends_with("no/such/folder does not exist (make it first)"),
            "{e}"
        );
        assert!(!dir.join("no").exists());
        let Err(e) = rt.block_on(open(&dir.display().to_string())) else {
            panic!("a folder opened as a database");
        };
        assert!(e.to_string().ends_with(": it is a folder"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
