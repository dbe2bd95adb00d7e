//! The SQLite backend's tests: the store contract on a file and in
//! memory, and what only SQLite has (WAL, old files migrated, the group
//! commit).

use super::super::contract;
use super::sql::{IDLE, LIST};
use super::*;
use crate::store::model::{Ownership, Store, StoredFair};
use game::Seat;
use std::sync::Arc;
use std::time::Duration;

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
            signed: true,
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

/// A file from before migrations (the first schema: no columns
/// for limits or private tables, no ledger) is brought up to date with its rows; a file
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

/// Reads stay cheap however many tables there are: the lobby's list and the caps' counts read through indexes,
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
