//! Writes the fixtures of `examples/bots/test_examples.py`: real views,
//! legal lists and events of both games, as the engines serialize them.
//!
//! `cargo run -p example-bot --example dump_fixtures -- examples/bots/fixtures`

use game::{Game, Seat};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Plays one game with a fixed choice rule and keeps, for each kind of
/// decision (the set of verbs in `legal`), its first two occurrences.
fn acts<G: Game>(mut g: G) -> Value {
    g.set_logging(true);
    let mut legal = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut acts = Vec::new();
    let mut step = 0usize;
    while let Some(seat) = g.to_move() {
        g.legal_actions(&mut legal);
        let texts: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        let mut verbs: Vec<&str> = texts
            .iter()
            .map(|t| t.split(' ').next().unwrap_or(""))
            .collect();
        verbs.sort_unstable();
        verbs.dedup();
        let n = seen.entry(verbs.join(",")).or_default();
        if *n < 2 {
            *n += 1;
            acts.push(json!({"seat": seat, "view": g.view(seat), "legal": texts}));
        }
        step = step.wrapping_mul(31).wrapping_add(7);
        let a = legal[step % legal.len()];
        g.apply(a).expect("a legal action");
    }
    let events: Vec<Value> = g
        .events()
        .iter()
        .filter(|e| e.to.is_none() || e.to == Some(Seat::new(0)))
        .take(40)
        .map(|e| json!(e.event))
        .collect();
    json!({"game": G::NAME, "rules_version": G::RULES_VERSION, "players": g.players(),
           "acts": acts, "events": events, "outcome": g.outcome()})
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/bots/fixtures".into());
    let d = dalmuti::Dalmuti::new(
        &dalmuti::Options {
            hands: 2,
            ..dalmuti::Options::default()
        },
        5,
        7,
    )
    .expect("a valid table");
    let b = bigcheese::BigCheese::new(&bigcheese::Options::default(), 4, 7).expect("a valid table");
    for (name, v) in [("dalmuti", acts(d)), ("bigcheese", acts(b))] {
        let path = format!("{dir}/{name}.json");
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&v).expect("json") + "\n",
        )
        .expect("write the fixture");
        eprintln!("wrote {path}");
    }
}
