//! Tutorial tables ("Learn to play", `POST /api/tutorial`) through a real
//! server: every tutorial of a game deals the same, published deal; it is
//! private, says it is a tutorial and that its seed is no fair deal; and
//! its result is recorded but never rated.

use super::util::*;
use serde_json::{json, Value};
use std::net::SocketAddr;

/// Opens a tutorial of `game` whose bots wait `delay` ms; the answer.
async fn tutorial(addr: SocketAddr, game: &str, delay: u64) -> Value {
    let body = json!({"game": game, "bot_delay_ms": delay}).to_string();
    let (status, v) = http(addr, "POST", "/api/tutorial", Some(&body)).await;
    assert_eq!(status, 201, "{v}");
    v
}

/// Joins P1 of tutorial `t` (the answer of [`tutorial`]) as a browser
/// does, with an identity key; the seat token.
async fn join_p1(addr: SocketAddr, t: &Value, player: &str) -> String {
    let id = t["id"].as_str().unwrap();
    let body = json!({"seat": "P1", "name": "Ann", "key": t["key"], "player": player,
                      "contribution": CONTRIBUTION})
    .to_string();
    let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// The published tutorial of `game` in `/api/games`.
async fn published(addr: SocketAddr, game: &str) -> Value {
    let (_, games) = http(addr, "GET", "/api/games", None).await;
    games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == game)
        .unwrap()["tutorial"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tutorials_of_a_game_deal_the_same_and_are_private() {
    let server = start_fast().await;
    let addr = server.addr;
    for game in ["bigcheese", "dalmuti"] {
        let desc = published(addr, game).await;
        let seed = desc["seed"].as_u64().unwrap();
        let mut views = Vec::new();
        for n in 0..2u8 {
            // (bots that wait long: the state is the deal, before any move)
            let t = tutorial(addr, game, 10_000).await;
            let id = t["id"].as_str().unwrap().to_string();
            assert!(t["key"].is_string(), "a tutorial is private: {t}");
            assert_eq!(
                t["seed_hash"],
                registry::fair::sha256_hex(&seed.to_string()).as_str(),
                "its commitment is the bare hash of the published seed"
            );
            let token = join_p1(addr, &t, &format!("{:02x}", 0x30 + n).repeat(32)).await;
            let (_, info) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
            assert_eq!(info["tutorial"], true, "{info}");
            assert_eq!(info["public"], false);
            assert_eq!(info["fair"], false, "a published seed is no fair deal");
            assert_eq!(info["players"], desc["players"]);
            assert!(info["turn_timer_ms"].is_null());
            let kinds: Vec<&str> = info["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["kind"].as_str().unwrap())
                .collect();
            assert_eq!(kinds[0], "human");
            assert!(kinds[1..].iter().all(|k| *k == "bot"), "{info}");
            let mut ws = Ws::connect(addr, &id).await;
            let state = ws.hello(Some(&token)).await;
            assert_eq!(state["seq"], 0, "{state}");
            views.push(state["view"].clone());
            // never in the lobby's lists
            let (_, list) = http(addr, "GET", "/api/tables", None).await;
            assert!(!list.to_string().contains(&id));
        }
        assert_eq!(views[0], views[1], "{game}: the same deal");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tutorial_is_recorded_and_never_rated() {
    let server = start_fast().await;
    let addr = server.addr;
    let t = tutorial(addr, "bigcheese", 0).await;
    let id = t["id"].as_str().unwrap().to_string();
    let ann = "4a".repeat(32);
    let token = join_p1(addr, &t, &ann).await;
    let mut ws = Ws::connect(addr, &id).await;
    let mut m = ws.hello(Some(&token)).await;
    // Ann takes her first legal action each time (pass, keep): the bots
    // play the game out.
    let mut acted = None;
    while m["over"] != true {
        let seq = m["seq"].as_u64().unwrap_or(0);
        let legal = m["legal"].as_array().cloned().unwrap_or_default();
        if m["type"] == "state" && m["to_move"] == "P1" && !legal.is_empty() && acted != Some(seq) {
            acted = Some(seq);
            ws.send(json!({"type": "act", "seq": seq, "action": legal[0]}))
                .await;
        }
        m = ws.next().await;
        if m["type"] == "error" {
            assert_eq!(m["code"], "stale", "{m}");
            acted = None;
            m = ws.next().await;
        }
    }
    // (long enough to be rated, were it not a tutorial)
    assert!(m["seq"].as_u64().unwrap() >= 30, "{m}");
    // The result is recorded (Ann's games show the winner), and nobody's
    // rating moved.
    let mut mine = Value::Null;
    for _ in 0..100 {
        let (_, _, v) = request_with(
            addr,
            "GET",
            "/api/me/games",
            "",
            &format!("X-Ratrace-Key: {ann}\r\n"),
        )
        .await;
        mine = v;
        if !mine["games"][0]["winners"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(mine["games"][0]["status"], "finished", "{mine}");
    assert_eq!(mine["ratings"], json!([]), "{mine}");
    let (_, board) = http(addr, "GET", "/api/leaderboard/bigcheese", None).await;
    assert_eq!(board["players"], json!([]), "{board}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_tutorial_is_refused() {
    let server = start_fast().await;
    let (status, v) = http(
        server.addr,
        "POST",
        "/api/tutorial",
        Some(r#"{"game":"chess"}"#),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let (status, _) = http(
        server.addr,
        "POST",
        "/api/tutorial",
        Some(r#"{"game":"dalmuti","bot_delay_ms":999999}"#),
    )
    .await;
    assert_eq!(status, 400);
}
