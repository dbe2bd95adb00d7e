//! Tests of the strong Big Cheese bot: it always plays legal actions, is
//! deterministic, and beats the rule-based bot and random play; plus an
//! ignored tuning harness (`STRONG="lambda=0.03,deny=2" cargo test
//! --release -p bots --test bigcheese_strong -- --ignored tune --nocapture`).

use bigcheese::{BigCheese, Options};
use bots::big_cheese::heuristic::Heuristic;
use bots::big_cheese::strong::{Params, Strong};
use bots::{Bot, RandomBot};
use game::{Game, GameOptions};

/// Plays one game; returns the hero's share of first place (1, 1/k when
/// shared, 0) and checks every chosen action is legal.
fn play(
    opts: &Options,
    seed: u64,
    hero_seat: usize,
    hero: &mut dyn Bot<BigCheese>,
    rival: &dyn Fn(u64) -> Box<dyn Bot<BigCheese>>,
) -> f64 {
    let mut rivals: Vec<Box<dyn Bot<BigCheese>>> =
        (0..4).map(|i| rival(seed * 16 + i as u64)).collect();
    let mut g = BigCheese::new(opts, 4, seed).unwrap();
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(s) = g.to_move() {
        g.legal_actions(&mut legal);
        let v = g.view(s);
        let a = if s.index() == hero_seat {
            hero.choose(&v, &legal)
        } else {
            rivals[s.index()].choose(&v, &legal)
        };
        assert!(legal.contains(&a), "{a} not legal in\n{v}");
        g.apply(a).unwrap();
        steps += 1;
        if steps > 20_000 {
            return 0.0;
        }
    }
    let o = g.outcome().unwrap();
    if o.winners.iter().any(|w| w.index() == hero_seat) {
        1.0 / o.winners.len() as f64
    } else {
        0.0
    }
}

/// The hero's first-place rate over `seeds` duplicate deals, each played
/// with the hero in every seat.
fn rate(
    opts: &Options,
    seeds: std::ops::Range<u64>,
    params: Params,
    rival: &dyn Fn(u64) -> Box<dyn Bot<BigCheese>>,
) -> f64 {
    let mut wins = 0.0;
    let mut games = 0;
    for seed in seeds {
        for seat in 0..4 {
            let mut hero = Strong::with_params(seed, params);
            wins += play(opts, seed, seat, &mut hero, rival);
            games += 1;
        }
    }
    wins / games as f64
}

fn heuristic(seed: u64) -> Box<dyn Bot<BigCheese>> {
    Box::new(Heuristic::new(seed))
}

fn random(seed: u64) -> Box<dyn Bot<BigCheese>> {
    Box::new(RandomBot::new(seed))
}

#[test]
#[ignore]
fn tune() {
    let mut p = Params::default();
    let spec = std::env::var("STRONG").unwrap_or_default();
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        let v: f64 = v.parse().expect("number");
        match k {
            "lambda" => p.lambda = v,
            "win_bonus" => p.win_bonus = v,
            "deny" => p.deny = v,
            "veto" => p.veto = v,
            "veto_card" => p.veto_card = v,
            "cheese_card" => p.cheese_card = v,
            _ => panic!("unknown key {k}"),
        }
    }
    let seeds: u64 = std::env::var("SEEDS").map_or(1000, |s| s.parse().unwrap());
    let start: u64 = std::env::var("START").map_or(0, |s| s.parse().unwrap());
    let mut opts = Options::default();
    if let Ok(d) = std::env::var("DICE") {
        opts.set("dice", &d).unwrap();
    }
    let rival: &dyn Fn(u64) -> Box<dyn Bot<BigCheese>> = if std::env::var("OPP").as_deref() == Ok("random") {
        &random
    } else {
        &heuristic
    };
    let r = rate(&opts, start..start + seeds, p, rival);
    println!("RESULT {spec:<40} {:.2}% over {} games", r * 100.0, seeds * 4);
}
