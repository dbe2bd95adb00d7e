//! One decision's forward pass of a policy network the size the learned
//! Dalmuti bot uses at a 5-player table (291 inputs, two hidden layers of
//! 256, 402 action logits), then the masked argmax; and whole decisions of
//! the shipped `learned` bots (the view rebuilt and encoded, the forward
//! pass, the choice) on positions of real games: the goal is well under a
//! millisecond per decision.

// criterion's macros generate undocumented public functions
#![allow(missing_docs)]

use bots::net::{masked_argmax, Mlp, Scratch};
use bots::Roster;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use game::{GameOptions, Seed};
use std::collections::BTreeMap;

/// A network of the given widths with small deterministic weights.
fn net(widths: &[usize]) -> Mlp {
    let mut x = 0.1_f32;
    let mut next = || {
        x = (x * 1.7 + 0.3) % 1.0;
        x - 0.5
    };
    let layers = widths
        .windows(2)
        .map(|w| {
            let weights = (0..w[0] * w[1]).map(|_| next() * 0.1).collect();
            let bias = (0..w[1]).map(|_| next() * 0.01).collect();
            (weights, bias)
        })
        .collect();
    Mlp::new(widths[0], layers, BTreeMap::new()).unwrap()
}

fn forward(c: &mut Criterion) {
    let net = net(&[291, 256, 256, 402]);
    let obs: Vec<f32> = (0..291).map(|i| (i % 7) as f32 / 7.0).collect();
    let mask: Vec<u8> = (0..402).map(|i| u8::from(i % 3 == 0)).collect();
    let mut scratch = Scratch::default();
    c.bench_function("net/dalmuti-5p-291-256-256-402", |b| {
        b.iter(|| {
            let logits = net.forward(black_box(&obs), &mut scratch);
            masked_argmax(logits, &mask)
        })
    });
}

/// Views and legal lists at every decision with a choice of `games`
/// games played by `strong` bots.
fn positions<G: Roster>(options: &G::Options, players: usize) -> Vec<(G::View, Vec<G::Action>)> {
    let mut out = Vec::new();
    for seed in 0..4 {
        let mut game = G::new_seeded(options, players, &Seed::Legacy(seed)).unwrap();
        let mut bots: Vec<_> = (0..players)
            .map(|s| G::bot("strong", s as u64).unwrap())
            .collect();
        let mut legal = Vec::new();
        while let Some(seat) = game.to_move() {
            game.legal_actions(&mut legal);
            let view = game.view(seat);
            if legal.len() > 1 {
                out.push((view.clone(), legal.clone()));
            }
            let a = bots[seat.index()].choose(&view, &legal);
            game.apply(a).unwrap();
        }
    }
    out
}

fn decision<G: Roster>(c: &mut Criterion, name: &str, options: G::Options, players: usize) {
    let positions = positions::<G>(&options, players);
    let mut bot = G::bot("learned", 1).unwrap();
    let mut i = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            let (view, legal) = &positions[i % positions.len()];
            i += 1;
            bot.choose(black_box(view), legal)
        })
    });
}

fn decisions(c: &mut Criterion) {
    let mut dalmuti = dalmuti::Options::default();
    dalmuti.set("hands", "1").unwrap();
    decision::<dalmuti::Dalmuti>(c, "learned/dalmuti-5p-decision", dalmuti, 5);
    decision::<bigcheese::BigCheese>(
        c,
        "learned/bigcheese-4p-decision",
        bigcheese::Options::default(),
        4,
    );
}

criterion_group!(benches, forward, decisions);
criterion_main!(benches);
