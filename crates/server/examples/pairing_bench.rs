//! `pairing_bench`: many people pressing "Play now" through the real HTTP
//! API, reporting how many were seated and how long each waited
//! (docs/server.md, "Quick pairing", the goal: 500 people over 60 s all
//! seated, p99 under 2 s when enough are waiting).
//!
//! By default it starts the real server in-process on `127.0.0.1:0` over a
//! temporary SQLite file (as `ratrace serve` does), with the per-address
//! quotas lifted (every simulated person asks from this one address; the
//! output says so). With `--url` it targets a running `ratrace serve` on a
//! loopback address instead, under that server's own limits.
//!
//! Person `i` of `--people` arrives at `i * --seconds / --people` (evenly
//! spread), asks for `--preset` with its own identity and the bots' wait
//! `--wait-s`, then asks about its ticket as the browser does, with the
//! long poll `GET /api/pairing/{ticket}?wait=1` made again as soon as it
//! is answered (or, with `--poll-ms N`, a plain ask every N ms), until it
//! is seated. Its wait is the time from its `POST /api/pairing` to the
//! answer that says `seated`. People at the end who cannot fill a
//! table wait for the bots: the report counts them apart.
//!
//! Usage: `cargo run --release -p server --example pairing_bench --
//! [--people 500] [--seconds 60] [--preset bigcheese-4] [--wait-s 20]
//! [--poll-ms 0] [--url http://127.0.0.1:8080]`.

use server::store::SqliteStore;
use server::{AppState, Limits};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest one HTTP exchange may take before it counts as an error.
const HTTP_TIMEOUT: Duration = Duration::from_secs(30);

/// The bench's settings.
#[derive(Debug)]
struct Opts {
    people: usize,
    seconds: f64,
    preset: String,
    wait_s: u64,
    poll: Duration,
    url: Option<SocketAddr>,
}

