//! Writes the fixtures of `examples/bots/test_examples.py`: real views,
//! legal lists and events of both games, as the engines serialize them.
//!
//! `cargo run -p example-bot --example dump_fixtures -- examples/bots/fixtures [PER_KIND]`
//!
//! `PER_KIND` (default 2) is how many decisions of each kind are kept.

use game::{Game, Seat};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Plays games (seeds 1, 2, ...) with a fixed choice rule and keeps, for
/// each kind of decision (the set of verbs in `legal`), its first
/// `per_kind` occurrences; the events and outcome are the last game's.
fn acts<G: Game>(new: impl Fn(u64) -> G, seeds: u64, per_kind: usize) -> Value {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut acts = Vec::new();
    let mut g = new(1);
    play(&mut g, per_kind, &mut seen, &mut acts);
    for seed in 2..=seeds {
        g = new(seed);
        play(&mut g, per_kind, &mut seen, &mut acts);
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

/// Plays one game to its end, keeping the decisions `acts` wants.
fn play<G: Game>(
    g: &mut G,
    per_kind: usize,
    seen: &mut BTreeMap<String, usize>,
    acts: &mut Vec<Value>,
) {
    g.set_logging(true);
    let mut legal = Vec::new();
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
        if *n < per_kind {
            *n += 1;
            acts.push(json!({"seat": seat, "view": g.view(seat), "legal": texts}));
        }
        step = step.wrapping_mul(31).wrapping_add(7);
        let a = legal[step % legal.len()];
        g.apply(a).expect("a legal action");
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/bots/fixtures".into());
    let per_kind = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2);
    // 6 players and the market: two Merchants, so most kinds of decision
    // come up in a few sessions
    let options = dalmuti::Options {
        hands: 3,
        market: true,
        ..dalmuti::Options::default()
    };
    let d = acts(
        |seed| dalmuti::Dalmuti::new(&options, 6, seed).expect("a valid table"),
        8,
        per_kind,
    );
    let b = acts(
        |seed| {
            bigcheese::BigCheese::new(&bigcheese::Options::default(), 4, seed)
                .expect("a valid table")
        },
        3,
        per_kind,
    );
    std::fs::create_dir_all(&dir).expect("create the fixture directory");
    for (name, v) in [("dalmuti", d), ("bigcheese", b)] {
        let path = format!("{dir}/{name}.json");
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&v).expect("json") + "\n",
        )
        .expect("write the fixture");
        eprintln!("wrote {path}");
    }
}
