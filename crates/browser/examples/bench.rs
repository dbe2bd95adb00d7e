//! The native half of the engine's bench (`e2e/bench-engine.mjs`): makes
//! the bench's requests, times each with this machine's build of the same
//! crate, and writes both as JSON for the browser half to time again in
//! Chromium. `cargo run --release -p browser --example bench -- OUT.json
//! [--quick]`.
//!
//! The cases: random Dalmuti hands (the rules alone), a `learned` and a
//! `strong` decision of each game (every decision of a game the `strong`
//! level played), and the analysis of a whole Big Cheese game. Each is
//! run five times; the median is kept. `--quick` (the test command's run)
//! runs each once, on fewer hands, without the analysis.

use serde_json::{json, Value};
use std::time::Instant;

fn ask(request: &Value, blob: &[u8]) -> Value {
    let text = browser::handle(&request.to_string(), blob, &mut |_, _| {});
    let answer: Value = serde_json::from_str(&text).expect("JSON");
    match answer.get("ok") {
        Some(v) => v.clone(),
        None => panic!("{request}: {answer}"),
    }
}

/// A game played by `strong` bots: its record, and the record before each
/// of its decisions.
fn game(name: &str, players: usize, options: Value) -> (Value, Vec<Value>) {
    let seed = "0202020202020202020202020202020202020202020202020202020202020202";
    let mut record = ask(
        &json!({"cmd": "new", "game": name, "players": players, "options": options, "seed": seed}),
        &[],
    );
    let levels: Vec<&str> = vec!["strong"; players];
    let mut before = Vec::new();
    while record.get("outcome").is_none_or(Value::is_null) {
        before.push(record.clone());
        record = ask(
            &json!({"cmd": "bot", "record": record, "levels": levels}),
            &[],
        );
    }
    (record, before)
}

fn decisions(positions: &[Value], players: usize, level: &str) -> Vec<Value> {
    positions
        .iter()
        .map(|r| json!({"cmd": "bot", "record": r, "levels": vec![level; players]}))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().expect("usage: bench OUT.json [--quick]");
    let quick = args.iter().any(|a| a == "--quick");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../bots/weights/");
    for g in ["bigcheese", "dalmuti"] {
        let bytes = std::fs::read(format!("{root}{g}.safetensors")).expect("the weights");
        ask(&json!({"cmd": "weights", "game": g}), &bytes);
    }
    let (bc_game, bc_at) = game("bigcheese", 4, json!({}));
    let (_, dal_at) = game("dalmuti", 4, json!({"hands": "1"}));
    let hands = if quick { 50 } else { 2000 };
    let mut cases = vec![
        (
            "random Dalmuti hands (5 players, one hand each)",
            "hand",
            hands,
            vec![
                json!({"cmd": "random", "game": "dalmuti", "players": 5, "options": {"hands": "1"}, "seed": 1, "games": hands}),
            ],
        ),
        (
            "a learned decision, Big Cheese",
            "decision",
            bc_at.len(),
            decisions(&bc_at, 4, "learned"),
        ),
        (
            "a learned decision, Dalmuti",
            "decision",
            dal_at.len(),
            decisions(&dal_at, 4, "learned"),
        ),
        (
            "a strong decision, Big Cheese",
            "decision",
            bc_at.len(),
            decisions(&bc_at, 4, "strong"),
        ),
        (
            "a strong decision, Dalmuti",
            "decision",
            dal_at.len(),
            decisions(&dal_at, 4, "strong"),
        ),
    ];
    if !quick {
        let analyze = json!({"cmd": "analyze", "record": bc_game});
        cases.push((
            "a whole Big Cheese game's analysis",
            "game",
            1,
            vec![analyze],
        ));
    }
    let repeats = if quick { 1 } else { 5 };
    let mut report = Vec::new();
    for (name, unit, per, requests) in cases {
        let mut times: Vec<f64> = (0..repeats)
            .map(|_| {
                let start = Instant::now();
                for r in &requests {
                    ask(r, &[]);
                }
                start.elapsed().as_secs_f64() * 1000.0 / per as f64
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        eprintln!("native: {name}: {median:.4} ms per {unit}");
        report.push(json!({"name": name, "unit": unit, "per": per, "requests": requests, "native_ms": median}));
    }
    let text = json!({"repeats": repeats, "cases": report}).to_string();
    std::fs::write(out, text).expect("write the report");
}
