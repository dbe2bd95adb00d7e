//! Friends and presence through a real server: follows by short id,
//! where a followed person is (the lobby, a public table by id, a private
//! one never by id), invitations to people one follows who are online
//! (seen by them alone, dismissed, dropped by a block), and every
//! refusal: no identity, a malformed or unknown id, oneself, a person not
//! followed, offline or blocking, a private table without its key, and
//! the per-address quota on invitations.

use super::util::*;
use serde_json::{json, Value};
use server::Limits;
use std::net::SocketAddr;

/// An identity key as a browser makes it.
fn key(byte: u8) -> String {
    format!("{byte:02x}").repeat(32)
}

/// A request as the person with identity key `me`, from an address of
/// their own (127.0.0.N, N their key's first byte): each person has their
/// own invitation quota.
async fn as_me(
    addr: SocketAddr,
    me: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let n = u8::from_str_radix(&me[..2], 16).unwrap();
    as_from(addr, [127, 0, 0, n], me, method, path, body).await
}

/// [`as_me`] from the address `from`.
async fn as_from(
    addr: SocketAddr,
    from: [u8; 4],
    me: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let header = format!("X-Ratrace-Key: {me}\r\n");
    let (status, _, v) = request_from(addr, Some(from), method, path, &body, &header).await;
    (status, v)
}

/// Seats the person `me` as `name` at a new Big Cheese table with two
/// bots, public or not; its id.
async fn sit(addr: SocketAddr, me: &str, name: &str, public: bool) -> String {
    let id = create(
        addr,
        json!({"game": "bigcheese", "players": 3,
               "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                         {"kind": "bot", "bot": "random"}],
               "public": public, "bot_delay_ms": 10000}),
    )
    .await;
    let body = json!({"seat": "P1", "name": name, "key": key_of(&id), "player": me,
                      "contribution": CONTRIBUTION});
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        Some(&body.to_string()),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    id
}

/// Ann (identity key `me`) invites `to` to `table`.
async fn invite(addr: SocketAddr, me: &str, to: &str, table: &str) -> (u16, Value) {
    let body = json!({"to": to, "table": table, "name": "Ann"});
    as_me(addr, me, "POST", "/api/me/invites", Some(body)).await
}

