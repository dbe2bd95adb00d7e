//! Criterion benches for the hot paths: a whole random 5-player hand with
//! taxes (drawn by the list-free `random_action`, and by a uniform pick
//! from `legal_actions` as the baseline, in one group), `new` (seating draw
//! and deal), `legal_actions`, `apply`, and one step's tensor encoding
//! (the mover's observation plus the legal mask, [`game::Tensor`]).

// criterion's macros generate undocumented public functions
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dalmuti::{Action, Dalmuti, Options};
use game::{Game, Tensor};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays one random 5-player hand with taxes, each action drawn by the
/// engine's list-free sampler; returns the action count.
fn one_hand(seed: u64, rng: &mut SmallRng, legal: &mut Vec<Action>) -> usize {
    let opts = Options {
        hands: 1,
        ..Options::default()
    };
    let mut g = Dalmuti::new(&opts, 5, seed).expect("5 players");
    let mut n = 0;
    while g.to_move().is_some() {
        let a = g.random_action(rng, legal);
        g.apply_unchecked(a);
        n += 1;
    }
    n
}

/// The baseline: the same hands, drawing from the full `legal_actions` list.
fn one_hand_list(seed: u64, rng: &mut SmallRng, legal: &mut Vec<Action>) -> usize {
    let opts = Options {
        hands: 1,
        ..Options::default()
    };
    let mut g = Dalmuti::new(&opts, 5, seed).expect("5 players");
    let mut n = 0;
    while g.to_move().is_some() {
        g.legal_actions(legal);
        let a = legal[rng.random_range(0..legal.len() as u32) as usize];
        g.apply_unchecked(a);
        n += 1;
    }
    n
}

fn benches(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut legal = Vec::with_capacity(256);
    let mut seed = 0u64;
    // Throughput in hands: criterion prints hands per second as elem/s.
    let mut hands = c.benchmark_group("playout");
    hands.throughput(Throughput::Elements(1));
    hands.bench_function("random_hand_5p", |b| {
        b.iter(|| {
            seed += 1;
            black_box(one_hand(seed, &mut rng, &mut legal))
        })
    });
    hands.bench_function("random_hand_5p_list", |b| {
        b.iter(|| {
            seed += 1;
            black_box(one_hand_list(seed, &mut rng, &mut legal))
        })
    });
    hands.finish();

    c.bench_function("new_5p", |b| {
        let opts = Options {
            hands: 1,
            ..Options::default()
        };
        b.iter(|| {
            seed += 1;
            black_box(Dalmuti::new(&opts, 5, seed).expect("5 players").to_move())
        })
    });

    // a pool of mid-hand positions for the per-call benches
    let opts = Options {
        hands: 1,
        ..Options::default()
    };
    let mut positions = Vec::new();
    for s in 0..64u64 {
        let mut g = Dalmuti::new(&opts, 5, s).expect("5 players");
        let steps = rng.random_range(0..40);
        for _ in 0..steps {
            if g.to_move().is_none() {
                break;
            }
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len() as u32) as usize];
            g.apply_unchecked(a);
        }
        if g.to_move().is_some() {
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len() as u32) as usize];
            positions.push((g, a));
        }
    }
    let mut i = 0;
    c.bench_function("legal_actions", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            positions[i].0.legal_actions(&mut legal);
            black_box(legal.len())
        })
    });
    // includes cloning the ~1 KB state, so that every call applies to the
    // same position
    c.bench_function("apply", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let (g, a) = &positions[i];
            let mut g = g.clone();
            g.apply_unchecked(*a);
            black_box(g.to_move())
        })
    });
    // one RL step's encoding: the mover's observation and the legal mask
    // (update_mask: clears only the previous step's ids)
    let mut obs = vec![0f32; Dalmuti::obs_len(&opts, 5)];
    let mut mask = vec![0u8; Dalmuti::num_actions(&opts, 5)];
    let mut ids = Vec::with_capacity(256);
    c.bench_function("encode_step", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let g = &positions[i].0;
            let seat = g.to_move().expect("a decision");
            g.write_obs(seat, &mut obs);
            black_box(g.update_mask(&mut legal, &mut ids, &mut mask))
        })
    });
    c.bench_function("write_obs", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            let g = &positions[i].0;
            g.write_obs(g.to_move().expect("a decision"), &mut obs);
            black_box(obs[0])
        })
    });
}

criterion_group!(dalmuti, benches);
criterion_main!(dalmuti);