fn parse() -> Result<Opts, String> {
    let mut o = Opts {
        people: 500,
        seconds: 60.0,
        preset: "bigcheese-4".to_string(),
        wait_s: 20,
        poll: Duration::ZERO,
        url: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let bad = |e: &dyn std::fmt::Display| format!("{flag}: {e}");
        match flag.as_str() {
            "--people" => o.people = value()?.parse().map_err(|e| bad(&e))?,
            "--seconds" => o.seconds = value()?.parse().map_err(|e| bad(&e))?,
            "--preset" => o.preset = value()?,
            "--wait-s" => o.wait_s = value()?.parse().map_err(|e| bad(&e))?,
            "--poll-ms" => {
                o.poll = Duration::from_millis(value()?.parse().map_err(|e| bad(&e))?);
            }
            "--url" => {
                let v = value()?;
                let hostport = v.trim_start_matches("http://").trim_end_matches('/');
                o.url = Some(hostport.parse().map_err(|e| bad(&e))?);
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if o.people == 0 || o.people > 100_000 || !(0.0..=3600.0).contains(&o.seconds) {
        return Err("--people is 1..=100000 and --seconds 0..=3600".to_string());
    }
    Ok(o)
}

/// One HTTP/1.1 exchange (Connection: close); the status and JSON body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, serde_json::Value), String> {
    let exchange = async {
        let mut s = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw)
            .await
            .map_err(|e| format!("read: {e}"))?;
        Ok::<_, String>(raw)
    };
    let raw = tokio::time::timeout(HTTP_TIMEOUT, exchange)
        .await
        .map_err(|_| "http timeout".to_string())??;
    let text = String::from_utf8_lossy(&raw);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let payload = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((
        status,
        serde_json::from_str(payload).unwrap_or(serde_json::Value::Null),
    ))
}

/// What became of one person.
enum Fate {
    /// Seated after this long, at this table.
    Seated(Duration, String),
    /// Refused, failed or never seated: why.
    Not(String),
}

/// Person `i`: asks for a ticket, then about it until seated.
async fn person(addr: SocketAddr, o: Arc<Opts>, i: usize) -> Fate {
    let player = format!("{:064x}", (i as u128) * 0x9e37_79b9_7f4a_7c15 + 1);
    let body = serde_json::to_string(&server::protocol::PairingRequest {
        preset: o.preset.clone(),
        name: format!("Person {i}"),
        player,
        bot: None,
        wait_s: Some(o.wait_s),
        contribution: None,
    });
    let body = match body {
        Ok(b) => b,
        Err(e) => return Fate::Not(e.to_string()),
    };
    let start = Instant::now();
    let ticket = match http(addr, "POST", "/api/pairing", &body).await {
        Ok((201, v)) => v["ticket"].as_str().unwrap_or_default().to_string(),
        Ok((status, v)) => return Fate::Not(format!("join {status}: {v}")),
        Err(e) => return Fate::Not(e),
    };
    let deadline = start + Duration::from_secs(o.wait_s + 30);
    let path = if o.poll.is_zero() {
        format!("/api/pairing/{ticket}?wait=1")
    } else {
        format!("/api/pairing/{ticket}")
    };
    loop {
        tokio::time::sleep(o.poll).await;
        match http(addr, "GET", &path, "").await {
            Ok((200, v)) if v["status"] == "seated" => {
                let table = v["table"].as_str().unwrap_or_default().to_string();
                return Fate::Seated(start.elapsed(), table);
            }
            Ok((200, v)) if v["status"] == "failed" => return Fate::Not(format!("failed: {v}")),
            Ok((200, _)) => {}
            Ok((status, v)) => return Fate::Not(format!("ask {status}: {v}")),
            Err(e) => return Fate::Not(e),
        }
        if Instant::now() > deadline {
            return Fate::Not("never seated".to_string());
        }
    }
}

/// Starts the server in-process on a temporary SQLite file, quotas lifted.
async fn start_local() -> Result<SocketAddr, String> {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-pairing-bench-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let store = SqliteStore::open(&dir.join("bench.db")).map_err(|e| e.to_string())?;
    let limits = Limits {
        pairing_pool_size: 100_000,
        pairing_tickets: 1_000_000,
        ..Limits::unlimited()
    };
    let state = AppState::open_with(Arc::new(store), limits)
        .await
        .map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(server::run(listener, state, std::future::pending()));
    Ok(addr)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(o: &Opts, fates: Vec<Fate>, took: Duration, local: bool) {
    let mut waits = Vec::new();
    let mut tables = std::collections::BTreeSet::new();
    let mut errors = std::collections::BTreeMap::<String, usize>::new();
    for f in fates {
        match f {
            Fate::Seated(d, t) => {
                waits.push(d);
                tables.insert(t);
            }
            Fate::Not(e) => *errors.entry(e.chars().take(80).collect()).or_default() += 1,
        }
    }
    waits.sort();
    let bot_wait = Duration::from_secs(o.wait_s);
    let (with_people, after_wait): (Vec<Duration>, Vec<Duration>) =
        waits.iter().partition(|d| **d < bot_wait);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "pairing bench: {} people over {:.0} s, preset {}, bots after {} s, {}, {}",
        o.people,
        o.seconds,
        o.preset,
        o.wait_s,
        if o.poll.is_zero() {
            "long polls".to_string()
        } else {
            format!("an ask every {} ms", o.poll.as_millis())
        },
        if local {
            "in-process server (per-address quotas lifted: one address asks for everyone)"
        } else {
            "the server's own limits"
        }
    );
    println!(
        "seated {} of {} at {} tables in {:.1} s; {} not seated",
        waits.len(),
        o.people,
        tables.len(),
        took.as_secs_f64(),
        o.people - waits.len()
    );
    println!(
        "wait to be seated, all:           p50 {:.0} ms  p99 {:.0} ms  max {:.0} ms",
        ms(percentile(&waits, 0.5)),
        ms(percentile(&waits, 0.99)),
        ms(waits.last().copied().unwrap_or_default())
    );
    println!(
        "  {} seated before the bots' wait: p50 {:.0} ms  p99 {:.0} ms  max {:.0} ms",
        with_people.len(),
        ms(percentile(&with_people, 0.5)),
        ms(percentile(&with_people, 0.99)),
        ms(with_people.last().copied().unwrap_or_default())
    );
    println!("  {} seated with bots after the wait", after_wait.len());
    for (e, n) in errors {
        println!("  {n} x {e}");
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let o = match parse() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("pairing_bench: {e}");
            return ExitCode::from(2);
        }
    };
    let local = o.url.is_none();
    let addr = match o.url {
        Some(a) => a,
        None => match start_local().await {
            Ok(a) => a,
            Err(e) => {
                eprintln!("pairing_bench: cannot start the server: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let start = Instant::now();
    let gap = Duration::from_secs_f64(o.seconds / o.people as f64);
    let mut people = Vec::with_capacity(o.people);
    for i in 0..o.people {
        tokio::time::sleep_until((start + gap * i as u32).into()).await;
        people.push(tokio::spawn(person(addr, Arc::clone(&o), i)));
    }
    let mut fates = Vec::with_capacity(o.people);
    for p in people {
        fates.push(p.await.unwrap_or_else(|e| Fate::Not(e.to_string())));
    }
    report(&o, fates, start.elapsed(), local);
    ExitCode::SUCCESS
}
