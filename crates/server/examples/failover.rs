//! The failover bench: three real `ratrace serve` processes on
//! one PostgreSQL database; `--kills` times, a table is created on one of
//! them (so it owns it), played through the others, and its owner is
//! killed with SIGKILL mid-game; a client then plays the next action
//! through a survivor. It reports the time from the kill to that next
//! acknowledged action (p50, p99, max), the acknowledged actions lost, and
//! the forked histories, and restarts the killed process each round so
//! three are always up.
//!
//! The client retries its connection every 50 ms (the browser's first
//! retry is after about half a second). Every table's stored history is
//! checked at the end: seqs 1..n with no gap or repeat, and n equal to the
//! last seq the client saw acknowledged.
//!
//! Usage: `bash scripts/pg.sh start DIR` (prints a URL), `cargo build
//! --release -p cli`, then `cargo run --release -p server --example
//! failover -- --pg postgres://postgres@127.0.0.1:PORT/postgres [--kills
//! 20] [--lease-ms 2000] [--bin target/release/ratrace]`. It makes a
//! database of its own on that server (with psql) and exits 1 if a goal
//! (p99 < 3 s, nothing lost, nothing forked) is missed.

use serde_json::{json, Value};
use server::store::Store;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::{self, Message};

type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

struct Options {
    pg: String,
    kills: usize,
    lease_ms: u64,
    bin: String,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        pg: String::new(),
        kills: 20,
        lease_ms: 2000,
        bin: "target/release/ratrace".to_string(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--pg" => o.pg = value()?,
            "--kills" => o.kills = value()?.parse().map_err(|e| format!("--kills: {e}"))?,
            "--lease-ms" => {
                o.lease_ms = value()?.parse().map_err(|e| format!("--lease-ms: {e}"))?
            }
            "--bin" => o.bin = value()?,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if o.pg.is_empty() {
        return Err("give --pg postgres://… (scripts/pg.sh start DIR prints one)".to_string());
    }
    Ok(o)
}

/// One `ratrace serve` process of the site; killed when dropped, so an
/// error leaves none behind.
struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(o: &Options, db: &str) -> Result<Process, String> {
    let lease = o.lease_ms.to_string();
    let mut child = Command::new(&o.bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--cluster-listen", "127.0.0.1:0", "--lease-ms", &lease])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", o.bin))?;
    let out = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("serving on http://").nth(1) {
                let _ = tx.send(rest.split_whitespace().next().unwrap_or("").to_string());
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .map_err(|_| "a process did not start".to_string())?
        .parse()
        .map_err(|e| format!("address: {e}"))?;
    Ok(Process { child, addr })
}

fn http(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Result<Value, String> {
    let mut s = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .map_err(|e| e.to_string())?;
    let body = body.to_string();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).map_err(|e| e.to_string())?;
    let payload = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(payload).map_err(|_| format!("{method} {path}: {raw}"))
}

/// Connects to table `id` through `addr` with `token`: the socket and the
/// first state.
fn connect(addr: SocketAddr, id: &str, token: &str) -> Result<(Ws, Value), String> {
    let (mut ws, _) =
        tungstenite::connect(format!("ws://{addr}/ws/{id}")).map_err(|e| e.to_string())?;
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    }
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::text(hello)).map_err(|e| e.to_string())?;
    let state = next_state(&mut ws)?;
    Ok((ws, state))
}

fn next_state(ws: &mut Ws) -> Result<Value, String> {
    loop {
        if let Message::Text(t) = ws.read().map_err(|e| e.to_string())? {
            let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
            match v["type"].as_str() {
                Some("state" | "update") => return Ok(v),
                Some("error") => return Err(v.to_string()),
                _ => {}
            }
        }
    }
}

