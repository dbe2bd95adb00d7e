//! The security suite, second part: each finding of the second outside
//! probe as a regression test against a real server on
//! loopback, bounded in count and time like the first part
//! (`security.rs`).

use super::security::jester_seed;
use super::util::*;
use futures_util::SinkExt;
use serde_json::json;
use server::store::{SqliteStore, Store};
use server::Limits;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn memory() -> Arc<dyn Store> {
    Arc::new(SqliteStore::in_memory().unwrap())
}

/// Readers that never read: a spectator that never reads is closed as too slow,
/// and its socket is really gone within seconds (the kernel's own list, not a
/// gauge), while the client still holds its end open and keeps asking for
/// states.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kicked_reader_that_never_reads_loses_its_socket() {
    let limits = Limits {
        send_buffer: 4096,
        ..Limits::unlimited()
    };
    let server = start_on(memory(), limits).await;
    let id = bot_session(server.addr).await;
    // The creation's connection may take a moment to be gone.
    let quiet = tokio::time::Instant::now() + Duration::from_secs(5);
    while server_sockets(server.addr.port()) > 0 {
        assert!(tokio::time::Instant::now() < quiet, "a socket stays open");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut slow = slow_spectator(server.addr, &id, 2048).await;
    // Resyncs at 18 a second, never reading an answer; the bots' actions
    // add their updates.
    let start = tokio::time::Instant::now();
    let mut seen_open = false;
    let mut gone = None;
    while start.elapsed() < Duration::from_secs(25) {
        let open = server_sockets(server.addr.port());
        seen_open |= open > 0;
        if seen_open && open == 0 {
            gone = Some(start.elapsed());
            break;
        }
        let resync = Message::Text(json!({"type": "resync"}).to_string().into());
        // Once the server has reset the connection, sending fails: the
        // client keeps its end all the same.
        let _ = tokio::time::timeout(Duration::from_millis(50), slow.send(resync)).await;
        tokio::time::sleep(Duration::from_millis(55)).await;
    }
    assert!(seen_open, "the connection was never open");
    let gone = gone.expect("the kicked connection's socket is still open after 25 s");
    assert!(gone < Duration::from_secs(20), "{gone:?}");
    drop(slow);
}

/// Puts a 4-seat, one-hand Dalmuti table `id` with a 60 s turn timer
/// into `store`, dealt from `seed`; seat `i` is a person where `humans[i]`,
/// else the heuristic bot.
fn seeded_dalmuti(store: &dyn Store, id: &str, seed: u64, humans: [bool; 4]) {
    use game::GameOptions;
    use server::store::{Access, SeatKind, StoredSeat, StoredTable, TableConfig};
    let opts: dalmuti::Options = GameOptions::from_pairs([("hands", "1")]).unwrap();
    store
        .create_table(
            &StoredTable {
                id: id.into(),
                game: "dalmuti".into(),
                rules_version: <dalmuti::Dalmuti as game::Game>::RULES_VERSION.into(),
                players: 4,
                options: opts.pairs().into_iter().collect(),
                seed: seed.into(),
                seed_hash: registry::fair::sha256_hex(&seed.to_string()),
                fair: None,
                config: TableConfig {
                    bot_delay_ms: 0,
                    turn_timer_ms: Some(60_000),
                    ..Default::default()
                },
                created_at: server::clock::unix_now(),
                finished_at: None,
                seats: (0..4)
                    .map(|i| StoredSeat {
                        seat: game::Seat::new(i),
                        kind: if humans[i] {
                            SeatKind::Human {
                                name: None,
                                token_hash: None,
                            }
                        } else {
                            SeatKind::Bot("heuristic".into())
                        },
                    })
                    .collect(),
                actions: Vec::new(),
                access: Access {
                    public: true,
                    ..Default::default()
                },
                social: Default::default(),
            },
            "seeding",
        )
        .unwrap();
}

/// The revolution window of the hidden-decision test (the turn timer is a
/// minute: a time left under this is the window's).
const WINDOW_MS: u64 = 4000;

