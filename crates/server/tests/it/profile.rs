//! A person's public profile through a real server: after rated games
//! alone with bots, `GET /api/players/{id}` shows the rated games at
//! public tables (counts, wins, mean place, a history point each, the
//! recent games), never a private table's; malformed ids are refused
//! (400), unknown ones not found (404).

use super::util::*;
use serde_json::{json, Value};
use server::Limits;
use std::net::SocketAddr;

/// An identity key as a browser makes it.
fn key(byte: u8) -> String {
    format!("{byte:02x}").repeat(32)
}

/// Plays a quick Big Cheese against two bots as the person with identity
/// key `player`, at a public table or not: the table and their place.
async fn solo_game(addr: SocketAddr, player: &str, public: bool) -> (String, u64) {
    let id = create(
        addr,
        json!({"game": "bigcheese", "players": 3, "options": {"target": 40},
               "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                         {"kind": "bot", "bot": "heuristic"}],
               "public": public, "bot_delay_ms": 1}),
    )
    .await;
    let body = json!({"seat": "P1", "name": "Solo", "key": key_of(&id), "player": player,
                      "contribution": CONTRIBUTION})
    .to_string();
    let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(addr, &id).await;
    let hello = ws.hello(Some(&token)).await;
    let last = super::play::play_to_end(&mut ws, "P1", hello).await;
    let place = last["outcome"]["places"][0]
        .as_u64()
        .unwrap_or_else(|| panic!("{last}"));
    (id, place)
}

/// The person's rated games so far, by `GET /api/me/games`, once `n`.
async fn rated(addr: SocketAddr, player: &str, n: u64) -> Value {
    for _ in 0..200 {
        let (_, _, mine) = request_with(
            addr,
            "GET",
            "/api/me/games",
            "",
            &format!("X-Ratrace-Key: {player}\r\n"),
        )
        .await;
        if mine["ratings"][0]["games"] == n {
            return mine;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never rated {n} games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_shows_public_rated_games_and_never_a_private_one() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let addr = server.addr;
    let solo = key(0x6b);
    let (first, p1) = solo_game(addr, &solo, true).await;
    let (hidden, _) = solo_game(addr, &solo, false).await;
    let (second, p2) = solo_game(addr, &solo, true).await;
    let mine = rated(addr, &solo, 3).await;
    let short = mine["player"].as_str().unwrap().to_string();
    let (status, p) = http(addr, "GET", &format!("/api/players/{short}"), None).await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["player"], short.as_str());
    assert_eq!(p["name"], "Solo");
    let text = p.to_string();
    assert!(!text.contains(&solo), "never the key");
    assert!(
        !text.contains(hidden.as_str()),
        "never the private table: {p}"
    );
    let r = &p["ratings"][0];
    assert_eq!(r["game"], "bigcheese");
    assert_eq!(r["games"], 3, "the leaderboard's count: {r}");
    assert_eq!(r["public_games"], 2, "{r}");
    let tables: Vec<&str> = r["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["table"].as_str().unwrap())
        .collect();
    assert_eq!(tables, [first.as_str(), second.as_str()], "oldest first");
    assert_eq!(
        r["history"][1]["rating"], r["rating"],
        "the newest point is the rating"
    );
    let places = [
        r["history"][0]["place"].as_u64(),
        r["history"][1]["place"].as_u64(),
    ];
    assert_eq!(places, [Some(p1), Some(p2)]);
    let stats = &r["stats"];
    assert_eq!(stats["games"], 2);
    let wins = u64::from(p1 == 1) + u64::from(p2 == 1);
    assert_eq!(stats["wins"], wins);
    let mean = (p1 + p2) as f64 / 2.0;
    assert!(
        (stats["mean_place"].as_f64().unwrap() - mean).abs() < 1e-9,
        "{stats}"
    );
    assert_eq!(stats["seats"][0]["seat"], 0);
    assert_eq!(stats["seats"][0]["games"], 2);
    let mut games: Vec<&str> = p["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    games.sort_unstable();
    let mut public = [first.as_str(), second.as_str()];
    public.sort_unstable();
    assert_eq!(games, public, "the public games only");
    assert_eq!(p["tournaments"], json!([]));
    // the table list names the seat's profile by the short id, never the whole id
    let whole = server::social::player_id(&solo).unwrap();
    let (_, list) = http(addr, "GET", "/api/tables", None).await;
    let line = list
        .as_array()
        .unwrap()
        .iter()
        .find(|tb| tb["id"] == first.as_str())
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(line["seats"][0]["player"], short.as_str(), "{line}");
    assert!(line["seats"][1].get("player").is_none(), "a bot has none: {line}");
    assert!(!list.to_string().contains(whole.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_id_is_checked_strictly() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let addr = server.addr;
    let long = "a".repeat(5000);
    for bad in [
        "0123abc",
        "0123abcd0",
        "0123ABCD",
        "0123abcg",
        "%20123abcd",
        long.as_str(),
    ] {
        let (status, v) = http(addr, "GET", &format!("/api/players/{bad}"), None).await;
        assert_eq!(status, 400, "{bad}: {v}");
        assert_eq!(v["error"]["code"], "bad_input", "{v}");
    }
    let (status, v) = http(addr, "GET", "/api/players/0123abcd", None).await;
    assert_eq!(status, 404, "{v}");
    assert_eq!(v["error"]["code"], "unknown_player", "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profiles_are_metered_like_game_lists() {
    let limits = Limits {
        record_burst: 2,
        record_every_s: 3600,
        ..Limits::unlimited()
    };
    let (server, _state) = start_state(fresh_store().await, limits).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (status, _) = http(server.addr, "GET", "/api/players/0123abcd", None).await;
        statuses.push(status);
    }
    assert_eq!(statuses, [404, 404, 429, 429]);
}
