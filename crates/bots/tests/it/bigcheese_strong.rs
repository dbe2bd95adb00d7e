//! Tests of the strong Big Cheese bot over whole games: it always plays a
//! legal action and ranks exactly the legal actions in every rules mode,
//! is deterministic for a seed, and beats the rule-based bot and random
//! play. Plus an ignored tuning harness:
//! `STRONG="lambda=0.03,deny=2" SEEDS=1000 cargo test --release -p bots
//! --test tests -- --ignored tune --nocapture`
//! (also `DICE=d6`, `OPP=random`, `START=5000`).

use bigcheese::{Action, BigCheese, Options};
use bots::big_cheese::heuristic::Heuristic;
use bots::big_cheese::strong::{Params, Strong};
use bots::{Bot, RandomBot, Roster};
use game::{Game, GameOptions, Outcome};

type Maker = dyn Fn(u64) -> Box<dyn Bot<BigCheese>>;

fn strong(seed: u64) -> Box<dyn Bot<BigCheese>> {
    Box::new(Strong::new(seed))
}

fn heuristic(seed: u64) -> Box<dyn Bot<BigCheese>> {
    Box::new(Heuristic::new(seed))
}

fn random(seed: u64) -> Box<dyn Bot<BigCheese>> {
    Box::new(RandomBot::new(seed))
}

/// Plays one game to the end (or 20,000 actions), checking that every
/// choice is legal and that `evaluate` ranks exactly the legal actions,
/// best first, with the choice on top. Returns the outcome (`None` when
/// cut off) and the actions played.
fn play(
    opts: &Options,
    seed: u64,
    bots: &mut [Box<dyn Bot<BigCheese>>],
) -> (Option<Outcome>, Vec<Action>) {
    let mut g = BigCheese::new(opts, bots.len(), seed).unwrap();
    let mut legal = Vec::new();
    let mut played = Vec::new();
    while let Some(s) = g.to_move() {
        g.legal_actions(&mut legal);
        let v = g.view(s);
        let bot = &mut bots[s.index()];
        if bot.name() == "strong" {
            let scores = bot.evaluate(&v, &legal).expect("strong evaluates");
            assert_eq!(scores.len(), legal.len(), "{v}");
            assert!(legal.iter().all(|a| scores.iter().any(|x| x.action == *a)));
            assert!(scores.windows(2).all(|w| w[0].value >= w[1].value));
            let a = bot.choose(&v, &legal);
            assert_eq!(a, scores[0].action, "{v}");
        }
        let a = bot.choose(&v, &legal);
        assert!(legal.contains(&a), "{a} is not legal in\n{v}");
        g.apply(a).unwrap();
        played.push(a);
        if played.len() > 20_000 {
            return (None, played);
        }
    }
    (g.outcome(), played)
}

/// The hero's share of first places over `seeds` duplicate deals, each
/// played with the hero in every seat of a 4-player table.
fn rate(opts: &Options, seeds: std::ops::Range<u64>, params: Params, rival: &Maker) -> f64 {
    let mut wins = 0.0;
    let mut games = 0;
    for seed in seeds {
        for hero in 0..4 {
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..4)
                .map(|i| {
                    if i == hero {
                        Box::new(Strong::with_params(seed, params))
                    } else {
                        rival(seed * 16 + i as u64)
                    }
                })
                .collect();
            let (o, _) = play(opts, seed, &mut bots);
            if let Some(o) = o {
                if o.winners.iter().any(|w| w.index() == hero) {
                    wins += 1.0 / o.winners.len() as f64;
                }
            }
            games += 1;
        }
    }
    wins / games as f64
}

fn options(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

#[test]
fn legal_and_ranked_in_every_mode() {
    let makers: [&Maker; 3] = [&strong, &heuristic, &random];
    let mut seed = 0;
    for dice in ["polyhedral", "d6", "best-of-two", "half-of-n", "no-dice"] {
        for exact in ["off", "on"] {
            let opts = options(&[("dice", dice), ("exact", exact)]);
            for players in 3..=6 {
                seed += 1;
                // Strong bots in most seats, the others mixed in.
                let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..players)
                    .map(|i| {
                        makers[if i % 2 == 0 {
                            0
                        } else {
                            (seed as usize + i) % 3
                        }](seed + i as u64)
                    })
                    .collect();
                play(&opts, seed, &mut bots);
            }
        }
    }
    // Tight chips and specials off too.
    for pairs in [
        [("chips", "1"), ("specials", "on")],
        [("chips", "3"), ("specials", "off")],
    ] {
        let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..4).map(strong).collect();
        play(&options(&pairs), 99, &mut bots);
    }
}

