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

/// The person's rated games so far, by `GET /api/me/games`, once `n`
/// (within 30 s: the whole suite on two cores once took over 10).
async fn rated(addr: SocketAddr, player: &str, n: u64) -> Value {
    for _ in 0..600 {
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
    assert!(
        line["seats"][1].get("player").is_none(),
        "a bot has none: {line}"
    );
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

/// Records `n` rated games of the person `player` (whole id) against two
/// bots at public tables straight into `store`, a second apart.
fn record_games(store: &dyn server::store::Store, player: &str, n: usize) {
    use server::store::ratings::{GameResult, Rated, MIN_RATED_ACTIONS};
    use server::store::{
        Access, SeatKind, SeatTaking, Social, StoredAction, StoredSeat, StoredTable, TableConfig,
    };
    for i in 0..n {
        let id = format!("bulk{i:04}");
        let at = 1_000 + i as i64;
        let seat = |s: usize, kind: SeatKind| StoredSeat {
            seat: game::Seat::new(s),
            kind,
        };
        let table = StoredTable {
            id: id.clone(),
            game: "bigcheese".to_string(),
            rules_version: "bigcheese/1".to_string(),
            players: 3,
            options: [("dice".to_string(), "d6".to_string())].into(),
            seed: u64::MAX.into(),
            seed_hash: "abc".to_string(),
            fair: None,
            config: TableConfig::default(),
            created_at: at,
            finished_at: None,
            seats: vec![
                seat(
                    0,
                    SeatKind::Human {
                        name: None,
                        token_hash: None,
                    },
                ),
                seat(1, SeatKind::Bot("random".to_string())),
                seat(2, SeatKind::Bot("random".to_string())),
            ],
            actions: Vec::new(),
            access: Access {
                public: true,
                ..Access::default()
            },
            social: Social::default(),
        };
        store.create_table(&table, "node").unwrap();
        assert!(store
            .take_seat_as(SeatTaking {
                player: Some(player.to_string()),
                ..SeatTaking::person(&id, game::Seat::new(0), "Bulk", "h", 1)
            })
            .unwrap());
        let pass = StoredAction {
            seq: 1,
            seat: game::Seat::new(0),
            action: "pass".to_string(),
            stand_in: false,
        };
        store.append_action(&id, &pass, at, true, 1).unwrap();
        let result = GameResult {
            game: "bigcheese".to_string(),
            outcome: r#"{"winners":[],"places":[],"scores":[],"capped":false}"#.to_string(),
            places: if i % 2 == 0 {
                vec![1, 2, 3]
            } else {
                vec![3, 2, 1]
            },
            capped: false,
            seats: vec![
                Rated::Person {
                    id: player.to_string(),
                    name: "Bulk".to_string(),
                    origin: None,
                },
                Rated::Bot("random".to_string()),
                Rated::Bot("random".to_string()),
            ],
            at,
            public: true,
            actions: MIN_RATED_ACTIONS,
            engaged: Vec::new(),
            tutorial: false,
        };
        assert!(store.record_result(&id, &result).unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_history_is_thinned_and_recent_games_capped() {
    // the games are written before a server runs on the store: a running
    // server abandons unfinished tables this old (1970) as it finds them,
    // and took the seat of one away from under the writing once
    let store = fresh_store().await;
    let player = "abcdef01".repeat(8);
    let (writer, p) = (store.clone(), player.clone());
    tokio::task::spawn_blocking(move || record_games(writer.as_ref(), &p, 250))
        .await
        .unwrap();
    let (server, _state) = start_state(store, Limits::unlimited()).await;
    let (status, v) = http(server.addr, "GET", "/api/players/abcdef01", None).await;
    assert_eq!(status, 200, "{v}");
    let r = &v["ratings"][0];
    assert_eq!(r["games"], 250);
    assert_eq!(r["public_games"], 250);
    assert_eq!(r["stats"]["games"], 250);
    assert_eq!(r["stats"]["wins"], 125);
    assert!((r["stats"]["mean_place"].as_f64().unwrap() - 2.0).abs() < 1e-9);
    let h = r["history"].as_array().unwrap();
    assert_eq!(h.len(), 100, "thinned to 100 points");
    assert_eq!(h[0]["table"], "bulk0000", "the first kept");
    assert_eq!(h[99]["table"], "bulk0249", "the newest kept");
    assert_eq!(h[99]["rating"], r["rating"]);
    assert_eq!(
        v["games"].as_array().unwrap().len(),
        20,
        "recent games capped"
    );
    assert_eq!(v["games"][0]["id"], "bulk0249", "newest first");
}
