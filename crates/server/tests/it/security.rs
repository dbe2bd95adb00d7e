//! The security suite: every finding of the first security review as a
//! regression test against a real server on loopback, each bounded in
//! count and time. Limits are shrunk per test (a 1 s timeout instead of
//! 10 s, a burst of 3 instead of 10) so each runs in seconds.

use super::util::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::store::{SqliteStore, Store};
use server::Limits;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

/// A Big Cheese table of three human seats nobody has joined.
async fn humans_table(addr: SocketAddr) -> String {
    let seats = json!([{"kind":"human"},{"kind":"human"},{"kind":"human"}]);
    create(
        addr,
        json!({"game": "bigcheese", "players": 3, "seats": seats}),
    )
    .await
}

fn memory() -> Arc<dyn Store> {
    Arc::new(SqliteStore::in_memory().unwrap())
}

fn table_body() -> String {
    json!({"game": "bigcheese", "players": 3}).to_string()
}

/// Waits until the peer closes `s` (read gives EOF or an error); the time
/// it took.
async fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = tokio::time::Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(start + limit, s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// The close frame a WebSocket ends with (skipping other messages).
async fn close_frame(ws: &mut Ws, limit: Duration) -> Option<(CloseCode, String)> {
    let end = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(end, ws.socket.next()).await {
            Err(_) => return None,
            Ok(Some(Ok(Message::Close(frame)))) => {
                return frame.map(|f| (f.code, f.reason.to_string()))
            }
            Ok(None | Some(Err(_))) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_carries_the_security_headers_and_there_is_a_favicon() {
    let server = start().await;
    for path in ["/api/games", "/static/dom.js"] {
        // not documents: only `nosniff` (the rest is for pages)
        let (status, head, _) = request(server.addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        assert!(!head.contains("content-security-policy"), "{path}: {head}");
    }
    for path in ["/", "/t/abc", "/favicon.svg"] {
        let (status, head, _) = request(server.addr, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(
            head.contains(
                "content-security-policy: default-src 'self'; script-src 'self'; style-src 'self'"
            ),
            "{path}: {head}"
        );
        assert!(head.contains("frame-ancestors 'none'"), "{head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        assert!(head.contains("x-frame-options: deny"), "{head}");
        assert!(head.contains("referrer-policy: no-referrer"), "{head}");
    }
    let (status, head, _) = request(server.addr, "GET", "/favicon.ico", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: image/svg+xml"), "{head}");
}

/// Table-creation floods: a creation flood gets the burst and then 429 with
/// Retry-After; the live-table caps hold per address and in all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_metered_per_address_and_capped() {
    let limits = Limits {
        create_burst: 3,
        create_every_s: 3600,
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    for _ in 0..3 {
        let (status, _, v) = request(server.addr, "POST", "/api/tables", &table_body()).await;
        assert_eq!(status, 201, "{v}");
    }
    for _ in 0..5 {
        let (status, head, v) = request(server.addr, "POST", "/api/tables", &table_body()).await;
        assert_eq!(status, 429, "{v}");
        assert_eq!(v["error"]["code"], "rate_limited");
        let retry: u64 = head
            .lines()
            .find_map(|l| l.strip_prefix("retry-after: "))
            .and_then(|v| v.trim().parse().ok())
            .expect("a Retry-After header");
        assert!((3000..=3600).contains(&retry), "{retry}");
    }
    let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(
        list.as_array().unwrap().len(),
        0,
        "private tables are not listed"
    );

    // The caps on unfinished tables.
    let per_ip = Limits {
        max_live_tables_per_ip: 2,
        ..Limits::unlimited()
    };
    let server = start_on(memory(), per_ip).await;
    for _ in 0..2 {
        create(server.addr, json!({"game": "dalmuti"})).await;
    }
    let (status, _, v) = request(server.addr, "POST", "/api/tables", &table_body()).await;
    assert_eq!(status, 429, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unfinished"));
    let all = Limits {
        max_live_tables: 1,
        ..Limits::unlimited()
    };
    let server = start_on(memory(), all).await;
    create(server.addr, json!({"game": "dalmuti"})).await;
    let (status, _, _) = request(server.addr, "POST", "/api/tables", &table_body()).await;
    assert_eq!(status, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_and_record_checks_are_metered() {
    let limits = Limits {
        join_burst: 2,
        join_every_s: 3600,
        verify_burst: 1,
        verify_every_s: 3600,
        record_burst: 1,
        record_every_s: 3600,
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    let id = humans_table(server.addr).await;
    join(server.addr, &id, "P1").await;
    join(server.addr, &id, "P2").await;
    let body = json!({"seat": "P3", "name": "Cleo", "key": key_of(&id)}).to_string();
    let (status, head, _) = request(
        server.addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        &body,
    )
    .await;
    assert_eq!(status, 429);
    assert!(head.contains("retry-after:"));
    let record = json!({"game":"bigcheese","rules_version":"bigcheese/1","players":3,
                        "options":{},"seed":"1","actions":[]})
    .to_string();
    let (first, _, _) = request(server.addr, "POST", "/api/verify", &record).await;
    assert_eq!(first, 200);
    let (second, _, _) = request(server.addr, "POST", "/api/verify", &record).await;
    assert_eq!(second, 429);
    let path = format!("/api/tables/{id}/record");
    assert_eq!(
        request(server.addr, "GET", &path, "").await.0,
        409,
        "not over"
    );
    assert_eq!(request(server.addr, "GET", &path, "").await.0, 429);
    // A replay rebuilds the whole game too: it takes from the same meter.
    let replay = format!("/api/tables/{id}/replay/0");
    assert_eq!(request(server.addr, "GET", &replay, "").await.0, 429);
}

/// Strangers at a table: tables are private unless marked public; a private
/// table's seats need the invite key; a public table is listed and has a turn
/// timer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_tables_need_their_key_and_public_ones_are_listed() {
    let server = start().await;
    let private = create_full(server.addr, json!({"game": "bigcheese"})).await;
    let id = private["id"].as_str().unwrap();
    let key = private["key"].as_str().unwrap();
    assert_eq!(
        private["invite"].as_str().unwrap(),
        format!("/t/{id}?k={key}")
    );
    for bad in [
        json!({"name": "Eve"}),
        json!({"name": "Eve", "key": "0".repeat(64)}),
    ] {
        let (status, _, v) = request(
            server.addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            &bad.to_string(),
        )
        .await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (403, Some("forbidden"))
        );
    }
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["public"], false);
    assert_eq!(info["turn_timer_ms"], Value::Null);
    assert!(!info.to_string().contains(key), "the key is never shown");

    let public = create_full(server.addr, json!({"game": "bigcheese", "public": true})).await;
    assert!(public["key"].is_null());
    let pid = public["id"].as_str().unwrap();
    let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![pid]);
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{pid}"), None).await;
    assert_eq!(
        info["turn_timer_ms"],
        Limits::default().public_turn_timer_ms
    );
    let body = json!({"name": "Eve"}).to_string();
    let (status, _, _) = request(
        server.addr,
        "POST",
        &format!("/api/tables/{pid}/join"),
        &body,
    )
    .await;
    assert_eq!(status, 200, "a public seat needs no key");
}

/// Names lose invisible and direction-changing characters; a person may
/// not take a bot's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_cleaned_and_bot_names_refused() {
    let server = start_fast().await;
    let id = humans_table(server.addr).await;
    let key = key_of(&id);
    let join_as = |name: &str| json!({"name": name, "key": key}).to_string();
    for bad in [
        "heuristic",
        "Search:2000",
        "Bot Bob",
        "level 4",
        "\u{200B}\u{202E}",
        "   ",
        &"x".repeat(33),
    ] {
        let (status, _, v) = request(
            server.addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            &join_as(bad),
        )
        .await;
        assert_eq!(status, 400, "{bad:?}: {v}");
    }
    let (status, _, v) = request(
        server.addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        &join_as("\u{202E}Ali\u{200B}ce\u{2066}  \t Smith\u{0007}"),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][0]["name"], "Alice Smith");
    // Strongman is a name, not a bot.
    let (status, _, _) = request(
        server.addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        &join_as("Strongman"),
    )
    .await;
    assert_eq!(status, 200);
}

/// Seats nobody came to: the creator may give a seat whose human never came to
/// a bot, after the wait; nobody else may.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_creator_fills_a_never_taken_seat_after_the_wait() {
    let body = json!({"game": "bigcheese", "players": 3,
                      "seats": [{"kind":"human"},{"kind":"human"},{"kind":"bot"}]});
    let waiting = start_on(memory(), Limits::default()).await;
    let t = create_full(waiting.addr, body.clone()).await;
    let (id, creator) = (t["id"].as_str().unwrap(), t["creator"].as_str().unwrap());
    let fill = json!({"seat": "P2", "creator": creator}).to_string();
    let (status, head, _) = request(
        waiting.addr,
        "POST",
        &format!("/api/tables/{id}/fill"),
        &fill,
    )
    .await;
    assert_eq!(status, 429, "too early");
    assert!(head.contains("retry-after:"));
    // the table's facts say when a fill will be taken
    let (_, info) = http(waiting.addr, "GET", &format!("/api/tables/{id}"), None).await;
    let wait = info["fill_in_s"].as_i64().unwrap();
    assert!((58..=60).contains(&wait), "{info}");

    let now = start_on(
        memory(),
        Limits {
            fill_after: Duration::ZERO,
            ..Limits::unlimited()
        },
    )
    .await;
    let t = create_full(now.addr, body).await;
    let (id, creator) = (t["id"].as_str().unwrap(), t["creator"].as_str().unwrap());
    join(now.addr, id, "P1").await;
    let stranger = json!({"seat": "P2", "creator": "f".repeat(64)}).to_string();
    let (status, _, _) = request(
        now.addr,
        "POST",
        &format!("/api/tables/{id}/fill"),
        &stranger,
    )
    .await;
    assert_eq!(status, 403);
    let taken = json!({"seat": "P1", "creator": creator}).to_string();
    let (status, _, _) = request(now.addr, "POST", &format!("/api/tables/{id}/fill"), &taken).await;
    assert_eq!(status, 409, "a joined seat stays its person's");
    let fill = json!({"seat": "P2", "creator": creator, "bot": "random"}).to_string();
    let (status, _, v) = request(now.addr, "POST", &format!("/api/tables/{id}/fill"), &fill).await;
    assert_eq!(status, 204, "{v}");
    let (_, info) = http(now.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][1]["kind"], "bot");
    assert_eq!(info["seats"][1]["bot"], "random");
    assert_eq!(info["fill_in_s"], 0, "{info}");
    assert_eq!(info["status"], "playing");
}

/// Idle connections: a silent TCP connection, a slowloris and a WebSocket that
/// never says hello are all closed; an idle WebSocket too, with a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_slow_and_silent_connections_are_closed() {
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        hello_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    let id = create(server.addr, json!({"game": "bigcheese"})).await;
    let bound = Duration::from_secs(5);

    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let t = closed_within(&mut silent, bound)
        .await
        .expect("silent TCP closed");
    assert!(t >= Duration::from_millis(900), "{t:?}");

    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    let start = tokio::time::Instant::now();
    let mut closed = false;
    for i in 0..20 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if slow
            .write_all(format!("X-{i}: y\r\n").as_bytes())
            .await
            .is_err()
        {
            closed = true;
            break;
        }
        let mut buf = [0u8; 512];
        if let Ok(Ok(0) | Err(_)) =
            tokio::time::timeout(Duration::from_millis(1), slow.read(&mut buf)).await
        {
            closed = true;
            break;
        }
    }
    assert!(closed, "a slowloris is cut off");
    assert!(start.elapsed() < bound);

    let mut mute = Ws::connect(server.addr, &id).await;
    let (code, reason) = close_frame(&mut mute, bound).await.expect("a close frame");
    assert_eq!(
        (code, reason.as_str()),
        (CloseCode::Policy, "no hello in time")
    );

    let mut idle = Ws::connect(server.addr, &id).await;
    assert_eq!(idle.hello(None).await["type"], "state");
    let (code, reason) = close_frame(&mut idle, bound).await.expect("a close frame");
    assert_eq!(
        (code, reason.as_str()),
        (CloseCode::Away, "idle for too long")
    );

    // A client that pings stays.
    let mut alive = Ws::connect(server.addr, &id).await;
    assert_eq!(alive.hello(None).await["type"], "state");
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        alive.send(json!({"type": "ping"})).await;
        assert_eq!(alive.next_of("pong").await["type"], "pong");
    }
}

