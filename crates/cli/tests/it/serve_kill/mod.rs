//! Kill-and-restart of the real `ratrace serve` process: SIGKILL it in the
//! middle of a game, start it again on the same database file, and check
//! that every acknowledged action is still there and the table resumes.
//!
//! Every seat is human and played by this test, so nothing moves while the
//! server is down and the resumed state must equal the last one seen.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

mod cluster;

/// Starts `ratrace serve` on a free loopback port and waits until it serves.
fn serve(db: &std::path::Path) -> (Child, SocketAddr) {
    let (child, addr, _) = serve_with(&db.display().to_string(), &[]);
    (child, addr)
}

/// Starts `ratrace serve --db DB FLAGS…` on a free loopback port and waits
/// until it serves; also returns its log up to then.
fn serve_with(db: &str, flags: &[&str]) -> (Child, SocketAddr, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut log = String::new();
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            log.push_str(&line);
            log.push('\n');
            if let Some(rest) = line.split("serving on http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap_or("").to_string();
                let _ = tx.send((addr, std::mem::take(&mut log)));
            }
        }
    });
    let (addr, log) = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server says where it listens");
    (child, addr.parse().unwrap(), log)
}

fn http(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = body.to_string();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let payload = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(payload).unwrap_or(Value::Null)
}

fn connect(addr: SocketAddr, id: &str, token: &str) -> (Ws, Value) {
    try_connect(addr, id, token).unwrap_or_else(|e| panic!("{e}"))
}

/// Connects to table `id` through `addr` and says hello with `token`;
/// the first state, or what went wrong.
fn try_connect(addr: SocketAddr, id: &str, token: &str) -> Result<(Ws, Value), String> {
    let (mut ws, _) =
        tungstenite::connect(format!("ws://{addr}/ws/{id}")).map_err(|e| e.to_string())?;
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::text(hello)).map_err(|e| e.to_string())?;
    loop {
        match ws.read().map_err(|e| e.to_string())? {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
                match v["type"].as_str() {
                    Some("state") => return Ok((ws, v)),
                    Some("error") => return Err(v.to_string()),
                    _ => {}
                }
            }
            Message::Close(c) => return Err(format!("closed: {c:?}")),
            _ => {}
        }
    }
}

/// The next `state` or `update` (whose small fields, `seq`, `legal`,
/// `to_move`, `over`, are whole: the tests need no patching).
fn next_state(ws: &mut Ws) -> Value {
    loop {
        let msg = ws.read().unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            assert_ne!(v["type"], "error", "{v}");
            if v["type"] == "state" || v["type"] == "update" {
                return v;
            }
        }
    }
}

/// Asks for the whole state again; the `state` that answers.
fn resync(ws: &mut Ws) -> Value {
    ws.send(Message::text(json!({"type": "resync"}).to_string()))
        .unwrap();
    loop {
        let v = next_state(ws);
        if v["type"] == "state" {
            return v;
        }
    }
}

#[test]
fn a_killed_server_process_resumes_after_the_last_acknowledged_action() {
    let dir = super::temp_dir("serve-kill");
    let db = dir.join("ratrace.db");
    let (mut server, addr) = serve(&db);

    let seats: Vec<Value> = (0..3).map(|_| json!({"kind": "human"})).collect();
    let created = http(
        addr,
        "POST",
        "/api/tables",
        &json!({"game": "bigcheese", "players": 3, "seats": seats}),
    );
    let id = created["id"].as_str().expect("table created").to_string();
    let mut tokens = Vec::new();
    for p in ["P1", "P2", "P3"] {
        let joined = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            &json!({"seat": p, "name": p, "key": created["key"]}),
        );
        tokens.push(joined["token"].as_str().expect("joined").to_string());
    }

    // Play 25 actions, each acknowledged by the state that follows it.
    let mut last = Value::Null;
    let start = Instant::now();
    for _ in 0..25 {
        let probe = connect(addr, &id, &tokens[0]).1;
        let mover = probe["to_move"]
            .as_str()
            .expect("someone moves")
            .to_string();
        let k = mover[1..].parse::<usize>().unwrap() - 1;
        let (mut ws, state) = connect(addr, &id, &tokens[k]);
        let seq = state["seq"].as_u64().unwrap();
        let action = state["legal"][0].as_str().unwrap().to_string();
        let act = json!({"type": "act", "seq": seq, "action": action}).to_string();
        ws.send(Message::text(act)).unwrap();
        loop {
            let s = next_state(&mut ws);
            if s["seq"].as_u64().unwrap() == seq + 1 {
                // The acknowledging update; the whole state it made, to
                // compare after the restart.
                last = resync(&mut ws);
                assert_eq!(last["seq"], s["seq"]);
                break;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(120));
    }
    let acked = last["seq"].as_u64().unwrap();
    assert_eq!(acked, 25);

    // SIGKILL: no chance to flush or shut down cleanly.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut again, addr) = serve(&db);
    let seat_of_last = last["seat"].as_str().unwrap();
    let k = seat_of_last[1..].parse::<usize>().unwrap() - 1;
    let (_ws, resumed) = connect(addr, &id, &tokens[k]);
    assert_eq!(
        resumed["seq"].as_u64().unwrap(),
        acked,
        "no acknowledged action is lost"
    );
    assert_eq!(
        resumed["view"], last["view"],
        "the table resumes in the same position"
    );
    assert_eq!(resumed["to_move"], last["to_move"]);
    let before: Vec<Value> = last["log"].as_array().cloned().unwrap_or_default();
    let after = resumed["log"].as_array().cloned().unwrap_or_default();
    assert!(after.len() >= before.len());
    again.kill().unwrap();
    again.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
