//! Tests of the post-game analysis: determinism, the shape of the result,
//! refusals, and (the one that could fail if the judge measured nothing)
//! random play losing more per decision than a strong bot.

use super::ladder;
use super::*;
use crate::Quiet;

/// A tiny budget, for debug-build tests.
fn tiny() -> Config {
    Config {
        search: 30,
        rollouts: 16,
        candidates: 2,
        threads: 1,
        unfinished: false,
    }
}

fn ladder_cfg<G: Judge>(
    options: G::Options,
    players: usize,
    games: u64,
    levels: &[&str],
) -> ladder::Config<G> {
    ladder::Config {
        games,
        players,
        options,
        levels: levels.iter().map(|s| s.to_string()).collect(),
        seed: 11,
        threads: 2,
        judge: tiny(),
        max_actions: 5_000,
        keep_records: false,
        field: None,
    }
}

fn small_dalmuti() -> dalmuti::Options {
    dalmuti::Options {
        hands: 1,
        ..dalmuti::Options::default()
    }
}

fn small_cheese() -> bigcheese::Options {
    let mut o = bigcheese::Options::default();
    game::GameOptions::set(&mut o, "target", "20").expect("target");
    o
}

/// Checks what holds for any analysis of a finished game.
fn well_formed<G: Judge>(a: &Analysis, record: &Record) {
    assert_eq!(a.format, FORMAT);
    assert_eq!(a.game, G::NAME);
    assert!(a.finished);
    assert_eq!(a.actions, record.actions.len());
    assert!(!a.decisions.is_empty());
    for d in &a.decisions {
        assert!(d.loss >= 0.0 && d.std_error >= 0.0, "{d:?}");
        assert!(d.legal >= 2);
        assert_eq!(d.label, G::THRESHOLDS.label(d.loss));
        let better = if G::UNIT.higher_is_better {
            d.value_best >= d.value_chosen - 1e-9
        } else {
            d.value_best <= d.value_chosen + 1e-9
        };
        assert!(better, "{d:?}");
        assert!(((d.value_best - d.value_chosen).abs() - d.loss).abs() < 1e-9);
        assert!(d.candidates.iter().any(|c| c.action == d.chosen));
        assert!(d.candidates.iter().any(|c| c.action == d.best));
        assert_eq!(
            record.actions[d.move_number - 1],
            format!("{} {}", d.seat, d.chosen)
        );
    }
    let counted: usize = a.summary.iter().map(|s| s.decisions).sum();
    assert_eq!(counted, a.decisions.len());
    for s in &a.summary {
        assert_eq!(s.good + s.inaccuracy + s.mistake + s.blunder, s.decisions);
        let series = a.series.iter().find(|x| x.seat == s.seat).expect("series");
        assert_eq!(series.points.len(), s.decisions);
        assert!(series
            .points
            .windows(2)
            .all(|w| w[0].move_number < w[1].move_number));
    }
    assert!(a.turning_points.len() <= TURNING_POINTS);
    for t in &a.turning_points {
        assert!((t.by_table + t.by_choice - t.swing).abs() < 1e-9);
    }
    assert!(a
        .turning_points
        .windows(2)
        .all(|w| w[0].swing.abs() >= w[1].swing.abs()));
    // the JSON form reads back
    let json = serde_json::to_string(a).expect("json");
    let back: serde_json::Value = serde_json::from_str(&json).expect("value");
    assert!(back["decisions"][0]["move"].is_u64());
    assert!(back["decisions"][0]["label"].is_string());
}

#[test]
fn an_analysis_is_well_formed_and_a_function_of_the_record() {
    let cfg = ladder_cfg::<bigcheese::BigCheese>(small_cheese(), 4, 1, &["random", "strong"]);
    let record = ladder::play_game(&cfg, 0).expect("game");
    let mut calls = Vec::new();
    let one = analyze::<bigcheese::BigCheese>(&record, &tiny(), |d, t| calls.push((d, t)))
        .expect("analysis");
    well_formed::<bigcheese::BigCheese>(&one, &record);
    let total = one.decisions.len();
    assert_eq!(calls.first(), Some(&(0, total)));
    assert_eq!(calls.last(), Some(&(total, total)));
    assert_eq!(calls.len(), total + 1);
    let two = analyze::<bigcheese::BigCheese>(
        &record,
        &Config {
            threads: 2,
            ..tiny()
        },
        |_, _| {},
    )
    .expect("analysis");
    assert_eq!(two.budget.threads, 2);
    let two = Analysis {
        budget: one.budget,
        ..two
    };
    assert_eq!(one, two, "the thread count changed the analysis");

    let cfg = ladder_cfg::<dalmuti::Dalmuti>(small_dalmuti(), 5, 1, &["random", "strong"]);
    let record = ladder::play_game(&cfg, 0).expect("game");
    let a = analyze::<dalmuti::Dalmuti>(&record, &tiny(), |_, _| {}).expect("analysis");
    well_formed::<dalmuti::Dalmuti>(&a, &record);
    assert!(a.decisions.iter().all(|d| d.hand == 1));
    assert!(a
        .decisions
        .iter()
        .all(|d| (1.0..=5.0).contains(&d.value_chosen)));
}

