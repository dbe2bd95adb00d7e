//! Three real `ratrace serve` processes on one database (one site):
//! PostgreSQL when the test command started one (`RATRACE_TEST_PG`),
//! else one SQLite file. A table is played through processes that do not
//! own it; its owner is SIGKILLed mid-game and play goes on through a
//! survivor with nothing lost; the next owner is stopped (SIGSTOP) long
//! enough to lose its lease, another process takes over, and when the
//! stale owner wakes (SIGCONT) the action it was sent meanwhile is
//! refused by the store: one history, no fork.

use super::{http, next_state, serve_with, try_connect, Ws};
use serde_json::{json, Value};
use server::store::{Ownership, Store};
use std::net::SocketAddr;
use std::process::Child;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::Message;

const LEASE_MS: &str = "1000";

/// The database the three processes share: a fresh PostgreSQL database
/// when `RATRACE_TEST_PG` is set, else a SQLite file.
fn database(dir: &std::path::Path) -> String {
    match std::env::var("RATRACE_TEST_PG") {
        Ok(url) => {
            let name = format!("ratrace_cluster_{}", std::process::id());
            let out = std::process::Command::new("psql")
                .args([&url, "-q", "-c", &format!("CREATE DATABASE {name}")])
                .output()
                .expect("psql");
            assert!(out.status.success(), "{out:?}");
            match url.rsplit_once('/') {
                Some((server, _)) => format!("{server}/{name}"),
                None => panic!("RATRACE_TEST_PG has no database: {url}"),
            }
        }
        Err(_) => dir.join("cluster.db").display().to_string(),
    }
}

/// One process: its child and public address, and the URL it advertises
/// to the others (how the store names it).
struct Process {
    child: Child,
    addr: SocketAddr,
    url: String,
}

fn start(db: &str) -> Process {
    let (child, addr, log) = serve_with(
        db,
        &["--cluster-listen", "127.0.0.1:0", "--lease-ms", LEASE_MS],
    );
    let url = log
        .split("advertised as ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the process says its cluster URL")
        .to_string();
    Process { child, addr, url }
}

