//! The protocol's costs, each beside its baseline in the same run
//! (`cargo bench -p extbot --bench protocol`):
//!
//! - `decision/python-random`: one decision round trip to
//!   `examples/bots/random_bot.py` (the view and the legal list written,
//!   the answer read, parsed and checked), next to `decision/in-process`,
//!   the `random` bot deciding from the same view. Their difference is the
//!   protocol's overhead.
//! - `deadline/20ms`: a decision of a bot that never answers, under a
//!   20 ms limit, next to `deadline/sleep-20ms`, a plain 20 ms sleep: how
//!   late the referee takes the decision back (the goal: within 20 ms of
//!   the deadline).

// criterion_group! generates an undocumented pub fn.
#![allow(missing_docs)]

use bots::{Bot, Roster};
use criterion::{criterion_group, criterion_main, Criterion};
use dalmuti::Dalmuti;
use extbot::{External, Limits};
use game::{Game, GameOptions, Seat};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Dalmuti position in the middle of the first hand, and the seat to
/// move there.
fn position() -> (Dalmuti, Seat) {
    let mut opts = dalmuti::Options::default();
    opts.set("hands", "1").expect("an option");
    let mut g = Dalmuti::new(&opts, 4, 3).expect("a table");
    g.set_logging(true);
    let mut bot = Dalmuti::bot("heuristic", 1).expect("a bot");
    let mut legal = Vec::new();
    for _ in 0..12 {
        let seat = g.to_move().expect("a hand in play");
        g.legal_actions(&mut legal);
        let a = bot.choose(&g.view(seat), &legal);
        g.act(seat, a).expect("legal");
    }
    let seat = g.to_move().expect("a hand in play");
    (g, seat)
}

fn decision(c: &mut Criterion) {
    let (g, seat) = position();
    let view = g.view(seat);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut group = c.benchmark_group("decision");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let cmd = format!(
        "python3 {}",
        root().join("examples/bots/random_bot.py").display()
    );
    let mut ext = External::<Dalmuti>::new(&cmd, Limits::default(), 1).expect("a bot");
    ext.start(seat, g.players(), g.options());
    group.bench_function("python-random", |b| {
        b.iter(|| black_box(ext.choose(&view, &legal)));
    });
    assert!(
        ext.take_strikes().is_empty(),
        "the random bot answers every time"
    );
    ext.shutdown();
    let mut random = Dalmuti::bot("random", 1).expect("a bot");
    group.bench_function("in-process", |b| {
        b.iter(|| black_box(random.choose(&view, &legal)));
    });
    group.finish();
}

fn deadline(c: &mut Criterion) {
    let (g, seat) = position();
    let view = g.view(seat);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut group = c.benchmark_group("deadline");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    let limits = Limits {
        move_time: Duration::from_millis(20),
        strikes: u32::MAX,
        ..Limits::default()
    };
    // Answers `start`, then never answers a decision.
    let cmd = format!(
        "python3 {} hang /dev/null",
        root()
            .join("crates/extbot/tests/bots/misbehave.py")
            .display()
    );
    let mut ext = External::<Dalmuti>::new(&cmd, limits, 1).expect("a bot");
    ext.start(seat, g.players(), g.options());
    group.bench_function("20ms", |b| {
        b.iter(|| {
            let a = ext.choose(&view, &legal);
            ext.take_strikes();
            black_box(a)
        });
    });
    group.bench_function("sleep-20ms", |b| {
        b.iter(|| std::thread::sleep(Duration::from_millis(20)));
    });
    group.finish();
}

criterion_group!(benches, decision, deadline);
criterion_main!(benches);
