//! The slow-reader memory attack (third review): one address's
//! WebSockets that never read ask a table with a large state for it again
//! and again. The server's resident memory is read from
//! `/proc/PID/status` before, during and after, so the figure is the
//! kernel's and not the server's own gauges.

use super::{http, ip, next, send, temp, Report, Server};
use game::{Game, GameOptions, Seat};
use rand::{Rng, SeedableRng};
use serde_json::json;
use server::store::{
    Access, SeatKind, SqliteStore, Store, StoredAction, StoredSeat, StoredTable, TableConfig,
    TableDump,
};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

/// Connections the attack holds: the per-address connection cap.
const CONNECTIONS: usize = 64;
/// How long they ask.
const ATTACK: Duration = Duration::from_secs(30);
/// Actions of the table's game: a state of about 420 KB.
const ACTIONS: usize = 11_500;
/// How long after they close the memory is read again.
const AFTER: Duration = Duration::from_secs(30);

/// A 13-seat Dalmuti table of bots, played by random legal moves for
/// `actions` actions of a 100-hand session (unfinished), as `ratrace
/// serve` stores it.
fn big_table(id: &str, count: usize) -> Option<TableDump> {
    let mut options = dalmuti::Options::default();
    options.set("hands", "100").ok()?;
    let players = 13;
    let seed = 13u64;
    let mut game = dalmuti::Dalmuti::new(&options, players, seed).ok()?;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while game.outcome().is_none() && actions.len() < count {
        let seat = game.to_move()?;
        game.legal_actions(&mut legal);
        let a = *legal.get(rng.random_range(0..legal.len().max(1)))?;
        actions.push((seat, a.to_string()));
        game.apply(a).ok()?;
    }
    if game.outcome().is_some() {
        return None;
    }
    // Now: a table untouched for long would be ended by the sweep.
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Some(TableDump {
        table: StoredTable {
            id: id.to_string(),
            game: "dalmuti".into(),
            rules_version: <dalmuti::Dalmuti as Game>::RULES_VERSION.into(),
            players,
            options: options.pairs().into_iter().collect(),
            seed: seed.into(),
            seed_hash: registry::fair::sha256_hex(&seed.to_string()),
            fair: None,
            config: TableConfig::default(),
            created_at: created,
            finished_at: None,
            seats: (0..players)
                .map(|i| StoredSeat {
                    seat: Seat::new(i),
                    kind: SeatKind::Bot("random".into()),
                })
                .collect(),
            actions: actions
                .iter()
                .enumerate()
                .map(|(i, (seat, action))| StoredAction {
                    seq: i as u64 + 1,
                    seat: *seat,
                    action: action.clone(),
                    stand_in: false,
                })
                .collect(),
            access: Access {
                public: true,
                ..Access::default()
            },
            social: Default::default(),
        },
        last_active: Some(created),
        ended: None,
        action_times: vec![created; actions.len()],
    })
}

/// A WebSocket from `from` with a small receive buffer, said hello.
async fn reader(from: std::net::IpAddr, to: SocketAddr, id: &str) -> Option<super::Socket> {
    let s = TcpSocket::new_v4().ok()?;
    s.set_recv_buffer_size(2048).ok()?;
    s.bind(SocketAddr::new(from, 0)).ok()?;
    let tcp = s.connect(to).await.ok()?;
    let (mut ws, _) = tokio_tungstenite::client_async(
        format!("ws://{to}/ws/{id}"),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .ok()?;
    send(&mut ws, json!({"type":"hello"})).await.then_some(ws)
}

/// 64 WebSockets from one address, never reading, ask `resync` of a
/// 13-seat table whose state is over 400 KB for 30 s; whoever is closed
/// comes back. Then they close. RSS from `/proc`: before, at its most,
/// and 30 s after.
pub(super) async fn slowmem(bin: &Path, r: &mut Report) -> Result<(), String> {
    let dir = temp("slowmem");
    let db = dir.join("slowmem.db");
    {
        let store = SqliteStore::open(&db).map_err(|e| e.to_string())?;
        let dump = big_table("big", ACTIONS).ok_or("the table did not set up")?;
        store.restore(&dump).map_err(|e| e.to_string())?;
    }
    let (server, _) = Server::start(bin, &db, &[])?;
    let to = server.addr;
    // A spectator who reads: the table is loaded, and its state measured.
    let mut watcher = super::ws(ip(0, 1), to, "big").await.ok_or("watcher")?;
    send(&mut watcher, json!({"type":"hello"})).await;
    let state = next(&mut watcher, Duration::from_secs(30))
        .await
        .ok_or("no state")?;
    let state_bytes = state.to_string().len();
    drop(watcher);
    // Settled: what the table in memory costs, before the attack.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let before = server.rss_mb();
    let attacker = ip(9, 0);
    let end = Instant::now() + ATTACK;
    let held: Arc<Mutex<Vec<super::Socket>>> = Arc::default();
    let opened = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        let (held, opened) = (Arc::clone(&held), Arc::clone(&opened));
        tasks.push(tokio::spawn(async move {
            while Instant::now() < end {
                let connect = reader(attacker, to, "big");
                let Some(mut s) = tokio::time::timeout(Duration::from_secs(2), connect)
                    .await
                    .ok()
                    .flatten()
                else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                opened.fetch_add(1, Ordering::Relaxed);
                let mut alive = true;
                while alive && Instant::now() < end {
                    tokio::time::sleep(Duration::from_millis(55)).await;
                    let resync = send(&mut s, json!({"type":"resync"}));
                    alive = matches!(
                        tokio::time::timeout(Duration::from_millis(500), resync).await,
                        Ok(true) | Err(_)
                    );
                }
                if alive {
                    held.lock().unwrap().push(s);
                }
            }
        }));
    }
    let mut most = before;
    let mut lat = Vec::new();
    while Instant::now() < end {
        most = most.max(server.rss_mb());
        let t = Instant::now();
        let (status, _) = http(ip(0, 2), to, "GET", "/healthz", "").await;
        lat.push(if status == 200 {
            t.elapsed().as_secs_f64() * 1000.0
        } else {
            f64::INFINITY
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for t in tasks {
        let _ = t.await;
    }
    most = most.max(server.rss_mb());
    // The attackers close every socket.
    held.lock().unwrap().clear();
    let closed = Instant::now();
    let mut samples = Vec::new();
    while closed.elapsed() < AFTER {
        tokio::time::sleep(Duration::from_secs(5)).await;
        samples.push(format!("{:.0}", server.rss_mb()));
    }
    let after = server.rss_mb();
    lat.sort_by(f64::total_cmp);
    let p99 = super::quantile(&lat, 0.99);
    let grew = most - before;
    let left = after - before;
    r.goal(
        "Slow readers asking resync (third review): 64 WebSockets from one address (2 KiB receive buffer) ask resync of a 13-seat Dalmuti table 18 times a second for 30 s, reading nothing, reconnecting when closed; then close",
        format!(
            "state {:.0} KB; {} connections opened; RSS {before:.1} MiB before, at most {most:.1} MiB (+{grew:.1}), {after:.1} MiB 30 s after they closed ({left:+.1}; every 5 s: {}); /healthz p99 {p99:.1} ms",
            state_bytes as f64 / 1000.0,
            opened.load(Ordering::Relaxed),
            samples.join(", "),
        ),
        "state > 400 KB; RSS grows at most 64 MiB, back within 32 MiB 30 s after",
        state_bytes > 400_000 && grew <= 64.0 && left <= 32.0,
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
