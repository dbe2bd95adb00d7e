//! Kill a server mid-game (drop its whole runtime: every task stops at
//! once) and start a new one on the same database file: the table resumes
//! at the same seq with the same view, and play goes on.

use super::util::*;
use serde_json::{json, Value};
use server::store::SqliteStore;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// A server in its own runtime on its own thread; `kill` drops the runtime.
struct Isolated {
    addr: SocketAddr,
    kill: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

fn isolated(db: &Path) -> Isolated {
    let db = db.to_path_buf();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (kill, killed) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = Arc::new(SqliteStore::open(&db).unwrap());
            let state = server::AppState::open(store).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            tokio::spawn(server::run(listener, state, std::future::pending()));
        });
        let _ = killed.recv();
        drop(rt);
    });
    Isolated {
        addr: addr_rx.recv().unwrap(),
        kill,
        thread,
    }
}

/// The next state after `seq` in which `seat` is to move.
async fn my_turn(ws: &mut Ws, seat: &str, seq: u64) -> Value {
    loop {
        let m = ws.next();
        let m = m.await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] != "state" {
            continue;
        }
        assert_ne!(m["over"], true, "the game ended too soon for this test");
        if m["seq"].as_u64().unwrap() >= seq
            && m["to_move"] == seat
            && !m["legal"].as_array().unwrap().is_empty()
        {
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_table_exactly() {
    let db = temp_db("restart");
    let first = isolated(&db);
    let seats = json!([{"kind":"human"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    let id = create(
        first.addr,
        json!({"game":"dalmuti","players":4,"options":{"hands":"3"},"seats":seats,"bot_delay_ms":100}),
    )
    .await;
    let bots_only = create(
        first.addr,
        json!({"game":"bigcheese","players":3,"seats":[{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}],"bot_delay_ms":200}),
    )
    .await;
    let token = join(first.addr, &id, "P1").await;
    let mut ws = Ws::connect(first.addr, &id).await;
    ws.send(json!({"type":"hello","token":token})).await;
    let mut seq = 0;
    for _ in 0..2 {
        let m = my_turn(&mut ws, "P1", seq).await;
        seq = m["seq"].as_u64().unwrap() + 1;
        ws.send(json!({"type":"act","seq":m["seq"],"action":m["legal"][0]}))
            .await;
    }
    let before = my_turn(&mut ws, "P1", seq).await;
    first.kill.send(()).unwrap();
    first.thread.join().unwrap();
    assert!(
        ws.next_raw().await.is_none(),
        "the connection died with the server"
    );

    let second = isolated(&db);
    let mut ws = Ws::connect(second.addr, &id).await;
    let after = ws.hello(Some(&token)).await;
    assert_eq!(after["type"], "state");
    assert_eq!(after["seq"], before["seq"], "no acknowledged action lost");
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["legal"], before["legal"]);
    assert_eq!(after["seed_hash"], before["seed_hash"]);
    // Play goes on from there.
    ws.send(json!({"type":"act","seq":after["seq"],"action":after["legal"][0]}))
        .await;
    loop {
        let m = ws.next().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state" && m["seq"].as_u64() > after["seq"].as_u64() {
            break;
        }
    }
    // The bots-only table resumed too and keeps playing while watched.
    let mut spectator = Ws::connect(second.addr, &bots_only).await;
    assert_eq!(spectator.hello(None).await["type"], "state");
    let (status, info) = http(
        second.addr,
        "GET",
        &format!("/api/tables/{bots_only}"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let seq = info["seq"].as_u64().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let (_, info) = http(
        second.addr,
        "GET",
        &format!("/api/tables/{bots_only}"),
        None,
    )
    .await;
    assert!(info["seq"].as_u64().unwrap() > seq || info["status"] == "finished");
    second.kill.send(()).unwrap();
    second.thread.join().unwrap();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// Quick pairing's pool survives a killed server: two people waiting for
/// a five-seat table are waiting again on the next server with the wait
/// they had (a third, who left before the crash, is not), and when three
/// more come all five are seated together.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_its_pairing_pool() {
    let db = temp_db("restart-pairing");
    let ask = |n: u8| {
        json!({"preset": "dalmuti-5", "name": format!("P{n}"), "player": format!("{n:02x}").repeat(32),
               "wait_s": 60, "contribution": CONTRIBUTION})
        .to_string()
    };
    let first = isolated(&db);
    let mut tickets = Vec::new();
    for n in 1..=3u8 {
        let (status, v) = http_from(
            first.addr,
            [127, 0, 7, n],
            "POST",
            "/api/pairing",
            Some(&ask(n)),
        )
        .await;
        assert_eq!(status, 201, "{v}");
        tickets.push(v["ticket"].as_str().unwrap().to_string());
    }
    let (status, _) = http(
        first.addr,
        "DELETE",
        &format!("/api/pairing/{}", tickets[2]),
        None,
    )
    .await;
    assert_eq!(status, 204);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, before) = http(
        first.addr,
        "GET",
        &format!("/api/pairing/{}", tickets[0]),
        None,
    )
    .await;
    assert_eq!(before["here"], 2, "{before}");
    first.kill.send(()).unwrap();
    first.thread.join().unwrap();

    let second = isolated(&db);
    let path = |t: &str| format!("/api/pairing/{t}");
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let again = loop {
        let (status, v) = http(second.addr, "GET", &path(&tickets[0]), None).await;
        if status == 200 {
            break v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never taken over: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(again["status"], "waiting", "{again}");
    assert_eq!(
        again["here"], 2,
        "both waiting, the one who left not: {again}"
    );
    assert!(
        again["waited_ms"].as_u64() >= before["waited_ms"].as_u64(),
        "the wait it had: {before} then {again}"
    );
    let (status, _) = http(second.addr, "GET", &path(&tickets[2]), None).await;
    assert_eq!(status, 404, "the one who left is gone");
    // three more: a full table of five
    for n in 4..=6u8 {
        let (status, v) = http_from(
            second.addr,
            [127, 0, 7, n],
            "POST",
            "/api/pairing",
            Some(&ask(n)),
        )
        .await;
        assert_eq!(status, 201, "{v}");
    }
    let mut tables = Vec::new();
    for t in &tickets[..2] {
        let seated = loop {
            let (_, v) = http(second.addr, "GET", &path(t), None).await;
            if v["status"] == "seated" {
                break v;
            }
            assert!(tokio::time::Instant::now() < deadline, "never seated: {v}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        assert!(
            seated["token"].as_str().is_some_and(|t| t.len() == 64),
            "{seated}"
        );
        tables.push(seated["table"].clone());
    }
    assert_eq!(tables[0], tables[1], "seated together");
    second.kill.send(()).unwrap();
    second.thread.join().unwrap();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_its_tournaments_going() {
    let db = temp_db("restart-tournament");
    let first = isolated(&db);
    let key = "cd".repeat(32);
    let header = format!("X-Ratrace-Key: {key}\r\n");
    let body = json!({"name": "Cup", "kind": "duplicate", "preset": "dalmuti-4-one-hand",
                      "rounds": 2, "start_in_s": 0, "bot_delay_ms": 200,
                      "bots": ["random", "random", "random", "random", "heuristic", "heuristic", "heuristic", "heuristic"]});
    let (status, _, made) = request_with(
        first.addr,
        "POST",
        "/api/tournaments",
        &body.to_string(),
        &header,
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let path = format!("/api/tournaments/{id}");
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        let (_, v) = http(first.addr, "GET", &path, None).await;
        if v["tables"].as_array().is_some_and(|t| t.len() == 2) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "no tables: {v}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    first.kill.send(()).unwrap();
    first.thread.join().unwrap();

    let second = isolated(&db);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    let over = loop {
        let (_, v) = http(second.addr, "GET", &path, None).await;
        if v["status"] == "finished" {
            break v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never finished: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(over["round"], 2, "{over}");
    let tables = over["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4, "{over}");
    assert!(tables.iter().all(|t| t["places"].is_array()), "{over}");
    second.kill.send(()).unwrap();
    second.thread.join().unwrap();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}
