//! SIGTERM to the real `ratrace serve --log-format json` process: it exits
//! 0 within a few seconds, a connected WebSocket gets the close frame
//! 1012 "server restarting, reconnect", and every line it logged is one
//! JSON object.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::Message;

fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let payload = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(payload).unwrap_or(Value::Null)
}

#[test]
fn sigterm_closes_websockets_with_1012_and_exits_0_logging_json_lines() {
    let dir = super::temp_dir("serve-term");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
        ])
        .arg(dir.join("ratrace.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let seen = Arc::clone(&lines);
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("serving on http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap_or("").to_string();
                let _ = tx.send(addr);
            }
            seen.lock().unwrap().push(line);
        }
    });
    let addr: SocketAddr = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server says where it listens")
        .parse()
        .unwrap();

    let created = post(
        addr,
        "/api/tables",
        // (public: a spectator of a private table needs its key)
        &json!({"game": "bigcheese", "players": 3, "public": true}),
    );
    let id = created["id"].as_str().expect("a table").to_string();
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/{id}")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    ws.send(Message::text(json!({"type": "hello"}).to_string()))
        .unwrap();
    loop {
        if let Message::Text(t) = ws.read().unwrap() {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" {
                break;
            }
        }
    }

    let start = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let frame = loop {
        match ws.read() {
            Ok(Message::Close(frame)) => break frame,
            Ok(_) => continue,
            Err(e) => panic!("no close frame: {e}"),
        }
    };
    let frame = frame.expect("a close code");
    assert_eq!(frame.code, CloseCode::Restart);
    assert_eq!(frame.reason.as_str(), "server restarting, reconnect");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(12),
            "the server still runs after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    reader.join().unwrap();

    let lines = lines.lock().unwrap();
    assert!(lines.len() >= 3, "{lines:?}");
    for line in lines.iter() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(
            v["level"].is_string() && v["fields"]["message"].is_string(),
            "{line}"
        );
    }
    let said = |what: &str| lines.iter().any(|l| l.contains(what));
    assert!(said("SIGTERM"), "{lines:?}");
    assert!(said("\"stopped\""), "{lines:?}");
    std::fs::remove_dir_all(&dir).ok();
}
