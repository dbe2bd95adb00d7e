//! The attack bench: each attack of the security reviews run
//! against a real `ratrace serve` process on loopback, with the server's
//! own CPU time and memory read from `/proc`, so the figures are the
//! server's and not the attacker's.
//!
//! Every scenario starts its own server (default limits unless said) on a
//! fresh database in a temporary folder, is bounded in count and time,
//! and stops by itself. Clients come from many loopback addresses
//! (127.x.y.z: the whole 127/8 is this machine), as an attacker's or real
//! players' would, so the per-address budgets apply as on the internet.
//!
//! Usage: `cargo build --release -p cli && cargo run --release -p server
//! --example attack -- [--bin target/release/ratrace] [SCENARIO...]` with
//! scenarios `flood`, `bots`, `idle`, `spectators`, `lobby`, `kill`,
//! `slowread`, `slowmem` (all by default). It prints one Markdown line per goal and exits 1 if a goal is
//! missed.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::store::{Access, SeatKind, SqliteStore, Store, StoredSeat, StoredTable};
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

#[path = "attack_parts/memory.rs"]
mod memory;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A `ratrace serve` child process.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts `bin serve` on 127.0.0.1:0 over `db`, with extra flags;
    /// returns once it listens, with the time that took.
    fn start(bin: &Path, db: &Path, flags: &[&str]) -> Result<(Server, Duration), String> {
        let started = Instant::now();
        let mut child = Command::new(bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        // `ratrace serve` logs (tracing) to standard output.
        let stderr = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // RATRACE_ATTACK_LOG=1 shows the server's log.
            let echo = std::env::var_os("RATRACE_ATTACK_LOG").is_some();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if echo {
                    eprintln!("server: {line}");
                }
                if let Some(rest) = line.split("serving on http://").nth(1) {
                    let addr = rest.split_whitespace().next().unwrap_or("").to_string();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr: SocketAddr = rx
            .recv_timeout(Duration::from_secs(20))
            .map_err(|_| "the server did not start".to_string())?
            .parse()
            .map_err(|e| format!("address: {e}"))?;
        Ok((Server { child, addr }, started.elapsed()))
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// CPU seconds (user + system) the server has used.
    fn cpu(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap_or_default();
        let after = stat.rsplit(')').next().unwrap_or("");
        let f: Vec<f64> = after
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        // fields 14 and 15 (utime, stime), counted from after the name
        (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
    }

    /// Resident memory, MB.
    fn rss_mb(&self) -> f64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback client address: 127.`a`.`b`.`c`.
fn ip(a: u8, n: usize) -> IpAddr {
    IpAddr::from([127, a, (n / 250) as u8, (n % 250 + 1) as u8])
}

async fn connect(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let s = TcpSocket::new_v4()?;
    s.bind(SocketAddr::new(from, 0))?;
    let t = s.connect(to).await?;
    t.set_nodelay(true)?;
    Ok(t)
}

/// One HTTP request from `from`; the status and JSON body.
async fn http(from: IpAddr, to: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let Ok(mut s) = connect(from, to).await else {
        return (0, Value::Null);
    };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return (0, Value::Null);
    }
    let mut raw = Vec::new();
    if tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut raw))
        .await
        .is_err()
    {
        return (0, Value::Null);
    }
    let text = String::from_utf8_lossy(&raw);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let payload = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(payload).unwrap_or(Value::Null))
}

