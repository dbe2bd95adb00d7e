//! Tests of the Big Cheese sparring panel over whole games: every panel
//! bot plays only legal actions and finishes games at 3 to 6 players in
//! several rules modes, plays the same game for the same seed, and beats
//! three random bots clearly (fair share 25%).

use bigcheese::{Action, BigCheese, Options};
use bots::big_cheese::panel;
use bots::{Bot, RandomBot, Roster};
use game::{Game, GameOptions, Outcome};

/// Longest game played before a test calls it endless.
const CAP: usize = 20_000;

fn options(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn panel_bot(name: &str, seed: u64) -> Box<dyn Bot<BigCheese>> {
    panel::bot(name, seed).expect("a panel name")
}

/// Plays one game, checking every choice is legal. Returns the outcome
/// (`None` when cut off at `CAP` actions) and the actions played.
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
        let a = bots[s.index()].choose(&v, &legal);
        assert!(
            legal.contains(&a),
            "{}: {a} is not legal in\n{v}",
            bots[s.index()].name()
        );
        g.apply(a).unwrap();
        played.push(a);
        if played.len() > CAP {
            return (None, played);
        }
    }
    (g.outcome(), played)
}

#[test]
fn names_are_in_the_roster() {
    assert_eq!(BigCheese::PANEL, panel::NAMES);
    assert!(panel::NAMES.len() >= 5);
    for name in panel::NAMES {
        assert!(!BigCheese::LADDER.contains(name), "{name}");
        assert!(!name.contains(':') && name.to_lowercase() == *name);
        assert_eq!(BigCheese::bot(name, 1).unwrap().name(), *name);
        assert!(BigCheese::bot(&format!("{name}:10"), 1).is_err());
    }
    assert!(panel::bot("strong", 1).is_none());
}

#[test]
fn legal_and_finishing_in_every_seat() {
    let modes: [&[(&str, &str)]; 7] = [
        &[],
        &[("dice", "d6")],
        &[("dice", "no-dice")],
        &[("exact", "on")],
        &[("dice", "best-of-two"), ("veto", "before-bid")],
        &[("dice", "half-of-n"), ("final_tie", "chance")],
        &[("chips", "3"), ("specials", "off")],
    ];
    let mut seed = 0;
    let mut unfinished = Vec::new();
    for name in panel::NAMES {
        for (m, pairs) in modes.iter().enumerate() {
            let opts = options(pairs);
            for players in 3..=6 {
                seed += 1;
                // The panel bot in every seat; the other seats mix random
                // and panel bots, so it meets both.
                let hero = seed as usize % players;
                let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..players)
                    .map(|i| {
                        let s = seed * 8 + i as u64;
                        if i == hero || i % 2 == 0 {
                            panel_bot(name, s)
                        } else if (seed as usize + i) % 3 == 0 {
                            Box::new(RandomBot::new(s))
                        } else {
                            panel_bot(panel::NAMES[(seed as usize + i) % panel::NAMES.len()], s)
                        }
                    })
                    .collect();
                let (o, _) = play(&opts, seed, &mut bots);
                if o.is_none() {
                    unfinished.push(format!("{name} mode {m} players {players}"));
                }
            }
            // A whole table of this bot too.
            seed += 1;
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> =
                (0..4).map(|i| panel_bot(name, seed * 8 + i)).collect();
            if play(&opts, seed, &mut bots).0.is_none() {
                unfinished.push(format!("{name} mode {m} four alike"));
            }
        }
    }
    assert!(unfinished.is_empty(), "unfinished: {unfinished:?}");
}

#[test]
fn same_seed_same_game() {
    let opts = Options::default();
    for name in panel::NAMES {
        let run = |seed: u64| {
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> = vec![
                panel_bot(name, seed),
                Box::new(RandomBot::new(seed + 1)),
                panel_bot(name, seed + 2),
                Box::new(RandomBot::new(seed + 3)),
            ];
            play(&opts, 42, &mut bots)
        };
        let (o1, a1) = run(5);
        let (o2, a2) = run(5);
        assert!(o1.is_some(), "{name}");
        assert_eq!(o1, o2, "{name}");
        assert_eq!(a1, a2, "{name}");
        // Another seed changes the random seats (and jumper's bluffs).
        let (_, a3) = run(6);
        assert_ne!(a1, a3, "{name}");
        // A reseeded bot plays as a new one.
        let mut b = panel_bot(name, 99);
        assert!(b.reseed(5), "{name}");
        let mut bots: Vec<Box<dyn Bot<BigCheese>>> = vec![
            b,
            Box::new(RandomBot::new(6)),
            panel_bot(name, 7),
            Box::new(RandomBot::new(8)),
        ];
        assert_eq!(play(&opts, 42, &mut bots).1, a1, "{name} reseeded");
    }
}

/// The jumper's bluffs come from its seed: two seeds, same table, and the
/// games part ways somewhere over a few deals.
#[test]
fn jumper_seed_matters() {
    let opts = Options::default();
    let differs = (0..10).any(|deal| {
        let run = |seed: u64| {
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> =
                (0..4).map(|i| panel_bot("jumper", seed + i)).collect();
            play(&opts, deal, &mut bots).1
        };
        run(100) != run(200)
    });
    assert!(differs);
}

/// The hero's share of first places over `deals` deals, each played with
/// the hero in every seat of a 4-player table against three random bots.
fn rate_vs_random(name: &str, opts: &Options, deals: u64) -> f64 {
    let mut wins = 0.0;
    let mut games = 0;
    for deal in 0..deals {
        for hero in 0..4 {
            let mut bots: Vec<Box<dyn Bot<BigCheese>>> = (0..4)
                .map(|i| -> Box<dyn Bot<BigCheese>> {
                    let s = 1000 + deal * 16 + i as u64;
                    if i == hero {
                        panel_bot(name, s)
                    } else {
                        Box::new(RandomBot::new(s))
                    }
                })
                .collect();
            let (o, _) = play(opts, 1000 + deal, &mut bots);
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

#[test]
fn each_beats_random_play() {
    // 200 seat-rotated games each (fair share 25%). A bot at 25% fails
    // the 40% bar with near certainty (about 5 standard errors).
    let deals = 50;
    let mut failed = Vec::new();
    for name in panel::NAMES {
        let r = rate_vs_random(name, &Options::default(), deals);
        println!("{name} vs 3 random: {:.1}%", r * 100.0);
        if r < 0.40 {
            failed.push(format!("{name} {:.1}%", r * 100.0));
        }
    }
    assert!(failed.is_empty(), "below 40% against random: {failed:?}");
}

/// The panel stays sensible in other dice modes: above the fair share
/// against random bots with d6 and no-dice payouts (60 games each, a
/// loose bar). The exact-target game is only printed: there the panel
/// (all but `chaser`) is near or below a fair share against random play,
/// see the panel's module docs.
#[test]
fn each_holds_its_own_in_other_modes() {
    let mut failed = Vec::new();
    for pairs in [[("dice", "d6")], [("dice", "no-dice")], [("exact", "on")]] {
        let opts = options(&pairs);
        for name in panel::NAMES {
            let r = rate_vs_random(name, &opts, 15);
            println!("{name} {pairs:?}: {:.1}%", r * 100.0);
            if r < 0.30 && pairs[0].0 == "dice" {
                failed.push(format!("{name} {pairs:?} {:.1}%", r * 100.0));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
}