/// The friends list of `me`, asked from `at` (a query string).
async fn friends(addr: SocketAddr, me: &str, at: &str) -> Value {
    let (status, v) = as_me(addr, me, "GET", &format!("/api/me/friends{at}"), None).await;
    assert_eq!(status, 200, "{v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_see_where_invite_and_block() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let addr = server.addr;
    let (ann, bob, cy) = (key(0xa1), key(0xb2), key(0xc3));
    let ann_table = sit(addr, &ann, "Ann", true).await;
    let bob_public = sit(addr, &bob, "Bob", true).await;
    let bob_private = sit(addr, &bob, "Bob", false).await;
    sit(addr, &cy, "Cy", true).await;
    let dee = key(0xd4);
    sit(addr, &dee, "Dee", true).await;
    // Dee's short id from her games (which says nothing of where she is)
    let (_, mine) = as_me(addr, &dee, "GET", "/api/me/games", None).await;
    let dee_id = mine["player"].as_str().unwrap().to_string();
    let bob_id = friends(addr, &bob, "").await["player"]
        .as_str()
        .unwrap()
        .to_string();
    let ann_id = friends(addr, &ann, "").await["player"]
        .as_str()
        .unwrap()
        .to_string();
    let cy_id = friends(addr, &cy, "").await["player"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(bob_id.len(), 8);

    // A follow, once.
    let (status, v) = as_me(
        addr,
        &ann,
        "PUT",
        &format!("/api/me/follows/{bob_id}"),
        None,
    )
    .await;
    assert_eq!(
        (status, &v["name"], &v["changed"]),
        (200, &json!("Bob"), &json!(true)),
        "{v}"
    );
    let (_, v) = as_me(
        addr,
        &ann,
        "PUT",
        &format!("/api/me/follows/{bob_id}"),
        None,
    )
    .await;
    assert_eq!(v["changed"], false);
    // Bob asked from the lobby a moment ago.
    let v = friends(addr, &ann, "?at=lobby").await;
    assert_eq!(v["follows"][0]["player"], bob_id.as_str());
    assert_eq!(v["follows"][0]["place"], json!({"kind": "lobby"}));
    // At his public table: which one; at his private one: never which.
    friends(addr, &bob, &format!("?at=table&table={bob_public}")).await;
    let v = friends(addr, &ann, "").await;
    assert_eq!(
        v["follows"][0]["place"],
        json!({"kind": "table", "table": bob_public, "game": "bigcheese"})
    );
    friends(addr, &bob, &format!("?at=table&table={bob_private}")).await;
    let v = friends(addr, &ann, "").await;
    assert_eq!(v["follows"][0]["place"], json!({"kind": "private"}));
    assert!(!v.to_string().contains(&bob_private), "{v}");
    // Cy asked at the start: online, he may be invited. Dee never asked:
    // offline, no invitation reaches her.
    as_me(addr, &ann, "PUT", &format!("/api/me/follows/{cy_id}"), None).await;
    as_me(
        addr,
        &ann,
        "PUT",
        &format!("/api/me/follows/{dee_id}"),
        None,
    )
    .await;
    // (from another address: each address may send five at once)
    let body = json!({"to": dee_id, "table": ann_table, "name": "Ann"});
    let (status, v) = as_from(
        addr,
        [127, 0, 2, 1],
        &ann,
        "POST",
        "/api/me/invites",
        Some(body),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("refused")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not online"),
        "{v}"
    );
    let (status, v) = invite(addr, &ann, &cy_id, &ann_table).await;
    assert_eq!(status, 201, "{v}");
    // An invitation, seen by Bob alone.
    let (status, sent) = invite(addr, &ann, &bob_id, &ann_table).await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["link"], format!("/t/{ann_table}"));
    let v = friends(addr, &bob, "").await;
    assert_eq!(v["invites"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["invites"][0]["from"], ann_id.as_str());
    assert_eq!(v["invites"][0]["from_name"], "Ann");
    assert_eq!(v["invites"][0]["game"], "bigcheese");
    assert!(v["invites"][0]["expires_in_s"].as_u64().unwrap() > 500);
    assert_eq!(friends(addr, &ann, "").await["invites"], json!([]));
    // A second one from Ann replaces the first.
    invite(addr, &ann, &bob_id, &ann_table).await;
    let v = friends(addr, &bob, "").await;
    assert_eq!(v["invites"].as_array().unwrap().len(), 1);
    let id = v["invites"][0]["id"].as_str().unwrap().to_string();
    // Dismissed by Bob, not by Ann.
    let (status, _) = as_me(addr, &ann, "DELETE", &format!("/api/me/invites/{id}"), None).await;
    assert_eq!(status, 404);
    let (status, _) = as_me(addr, &bob, "DELETE", &format!("/api/me/invites/{id}"), None).await;
    assert_eq!(status, 204);
    assert_eq!(friends(addr, &bob, "").await["invites"], json!([]));
    // A private table needs its key, which the link then carries.
    let ann_private = sit(addr, &ann, "Ann", false).await;
    let (status, v) = invite(addr, &ann, &bob_id, &ann_private).await;
    assert_eq!(status, 400, "{v}");
    let k = key_of(&ann_private).unwrap();
    let body = json!({"to": bob_id, "table": ann_private, "key": k, "name": "Ann"});
    let (status, v) = as_me(addr, &ann, "POST", "/api/me/invites", Some(body)).await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["link"], format!("/t/{ann_private}?k={k}"));
    // Bob invites Ann: he does not follow her.
    let body = json!({"to": ann_id, "table": bob_public, "name": "Bob"});
    let (status, v) = as_me(addr, &bob, "POST", "/api/me/invites", Some(body)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("refused")),
        "{v}"
    );
    // Bob blocks Ann: her invitation goes, her next is refused, and she
    // no longer sees where he is.
    let (status, v) = as_me(addr, &bob, "PUT", &format!("/api/me/blocks/{ann_id}"), None).await;
    assert_eq!(status, 200, "{v}");
    let v = friends(addr, &bob, "").await;
    assert_eq!(v["invites"], json!([]));
    assert_eq!(v["blocks"][0]["player"], ann_id.as_str());
    // (from another address: Ann spent her five invitations)
    let (status, v) = as_from(
        addr,
        [127, 0, 1, 1],
        &ann,
        "POST",
        "/api/me/invites",
        Some(json!({"to": bob_id, "table": ann_table, "name": "Ann"})),
    )
    .await;
    assert_eq!(status, 403, "{v}");
    let v = friends(addr, &ann, "").await;
    let bob_row = v["follows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["player"] == bob_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(bob_row["place"], Value::Null, "{v}");
    // Unblocked: where he is shows again.
    let (status, _) = as_me(
        addr,
        &bob,
        "DELETE",
        &format!("/api/me/blocks/{ann_id}"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let v = friends(addr, &ann, "").await;
    assert!(
        v["follows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["player"] == bob_id.as_str() && !f["place"].is_null()),
        "{v}"
    );
    // Unfollowed: gone from her list.
    as_me(
        addr,
        &ann,
        "DELETE",
        &format!("/api/me/follows/{bob_id}"),
        None,
    )
    .await;
    let v = friends(addr, &ann, "").await;
    assert!(v["follows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["player"] != bob_id.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_change_nothing_and_invitations_are_metered() {
    let (server, _state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let addr = server.addr;
    let (ann, bob) = (key(0xa4), key(0xb5));
    let table = sit(addr, &ann, "Ann", true).await;
    sit(addr, &bob, "Bob", true).await;
    let ann_id = friends(addr, &ann, "").await["player"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = http(addr, "GET", "/api/me/friends", None).await;
    assert_eq!(status, 400, "no identity");
    for (path, want) in [
        ("/api/me/follows/XYZ", 400),
        ("/api/me/follows/0123456789", 400),
        ("/api/me/follows/00000000", 404),
    ] {
        let (status, v) = as_me(addr, &ann, "PUT", path, None).await;
        assert_eq!(status, want, "{path}: {v}");
    }
    let (status, v) = as_me(
        addr,
        &ann,
        "PUT",
        &format!("/api/me/follows/{ann_id}"),
        None,
    )
    .await;
    assert_eq!(status, 400, "oneself: {v}");
    for at in ["?at=moon", "?at=table", "?at=table&table=../x"] {
        let (status, v) = as_me(addr, &ann, "GET", &format!("/api/me/friends{at}"), None).await;
        assert_eq!(status, 400, "{at}: {v}");
    }
    assert_eq!(
        friends(addr, &ann, "").await["follows"],
        json!([]),
        "nothing changed"
    );
    // Malformed bodies, then the quota: five invitations at once.
    let (status, _) = as_me(
        addr,
        &ann,
        "POST",
        "/api/me/invites",
        Some(json!({"to": "x"})),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = as_me(
        addr,
        &ann,
        "POST",
        "/api/me/invites",
        Some(json!({"to": "00000000", "table": table, "name": "A", "key": "a b"})),
    )
    .await;
    assert_eq!(status, 400);
    let mut codes = Vec::new();
    for _ in 0..6 {
        let body = json!({"to": "00000000", "table": table, "name": "Ann"});
        codes.push(
            as_me(addr, &ann, "POST", "/api/me/invites", Some(body))
                .await
                .0,
        );
    }
    assert_eq!(codes, [404, 404, 404, 404, 404, 429]);
}