async fn ws(from: IpAddr, to: SocketAddr, id: &str) -> Option<Socket> {
    let tcp = connect(from, to).await.ok()?;
    let (s, _) = tokio_tungstenite::client_async(
        format!("ws://{to}/ws/{id}"),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .ok()?;
    Some(s)
}

async fn send(s: &mut Socket, v: Value) -> bool {
    s.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// The next JSON message (skipping others), or None.
async fn next(s: &mut Socket, limit: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(limit, s.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Creates a table from `from`; its id and key.
async fn create(from: IpAddr, to: SocketAddr, body: Value) -> Option<(String, Option<String>)> {
    let (status, v) = http(from, to, "POST", "/api/tables", &body.to_string()).await;
    (status == 201).then(|| {
        (
            v["id"].as_str().unwrap_or("").to_string(),
            v["key"].as_str().map(str::to_string),
        )
    })
}

async fn join(
    from: IpAddr,
    to: SocketAddr,
    id: &str,
    key: Option<&str>,
    seat: &str,
) -> Option<String> {
    let body = json!({"seat": seat, "name": format!("Player {seat}"), "key": key,
                      "contribution": "cd".repeat(32)});
    let (status, v) = http(
        from,
        to,
        "POST",
        &format!("/api/tables/{id}/join"),
        &body.to_string(),
    )
    .await;
    (status == 200).then(|| v["token"].as_str().unwrap_or("").to_string())
}

/// Creates a table of three human seats (`game`, `options`) from `from`
/// and joins every seat; its id and the seat tokens.
async fn humans_table(
    from: IpAddr,
    to: SocketAddr,
    game: &str,
    options: Value,
) -> Option<(String, Vec<String>)> {
    let seats: Vec<Value> = (0..3).map(|_| json!({"kind":"human"})).collect();
    // (public: the benches' spectators watch without the invite key)
    let body = json!({"game": game, "players": 3, "options": options, "seats": seats,
                      "public": true});
    let (id, key) = create(from, to, body).await?;
    let mut tokens = Vec::new();
    for seat in ["P1", "P2", "P3"] {
        tokens.push(join(from, to, &id, key.as_deref(), seat).await?);
    }
    Some((id, tokens))
}

/// Plays every seat of a table of humans with random legal actions from
/// one client each, `think` between decisions, until `end`; records the
/// time from each `act` to the state that shows it.
async fn play_humans(
    to: SocketAddr,
    from: IpAddr,
    id: String,
    tokens: Vec<String>,
    think: Duration,
    end: Instant,
    latencies: Arc<Mutex<Vec<f64>>>,
) -> bool {
    let mut seats = Vec::new();
    for t in &tokens {
        let Some(mut s) = ws(from, to, &id).await else {
            return false;
        };
        send(&mut s, json!({"type":"hello","token":t})).await;
        seats.push(s);
    }
    let mut over = false;
    let mut states: Vec<Value> = Vec::new();
    for s in &mut seats {
        states.push(
            next(s, Duration::from_secs(10))
                .await
                .unwrap_or(Value::Null),
        );
    }
    while Instant::now() < end && !over {
        // The seat that has legal actions in its latest state moves.
        let Some(k) = states
            .iter()
            .position(|m| m["legal"].as_array().is_some_and(|l| !l.is_empty()))
        else {
            // Wait for any news.
            let mut got = false;
            for (i, s) in seats.iter_mut().enumerate() {
                if let Some(m) = next(s, Duration::from_millis(50)).await {
                    if m["type"] == "state" || m["type"] == "update" {
                        over |= m["over"] == true;
                        states[i] = m;
                        got = true;
                    }
                }
            }
            if !got && Instant::now() >= end {
                break;
            }
            continue;
        };
        tokio::time::sleep(think).await;
        let legal = states[k]["legal"].as_array().cloned().unwrap_or_default();
        let seq = states[k]["seq"].as_u64().unwrap_or(0);
        let action = legal[rand::random_range(0..legal.len())].clone();
        let sent = Instant::now();
        send(
            &mut seats[k],
            json!({"type":"act","seq":seq,"action":action}),
        )
        .await;
        loop {
            let Some(m) = next(&mut seats[k], Duration::from_secs(15)).await else {
                return over;
            };
            if (m["type"] == "state" || m["type"] == "update") && m["seq"].as_u64() > Some(seq) {
                latencies
                    .lock()
                    .unwrap()
                    .push(sent.elapsed().as_secs_f64() * 1000.0);
                over |= m["over"] == true;
                states[k] = m;
                break;
            }
            if m["type"] == "error" || m["type"] == "notice" {
                states[k]["legal"] = json!([]);
                break;
            }
        }
        // The others catch up on what they were sent.
        for (i, s) in seats.iter_mut().enumerate() {
            if i == k {
                continue;
            }
            while let Some(m) = next(s, Duration::from_millis(1)).await {
                if m["type"] == "state" || m["type"] == "update" {
                    states[i] = m;
                }
            }
        }
    }
    over
}

struct Report {
    lines: Vec<String>,
    missed: bool,
}

impl Report {
    fn goal(&mut self, what: &str, figure: String, goal: &str, met: bool) {
        self.missed |= !met;
        self.lines.push(format!(
            "| {what} | {figure} | {goal} | {} |",
            if met { "met" } else { "MISSED" }
        ));
        eprintln!("{}", self.lines.last().unwrap());
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-attack-{name}-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// The server's side of its connections on `port` from `from`, as the
/// kernel lists them (any state but listening and TIME_WAIT): those the
/// process holds (a descriptor: an inode), and all of them, which adds
/// connections the kernel completed and queued before the server accepted
/// them, and closed ones the kernel still keeps (orphans). What is really
/// open, whatever the server's own gauges say.
fn sockets_from(port: u16, from: IpAddr) -> (HashSet<String>, usize) {
    let IpAddr::V4(v4) = from else {
        return (HashSet::new(), 0);
    };
    // /proc/net/tcp writes an IPv4 address as its 32 bits in host order.
    let remote = format!("{:08X}", u32::from_le_bytes(v4.octets()));
    let text = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    // The kernel writes the list while sockets come and go: one may be
    // listed twice, so each is counted once, by its addresses.
    let mut held = HashSet::new();
    let mut all = HashSet::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(local), Some(rem), Some(state), Some(inode)) =
            (f.get(1), f.get(2), f.get(3), f.get(9))
        else {
            continue;
        };
        let local_port = local
            .rsplit(':')
            .next()
            .and_then(|h| u16::from_str_radix(h, 16).ok());
        if local_port == Some(port)
            && rem.split(':').next() == Some(remote.as_str())
            && *state != "0A"
            && *state != "06"
        {
            all.insert((*local, *rem));
            if *inode != "0" {
                held.insert(format!("{local} {rem}"));
            }
        }
    }
    (held, all.len())
}

/// Readers that never read (from the second review): from one address, for 60
/// s, WebSockets with a 2 KiB receive buffer ask for the whole state of a
/// 13-seat Dalmuti table 18 times a second and never read; whoever is closed
/// comes back. Then they stop, still holding their sockets unread. Counted from
/// the kernel's list of sockets, not the server's gauges.
async fn slowread(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("slowread");
    let (server, _) = Server::start(bin, &dir.join("slowread.db"), &[])?;
    let to = server.addr;
    let seats: Vec<Value> = (0..13).map(|_| json!({"kind":"bot"})).collect();
    // (public: its spectators watch without the invite key)
    let body = json!({"game":"dalmuti","players":13,"seats":seats,"options":{"hands":100},
                      "public":true});
    let (id, _) = create(ip(0, 0), to, body).await.ok_or("table")?;
    let attacker = ip(9, 0);
    let attack = Duration::from_secs(60);
    let end = Instant::now() + attack;
    let held: Arc<Mutex<Vec<Socket>>> = Arc::new(Mutex::new(Vec::new()));
    let opened = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..100 {
        let (id, held, opened) = (id.clone(), Arc::clone(&held), Arc::clone(&opened));
        tasks.push(tokio::spawn(async move {
            while Instant::now() < end {
                let socket = async {
                    let s = TcpSocket::new_v4().ok()?;
                    s.set_recv_buffer_size(2048).ok()?;
                    s.bind(SocketAddr::new(attacker, 0)).ok()?;
                    let tcp = s.connect(to).await.ok()?;
                    let (ws, _) = tokio_tungstenite::client_async(
                        format!("ws://{to}/ws/{id}"),
                        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
                    )
                    .await
                    .ok()?;
                    Some(ws)
                };
                let Some(mut s) = tokio::time::timeout(Duration::from_secs(2), socket)
                    .await
                    .ok()
                    .flatten()
                else {
                    // Over the per-address cap: closed at once; try again.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                opened.fetch_add(1, Ordering::Relaxed);
                let mut alive = send(&mut s, json!({"type":"hello"})).await;
                while alive && Instant::now() < end {
                    tokio::time::sleep(Duration::from_millis(55)).await;
                    let resync = send(&mut s, json!({"type":"resync"}));
                    alive = matches!(
                        tokio::time::timeout(Duration::from_millis(500), resync).await,
                        Ok(true) | Err(_)
                    );
                }
                if alive {
                    // The attack is over: the socket is kept, unread.
                    held.lock().unwrap().push(s);
                }
            }
        }));
    }
    let port = to.port();
    // The most held at one look, and the most held at two looks in a row
    // (at least 20 ms apart): a connection over the cap is accepted, then
    // reset at once, and may be caught in between.
    let mut most = 0;
    let mut most_kept = 0;
    let mut before = HashSet::new();
    let mut most_all = 0;
    let mut lat = Vec::new();
    while Instant::now() < end {
        let (held, all) = sockets_from(port, attacker);
        most = most.max(held.len());
        most_kept = most_kept.max(held.intersection(&before).count());
        before = held;
        most_all = most_all.max(all);
        let t = Instant::now();
        let (status, _) = http(ip(0, 1), to, "GET", "/healthz", "").await;
        lat.push(if status == 200 {
            t.elapsed().as_secs_f64() * 1000.0
        } else {
            f64::INFINITY
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for t in tasks {
        let _ = t.await;
    }
    let stopped = Instant::now();
    let mut left = sockets_from(port, attacker);
    while stopped.elapsed() < Duration::from_secs(15) {
        most = most.max(left.0.len());
        most_all = most_all.max(left.1);
        tokio::time::sleep(Duration::from_millis(200)).await;
        left = sockets_from(port, attacker);
    }
    let left = left.1;
    let metrics = {
        let mut s = connect(ip(0, 1), to)
            .await
            .map_err(|e| format!("metrics: {e}"))?;
        let req = format!("GET /metrics HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\r\n");
        let _ = s.write_all(req.as_bytes()).await;
        let mut raw = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut raw)).await;
        String::from_utf8_lossy(&raw).to_string()
    };
    let websockets = metrics
        .lines()
        .find_map(|l| l.strip_prefix("ratrace_websockets "))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(u64::MAX);
    let still_held = held.lock().unwrap().len();
    lat.sort_by(f64::total_cmp);
    let p99 = quantile(&lat, 0.99);
    let cap = server::Limits::default().max_connections_per_ip;
    r.goal(
        "Slow readers from one address for 60 s: 100 WebSockets (2 KiB receive buffer) resyncing a 13-seat table 18 times a second, reading nothing",
        format!(
            "{} connections opened; at most {most_kept} sockets held by the server at two looks in a row, {most} at one look ({most_all} with the kernel's accept queue and orphans); {left} left 15 s after the attack stopped, {still_held} client sockets still held unread; /metrics then {websockets} WebSockets; /healthz p50 {:.1} ms, p99 {p99:.1} ms ({} requests)",
            opened.load(Ordering::Relaxed),
            quantile(&lat, 0.5),
            lat.len()
        ),
        &format!("at most {cap} at once; 0 left after 15 s; /healthz p99 < 50 ms"),
        most_kept <= cap && left == 0 && p99 < 50.0,
    );
    drop(held);
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Table-creation floods: four clients create tables as fast as they can for 15
/// s.
async fn flood(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("flood");
    let db = dir.join("flood.db");
    let (server, _) = Server::start(bin, &db, &[])?;
    let to = server.addr;
    let end = Instant::now() + Duration::from_secs(15);
    let created = Arc::new(AtomicU64::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for c in 0..4 {
        let (created, refused) = (Arc::clone(&created), Arc::clone(&refused));
        tasks.push(tokio::spawn(async move {
            let body = json!({"game":"dalmuti","players":5}).to_string();
            while Instant::now() < end {
                match http(ip(2, c), to, "POST", "/api/tables", &body).await.0 {
                    201 => created.fetch_add(1, Ordering::Relaxed),
                    429 => refused.fetch_add(1, Ordering::Relaxed),
                    _ => 0,
                };
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let rss = server.rss_mb();
    let made = created.load(Ordering::Relaxed);
    let limits = server::Limits::default();
    let budget = 4 * (u64::from(limits.create_burst) + 15 / u64::from(limits.create_every_s) + 1);
    r.goal(
        "Table creation flood, 4 clients for 15 s",
        format!(
            "{made} created, {} refused with 429; server RSS {rss:.1} MB",
            refused.load(Ordering::Relaxed)
        ),
        &format!("at most the budget ({budget}); RSS < 150 MB"),
        made <= budget && rss < 150.0,
    );
    server.kill();
    let (again, took) = Server::start(bin, &db, &[])?;
    let (status, _) = http(ip(0, 0), again.addr, "GET", "/api/tables", "").await;
    r.goal(
        "Restart after the flood",
        format!(
            "listening after {:.0} ms (lobby {status})",
            took.as_secs_f64() * 1000.0
        ),
        "< 1 s",
        took < Duration::from_secs(1) && status == 200,
    );
    again.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// CPU spent on bots: 100 all-bot tables of search bots, each watched, while
/// people play another table.
async fn bots(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("bots");
    let (server, _) = Server::start(bin, &dir.join("bots.db"), &[])?;
    let to = server.addr;
    let mut watchers = Vec::new();
    let mut made = 0;
    for t in 0..100 {
        let from = ip(5, t / 10);
        let seats: Vec<Value> = (0..5)
            .map(|_| json!({"kind":"bot","bot":"search"}))
            .collect();
        let body = json!({"game":"dalmuti","players":5,"seats":seats,"bot_delay_ms":200,
                          "options":{"hands":100}});
        if let Some((id, key)) = create(from, to, body).await {
            made += 1;
            if let Some(mut s) = ws(from, to, &id).await {
                send(&mut s, json!({"type":"hello","key":key})).await;
                watchers.push(tokio::spawn(async move {
                    let mut last = Instant::now();
                    while let Some(_m) = next(&mut s, Duration::from_secs(30)).await {
                        if last.elapsed() > Duration::from_secs(20) {
                            send(&mut s, json!({"type":"ping"})).await;
                            last = Instant::now();
                        }
                    }
                }));
            }
        }
    }
    let people = ip(6, 0);
    let (id, tokens) = humans_table(people, to, "bigcheese", json!({}))
        .await
        .ok_or("the people's table")?;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu0 = server.cpu();
    let t0 = Instant::now();
    let lat = Arc::new(Mutex::new(Vec::new()));
    play_humans(
        to,
        people,
        id,
        tokens,
        Duration::from_millis(100),
        Instant::now() + Duration::from_secs(30),
        Arc::clone(&lat),
    )
    .await;
    let cpu = (server.cpu() - cpu0) / t0.elapsed().as_secs_f64() * 100.0;
    let mut l = lat.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let p99 = quantile(&l, 0.99);
    r.goal(
        "100 all-bot search tables (each watched), people at another table",
        format!(
            "{made} created (the rest refused); server CPU {cpu:.0}%; people's act-to-state p50 {:.1} ms, p99 {p99:.1} ms over {} actions",
            quantile(&l, 0.5),
            l.len()
        ),
        "bounded by the quota; p99 < 50 ms",
        cpu < 150.0 && p99 < 50.0,
    );
    for w in watchers {
        w.abort();
    }
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Idle connections: 1,000 idle TCP, slowloris and no-hello connections from
/// many addresses, while a normal client keeps asking for a page.
async fn idle(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("idle");
    let (server, _) = Server::start(bin, &dir.join("idle.db"), &[])?;
    let to = server.addr;
    let (id, _) = create(ip(0, 0), to, json!({"game":"bigcheese"}))
        .await
        .ok_or("table")?;
    let start = Instant::now();
    let mut attackers = Vec::new();
    for n in 0..1000 {
        let from = ip(7, n / 16);
        let kind = n % 3;
        let id = id.clone();
        attackers.push(tokio::spawn(async move {
            let bound = Duration::from_secs(60);
            match kind {
                0 => {
                    let Ok(mut s) = connect(from, to).await else {
                        return None;
                    };
                    let mut b = [0u8; 64];
                    match tokio::time::timeout(bound, s.read(&mut b)).await {
                        Ok(_) => Some(start.elapsed()),
                        Err(_) => None,
                    }
                }
                1 => {
                    let Ok(mut s) = connect(from, to).await else {
                        return None;
                    };
                    let _ = s.write_all(b"GET / HTTP/1.1\r\n").await;
                    let end = Instant::now() + bound;
                    while Instant::now() < end {
                        let mut b = [0u8; 64];
                        if let Ok(Ok(0) | Err(_)) =
                            tokio::time::timeout(Duration::from_secs(2), s.read(&mut b)).await
                        {
                            return Some(start.elapsed());
                        }
                        if s.write_all(b"X-Slow: 1\r\n").await.is_err() {
                            return Some(start.elapsed());
                        }
                    }
                    None
                }
                _ => {
                    let mut s = ws(from, to, &id).await?;
                    loop {
                        match tokio::time::timeout(bound, s.next()).await {
                            Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) => {
                                return Some(start.elapsed())
                            }
                            Ok(Some(Ok(_))) => continue,
                            Err(_) => return None,
                        }
                    }
                }
            }
        }));
    }
    let mut lat = Vec::new();
    let probe_end = Instant::now() + Duration::from_secs(15);
    while Instant::now() < probe_end {
        let t = Instant::now();
        let (status, _) = http(ip(0, 1), to, "GET", "/api/games", "").await;
        if status == 200 {
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut closed = 0;
    let mut last = Duration::ZERO;
    for a in attackers {
        if let Ok(Some(t)) = a.await {
            closed += 1;
            last = last.max(t);
        }
    }
    lat.sort_by(f64::total_cmp);
    let p99 = quantile(&lat, 0.99);
    r.goal(
        "1,000 idle TCP, slowloris and no-hello connections (63 addresses)",
        format!(
            "{closed} of 1000 closed by the server, the last after {:.1} s; GET p50 {:.1} ms, p99 {p99:.1} ms ({} requests)",
            last.as_secs_f64(),
            quantile(&lat, 0.5),
            lat.len()
        ),
        "all closed within 30 s; GET p99 < 50 ms",
        closed == 1000 && last < Duration::from_secs(30) && p99 < 50.0,
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Spectator churn: 800 spectators join a table and leave.
async fn spectators(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("spectators");
    let (server, _) = Server::start(bin, &dir.join("spec.db"), &[])?;
    let to = server.addr;
    let (id, tokens) = humans_table(ip(0, 0), to, "bigcheese", json!({}))
        .await
        .ok_or("table")?;
    let mut players = Vec::new();
    for token in tokens {
        let mut w = ws(ip(0, 0), to, &id).await.ok_or("ws")?;
        send(&mut w, json!({"type":"hello","token":token})).await;
        next(&mut w, Duration::from_secs(5)).await;
        players.push(w);
    }
    let cpu0 = server.cpu();
    let mut tasks = Vec::new();
    for n in 0..800 {
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            let mut s = ws(ip(8, n / 40), to, &id).await?;
            send(&mut s, json!({"type":"hello"})).await;
            let m = next(&mut s, Duration::from_secs(20)).await?;
            let _ = s.close(None).await;
            (m["type"] == "state").then_some(())
        }));
    }
    let mut ok = 0;
    for t in tasks {
        if let Ok(Some(())) = t.await {
            ok += 1;
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let cpu = server.cpu() - cpu0;
    r.goal(
        "800 spectators joining and leaving (3 seated players connected)",
        format!("{ok} served; server CPU {cpu:.2} s (WebSocket handshakes included)"),
        "< 0.3 s",
        ok == 800 && cpu < 0.3,
    );
    drop(players);
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// An expensive lobby: four clients loop on the lobby of a 40,000-table
/// database while people play.
async fn lobby(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("lobby");
    let db = dir.join("lobby.db");
    {
        let store = Arc::new(SqliteStore::open(&db).map_err(|e| e.to_string())?);
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let store = Arc::clone(&store);
                std::thread::spawn(move || {
                    for i in 0..5000 {
                        let n = t * 5000 + i;
                        let table = StoredTable {
                            id: format!("old{n}"),
                            game: "bigcheese".into(),
                            rules_version: "bigcheese/1".into(),
                            players: 3,
                            options: Default::default(),
                            seed: (n as u64).into(),
                            seed_hash: String::new(),
                            fair: None,
                            config: Default::default(),
                            created_at: 1_700_000_000 + n as i64,
                            finished_at: Some(1_700_000_000 + n as i64),
                            seats: (0..3)
                                .map(|s| StoredSeat {
                                    seat: game::Seat::new(s),
                                    kind: SeatKind::Bot("random".into()),
                                })
                                .collect(),
                            actions: Vec::new(),
                            access: Access {
                                public: true,
                                ..Access::default()
                            },
                            social: Default::default(),
                        };
                        let _ = store.create_table(&table, "seeding");
                    }
                })
            })
            .collect();
        for t in threads {
            let _ = t.join();
        }
    }
    let (server, took) = Server::start(bin, &db, &[])?;
    let to = server.addr;
    let (id, tokens) = humans_table(ip(0, 0), to, "bigcheese", json!({}))
        .await
        .ok_or("table")?;
    let end = Instant::now() + Duration::from_secs(30);
    let lists = Arc::new(AtomicU64::new(0));
    let mut loops = Vec::new();
    for c in 0..4 {
        let lists = Arc::clone(&lists);
        loops.push(tokio::spawn(async move {
            while Instant::now() < end {
                if http(ip(9, c), to, "GET", "/api/tables", "").await.0 == 200 {
                    lists.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    let lat = Arc::new(Mutex::new(Vec::new()));
    play_humans(
        to,
        ip(0, 0),
        id,
        tokens,
        Duration::from_millis(50),
        end,
        Arc::clone(&lat),
    )
    .await;
    for l in loops {
        let _ = l.await;
    }
    let mut l = lat.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let (p90, p99) = (quantile(&l, 0.9), quantile(&l, 0.99));
    r.goal(
        "4 clients looping on the lobby, 40,000-table database",
        format!(
            "{} lobby answers; act-to-state p50 {:.1} ms, p90 {p90:.1} ms, p99 {p99:.1} ms over {} actions; start-up {:.0} ms",
            lists.load(Ordering::Relaxed),
            quantile(&l, 0.5),
            l.len(),
            took.as_secs_f64() * 1000.0
        ),
        "p99 < 20 ms",
        p99 < 20.0,
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Games over by their actions but not marked finished in the database
/// (what a crash between the last action and a separate end mark left).
fn count_stuck(db: &Path) -> Result<usize, String> {
    let store = SqliteStore::open(db).map_err(|e| e.to_string())?;
    let mut stuck = 0;
    for id in store.unfinished_ids().map_err(|e| e.to_string())? {
        let Ok(Some(t)) = store.load(&id) else {
            continue;
        };
        let record = t.record();
        let over = match t.game.as_str() {
            "dalmuti" => record
                .replay::<dalmuti::Dalmuti>(false, |_, _, _| {})
                .map(|g| game::Game::outcome(&g).is_some()),
            _ => record
                .replay::<bigcheese::BigCheese>(false, |_, _, _| {})
                .map(|g| game::Game::outcome(&g).is_some()),
        };
        if over.unwrap_or(false) {
            stuck += 1;
        }
    }
    Ok(stuck)
}

/// Crashes: `kill -9` twenty times while short games end; after each kill,
/// before any start-up repair, no game may be over by its actions but not
/// marked so, and at the end every finished game's record downloads.
async fn kill(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("kill");
    let db = dir.join("kill.db");
    let flags = ["--revolution-window-ms", "0"];
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    let mut stuck = 0;
    let mut made = 0;
    let (mut server, _) = Server::start(bin, &db, &flags)?;
    for kill in 0..20 {
        let to = server.addr;
        // Keep 8 short games going: Dalmuti, 3 players, one hand.
        while tables.len() < 8 {
            let from = ip(10, made);
            made += 1;
            let Some((id, tokens)) = humans_table(from, to, "dalmuti", json!({"hands": 1})).await
            else {
                break;
            };
            tables.push((id, tokens));
        }
        let until = Instant::now() + Duration::from_millis(300 + rand::random_range(0..900));
        let plays: Vec<_> = tables
            .iter()
            .enumerate()
            .map(|(i, (id, tokens))| {
                let (id, tokens) = (id.clone(), tokens.clone());
                let lat = Arc::new(Mutex::new(Vec::new()));
                tokio::spawn(play_humans(
                    to,
                    ip(11, i + 8 * kill),
                    id,
                    tokens,
                    Duration::ZERO,
                    until,
                    lat,
                ))
            })
            .collect();
        tokio::time::sleep_until(until.into()).await;
        // SIGKILL, mid-flight.
        server.kill();
        for p in plays {
            p.abort();
        }
        stuck += count_stuck(&db)?;
        let done = finished_ids(&db)?;
        tables.retain(|(id, _)| !done.contains(id));
        server = Server::start(bin, &db, &flags)?.0;
    }
    let finished = finished_ids(&db)?;
    let mut records = 0;
    // (from one address each: record downloads are metered per address)
    for (n, id) in finished.iter().enumerate() {
        let (status, _) = http(
            ip(12, n),
            server.addr,
            "GET",
            &format!("/api/tables/{id}/record"),
            "",
        )
        .await;
        if status == 200 {
            records += 1;
        }
    }
    r.goal(
        "`kill -9` 20 times while short games end",
        format!(
            "20 kills, {made} tables, {} games finished; {stuck} stuck after a kill (before any repair); {records} of {} records downloadable",
            finished.len(),
            finished.len()
        ),
        "0 stuck; every record downloadable",
        stuck == 0 && records == finished.len() && !finished.is_empty(),
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The ids of the finished tables of a database (read straight from it).
fn finished_ids(db: &Path) -> Result<Vec<String>, String> {
    let conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    let mut stmt = conn
        .prepare("SELECT id FROM tables WHERE finished_at IS NOT NULL")
        .map_err(|e| e.to_string())?;
    let ids = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .collect();
    Ok(ids)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut bin = PathBuf::from("target/release/ratrace");
    if let Some(i) = args.iter().position(|a| a == "--bin") {
        if i + 1 < args.len() {
            bin = PathBuf::from(args.remove(i + 1));
        }
        args.remove(i);
    }
    if args.is_empty() {
        args = [
            "flood",
            "bots",
            "idle",
            "spectators",
            "lobby",
            "kill",
            "slowread",
            "slowmem",
        ]
        .map(String::from)
        .to_vec();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let mut report = Report {
        lines: vec![
            "| attack | measured | goal | |".to_string(),
            "|---|---|---|---|".to_string(),
        ],
        missed: false,
    };
    for a in &args {
        let done = runtime.block_on(async {
            match a.as_str() {
                "flood" => flood(&bin, &mut report).await,
                "bots" => bots(&bin, &mut report).await,
                "idle" => idle(&bin, &mut report).await,
                "spectators" => spectators(&bin, &mut report).await,
                "lobby" => lobby(&bin, &mut report).await,
                "kill" => kill(&bin, &mut report).await,
                "slowread" => slowread(&bin, &mut report).await,
                "slowmem" => memory::slowmem(&bin, &mut report).await,
                other => Err(format!("unknown scenario `{other}`")),
            }
        });
        if let Err(e) = done {
            eprintln!("{a}: {e}");
            return ExitCode::from(2);
        }
    }
    println!("{}", report.lines.join("\n"));
    if report.missed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