/// What P1 and a spectator receive at one table from the moment the
/// game starts until the revolution decision (D7, held by P3) lands,
/// that decision excluded. `person`: P3 is a person, who acts at once
/// when `acts`; else P3 is a bot.
async fn hidden_decision_messages(person: bool, acts: bool) -> Vec<serde_json::Value> {
    let store: Arc<dyn Store> = memory();
    // The window opens when P1's join starts the game: long enough for P1
    // and the spectator to connect and say hello on a loaded machine before
    // the decision lands (else they would see fewer messages).
    let limits = Limits {
        revolution_window_ms: WINDOW_MS,
        ..Limits::unlimited()
    };
    let server = start_on(Arc::clone(&store), limits).await;
    let id = "hidden";
    seeded_dalmuti(&*store, id, jester_seed(2), [true, false, person, false]);
    let mut p3 = None;
    if person {
        let t3 = join(server.addr, id, "P3").await;
        let mut ws = Ws::connect(server.addr, id).await;
        assert_eq!(ws.hello(Some(&t3)).await["type"], "state");
        p3 = Some(ws);
    }
    let t1 = join(server.addr, id, "P1").await;
    let mut p1 = Ws::connect(server.addr, id).await;
    p1.send(json!({"type": "hello", "token": t1, "lang": "en"}))
        .await;
    let mut spectator = Ws::connect(server.addr, id).await;
    spectator.send(json!({"type": "hello", "lang": "en"})).await;
    if let (Some(ws), true) = (p3.as_mut(), acts) {
        let st = ws.next_of("state").await;
        assert_eq!(st["to_move"], "P3", "{st}");
        assert_eq!(st["seq"], 0);
        ws.send(json!({"type":"act","seq":0,"action":"no-revolution"}))
            .await;
        assert_eq!(ws.next_of("notice").await["code"], "held");
    }
    let mut seen = Vec::new();
    for (who, ws) in [("P1", &mut p1), ("spectator", &mut spectator)] {
        let mut first_rev = None;
        loop {
            let raw = ws.next_raw().await.expect("open");
            let mut m: serde_json::Value = serde_json::from_str(&raw).unwrap();
            if m["seq"].as_u64().is_some_and(|s| s > 0) {
                break;
            }
            m["to"] = json!(who);
            // The table's revision counts P3's join too (a public event):
            // compared from each connection's first message.
            if let Some(rev) = m["rev"].as_u64() {
                let first = *first_rev.get_or_insert(rev);
                m["rev"] = json!(rev - first);
            }
            seen.push(m);
        }
    }
    seen
}

/// The hidden revolution decision seen from other seats: during the hidden
/// revolution decision (D7) nothing P1 or a spectator receives differs by
/// whether a person (deciding at once, or never) or a bot holds both Jesters,
/// at a table with a turn timer: every message, field by field, but the seat
/// list, where whether P3 is a person is public anyway, and the time left,
/// which runs on (the revision is counted from each connection's first message:
/// P3's join is public too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hidden_decision_looks_the_same_whoever_holds_the_jesters() {
    let bot = hidden_decision_messages(false, false).await;
    for acts in [true, false] {
        let person = hidden_decision_messages(true, acts).await;
        assert_eq!(
            person.len(),
            bot.len(),
            "a person holding (acting: {acts}) sends other messages than a bot: {person:?} vs {bot:?}"
        );
        for (p, b) in person.iter().zip(&bot) {
            let (mut p, mut b) = (p.clone(), b.clone());
            // A timed window the same for everyone: both carry it, or
            // neither; the values differ by when each message was made.
            let (pl, bl) = (p["turn_left_ms"].as_u64(), b["turn_left_ms"].as_u64());
            assert_eq!(pl.is_some(), bl.is_some(), "turn_left_ms: {p} vs {b}");
            if let (Some(pl), Some(bl)) = (pl, bl) {
                assert!(pl.abs_diff(bl) < 1000, "{pl} vs {bl}");
                assert!(
                    pl <= WINDOW_MS,
                    "the window's time, not the turn timer's: {pl}"
                );
            }
            for m in [&mut p, &mut b] {
                if let Some(o) = m.as_object_mut() {
                    o.remove("turn_left_ms");
                    o.remove("seats");
                }
            }
            assert_eq!(p, b, "person holding (acting: {acts}) vs bot holding");
        }
    }
}

