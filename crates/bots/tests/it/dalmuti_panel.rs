//! Tests of the Dalmuti sparring panel (`Roster::PANEL`) over whole games:
//! every panel bot plays only legal actions at every table size and with
//! every variant, meets every phase (revolution D7, taxes D8, market D14,
//! seating a newcomer D13), finishes its games, replays the same game from
//! the same seed (and after `reseed`), and beats random play clearly.

use bots::{Bot, RandomBot, Roster};
use dalmuti::{Action, Card, Dalmuti, Options, Phase, View};
use game::{Game, GameOptions, Outcome, Seat};
use std::collections::HashSet;

fn panel(name: &str, seed: u64) -> Box<dyn Bot<Dalmuti>> {
    Dalmuti::bot(name, seed).unwrap()
}

fn options(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

/// Plays one game of `players` to the end (`bots` has a bot for every
/// seat, joiners included, D13), checking that every choice is legal;
/// notes the phases in which `watch` seats decided. Returns the outcome
/// and the actions played; panics past 200,000 actions (a game that never
/// ends).
fn play(
    opts: &Options,
    players: usize,
    seed: u64,
    bots: &mut [Box<dyn Bot<Dalmuti>>],
    watch: &dyn Fn(usize) -> bool,
    phases: &mut HashSet<&'static str>,
) -> (Outcome, Vec<Action>) {
    let mut g = Dalmuti::new(opts, players, seed).unwrap();
    assert_eq!(bots.len(), players + opts.joins.len());
    let mut legal = Vec::new();
    let mut played = Vec::new();
    while let Some(s) = g.to_move() {
        g.legal_actions(&mut legal);
        let v = g.view(s);
        if watch(s.index()) {
            phases.insert(v.public.phase.key());
        }
        let a = bots[s.index()].choose(&v, &legal);
        assert!(
            legal.contains(&a),
            "{}: {a} is not legal in\n{v}",
            bots[s.index()].name()
        );
        style_holds(bots[s.index()].name(), &v, &legal, a);
        g.apply(a).unwrap();
        played.push(a);
        assert!(played.len() < 200_000, "the game does not end");
    }
    (g.outcome().expect("a finished game has an outcome"), played)
}

/// Checks the one habit each panel bot is named for, on every decision.
fn style_holds(name: &str, v: &View, legal: &[Action], a: Action) {
    let hand = v.hand;
    let out = matches!(a, Action::Play(p) if p.size() as usize == hand.len());
    let leading = v.public.phase == Phase::Play && v.public.trick.is_none();
    let can_play = legal.iter().any(|x| matches!(x, Action::Play(_)));
    let why = || format!("{name} chose {a} in\n{v}");
    match (name, a) {
        // never passes while it can play
        ("nopass", Action::Pass) => assert!(!can_play, "{}", why()),
        // a Jester only to go out, and never given away while it can help
        ("hoarder", Action::Play(p)) if p.jesters() > 0 => assert!(out, "{}", why()),
        ("hoarder", Action::Give(g)) if g.cards().any(|c| c.is_jester()) => assert!(
            legal
                .iter()
                .all(|x| matches!(x, Action::Give(h) if h.cards().any(|c| c.is_jester()))),
            "{}",
            why()
        ),
        // strong cards only late: at most two groups of ranks 4..=12 left
        ("saver", Action::Play(p)) if p.rank() <= 3 || p.jesters() > 0 => {
            let weak = (4..=12)
                .filter(|&r| hand.count(Card::from_index(r)) > 0)
                .count();
            assert!(out || weak <= 2, "{}", why());
        }
        // leads its biggest natural set
        ("shedder", Action::Play(p)) if leading && !out => {
            let biggest = (1..=12)
                .map(|r| hand.count(Card::from_index(r)))
                .max()
                .unwrap();
            assert!(p.size() >= biggest, "{}", why());
        }
        // leads at most a pair
        ("breaker", Action::Play(p)) if leading && !out => {
            assert!(p.size() <= 2, "{}", why())
        }
        // leads its best high rank (1..=6) but its very best, whole; with
        // none, its worst rank
        ("leadhigh", Action::Play(p)) if leading && !out => {
            let mut ranks: Vec<u8> = (1..=12u8)
                .filter(|&r| hand.count(Card::from_index(r as usize)) > 0)
                .collect();
            if ranks.len() > 1 {
                ranks.remove(0);
            }
            let want = ranks
                .iter()
                .copied()
                .find(|&r| r <= 6)
                .unwrap_or(*ranks.last().unwrap());
            assert_eq!(p.jesters(), 0, "{}", why());
            assert_eq!(p.rank(), want, "{}", why());
            assert_eq!(p.size(), hand.count(p.card()), "{}", why());
        }
        _ => {}
    }
}

/// The option sets every panel bot plays: single hands, default sessions
/// (shortened where they would only repeat), and each variant.
fn option_sets() -> Vec<Options> {
    vec![
        options(&[("hands", "1")]),
        options(&[("hands", "1"), ("single_hand", "points")]),
        Options::default(),
        options(&[("hands", "12"), ("market", "on")]),
        options(&[("hands", "4"), ("black_market", "on")]),
        options(&[("hands", "3"), ("auto_revolution", "on")]),
        options(&[
            ("hands", "4"),
            ("settling_hand", "on"),
            ("benevolent_rulers", "on"),
            ("the_elected", "on"),
            ("standard_deck", "on"),
        ]),
        options(&[("hands", "5"), ("joins", "2,4"), ("market", "on")]),
        options(&[("target", "6"), ("hands", "50")]),
    ]
}

#[test]
fn panel_is_full_and_distinct_from_the_ladder() {
    assert!((5..=6).contains(&Dalmuti::PANEL.len()));
    for name in Dalmuti::PANEL {
        assert!(!Dalmuti::LADDER.contains(name), "{name}");
        assert!(!name.contains(':') && name.to_lowercase() == *name);
        assert_eq!(panel(name, 1).name(), *name);
    }
}

#[test]
fn legal_in_every_phase_size_and_variant() {
    for (b, name) in Dalmuti::PANEL.iter().enumerate() {
        let mut phases = HashSet::new();
        let mut seed = 1000 * b as u64;
        for opts in option_sets() {
            for players in 3..=8 {
                seed += 1;
                // the panel bot in every seat
                let seats = players + opts.joins.len();
                let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..seats)
                    .map(|i| panel(name, seed * 16 + i as u64))
                    .collect();
                play(&opts, players, seed, &mut bots, &|_| true, &mut phases);
                // and in one seat among random players, then among
                // `nopass` players (who always trade at the market, so the
                // bot gets to give a card back), a different seat each time
                for (k, field) in ["random", "nopass"].into_iter().enumerate() {
                    let hero = (seed as usize + 3 * k) % players;
                    let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..seats)
                        .map(|i| {
                            let s = if i == hero {
                                seed
                            } else {
                                seed * 16 + i as u64
                            };
                            Dalmuti::bot(if i == hero { name } else { field }, s).unwrap()
                        })
                        .collect();
                    play(&opts, players, seed, &mut bots, &|s| s == hero, &mut phases);
                }
            }
        }
        for phase in [
            Phase::Play,
            Phase::Revolution,
            Phase::GreaterTax,
            Phase::LesserTax,
            Phase::Market,
            Phase::MarketReturn,
            Phase::SeatNew,
        ] {
            assert!(
                phases.contains(phase.key()),
                "{name} never decided in phase {}",
                phase.key()
            );
        }
    }
}