/// Connection floods: connections over the per-address cap are closed at once,
/// and a slot comes back when a connection ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address() {
    let limits = Limits {
        max_connections_per_ip: 3,
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    let id = create(server.addr, json!({"game": "bigcheese"})).await;
    // The create's connection (Connection: close) frees its slot once the
    // server has seen it close.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut ws = Ws::connect(server.addr, &id).await;
    assert_eq!(ws.hello(None).await["type"], "state");
    // The fourth is reset at once: its connect may already fail.
    if let Ok(mut extra) = TcpStream::connect(server.addr).await {
        let t = closed_within(&mut extra, Duration::from_secs(3))
            .await
            .expect("the fourth connection is closed");
        assert!(t < Duration::from_secs(2), "{t:?}");
    }
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = http(server.addr, "GET", "/api/games", None).await;
    assert_eq!(status, 200, "a freed slot serves again");
}

/// Rate limit dodged by other frames: binary and ping frames count toward the
/// rate limit like text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_frame_kind_counts_toward_the_rate_limit() {
    let limits = Limits {
        rate_limit: 5,
        rate_close: 20,
        ..Limits::default()
    };
    let server = start_on(memory(), limits).await;
    let id = create(server.addr, json!({"game": "bigcheese"})).await;
    for frame in [
        Message::Binary(vec![0u8; 16].into()),
        Message::Ping(vec![1u8; 8].into()),
    ] {
        let mut ws = Ws::connect(server.addr, &id).await;
        assert_eq!(ws.hello(None).await["type"], "state");
        for _ in 0..40 {
            if ws.socket.send(frame.clone()).await.is_err() {
                break;
            }
        }
        let (code, reason) = close_frame(&mut ws, Duration::from_secs(5))
            .await
            .expect("closed with a reason");
        assert_eq!(
            (code, reason.as_str()),
            (CloseCode::Policy, "too many messages")
        );
    }
}