/// Bot-program process slots: tables made with bot programs hold no process
/// slot until their programs decide in a game under way; one address's tables
/// run at most its share (the rest played by the heuristic bot, the refusal
/// counted); a slot comes back when the game ends or its table leaves memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_program_slots_are_taken_by_games_under_way_within_an_address_share() {
    use super::extbots::{random_bot, slots_given_back};
    use server::extbots::{ExternalBots, Program};
    let limits = Limits {
        evict_after: Duration::from_secs(1),
        ..Limits::unlimited()
    };
    let (server, state) = start_state(fresh_store().await, limits).await;
    let program = Program {
        game: None,
        name: "pyrandom".into(),
        command: random_bot(),
    };
    let offered = ExternalBots::new(vec![program], 2000, 4).unwrap().per_ip(2);
    assert!(state.offer_bots(offered));
    let bots = state.external_bots();
    let body = |programs: usize| {
        let mut seats = vec![json!({"kind": "human"})];
        seats.extend((0..programs).map(|_| json!({"kind": "bot", "bot": "pyrandom"})));
        seats.extend((programs..3).map(|_| json!({"kind": "bot", "bot": "heuristic"})));
        json!({"game": "dalmuti", "players": 4, "options": {"hands": 1}, "bot_delay_ms": 1,
               "seats": seats})
    };
    // The probe's hoard: table after table of programs nobody plays.
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(create(server.addr, body(2)).await);
    }
    assert_eq!(bots.in_use(), 0, "tables nobody plays hold no slot");
    // More programs than one address may run at once: refused, counted.
    let (status, v) = http(
        server.addr,
        "POST",
        "/api/tables",
        Some(&body(3).to_string()),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (503, Some("busy")),
        "{v}"
    );
    let refusals = |kind: &str| {
        let text = state.metrics().render(0);
        let key = format!("ratrace_refusals_total{{kind=\"{kind}\"}} ");
        text.lines()
            .find_map(|l| l.strip_prefix(key.as_str()))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    assert_eq!(refusals("bot_processes_per_ip"), 1);

    // The first table's game starts when its person joins: both its
    // programs take their slots then, together, whoever decides first
    // (when a program starts must not tell whose the hidden D7 decision
    // is).
    let t1 = join(server.addr, &ids[0], "P1").await;
    assert_eq!(bots.in_use(), 2);
    assert_eq!(bots.held_by("127.0.0.1"), 2);
    let mut ws1 = Ws::connect(server.addr, &ids[0]).await;
    ws1.hello(Some(&t1)).await;
    // The second table of the same address plays to the end without
    // them: the heuristic bot stands in, and the refusal is counted.
    let t2 = join(server.addr, &ids[1], "P1").await;
    let mut ws2 = Ws::connect(server.addr, &ids[1]).await;
    let first = ws2.hello(Some(&t2)).await;
    let last = super::play::play_to_end(&mut ws2, "P1", first).await;
    assert!(last["outcome"].is_object(), "{last}");
    assert_eq!(bots.in_use(), 2);
    assert!(refusals("bot_processes_per_ip") >= 2);
    // Nobody watches the first table: it leaves memory, and its slots
    // come back with it, its game unfinished.
    drop(ws1);
    slots_given_back(&state).await;
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{}", ids[0]), None).await;
    assert_ne!(info["status"], "finished", "{info}");
}

/// Chat lines `ws` receives until `quiet` passes without one.
/// Chat lines `ws` receives: at least `at_least` (waiting up to 20 s for
/// them, however slow the machine), then until `quiet` passes without one.
async fn chats_until_quiet(ws: &mut Ws, at_least: usize, quiet: Duration) -> usize {
    let mut n = 0;
    loop {
        let wait = if n < at_least {
            Duration::from_secs(20)
        } else {
            quiet
        };
        let Ok(raw) = tokio::time::timeout(wait, ws.next_raw()).await else {
            break;
        };
        let Some(raw) = raw else { break };
        let m: serde_json::Value = serde_json::from_str(&raw).unwrap();
        if m["type"] == "chat" && m["history"] != true {
            n += m["messages"].as_array().map_or(0, Vec::len);
        }
    }
    n
}