fn signal(p: &Process, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([sig, &p.child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig}");
}

/// A store on `db` for looking, from a runtime of its own.
struct Look {
    rt: tokio::runtime::Runtime,
    store: Arc<dyn Store>,
}

impl Look {
    fn new(db: &str) -> Look {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let store = rt.block_on(server::store::open(db)).unwrap();
        Look { rt, store }
    }

    /// The advertised URL of table `id`'s owner (a bystander's claim
    /// with a lease so long that everybody counts as alive).
    fn owner(&self, id: &str) -> String {
        let (store, id) = (Arc::clone(&self.store), id.to_string());
        let owned = self.rt.block_on(async move {
            tokio::task::spawn_blocking(move || {
                store.claim(&id, "bystander", Duration::from_secs(3600))
            })
            .await
            .unwrap()
            .unwrap()
        });
        match owned {
            Ownership::Other(node) => node.url,
            other => panic!("table has no owner: {other:?}"),
        }
    }

    /// Table `id`'s stored actions, as `seq seat action` lines.
    fn history(&self, id: &str) -> Vec<String> {
        let (store, id) = (Arc::clone(&self.store), id.to_string());
        let t = self.rt.block_on(async move {
            tokio::task::spawn_blocking(move || store.load(&id))
                .await
                .unwrap()
                .unwrap()
                .unwrap()
        });
        t.actions
            .iter()
            .map(|a| format!("{} {} {}", a.seq, a.seat, a.action))
            .collect()
    }
}

/// Connects through `addr`, retrying while the site fails a table over.
fn connect_retrying(addr: SocketAddr, id: &str, token: &str) -> (Ws, Value) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match try_connect(addr, id, token) {
            Ok(pair) => return pair,
            Err(e) => {
                assert!(Instant::now() < deadline, "no connection in 20 s: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// Seat `P1`…: its index.
fn index(seat: &str) -> usize {
    seat[1..].parse::<usize>().unwrap() - 1
}

/// Plays the `pick`-th legal action (wrapping) of whoever is to move,
/// through `addr`; returns the acknowledging state and the action.
fn act(addr: SocketAddr, id: &str, tokens: &[String], pick: usize) -> (Value, String) {
    let (_, probe) = connect_retrying(addr, id, &tokens[0]);
    let mover = probe["to_move"]
        .as_str()
        .expect("someone moves")
        .to_string();
    let (mut ws, state) = connect_retrying(addr, id, &tokens[index(&mover)]);
    let seq = state["seq"].as_u64().unwrap();
    let legal = state["legal"].as_array().unwrap();
    let action = legal[pick % legal.len()].as_str().unwrap().to_string();
    let msg = json!({"type": "act", "seq": seq, "action": action}).to_string();
    ws.send(Message::text(msg)).unwrap();
    loop {
        let s = next_state(&mut ws);
        if s["seq"].as_u64().unwrap() > seq {
            return (s, action);
        }
    }
}

#[test]
fn three_processes_survive_a_kill_and_fence_a_stale_owner() {
    let dir = super::super::temp_dir("cluster");
    let db = database(&dir);
    let mut procs: Vec<Process> = (0..3).map(|_| start(&db)).collect();
    let look = Look::new(&db);
    // A process alone on the same database would fight the site for its
    // tables: it is refused, with the reason.
    let mut alone = std::process::Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = alone.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = alone.kill();
            panic!("a process alone was allowed to serve the site's database");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut why = String::new();
    std::io::Read::read_to_string(&mut alone.stderr.take().unwrap(), &mut why).unwrap();
    assert_eq!(status.code(), Some(2), "{why}");
    assert!(why.contains("--cluster-listen"), "{why}");

    let seats: Vec<Value> = (0..3).map(|_| json!({"kind": "human"})).collect();
    let created = http(
        procs[0].addr,
        "POST",
        "/api/tables",
        &json!({"game": "bigcheese", "players": 3, "seats": seats}),
    );
    let id = created["id"].as_str().expect("table created").to_string();
    let first_owner = look.owner(&id);
    let mut tokens = Vec::new();
    for (i, p) in ["P1", "P2", "P3"].iter().enumerate() {
        // Joined through every process in turn: forwarded to the owner.
        let joined = http(
            procs[i].addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            &json!({"seat": p, "name": p, "key": created["key"]}),
        );
        tokens.push(joined["token"].as_str().expect("joined").to_string());
    }
    // Ten actions, each through a process that does not own the table.
    let mut last = Value::Null;
    for k in 0..10 {
        last = act(procs[1 + k % 2].addr, &id, &tokens, 0).0;
    }
    assert_eq!(last["seq"], 10);
    assert_eq!(look.owner(&id), first_owner, "forwarded, never moved");

    // SIGKILL the owner (process 0, which created the table).
    procs[0].child.kill().unwrap();
    procs[0].child.wait().unwrap();
    let killed = Instant::now();
    let (after, _) = act(procs[1].addr, &id, &tokens, 0);
    eprintln!(
        "failover: {} ms from SIGKILL to the next acknowledged action",
        killed.elapsed().as_millis()
    );
    assert_eq!(after["seq"], 11, "no acknowledged action lost");
    let survivor = look.owner(&id);
    assert_ne!(survivor, first_owner);
    assert_eq!(first_owner, procs[0].url);

    // Stop the new owner with a client connected to it directly.
    let owner_at = procs
        .iter()
        .position(|p| p.url == survivor)
        .expect("the owner is one of the processes");
    let other = if owner_at == 1 { 2 } else { 1 };
    let state = after;
    let mover = state["to_move"].as_str().unwrap().to_string();
    let (mut direct, seen) = connect_retrying(procs[owner_at].addr, &id, &tokens[index(&mover)]);
    assert_eq!(seen["seq"], 11);
    signal(&procs[owner_at], "-STOP");
    // Sent to the stopped owner: sits in its socket until it wakes.
    let legal = seen["legal"].as_array().unwrap();
    let stale = legal[legal.len() - 1].as_str().unwrap().to_string();
    direct
        .send(Message::text(
            json!({"type": "act", "seq": 11, "action": stale}).to_string(),
        ))
        .unwrap();
    // The other process takes over once the lease runs out, and the same
    // seat plays a different action there.
    std::thread::sleep(Duration::from_millis(1500));
    let (taken, fresh) = act(procs[other].addr, &id, &tokens, 0);
    assert_eq!(taken["seq"], 12);
    assert_ne!(fresh, stale, "the test needs two different actions");
    signal(&procs[owner_at], "-CONT");
    // The woken owner's write is fenced: its client is closed, to
    // reconnect to the new owner.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match direct.read() {
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => assert!(Instant::now() < deadline, "the stale owner kept its client"),
        }
    }
    let history = look.history(&id);
    assert_eq!(history.len(), 12, "{history:?}");
    assert!(
        history[11].ends_with(&format!(" {fresh}")),
        "seq 12 is the new owner's action, not the stale one ({stale}): {history:?}"
    );
    for (i, line) in history.iter().enumerate() {
        assert!(line.starts_with(&format!("{} ", i + 1)), "{history:?}");
    }
    // And play goes on through the process that was stale.
    let (next, _) = act(procs[owner_at].addr, &id, &tokens, 0);
    assert_eq!(next["seq"], 13);
    for mut p in procs {
        let _ = p.child.kill();
        let _ = p.child.wait();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