/// Slow readers: a client that stops reading is closed with a reason, not
/// silently forgotten; it reconnects and gets the state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_is_closed_with_a_reason_and_can_reconnect() {
    let limits = Limits {
        send_buffer: 4096,
        ..Limits::unlimited()
    };
    let server = start_on(memory(), limits).await;
    let id = bot_session(server.addr).await;
    // A reader with a tiny receive buffer that reads nothing.
    let mut slow = slow_spectator(server.addr, &id, 4096).await;
    // A second, normal spectator watches. Each action is one message to
    // the slow reader too; 600 of them cannot fit in its outbox (256) and
    // 16 KiB of socket buffers, so by then it must have been closed.
    let mut watcher = Ws::connect(server.addr, &id).await;
    assert_eq!(watcher.hello(None).await["type"], "state");
    loop {
        let m = watcher.next_of("state").await;
        assert_ne!(m["over"], true, "the session ended before 600 actions");
        if m["seq"].as_u64().unwrap() >= 600 {
            break;
        }
    }
    let mut kicked = None;
    let mut read = 0;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(10), slow.next()).await {
        match m {
            Ok(Message::Close(f)) => {
                kicked = f;
                break;
            }
            Ok(_) => read += 1,
            Err(_) => break,
        }
    }
    assert!(
        read < 600,
        "the slow reader was not sent everything: {read}"
    );
    let f = kicked.expect("the slow reader gets a close frame");
    assert_eq!(u16::from(f.code), 1013);
    assert!(f.reason.contains("too slow"), "{}", f.reason);
    // The watcher was served throughout, and a reconnect gets the state.
    assert_eq!(watcher.next_of("state").await["type"], "state");
    let mut again = Ws::connect(server.addr, &id).await;
    assert_eq!(again.hello(None).await["type"], "state");
}

