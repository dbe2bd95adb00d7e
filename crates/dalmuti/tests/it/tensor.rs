//! The tensor encoding ([`game::Tensor`]) over random sessions with every
//! option (market, black market, revolutions, joins): ids of legal actions
//! are distinct, in range and read back; the legal mask is the legal set;
//! observations are in `[0, 1]` and hide what the view hides (other hands,
//! and who decides a pending revolution, D7).

use dalmuti::{Action, Dalmuti, Options, Phase};
use game::{check_encoding, check_obs, Game, GameOptions, Seat, Tensor};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// Plays one random session, checking the encoding at every step and the
/// hiding every few steps. Returns how many sampled states had the same
/// view (and so had to give the same observation), and how many of those
/// were during a pending revolution; adds the kinds of legal actions seen
/// to `kinds`.
fn check_session(
    opts: &Options,
    players: usize,
    seed: u64,
    kinds: &mut BTreeSet<&'static str>,
) -> Result<(usize, usize), String> {
    let mut g = Dalmuti::new(opts, players, seed).map_err(|e| e.to_string())?;
    let num = Dalmuti::num_actions(opts, players);
    let len = Dalmuti::obs_len(opts, players);
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let (mut mask, mut ids, mut prev) = (vec![0u8; num], Vec::new(), Vec::new());
    let mut legal: Vec<Action> = Vec::new();
    let (mut same, mut secret) = (0, 0);
    for step in 0..20_000 {
        check_encoding(&g, step % 5 == 0, &mut mask, &mut ids, &mut prev)
            .map_err(|e| e.to_string())?;
        let rare = !matches!(g.phase(), Phase::Play);
        for p in 0..g.players() {
            let seat = Seat::new(p);
            let obs = check_obs(&g, seat, len).map_err(|e| e.to_string())?;
            if rare || step % 9 == 0 {
                let view = g.view(seat);
                for _ in 0..2 {
                    let s = Dalmuti::sample_from_view(&view, &mut rng);
                    if s.view(seat) == view {
                        same += 1;
                        secret += usize::from(g.phase() == Phase::Revolution);
                        if check_obs(&s, seat, len).map_err(|e| e.to_string())? != obs {
                            return Err(format!(
                                "{seat}'s observation depends on hidden state at step {step} ({})",
                                g.phase()
                            ));
                        }
                    }
                }
            }
        }
        if g.to_move().is_none() {
            break;
        }
        g.legal_actions(&mut legal);
        kinds.extend(legal.iter().map(|a| kind(*a)));
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).map_err(|e| e.to_string())?;
    }
    Ok((same, secret))
}

/// The kind of an action, for coverage.
fn kind(a: Action) -> &'static str {
    match a {
        Action::Pass => "pass",
        Action::Play(p) if p.jesters() > 0 && p.naturals() > 0 => "play with Jesters",
        Action::Play(_) => "play",
        Action::Give(g) if g.len() == 2 => "give two",
        Action::Give(_) => "give one",
        Action::Revolution => "revolution",
        Action::NoRevolution => "no-revolution",
        Action::Market(..) => "market",
        Action::BlackMarket(_) => "black market",
        Action::NoMarket => "no-market",
        Action::SeatNew(_) => "seat-new",
    }
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    Options::from_pairs(pairs.iter().copied()).unwrap()
}