/// Chat floods: chat is metered per seat, whatever connections it has, and per
/// address: one seat over 40 connections (from 40 addresses) and one
/// address's spectators over 10 get through no more than one seat's
/// budget; one address over six tables no more than its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_metered_per_seat_and_per_address_not_per_connection() {
    use server::quota::CHAT_IP_BURST;
    use server::social::CHAT_BURST;
    let server = start().await;
    let quiet = json!({"game": "bigcheese", "players": 3, "bot_delay_ms": 10000,
        "spectator_chat": true,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]});
    let burst = CHAT_BURST as usize;

    // One address at six tables, a seat's whole budget at each.
    let start = tokio::time::Instant::now();
    let mut tables = Vec::new();
    for _ in 0..6 {
        let id = create(server.addr, quiet.clone()).await;
        let t = join(server.addr, &id, "P1").await;
        join(server.addr, &id, "P2").await;
        let mut ws = Ws::connect_from(server.addr, &id, [127, 0, 0, 13]).await;
        ws.hello(Some(&t)).await;
        for i in 0..burst {
            ws.send(json!({"type": "chat", "text": format!("hi {i}")}))
                .await;
        }
        tables.push(ws);
    }
    // Until the address's burst is in and a round brings nothing more.
    let mut got = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let mut round = 0;
        for ws in &mut tables {
            round += chats_until_quiet(ws, 0, Duration::from_millis(300)).await;
        }
        got += round;
        if (got >= CHAT_IP_BURST as usize && round == 0) || tokio::time::Instant::now() > deadline {
            break;
        }
    }
    // The burst, and what the budget refills while they are handled.
    let took = start.elapsed().as_secs() as usize;
    let most = CHAT_IP_BURST as usize + took + 1;
    assert!(
        got >= CHAT_IP_BURST as usize && got <= most,
        "{got} of {} delivered at six tables, at most {most}",
        6 * burst
    );
    drop(tables);

    let id = create(server.addr, quiet.clone()).await;
    let t1 = join(server.addr, &id, "P1").await;
    let t2 = join(server.addr, &id, "P2").await;
    let mut reader = Ws::connect(server.addr, &id).await;
    reader.hello(Some(&t2)).await;
    // One seat, 40 connections from 40 addresses, 5 messages each.
    let mut p1 = Vec::new();
    for n in 0..40 {
        let mut ws = Ws::connect_from(server.addr, &id, [127, 0, 1, 1 + n]).await;
        ws.hello(Some(&t1)).await;
        p1.push(ws);
    }
    let start = tokio::time::Instant::now();
    for ws in &mut p1 {
        for i in 0..5 {
            ws.send(json!({"type": "chat", "text": format!("spam {i}")}))
                .await;
        }
    }
    let got = chats_until_quiet(&mut reader, burst, Duration::from_millis(800)).await;
    // The seat's burst, and what its budget refills while they are handled.
    let took = start.elapsed().as_secs() as usize;
    let most = burst + took / 2 + 1;
    assert!(
        got >= burst && got <= most,
        "{got} of 200 delivered, at most {most}"
    );
    drop(p1);

    // Ten spectators from one address, 3 messages each.
    let start = tokio::time::Instant::now();
    let mut watchers = Vec::new();
    for _ in 0..10 {
        let mut ws = Ws::connect_from(server.addr, &id, [127, 0, 0, 12]).await;
        ws.hello(None).await;
        for i in 0..3 {
            ws.send(json!({"type": "chat", "text": format!("psst {i}")}))
                .await;
        }
        watchers.push(ws);
    }
    let got = chats_until_quiet(&mut reader, burst, Duration::from_millis(800)).await;
    let took = start.elapsed().as_secs() as usize;
    let most = burst + took / 2 + 1;
    assert!(
        got >= burst && got <= most,
        "{got} of 30 spectators' messages delivered, at most {most}"
    );
}

/// Plays table `id` (P1 a person who has joined with `token`, the rest
/// bots) to its end; its record.
async fn played_record(addr: std::net::SocketAddr, id: &str, token: &str) -> serde_json::Value {
    let mut ws = Ws::connect(addr, id).await;
    let first = ws.hello(Some(token)).await;
    let last = super::play::play_to_end(&mut ws, "P1", first).await;
    assert!(last["outcome"].is_object(), "{last}");
    let (status, record) = http(addr, "GET", &format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200, "{record}");
    record
}