/// Plays the first legal action of whoever is to move, through `addr`,
/// retrying every 50 ms for up to 20 s; the acknowledging state.
fn act(addr: SocketAddr, id: &str, tokens: &[String]) -> Result<Value, String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = String::new();
    while Instant::now() < deadline {
        let attempt = (|| {
            let (_, probe) = connect(addr, id, &tokens[0])?;
            let mover = probe["to_move"].as_str().ok_or("nobody to move")?;
            let k: usize = mover[1..].parse().map_err(|_| "seat")?;
            let (mut ws, state) = connect(addr, id, &tokens[k - 1])?;
            let seq = state["seq"].as_u64().ok_or("seq")?;
            let action = state["legal"][0].as_str().ok_or("no legal action")?;
            let msg = json!({"type": "act", "seq": seq, "action": action}).to_string();
            ws.send(Message::text(msg)).map_err(|e| e.to_string())?;
            loop {
                let s = next_state(&mut ws)?;
                if s["seq"].as_u64() > Some(seq) {
                    return Ok::<_, String>(s);
                }
            }
        })();
        match attempt {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("no acknowledged action in 20 s: {last}"))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn run(o: &Options) -> Result<bool, String> {
    let name = format!("ratrace_failover_{}", std::process::id());
    let made = Command::new("psql")
        .args([&o.pg, "-q", "-c", &format!("CREATE DATABASE {name}")])
        .status()
        .map_err(|e| format!("psql: {e}"))?;
    if !made.success() {
        return Err("psql could not create the database".to_string());
    }
    let db = match o.pg.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => return Err("--pg has no database part".to_string()),
    };
    let mut procs = Vec::new();
    for _ in 0..3 {
        procs.push(start(o, &db)?);
    }
    let mut times = Vec::new();
    let mut lost = 0;
    let mut tables: Vec<(String, u64)> = Vec::new();
    for round in 0..o.kills {
        let victim = round % 3;
        let others = [(victim + 1) % 3, (victim + 2) % 3];
        let seats: Vec<Value> = (0..3).map(|_| json!({"kind": "human"})).collect();
        let created = http(
            procs[victim].addr,
            "POST",
            "/api/tables",
            &json!({"game": "bigcheese", "players": 3, "seats": seats}),
        )?;
        let id = created["id"].as_str().ok_or("no table")?.to_string();
        let mut tokens = Vec::new();
        for (i, seat) in ["P1", "P2", "P3"].iter().enumerate() {
            let joined = http(
                procs[others[i % 2]].addr,
                "POST",
                &format!("/api/tables/{id}/join"),
                &json!({"seat": seat, "name": seat, "key": created["key"]}),
            )?;
            tokens.push(joined["token"].as_str().ok_or("join failed")?.to_string());
        }
        let mut acked = 0;
        for k in 0..5 {
            acked = act(procs[others[k % 2]].addr, &id, &tokens)?["seq"]
                .as_u64()
                .unwrap_or(0);
        }
        // Heartbeats fall at any moment relative to a kill.
        std::thread::sleep(Duration::from_millis(rand::random::<u64>() % 500));
        let _ = procs[victim].child.kill();
        let _ = procs[victim].child.wait();
        let killed = Instant::now();
        let next = act(procs[others[round % 2]].addr, &id, &tokens)?;
        let took = killed.elapsed().as_secs_f64();
        let seq = next["seq"].as_u64().unwrap_or(0);
        if seq != acked + 1 {
            lost += 1;
        }
        println!(
            "kill {:2}: {:5.0} ms, seq {acked} -> {seq}",
            round + 1,
            took * 1000.0
        );
        times.push(took);
        tables.push((id, seq));
        procs[victim] = start(o, &db)?;
    }
    // Every history: 1..n, n = the last acknowledged seq.
    let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let store: Arc<dyn Store> = rt
        .block_on(server::store::open(&db))
        .map_err(|e| e.to_string())?;
    let mut forked = 0;
    for (id, seq) in &tables {
        let (s, key) = (Arc::clone(&store), id.clone());
        let t = rt
            .block_on(async move { tokio::task::spawn_blocking(move || s.load(&key)).await })
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?
            .ok_or("a table vanished")?;
        let seqs: Vec<u64> = t.actions.iter().map(|a| a.seq).collect();
        if seqs != (1..=seqs.len() as u64).collect::<Vec<_>>() {
            forked += 1;
        }
        if seqs.len() as u64 != *seq {
            lost += 1;
        }
    }
    drop(store);
    drop(procs);
    times.sort_by(f64::total_cmp);
    let (p50, p99, max) = (
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
    );
    println!(
        "| failover after SIGKILL of the owner, {} kills, lease {} ms | p50 {:.2} s, p99 {:.2} s, max {:.2} s; {lost} acknowledged actions lost; {forked} forked histories |",
        times.len(),
        o.lease_ms,
        p50,
        p99,
        max
    );
    Ok(p99 < 3.0 && lost == 0 && forked == 0)
}

fn main() -> ExitCode {
    match options().and_then(|o| run(&o)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