/// Spectator churn: a spectator coming or going sends nothing to the others; a
/// seat connecting sends a small presence message, not a state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_and_leaves_send_presence_not_states() {
    let server = start().await;
    let id = humans_table(server.addr).await;
    let tokens = [
        join(server.addr, &id, "P1").await,
        join(server.addr, &id, "P2").await,
        join(server.addr, &id, "P3").await,
    ];
    let mut p1 = Ws::connect(server.addr, &id).await;
    assert_eq!(p1.hello(Some(&tokens[0])).await["type"], "state");
    for _ in 0..20 {
        let mut s = Ws::connect(server.addr, &id).await;
        assert_eq!(s.hello(None).await["type"], "state");
    }
    let quiet = tokio::time::timeout(Duration::from_millis(300), p1.next_raw()).await;
    assert!(quiet.is_err(), "spectators come and go unheard: {quiet:?}");
    let mut p2 = Ws::connect(server.addr, &id).await;
    assert_eq!(p2.hello(Some(&tokens[1])).await["type"], "state");
    let m = p1.next().await;
    assert_eq!(m["type"], "presence", "{m}");
    assert_eq!(m["seats"][1]["connected"], true);
    assert!(m.get("view").is_none());
    drop(p2);
    let m = p1.next().await;
    assert_eq!(m["type"], "presence", "{m}");
    assert_eq!(m["seats"][1]["connected"], false);
}