/// Records without a commitment, and records passed off as another
/// table's: a record with no commitment is unverifiable, never
/// verified; a record's seed is bound to its table and the commitment
/// its players were shown, so one table's record posted as another's
/// (the same contribution at both) fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_are_bound_to_their_table_and_an_uncommitted_one_is_unverifiable() {
    let server = start_fast().await;
    let body = json!({"game": "bigcheese", "players": 3, "bot_delay_ms": 1,
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]});
    let x = create_full(server.addr, body.clone()).await;
    let y = create_full(server.addr, body).await;
    let (x_id, y_id) = (x["id"].as_str().unwrap(), y["id"].as_str().unwrap());
    // The same contribution at both tables; each join answer carries the
    // commitment its player is shown.
    let mut tokens = Vec::new();
    for t in [&x, &y] {
        let id = t["id"].as_str().unwrap();
        let req =
            json!({"seat": "P1", "name": "Ann", "key": key_of(id), "contribution": CONTRIBUTION});
        let (status, v) = http(
            server.addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            Some(&req.to_string()),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(
            v["commitment"], t["seed_hash"],
            "the join tells the commitment"
        );
        tokens.push(v["token"].as_str().unwrap().to_string());
    }
    let rx = played_record(server.addr, x_id, &tokens[0]).await;
    let ry = played_record(server.addr, y_id, &tokens[1]).await;
    for (r, t) in [(&rx, &x), (&ry, &y)] {
        let f = &r["fairness"];
        assert_eq!(f["scheme"], "ratrace-fair/3", "{f}");
        assert_eq!(f["table"], t["id"]);
        assert_eq!(f["commitment"], t["seed_hash"]);
        // Signed by the server's key, the one it publishes.
        let (_, key) = http(server.addr, "GET", "/api/key", None).await;
        assert_eq!(f["key"], key["key"], "{f}");
        assert_eq!(f["signature"].as_str().map(str::len), Some(128), "{f}");
    }
    let check = |record: &serde_json::Value| {
        let text = record.to_string();
        let addr = server.addr;
        async move {
            let (status, report) = http(addr, "POST", "/api/verify", Some(&text)).await;
            assert_eq!(status, 200, "{report}");
            report
        }
    };
    let report = check(&rx).await;
    assert_eq!(
        (report["ok"].as_bool(), report["verdict"].as_str()),
        (Some(true), Some("verified"))
    );
    // Y's record posted as X's: named X, or also with X's commitment.
    let mut as_x = ry.clone();
    as_x["fairness"]["table"] = json!(x_id);
    let report = check(&as_x).await;
    assert_eq!(
        (report["ok"].as_bool(), report["verdict"].as_str()),
        (Some(false), Some("failed")),
        "{report}"
    );
    as_x["fairness"]["commitment"] = rx["fairness"]["commitment"].clone();
    assert_eq!(check(&as_x).await["verdict"], "failed");
    // Without its table: refused, not read as version 1.
    let mut unbound = ry.clone();
    unbound["fairness"].as_object_mut().unwrap().remove("table");
    assert_eq!(check(&unbound).await["verdict"], "failed");
    // No commitment at all: unverifiable, with a reason.
    let mut bare = rx.clone();
    bare.as_object_mut().unwrap().remove("fairness");
    bare.as_object_mut().unwrap().remove("seed_hash");
    let report = check(&bare).await;
    assert_eq!(
        (report["ok"].as_bool(), report["verdict"].as_str()),
        (Some(false), Some("unverifiable")),
        "{report}"
    );
    assert!(
        report["error"].as_str().unwrap().contains("no commitment"),
        "{report}"
    );
}

/// A finished Big Cheese game of 3 seats as a crash leaves it: every
/// action stored, the last one ending it, but no result. P1 is the person
/// `player` (an identity, from `origin`), P2 and P3 bots of `level`.
fn crashed_before_its_result(store: &dyn Store, id: &str, player: &str, level: &str) {
    use game::{Game, GameOptions};
    use server::store::{Access, SeatKind, StoredAction, StoredSeat, StoredTable};
    let seed = 9;
    let mut g = bigcheese::BigCheese::new(&Default::default(), 3, seed).unwrap();
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while let Some(seat) = g.to_move() {
        g.legal_actions(&mut legal);
        let a = legal[actions.len() % legal.len()];
        g.apply(a).unwrap();
        actions.push(StoredAction {
            seq: actions.len() as u64 + 1,
            seat,
            action: a.to_string(),
            stand_in: false,
        });
    }
    assert!(actions.len() >= server::social::MIN_RATED_ACTIONS);
    let table = StoredTable {
        id: id.into(),
        game: "bigcheese".into(),
        rules_version: "bigcheese/1".into(),
        players: 3,
        options: g.options().pairs().into_iter().collect(),
        seed: seed.into(),
        seed_hash: registry::fair::sha256_hex(&seed.to_string()),
        fair: None,
        config: Default::default(),
        created_at: server::clock::unix_now(),
        finished_at: None,
        seats: (0..3)
            .map(|i| StoredSeat {
                seat: game::Seat::new(i),
                kind: if i == 0 {
                    SeatKind::Human {
                        name: None,
                        token_hash: None,
                    }
                } else {
                    SeatKind::Bot(level.into())
                },
            })
            .collect(),
        actions: Vec::new(),
        access: Access {
            public: true,
            ..Default::default()
        },
        social: Default::default(),
    };
    store.create_table(&table, "seeding").unwrap();
    assert!(store
        .take_seat_as(server::store::SeatTaking {
            player: Some(player.to_string()),
            origin: Some("o".to_string()),
            ..server::store::SeatTaking::person(id, game::Seat::new(0), "Ann", "h", 1)
        })
        .unwrap());
    let n = actions.len();
    for (i, a) in actions.iter().enumerate() {
        store.append_action(id, a, 2, i + 1 == n, 1).unwrap();
    }
}

