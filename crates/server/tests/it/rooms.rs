//! Shared replays through a real server: a room is opened only on a
//! finished game the opener may replay (a private table's key), members
//! join, a member's long poll is held until the leader steps and then
//! answers the new step, only the leader moves it and hands the lead
//! over, members chat, a stranger's secret does nothing, bad requests
//! change nothing, and one address opens a bounded number of rooms.

use super::util::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// `POST path` with `body`; the status and answer.
async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, Some(&body.to_string())).await
}

/// A member's act in `room`.
async fn act(addr: SocketAddr, room: &str, body: Value) -> (u16, Value) {
    post(addr, &format!("/api/rooms/{room}/act"), body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_steps_a_replay_for_every_member() {
    let server = start_fast().await;
    let addr = server.addr;
    let id = super::analysis::finished_game(addr).await;
    // a private table's replay: no room without its key
    let (status, v) = post(addr, "/api/rooms", json!({"table": id, "name": "Ann"})).await;
    assert_eq!(status, 403, "{v}");
    let open = json!({"table": id, "key": key_of(&id), "step": 2, "name": "Ann"});
    let (status, ann) = post(addr, "/api/rooms", open).await;
    assert_eq!(status, 201, "{ann}");
    let room = ann["room"].as_str().unwrap().to_string();
    let ann_secret = ann["secret"].as_str().unwrap().to_string();
    assert_eq!(ann["view"]["step"], 2);
    assert_eq!(ann["view"]["leader"], ann["member"]);
    // an unfinished game has no room
    let live = create(
        addr,
        json!({"game": "bigcheese", "players": 3, "public": true}),
    )
    .await;
    let (status, v) = post(addr, "/api/rooms", json!({"table": live, "name": "Ann"})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over")),
        "{v}"
    );
    // two members join
    let join = |name: &str| json!({ "name": name });
    let (status, bob) = post(addr, &format!("/api/rooms/{room}/join"), join("Bob")).await;
    assert_eq!(status, 200, "{bob}");
    let (_, cy) = post(addr, &format!("/api/rooms/{room}/join"), join("Cy")).await;
    let bob_secret = bob["secret"].as_str().unwrap().to_string();
    let cy_secret = cy["secret"].as_str().unwrap().to_string();
    assert_eq!(cy["view"]["members"].as_array().unwrap().len(), 3);
    // Bob's long poll at the room's revision is held until Ann steps
    let rev = cy["view"]["rev"].as_u64().unwrap();
    let path = format!("/api/rooms/{room}?rev={rev}");
    let header = format!("X-Room-Secret: {bob_secret}\r\n");
    let poll = tokio::spawn(async move { request_with(addr, "GET", &path, "", &header).await });
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!poll.is_finished(), "held while nothing moves");
    let (status, v) = act(addr, &room, json!({"secret": ann_secret, "step": 5})).await;
    assert_eq!((status, v["step"].as_u64()), (200, Some(5)), "{v}");
    let (status, _, seen) = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("the poll answers once the step moves")
        .unwrap();
    assert_eq!((status, seen["step"].as_u64()), (200, Some(5)), "{seen}");
    assert!(seen["rev"].as_u64().unwrap() > rev);
    // only the leader moves it
    let (status, v) = act(addr, &room, json!({"secret": bob_secret, "step": 1})).await;
    assert_eq!(status, 403, "{v}");
    // members chat; a stranger's secret does nothing
    let (status, v) = act(addr, &room, json!({"secret": cy_secret, "say": "nice bid"})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["lines"][0]["name"], "Cy");
    assert_eq!(v["lines"][0]["text"], "nice bid");
    let (status, _) = act(addr, &room, json!({"secret": "nope", "say": "hi"})).await;
    assert_eq!(status, 403);
    // the lead handed to Bob: he moves it, Ann no longer
    let (status, v) = act(
        addr,
        &room,
        json!({"secret": ann_secret, "lead": bob["member"]}),
    )
    .await;
    assert_eq!((status, &v["leader"]), (200, &bob["member"]), "{v}");
    let (status, _) = act(addr, &room, json!({"secret": bob_secret, "step": 7})).await;
    assert_eq!(status, 200);
    let (status, _) = act(addr, &room, json!({"secret": ann_secret, "step": 1})).await;
    assert_eq!(status, 403);
    // bad requests change nothing
    let before = http(addr, "GET", &format!("/api/rooms/{room}"), None)
        .await
        .1;
    for (path, body, want) in [
        (
            format!("/api/rooms/{room}/act"),
            json!({"secret": bob_secret, "step": 1, "say": "x"}),
            400,
        ),
        (
            format!("/api/rooms/{room}/act"),
            json!({"secret": bob_secret}),
            400,
        ),
        (
            format!("/api/rooms/{room}/act"),
            json!({"secret": bob_secret, "step": -1}),
            400,
        ),
        (
            format!("/api/rooms/{room}/act"),
            json!({"secret": cy_secret, "say": ""}),
            400,
        ),
        (format!("/api/rooms/{room}/join"), json!({"name": ""}), 400),
        (
            "/api/rooms/AAAAAAAAAA/act".to_string(),
            json!({"secret": bob_secret, "step": 1}),
            404,
        ),
        (
            "/api/rooms/..%2F/join".to_string(),
            json!({"name": "Dee"}),
            404,
        ),
        (
            "/api/rooms".to_string(),
            json!({"table": id, "name": "Ann", "extra": 1}),
            400,
        ),
    ] {
        let (status, v) = post(addr, &path, body).await;
        assert_eq!(status, want, "{path}: {v}");
    }
    let after = http(addr, "GET", &format!("/api/rooms/{room}"), None)
        .await
        .1;
    assert_eq!(before, after, "nothing changed");
    assert_eq!(after["step"], 7);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_opens_a_bounded_number_of_rooms() {
    let server = start_fast().await;
    let addr = server.addr;
    let id = super::analysis::finished_game(addr).await;
    let open = json!({"table": id, "key": key_of(&id), "name": "Ann"}).to_string();
    let mut codes = Vec::new();
    for _ in 0..6 {
        codes.push(
            http_from(addr, [127, 0, 3, 1], "POST", "/api/rooms", Some(&open))
                .await
                .0,
        );
    }
    assert_eq!(codes, [201, 201, 201, 201, 201, 409]);
    // another address still may
    let (status, _) = http_from(addr, [127, 0, 3, 2], "POST", "/api/rooms", Some(&open)).await;
    assert_eq!(status, 201);
}