#[test]
fn same_seed_same_game() {
    let opts = Options::default();
    let run = || {
        let mut bots: Vec<Box<dyn Bot<BigCheese>>> =
            vec![strong(5), heuristic(6), strong(7), random(8)];
        play(&opts, 42, &mut bots)
    };
    let (o1, a1) = run();
    let (o2, a2) = run();
    assert!(o1.is_some());
    assert_eq!(o1, o2);
    assert_eq!(a1, a2);
}

#[test]
fn in_the_roster_just_below_search() {
    let n = BigCheese::LADDER.len();
    assert_eq!(BigCheese::LADDER[n - 2..], ["strong", "search"]);
    assert_eq!(BigCheese::BOTS[0], "heuristic");
    assert_eq!(BigCheese::bot("strong", 1).unwrap().name(), "strong");
    assert!(BigCheese::bot("strong:100", 1).is_err());
}

#[test]
fn beats_the_heuristic() {
    // Measured ~78% over 10,000 games; fair share is 25%, the goal 35%.
    let r = rate(&Options::default(), 0..150, Params::default(), &heuristic);
    println!("strong vs 3 heuristic: {:.1}%", r * 100.0);
    assert!(r >= 0.5, "{r}");
}

#[test]
fn beats_random_play() {
    let r = rate(&Options::default(), 0..100, Params::default(), &random);
    println!("strong vs 3 random: {:.1}%", r * 100.0);
    assert!(r >= 0.65, "{r}");
}

/// The heuristic, playing a random legal action one time in five: a
/// rival the strong bot's model of the table does not fit exactly.
struct Noisy(Heuristic, RandomBot, rand_chacha::ChaCha8Rng);

impl Bot<BigCheese> for Noisy {
    fn name(&self) -> &'static str {
        "noisy"
    }

    fn choose(&mut self, view: &bigcheese::View, legal: &[Action]) -> Action {
        use rand::Rng;
        if self.2.random_bool(0.2) {
            Bot::<BigCheese>::choose(&mut self.1, view, legal)
        } else {
            self.0.choose(view, legal)
        }
    }
}

fn noisy(seed: u64) -> Box<dyn Bot<BigCheese>> {
    use rand::SeedableRng;
    Box::new(Noisy(
        Heuristic::new(seed),
        RandomBot::new(seed + 1),
        rand_chacha::ChaCha8Rng::seed_from_u64(seed + 2),
    ))
}

/// A plain bidder with its own price of chips: bids one above the high
/// bid while `lambda * b(b+1)/2` stays below the card's mean payout (in
/// typical cards of 5 points; specials 0.5), keeps every roll.
struct Eager(f64);

impl Bot<BigCheese> for Eager {
    fn name(&self) -> &'static str {
        "eager"
    }

    fn choose(&mut self, view: &bigcheese::View, legal: &[Action]) -> Action {
        let Some(a) = view.public.auction.as_ref() else {
            return legal[0];
        };
        let v = if a.card.is_number() {
            (a.card.value() as f64 + 1.0) / 2.0 / 5.0
        } else {
            0.5
        };
        let b = a.high + 1;
        let bid = Action::Bid(b);
        if self.0 * (b as f64) * (b as f64 + 1.0) / 2.0 <= v && legal.contains(&bid) {
            bid
        } else {
            Action::Pass
        }
    }
}

fn eager(_seed: u64) -> Box<dyn Bot<BigCheese>> {
    let l = std::env::var("EAGER").map_or(0.03, |s| s.parse().unwrap());
    Box::new(Eager(l))
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
    let rival: &Maker = match std::env::var("OPP").as_deref() {
        Ok("random") => &random,
        Ok("noisy") => &noisy,
        Ok("eager") => &eager,
        _ => &heuristic,
    };
    let r = rate(&opts, start..start + seeds, p, rival);
    println!(
        "RESULT {spec:<40} {:.2}% over {} games",
        r * 100.0,
        seeds * 4
    );
}