/// CPU spent on bots: a table of bots plays only while watched, at a bounded
/// speed and length.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_tables_are_bounded_and_pause_unwatched() {
    let server = start().await;
    let bots = json!([{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    for (body, why) in [
        (
            json!({"game": "bigcheese", "players": 3, "seats": bots, "bot_delay_ms": 0}),
            "too fast",
        ),
        (
            json!({"game": "dalmuti", "players": 3, "seats": bots, "options": {"hands": 65535}}),
            "too long",
        ),
    ] {
        let (status, _, v) = request(server.addr, "POST", "/api/tables", &body.to_string()).await;
        assert_eq!(status, 400, "{why}: {v}");
    }
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "seats": bots, "bot_delay_ms": 200}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(
        seq_of(server.addr, &id).await,
        0,
        "nobody watches: nothing moves"
    );
    let _spectator = watch_for(server.addr, &id, Duration::from_millis(900)).await;
    let seq = seq_of(server.addr, &id).await;
    assert!(
        (1..=6).contains(&seq),
        "watched: about one action per 200 ms, got {seq}"
    );
}

/// Watches table `id` as a spectator for `time`; the connection, still
/// open.
async fn watch_for(addr: SocketAddr, id: &str, time: Duration) -> Ws {
    let mut ws = Ws::connect(addr, id).await;
    assert_eq!(ws.hello(None).await["type"], "state");
    tokio::time::sleep(time).await;
    ws
}

/// Tables filling memory: a table nobody uses leaves memory and comes back on
/// demand; one nobody plays for long ends as abandoned, its record kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_tables_leave_memory_and_old_ones_are_abandoned() {
    let limits = Limits {
        evict_after: Duration::from_millis(300),
        // The table never starts (nobody sits down): the short rule.
        unstarted_after: Duration::ZERO,
        ..Limits::default()
    };
    let (server, state) = start_state(memory(), limits).await;
    let id = create(server.addr, json!({"game": "bigcheese", "public": true})).await;
    assert_eq!(state.live_tables(), 1);
    let mut gone = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if state.live_tables() == 0 {
            gone = true;
            break;
        }
    }
    assert!(gone, "an untouched table leaves memory");
    let (status, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!((status, info["status"].as_str()), (200, Some("open")));
    assert_eq!(state.live_tables(), 1, "loaded again on demand");
    let mut ws = Ws::connect(server.addr, &id).await;
    assert_eq!(ws.hello(None).await["type"], "state");

    tokio::time::sleep(Duration::from_millis(1100)).await;
    state.abandon_idle().await;
    let m = ws.next_of("state").await;
    assert_eq!(
        (m["over"].as_bool(), m["abandoned"].as_bool()),
        (Some(true), Some(true))
    );
    assert!(
        m["seed"].is_string(),
        "the seed is revealed once the game is over"
    );
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["status"], "abandoned");
    let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(list[0]["status"], "abandoned");
    let (status, record) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert!(record.get("outcome").is_none());
}

