//! Whole games through the server: one human (this test) and bots.

use super::util::*;
use serde_json::{json, Value};

/// Plays the seat's turns (first legal action) until the game ends;
/// returns the last state.
pub(crate) async fn play_to_end(ws: &mut Ws, seat: &str, first: Value) -> Value {
    let mut acted_at = None;
    let mut pending = Some(first);
    loop {
        let m = match pending.take() {
            Some(m) => m,
            None => ws.next().await,
        };
        match m["type"].as_str() {
            Some("state") => {}
            Some("error") => {
                assert_eq!(m["code"], "stale", "{m}");
                continue;
            }
            _ => continue,
        }
        if m["over"] == true {
            return m;
        }
        let seq = m["seq"].as_u64().unwrap();
        let legal = m["legal"].as_array().unwrap();
        if m["to_move"] == seat && !legal.is_empty() && acted_at != Some(seq) {
            acted_at = Some(seq);
            ws.send(json!({"type": "act", "seq": seq, "action": legal[0]}))
                .await;
        } else if m["to_move"] != seat {
            assert!(legal.is_empty(), "legal actions only for the mover: {m}");
        }
    }
}

async fn play_game(game: &str, players: usize, options: Value) {
    let server = start_fast().await;
    let mut seats = vec![json!({"kind": "human"})];
    seats.extend((1..players).map(|_| json!({"kind": "bot", "bot": "heuristic"})));
    let id = create(
        server.addr,
        json!({"game": game, "players": players, "options": options, "seats": seats, "bot_delay_ms": 1, "public": true}),
    )
    .await;
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["status"], "open");
    assert!(info["seed"].is_null());
    let token = join(server.addr, &id, "P1").await;
    let mut ws = Ws::connect(server.addr, &id).await;
    let first = ws.hello(Some(&token)).await;
    assert_eq!(first["type"], "state", "{first}");
    assert_eq!(first["seat"], "P1");
    assert!(first["seed"].is_null());
    let mut watcher = Ws::connect(server.addr, &id).await;
    let spectator = watcher.hello(None).await;
    assert!(spectator["seat"].is_null());
    assert!(spectator["legal"].as_array().unwrap().is_empty());
    let last = play_to_end(&mut ws, "P1", first).await;
    assert!(last["outcome"].is_object(), "{last}");
    let seed = last["seed"].as_str().unwrap().to_string();
    // The fair deal: the revealed secret matches the commitment published
    // at creation, and the secret with P1's contribution, bound to this
    // table, gives the seed.
    let secret = registry::fair::parse_hex32("secret", last["secret"].as_str().unwrap()).unwrap();
    assert_eq!(
        registry::fair::commitment(&secret),
        last["seed_hash"].as_str().unwrap()
    );
    let mine = registry::fair::parse_contribution(CONTRIBUTION).unwrap();
    let derived = registry::fair::seed(
        registry::fair::Binding::Signed(&id),
        &secret,
        &[(game::Seat::new(0), mine)].into(),
    );
    assert_eq!(derived.to_string(), seed);
    // The table is finished in storage: its record verifies.
    let (status, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(info["status"], "finished");
    assert_eq!(info["seed"], seed);
    let (status, record) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        record["actions"].as_array().unwrap().len() as u64,
        last["seq"].as_u64().unwrap()
    );
    // The replay rebuilds every position: the deal, then one per action,
    // at most 100 a request, every hand shown (the game is over).
    let n = record["actions"].as_array().unwrap().len();
    let (status, first) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/replay/0"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["steps"].as_u64(), Some(n as u64));
    let positions = first["positions"].as_array().unwrap();
    assert_eq!(positions.len(), (n + 1).min(100));
    assert_eq!(positions[0]["step"], 0);
    assert!(positions[0]["action"].is_null());
    let deal = positions[0]["events"].as_array().unwrap();
    assert!(!deal.is_empty(), "the deal");
    assert!(
        deal.iter().all(|e| e["kind"].is_string()),
        "typed events: {deal:?}"
    );
    assert_eq!(positions[0]["hands"].as_array().unwrap().len(), players);
    assert_eq!(positions[1]["action"], record["actions"][0]);
    assert!(positions[1]["board"].as_str().unwrap().len() > 20);
    let (status, end) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/replay/{n}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{end}");
    let last_pos = &end["positions"][0];
    assert_eq!(last_pos["step"].as_u64(), Some(n as u64));
    assert!(last_pos["to_move"].is_null(), "over at the end");
    let (status, v) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/replay/{}", n + 1),
        None,
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad_input"))
    );
    let (status, report) = http(
        server.addr,
        "POST",
        "/api/verify",
        Some(&record.to_string()),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(report["ok"], true, "{report}");
    let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["status"], "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bigcheese_game_plays_to_the_end() {
    play_game("bigcheese", 3, json!({"dice": "d6"})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dalmuti_hand_plays_to_the_end() {
    play_game("dalmuti", 4, json!({"hands": 1})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_and_static_files_are_served() {
    let server = start().await;
    for path in ["/", "/t/abc", "/replay/abc", "/verify"] {
        let (status, _) = http(server.addr, "GET", path, None).await;
        assert_eq!(status, 200, "{path}");
    }
    let (status, _) = http(server.addr, "GET", "/static/dom.js", None).await;
    assert_eq!(status, 200);
    let (status, _) = http(server.addr, "GET", "/static/nope.js", None).await;
    assert_eq!(status, 404);
    let (status, games) = http(server.addr, "GET", "/api/games", None).await;
    assert_eq!(status, 200);
    assert_eq!(games[0]["name"], "bigcheese");
    // The bot levels are the ladder, weakest first.
    assert_eq!(games[1]["bots"][0], "random");
    assert_eq!(games[1]["bots"][1], "heuristic");
}

/// After `hello`, changes come as `update`s; a `resync` at any point
/// sends the whole state, which must equal what the updates built, and
/// the updates are much smaller than whole states.
#[tokio::test]
async fn updates_build_the_same_state_as_a_resync() {
    for (game, options) in [("bigcheese", json!({})), ("dalmuti", json!({"hands": "1"}))] {
        let server = start_fast().await;
        let seats = json!([{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]);
        let id = create(
            server.addr,
            json!({"game": game, "players": 4, "options": options, "seats": seats, "bot_delay_ms": 0}),
        )
        .await;
        let token = join(server.addr, &id, "P1").await;
        let mut ws = Ws::connect(server.addr, &id).await;
        // Before hello, resync is refused and changes nothing.
        ws.send(json!({"type": "resync"})).await;
        assert_eq!(ws.next().await["code"], "bad_message");
        let first = ws.hello(Some(&token)).await;
        assert_eq!(first["type"], "state");
        assert_eq!(first["started"], false);
        // The second seat joins: an update says so, with the seats.
        let token2 = join(server.addr, &id, "P2").await;
        let mut other = Ws::connect(server.addr, &id).await;
        let hello2 = other.hello(Some(&token2)).await;
        let p2 = tokio::spawn(async move { play_to_end(&mut other, "P2", hello2).await });
        let (mut update_bytes, mut state_bytes, mut updates, mut resyncs) = (0, 0, 0, 0);
        let mut compared = 0;
        let mut acted = std::collections::HashSet::new();
        let mut last = first;
        while last["over"] != true {
            let (raw, mut m) = ws.next_with_raw().await;
            if m["type"] != "state" {
                continue;
            }
            if raw.starts_with(r#"{"type":"update""#) {
                updates += 1;
                update_bytes += raw.len();
                // Every third update, the whole state is asked for and
                // compared with what the updates built.
                if updates % 3 == 0 {
                    ws.send(json!({"type": "resync"})).await;
                    // Updates may come first (a bot moved meanwhile): the
                    // whole state is compared with what they built.
                    let mut built = m.clone();
                    let whole = loop {
                        let (full, v) = ws.next_with_raw().await;
                        if full.starts_with(r#"{"type":"state""#) {
                            state_bytes += full.len();
                            break v;
                        }
                        if v["type"] == "state" {
                            built = v;
                        } else if v["type"] == "presence" {
                            // Who is connected may change meanwhile too.
                            built["seats"] = v["seats"].clone();
                        }
                    };
                    // An update still queued when the state was is
                    // dropped (the state says all it would have): then
                    // the state is newer than what the updates built,
                    // and there is nothing to compare this time.
                    if whole["rev"] == built["rev"] {
                        for k in [
                            "rev", "seq", "view", "legal", "to_move", "over", "started", "seats",
                            "outcome", "seed",
                        ] {
                            assert_eq!(
                                whole[k], built[k],
                                "{game}: `{k}` differs after update {updates}"
                            );
                        }
                        compared += 1;
                    } else {
                        assert!(
                            whole["rev"].as_u64() > built["rev"].as_u64(),
                            "{game}: a state older than the updates before it"
                        );
                    }
                    resyncs += 1;
                    m = whole;
                }
            }
            let seq = m["seq"].as_u64().unwrap();
            if m["to_move"] == "P1"
                && !m["legal"].as_array().unwrap().is_empty()
                && acted.insert(seq)
            {
                let a = m["legal"][0].clone();
                ws.send(json!({"type": "act", "seq": seq, "action": a}))
                    .await;
            }
            last = m;
        }
        assert_eq!(p2.await.unwrap()["outcome"], last["outcome"]);
        assert!(updates > 20, "{game}: only {updates} updates");
        assert!(
            compared * 2 >= resyncs,
            "{game}: only {compared} of {resyncs} states compared"
        );
        let (mean_update, mean_state) = (update_bytes / updates, state_bytes / resyncs);
        assert!(
            mean_update * 3 < mean_state,
            "{game}: updates ({mean_update} bytes) are not much smaller than states ({mean_state})"
        );
    }
}
