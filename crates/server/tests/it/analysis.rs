//! Post-game analysis through the server: refused
//! before the end and for an abandoned game, queued then running with
//! progress, stored and served again by a restarted server on the same
//! database, one job per table, and a bounded queue.

use super::play::play_to_end;
use super::util::*;
use serde_json::{json, Value};
use server::store::Store;
use server::Limits;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Fast limits with a small analysis budget.
pub(crate) fn limits() -> Limits {
    Limits {
        analysis_search: 16,
        analysis_rollouts: 8,
        ..Limits::unlimited()
    }
}

/// A database two servers in turn can open: a SQLite file, or a fresh
/// PostgreSQL database with `RATRACE_IT_BACKEND=postgres`.
async fn durable_spec() -> String {
    let pg = std::env::var("RATRACE_TEST_PG").unwrap_or_default();
    if std::env::var("RATRACE_IT_BACKEND").as_deref() == Ok("postgres") && !pg.is_empty() {
        fresh_pg_database(&pg).await
    } else {
        temp_db("analysis").to_string_lossy().into_owned()
    }
}

/// A table of one human (P1, joined) and heuristic bots; its id and P1's
/// connection with the first state.
async fn table(addr: SocketAddr) -> (String, Ws, Value) {
    let seats =
        json!([{"kind":"human"},{"kind":"bot","bot":"heuristic"},{"kind":"bot","bot":"heuristic"}]);
    let id = create(
        addr,
        json!({"game":"bigcheese","players":3,"seats":seats,"bot_delay_ms":0}),
    )
    .await;
    let token = join(addr, &id, "P1").await;
    let mut ws = Ws::connect(addr, &id).await;
    let first = ws.hello(Some(&token)).await;
    assert_eq!(first["type"], "state", "{first}");
    (id, ws, first)
}

/// A finished game's id.
pub(crate) async fn finished_game(addr: SocketAddr) -> String {
    let (id, mut ws, first) = table(addr).await;
    let last = play_to_end(&mut ws, "P1", first).await;
    assert!(last["outcome"].is_object(), "{last}");
    id
}

pub(crate) fn path(id: &str) -> String {
    format!("/api/tables/{id}/analysis")
}

