//! Property tests: random playouts over every option combination and 3..=6
//! players end, conserve chips and cards, agree between `check` and
//! `legal_actions`, reject illegal actions without change, hide hidden
//! information, and replay identically from the same seed.

use bigcheese::{Action, BigCheese, Card, DiceMode, Faces, Options, PublicView, RerollDice};
use game::{Game, GameOptions};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const STEP_CAP: usize = 200_000;

fn options(dice: usize, specials: bool, exact: bool) -> Options {
    Options {
        dice: DiceMode::ALL[dice],
        specials,
        exact,
        ..Options::default()
    }
}

/// Cards everywhere the public view shows them, plus the deck.
fn card_total(v: &PublicView) -> usize {
    let mut n = v.deck_size as usize;
    n += v.discards.iter().map(|&(_, k)| k as usize).sum::<usize>();
    for s in &v.seats {
        n += s.projects.len() + s.vetos as usize + s.cheeses as usize;
    }
    n += v.to_resolve.len() + v.roll.is_some() as usize;
    n
}

fn check_invariants(g: &BigCheese) {
    let v = g.public_view();
    let o = g.options();
    assert_eq!(card_total(&v), o.deck_size(), "cards conserved\n{v}");
    let mut hired = 0;
    for s in &v.seats {
        let on: usize = s.projects.iter().map(|&(_, k)| k as usize).sum();
        assert_eq!(
            s.free as usize + on,
            o.chips as usize + s.hired as usize,
            "chips of {}\n{v}",
            s.seat
        );
        hired += s.hired;
        assert!(s.projects.iter().all(|&(_, k)| k > 0));
        if o.dice == DiceMode::NoDice {
            assert_eq!(
                s.cheeses, 0,
                "no-dice: Big Cheeses hire, never stay in hand (B15)"
            );
        }
        assert!(s.hired <= 4);
    }
    assert_eq!(hired, v.hired_total);
    assert!(v.hired_total as usize <= 2 * v.seats.len());
    if v.auction.is_some() {
        assert!(v.top.is_some());
    }
}

/// Some actions that are often illegal, to probe `check`.
fn probes() -> Vec<Action> {
    let mut v = vec![
        Action::Pass,
        Action::Veto,
        Action::Keep,
        Action::Reroll(RerollDice::Die),
    ];
    for b in 0..16 {
        v.push(Action::Bid(b));
    }
    for f in 1..=6 {
        v.push(Action::Reroll(RerollDice::Faces(Faces::of(&[f]))));
        v.push(Action::Reroll(RerollDice::Faces(Faces::of(&[f, f]))));
    }
    v.push(Action::Reroll(RerollDice::Faces(Faces::of(&[1, 2, 3]))));
    v
}

