//! Operations: `/metrics` in the Prometheus text format with
//! figures that move when games are played and requests refused,
//! `/healthz`, `/readyz`, the metrics token, and the drain that closes
//! every WebSocket with 1012.

use super::util::*;
use futures_util::StreamExt;
use serde_json::json;
use server::store::{SqliteStore, Store};
use server::Limits;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

fn memory() -> Arc<dyn Store> {
    Arc::new(SqliteStore::in_memory().unwrap())
}

/// A GET with extra header lines; the status, the head in lower case and
/// the body as text.
async fn get(addr: SocketAddr, path: &str, headers: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(TIMEOUT, s.read_to_end(&mut raw))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// Parses a scrape line by line as the text exposition format 0.0.4 and
/// checks it (names, labels, values, a TYPE before each family's samples,
/// histograms cumulative and ending at +Inf = count); the samples by their
/// series (`name{labels}`).
fn parse(text: &str) -> HashMap<String, f64> {
    assert!(text.ends_with('\n'), "the last line ends too");
    let mut types: HashMap<String, String> = HashMap::new();
    let mut samples = HashMap::new();
    let mut buckets: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            let mut parts = comment.splitn(3, ' ');
            let (keyword, name) = (parts.next().unwrap(), parts.next().unwrap());
            assert!(valid_name(name), "{line}");
            match keyword {
                "HELP" => assert!(parts.next().is_some_and(|h| !h.is_empty()), "{line}"),
                "TYPE" => {
                    let kind = parts.next().unwrap();
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                        "{line}"
                    );
                    let before = types.insert(name.to_string(), kind.to_string());
                    assert!(before.is_none(), "one TYPE per family: {line}");
                }
                _ => panic!("unknown comment {line}"),
            }
            continue;
        }
        assert!(!line.is_empty(), "no blank lines");
        let (series, value) = line.rsplit_once(' ').unwrap();
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            v => v.parse().unwrap_or_else(|_| panic!("bad value: {line}")),
        };
        let (name, labels) = match series.split_once('{') {
            Some((n, rest)) => (n, rest.strip_suffix('}').expect("labels close")),
            None => (series, ""),
        };
        assert!(valid_name(name), "{line}");
        let mut le = None;
        for pair in labels.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap();
            assert!(valid_name(k), "{line}");
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap();
            assert!(!v.contains(['"', '\\', '\n']), "{line}");
            if k == "le" {
                le = Some(if v == "+Inf" {
                    f64::INFINITY
                } else {
                    v.parse::<f64>().unwrap()
                });
            }
        }
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| {
                name.strip_suffix(s)
                    .filter(|f| types.get(*f).is_some_and(|t| t == "histogram"))
            })
            .unwrap_or(name);
        let kind = types
            .get(family)
            .unwrap_or_else(|| panic!("no TYPE for {line}"));
        if kind == "counter" || kind == "histogram" {
            assert!(value >= 0.0, "{line}");
        }
        if name.ends_with("_bucket") {
            buckets
                .entry(family.to_string())
                .or_default()
                .push((le.expect("a bucket has le"), value));
        }
        let fresh = samples.insert(series.to_string(), value).is_none();
        assert!(fresh, "one sample per series: {line}");
    }
    for (family, b) in &buckets {
        assert!(
            b.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1),
            "{family}: {b:?}"
        );
        let last = b.last().unwrap();
        assert_eq!(last.0, f64::INFINITY, "{family} ends at +Inf");
        assert_eq!(Some(&last.1), samples.get(&format!("{family}_count")));
        assert!(samples.contains_key(&format!("{family}_sum")));
    }
    samples
}

async fn scrape(addr: SocketAddr) -> HashMap<String, f64> {
    let (status, head, body) = get(addr, "/metrics", "").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    parse(&body)
}

fn at(m: &HashMap<String, f64>, series: &str) -> f64 {
    *m.get(series).unwrap_or_else(|| panic!("no {series}"))
}