#[test]
fn every_option_encodes_and_hides() {
    let sets = [
        opts(&[("hands", "3")]),
        opts(&[("hands", "3"), ("market", "on")]),
        opts(&[("hands", "3"), ("black_market", "on"), ("joins", "2,3")]),
        opts(&[("hands", "4"), ("auto_revolution", "on"), ("joins", "2")]),
        opts(&[
            ("hands", "3"),
            ("settling_hand", "on"),
            ("standard_deck", "on"),
            ("target", "6"),
            ("benevolent_rulers", "on"),
            ("the_elected", "on"),
        ]),
    ];
    let (mut same, mut secret) = (0, 0);
    let mut kinds = BTreeSet::new();
    for (i, o) in sets.iter().enumerate() {
        for players in [3, 4, 5, 6, 7, 8, 11] {
            for seed in 0..3 {
                let (a, b) = check_session(
                    o,
                    players,
                    (i * 1000 + players * 10) as u64 + seed,
                    &mut kinds,
                )
                .unwrap_or_else(|e| panic!("options {i}, {players}p, seed {seed}: {e}"));
                same += a;
                secret += b;
            }
        }
    }
    assert!(same > 1000, "only {same} sampled states shared a view");
    assert!(secret > 0, "no pending revolution was checked (D7)");
    assert_eq!(kinds.len(), 11, "only {kinds:?} were legal");
}

#[test]
fn sizes_at_four_players() {
    let o = Options::default();
    assert_eq!(Dalmuti::num_actions(&o, 4), 388);
    assert_eq!(Dalmuti::obs_len(&o, 4), 251);
    let j = opts(&[("joins", "2,3")]);
    assert_eq!(Dalmuti::num_actions(&j, 4), 346 + 14 * 5);
    assert_eq!(Dalmuti::obs_len(&j, 4), 111 + 6 * 37);
    let g = Dalmuti::new(&o, 4, 1).unwrap();
    assert_eq!(g.action_id("pass".parse().unwrap()), Some(0));
    assert_eq!(g.action_id("play 3x3".parse().unwrap()), Some(6 + 9 + 6));
    assert_eq!(g.action_id("play 2xJ".parse().unwrap()), Some(241));
    assert_eq!(g.action_id("play 4x3".parse().unwrap()), None);
    assert_eq!(g.action_id("give J J".parse().unwrap()), Some(345));
    assert_eq!(g.action_of(388), None);
}

/// D7: while a revolution is pending, seats other than the holder see the
/// same observation whoever the holder is, and only the holder's "my
/// decision" flag is set.
#[test]
fn a_pending_revolution_names_nobody() {
    let mut found = 0;
    for seed in 0..400 {
        let g = Dalmuti::new(&Options::default(), 5, seed).unwrap();
        if g.phase() != Phase::Revolution {
            continue;
        }
        found += 1;
        let holder = g.to_move().unwrap();
        let len = Dalmuti::obs_len(g.options(), 5);
        for p in 0..5 {
            let obs = check_obs(&g, Seat::new(p), len).unwrap();
            assert_eq!(obs[8] == 1.0, Seat::new(p) == holder, "seed {seed}");
            // nobody is shown to move: the flag at 11 + S of each slot
            for slot in 0..5 {
                assert_eq!(obs[111 + slot * 36 + 11 + 5], 0.0, "seed {seed}");
            }
        }
    }
    assert!(found > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_options_encode(
        hands in 1u32..3,
        flags: [bool; 6],
        market in 0u8..3,
        players in 3usize..=9,
        join: bool,
        seed: u64,
    ) {
        let o = Options {
            hands,
            standard_deck: flags[0],
            settling_hand: flags[1],
            auto_revolution: flags[2],
            benevolent_rulers: flags[3],
            the_elected: flags[4],
            market: market == 1,
            black_market: market == 2,
            target: flags[5].then_some(4),
            ..opts(if join { &[("joins", "2")] } else { &[] })
        };
        check_session(&o, players, seed, &mut BTreeSet::new()).map_err(TestCaseError::fail)?;
    }
}

/// docs/python.md carries this module's tables: every table row of the
/// module doc is in it, so the two cannot drift apart.
#[test]
fn python_doc_has_the_tables() {
    let module = include_str!("../../src/tensor.rs");
    let doc = include_str!("../../../../docs/python.md");
    let rows: Vec<&str> = module
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .filter(|l| l.starts_with('|'))
        .collect();
    assert!(rows.len() > 20);
    for row in rows {
        assert!(doc.contains(row), "docs/python.md lacks `{row}`");
    }
}
