//! Tournaments for people through a real server: people enter with their
//! identity, take the seats the director gives them from their identity
//! alone (`/reclaim`), play over the WebSocket, and the standings match
//! the tables' records; bots enter by the API; a duplicate's tables deal
//! the same cards; a tournament survives a restart; every bad request is
//! refused and changes nothing.

use super::play::play_to_end;
use super::util::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// Person `n`'s identity key.
fn key(n: u8) -> String {
    format!("{:02x}", 0x40 + n).repeat(32)
}

fn key_header(n: u8) -> String {
    format!("X-Ratrace-Key: {}\r\n", key(n))
}

/// A request as person `n` (from their own loopback address).
async fn as_person(addr: SocketAddr, n: u8, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, _, v) = request_from(
        addr,
        Some([127, 0, 9, n]),
        method,
        path,
        body,
        &key_header(n),
    )
    .await;
    (status, v)
}

/// Makes a tournament as person 1; its id.
async fn make(addr: SocketAddr, body: Value) -> String {
    let (status, v) = as_person(addr, 1, "POST", "/api/tournaments", &body.to_string()).await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// Waits until `ready` holds of tournament `id` as person `n` sees it.
async fn until(addr: SocketAddr, id: &str, n: u8, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, v) = as_person(addr, n, "GET", &format!("/api/tournaments/{id}"), "").await;
        assert_eq!(status, 200, "{v}");
        if ready(&v) {
            return v;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Person `n` plays the table they are seated at, `table`, to its end.
async fn play_seat(addr: SocketAddr, n: u8, table: String) {
    let (status, got) =
        as_person(addr, n, "POST", &format!("/api/tables/{table}/reclaim"), "").await;
    if status != 200 {
        let (_, rec) = http(addr, "GET", &format!("/api/tables/{table}/record"), None).await;
        panic!("{n} at {table}: {got}: {rec}");
    }
    let mut ws = Ws::connect(addr, &table).await;
    let first = ws.hello(got["token"].as_str()).await;
    let seat = got["seat"].as_str().unwrap().to_string();
    play_to_end(&mut ws, &seat, first).await;
}

/// Plays every table of tournament `id` for persons `people` (named
/// `Rat {n}`) until it is over: from one view, each person at a live
/// table takes their seat and plays it out.
async fn play_out(addr: SocketAddr, id: &str, people: &[u8]) -> Value {
    let mut played = std::collections::HashSet::new();
    loop {
        let (_, v) = as_person(
            addr,
            people[0],
            "GET",
            &format!("/api/tournaments/{id}"),
            "",
        )
        .await;
        if v["status"] == "finished" {
            return v;
        }
        let mut games = Vec::new();
        for t in v["tables"].as_array().unwrap() {
            if !t["places"].is_null() || t["void"] == true {
                continue;
            }
            let table = t["id"].as_str().unwrap().to_string();
            for seat in t["seats"].as_array().unwrap() {
                let Some(n) = people.iter().find(|n| seat == &format!("Rat {n}")) else {
                    continue;
                };
                if played.insert((*n, table.clone())) {
                    games.push(tokio::spawn(play_seat(addr, *n, table.clone())));
                }
            }
        }
        for g in games {
            g.await.unwrap();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Each entrant's points by name, summed from the tables' places as
/// their records give them: `n - place` per table.
async fn points_from_records(
    addr: SocketAddr,
    v: &Value,
) -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    for t in v["tables"].as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let (status, rec) = http(addr, "GET", &format!("/api/tables/{id}/record"), None).await;
        assert_eq!(status, 200, "{rec}");
        let places = rec["outcome"]["places"]
            .as_array()
            .expect("a finished record");
        assert_eq!(t["places"].as_array().unwrap(), places, "{id}");
        let n = places.len() as f64;
        for (s, name) in t["seats"].as_array().unwrap().iter().enumerate() {
            *out.entry(name.as_str().unwrap().to_string()).or_insert(0.0) +=
                n - places[s].as_f64().unwrap();
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_people_plays_its_rounds_and_its_standings_match_the_records() {
    let server = start_fast().await;
    let id = make(
        server.addr,
        json!({"name": "Friday Swiss", "kind": "swiss", "preset": "dalmuti-4-one-hand",
               "rounds": 2, "start_in_s": 3600}),
    )
    .await;
    for n in 1..=5u8 {
        let (status, v) = as_person(
            server.addr,
            n,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            &json!({"name": format!("Rat {n}")}).to_string(),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["you"]["entered"], true);
    }
    let (status, v) = as_person(
        server.addr,
        2,
        "POST",
        &format!("/api/tournaments/{id}/start"),
        "",
    )
    .await;
    assert_eq!(status, 403, "only its creator starts it: {v}");
    let (status, v) = as_person(
        server.addr,
        1,
        "POST",
        &format!("/api/tournaments/{id}/start"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let running = until(server.addr, &id, 1, |v| {
        v["round"] == 1 && v["tables"].as_array().unwrap().len() == 2
    })
    .await;
    assert_eq!(running["status"], "running");
    let (status, v) = as_person(
        server.addr,
        6,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        &json!({"name": "Late"}).to_string(),
    )
    .await;
    assert_eq!(status, 409, "a Swiss takes nobody once started: {v}");
    let over = play_out(server.addr, &id, &[1, 2, 3, 4, 5]).await;
    assert_eq!(over["round"], 2);
    let tables = over["tables"].as_array().unwrap();
    assert_eq!(
        tables.len(),
        4,
        "two rounds of two tables (5 people, 3 bots)"
    );
    let expected = points_from_records(server.addr, &over).await;
    for line in over["standings"].as_array().unwrap() {
        let name = line["name"].as_str().unwrap();
        assert_eq!(
            line["points"].as_f64().unwrap(),
            expected[name],
            "{name}: {over}"
        );
        assert_eq!(line["tables"], 2, "{line}");
        assert!(line["short"].is_string());
    }
    // the tournament is on the profile of a person rated there (one who
    // played bots: people count for each other only once proven)
    let with_bots = tables
        .iter()
        .find(|t| {
            t["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == "heuristic bot")
        })
        .unwrap();
    let person = with_bots["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| *s != "heuristic bot")
        .unwrap();
    let line = over["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| &l["name"] == person)
        .unwrap();
    let short = line["short"].as_str().unwrap();
    let (status, profile) = http(server.addr, "GET", &format!("/api/players/{short}"), None).await;
    assert_eq!(status, 200, "{profile}");
    let listed = profile["tournaments"].as_array().unwrap();
    let entry = listed
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    assert_eq!(entry["place"], line["place"], "{profile}");
    assert_eq!(entry["status"], "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_of_bots_deals_the_same_cards_at_every_table_of_a_round() {
    let server = start_fast().await;
    let id = make(
        server.addr,
        json!({"name": "Dup", "kind": "duplicate", "preset": "dalmuti-4-one-hand", "rounds": 2,
               "start_in_s": 0, "bot_delay_ms": 0,
               "bots": ["random", "random", "heuristic", "heuristic", "strong", "strong", "random", "heuristic"]}),
    )
    .await;
    let over = until(server.addr, &id, 1, |v| v["status"] == "finished").await;
    let tables = over["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4, "{over}");
    let mut by_round: std::collections::BTreeMap<u64, Vec<Value>> = Default::default();
    for t in tables {
        let tid = t["id"].as_str().unwrap();
        let (_, rec) = http(
            server.addr,
            "GET",
            &format!("/api/tables/{tid}/record"),
            None,
        )
        .await;
        by_round
            .entry(t["round"].as_u64().unwrap())
            .or_default()
            .push(rec);
    }
    let seeds: Vec<Vec<&Value>> = by_round
        .values()
        .map(|r| r.iter().map(|rec| &rec["seed"]).collect())
        .collect();
    assert_eq!(seeds.len(), 2);
    for round in &seeds {
        assert!(round[0].is_string());
        assert_eq!(round[0], round[1], "one deal per round");
    }
    assert_ne!(seeds[0][0], seeds[1][0], "another deal the next round");
    // matchpoints: each of the 4 seats of a round shares one point
    // between its two holders
    let total: f64 = over["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 8.0, "{over}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_seats_people_again_as_soon_as_their_table_ends() {
    let server = start_fast().await;
    let id = make(
        server.addr,
        json!({"name": "Arena", "kind": "arena", "preset": "dalmuti-4-one-hand", "minutes": 1,
               "start_in_s": 3600}),
    )
    .await;
    for n in 1..=4u8 {
        let (status, v) = as_person(
            server.addr,
            n,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            &json!({"name": format!("Rat {n}")}).to_string(),
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, v) = as_person(
        server.addr,
        1,
        "POST",
        &format!("/api/tournaments/{id}/start"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let over = play_out(server.addr, &id, &[1, 2, 3, 4]).await;
    let expected = points_from_records(server.addr, &over).await;
    for line in over["standings"].as_array().unwrap() {
        assert!(
            line["tables"].as_u64().unwrap() >= 2,
            "seated again: {over}"
        );
        let name = line["name"].as_str().unwrap();
        assert_eq!(line["points"].as_f64().unwrap(), expected[name], "{name}");
    }
}

#[tokio::test]
async fn every_bad_request_is_refused_and_changes_nothing() {
    let server = start_fast().await;
    let addr = server.addr;
    let good = json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5"});
    let bad = [
        json!({"name": "Cup", "kind": "swiss", "preset": "chess"}),
        json!({"name": "Cup", "kind": "ladder", "preset": "dalmuti-5"}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "rounds": 0}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "rounds": 13}),
        json!({"name": "Cup", "kind": "arena", "preset": "dalmuti-5", "minutes": 181}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "start_in_s": 86401}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "bot": "god"}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "bots": vec!["random"; 33]}),
        json!({"name": "", "kind": "swiss", "preset": "dalmuti-5"}),
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-5", "extra": 1}),
    ];
    for body in bad {
        let (status, v) = as_person(addr, 1, "POST", "/api/tournaments", &body.to_string()).await;
        assert_eq!(status, 400, "{body}: {v}");
        assert_eq!(v["error"]["code"], "bad_input", "{v}");
    }
    let (status, _, v) = request_from(
        addr,
        None,
        "POST",
        "/api/tournaments",
        &good.to_string(),
        "",
    )
    .await;
    assert_eq!(status, 400, "a creator needs their key: {v}");
    let huge = format!("{{\"name\":\"{}\"}}", "x".repeat(8_000));
    let (status, _) = as_person(addr, 1, "POST", "/api/tournaments", &huge).await;
    assert_eq!(status, 413);
    let (_, list) = http(addr, "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"], json!([]), "nothing was made");
    for path in [
        "/api/tournaments/nope",
        "/api/tournaments/..%2F",
        "/api/tournaments/x/join",
    ] {
        let (status, v) = as_person(
            addr,
            1,
            if path.ends_with("join") {
                "POST"
            } else {
                "GET"
            },
            path,
            &json!({"name": "A"}).to_string(),
        )
        .await;
        assert_eq!(status, 404, "{path}: {v}");
    }
    // a person holds two unfinished tournaments at most; an address
    // makes five a minute at most
    for _ in 0..2 {
        make(addr, good.clone()).await;
    }
    let (status, v) = as_person(addr, 1, "POST", "/api/tournaments", &good.to_string()).await;
    assert_eq!(status, 409, "{v}");
    let mut refused = 0;
    for n in 0..6u8 {
        let (status, _, _) = request_from(
            addr,
            Some([127, 0, 10, 1]),
            "POST",
            "/api/tournaments",
            &good.to_string(),
            &key_header(20 + n),
        )
        .await;
        refused += usize::from(status == 429);
    }
    assert!(refused >= 1, "metered per address");
    let (_, list) = http(addr, "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"].as_array().unwrap().len(), 4, "{list}");
}

#[tokio::test]
async fn the_operator_makes_tournaments_past_the_caps_and_nobody_else_does() {
    let (server, state) = start_state(fresh_store().await, server::Limits::unlimited()).await;
    assert!(state.require_metrics_token("op-secret"));
    let body = json!({"name": "Site cup", "kind": "arena", "preset": "dalmuti-5", "bots": ["strong", "random"]})
        .to_string();
    let op = "Authorization: Bearer op-secret\r\n";
    for _ in 0..4 {
        let (status, _, v) = request_with(server.addr, "POST", "/api/tournaments", &body, op).await;
        assert_eq!(status, 201, "past the per-address cap: {v}");
    }
    let wrong = "Authorization: Bearer guess\r\n";
    let (status, _, v) = request_with(server.addr, "POST", "/api/tournaments", &body, wrong).await;
    assert_eq!(
        status, 400,
        "a wrong token is nobody's: it needs a key: {v}"
    );
    let (status, v) = as_person(server.addr, 1, "POST", "/api/tournaments", &body).await;
    assert_eq!(status, 201, "{v}");
    let (_, list) = http(server.addr, "GET", "/api/tournaments", None).await;
    let listed = list["tournaments"].as_array().unwrap();
    assert_eq!(listed.len(), 5);
    let id = listed[0]["id"].as_str().unwrap();
    let (_, one) = http(server.addr, "GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(
        one["standings"].as_array().unwrap().len(),
        2,
        "the bots entered: {one}"
    );
    assert!(one["you"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_show_is_played_by_the_stand_in_and_marked() {
    let server = start_fast().await;
    let id = make(
        server.addr,
        json!({"name": "Cup", "kind": "swiss", "preset": "dalmuti-4-one-hand", "rounds": 1,
               "start_in_s": 3600, "bot_delay_ms": 0, "bots": ["random", "random", "random"]}),
    )
    .await;
    let (status, v) = as_person(
        server.addr,
        1,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        &json!({"name": "Rat 1"}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let started = std::time::Instant::now();
    let (status, v) = as_person(
        server.addr,
        1,
        "POST",
        &format!("/api/tournaments/{id}/start"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // nobody connects: the table waits for its person, then plays on
    let over = until(server.addr, &id, 1, |v| v["status"] == "finished").await;
    assert!(
        started.elapsed() >= Duration::from_secs(14),
        "the table waited for its person before the stand-in played"
    );
    let me = over["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Rat 1")
        .unwrap();
    assert_eq!(
        (me["tables"].as_u64(), me["stand_ins"].as_u64()),
        (Some(1), Some(1)),
        "{over}"
    );
    let table = &over["tables"][0];
    let seat = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s == "Rat 1")
        .unwrap();
    assert_eq!(table["stand_in"][seat], true, "{table}");
}
