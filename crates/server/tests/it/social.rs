//! The social side of a table, through a real server:
//! the rematch that brings every player, the in-table chat and its limits,
//! the identity key, "my games", the lobby's finished games and ratings.
//! Run on SQLite, and on PostgreSQL with `RATRACE_IT_BACKEND=postgres`.

use super::util::*;
use serde_json::{json, Value};
use server::Limits;
use std::net::SocketAddr;

/// A Big Cheese table of two people (P1, P2) and a bot (P3), quick to end.
async fn two_humans(addr: SocketAddr, extra: Value) -> String {
    let mut body = json!({"game": "bigcheese", "players": 3,
        "options": {"target": 10},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "bot_delay_ms": 1});
    if let Value::Object(m) = extra {
        for (k, v) in m {
            body[k] = v;
        }
    }
    create(addr, body).await
}

/// Plays table `id` to its end, each of the people holding `tokens`
/// from a connection of their own (a stand-in plays for a person who is
/// away only on a timer, never because somebody watches), choosing among
/// their legal actions by the position (always the first would let two
/// people keep a Big Cheese game going to the length cap); the last
/// state.
async fn watch_to_end(addr: SocketAddr, id: &str, tokens: &[&str]) -> Value {
    let mut players = Vec::new();
    for token in tokens {
        let (id, token) = (id.to_string(), token.to_string());
        players.push(tokio::spawn(async move {
            let mut ws = Ws::connect(addr, &id).await;
            let mut m = ws.hello(Some(&token)).await;
            let seat = m["seat"].as_str().unwrap().to_string();
            let mut acted = None;
            while m["over"] != true {
                let seq = m["seq"].as_u64().unwrap_or(0);
                let legal = m["legal"].as_array().cloned().unwrap_or_default();
                if m["type"] == "state"
                    && m["to_move"] == seat.as_str()
                    && !legal.is_empty()
                    && acted != Some(seq)
                {
                    acted = Some(seq);
                    let pick = &legal[(seq as usize * 7 + 3) % legal.len()];
                    ws.send(json!({"type": "act", "seq": seq, "action": pick}))
                        .await;
                }
                m = ws.next().await;
                if m["type"] == "error" {
                    assert_eq!(m["code"], "stale", "{m}");
                    acted = None;
                    m = ws.next().await;
                }
            }
            m
        }));
    }
    let mut last = Value::Null;
    for p in players {
        last = p.await.unwrap();
    }
    last
}

