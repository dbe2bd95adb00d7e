//! Several server processes on one database (one site), each in its own
//! runtime on its own thread with its public and cluster listeners: a
//! table is played through a process that does not own it, survives the
//! death of its owner (the runtime dropped at once, as by `kill -9`), and
//! a stale owner is fenced.

use super::util::*;
use serde_json::{json, Value};
use server::cluster::Cluster;
use server::store::{Node, Ownership, SqliteStore, Store};
use server::Limits;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::net::TcpListener;

const LEASE: Duration = Duration::from_millis(600);
const SECRET: &str = "test-site-secret";

/// One process of the site; `kill` drops its runtime.
struct Process {
    addr: SocketAddr,
    /// Its cluster listener (for the other processes only).
    inner: SocketAddr,
    kill: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Process {
    fn kill(self) {
        self.kill.send(()).unwrap();
        self.thread.join().unwrap();
    }
}

fn process(db: &Path, name: &str) -> Process {
    process_on(&db.display().to_string(), name)
}

/// A process on the store `spec` (a SQLite path or a PostgreSQL URL).
fn process_on(spec: &str, name: &str) -> Process {
    if std::env::var_os("RATRACE_TEST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_test_writer()
            .try_init();
    }
    let db = spec.to_string();
    let name = name.to_string();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (kill, killed) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = server::store::open(&db).await.unwrap();
            let public = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let inner = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let cluster = Cluster::member(
                Node {
                    id: name.clone(),
                    url: format!("http://{}", inner.local_addr().unwrap()),
                },
                LEASE,
                SECRET.to_string(),
            );
            let state = server::AppState::open_cluster(store, Limits::unlimited(), cluster)
                .await
                .unwrap();
            addr_tx
                .send((public.local_addr().unwrap(), inner.local_addr().unwrap()))
                .unwrap();
            tokio::spawn(server::run_cluster(
                inner,
                state.clone(),
                std::future::pending(),
            ));
            tokio::spawn(server::run(public, state, std::future::pending()));
        });
        let _ = killed.recv();
        drop(rt);
    });
    let (addr, inner) = addr_rx.recv().unwrap();
    Process {
        addr,
        inner,
        kill,
        thread,
    }
}

/// Who owns table `id` according to the store, as seen by a bystander
/// with a lease long enough that nobody counts as dead.
fn owner(db: &Path, id: &str) -> String {
    let store = SqliteStore::open(db).unwrap();
    match store
        .claim(id, "bystander", Duration::from_secs(3600))
        .unwrap()
    {
        Ownership::Other(node) => node.id,
        other => panic!("nobody owned {id}: {other:?}"),
    }
}

/// The next state in which `seat` has a decision, at `seq` or later.
async fn my_turn(ws: &mut Ws, seat: &str, seq: u64) -> Value {
    loop {
        let m = ws.next().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state"
            && m["seq"].as_u64().unwrap() >= seq
            && m["to_move"] == seat
            && !m["legal"].as_array().unwrap().is_empty()
        {
            return m;
        }
    }
}

/// Plays the first legal action of `state` and waits for the state that
/// acknowledges it.
async fn act_first(ws: &mut Ws, state: &Value) {
    ws.send(json!({"type":"act","seq":state["seq"],"action":state["legal"][0]}))
        .await;
    loop {
        let m = ws.next().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state" && m["seq"].as_u64() > state["seq"].as_u64() {
            return;
        }
    }
}

/// Says hello with `token`; the answer is left for [`play`] (it may
/// already be P1's turn).
async fn hello(ws: &mut Ws, token: &str) {
    ws.send(json!({"type": "hello", "token": token, "lang": "en"}))
        .await;
}

/// Plays `n` of seat P1's decisions; returns the state after the last.
async fn play(ws: &mut Ws, n: usize) -> Value {
    let mut seq = 0;
    for _ in 0..n {
        let m = my_turn(ws, "P1", seq).await;
        seq = m["seq"].as_u64().unwrap() + 1;
        ws.send(json!({"type":"act","seq":m["seq"],"action":m["legal"][0]}))
            .await;
    }
    my_turn(ws, "P1", seq).await
}