#[test]
fn unfinished_and_broken_records_are_refused() {
    let cfg = ladder_cfg::<dalmuti::Dalmuti>(small_dalmuti(), 5, 1, &["random"]);
    let mut record = ladder::play_game(&cfg, 0).expect("game");
    record.outcome = None;
    record.actions.truncate(20);
    let e = analyze::<dalmuti::Dalmuti>(&record, &tiny(), |_, _| {}).unwrap_err();
    assert!(matches!(e, Error::Unfinished { actions: 20 }), "{e}");
    let ok = analyze::<dalmuti::Dalmuti>(
        &record,
        &Config {
            unfinished: true,
            ..tiny()
        },
        |_, _| {},
    )
    .expect("allowed");
    assert!(!ok.finished);
    // stopped by a runner's length cap (B17), as the record says: finished
    let stopped: dalmuti::Dalmuti = record.replay_actions(false, |_, _, _| {}).expect("replays");
    let mut capped = record.clone();
    capped.outcome = Some(stopped.capped_outcome());
    let a = analyze::<dalmuti::Dalmuti>(&capped, &tiny(), |_, _| {}).expect("a capped game");
    assert!(a.finished);
    record.actions[3] = "P9 fly".into();
    let e = analyze::<dalmuti::Dalmuti>(&record, &tiny(), |_, _| {}).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Record(game::RecordError::BadAction { index: 4, .. })
        ),
        "{e}"
    );
    record.game = "bigcheese".into();
    let e = analyze::<dalmuti::Dalmuti>(&record, &tiny(), |_, _| {}).unwrap_err();
    assert!(
        matches!(e, Error::Record(game::RecordError::WrongGame { .. })),
        "{e}"
    );
}

/// The judge measures skill: over a handful of games, random play loses
/// more per decision than the strong bot, in both games. Not timed; it
/// fails if the losses do not tell the two apart.
#[test]
fn random_play_loses_more_than_strong_play() {
    let cfg = ladder_cfg::<bigcheese::BigCheese>(small_cheese(), 4, 6, &["random", "strong"]);
    let r = ladder::run(&cfg, &Quiet).expect("ladder");
    assert!(
        r.levels[0].decisions > 20 && r.levels[1].decisions > 20,
        "{r}"
    );
    assert!(
        r.levels[0].mean_loss.value > r.levels[1].mean_loss.value,
        "{r}"
    );
    assert!(r.ranked);

    let cfg = ladder_cfg::<dalmuti::Dalmuti>(small_dalmuti(), 4, 4, &["random", "strong"]);
    let r = ladder::run(&cfg, &Quiet).expect("ladder");
    assert!(
        r.levels[0].decisions > 20 && r.levels[1].decisions > 20,
        "{r}"
    );
    assert!(
        r.levels[0].mean_loss.value > r.levels[1].mean_loss.value,
        "{r}"
    );
}

#[test]
fn thresholds_label_in_order() {
    let t = Thresholds {
        inaccuracy: 1.0,
        mistake: 2.0,
        blunder: 3.0,
    };
    assert_eq!(t.label(0.0), Label::Good);
    assert_eq!(t.label(0.99), Label::Good);
    assert_eq!(t.label(1.0), Label::Inaccuracy);
    assert_eq!(t.label(2.5), Label::Mistake);
    assert_eq!(t.label(30.0), Label::Blunder);
    for g in [
        bigcheese::BigCheese::THRESHOLDS,
        dalmuti::Dalmuti::THRESHOLDS,
    ] {
        assert!(0.0 < g.inaccuracy && g.inaccuracy < g.mistake && g.mistake < g.blunder);
    }
}

#[test]
fn a_ladder_needs_two_bots_and_a_game() {
    let mut cfg = ladder_cfg::<dalmuti::Dalmuti>(small_dalmuti(), 5, 1, &["random"]);
    assert!(matches!(ladder::run(&cfg, &Quiet), Err(Error::Config(_))));
    cfg.levels.push("nosuch".into());
    assert!(matches!(ladder::run(&cfg, &Quiet), Err(Error::Bot(_))));
    cfg.levels[1] = "strong".into();
    cfg.games = 0;
    assert!(matches!(ladder::run(&cfg, &Quiet), Err(Error::Config(_))));
}
