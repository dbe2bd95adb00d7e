//! Tests of the PostgreSQL backend: the store contract shared with SQLite
//! (`store/contract.rs`) on a fresh database each, then what only this
//! backend has: change notifications between processes, the group commit
//! under contention, migrations racing at start-up, leases by the
//! database's clock, and passwords kept out of errors. They need a server
//! (`RATRACE_TEST_PG`, e.g. from `scripts/pg.sh start DIR`) and are
//! skipped without one, unless `RATRACE_REQUIRE_PG=1`.

use super::super::{contract, SqliteStore};
use super::*;
use crate::store::model::{Epoch, Node, Ownership, Store};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
                    match s.append_action(&id, &contract::act(seq, 0, "pass"), 1, false, epoch) {
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