#[test]
fn the_whole_panel_at_one_table() {
    let mut phases = HashSet::new();
    for (k, opts) in option_sets().iter().enumerate() {
        let players = Dalmuti::PANEL.len() + k % 3;
        let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..players + opts.joins.len())
            .map(|i| {
                panel(
                    Dalmuti::PANEL[i % Dalmuti::PANEL.len()],
                    k as u64 + i as u64,
                )
            })
            .collect();
        play(
            opts,
            players,
            77 + k as u64,
            &mut bots,
            &|_| true,
            &mut phases,
        );
    }
}

#[test]
fn same_seed_same_game() {
    let opts = options(&[("hands", "3"), ("market", "on")]);
    for name in Dalmuti::PANEL {
        let run = |bots: &mut Vec<Box<dyn Bot<Dalmuti>>>| {
            play(&opts, 6, 42, bots, &|_| false, &mut HashSet::new())
        };
        let fresh = || -> Vec<Box<dyn Bot<Dalmuti>>> {
            (0..6).map(|i| panel(name, 5 + i as u64)).collect()
        };
        let mut bots = fresh();
        let (o1, a1) = run(&mut bots);
        let (o2, a2) = run(&mut fresh());
        assert_eq!(o1, o2, "{name}");
        assert_eq!(a1, a2, "{name}");
        // a used bot reseeded plays as a new one
        for (i, b) in bots.iter_mut().enumerate() {
            assert!(b.reseed(5 + i as u64), "{name} reseeds");
        }
        let (o3, a3) = run(&mut bots);
        assert_eq!(o1, o3, "{name} after reseed");
        assert_eq!(a1, a3, "{name} after reseed");
    }
}

#[test]
fn each_beats_four_random_bots() {
    let opts = options(&[("hands", "1")]);
    for name in Dalmuti::PANEL {
        let mut firsts = 0.0;
        let mut games = 0;
        for deal in 0..40u64 {
            for hero in 0..5 {
                let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..5)
                    .map(|i| -> Box<dyn Bot<Dalmuti>> {
                        if i == hero {
                            panel(name, deal)
                        } else {
                            Box::new(RandomBot::new(deal * 16 + i as u64))
                        }
                    })
                    .collect();
                let (o, _) = play(&opts, 5, deal, &mut bots, &|_| false, &mut HashSet::new());
                if o.winners.contains(&Seat::new(hero)) {
                    firsts += 1.0 / o.winners.len() as f64;
                }
                games += 1;
            }
        }
        let rate = firsts / games as f64;
        eprintln!("{name}: first in {firsts}/{games} single hands against 4 random bots");
        // a fair share is 20%: ask for a clear margin
        assert!(rate >= 0.35, "{name}: {rate:.3} first-place rate");
    }
}