/// The next message of type `kind`, or `None` if the connection answers a
/// ping first (so nothing of that kind was queued before it).
async fn next_before_pong(ws: &mut Ws, kind: &str) -> Option<Value> {
    ws.send(json!({"type": "ping"})).await;
    loop {
        let m = ws.next().await;
        if m["type"] == kind {
            return Some(m);
        }
        if m["type"] == "pong" {
            return None;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_brings_every_player_each_with_their_own_token() {
    let server = start_fast().await;
    let addr = server.addr;
    let id = two_humans(addr, json!({})).await;
    let p1 = join(addr, &id, "P1").await;
    let p2 = join(addr, &id, "P2").await;
    let (_, before) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;

    // Not before the end.
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&json!({"token": p1}).to_string()),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over"))
    );

    let last = watch_to_end(addr, &id, &[&p1, &p2]).await;
    assert!(last["outcome"].is_object(), "{last}");

    // P1 and a spectator are connected; P2 is away.
    let mut ws1 = Ws::connect(addr, &id).await;
    assert_eq!(ws1.hello(Some(&p1)).await["seat"], "P1");
    let mut watcher = Ws::connect(addr, &id).await;
    watcher.hello(None).await;

    // Only a seated player may ask: not a stranger, not a made-up token.
    for token in [json!("0".repeat(64)), json!(""), json!("x".repeat(200))] {
        let (status, v) = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/rematch"),
            Some(&json!({ "token": token }).to_string()),
        )
        .await;
        assert!(status == 403 || status == 400, "{status} {v}");
    }
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(r#"{"token": 5}"#),
    )
    .await;
    assert_eq!(status, 400);

    let (status, made) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&json!({"token": p1}).to_string()),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let new = made["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    assert_eq!(made["seat"], "P1");
    assert_eq!(made["token"], p1.as_str());

    // A second click, by anyone seated, gives the same table.
    for token in [&p1, &p2] {
        let (status, again) = http(
            addr,
            "POST",
            &format!("/api/tables/{id}/rematch"),
            Some(&json!({ "token": token }).to_string()),
        )
        .await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["id"], new.as_str());
        assert_eq!(again["token"], token.as_str());
    }

    // The connected player is told, with its own token and never P2's.
    let (raw, told) = loop {
        let (raw, m) = ws1.next_with_raw().await;
        if m["type"] == "rematch" {
            break (raw, m);
        }
    };
    assert_eq!(told["table"], new.as_str());
    assert_eq!(told["seat"], "P1");
    assert_eq!(told["token"], p1.as_str());
    assert_eq!(told["live"], true, "told as it was made: {told}");
    assert!(!raw.contains(&p2), "P1 was sent P2's token: {raw}");
    // A spectator hears where to watch, with no token.
    let (raw, seen) = loop {
        let (raw, m) = watcher.next_with_raw().await;
        if m["type"] == "rematch" {
            break (raw, m);
        }
    };
    assert_eq!(seen["table"], new.as_str());
    assert!(
        seen.get("token").is_none() && seen.get("seat").is_none(),
        "{seen}"
    );
    assert!(!raw.contains(&p1) && !raw.contains(&p2));

    // P2, offline then, hears it on reconnecting, with its own token.
    let mut ws2 = Ws::connect(addr, &id).await;
    assert_eq!(ws2.hello(Some(&p2)).await["seat"], "P2");
    let (raw, told) = loop {
        let (raw, m) = ws2.next_with_raw().await;
        if m["type"] == "rematch" {
            break (raw, m);
        }
    };
    assert_eq!(told["live"], false, "told on arrival: {told}");
    assert_eq!(
        (told["seat"].as_str(), told["token"].as_str()),
        (Some("P2"), Some(p2.as_str()))
    );
    assert!(!raw.contains(&p1), "P2 was sent P1's token: {raw}");

    // The new table: the same game, options and seats, a new commitment.
    let (_, info) = http(addr, "GET", &format!("/api/tables/{new}"), None).await;
    assert_eq!(info["game"], "bigcheese");
    assert_eq!(info["options"], before["options"]);
    assert_eq!(info["players"], 3);
    assert_ne!(info["seed_hash"], before["seed_hash"]);
    let kinds = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["kind"].clone(), s["bot"].clone(), s["name"].clone()))
            .collect()
    };
    assert_eq!(kinds(&info), kinds(&before));
    // Every seat is taken: nobody else can join it.
    let body = json!({"name": "Eve", "key": key_of(&id)}).to_string();
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/tables/{new}/join"),
        Some(&body),
    )
    .await;
    assert_eq!(status, 409);
    // It deals once each person arrives with a contribution of their own.
    assert_eq!(info["status"], "open");
    let mut n1 = Ws::connect(addr, &new).await;
    n1.send(json!({"type": "hello", "token": p1, "contribution": "11".repeat(32)}))
        .await;
    let s1 = n1.next_of("state").await;
    assert_eq!(
        (s1["seat"].as_str(), s1["started"].as_bool()),
        (Some("P1"), Some(false))
    );
    // A hello without a contribution does not start it.
    let mut n2 = Ws::connect(addr, &new).await;
    let s2 = n2.hello(Some(&p2)).await;
    assert_eq!(
        (s2["seat"].as_str(), s2["started"].as_bool()),
        (Some("P2"), Some(false))
    );
    drop(n2);
    let mut n2 = Ws::connect(addr, &new).await;
    n2.send(json!({"type": "hello", "token": p2, "contribution": "22".repeat(32)}))
        .await;
    let mut m = n2.next_of("state").await;
    while m["started"] != true {
        m = n2.next().await;
    }
    assert_eq!(m["seat"], "P2");
    assert!(m["seed"].is_null());
    let (_, info) = http(addr, "GET", &format!("/api/tables/{new}"), None).await;
    assert_eq!(info["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_metered_like_a_new_table() {
    let limits = Limits {
        create_burst: 2,
        create_every_s: 3600,
        rate_limit: 1000,
        rate_close: 1000,
        min_bot_delay_ms: 0,
        ..Limits::default()
    };
    let server = start_on(fresh_store().await, limits).await;
    let addr = server.addr;
    let id = two_humans(addr, json!({})).await;
    let p1 = join(addr, &id, "P1").await;
    let p2 = join(addr, &id, "P2").await;
    watch_to_end(addr, &id, &[&p1, &p2]).await;
    let ask = || async {
        http(
            addr,
            "POST",
            &format!("/api/tables/{id}/rematch"),
            Some(&json!({"token": p1}).to_string()),
        )
        .await
    };
    assert_eq!(ask().await.0, 200);
    let (status, v) = ask().await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
}

/// A quiet table of two seated people (bots slow), both connected, and a
/// spectator: (P1, P2, spectator) after their first states.
async fn chat_table(addr: SocketAddr) -> (String, Ws, Ws, Ws, String) {
    let id = two_humans(addr, json!({"bot_delay_ms": 10000})).await;
    let p1 = join(addr, &id, "P1").await;
    let p2 = join(addr, &id, "P2").await;
    let mut ws1 = Ws::connect(addr, &id).await;
    ws1.hello(Some(&p1)).await;
    let mut ws2 = Ws::connect(addr, &id).await;
    ws2.hello(Some(&p2)).await;
    let mut watcher = Ws::connect(addr, &id).await;
    watcher.hello(None).await;
    (id, ws1, ws2, watcher, p2)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_chat_cleaned_and_capped_and_spectators_do_not() {
    let server = start().await;
    let addr = server.addr;
    let (id, mut ws1, mut ws2, mut watcher, p2) = chat_table(addr).await;

    ws1.send(json!({"type": "chat", "text": " hello\u{202E} \n there\u{200B}\u{0007} "}))
        .await;
    let got = ws2.next_of("chat").await;
    let line = &got["messages"][0];
    assert_eq!(line["text"], "hello there");
    assert_eq!(
        (line["seat"].as_str(), line["name"].as_str()),
        (Some("P1"), Some("player P1"))
    );
    assert_eq!(
        ws1.next_of("chat").await["messages"][0]["text"],
        "hello there"
    );
    ws2.send(json!({"type": "chat", "emote": "gg"})).await;
    assert_eq!(ws1.next_of("chat").await["messages"][0]["emote"], "gg");
    // The spectator reads nothing and may not write.
    assert!(next_before_pong(&mut watcher, "chat").await.is_none());
    watcher.send(json!({"type": "chat", "text": "psst"})).await;
    let e = watcher.next_of("error").await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert!(next_before_pong(&mut ws1, "chat").await.is_none());

    // Over-long, invisible-only, unknown emotes, both fields: refused (and
    // counted against the sender's chat budget: 5 at once).
    for (i, bad) in [
        json!({"type": "chat", "text": "x".repeat(201)}),
        json!({"type": "chat", "text": "\u{200B}\u{202E}\u{2066} \n"}),
        json!({"type": "chat", "emote": "<img src=x>"}),
        json!({"type": "chat", "text": "hi", "emote": "gg"}),
        json!({"type": "chat"}),
    ]
    .into_iter()
    .enumerate()
    {
        let ws = if i < 3 { &mut ws1 } else { &mut ws2 };
        ws.send(bad.clone()).await;
        let e = ws.next_of("error").await;
        assert_eq!(e["code"], "bad_input", "{bad}: {e}");
    }
    assert!(next_before_pong(&mut ws2, "chat").await.is_none());
    // 200 visible characters pass.
    ws1.send(json!({"type": "chat", "text": "é".repeat(200)}))
        .await;
    assert_eq!(
        ws2.next_of("chat").await["messages"][0]["text"],
        "é".repeat(200)
    );

    // A newcomer (P2 again) gets what was said, as a history.
    drop(ws2);
    let mut again = Ws::connect(addr, &id).await;
    again.hello(Some(&p2)).await;
    let history = again.next_of("chat").await;
    assert_eq!(history["history"], true);
    let texts: Vec<Value> = history["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].clone())
        .collect();
    assert_eq!(texts[0], "hello there");
    assert_eq!(texts.len(), 3);
    // A spectator coming in gets none.
    let mut late = Ws::connect(addr, &id).await;
    late.hello(None).await;
    assert!(next_before_pong(&mut late, "chat").await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_is_rate_limited_per_seat() {
    let server = start().await;
    let addr = server.addr;
    let (_id, mut ws1, mut ws2, _watcher, _) = chat_table(addr).await;
    // A burst of 5 passes; the rest, within the same seconds, are refused.
    for i in 0..8 {
        ws1.send(json!({"type": "chat", "text": format!("spam {i}")}))
            .await;
    }
    let mut said = 0;
    let mut refused = 0;
    while said + refused < 8 {
        let m = ws1.next().await;
        match m["type"].as_str() {
            Some("chat") => said += 1,
            Some("error") => {
                assert_eq!(m["code"], "rate_limited", "{m}");
                refused += 1;
            }
            _ => {}
        }
    }
    assert_eq!((said, refused), (5, 3));
    // The others got only what passed; another seat has its own budget.
    for i in 0..5 {
        assert_eq!(
            ws2.next_of("chat").await["messages"][0]["text"],
            format!("spam {i}")
        );
    }
    ws2.send(json!({"type": "chat", "emote": "oops"})).await;
    assert_eq!(ws1.next_of("chat").await["messages"][0]["emote"], "oops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_may_let_spectators_chat() {
    let server = start().await;
    let addr = server.addr;
    let id = two_humans(addr, json!({"spectator_chat": true, "bot_delay_ms": 10000})).await;
    let p1 = join(addr, &id, "P1").await;
    let mut ws1 = Ws::connect(addr, &id).await;
    ws1.hello(Some(&p1)).await;
    let mut watcher = Ws::connect(addr, &id).await;
    watcher.hello(None).await;
    watcher.send(json!({"type": "chat", "text": "go P1"})).await;
    let line = ws1.next_of("chat").await;
    assert_eq!(line["messages"][0]["text"], "go P1");
    assert!(line["messages"][0]["seat"].is_null());
    assert_eq!(
        watcher.next_of("chat").await["messages"][0]["text"],
        "go P1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rematch_link_survives_a_restart_for_the_player_who_was_away() {
    let store = fresh_store().await;
    let (first, state) = start_state(store.clone(), Limits::unlimited()).await;
    let id = two_humans(first.addr, json!({})).await;
    let p1 = join(first.addr, &id, "P1").await;
    let p2 = join(first.addr, &id, "P2").await;
    watch_to_end(first.addr, &id, &[&p1, &p2]).await;
    let (status, made) = http(
        first.addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&json!({"token": p1}).to_string()),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let new = made["id"].as_str().unwrap().to_string();
    state.close();
    drop(first);

    // Stored both ways, in the store itself.
    let (s, i, n) = (store.clone(), id.clone(), new.clone());
    let (old_t, new_t) = tokio::task::spawn_blocking(move || {
        (s.load(&i).unwrap().unwrap(), s.load(&n).unwrap().unwrap())
    })
    .await
    .unwrap();
    assert_eq!(old_t.social.rematch.as_deref(), Some(new.as_str()));
    assert_eq!(new_t.social.rematch_of.as_deref(), Some(id.as_str()));

    let second = start_on(store, Limits::unlimited()).await;
    let mut ws2 = Ws::connect(second.addr, &id).await;
    ws2.hello(Some(&p2)).await;
    let told = ws2.next_of("rematch").await;
    assert_eq!(told["table"], new.as_str());
    assert_eq!(told["token"], p2.as_str());
    let (_, again) = http(
        second.addr,
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&json!({"token": p2}).to_string()),
    )
    .await;
    assert_eq!(again["id"], new.as_str());
}

/// An identity key as a browser makes it.
fn key(byte: u8) -> String {
    format!("{byte:02x}").repeat(32)
}

/// Joins `seat` of `id` as `name` with the identity key `player`.
async fn join_as(addr: SocketAddr, id: &str, seat: &str, name: &str, player: &str) -> String {
    let body = json!({"seat": seat, "name": name, "key": key_of(id), "player": player,
                      "contribution": CONTRIBUTION})
    .to_string();
    let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identity_key_is_checked_strictly_and_only_its_hash_is_stored() {
    let (server, state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let addr = server.addr;
    let id = two_humans(addr, json!({})).await;
    for bad in [
        json!(key(0xab).to_uppercase()),
        json!(key(0xab)[..62]),
        json!(format!("{}0", key(0xab))),
        json!(format!("{}\u{200B}", &key(0xab)[..63])),
        json!(format!("{}g", &key(0xab)[..63])),
        json!(""),
        json!(12),
    ] {
        let body =
            json!({"seat": "P1", "name": "Ann", "key": key_of(&id), "player": bad}).to_string();
        let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
        assert_eq!(status, 400, "{bad}: {v}");
    }
    // Nothing was taken by the refused joins.
    let mine = key(0xab);
    join_as(addr, &id, "P1", "Ann", &mine).await;
    join(addr, &id, "P2").await;
    let store = state.store();
    let i = id.clone();
    let t = tokio::task::spawn_blocking(move || store.load(&i).unwrap().unwrap())
        .await
        .unwrap();
    let ann = &t.social.players[&game::Seat::new(0)];
    assert_eq!(ann, &server::social::player_id(&mine).unwrap());
    assert_ne!(ann, &mine);
    assert!(!t.social.players.contains_key(&game::Seat::new(1)));
    // The table's public description never shows identities.
    let (_, info) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert!(!info.to_string().contains(ann.as_str()));
}

/// `GET /api/me/games` with the identity key `player`.
async fn my_games(addr: SocketAddr, player: &str) -> (u16, Value) {
    let (status, _, v) = request_with(
        addr,
        "GET",
        "/api/me/games",
        "",
        &format!("X-Ratrace-Key: {player}\r\n"),
    )
    .await;
    (status, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_show_players_and_winner_my_games_and_ratings() {
    let server = start_fast().await;
    let addr = server.addr;
    // (a long enough game: a rated one has 30 actions)
    let id = two_humans(addr, json!({"public": true, "options": {"target": 40}})).await;
    let ann = key(0x4a);
    let ann_token = join_as(addr, &id, "P1", "Ann", &ann).await;
    let p2 = join(addr, &id, "P2").await;
    // Live: listed in my games already, without a winner.
    let (status, mine) = my_games(addr, &ann).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["games"][0]["id"], id.as_str());
    assert_eq!(mine["games"][0]["seat"], "P1");
    assert_eq!(mine["games"][0]["status"], "playing");
    assert!(mine["games"][0].get("winners").is_none());
    let last = watch_to_end(addr, &id, &[&ann_token, &p2]).await;
    let winners = last["outcome"]["winners"].clone();

    // The result is recorded just after the end.
    let mut mine = Value::Null;
    for _ in 0..100 {
        mine = my_games(addr, &ann).await.1;
        // (the ratings and the table's summary are written together, but
        // the summary may come from the lobby's cache, refreshed a moment
        // later on PostgreSQL: both are waited for)
        if mine["ratings"].as_array().is_some_and(|r| !r.is_empty())
            && !mine["games"][0]["winners"].is_null()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let game = &mine["games"][0];
    assert_eq!(game["status"], "finished");
    assert_eq!(game["winners"], winners);
    let names: Vec<&str> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["Ann", "player P2", "random"]);
    let rating = &mine["ratings"][0];
    assert_eq!(rating["game"], "bigcheese");
    assert_eq!(rating["games"], 1);
    assert_eq!(rating["name"], "Ann");
    assert_eq!(rating["player"], mine["player"]);
    assert_eq!(mine["player"].as_str().unwrap().len(), 8);
    // Ann is rated against the bot alone (P2 has no identity: nothing
    // proves them, so they count for nobody).
    let places = &last["outcome"]["places"];
    let above_the_bot = places[0].as_u64() < places[2].as_u64();
    assert_eq!(
        rating["rating"].as_f64().unwrap() > 25.0,
        above_the_bot,
        "{mine}"
    );

    // The lobby's finished games show the players and the winner.
    let (_, list) = http(addr, "GET", "/api/tables", None).await;
    let line = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .unwrap();
    assert_eq!(line["status"], "finished");
    assert_eq!(line["winners"], winners);
    assert_eq!(line["seats"][0]["name"], "Ann");
    assert_eq!(line["seats"][2]["bot"], "random");

    // The leaderboard: Ann (P2 had no identity: not rated), bots by level.
    let (status, board) = http(addr, "GET", "/api/leaderboard/bigcheese", None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["players"].as_array().unwrap().len(), 1);
    assert_eq!(board["players"][0]["name"], "Ann");
    assert!(!board.to_string().contains(&ann), "the key never leaves");
    let full = server::social::player_id(&ann).unwrap();
    assert!(!board.to_string().contains(&full), "nor the whole id");
    assert_eq!(board["bots"][0]["bot"], "random");
    assert_eq!(board["bots"][0]["level"], 1);
    let (status, _) = http(addr, "GET", "/api/leaderboard/chess", None).await;
    assert_eq!(status, 400);

    // Someone else's key sees nothing of Ann's; bad keys are refused.
    let (status, other) = my_games(addr, &key(0x99)).await;
    assert_eq!(status, 200);
    assert_eq!(other["games"], json!([]));
    for bad in ["", "abc", &ann.to_uppercase(), &format!("{ann}0")] {
        let (status, v) = my_games(addr, bad).await;
        assert_eq!(status, 400, "{bad}: {v}");
    }
    let (status, _) = http(addr, "GET", "/api/me/games", None).await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playing_oneself_in_two_seats_does_not_count() {
    let server = start_fast().await;
    let addr = server.addr;
    let id = two_humans(addr, json!({})).await;
    let me = key(0x11);
    let t1 = join_as(addr, &id, "P1", "Ann", &me).await;
    let t2 = join_as(addr, &id, "P2", "Ann again", &me).await;
    watch_to_end(addr, &id, &[&t1, &t2]).await;
    let mut mine = Value::Null;
    for _ in 0..100 {
        mine = my_games(addr, &me).await.1;
        if mine["games"][0]["winners"].is_array() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(mine["games"][0]["winners"].is_array(), "{mine}");
    assert_eq!(mine["ratings"], json!([]));
    let (_, board) = http(addr, "GET", "/api/leaderboard/bigcheese", None).await;
    assert_eq!(board["players"], json!([]));
}

/// The next message that is a state (a whole one, or an update applied)
/// or an error.
async fn next_state_or_error(ws: &mut Ws) -> Value {
    loop {
        let m = ws.next().await;
        if m["type"] == "state" || m["type"] == "error" {
            return m;
        }
    }
}

/// The code of the next error, skipping the states before it.
async fn next_error(ws: &mut Ws) -> Value {
    ws.next_of("error").await["code"].clone()
}

/// A person concedes: it is stored before anyone is told, a stand-in plays
/// their seat to the end (through a restart too), they may no longer act,
/// and the result rates them below everyone. A spectator, a second
/// concession and one after the end are refused, changing nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_concedes_is_played_by_a_bot_and_rated_last() {
    let store = fresh_store().await;
    let (first, state) = start_state(store.clone(), Limits::unlimited()).await;
    // (a longer game than the others here: a rated one has 30 actions)
    let id = two_humans(
        first.addr,
        json!({"public": true, "options": {"target": 40}}),
    )
    .await;
    let (ann, bob) = (key(0x1a), key(0x1b));
    let ann_token = join_as(first.addr, &id, "P1", "Ann", &ann).await;
    let bob_token = join_as(first.addr, &id, "P2", "Bob", &bob).await;

    // A spectator has no seat to concede.
    let mut watcher = Ws::connect(first.addr, &id).await;
    watcher.hello(None).await;
    watcher.send(json!({"type": "concede"})).await;
    assert_eq!(next_error(&mut watcher).await, "not_seated");

    let mut ws = Ws::connect(first.addr, &id).await;
    let before = ws.hello(Some(&ann_token)).await;
    assert_eq!(before["started"], true, "{before}");
    assert!(before["seats"][0].get("conceded").is_none(), "{before}");
    ws.send(json!({"type": "concede"})).await;
    let after = loop {
        let m = next_state_or_error(&mut ws).await;
        assert_eq!(m["type"], "state", "{m}");
        if m["seats"][0]["conceded"] == true {
            break m;
        }
    };
    assert!(after["legal"].as_array().unwrap().is_empty(), "{after}");
    // No act, and no second concession.
    ws.send(json!({"type": "act", "seq": after["seq"], "action": "pass"}))
        .await;
    assert_eq!(next_error(&mut ws).await, "conceded");
    ws.send(json!({"type": "concede"})).await;
    assert_eq!(next_error(&mut ws).await, "conceded");
    drop(ws);
    state.close();
    drop(first);

    // Stored: a new server reads it back, and the stand-in plays on.
    let second = start_on(store.clone(), Limits::unlimited()).await;
    let mut ws = Ws::connect(second.addr, &id).await;
    let back = ws.hello(Some(&ann_token)).await;
    assert_eq!(back["seats"][0]["conceded"], true, "{back}");
    assert!(back["legal"].as_array().unwrap().is_empty());
    let mut other = Ws::connect(second.addr, &id).await;
    let hello = other.hello(Some(&bob_token)).await;
    let last = super::play::play_to_end(&mut other, "P2", hello).await;
    assert!(last["outcome"]["places"].is_array(), "{last}");
    // After the end, nothing to concede.
    other.send(json!({"type": "concede"})).await;
    assert_eq!(next_error(&mut other).await, "game_over");

    // Ann is rated last whatever her stand-in made of the seat: below the
    // bot (Bob and she joined from one address, so they do not rate each
    // other).
    let mut mine = Value::Null;
    for _ in 0..100 {
        mine = my_games(second.addr, &ann).await.1;
        if mine["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let rating = mine["ratings"][0]["rating"].as_f64().unwrap();
    assert!(rating < 25.0, "{mine}");
    // Her games say she conceded, so that a win of the seat reads as the
    // bot's; Bob's seat says nothing of the kind.
    let game = mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap_or_else(|| panic!("{mine}"))
        .clone();
    assert_eq!(game["seats"][0]["conceded"], true, "{game}");
    assert!(game["seats"][1].get("conceded").is_none(), "{game}");
}

/// A person who plays bots alone, at a private table, is rated against
/// them and appears on the leaderboard; two people at a private table are
/// not rated for each other (only the bot counts for each).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_alone_with_bots_at_a_private_table_is_rated() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3, "options": {"target": 40},
               "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                         {"kind": "bot", "bot": "heuristic"}],
               "bot_delay_ms": 1}),
    )
    .await;
    let solo = key(0x5a);
    let token = join_as(server.addr, &id, "P1", "Solo", &solo).await;
    let mut ws = Ws::connect(server.addr, &id).await;
    let hello = ws.hello(Some(&token)).await;
    let last = super::play::play_to_end(&mut ws, "P1", hello).await;
    assert!(last["outcome"]["places"].is_array(), "{last}");
    let mut mine = Value::Null;
    for _ in 0..100 {
        mine = my_games(server.addr, &solo).await.1;
        if mine["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        mine["ratings"][0]["games"], 1,
        "rated at a private table: {mine}"
    );
    let (_, board) = http(server.addr, "GET", "/api/leaderboard/bigcheese", None).await;
    assert_eq!(board["players"][0]["name"], "Solo", "{board}");
}

/// A person comes back to their seat from another device with their
/// identity key alone: the seat gets a new token, the old one stops
/// opening it; another identity, a spectator's, and a finished game get
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identity_takes_its_seat_back_with_a_new_token() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let id = two_humans(server.addr, json!({})).await;
    let ann = key(0x2a);
    let old = join_as(server.addr, &id, "P1", "Ann", &ann).await;
    let reclaim = |player: String| {
        let (addr, id) = (server.addr, id.clone());
        async move {
            let (status, _, v) = request_with(
                addr,
                "POST",
                &format!("/api/tables/{id}/reclaim"),
                "",
                &format!("X-Ratrace-Key: {player}\r\n"),
            )
            .await;
            (status, v)
        }
    };
    let (status, v) = reclaim(key(0x2b)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("forbidden")),
        "{v}"
    );
    let (status, v) = reclaim("not hex".to_string()).await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = reclaim(ann.clone()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["seat"], "P1");
    let new = v["token"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    // The old token opens nothing now; the new one opens the seat.
    let mut ws = Ws::connect(server.addr, &id).await;
    ws.send(json!({"type": "hello", "token": old})).await;
    assert_eq!(next_error(&mut ws).await, "bad_token");
    let mut ws = Ws::connect(server.addr, &id).await;
    let back = ws.hello(Some(&new)).await;
    assert_eq!(back["seat"], "P1", "{back}");
}