/// Plays a random game, checking every property at every step.
fn playout(opts: &Options, players: usize, seed: u64, deep: bool) -> (BigCheese, Vec<Action>) {
    let mut g = BigCheese::new(opts, players, seed).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let mut legal = Vec::new();
    let mut history = Vec::new();
    let probes = probes();
    let mut steps = 0;
    while g.to_move().is_some() {
        steps += 1;
        assert!(steps < STEP_CAP, "game too long");
        check_invariants(&g);
        g.legal_actions(&mut legal);
        assert!(!legal.is_empty());
        if deep {
            for &a in legal.iter().chain(probes.iter()) {
                let ok = g.check(a).is_ok();
                assert_eq!(ok, legal.contains(&a), "check({a}) vs legal_actions");
                if !ok {
                    let mut h = g.clone();
                    let err = h.apply(a).unwrap_err();
                    assert!(!err.to_string().is_empty());
                    assert_eq!(h, g, "illegal {a} changed the state");
                }
            }
            // The view does not depend on hidden information.
            let seat = g.to_move().unwrap();
            let view = g.view(seat);
            // the JSON a bot program gets reads back as the same view
            let json = serde_json::to_value(&view).unwrap();
            assert_eq!(
                serde_json::from_value::<bigcheese::View>(json).unwrap(),
                view
            );
            let mut other = BigCheese::sample_from_view(&view, &mut rng);
            assert_eq!(other.view(seat), view, "sampled state shows another view");
            let mut other_legal = Vec::new();
            other.legal_actions(&mut other_legal);
            assert_eq!(other_legal, legal);
            // The sample can be played on.
            let a = legal[0];
            other.apply(a).unwrap();
            // The list-free sampler draws only legal actions, and all of
            // them (checked where the list is short: half-of-n re-roll
            // lists run to thousands).
            let mut seen = Vec::new();
            let mut scratch = Vec::new();
            for _ in 0..if legal.len() <= 16 {
                40 * legal.len()
            } else {
                0
            } {
                let a = g.random_action(&mut rng, &mut scratch);
                assert!(legal.contains(&a), "random_action gave illegal {a}");
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
            if legal.len() <= 16 {
                assert_eq!(
                    seen.len(),
                    legal.len(),
                    "random_action misses some legal actions"
                );
            }
        }
        let a = legal[rng.random_range(0..legal.len())];
        history.push(a);
        g.apply(a).unwrap();
    }
    check_invariants(&g);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.is_empty());
    let o = g.outcome().expect("over");
    assert!(!o.winners.is_empty());
    (g, history)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts(dice in 0usize..5, specials: bool, exact: bool, players in 3usize..=6, seed: u64) {
        let opts = options(dice, specials, exact);
        let (g, history) = playout(&opts, players, seed, true);
        // Same seed, same actions: same game.
        let mut h = BigCheese::new(&opts, players, seed).unwrap();
        for a in history {
            h.apply(a).unwrap();
        }
        prop_assert_eq!(h.outcome(), g.outcome());
        prop_assert_eq!(h, g);
    }

    #[test]
    fn many_quick_playouts(dice in 0usize..5, specials: bool, exact: bool, players in 3usize..=6, seed: u64) {
        let opts = options(dice, specials, exact);
        playout(&opts, players, seed, false);
    }

    #[test]
    fn options_round_trip(dice in 0usize..5, specials: bool, exact: bool, target in proptest::option::of(1u16..=10000), chips in 1u8..=50) {
        let mut o = options(dice, specials, exact);
        o.target = target;
        o.chips = chips;
        let back = Options::from_pairs(o.pairs().iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        prop_assert_eq!(back, o);
    }

    #[test]
    fn action_text_round_trips(bid: u8, counts in proptest::array::uniform6(0u8..4)) {
        for a in [Action::Bid(bid), Action::Reroll(RerollDice::Faces(Faces::from_counts(counts)))] {
            if a == Action::Reroll(RerollDice::Faces(Faces::EMPTY)) {
                continue;
            }
            prop_assert_eq!(a.to_string().parse::<Action>(), Ok(a));
        }
    }

    #[test]
    fn hidden_info_does_not_change_views(seed: u64, other: u64, steps in 0usize..60) {
        // Play `steps` random actions, then reshuffle the deck below the top
        // card and reseed the dice: no seat's view changes.
        let mut g = BigCheese::new(&Options::default(), 4, seed).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..steps {
            if g.to_move().is_none() { break; }
            g.legal_actions(&mut legal);
            g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        }
        let seat = game::Seat::new(0);
        let view = g.view(seat);
        let mut r2 = SmallRng::seed_from_u64(other);
        let h = BigCheese::sample_from_view(&view, &mut r2);
        for s in game::Seat::all(4) {
            prop_assert_eq!(h.view(s), g.view(s));
        }
        prop_assert_eq!(h.public_view().to_string(), g.public_view().to_string());
    }
}

#[test]
fn card_text_round_trips() {
    for c in Card::ALL {
        assert_eq!(c.to_string().parse::<Card>(), Ok(c));
    }
}

#[test]
fn same_seed_same_game() {
    let a = playout(&Options::default(), 4, 99, false);
    let b = playout(&Options::default(), 4, 99, false);
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
}

#[test]
fn logging_tells_the_story() {
    let mut g = BigCheese::new(&Options::default(), 4, 3).unwrap();
    g.set_logging(true);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut legal = Vec::new();
    while g.to_move().is_some() {
        g.legal_actions(&mut legal);
        g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    let text: Vec<String> = g.events().iter().map(|l| l.event.to_string()).collect();
    assert!(text[0].starts_with("deck shuffled"));
    assert!(text.iter().any(|t| t.contains(" takes ")));
    assert!(text.iter().any(|t| t.contains(" matures: d")));
    assert!(text.last().unwrap().contains(" win"));
    // Logging off: nothing is recorded.
    let mut h = BigCheese::new(&Options::default(), 4, 3).unwrap();
    h.apply(Action::Pass).unwrap();
    assert!(h.events().is_empty());
}

#[test]
fn board_text() {
    let g = BigCheese::new(&Options::default(), 4, 1).unwrap();
    let v = g.view(game::Seat::new(1));
    let text = v.to_string();
    assert!(text.contains("P2 (you) free 10"), "{text}");
    assert!(text.contains("Top card: "), "{text}");
    assert!(text.contains("score 0/40"), "{text}");
}

#[test]
fn capped_outcome_has_no_winner() {
    let g = BigCheese::new(&Options::default(), 5, 1).unwrap();
    let o = g.capped_outcome();
    assert!(o.capped);
    assert!(o.winners.is_empty());
    assert_eq!(o.scores, vec![0; 5]);
    assert!(g.outcome().is_none());
}

#[test]
fn check_as_names_the_seat_rules() {
    use bigcheese::IllegalAction;
    use game::{ActError, Seat};
    let mut g = BigCheese::new(&Options::default(), 4, 1).unwrap();
    let first = g.to_move().unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(
        g.check_as(first, Action::Bid(1)),
        Err(ActError::Illegal(IllegalAction::AlreadyPassed))
    );
    assert!(matches!(
        g.check_as(Seat::new((first.index() + 2) % 4), Action::Pass),
        Err(ActError::NotYourTurn { .. })
    ));
    assert_eq!(
        IllegalAction::AlreadyPassed.to_string(),
        "you passed this auction and cannot bid again (B5)"
    );
}

#[test]
fn a_seat_past_the_table_is_not_its_turn() {
    // Found by fuzzing (fuzz/regressions/record, fuzz/regressions/scenario):
    // a record or scenario may name any seat up to P16, and the passed-bidder
    // check shifted a u8 by the seat index (a panic from P9 on in debug).
    use game::{ActError, Seat};
    let mut g = BigCheese::new(&Options::default(), 6, 1).unwrap();
    g.apply(Action::Pass).unwrap();
    for i in 6..Seat::MAX {
        let far = Seat::new(i);
        assert!(!g.has_passed(far), "{far}");
        for a in [Action::Pass, Action::Bid(1)] {
            assert!(
                matches!(g.check_as(far, a), Err(ActError::NotYourTurn { got, .. }) if got == far),
                "{far} {a}"
            );
        }
    }
}

/// `pick_uniform` takes the same action with the same draws as a pick from
/// `legal_actions`, under every dice mode (the simulator's figures rest on
/// it).
#[test]
fn pick_uniform_draws_as_the_list() {
    use rand_chacha::ChaCha8Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut legal, mut scratch) = (Vec::new(), Vec::new());
    let mut checked = 0;
    for dice in 0..DiceMode::ALL.len() {
        for (players, seed) in (3..=6).flat_map(|p| (0..6u64).map(move |s| (p, s))) {
            let opts = options(dice, seed % 2 == 0, seed % 3 == 0);
            let mut g = BigCheese::new(&opts, players, seed).unwrap();
            let mut steps = 0;
            while g.to_move().is_some() && steps < STEP_CAP {
                let mut list_rng = rng.clone();
                let a = g.pick_uniform(&mut rng, &mut scratch);
                g.legal_actions(&mut legal);
                let b = legal[list_rng.random_range(0..legal.len())];
                assert_eq!(a, b);
                assert_eq!(rng, list_rng, "not the same draws");
                g.apply_unchecked(a);
                checked += 1;
                steps += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