#[test]
fn the_checker_refuses_what_is_not_the_format() {
    let ok = "# HELP a_total A.\n# TYPE a_total counter\na_total{kind=\"x\"} 3\n";
    assert_eq!(parse(ok)["a_total{kind=\"x\"}"], 3.0);
    for bad in [
        "a_total 3\n",                                 // no TYPE
        "# TYPE a_total counter\na_total three\n",     // not a number
        "# TYPE a_total counter\na_total{kind=x} 1\n", // unquoted label
        "# TYPE a_total counter\na_total 1",           // no final newline
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",
    ] {
        let text = bad.to_string();
        assert!(std::panic::catch_unwind(|| parse(&text)).is_err(), "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_tables_connections_and_committed_actions() {
    let server = start_fast().await;
    let before = scrape(server.addr).await;
    assert_eq!(at(&before, "ratrace_actions_total"), 0.0);
    assert_eq!(at(&before, "ratrace_commit_seconds_count"), 0.0);
    assert_eq!(at(&before, "ratrace_live_tables"), 0.0);
    assert_eq!(at(&before, "ratrace_websockets"), 0.0);
    let bots = json!([{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "seats": bots, "bot_delay_ms": 1}),
    )
    .await;
    // A spectator lets the bots play; wait for 20 actions.
    let mut ws = Ws::connect(server.addr, &id).await;
    assert_eq!(ws.hello(None).await["type"], "state");
    loop {
        let s = ws.next_of("state").await;
        if s["seq"].as_u64().unwrap() >= 20 || s["over"] == true {
            break;
        }
    }
    let played = seq_of(server.addr, &id).await as f64;
    assert!(played >= 20.0, "{played}");
    let after = scrape(server.addr).await;
    let actions = at(&after, "ratrace_actions_total");
    assert!(actions >= played, "{actions} < {played}");
    let commits = at(&after, "ratrace_commit_seconds_count");
    assert!(commits >= actions, "every committed action is timed");
    assert!(at(&after, "ratrace_commit_seconds_sum") > 0.0);
    assert!(at(&after, "ratrace_commit_seconds_bucket{le=\"2.5\"}") > 0.0);
    assert_eq!(at(&after, "ratrace_tables_created_total"), 1.0);
    assert_eq!(at(&after, "ratrace_live_tables"), 1.0);
    assert_eq!(at(&after, "ratrace_table_tasks"), 1.0);
    assert_eq!(at(&after, "ratrace_websockets"), 1.0);
    // The WebSocket and the scrape's own connection at least.
    assert!(at(&after, "ratrace_connections") >= 2.0);
    assert_eq!(at(&after, "ratrace_store_errors_total"), 0.0);
    // Counts only: nothing names a table.
    let (_, _, text) = get(server.addr, "/metrics", "").await;
    assert!(!text.contains(&id), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_refusals_by_kind() {
    let limits = Limits {
        create_burst: 2,
        create_every_s: 3600,
        max_connections_per_ip: 3,
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    let body = json!({"game": "bigcheese", "players": 3}).to_string();
    for expect in [201, 201, 429, 429] {
        let (status, _, v) = request(server.addr, "POST", "/api/tables", &body).await;
        assert_eq!(status, expect, "{v}");
    }
    let m = scrape(server.addr).await;
    assert_eq!(at(&m, "ratrace_refusals_total{kind=\"create\"}"), 2.0);
    assert_eq!(at(&m, "ratrace_refusals_total{kind=\"join\"}"), 0.0);
    assert_eq!(at(&m, "ratrace_refusals_total{kind=\"connections\"}"), 0.0);
    assert_eq!(at(&m, "ratrace_tables_created_total"), 2.0);
    // Three held connections fill the address's cap: a fourth is refused.
    // The server may not have let go of the scrape's connection yet, so a
    // held one refused for that is tried again, and counted.
    let mut held = Vec::new();
    let mut early = 0.0;
    // (A refused connection is reset at once: its connect may fail.)
    while held.len() < 3 {
        let mut buf = [0u8; 1];
        let accepted = match TcpStream::connect(server.addr).await {
            Ok(mut s) => {
                let read = tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf));
                read.await.is_err().then_some(s) // still open: accepted
            }
            Err(_) => None,
        };
        match accepted {
            Some(s) => held.push(s),
            None => {
                early += 1.0;
                assert!(early < 20.0, "the cap never lets go");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    if let Ok(mut extra) = TcpStream::connect(server.addr).await {
        let mut buf = [0u8; 16];
        let n = tokio::time::timeout(TIMEOUT, extra.read(&mut buf)).await;
        assert!(matches!(n, Ok(Ok(0) | Err(_))), "the fourth is closed");
    }
    drop(held);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let m = scrape(server.addr).await;
    assert_eq!(
        at(&m, "ratrace_refusals_total{kind=\"connections\"}"),
        1.0 + early
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metrics_token_closes_metrics_to_others() {
    let (server, state) = start_state(memory(), Limits::default()).await;
    assert!(state.require_metrics_token("s3cret"));
    assert!(!state.require_metrics_token("other"), "set once");
    let (status, head, _) = get(server.addr, "/metrics", "").await;
    assert_eq!(status, 401);
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    let (status, _, _) = get(server.addr, "/metrics", "Authorization: Bearer other\r\n").await;
    assert_eq!(status, 401);
    let (status, _, body) = get(server.addr, "/metrics", "Authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, 200);
    assert!(parse(&body).contains_key("ratrace_actions_total"));
    // Health needs no token.
    assert_eq!(get(server.addr, "/healthz", "").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extra_gauges_show_in_metrics() {
    let (server, state) = start_state(memory(), Limits::default()).await;
    let peers = state.metrics().gauge("ratrace_peers", "Peers.").unwrap();
    peers.set(3);
    assert_eq!(at(&scrape(server.addr).await, "ratrace_peers"), 3.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_and_a_drain_that_closes_websockets_with_1012() {
    let (server, state) = start_state(memory(), Limits::default()).await;
    let (status, _, body) = get(server.addr, "/healthz", "").await;
    assert_eq!((status, body.trim()), (200, "ok"));
    let (status, _, body) = get(server.addr, "/readyz", "").await;
    assert_eq!((status, body.trim()), (200, "ready"));

    let seats = json!([{"kind":"human"},{"kind":"human"},{"kind":"human"}]);
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "seats": seats}),
    )
    .await;
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let mut ws = Ws::connect(server.addr, &id).await;
        assert_eq!(ws.hello(None).await["type"], "state");
        sockets.push(ws);
    }

    // Draining alone: not ready, everything else still served.
    state.set_draining();
    assert!(state.is_draining());
    let (status, _, body) = get(server.addr, "/readyz", "").await;
    assert_eq!((status, body.trim()), (503, "draining"));
    assert_eq!(get(server.addr, "/healthz", "").await.0, 200);
    let (status, _) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200);

    // The drain: every WebSocket gets 1012, then nothing is left running.
    let draining = state.clone();
    let drain = tokio::spawn(async move { draining.drain().await });
    for ws in &mut sockets {
        let frame = loop {
            match tokio::time::timeout(TIMEOUT, ws.socket.next()).await {
                Ok(Some(Ok(Message::Close(f)))) => break f,
                Ok(Some(Ok(_))) => continue,
                other => panic!("no close frame: {other:?}"),
            }
        };
        let f = frame.expect("a close frame with a code");
        assert_eq!(f.code, CloseCode::Restart);
        assert_eq!(f.reason.as_str(), "server restarting, reconnect");
    }
    tokio::time::timeout(Duration::from_secs(12), drain)
        .await
        .expect("the drain is bounded")
        .unwrap();
    let m = state.metrics().render(state.live_tables());
    let m = parse(&m);
    assert_eq!(at(&m, "ratrace_table_tasks"), 0.0);
    assert_eq!(at(&m, "ratrace_websockets"), 0.0);
    assert_eq!(state.readiness().await, Err("draining"));
    // The accept loop stopped with the drain.
    assert!(TcpStream::connect(server.addr).await.is_err());
}