/// A crash between a game's last action and its end: a game whose last action
/// was stored without its end (an old server's crash between the two) is
/// repaired at start-up: finished, listed so, its record downloadable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_left_unmarked_is_repaired_at_start() {
    use game::{Game, GameOptions};
    let db = temp_db("repair");
    let id;
    {
        let store = SqliteStore::open(&db).unwrap();
        let seed = 5;
        let mut g = bigcheese::BigCheese::new(&Default::default(), 3, seed).unwrap();
        let mut legal = Vec::new();
        let mut actions = Vec::new();
        while let Some(seat) = g.to_move() {
            g.legal_actions(&mut legal);
            let a = legal[actions.len() % legal.len()];
            g.apply(a).unwrap();
            actions.push(server::store::StoredAction {
                seq: actions.len() as u64 + 1,
                seat,
                action: a.to_string(),
                stand_in: false,
            });
        }
        id = "stuck1".to_string();
        let table = server::store::StoredTable {
            id: id.clone(),
            game: "bigcheese".into(),
            rules_version: "bigcheese/1".into(),
            players: 3,
            options: g.options().pairs().into_iter().collect(),
            seed: seed.into(),
            seed_hash: registry::fair::sha256_hex("5"),
            fair: None,
            config: Default::default(),
            created_at: server::clock::unix_now(),
            finished_at: None,
            seats: (0..3)
                .map(|i| server::store::StoredSeat {
                    seat: game::Seat::new(i),
                    kind: server::store::SeatKind::Bot("random".into()),
                })
                .collect(),
            actions: Vec::new(),
            access: server::store::Access {
                public: true,
                ..Default::default()
            },
            social: Default::default(),
        };
        store.create_table(&table, "seeding").unwrap();
        for a in &actions {
            store.append_action(&id, a, 2, false, 1).unwrap();
        }
        assert_eq!(store.unfinished_ids().unwrap(), vec![id.clone()]);
    }
    let server = start_on(Arc::new(SqliteStore::open(&db).unwrap()), Limits::default()).await;
    let mut repaired = false;
    for _ in 0..100 {
        let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
        if list[0]["status"] == "finished" {
            repaired = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(repaired, "the start-up repair marked the game finished");
    let (status, record) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert!(record["outcome"].is_object());
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn the_database_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let db = temp_db("mode");
    let store = SqliteStore::open(&db).unwrap();
    drop(store);
    let mode = std::fs::metadata(&db).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // An existing file made readable by others is tightened.
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(SqliteStore::open(&db).unwrap());
    for suffix in ["", "-wal", "-shm"] {
        let p = format!("{}{suffix}", db.display());
        if let Ok(m) = std::fs::metadata(&p) {
            assert_eq!(m.permissions().mode() & 0o077, 0, "{p}");
        }
    }
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// A seed whose first deal gives both Jesters to `holder` (4 players, one
/// hand), so the hand opens on the revolution decision (D7).
pub(crate) fn jester_seed(holder: usize) -> u64 {
    use game::Game;
    let opts: dalmuti::Options = game::GameOptions::from_pairs([("hands", "1")]).unwrap();
    (0..1_000_000u64)
        .find(|&seed| {
            let g = dalmuti::Dalmuti::new(&opts, 4, seed).unwrap();
            g.phase() == dalmuti::Phase::Revolution && g.to_move() == Some(game::Seat::new(holder))
        })
        .expect("a seed")
}

/// The revolution decision's timing (D7): whoever holds both Jesters (a person
/// who decides at once, or a bot that decides in no time), the decision reaches
/// the other seats when the window closes, never sooner; the quiet holder's
/// decision is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revolution_decision_lands_at_a_fixed_time_whoever_holds_the_jesters() {
    use game::GameOptions;
    let window = Duration::from_millis(1500);
    for holder in [0, 2] {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        let limits = Limits {
            revolution_window_ms: window.as_millis() as u64,
            ..Limits::unlimited()
        };
        let server = start_on(store.clone(), limits).await;
        let seed = jester_seed(holder);
        let opts: dalmuti::Options = GameOptions::from_pairs([("hands", "1")]).unwrap();
        let human = |name: Option<&str>| server::store::SeatKind::Human {
            name: name.map(str::to_string),
            token_hash: None,
        };
        let id = format!("jesters{holder}");
        store
            .create_table(
                &server::store::StoredTable {
                    id: id.clone(),
                    game: "dalmuti".into(),
                    rules_version: <dalmuti::Dalmuti as game::Game>::RULES_VERSION.into(),
                    players: 4,
                    options: opts.pairs().into_iter().collect(),
                    seed: seed.into(),
                    seed_hash: registry::fair::sha256_hex(&seed.to_string()),
                    fair: None,
                    config: server::store::TableConfig {
                        bot_delay_ms: 0,
                        turn_timer_ms: None,
                        ..Default::default()
                    },
                    created_at: server::clock::unix_now(),
                    finished_at: None,
                    seats: (0..4)
                        .map(|i| server::store::StoredSeat {
                            seat: game::Seat::new(i),
                            kind: if i < 2 {
                                human(None)
                            } else {
                                server::store::SeatKind::Bot("heuristic".into())
                            },
                        })
                        .collect(),
                    actions: Vec::new(),
                    access: server::store::Access {
                        public: true,
                        ..Default::default()
                    },
                    social: Default::default(),
                },
                "seeding",
            )
            .unwrap();
        let t1 = join(server.addr, &id, "P1").await;
        let mut p1 = Ws::connect(server.addr, &id).await;
        assert_eq!(p1.hello(Some(&t1)).await["type"], "state");
        // Nothing is decided while the table waits for P2, however long.
        tokio::time::sleep(window + Duration::from_millis(300)).await;
        let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(
            (info["seq"].as_u64(), info["status"].as_str()),
            (Some(0), Some("open"))
        );
        let opened = tokio::time::Instant::now();
        let t2 = join(server.addr, &id, "P2").await;
        let mut p2 = Ws::connect(server.addr, &id).await;
        let first = p2.hello(Some(&t2)).await;
        assert_eq!(first["seq"], 0);
        assert!(first["to_move"].is_null(), "nobody is named: {first}");
        if holder == 0 {
            // The person decides at once; only they are told it is in.
            let s = p1.next_of("state").await;
            assert_eq!(s["to_move"], "P1");
            p1.send(json!({"type":"act","seq":0,"action":"no-revolution"}))
                .await;
            let n = p1.next_of("notice").await;
            assert_eq!(n["code"], "held", "{n}");
        }
        let landed = loop {
            let m = p2.next().await;
            if m["type"] == "state" {
                break m;
            }
        };
        let waited = opened.elapsed();
        assert_eq!(landed["seq"], 1, "{landed}");
        // (the window opens while P2's join is handled, after `opened`)
        assert!(
            waited >= window,
            "holder P{}: the decision landed after {waited:?}, before the window closed",
            holder + 1
        );
        let (_, record_info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(record_info["seq"], 1);
        let stored = store.load(&id).unwrap().unwrap();
        if holder == 0 {
            assert_eq!(stored.actions[0].action, "no-revolution");
        }
        assert_eq!(stored.actions[0].seat, game::Seat::new(holder));
    }
}

/// Item 2: two people each add their own randomness; the game is dealt
/// from the secret and both contributions once the second sits down, and
/// its record verifies, naming both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fair_deal_with_two_people_verifies() {
    for window in [0, 300] {
        let limits = Limits {
            revolution_window_ms: window,
            ..Limits::unlimited()
        };
        let server = start_on(memory(), limits).await;
        let seats = json!([{"kind":"human"},{"kind":"human"},{"kind":"bot"},{"kind":"bot"}]);
        let t = create_full(
            server.addr,
            json!({"game":"dalmuti","players":4,"options":{"hands":2},"seats":seats,"bot_delay_ms":0}),
        )
        .await;
        let id = t["id"].as_str().unwrap().to_string();
        let mut tokens = Vec::new();
        for (seat, c) in [("P1", "11"), ("P2", "22")] {
            let body = json!({"seat": seat, "name": format!("N{seat}"), "key": t["key"],
                              "contribution": c.repeat(32)});
            let (status, _, v) = request(
                server.addr,
                "POST",
                &format!("/api/tables/{id}/join"),
                &body.to_string(),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            tokens.push(v["token"].as_str().unwrap().to_string());
        }
        let mut ws = Vec::new();
        for tok in &tokens {
            let mut w = Ws::connect(server.addr, &id).await;
            w.send(json!({"type":"hello","token":tok})).await;
            ws.push(w);
        }
        let mut over = false;
        let mut rounds = 0;
        while !over {
            rounds += 1;
            assert!(rounds < 5000);
            for w in ws.iter_mut() {
                let Ok(raw) = tokio::time::timeout(Duration::from_millis(20), w.next_raw()).await
                else {
                    continue;
                };
                let m: Value = serde_json::from_str(&raw.unwrap()).unwrap();
                if m["type"] != "state" && m["type"] != "update" {
                    continue;
                }
                over |= m["over"] == true;
                if let Some(a) = m["legal"].as_array().and_then(|l| l.last()) {
                    w.send(json!({"type":"act","seq":m["seq"],"action":a}))
                        .await;
                }
            }
        }
        let (status, record) = http(
            server.addr,
            "GET",
            &format!("/api/tables/{id}/record"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{record}");
        let (_, report) = http(
            server.addr,
            "POST",
            "/api/verify",
            Some(&record.to_string()),
        )
        .await;
        assert_eq!(report["ok"], true, "{report}");
        let text = report["checks"].to_string();
        assert!(
            text.contains(&"11".repeat(32)) && text.contains(&"22".repeat(32)),
            "{text}"
        );
    }
}

/// A client names bots, never their budgets: a search bot of ten minutes
/// a decision would hold the server's bot threads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_cannot_choose_bot_budgets() {
    let server = start_on(
        memory(),
        Limits {
            fill_after: Duration::ZERO,
            ..Limits::default()
        },
    )
    .await;
    for bot in [
        "search:600000ms",
        "search:10000000",
        "heuristic:5",
        "genius",
    ] {
        let body = json!({"game": "bigcheese", "players": 3,
                          "seats": [{"kind":"human"},{"kind":"bot","bot":bot},{"kind":"bot"}]});
        let (status, _, v) = request(server.addr, "POST", "/api/tables", &body.to_string()).await;
        assert_eq!(status, 400, "{bot}: {v}");
    }
    let t = create_full(
        server.addr,
        json!({"game": "bigcheese", "players": 3,
               "seats": [{"kind":"human"},{"kind":"human"},{"kind":"bot","bot":"search"}]}),
    )
    .await;
    let id = t["id"].as_str().unwrap();
    let fill = json!({"seat": "P2", "creator": t["creator"], "bot": "search:600000ms"});
    let (status, _, _) = request(
        server.addr,
        "POST",
        &format!("/api/tables/{id}/fill"),
        &fill.to_string(),
    )
    .await;
    assert_eq!(status, 400);
}

/// CPU spent on bots: a table where no person sits connected plays at the
/// server's minimum bot speed, whatever delay it asked for (a human who joined
/// and never came, watched by a spectator).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_without_a_person_present_plays_at_the_minimum_speed() {
    let server = start().await;
    let seats = json!([{"kind":"human"},{"kind":"bot"},{"kind":"bot"}]);
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "seats": seats, "bot_delay_ms": 0}),
    )
    .await;
    join(server.addr, &id, "P1").await;
    let _spectator = watch_for(server.addr, &id, Duration::from_millis(1000)).await;
    // The bots at the server's minimum speed; the person who never came
    // is not played for at all (no turn timer, nobody at the table
    // waiting for them).
    let seq = seq_of(server.addr, &id).await;
    assert!(seq <= 6, "one action per 200 ms at most, got {seq}");
}

