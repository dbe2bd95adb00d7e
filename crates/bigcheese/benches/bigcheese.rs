//! Benchmarks of the rollout hot paths: a whole random 4-player game,
//! `legal_actions`, `apply`, and one step's tensor encoding (the mover's
//! observation plus the legal mask, [`game::Tensor`]).

// criterion_group! generates an undocumented pub fn.
#![allow(missing_docs)]

use bigcheese::{Action, BigCheese, Options};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game::{Game, Tensor};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// Plays one game with uniformly random legal actions drawn by the
/// engine's list-free sampler; returns the action count.
fn random_game(seed: u64, rng: &mut SmallRng, legal: &mut Vec<Action>) -> usize {
    let mut g = BigCheese::new(&Options::default(), 4, seed).unwrap();
    let mut steps = 0;
    while g.to_move().is_some() && steps < 100_000 {
        let a = g.random_action(rng, legal);
        g.apply_unchecked(a);
        steps += 1;
    }
    steps
}

/// The baseline: the same games, drawing from the full `legal_actions` list.
fn random_game_list(seed: u64, rng: &mut SmallRng, legal: &mut Vec<Action>) -> usize {
    let mut g = BigCheese::new(&Options::default(), 4, seed).unwrap();
    let mut steps = 0;
    while g.to_move().is_some() && steps < 100_000 {
        g.legal_actions(legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply_unchecked(a);
        steps += 1;
    }
    steps
}

/// Positions from random games, for the per-call benches.
fn positions() -> Vec<BigCheese> {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut legal = Vec::new();
    let mut out = Vec::new();
    for seed in 0..20 {
        let mut g = BigCheese::new(&Options::default(), 4, seed).unwrap();
        while g.to_move().is_some() {
            out.push(g.clone());
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.apply_unchecked(a);
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut legal = Vec::with_capacity(64);
    let mut seed = 0u64;
    // Throughput in games: criterion prints games per second as elem/s.
    let mut games = c.benchmark_group("playout");
    games.throughput(Throughput::Elements(1));
    games.bench_function("random_game_4p", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(seed, &mut rng, &mut legal))
        })
    });
    games.bench_function("random_game_4p_list", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game_list(seed, &mut rng, &mut legal))
        })
    });
    games.finish();
    let pos = positions();
    let mut i = 0;
    c.bench_function("legal_actions", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            pos[i].legal_actions(&mut legal);
            black_box(legal.len())
        })
    });
    let moves: Vec<(BigCheese, Action)> = pos
        .iter()
        .map(|g| {
            g.legal_actions(&mut legal);
            (g.clone(), legal[rng.random_range(0..legal.len())])
        })
        .collect();
    let mut j = 0;
    c.bench_function("apply", |b| {
        b.iter_batched_ref(
            || {
                j = (j + 1) % moves.len();
                moves[j].clone()
            },
            |(g, a)| g.apply_unchecked(*a),
            criterion::BatchSize::SmallInput,
        )
    });
    // one RL step's encoding: the mover's observation and the legal mask
    // (update_mask: clears only the previous step's ids)
    let o = Options::default();
    let mut obs = vec![0f32; BigCheese::obs_len(&o, 4)];
    let mut mask = vec![0u8; BigCheese::num_actions(&o, 4)];
    let mut ids = Vec::with_capacity(64);
    c.bench_function("encode_step", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            let g = &pos[i];
            g.write_obs(g.to_move().expect("a decision"), &mut obs);
            black_box(g.update_mask(&mut legal, &mut ids, &mut mask))
        })
    });
    c.bench_function("write_obs", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            let g = &pos[i];
            g.write_obs(g.to_move().expect("a decision"), &mut obs);
            black_box(obs[0])
        })
    });
}

criterion_group!(bigcheese_benches, benches);
criterion_main!(bigcheese_benches);
