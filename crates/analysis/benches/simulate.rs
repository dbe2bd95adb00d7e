//! The simulator at engine speed: `simulate` with random bots on one
//! thread, next to the engine's own random rollouts of the same games in
//! the same run, both in games per second (criterion's elem/s), so their
//! ratio reads off one `cargo bench -p analysis --bench simulate`.
//!
//! Each group plays [`GAMES`] games per iteration: `engine` draws every
//! action with the engine's list-free sampler ([`Game::random_action`])
//! and a `SmallRng`, as the engines' own benches do (`random_game_4p`,
//! `random_hand_5p`); `simulate` is [`analysis::simulate::run`] with
//! `random` in every seat, one worker thread.

// criterion_group! generates an undocumented pub fn.
#![allow(missing_docs)]

use analysis::simulate::{run, Config};
use analysis::Quiet;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game::{Game, GameOptions};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

/// Games per iteration.
const GAMES: u64 = 2_000;

/// Plays `GAMES` games of `players` from seed `seed` on with uniformly
/// random actions drawn by the engine; returns the action count.
fn engine<G: Game>(options: &G::Options, players: usize, seed: u64, rng: &mut SmallRng) -> u64 {
    let mut legal = Vec::with_capacity(256);
    let mut actions = 0;
    for s in seed..seed + GAMES {
        let mut g = G::new(options, players, s).expect("a valid table");
        while g.to_move().is_some() {
            let a = g.random_action(rng, &mut legal);
            g.apply_unchecked(a);
            actions += 1;
        }
    }
    actions
}

/// `ratrace simulate` with random bots, one thread, `GAMES` games.
fn simulate<G: bots::Roster>(options: &G::Options, players: usize, seed: u64) -> f64 {
    let cfg = Config::<G> {
        games: GAMES,
        players,
        bots: vec!["random".into()],
        options: options.clone(),
        seed,
        threads: 1,
        max_actions: 100_000,
        rotate: false,
        limits: extbot::Limits::default(),
        save: None,
    };
    run(&cfg, &Quiet).expect("a valid run").mean_actions
}

fn group<G: bots::Roster>(c: &mut Criterion, name: &str, options: G::Options, players: usize) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(GAMES));
    let mut rng = SmallRng::seed_from_u64(7);
    let mut seed = 0u64;
    g.bench_function("engine", |b| {
        b.iter(|| {
            seed += GAMES;
            black_box(engine::<G>(&options, players, seed, &mut rng))
        })
    });
    let mut seed = 0u64;
    g.bench_function("simulate", |b| {
        b.iter(|| {
            seed += 1;
            black_box(simulate::<G>(&options, players, seed))
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    group::<bigcheese::BigCheese>(c, "bigcheese_4p", bigcheese::Options::default(), 4);
    let mut hands = dalmuti::Options::default();
    hands.set("hands", "1").expect("hands=1 is an option");
    group::<dalmuti::Dalmuti>(c, "dalmuti_5p_hands1", hands, 5);
}

criterion_group!(simulate_benches, benches);
criterion_main!(simulate_benches);
