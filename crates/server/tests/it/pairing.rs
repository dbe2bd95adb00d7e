//! Quick pairing ("Play now") against a real server: people with the same
//! preset share a table, each with their own seat token; presets do not
//! mix; one alone gets bots after the wait; cancel and expiry remove a
//! ticket; and every bound answers with a clear error and changes nothing.

use super::util::*;
use serde_json::{json, Value};
use server::{AppState, Limits};
use std::net::SocketAddr;
use std::time::Duration;

/// An identity key for person `n`.
fn key(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

fn ask(preset: &str, name: &str, n: u8, wait_s: u64) -> String {
    json!({"preset": preset, "name": name, "player": key(n), "wait_s": wait_s,
           "contribution": CONTRIBUTION})
    .to_string()
}

async fn play_now(addr: SocketAddr, from: [u8; 4], body: &str) -> (u16, Value) {
    http_from(addr, from, "POST", "/api/pairing", Some(body)).await
}

/// Asks about `ticket` until it is no longer waiting (or seating).
async fn settled(addr: SocketAddr, ticket: &str) -> Value {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        let (status, v) = http(addr, "GET", &format!("/api/pairing/{ticket}"), None).await;
        assert_eq!(status, 200, "{v}");
        if v["status"] != "waiting" && v["status"] != "seating" {
            return v;
        }
        assert!(tokio::time::Instant::now() < deadline, "still {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn server(limits: Limits) -> (Server, AppState) {
    start_state(fresh_store().await, limits).await
}

#[tokio::test]
async fn two_people_with_one_preset_share_a_table_with_their_own_seats() {
    let (s, _state) = server(Limits::unlimited()).await;
    let (st, a) = play_now(
        s.addr,
        [127, 0, 0, 2],
        &ask("bigcheese-3-casual", "Ann", 1, 60),
    )
    .await;
    assert_eq!(st, 201, "{a}");
    assert_eq!(a["status"], "waiting");
    assert_eq!(a["here"], 1);
    assert_eq!(a["players"], 3);
    // Another preset waits in its own pool.
    let (st, other) = play_now(s.addr, [127, 0, 0, 4], &ask("bigcheese-4", "Cy", 3, 60)).await;
    assert_eq!(st, 201, "{other}");
    assert_eq!(other["here"], 1);
    let (st, b) = play_now(
        s.addr,
        [127, 0, 0, 3],
        &ask("bigcheese-3-casual", "Bea", 2, 60),
    )
    .await;
    assert_eq!(st, 201, "{b}");
    assert_eq!(b["here"], 2);
    // A third arrives: the pool is full, and the three sit down at once.
    let (st, c) = play_now(
        s.addr,
        [127, 0, 0, 5],
        &ask("bigcheese-3-casual", "Dee", 5, 60),
    )
    .await;
    assert_eq!(st, 201, "{c}");
    let mut tables = Vec::new();
    let mut seats = Vec::new();
    for t in [&a, &b, &c] {
        let v = settled(s.addr, t["ticket"].as_str().unwrap()).await;
        assert_eq!(v["status"], "seated", "{v}");
        tables.push(v["table"].as_str().unwrap().to_string());
        seats.push(v["seat"].as_str().unwrap().to_string());
        // The token opens that seat.
        let mut ws = Ws::connect(s.addr, &tables[0]).await;
        let state = ws.hello(v["token"].as_str()).await;
        assert_eq!(state["seat"], v["seat"], "{state}");
    }
    assert!(tables.iter().all(|t| *t == tables[0]));
    assert_eq!(seats, ["P1", "P2", "P3"]);
    let (_, info) = http(s.addr, "GET", &format!("/api/tables/{}", tables[0]), None).await;
    assert_eq!(info["public"], false);
    assert!(info["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["kind"] == "human"));
    // The other preset's person still waits, alone.
    let (_, v) = http(
        s.addr,
        "GET",
        &format!("/api/pairing/{}", other["ticket"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(v["status"], "waiting", "{v}");
    assert_eq!(v["here"], 1);
}

/// A long poll (`?wait=1`) is answered as soon as the wait changes.
#[tokio::test]
async fn a_long_poll_answers_when_someone_comes() {
    let (s, _state) = server(Limits::unlimited()).await;
    let (_, a) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 1, 60)).await;
    let path = format!("/api/pairing/{}?wait=1", a["ticket"].as_str().unwrap());
    let addr = s.addr;
    let held = tokio::spawn(async move {
        let asked = std::time::Instant::now();
        let (status, v) = http(addr, "GET", &path, None).await;
        (status, v, asked.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!held.is_finished(), "nothing changed: the answer is held");
    play_now(s.addr, [127, 0, 0, 3], &ask("bigcheese-4", "Bea", 2, 60)).await;
    let (status, v, took) = held.await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(v["here"], 2, "{v}");
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[tokio::test]
async fn one_alone_is_seated_with_bots_after_the_wait() {
    let (s, _state) = server(Limits::unlimited()).await;
    let body = json!({"preset": "dalmuti-5", "name": "Ann", "player": key(1), "wait_s": 5,
                      "bot": "random"})
    .to_string();
    let (st, a) = play_now(s.addr, [127, 0, 0, 2], &body).await;
    assert_eq!(st, 201, "{a}");
    assert!(a["bots_in_ms"].as_u64().unwrap() <= 5000);
    let started = std::time::Instant::now();
    let v = settled(s.addr, a["ticket"].as_str().unwrap()).await;
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(v["status"], "seated", "{v}");
    assert_eq!(v["seat"], "P1");
    let (_, info) = http(
        s.addr,
        "GET",
        &format!("/api/tables/{}", v["table"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(info["public"], true);
    let seats = info["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 5);
    assert_eq!(seats[0]["kind"], "human");
    assert!(
        seats[1..]
            .iter()
            .all(|x| x["kind"] == "bot" && x["bot"] == "random"),
        "{info}"
    );
}

#[tokio::test]
async fn cancel_removes_the_ticket_and_frees_the_identity() {
    let (s, _state) = server(Limits::unlimited()).await;
    let (_, a) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 1, 60)).await;
    let path = format!("/api/pairing/{}", a["ticket"].as_str().unwrap());
    let (st, _) = http(s.addr, "DELETE", &path, None).await;
    assert_eq!(st, 204);
    let (st, v) = http(s.addr, "GET", &path, None).await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (404, Some("unknown_ticket"))
    );
    let (st, again) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 1, 60)).await;
    assert_eq!(st, 201, "{again}");
    assert_eq!(again["here"], 1);
}

#[tokio::test]
async fn an_abandoned_ticket_expires() {
    let limits = Limits {
        pairing_heartbeat: Duration::from_secs(1),
        ..Limits::unlimited()
    };
    let (s, _state) = server(limits).await;
    let (_, a) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 1, 60)).await;
    let (_, b) = play_now(s.addr, [127, 0, 0, 3], &ask("bigcheese-4", "Bea", 2, 60)).await;
    let bpath = format!("/api/pairing/{}", b["ticket"].as_str().unwrap());
    // Bea keeps asking; Ann's page is gone.
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (st, _) = http(s.addr, "GET", &bpath, None).await;
        assert_eq!(st, 200);
    }
    let (st, v) = http(
        s.addr,
        "GET",
        &format!("/api/pairing/{}", a["ticket"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (404, Some("unknown_ticket")),
        "{v}"
    );
    let (_, v) = http(s.addr, "GET", &bpath, None).await;
    assert_eq!(v["here"], 1, "{v}");
}

/// Each bound: a clear error, and the pool as it was.
#[tokio::test]
async fn every_bound_refuses_clearly_and_changes_nothing() {
    let limits = Limits {
        pairing_pool_size: 3,
        pairing_tickets_per_ip: 2,
        ..Limits::unlimited()
    };
    let (s, _state) = server(limits).await;
    let (st, first) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 1, 60)).await;
    assert_eq!(st, 201, "{first}");
    let here = || async {
        let (_, v) = http(
            s.addr,
            "GET",
            &format!("/api/pairing/{}", first["ticket"].as_str().unwrap()),
            None,
        )
        .await;
        v["here"].as_u64().unwrap()
    };
    let refused = |status: u16, code: &'static str, v: Value| {
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (status, Some(code)),
            "{v}"
        );
    };
    // The same identity again, even from elsewhere and for another preset.
    let (st, v) = play_now(s.addr, [127, 0, 0, 9], &ask("dalmuti-5", "Ann", 1, 60)).await;
    assert_eq!(st, 409);
    refused(st, "already_waiting", v);
    // An address's tickets.
    let (st, _) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Bea", 2, 60)).await;
    assert_eq!(st, 201);
    let (st, v) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Cy", 3, 60)).await;
    assert_eq!(st, 429);
    refused(st, "rate_limited", v);
    // The pool's size.
    let (st, _) = play_now(s.addr, [127, 0, 0, 3], &ask("bigcheese-4", "Dee", 4, 60)).await;
    assert_eq!(st, 201);
    assert_eq!(here().await, 3);
    let (st, v) = play_now(s.addr, [127, 0, 0, 4], &ask("bigcheese-4", "Eve", 5, 60)).await;
    assert_eq!(st, 429);
    refused(st, "rate_limited", v);
    // An unknown preset, wait, bot; a bad identity or name; malformed,
    // unknown fields, oversized.
    let bad = [
        json!({"preset": "chess", "name": "Fay", "player": key(6)}).to_string(),
        json!({"preset": "dalmuti-5", "name": "Fay", "player": key(6), "wait_s": 7}).to_string(),
        json!({"preset": "dalmuti-5", "name": "Fay", "player": key(6), "bot": "oracle"})
            .to_string(),
        json!({"preset": "dalmuti-5", "name": "Fay", "player": "abc"}).to_string(),
        json!({"preset": "dalmuti-5", "name": "heuristic bot", "player": key(6)}).to_string(),
        json!({"preset": "dalmuti-5", "name": "Fay", "player": key(6), "seat": "P1"}).to_string(),
        "{\"preset\": ".to_string(),
    ];
    for body in &bad {
        let (st, v) = play_now(s.addr, [127, 0, 0, 5], body).await;
        assert_eq!(st, 400, "{body}: {v}");
        refused(st, "bad_input", v);
    }
    let huge =
        json!({"preset": "dalmuti-5", "name": "x".repeat(4000), "player": key(6)}).to_string();
    let (st, v) = play_now(s.addr, [127, 0, 0, 5], &huge).await;
    assert_eq!(st, 413, "{v}");
    // Nothing changed: the pool holds the same three, and Fay, refused
    // every time, may still join another pool.
    assert_eq!(here().await, 3);
    let (st, v) = play_now(s.addr, [127, 0, 0, 5], &ask("dalmuti-5", "Fay", 6, 60)).await;
    assert_eq!(st, 201, "{v}");
    // A ticket id that is no ticket.
    for path in [
        "/api/pairing/nope",
        &format!("/api/pairing/{}", "0".repeat(64)),
    ] {
        let (st, v) = http(s.addr, "GET", path, None).await;
        assert_eq!(st, 404, "{v}");
        let (st, _) = http(s.addr, "DELETE", path, None).await;
        assert_eq!(st, 404);
    }
}

/// New tickets are metered per address (the joins' quota, its own bucket).
#[tokio::test]
async fn new_tickets_are_metered_per_address() {
    let limits = Limits {
        join_burst: 2,
        join_every_s: 60,
        ..Limits::default()
    };
    let (s, _state) = server(limits).await;
    for n in 1..=2 {
        let (_, v) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", n, 60)).await;
        let path = format!("/api/pairing/{}", v["ticket"].as_str().unwrap());
        assert_eq!(http(s.addr, "DELETE", &path, None).await.0, 204);
    }
    let (st, v) = play_now(s.addr, [127, 0, 0, 2], &ask("bigcheese-4", "Ann", 3, 60)).await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{v}"
    );
    let (st, _) = play_now(s.addr, [127, 0, 0, 3], &ask("bigcheese-4", "Bea", 4, 60)).await;
    assert_eq!(st, 201);
}

/// `/api/games` declares the presets and the waits.
#[tokio::test]
async fn the_games_declare_their_presets() {
    let (s, _state) = server(Limits::default()).await;
    let (_, games) = http(s.addr, "GET", "/api/games", None).await;
    for g in games.as_array().unwrap() {
        let presets = g["pairing"].as_array().unwrap();
        assert!(!presets.is_empty(), "{g}");
        for p in presets {
            assert!(p["id"]
                .as_str()
                .unwrap()
                .starts_with(g["name"].as_str().unwrap()));
        }
        assert!(g["pairing_waits_s"].as_array().unwrap().contains(&json!(5)));
        assert_eq!(g["pairing_wait_s"], 20);
    }
}
