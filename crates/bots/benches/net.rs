//! One decision's forward pass of a policy network the size a learned
//! Dalmuti bot would use at a 5-player table (291 inputs, two hidden
//! layers of 256, 402 action logits), then the masked argmax: the goal is
//! well under a millisecond per decision.

// criterion's macros generate undocumented public functions
#![allow(missing_docs)]

use bots::net::{masked_argmax, Mlp, Scratch};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
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

criterion_group!(benches, forward);
criterion_main!(benches);
