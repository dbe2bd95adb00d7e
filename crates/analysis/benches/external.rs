//! A tournament with a bot program as candidate (`cargo bench -p analysis
//! --bench external`): `examples/bots/random_bot.py` against three
//! `heuristic` bots, Dalmuti single hands, 4 players, on 2 threads, next to
//! the same tournament with the in-process `random` bot as candidate, in
//! hands per second (criterion's elem/s). The goal: at least 1,000 hands/s
//! with the bot program.

// criterion_group! generates an undocumented pub fn.
#![allow(missing_docs)]

use analysis::tournament::{run, Config, Length, Mode, Resume};
use analysis::Quiet;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dalmuti::Dalmuti;
use game::GameOptions;
use std::time::Duration;

/// Deals per iteration (each played in 4 seat rotations).
const DEALS: u64 = 250;

fn config(candidate: &str, seed: u64) -> Config<Dalmuti> {
    let mut options = dalmuti::Options::default();
    options.set("hands", "1").expect("an option");
    Config {
        mode: Mode::Candidate {
            candidate: candidate.to_string(),
            field: "heuristic".into(),
        },
        players: 4,
        options,
        length: Length::Deals(DEALS),
        seed,
        threads: 2,
        max_actions: 100_000,
        sprt: None,
        out: None,
        resume: Resume::Auto,
        command: String::new(),
        limits: extbot::Limits::default(),
        save: None,
    }
}

fn tournament(c: &mut Criterion) {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bots/random_bot.py");
    let program = format!("cmd:python3 {}", script.display());
    let mut g = c.benchmark_group("tournament_dalmuti_4p_hands1");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(DEALS * 4));
    for (name, candidate) in [
        ("python-random", program.as_str()),
        ("in-process-random", "random"),
    ] {
        let mut seed = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let report = run(&config(candidate, seed), &Quiet).expect("a valid run");
                assert_eq!(report.figures.games, DEALS * 4);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, tournament);
criterion_main!(benches);
