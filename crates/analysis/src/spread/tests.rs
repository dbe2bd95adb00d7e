//! Tests of the duplicate-spread study on tiny runs: what each mode
//! deals, the same figures whatever the thread count, the errors.

use super::*;

fn dalmuti(
    entrants: &[&str],
    players: usize,
    deals: u64,
    repeats: u64,
) -> Config<dalmuti::Dalmuti> {
    let mut options = dalmuti::Options::default();
    options.set_pair("hands=1").unwrap();
    Config {
        options,
        players,
        entrants: entrants.iter().map(|s| s.to_string()).collect(),
        deals,
        repeats,
        seed: 5,
        threads: 1,
        max_actions: 100_000,
    }
}

#[test]
fn plain_deals_every_game_afresh_and_duplicate_every_deal_in_every_seat() {
    let cfg = dalmuti(&["random", "heuristic", "strong"], 4, 6, 2);
    assert_eq!(cfg.lineup(), vec![0, 1, 2, 0]);
    let per = cfg.games_per_tournament();
    assert_eq!(per, 24);
    for repeat in 0..2 {
        let mut dup = Vec::new();
        let mut plain = Vec::new();
        let mut seatings = std::collections::BTreeSet::new();
        for j in 0..per {
            let (m, deal, rotation) = cfg.game(repeat, Mode::Duplicate, j);
            dup.push((
                m.deal_seed(deal),
                (0..4).map(|s| m.entrant(rotation, s)).collect::<Vec<_>>(),
            ));
            let (m, deal, rotation) = cfg.game(repeat, Mode::Plain, j);
            assert_eq!(rotation, 0);
            let mut sorted = m.lineup.clone();
            sorted.sort();
            assert_eq!(
                sorted,
                vec![0, 0, 1, 2],
                "a plain seating is the lineup shuffled"
            );
            seatings.insert(m.lineup.clone());
            plain.push(m.deal_seed(deal));
        }
        // Plain: a fresh deal every game, seatings that vary.
        let mut distinct = plain.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len() as u64, per);
        assert!(seatings.len() > 3, "{seatings:?}");
        // Duplicate: each deal four times, the lineup through every seat.
        for deal in dup.chunks(4) {
            assert!(deal.iter().all(|(s, _)| *s == deal[0].0));
            for seat in 0..4 {
                let mut who: Vec<usize> = deal.iter().map(|(_, l)| l[seat]).collect();
                who.sort();
                assert_eq!(who, vec![0, 0, 1, 2]);
            }
            assert!(!plain.contains(&deal[0].0), "the modes share no deal");
        }
    }
    // Repeats are different tournaments.
    let first = |r| cfg.game(r, Mode::Duplicate, 0);
    assert_ne!(first(0).0.deal_seed(0), first(1).0.deal_seed(0));
}

#[test]
fn a_run_counts_its_deals_and_gives_the_same_figures_whatever_the_threads() {
    let mut cfg = dalmuti(&["random", "strong"], 3, 3, 3);
    let one = run(&cfg, &crate::Quiet).unwrap();
    cfg.threads = 3;
    let three = run(&cfg, &crate::Quiet).unwrap();
    assert_eq!(one.tournaments, three.tournaments);
    assert_eq!(one.figures, three.figures);
    assert_eq!(one.tournaments.len(), 6);
    assert_eq!(one.games, 2 * 3 * 9);
    for (i, t) in one.tournaments.iter().enumerate() {
        assert_eq!(t.repeat, i as u64 / 2);
        let (mode, deals) = if i % 2 == 0 {
            (Mode::Duplicate, 3)
        } else {
            (Mode::Plain, 9)
        };
        assert_eq!((t.mode, t.distinct_deals), (mode, deals));
        assert_eq!(t.standing.scores.len(), 2);
    }
    assert_eq!(one.of(Mode::Plain).count(), 3);
    assert_eq!(one.options, vec!["hands=1".to_string()]);
    // Two repeats with different seeds do not stand alike.
    let scores: Vec<_> = one.of(Mode::Plain).map(|t| &t.standing.scores).collect();
    assert!(scores.windows(2).any(|w| w[0] != w[1]), "{scores:?}");
    // Another seed, another run.
    cfg.seed += 1;
    assert_ne!(
        run(&cfg, &crate::Quiet).unwrap().tournaments,
        one.tournaments
    );
}

#[test]
fn a_bad_study_is_refused_with_the_flag_to_change() {
    let cases = [
        (dalmuti(&["random"], 3, 2, 2), "at least two"),
        (
            dalmuti(&["random", "heuristic", "strong"], 3, 2, 1),
            "--repeats",
        ),
        (
            dalmuti(&["random", "heuristic", "strong"], 3, 0, 2),
            "--deals",
        ),
        (
            dalmuti(&["random", "heuristic", "strong", "search"], 3, 2, 2),
            "4 bots for 3 seats",
        ),
        (
            dalmuti(&["random", "strong", "random"], 3, 2, 2),
            "`random` twice",
        ),
        (dalmuti(&["random", "nosuch"], 3, 2, 2), "nosuch"),
    ];
    for (cfg, needle) in cases {
        let e = run(&cfg, &crate::Quiet).unwrap_err().to_string();
        assert!(e.contains(needle), "{needle}: {e}");
    }
    assert_eq!(
        default_entrants::<dalmuti::Dalmuti>(),
        vec!["random", "heuristic", "strong"]
    );
}
