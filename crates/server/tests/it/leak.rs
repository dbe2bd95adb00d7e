//! The leak test: random games of several variants of both games through
//! the server, every message to every seat and a spectator scanned against
//! a local replay of the finished record.

use super::util::*;
use bots::Roster;
use game::{Record, Seat};
use serde_json::{json, Value};

/// Plays a seat at random (or watches, for `None`) until the game ends;
/// returns every message received, as it came on the wire and as the
/// whole state it made (an `update` applied to the state before).
async fn random_player(mut ws: Ws, seat: Option<String>) -> Vec<(String, Value)> {
    let mut raws = Vec::new();
    let mut acted_at = None;
    loop {
        let (raw, m) = ws.next_with_raw().await;
        raws.push((raw, m.clone()));
        if m["type"] != "state" {
            continue;
        }
        if m["over"] == true {
            return raws;
        }
        let seq = m["seq"].as_u64().unwrap();
        let legal = m["legal"].as_array().unwrap();
        if let Some(seat) = &seat {
            if m["to_move"] == seat.as_str() && !legal.is_empty() && acted_at != Some(seq) {
                acted_at = Some(seq);
                // Mostly the last legal action (bids go up, games end),
                // sometimes a random one.
                let i = if rand::random_range(0..3) == 0 {
                    rand::random_range(0..legal.len())
                } else {
                    legal.len() - 1
                };
                ws.send(json!({"type":"act","seq":seq,"action":legal[i]}))
                    .await;
            }
        }
    }
}

fn check<G: Roster>(record: &Record, seat: Option<Seat>, raws: &[(String, Value)]) {
    let mut g: G = record.start().unwrap();
    g.set_logging(true);
    let mut states = vec![g.clone()];
    for i in 0..record.actions.len() {
        let (s, a) = record.parse_action::<G>(i).unwrap();
        g.act(s, a).unwrap();
        states.push(g.clone());
    }
    let seed = record.seed.to_string();
    let mut log_seen = 0;
    for (raw, m) in raws {
        if m["type"] != "state" {
            assert!(!raw.contains(&seed));
            continue;
        }
        let k = m["seq"].as_u64().unwrap() as usize;
        if m["started"] == false {
            // Before every human seat is taken nothing is dealt: the table
            // shows a placeholder public table, never a hand or a log.
            assert_eq!(k, 0);
            assert!(m["view"].get("hand").is_none(), "{m}");
            assert!(m["log"].as_array().unwrap().is_empty());
            assert!(m["legal"].as_array().unwrap().is_empty());
            continue;
        }
        let st = &states[k];
        let over = st.outcome().is_some();
        assert_eq!(m["over"], over);
        if !over {
            assert!(!raw.contains(&seed), "the seed leaked before the end");
            assert!(m["seed"].is_null());
        }
        let expected = match seat {
            Some(s) => serde_json::to_value(st.view(s)).unwrap(),
            None => serde_json::to_value(st.public_view()).unwrap(),
        };
        assert_eq!(
            m["view"], expected,
            "{seat:?} at seq {k}: not exactly its view"
        );
        if !m["legal"].as_array().unwrap().is_empty() {
            assert_eq!(
                st.to_move(),
                seat,
                "legal actions sent to a seat not to move"
            );
        }
        if st.to_move() != seat || seat.is_none() {
            assert_eq!(
                m["to_move"],
                serde_json::to_value(st.public_to_move()).unwrap(),
                "to_move says more than the table may know"
            );
        }
        // The log: exactly the events this seat may see, in order, each
        // a typed event (an object with its kind), never a private one of
        // another seat.
        let visible: Vec<Value> = st
            .events()
            .iter()
            .filter(|e| e.visible_to(seat))
            .map(|e| serde_json::to_value(&e.event).unwrap())
            .collect();
        let from = m["log_from"].as_u64().unwrap() as usize;
        assert_eq!(from, log_seen, "log events skipped or repeated");
        let events = m["log"].as_array().unwrap();
        assert!(events.iter().all(|e| e["kind"].is_string()), "{m}");
        assert_eq!(events[..], visible[from..from + events.len()]);
        log_seen = from + events.len();
        // No other seat's hand (Dalmuti) appears anywhere in the message
        // unless this seat's own view shows the same cards.
        let own = expected.to_string();
        for o in Seat::all(st.players()).filter(|&o| Some(o) != seat) {
            let other = serde_json::to_value(st.view(o)).unwrap();
            if let Some(hand) = other.get("hand").and_then(Value::as_str) {
                if hand.split(' ').filter(|t| t.parse::<u8>().is_ok()).count() >= 4
                    && !own.contains(hand)
                    && !over
                {
                    assert!(!raw.contains(hand), "{o}'s hand `{hand}` sent to {seat:?}");
                }
            }
        }
    }
}

async fn leak_game<G: Roster>(players: usize, humans: usize, options: Value) {
    let server = start_fast().await;
    let seats: Vec<Value> = (0..players)
        .map(|i| {
            if i < humans {
                json!({"kind":"human"})
            } else {
                json!({"kind":"bot","bot": if i % 2 == 0 { "heuristic" } else { "random" }})
            }
        })
        .collect();
    let id = create(
        server.addr,
        json!({"game": G::NAME, "players": players, "options": options, "seats": seats, "bot_delay_ms": 0}),
    )
    .await;
    let mut tasks = Vec::new();
    let mut spectator = Ws::connect(server.addr, &id).await;
    spectator.send(json!({"type":"hello"})).await;
    tasks.push((None, tokio::spawn(random_player(spectator, None))));
    let mut tokens = Vec::new();
    for i in 0..humans {
        tokens.push(join(server.addr, &id, &Seat::new(i).to_string()).await);
    }
    for (i, token) in tokens.iter().enumerate() {
        let seat = Seat::new(i);
        let mut ws = Ws::connect(server.addr, &id).await;
        ws.send(json!({"type":"hello","token":token})).await;
        tasks.push((
            Some(seat),
            tokio::spawn(random_player(ws, Some(seat.to_string()))),
        ));
    }
    let mut collected = Vec::new();
    for (seat, task) in tasks {
        collected.push((seat, task.await.unwrap()));
    }
    let (status, record) = http(
        server.addr,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    let record: Record = serde_json::from_value(record).unwrap();
    for (seat, raws) in &collected {
        assert!(raws.len() > 1);
        check::<G>(&record, *seat, raws);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_leaks_hidden_information_bigcheese() {
    leak_game::<bigcheese::BigCheese>(3, 2, json!({"dice":"d6"})).await;
    leak_game::<bigcheese::BigCheese>(4, 2, json!({"specials":"off","dice":"no-dice"})).await;
    leak_game::<bigcheese::BigCheese>(3, 2, json!({"dice":"best-of-two","target":"60"})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_leaks_hidden_information_dalmuti() {
    leak_game::<dalmuti::Dalmuti>(4, 3, json!({"hands":"1"})).await;
    leak_game::<dalmuti::Dalmuti>(5, 3, json!({"hands":"1","market":"on"})).await;
    leak_game::<dalmuti::Dalmuti>(4, 2, json!({"hands":"1","black_market":"on"})).await;
    leak_game::<dalmuti::Dalmuti>(5, 2, json!({"hands":"2","auto_revolution":"on"})).await;
}
