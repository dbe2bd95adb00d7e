//! The tensor encoding ([`game::Tensor`]) over random games of every dice
//! mode and option: ids of legal actions are distinct, in range and read
//! back; the legal mask is the legal set; observations are in `[0, 1]`
//! and hide what the view hides (the deck order, the dice to come, B3).

use bigcheese::{Action, BigCheese, DiceMode, Options, RerollDice, VetoTiming};
use game::{check_encoding, check_obs, Game, Seat, Tensor};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays one random game, checking the encoding at every step and the
/// hiding every few steps. Returns how many sampled states had the same
/// view (and so had to give the same observation); counts in `rerolls`
/// the legal re-rolls of several dice seen.
fn check_game(
    opts: &Options,
    players: usize,
    seed: u64,
    rerolls: &mut usize,
) -> Result<usize, String> {
    let mut g = BigCheese::new(opts, players, seed).map_err(|e| e.to_string())?;
    let num = BigCheese::num_actions(opts, players);
    let len = BigCheese::obs_len(opts, players);
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let (mut mask, mut ids, mut prev) = (vec![0u8; num], Vec::new(), Vec::new());
    let mut legal: Vec<Action> = Vec::new();
    let mut same = 0;
    let mut full_checks = 0;
    for step in 0..5_000 {
        // every id read back: often in small spaces, a few times in big ones
        let all = if num > 1_000 {
            g.to_move().is_some() && full_checks < 2 && step % 50 == 0
        } else {
            step % 10 == 0
        };
        full_checks += usize::from(all);
        check_encoding(&g, all, &mut mask, &mut ids, &mut prev).map_err(|e| e.to_string())?;
        for p in 0..players {
            let seat = Seat::new(p);
            let obs = check_obs(&g, seat, len).map_err(|e| e.to_string())?;
            if step % 7 == 0 {
                let view = g.view(seat);
                for _ in 0..2 {
                    let s = BigCheese::sample_from_view(&view, &mut rng);
                    if s.view(seat) == view {
                        same += 1;
                        if check_obs(&s, seat, len).map_err(|e| e.to_string())? != obs {
                            return Err(format!(
                                "{seat}'s observation depends on hidden state at step {step}"
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
        *rerolls += legal
            .iter()
            .filter(|a| matches!(a, Action::Reroll(RerollDice::Faces(f)) if f.len() > 1))
            .count();
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).map_err(|e| e.to_string())?;
    }
    Ok(same)
}

#[test]
fn every_dice_mode_encodes_and_hides() {
    let mut same = 0;
    let mut rerolls = 0;
    for (i, dice) in DiceMode::ALL.into_iter().enumerate() {
        for players in 3..=6 {
            let opts = Options {
                dice,
                specials: players != 5,
                exact: players == 4,
                veto: if players == 6 {
                    VetoTiming::BeforeBid
                } else {
                    VetoTiming::AnyTurn
                },
                chips: 6 + players as u8,
                ..Options::default()
            };
            for seed in 0..2 {
                same += check_game(
                    &opts,
                    players,
                    (i * 100 + players * 10) as u64 + seed,
                    &mut rerolls,
                )
                .unwrap_or_else(|e| panic!("{dice} {players}p seed {seed}: {e}"));
            }
        }
    }
    assert!(same > 100, "only {same} sampled states shared a view");
    assert!(
        rerolls > 100,
        "only {rerolls} re-rolls of several dice (B11)"
    );
}

#[test]
fn sizes_at_four_players() {
    let o = Options::default();
    assert_eq!(BigCheese::num_actions(&o, 4), 260);
    assert_eq!(BigCheese::obs_len(&o, 4), 207);
    let g = BigCheese::new(&o, 4, 1).unwrap();
    assert_eq!(g.action_id(Action::Bid(3)), Some(7));
    assert_eq!(g.action_of(260), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_options_encode(
        dice in 0usize..5,
        players in 3usize..=6,
        specials: bool,
        exact: bool,
        veto: bool,
        chips in 1u8..=20,
        seed: u64,
    ) {
        let opts = Options {
            dice: DiceMode::ALL[dice],
            specials,
            exact,
            veto: if veto { VetoTiming::BeforeBid } else { VetoTiming::AnyTurn },
            chips,
            ..Options::default()
        };
        check_game(&opts, players, seed, &mut 0).map_err(TestCaseError::fail)?;
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