/// Endless games and huge records: a game has at most `max_actions` actions (it
/// then ends abandoned); a record sent to be checked too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_and_checked_records_have_a_length_cap() {
    let server = start_on(
        memory(),
        Limits {
            max_actions: 5,
            ..Limits::unlimited()
        },
    )
    .await;
    let bots = json!([{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "seats": bots, "bot_delay_ms": 0}),
    )
    .await;
    let mut ws = Ws::connect(server.addr, &id).await;
    ws.send(json!({"type":"hello"})).await;
    let last = loop {
        let m = ws.next_of("state").await;
        if m["over"] == true {
            break m;
        }
    };
    assert_eq!(
        (last["seq"].as_u64(), last["abandoned"].as_bool()),
        (Some(5), Some(true))
    );
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["status"], "abandoned");
    let actions: Vec<String> = (0..6).map(|_| "P1 pass".to_string()).collect();
    let record = json!({"game":"bigcheese","rules_version":"bigcheese/1","players":3,
                        "options":{},"seed":"1","actions":actions});
    let (status, _, v) = request(server.addr, "POST", "/api/verify", &record.to_string()).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("at most 5"));
}

/// Creates a table with `X-Forwarded-For: forwarded`; the status.
async fn create_as(addr: SocketAddr, forwarded: &str) -> u16 {
    let body = json!({"game": "bigcheese"}).to_string();
    let header = format!("X-Forwarded-For: {forwarded}\r\n");
    request_with(addr, "POST", "/api/tables", &body, &header)
        .await
        .0
}

