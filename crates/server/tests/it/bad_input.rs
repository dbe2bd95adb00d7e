//! Bad input gets a clear error, changes nothing, and the server keeps
//! serving.

use super::util::*;
use futures_util::SinkExt;
use serde_json::{json, Value};

/// A bigcheese table of three humans, all joined: nothing moves unless a
/// test acts.
async fn three_humans(addr: std::net::SocketAddr) -> (String, Vec<String>) {
    let id = create(
        addr,
        json!({"game": "bigcheese", "players": 3,
               "seats": [{"kind":"human"},{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let mut tokens = Vec::new();
    for seat in ["P1", "P2", "P3"] {
        tokens.push(join(addr, &id, seat).await);
    }
    (id, tokens)
}

async fn error(ws: &mut Ws) -> Value {
    let m = ws.next_of("error").await;
    assert!(m["message"].as_str().is_some_and(|s| !s.is_empty()), "{m}");
    m
}

async fn state_at(ws: &mut Ws, seq: u64) -> Value {
    loop {
        let s = ws.next_of("state").await;
        if s["seq"] == seq {
            return s;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_message_is_refused_and_changes_nothing() {
    let server = start().await;
    let addr = server.addr;
    let (id, tokens) = three_humans(addr).await;
    let mut ws: Vec<Ws> = Vec::new();
    let mut mover = String::new();
    for t in &tokens {
        let mut w = Ws::connect(addr, &id).await;
        // Acting before hello.
        w.send(json!({"type":"act","seq":0,"action":"pass"})).await;
        assert_eq!(error(&mut w).await["code"], "bad_message");
        let s = w.hello(Some(t)).await;
        assert_eq!(s["type"], "state");
        mover = s["to_move"].as_str().map(str::to_string).unwrap_or(mover);
        ws.push(w);
    }
    let m: usize = mover[1..].parse::<usize>().unwrap() - 1;
    let other = (m + 1) % 3;

    // Malformed, unknown type, binary, oversized.
    ws[m].send_text("{not json".to_string()).await;
    assert_eq!(error(&mut ws[m]).await["code"], "bad_message");
    ws[m].send(json!({"type":"shout"})).await;
    assert_eq!(error(&mut ws[m]).await["code"], "bad_message");
    ws[m].send(json!({"type":"hello"})).await;
    assert_eq!(
        error(&mut ws[m]).await["code"],
        "bad_message",
        "hello twice"
    );
    let big = json!({"type":"act","seq":0,"action":"x".repeat(5000)}).to_string();
    ws[m].send_text(big).await;
    let e = error(&mut ws[m]).await;
    assert_eq!(e["code"], "bad_message");
    assert!(e["message"].as_str().unwrap().contains("too large"));
    ws[m]
        .socket
        .send(tokio_tungstenite::tungstenite::Message::Binary(
            vec![1, 2].into(),
        ))
        .await
        .unwrap();
    assert_eq!(error(&mut ws[m]).await["code"], "bad_message");

    // Stale seq, out of turn, illegal, garbled action.
    ws[m]
        .send(json!({"type":"act","seq":5,"action":"pass"}))
        .await;
    assert_eq!(error(&mut ws[m]).await["code"], "stale");
    ws[other]
        .send(json!({"type":"act","seq":0,"action":"pass"}))
        .await;
    let e = error(&mut ws[other]).await;
    assert_eq!(e["code"], "not_your_turn");
    ws[m]
        .send(json!({"type":"act","seq":0,"action":"bid 99"}))
        .await;
    let e = error(&mut ws[m]).await;
    assert_eq!(e["code"], "illegal");
    assert!(e["message"].as_str().unwrap().contains("B5"), "{e}");
    ws[m]
        .send(json!({"type":"act","seq":0,"action":"dance"}))
        .await;
    assert_eq!(error(&mut ws[m]).await["code"], "illegal");
    assert_eq!(seq_of(addr, &id).await, 0, "nothing was applied");

    // A spectator cannot act; a wrong token is refused.
    let mut spectator = Ws::connect(addr, &id).await;
    let bad = spectator.hello(Some("0123")).await;
    assert_eq!(bad["code"], "bad_token");
    let s = spectator.hello(None).await;
    assert_eq!(s["type"], "state");
    assert!(s["view"].get("hand").is_none());
    spectator
        .send(json!({"type":"act","seq":0,"action":"pass"}))
        .await;
    assert_eq!(error(&mut spectator).await["code"], "not_seated");

    // The right action with the right seq is applied once; a resend is stale.
    ws[m]
        .send(json!({"type":"act","seq":0,"action":"pass"}))
        .await;
    state_at(&mut ws[m], 1).await;
    ws[m]
        .send(json!({"type":"act","seq":0,"action":"pass"}))
        .await;
    assert_eq!(error(&mut ws[m]).await["code"], "stale");
    assert_eq!(seq_of(addr, &id).await, 1);

    // Unknown tables, over WebSocket and HTTP.
    let mut nowhere = Ws::connect(addr, "nosuchtable").await;
    assert_eq!(nowhere.next().await["code"], "unknown_table");
    let (status, v) = http(addr, "GET", "/api/tables/nosuchtable", None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (404, Some("unknown_table"))
    );
    let (status, _) = http(
        addr,
        "POST",
        "/api/tables/nosuch/join",
        Some(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!(status, 404);

    // Lobby refusals: a private table's seat needs its invite key, and a
    // taken seat stays taken.
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        Some(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("forbidden"))
    );
    let body = json!({"name": "x", "key": key_of(&id)}).to_string();
    let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("seat_taken"))
    );
    let (status, _) = http(
        addr,
        "POST",
        "/api/tables",
        Some(r#"{"game":"bigcheese","players":9}"#),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = http(
        addr,
        "POST",
        "/api/tables",
        Some(r#"{"game":"bigcheese","options":{"dice":"d7"}}"#),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = http(
        addr,
        "POST",
        "/api/tables",
        Some(r#"{"game":"bigcheese","seats":[{"kind":"bot","bot":"genius"}]}"#),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = http(addr, "POST", "/api/tables", Some("[")).await;
    assert_eq!(status, 400);
    let huge = format!(r#"{{"game":"{}"}}"#, "x".repeat(40_000));
    let (status, v) = http(addr, "POST", "/api/tables", Some(&huge)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (413, Some("too_large"))
    );
    let (status, v) = http(addr, "GET", &format!("/api/tables/{id}/record"), None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over"))
    );
    let (status, v) = http(addr, "GET", &format!("/api/tables/{id}/replay/0"), None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over"))
    );
    // A step that is not a number, or does not fit one, is refused before
    // anything is loaded.
    for bad in ["x", "-1", "99999999999999999999999"] {
        let (status, _) = http(addr, "GET", &format!("/api/tables/{id}/replay/{bad}"), None).await;
        assert_eq!(status, 400, "replay/{bad}");
    }

    // Still serving: the next mover can act.
    state_at(&mut ws[other], 1).await;
    ws[m].send(json!({"type":"ping"})).await;
    assert_eq!(ws[m].next_of("pong").await["type"], "pong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_client_is_rate_limited_then_closed() {
    let server = start().await;
    let (id, _) = three_humans(server.addr).await;
    let mut ws = Ws::connect(server.addr, &id).await;
    for _ in 0..30 {
        ws.send(json!({"type":"ping"})).await;
    }
    // 20 pongs, then one refusal for the rest of the second.
    let mut limited = false;
    for _ in 0..21 {
        let m = ws.next().await;
        if m["code"] == "rate_limited" {
            limited = true;
        }
    }
    assert!(limited);
    for _ in 0..200 {
        if ws
            .socket
            .send(tokio_tungstenite::tungstenite::Message::Text(
                r#"{"type":"ping"}"#.into(),
            ))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut closed = false;
    for _ in 0..400 {
        if ws.next_raw().await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed, "a flood closes the connection");
    // Others are still served.
    let mut other = Ws::connect(server.addr, &id).await;
    assert_eq!(other.hello(None).await["type"], "state");
}