/// Polls the analysis of `id` until it is done; every answer on the way
/// is progress (queued or running, done <= total).
pub(crate) async fn wait_done(addr: SocketAddr, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, v) = http(addr, "GET", &path(id), None).await;
        if status == 200 {
            assert_eq!(v["status"], "done", "{v}");
            return v;
        }
        assert_eq!(status, 202, "{v}");
        assert!(v["status"] == "queued" || v["status"] == "running", "{v}");
        assert!(v["done"].as_u64().unwrap() <= v["total"].as_u64().unwrap() || v["total"] == 0);
        assert!(
            tokio::time::Instant::now() < deadline,
            "the analysis never ended"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The fields of the analysis format the replay page reads.
fn check_fields(a: &Value) {
    assert_eq!(a["format"], "ratrace-analysis/1", "{a}");
    assert_eq!(a["game"], "bigcheese");
    assert_eq!(a["players"], 3);
    assert_eq!(a["finished"], true);
    assert!(a["unit"]["name"].is_string() && a["unit"]["higher_is_better"].is_boolean());
    for t in ["inaccuracy", "mistake", "blunder"] {
        assert!(a["thresholds"][t].is_number(), "{t}");
    }
    let decisions = a["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    for d in decisions {
        for f in [
            "move",
            "seat",
            "chosen",
            "best",
            "value_chosen",
            "value_best",
            "loss",
            "std_error",
            "label",
            "candidates",
        ] {
            assert!(!d[f].is_null(), "decision without {f}: {d}");
        }
        assert!(d["loss"].as_f64().unwrap() >= 0.0);
        let label = d["label"].as_str().unwrap();
        assert!(["good", "inaccuracy", "mistake", "blunder"].contains(&label));
    }
    let summary = a["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3, "every seat decided");
    for s in summary {
        for f in [
            "seat",
            "decisions",
            "mean_loss",
            "accuracy",
            "good",
            "inaccuracy",
            "mistake",
            "blunder",
        ] {
            assert!(!s[f].is_null(), "summary without {f}: {s}");
        }
    }
    assert_eq!(a["series"].as_array().unwrap().len(), 3);
    assert!(a["turning_points"].is_array());
    // the server's budget, not the defaults
    assert_eq!(a["budget"]["search"], 16);
    assert_eq!(a["budget"]["rollouts"], 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_refused_before_the_end_then_runs_and_is_stored() {
    let server = start_on(fresh_store().await, limits()).await;
    let addr = server.addr;
    // Unknown tables, and a game in progress.
    let (status, v) = http(addr, "POST", &path("nosuchtable00"), None).await;
    assert_eq!(status, 404, "{v}");
    let (status, v) = http(addr, "GET", &path("nosuchtable00"), None).await;
    assert_eq!((status, &v["status"]), (200, &json!("none")), "{v}");
    let (id, mut ws, first) = table(addr).await;
    let (status, v) = http(addr, "POST", &path(&id), None).await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"]["code"], "not_over");
    let (status, v) = http(addr, "GET", &path(&id), None).await;
    assert_eq!((status, &v["status"]), (200, &json!("none")), "{v}");
    // Finished: it is queued, then runs with progress, then is done.
    play_to_end(&mut ws, "P1", first).await;
    let (status, v) = http(addr, "POST", &path(&id), None).await;
    assert_eq!(status, 202, "{v}");
    assert!(v["status"] == "queued" || v["status"] == "running", "{v}");
    let done = wait_done(addr, &id).await;
    check_fields(&done["analysis"]);
    // Asking again starts nothing: it is done.
    let (status, v) = http(addr, "POST", &path(&id), None).await;
    assert_eq!((status, &v["status"]), (200, &json!("done")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_analysis_is_served_after_a_restart() {
    let spec = durable_spec().await;
    let store: Arc<dyn Store> = server::store::open(&spec).await.unwrap();
    let (server, _state) = start_state(store, limits()).await;
    let id = finished_game(server.addr).await;
    let (status, v) = http(server.addr, "POST", &path(&id), None).await;
    assert_eq!(status, 202, "{v}");
    let before = wait_done(server.addr, &id).await;
    drop(server);
    drop(_state);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A new server process on the same database: no job in memory, the
    // analysis comes from the store.
    let store: Arc<dyn Store> = server::store::open(&spec).await.unwrap();
    let (again, state) = start_state(store, limits()).await;
    assert_eq!(state.analyses_pending(), 0);
    let (status, after) = http(again.addr, "GET", &path(&id), None).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after, before);
    check_fields(&after["analysis"]);
    let (status, v) = http(again.addr, "POST", &path(&id), None).await;
    assert_eq!((status, &v["status"]), (200, &json!("done")), "{v}");
    assert_eq!(state.analyses_pending(), 0, "nothing started again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_job_per_table_and_a_bounded_queue() {
    // One may run and none wait; a budget large enough that the first is
    // still at work when the others ask (a few seconds in a debug build;
    // the test's runtime waits for it at the end).
    let (server, state) = start_state(
        fresh_store().await,
        Limits {
            analysis_queue: 0,
            analysis_search: 100,
            analysis_rollouts: 50,
            ..Limits::unlimited()
        },
    )
    .await;
    let addr = server.addr;
    let first = finished_game(addr).await;
    let second = finished_game(addr).await;
    let (status, v) = http(addr, "POST", &path(&first), None).await;
    assert_eq!(status, 202, "{v}");
    // The same table again: its progress, no second job (even with a full
    // queue).
    let (status, v) = http(addr, "POST", &path(&first), None).await;
    assert_eq!(status, 202, "{v}");
    assert!(v["status"] == "queued" || v["status"] == "running", "{v}");
    assert_eq!(state.analyses_pending(), 1);
    // Another table: the queue is full.
    let (status, v) = http(addr, "POST", &path(&second), None).await;
    assert_eq!(status, 503, "{v}");
    assert_eq!(v["error"]["code"], "busy");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("try again"));
    assert_eq!(state.analyses_pending(), 1);
    let (status, v) = http(addr, "GET", &path(&second), None).await;
    assert_eq!((status, &v["status"]), (200, &json!("none")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_game_has_no_analysis() {
    let server = start_on(
        fresh_store().await,
        Limits {
            max_actions: 5,
            ..limits()
        },
    )
    .await;
    let (id, mut ws, first) = table(server.addr).await;
    // The length cap ends the game abandoned, without an outcome.
    let mut m = first;
    let mut acted = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        if info["status"] == "abandoned" {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{info}");
        if m["type"] == "state" && m["to_move"] == "P1" && acted != m["seq"].as_u64() {
            let legal = m["legal"].as_array().unwrap();
            if !legal.is_empty() {
                acted = m["seq"].as_u64();
                ws.send(json!({"type":"act","seq":m["seq"],"action":legal[0]}))
                    .await;
            }
        }
        m = tokio::time::timeout(Duration::from_millis(200), ws.next())
            .await
            .unwrap_or(Value::Null);
    }
    let (status, v) = http(server.addr, "POST", &path(&id), None).await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"]["code"], "abandoned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_sums_up_the_persons_analysed_decisions() {
    let server = start_on(fresh_store().await, limits()).await;
    let addr = server.addr;
    let seats =
        json!([{"kind":"human"},{"kind":"bot","bot":"heuristic"},{"kind":"bot","bot":"random"}]);
    let id = create(
        addr,
        json!({"game":"bigcheese","players":3,"seats":seats,"bot_delay_ms":0,"public":true}),
    )
    .await;
    let key = "ef".repeat(32);
    let body = json!({"seat": "P1", "name": "Ann", "player": key, "contribution": CONTRIBUTION});
    let (status, joined) = http(
        addr,
        "POST",
        &format!("/api/tables/{id}/join"),
        Some(&body.to_string()),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let mut ws = Ws::connect(addr, &id).await;
    let first = ws.hello(joined["token"].as_str()).await;
    play_to_end(&mut ws, "P1", first).await;
    let (status, v) = http(addr, "POST", &path(&id), None).await;
    assert_eq!(status, 202, "{v}");
    let done = wait_done(addr, &id).await;
    let mine = done["analysis"]["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "P1")
        .unwrap()
        .clone();
    let (_, _, me) = request_with(
        addr,
        "GET",
        "/api/me/games",
        "",
        &format!("X-Ratrace-Key: {key}\r\n"),
    )
    .await;
    let short = me["player"].as_str().unwrap();
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let profile = loop {
        let (status, p) = http(addr, "GET", &format!("/api/players/{short}"), None).await;
        if status == 200 {
            break p;
        }
        assert!(tokio::time::Instant::now() < deadline, "no profile: {p}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let acc = &profile["ratings"][0]["accuracy"];
    assert_eq!(acc["games"], 1, "{profile}");
    assert_eq!(acc["decisions"], mine["decisions"], "{acc} vs {mine}");
    assert_eq!(acc["blunders"], mine["blunder"]);
    assert_eq!(acc["mistakes"], mine["mistake"]);
    let (a, b) = (
        acc["accuracy"].as_f64().unwrap(),
        mine["accuracy"].as_f64().unwrap(),
    );
    assert!((a - b).abs() < 1e-9, "{a} vs {b}");
}
