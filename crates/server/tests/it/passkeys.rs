//! Passkeys' management through a real server: a person lists their
//! passkeys and removes one; nobody else can, and a bad request changes
//! nothing. (The WebAuthn ceremonies are the browser test's,
//! e2e/passkeys.test.mjs, with Chromium's virtual authenticator.)

use super::util::*;
use server::store::passkeys::PasskeyRow;

fn header(key: &str) -> String {
    format!("X-Ratrace-Key: {key}\r\n")
}

/// Runs blocking store work off the runtime's threads (PostgreSQL's
/// backend blocks on its own runtime).
async fn off<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(work).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_removes_their_own_passkey_and_nobody_elses() {
    let (server, state) = start_state(fresh_store().await, server::Limits::unlimited()).await;
    let (ann, bob) = ("a1".repeat(32), "b2".repeat(32));
    let row = PasskeyRow {
        id: "cred-1".into(),
        player: server::social::player_id(&ann).unwrap(),
        identity_key: ann.clone(),
        passkey: "{}".into(),
        created_at: 100,
        used_at: None,
    };
    let store = state.store();
    assert!(off(move || store.add_passkey(&row, 10).unwrap()).await);
    let store = state.store();
    let stored = move || {
        let store = store.clone();
        off(move || store.passkey("cred-1").unwrap().is_some())
    };
    let (status, _, mine) =
        request_with(server.addr, "GET", "/api/me/passkeys", "", &header(&ann)).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["passkeys"][0]["id"], "cred-1", "{mine}");
    let path = "/api/me/passkeys/cred-1";
    let (status, _, v) = request_with(server.addr, "DELETE", path, "", &header(&bob)).await;
    assert_eq!(
        (status, &v["error"]["code"]),
        (409, &serde_json::json!("refused")),
        "{v}"
    );
    let (status, _, v) = request_with(server.addr, "DELETE", path, "", "").await;
    assert_eq!(status, 400, "no identity: {v}");
    assert!(
        state.store().passkey("cred-1").unwrap().is_some(),
        "still there"
    );
    let (status, _, _) = request_with(server.addr, "DELETE", path, "", &header(&ann)).await;
    assert_eq!(status, 204);
    assert!(!stored().await);
    let (status, _, _) = request_with(server.addr, "DELETE", path, "", &header(&ann)).await;
    assert_eq!(status, 409, "once");
    let (_, _, mine) =
        request_with(server.addr, "GET", "/api/me/passkeys", "", &header(&ann)).await;
    assert_eq!(mine["passkeys"], serde_json::json!([]));
}