fn dalmuti_vs_bots() -> Value {
    json!({"game":"dalmuti","players":4,"options":{"hands":"3"},"public":true,
           "seats":[{"kind":"human"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}],
           "bot_delay_ms":50})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_played_through_processes_that_do_not_own_it() {
    let db = temp_db("cluster-forward");
    let a = process(&db, "A");
    let b = process(&db, "B");
    let c = process(&db, "C");
    let id = create(a.addr, dalmuti_vs_bots()).await;
    // Joined through B, played through C, described by B: all forwarded
    // to A, which created the table and keeps it.
    let token = join(b.addr, &id, "P1").await;
    let mut ws = Ws::connect(c.addr, &id).await;
    hello(&mut ws, &token).await;
    let after = play(&mut ws, 3).await;
    assert_eq!(seq_of(b.addr, &id).await, after["seq"].as_u64().unwrap());
    let (status, list) = http(c.addr, "GET", "/api/tables", None).await;
    assert_eq!(status, 200);
    assert!(list.as_array().unwrap().iter().any(|t| t["id"] == id));
    assert_eq!(owner(&db, &id), "A", "forwarded, never claimed elsewhere");
    drop(ws);
    for p in [a, b, c] {
        p.kill();
    }
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_owner_dies_a_survivor_takes_over_and_nothing_is_lost() {
    let db = temp_db("cluster-failover");
    let a = process(&db, "A");
    let b = process(&db, "B");
    let id = create(a.addr, dalmuti_vs_bots()).await;
    let bots_only = create(
        a.addr,
        json!({"game":"bigcheese","players":3,"public":true,"bot_delay_ms":100,
               "seats":[{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}),
    )
    .await;
    let token = join(b.addr, &id, "P1").await;
    let mut ws = Ws::connect(b.addr, &id).await;
    hello(&mut ws, &token).await;
    let before = play(&mut ws, 2).await;
    a.kill();
    assert!(
        ws.next_raw().await.is_none(),
        "the forwarded connection died"
    );
    // The client reconnects through the survivor, which waits out the
    // dead owner's lease, claims the table and replays it.
    let mut ws = Ws::connect(b.addr, &id).await;
    let after = ws.hello(Some(&token)).await;
    assert_eq!(after["type"], "state", "{after}");
    assert_eq!(after["seq"], before["seq"], "no acknowledged action lost");
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["legal"], before["legal"]);
    act_first(&mut ws, &after).await;
    assert_eq!(owner(&db, &id), "B");
    // The bots-only table nobody asked for was adopted by the survivor on
    // its own, and plays on for a spectator.
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    while owner(&db, &bots_only) != "B" {
        assert!(tokio::time::Instant::now() < deadline, "not adopted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut spectator = Ws::connect(b.addr, &bots_only).await;
    let first = spectator.hello(None).await;
    assert_eq!(first["type"], "state");
    let seq = first["seq"].as_u64().unwrap();
    loop {
        let m = spectator.next().await;
        if m["type"] == "state" && (m["seq"].as_u64() > Some(seq) || m["over"] == true) {
            break;
        }
    }
    drop(ws);
    b.kill();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_owner_is_fenced_and_its_clients_move() {
    let db = temp_db("cluster-fence");
    let a = process(&db, "A");
    let b = process(&db, "B");
    let id = create(a.addr, dalmuti_vs_bots()).await;
    let token = join(a.addr, &id, "P1").await;
    let mut ws = Ws::connect(a.addr, &id).await;
    hello(&mut ws, &token).await;
    let before = play(&mut ws, 1).await;
    // B takes the table over behind A's back, as if A's lease had run out
    // while it was stopped: A's copy is now stale.
    let store = SqliteStore::open(&db).unwrap();
    let Ownership::Mine(epoch) = store.claim(&id, "B", Duration::ZERO).unwrap() else {
        panic!("B could not claim");
    };
    assert!(epoch >= 2);
    // A's next write is refused by the store: the client is told to
    // reconnect, and nothing A did after the claim is stored.
    ws.send(json!({"type":"act","seq":before["seq"],"action":before["legal"][0]}))
        .await;
    while ws.next_raw().await.is_some() {}
    let stored = store.load(&id).unwrap().unwrap();
    assert_eq!(stored.actions.len() as u64, before["seq"].as_u64().unwrap());
    // Reconnecting through A reaches B, the owner now, at the same point.
    let mut ws = Ws::connect(a.addr, &id).await;
    let after = ws.hello(Some(&token)).await;
    assert_eq!(after["type"], "state", "{after}");
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["view"], before["view"]);
    act_first(&mut ws, &after).await;
    assert_eq!(owner(&db, &id), "B");
    let seqs: Vec<u64> = store
        .load(&id)
        .unwrap()
        .unwrap()
        .actions
        .iter()
        .map(|a| a.seq)
        .collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as u64).collect::<Vec<_>>(),
        "one history"
    );
    drop(ws);
    a.kill();
    b.kill();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// With PostgreSQL, each process caches the lobby and forgets it when any
/// process changes it (LISTEN/NOTIFY): a table made through A is listed by
/// B at once, well within the cache's time bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_process_lists_a_new_table_at_once_on_postgres() {
    let Ok(server) = std::env::var("RATRACE_TEST_PG") else {
        assert!(
            std::env::var_os("RATRACE_REQUIRE_PG").is_none(),
            "RATRACE_REQUIRE_PG is set but RATRACE_TEST_PG is not"
        );
        return;
    };
    let url = fresh_pg_database(&server).await;
    let a = process_on(&url, "A");
    let b = process_on(&url, "B");
    // Let both listeners connect, then fill B's cache.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, before) = http(b.addr, "GET", "/api/tables", None).await;
    assert!(before.as_array().unwrap().is_empty());
    let id = create(a.addr, dalmuti_vs_bots()).await;
    let listed = tokio::time::Instant::now() + Duration::from_millis(1000);
    loop {
        let (_, list) = http(b.addr, "GET", "/api/tables", None).await;
        if list.as_array().unwrap().iter().any(|t| t["id"] == id) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < listed,
            "B still lists its cached lobby"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.kill();
    b.kill();
}

/// The cluster listener serves only the site's processes: a request
/// without the site's secret, or with a wrong one, is refused (403) before
/// any route, and a client cannot borrow another address for its quotas
/// there. Through the public listener the cluster headers change nothing:
/// they are replaced when a request is forwarded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cluster_listener_wants_the_site_secret() {
    let db = temp_db("cluster-secret");
    let a = process(&db, "A");
    let (status, _, _) = request_with(a.inner, "GET", "/api/games", "", "").await;
    assert_eq!(status, 403);
    let forged = "x-ratrace-secret: guess\r\nx-ratrace-peer: 10.9.9.9\r\n";
    let (status, _, _) = request_with(a.inner, "GET", "/api/games", "", forged).await;
    assert_eq!(status, 403);
    let right = format!("x-ratrace-secret: {SECRET}\r\n");
    let (status, _, _) = request_with(a.inner, "GET", "/api/games", "", &right).await;
    assert_eq!(status, 200);
    let (status, _, _) = request_with(a.addr, "GET", "/api/games", "", forged).await;
    assert_eq!(status, 200, "the public listener ignores the headers");
    a.kill();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// Tournament `id` as process `addr` shows it, once `ready` holds.
async fn tournament_when(addr: SocketAddr, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        let (_, v) = http(addr, "GET", &format!("/api/tournaments/{id}"), None).await;
        if ready(&v) {
            return v;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_spans_processes_and_outlives_the_one_that_drives_it() {
    // on PostgreSQL with `RATRACE_IT_BACKEND=postgres`, else a SQLite file
    let pg = std::env::var("RATRACE_TEST_PG").unwrap_or_default();
    let (spec, db) =
        if std::env::var("RATRACE_IT_BACKEND").as_deref() == Ok("postgres") && !pg.is_empty() {
            (fresh_pg_database(&pg).await, None)
        } else {
            let db = temp_db("cluster-tournament");
            (db.display().to_string(), Some(db))
        };
    let a = process_on(&spec, "A");
    let b = process_on(&spec, "B");
    let key = "ab".repeat(32);
    let header = format!("X-Ratrace-Key: {key}\r\n");
    let body = json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-4-one-hand", "rounds": 3,
                      "start_in_s": 3600, "bot_delay_ms": 0,
                      "bots": ["random", "random", "heuristic", "heuristic", "random", "heuristic"]});
    let (status, _, made) = request_with(
        a.addr,
        "POST",
        "/api/tournaments",
        &body.to_string(),
        &header,
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    // entered and left through the process that does not drive it
    let join = json!({"name": "Ann"}).to_string();
    let path = format!("/api/tournaments/{id}/join");
    let (status, _, v) = request_with(b.addr, "POST", &path, &join, &header).await;
    assert_eq!(status, 200, "{v}");
    let seen = tournament_when(a.addr, id, |v| v["entrants"] == 7).await;
    assert_eq!(seen["standings"].as_array().unwrap().len(), 7);
    let path = format!("/api/tournaments/{id}/leave");
    let (status, _, v) = request_with(b.addr, "POST", &path, "", &header).await;
    assert_eq!(status, 200, "{v}");
    let path = format!("/api/tournaments/{id}/start");
    let (status, _, v) = request_with(b.addr, "POST", &path, "", &header).await;
    assert_eq!(status, 200, "{v}");
    tournament_when(b.addr, id, |v| {
        v["round"] == 1 && v["tables"].as_array().unwrap().len() == 2
    })
    .await;
    // its driver dies mid-round: the survivor takes the tournament and its tables
    a.kill();
    let over = tournament_when(b.addr, id, |v| v["status"] == "finished").await;
    assert_eq!(over["round"], 3, "{over}");
    assert_eq!(over["tables"].as_array().unwrap().len(), 6, "{over}");
    for line in over["standings"].as_array().unwrap() {
        if line["left"] == true {
            assert_eq!(line["tables"], 0, "who left was seated nowhere: {line}");
        } else {
            assert_eq!(line["tables"], 3, "{line}");
        }
    }
    b.kill();
    if let Some(db) = db {
        let _ = std::fs::remove_dir_all(db.parent().unwrap());
    }
}