/// Behind a trusted load balancer, quotas count the client it names last
/// in `X-Forwarded-For` (not the balancer, not what the client claims
/// earlier in the header); from anyone else the header is ignored, so it
/// cannot be used to dodge a quota.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_counts_only_from_a_trusted_proxy() {
    let limits = Limits {
        create_burst: 1,
        create_every_s: 3600,
        ..Limits::default()
    };
    let (server, state) = start_state(memory(), limits).await;
    // Not trusted: one address, one table, whatever the header says.
    assert_eq!(create_as(server.addr, "10.0.0.1").await, 201);
    assert_eq!(create_as(server.addr, "10.0.0.2").await, 429);
    // Trusted: each forwarded client has its own quota; a client's own
    // claim before the proxy's entry changes nothing.
    drop((server, state));
    let (server, state) = start_state(memory(), limits).await;
    state.trust_proxies(vec!["127.0.0.1".parse().unwrap()]);
    assert_eq!(create_as(server.addr, "10.0.0.1").await, 201);
    assert_eq!(create_as(server.addr, "10.0.0.2").await, 201);
    assert_eq!(create_as(server.addr, "10.0.0.2").await, 429);
    assert_eq!(create_as(server.addr, "10.0.0.9, 10.0.0.2").await, 429);
}

/// A page reloaded in the middle of a timed turn is told the time left,
/// not the whole timer; an untimed table sends no such field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_state_tells_the_turn_time_left() {
    let server = start_fast().await;
    let timed = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "turn_timer_ms": 60000, "bot_delay_ms": 50,
               "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}),
    )
    .await;
    let token = join(server.addr, &timed, "P1").await;
    // The bots play until it is P1's turn; the table then waits for P1.
    let mut left = None;
    for _ in 0..100 {
        let mut ws = Ws::connect(server.addr, &timed).await;
        let st = ws.hello(Some(&token)).await;
        if st["to_move"] == "P1" {
            left = st["turn_left_ms"].as_u64();
            assert!(left.is_some(), "a timed turn of a person: {st}");
            break;
        }
        assert!(st.get("turn_left_ms").is_none(), "a bot to move: {st}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let left = left.expect("P1 got a turn");
    assert!(left <= 60000 && left > 30000, "{left} ms left");

    let untimed = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3,
               "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}),
    )
    .await;
    let token = join(server.addr, &untimed, "P1").await;
    let mut ws = Ws::connect(server.addr, &untimed).await;
    let st = ws.hello(Some(&token)).await;
    assert_eq!(st["type"], "state");
    assert!(st.get("turn_left_ms").is_none(), "{st}");
}
