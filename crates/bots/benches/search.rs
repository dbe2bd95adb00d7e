//! Criterion benches for the search bots: one decision of a fixed number of
//! iterations from an early position of each game (Dalmuti: 5 players, the
//! first lead of a single hand after taxes; The Big Cheese: 4 players,
//! polyhedral, the first auction), reported as iterations per second.

// criterion's macros generate undocumented public functions
#![allow(missing_docs)]

use bots::{big_cheese, great_dalmuti, Bot, Budget};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game::Game;

/// Iterations per benched decision.
const ITERATIONS: u32 = 1000;

/// A 5-player single hand played by heuristics up to the first lead.
fn dalmuti_position() -> (dalmuti::View, Vec<dalmuti::Action>) {
    let opts = dalmuti::Options {
        hands: 1,
        ..dalmuti::Options::default()
    };
    let mut g = dalmuti::Dalmuti::new(&opts, 5, 11).expect("5 players");
    let mut h = great_dalmuti::heuristic::Heuristic::new(1);
    let mut legal = Vec::new();
    while g.phase() != dalmuti::Phase::Play {
        let me = g.to_move().expect("a hand in progress");
        g.legal_actions(&mut legal);
        let a = h.choose(&g.view(me), &legal);
        g.apply(a).expect("legal");
    }
    let me = g.to_move().expect("a lead");
    g.legal_actions(&mut legal);
    (g.view(me), legal)
}

/// A 4-player polyhedral game at its first auction.
fn cheese_position() -> (bigcheese::View, Vec<bigcheese::Action>) {
    let g = bigcheese::BigCheese::new(&bigcheese::Options::default(), 4, 11).expect("4 players");
    let me = g.to_move().expect("an auction");
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    (g.view(me), legal)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    group.sample_size(20);

    let (view, legal) = dalmuti_position();
    let mut bot = great_dalmuti::search::new(Some(Budget::Iterations(ITERATIONS)), 1);
    group.bench_function("dalmuti_5p_first_lead", |b| {
        b.iter(|| bot.choose(&view, &legal))
    });

    let (view, legal) = cheese_position();
    let mut bot = big_cheese::search::new(Some(Budget::Iterations(ITERATIONS)), 1);
    group.bench_function("bigcheese_4p_first_auction", |b| {
        b.iter(|| bot.choose(&view, &legal))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