/// A crash between a game's end and its result: a game that ended by the rules
/// while the server crashed before writing its result gets its result and its
/// rating update at the next start, without anyone opening the table; once,
/// however many starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_lost_in_a_crash_is_written_at_start_once() {
    let db = temp_db("results");
    let open = || -> Arc<dyn Store> { Arc::new(SqliteStore::open(&db).unwrap()) };
    crashed_before_its_result(&*open(), "crashed1", "id-ann", "random");
    assert_eq!(
        open().unrecorded_ids("", 10).unwrap(),
        vec!["crashed1".to_string()]
    );
    assert!(open().ratings_of("id-ann").unwrap().is_empty());
    for start in 0..2 {
        let server = start_on(open(), Limits::default()).await;
        let mut rated = Vec::new();
        for _ in 0..100 {
            rated = open().ratings_of("id-ann").unwrap();
            if !rated.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(rated.len(), 1, "start {start}: rated at start-up");
        assert_eq!(rated[0].games, 1, "start {start}: once");
        assert!(open().unrecorded_ids("", 10).unwrap().is_empty());
        // The lobby shows the winners: the result is there, though the
        // table was never opened.
        let (_, list) = http(server.addr, "GET", "/api/tables", None).await;
        assert!(list[0]["winners"].is_array(), "{list}");
        drop(server);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// Rating sybils: the probe's sybil attack, replayed through the store's own
/// rating code: "Champ" wins 30 rated games (public tables, full length)
/// against fresh identities, from other addresses or its own. Champ's rating
/// and the leaderboard do not move at all; against a bot at the table, Champ
/// moves only as beating that bot is worth, and the sybils never do.
#[test]
fn a_sybil_army_cannot_lift_a_rating() {
    use server::social::{GameResult, Rated, Rating};
    let store = SqliteStore::in_memory().unwrap();
    let person = |id: &str, origin: &str| Rated::Person {
        id: id.into(),
        name: id.into(),
        origin: Some(origin.into()),
    };
    let mut games = 0;
    let mut record = |seats: Vec<Rated>, n: usize| {
        games += 1;
        let id = format!("sybil{games}");
        let mut t = server::store::StoredTable {
            id: id.clone(),
            game: "bigcheese".into(),
            rules_version: "bigcheese/1".into(),
            players: seats.len(),
            options: Default::default(),
            seed: 1u64.into(),
            seed_hash: String::new(),
            fair: None,
            config: Default::default(),
            created_at: 1,
            finished_at: None,
            seats: Vec::new(),
            actions: Vec::new(),
            access: Default::default(),
            social: Default::default(),
        };
        t.seats = (0..seats.len())
            .map(|i| server::store::StoredSeat {
                seat: game::Seat::new(i),
                kind: server::store::SeatKind::Bot("random".into()),
            })
            .collect();
        store.create_table(&t, "n").unwrap();
        let act = server::store::StoredAction {
            seq: 1,
            seat: game::Seat::new(0),
            action: "pass".into(),
            stand_in: false,
        };
        store.append_action(&id, &act, 2, true, 1).unwrap();
        let result = GameResult {
            game: "bigcheese".into(),
            outcome: "{}".into(),
            places: (1..=seats.len() as u8).collect(),
            capped: false,
            seats,
            at: 10,
            public: true,
            actions: n,
            engaged: Vec::new(),
            tutorial: false,
        };
        assert!(store.record_result(&id, &result).unwrap());
    };
    // Fresh identities from other addresses, then from Champ's own.
    for g in 0..30 {
        let origin = if g < 15 {
            format!("elsewhere{g}")
        } else {
            "home".into()
        };
        record(
            vec![
                person("champ", "home"),
                person(&format!("s{g}a"), &origin),
                person(&format!("s{g}b"), &origin),
            ],
            40,
        );
    }
    assert!(
        store.ratings_of("champ").unwrap().is_empty(),
        "Champ never rated"
    );
    let board = store.leaderboard("bigcheese", 100).unwrap();
    assert!(board.iter().all(|r| r.name != "champ"), "{board:?}");
    // Proven sybils from Champ's own address: still nothing.
    for _ in 0..PROVEN {
        for s in ["pa", "pb"] {
            record(vec![person(s, "home"), Rated::Bot("random".into())], 40);
        }
    }
    record(
        vec![
            person("champ", "home"),
            person("pa", "home"),
            person("pb", "home"),
        ],
        40,
    );
    assert!(store.ratings_of("champ").unwrap().is_empty());
    // A bot at the table: Champ is measured against it alone; the sybils
    // lose to it, and never to Champ.
    for g in 0..30 {
        record(
            vec![
                person("champ", "home"),
                Rated::Bot("heuristic".into()),
                person(&format!("t{g}"), &format!("far{g}")),
            ],
            40,
        );
    }
    let champ = store.ratings_of("champ").unwrap();
    assert_eq!(champ[0].games, 30);
    // The most 30 straight wins over the heuristic bot give.
    let alone = (0..30).fold(Rating::START, |r, _| {
        let result = GameResult {
            game: "bigcheese".into(),
            outcome: "{}".into(),
            places: vec![1, 2],
            capped: false,
            seats: vec![person("x", "x"), Rated::Bot("heuristic".into())],
            at: 0,
            public: true,
            actions: 40,
            engaged: Vec::new(),
            tutorial: false,
        };
        let standing = server::social::Standing {
            rating: r,
            games: 0,
            first_at: 0,
        };
        server::social::rate(&result, &[Some(standing), None])[0].unwrap()
    });
    assert!(
        (champ[0].rating - alone.rating).abs() < 1e-6,
        "{} vs {}",
        champ[0].rating,
        alone.rating
    );
    // A short game moves nobody (private tables: `social`'s unit tests).
    let before = store.ratings_of("champ").unwrap()[0].rating;
    record(
        vec![person("champ", "home"), Rated::Bot("search".into())],
        29,
    );
    assert_eq!(store.ratings_of("champ").unwrap()[0].rating, before);
}

const PROVEN: i64 = server::social::PROVEN_GAMES;

/// Analysis downloads: a stored analysis is served with a strong ETag (then 304
/// with no body), and sending it is metered per address like a record download.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_reads_are_cached_and_metered() {
    use super::analysis::{finished_game, limits, path, wait_done};
    let limits = Limits {
        record_burst: 4,
        record_every_s: 600,
        ..limits()
    };
    let server = start_on(memory(), limits).await;
    let id = finished_game(server.addr).await;
    let (status, v) = http(server.addr, "POST", &path(&id), Some("")).await;
    assert!(status == 202 || status == 200, "{v}");
    wait_done(server.addr, &id).await;
    let (status, head, body) = request(server.addr, "GET", &path(&id), "").await;
    assert_eq!(status, 200, "{body}");
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an etag")
        .trim()
        .to_string();
    assert!(head.contains("cache-control: public"), "{head}");
    // The client that has it gets 304 and no body, as often as it asks:
    // nothing is read, nothing is metered.
    for _ in 0..10 {
        let (status, head, body) = request_with(
            server.addr,
            "GET",
            &path(&id),
            "",
            &format!("If-None-Match: {etag}\r\n"),
        )
        .await;
        assert_eq!(status, 304, "{head}");
        assert!(body.is_null());
    }
    // Sending it again is metered: the address's burst runs out.
    let mut sent = 0;
    let refused = loop {
        let (status, head, v) = request(server.addr, "GET", &path(&id), "").await;
        match status {
            200 => sent += 1,
            429 => break (head, v),
            other => panic!("{other}: {v}"),
        }
        assert!(sent <= 4, "never metered");
    };
    assert_eq!(refused.1["error"]["code"], "rate_limited", "{}", refused.1);
    assert!(refused.0.contains("retry-after"), "{}", refused.0);
}

/// The close frame `ws` ends with (skipping other messages): its code and
/// reason, `None` if the connection ends without one.
async fn closed_with(ws: &mut Ws) -> Option<(u16, String)> {
    use futures_util::StreamExt;
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.socket.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => {
                return frame.map(|f| (u16::from(f.code), f.reason.to_string()))
            }
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

/// Names and frames: an operator's bot program's name is reserved like a
/// built-in bot's; a frame too big and text that is not UTF-8 are closed with
/// their codes (1009, 1007) and a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn program_names_are_reserved_and_every_close_has_a_code_and_a_reason() {
    use super::extbots::start_with;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    let (server, _state) = start_with(
        &[("peek", "true".into()), ("deep-blue", "true".into())],
        1000,
        2,
    )
    .await;
    let id = create(
        server.addr,
        json!({"game": "bigcheese", "players": 3,
               "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let join_as = |name: &str| json!({"name": name, "key": key_of(&id)}).to_string();
    let bad = ["peek", "Peek2", "the PEEK", "Deep Blue", "deep_blue"];
    let good = ["Peeker", "Blue"];
    for (name, refused) in bad
        .iter()
        .map(|n| (n, true))
        .chain(good.iter().map(|n| (n, false)))
    {
        let path = format!("/api/tables/{id}/join");
        let (status, _, v) = request(server.addr, "POST", &path, &join_as(name)).await;
        if refused {
            assert_eq!(status, 400, "{name}: {v}");
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.contains("bot's name"), "{v}");
        } else {
            assert_eq!(status, 200, "{name}: {v}");
        }
    }

    let mut big = Ws::connect(server.addr, &id).await;
    big.hello(None).await;
    let _ = big
        .socket
        .send(Message::Text("x".repeat(70 * 1024).into()))
        .await;
    let (code, reason) = closed_with(&mut big).await.expect("a close frame");
    assert_eq!(code, 1009, "{reason}");
    // (the codec's own words, "Frame too large", for one frame over the
    // cap; the server's for a message of many)
    assert!(
        reason.contains("too large") || reason.contains("too big"),
        "{reason}"
    );

    let mut bad = Ws::connect(server.addr, &id).await;
    bad.hello(None).await;
    let frame = Frame::message(vec![0x68, 0x69, 0xff, 0xfe], OpCode::Data(Data::Text), true);
    let _ = bad.socket.send(Message::Frame(frame)).await;
    let (code, reason) = closed_with(&mut bad).await.expect("a close frame");
    assert_eq!(code, 1007, "{reason}");
    assert!(reason.contains("UTF-8"), "{reason}");
}

/// Bot programs reaching the server's secrets: a server's bot program runs
/// sandboxed: a program that reads the database, its parent's command line or
/// the server's environment gives up (exits 3, a crash and a strike); it finds
/// none of them and plays its game. The same program unconfined reads the
/// database at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_program_finds_neither_the_database_nor_the_servers_secrets() {
    use super::extbots::{metric, random_bot};
    use server::extbots::{sandbox_for, ExternalBots, Program};
    let db = temp_db("sandbox");
    std::fs::write(db.with_extension("secret"), "in the database's folder").unwrap();
    let scripts = std::env::temp_dir().join(format!(
        "ratrace-snoop-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&scripts).unwrap();
    let snoop = scripts.join("snoop.sh");
    std::fs::write(
        &snoop,
        "db=\"$1\"; shift\n\
         if cat \"$db\" >/dev/null 2>&1; then echo 'read the database' >&2; exit 3; fi\n\
         if cat \"${db%.db}.secret\" >/dev/null 2>&1; then echo 'read its folder' >&2; exit 3; fi\n\
         if cat /proc/$PPID/cmdline >/dev/null 2>&1; then echo 'read the command line' >&2; exit 3; fi\n\
         if cat /proc/$PPID/environ >/dev/null 2>&1; then echo 'read the environment' >&2; exit 3; fi\n\
         if env | grep -q CARGO; then echo 'saw the environment' >&2; exit 3; fi\n\
         exec \"$@\"\n",
    )
    .unwrap();
    let command = format!("sh {} {} {}", snoop.display(), db.display(), random_bot());
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).unwrap());
    // Unconfined, the same program reads the database and gives up.
    let free = std::process::Command::new("sh")
        .arg(&snoop)
        .arg(&db)
        .arg("true")
        .output()
        .unwrap();
    assert_eq!(
        free.status.code(),
        Some(3),
        "unconfined, it reads the database"
    );

    let (server, state) = start_state(store, Limits::unlimited()).await;
    let spec = db.to_string_lossy();
    let program = Program {
        game: None,
        name: "snoop".into(),
        command,
    };
    let bots = ExternalBots::new(vec![program], 5000, 4)
        .unwrap()
        .with_sandbox(sandbox_for(&spec, extbot::sandbox::MEMORY, 60));
    assert!(state.offer_bots(bots));
    let id = create(
        server.addr,
        json!({"game": "dalmuti", "players": 4, "options": {"hands": 1}, "bot_delay_ms": 1,
               "seats": [{"kind": "human"}, {"kind": "bot", "bot": "snoop"},
                         {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]}),
    )
    .await;
    let token = join(server.addr, &id, "P1").await;
    let mut ws = Ws::connect(server.addr, &id).await;
    let first = ws.hello(Some(&token)).await;
    let last = super::play::play_to_end(&mut ws, "P1", first).await;
    assert!(last["outcome"].is_object(), "{last}");
    assert_eq!(
        metric(&server, "ratrace_bot_strikes_total").await,
        0.0,
        "the program found something and gave up"
    );
    let _ = std::fs::remove_dir_all(&scripts);
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// The reset of a reader that never reads (above) is for clients that neither
/// take the close nor answer it: a client that closes first gets the closing
/// handshake's answer, never a reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_closes_first_gets_its_answer_not_a_reset() {
    use futures_util::StreamExt;
    let server = start().await;
    let id = create(server.addr, json!({"game": "bigcheese", "players": 3})).await;
    for _ in 0..3 {
        let mut ws = Ws::connect(server.addr, &id).await;
        ws.hello(None).await;
        ws.socket.close(None).await.unwrap();
        loop {
            match tokio::time::timeout(Duration::from_secs(5), ws.socket.next()).await {
                Ok(Some(Ok(Message::Close(_))) | None) => break,
                Ok(Some(Ok(_))) => continue,
                Ok(Some(Err(e))) => panic!("the close was answered by an error: {e}"),
                Err(_) => panic!("no answer to the close"),
            }
        }
    }
}
