//! The misbehaviour suite: bot programs that crash, hang, answer garbage or
//! illegal actions, flood their output or their stderr, ignore `start` or
//! `quit`, or never read. In every case the game finishes with legal
//! moves, the strike is reported with its reason, and no process of the
//! bot (children included) is left running.

mod common;

use bots::{Bot, Roster};
use common::{play, root, running, temp_dir};
use extbot::{External, Limits};
use game::{Game, GameOptions};
use std::time::Duration;

fn limits() -> Limits {
    Limits {
        move_time: Duration::from_millis(100),
        start_time: Duration::from_millis(1500),
        quit_time: Duration::from_millis(300),
        ..Limits::default()
    }
}

struct Run {
    strikes: Vec<(usize, String)>,
    record: extbot::Record,
    pids: Vec<u32>,
    /// What [`Bot::unusable`] said after the game.
    unusable: Option<String>,
}

/// Plays one game with the misbehaving bot in `mode` at seat 1 and the
/// heuristic elsewhere, then ends the bot.
fn run<G: Roster>(mode: &str, players: usize, options: &[(&str, &str)]) -> Run {
    let dir = temp_dir(mode);
    let pidfile = dir.join("pids");
    let script = root().join("crates/extbot/tests/bots/misbehave.py");
    let cmd = format!("python3 {} {mode} {}", script.display(), pidfile.display());
    let opts = G::Options::from_pairs(options.iter().copied()).unwrap();
    let mut game = G::new(&opts, players, 7).unwrap();
    let mut ext = External::<G>::new(&cmd, limits(), 1).unwrap();
    let mut others: Vec<Box<dyn Bot<G>>> = (0..players)
        .map(|s| G::bot("heuristic", s as u64).unwrap())
        .collect();
    let (first, rest) = others.split_at_mut(1);
    let mut seats: Vec<&mut dyn Bot<G>> = vec![first[0].as_mut(), &mut ext];
    seats.extend(rest[1..].iter_mut().map(|b| b.as_mut() as &mut dyn Bot<G>));
    let (outcome, strikes) = play(&mut game, &mut seats);
    drop(seats);
    assert!(!outcome.capped, "{mode}: the game finished");
    assert!(game.outcome().is_some(), "{mode}: the game is over");
    let unusable = ext.unusable();
    // End the bot as a run does: quit, then its group killed.
    ext.shutdown();
    let record = ext.record().clone();
    drop(ext);
    let pids: Vec<u32> = std::fs::read_to_string(&pidfile)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert!(!pids.is_empty(), "{mode}: the bot wrote its pid");
    for &pid in &pids {
        assert!(!running(pid), "{mode}: process {pid} is left running");
    }
    Run {
        strikes,
        record,
        pids,
        unusable,
    }
}

fn dalmuti(mode: &str) -> Run {
    run::<dalmuti::Dalmuti>(mode, 4, &[("hands", "1")])
}

fn has(run: &Run, what: &str) -> bool {
    run.strikes.iter().any(|(s, r)| *s == 1 && r.contains(what))
}

#[test]
fn a_crash_is_a_strike_and_the_stand_in_finishes_the_game() {
    let r = dalmuti("crash");
    assert!(has(&r, "exited with status 3"), "{:?}", r.strikes);
    assert!(has(&r, "replaced by the heuristic bot"), "{:?}", r.strikes);
    assert_eq!(r.strikes.len(), 1, "one crash, one strike: {:?}", r.strikes);
    assert!(r.record.stand_in > 0);
    assert_eq!(r.unusable, None, "it said ready: it can play");
}

#[test]
fn a_bot_that_closes_its_output_is_caught_at_once() {
    let r = dalmuti("close_stdout");
    assert_eq!(
        r.strikes.len(),
        1,
        "one strike, no timeouts: {:?}",
        r.strikes
    );
    assert!(has(&r, "closed its output"), "{:?}", r.strikes);
    assert!(has(&r, "replaced"), "{:?}", r.strikes);
}

#[test]
fn stand_in_decisions_are_handed_out_once() {
    let opts = <dalmuti::Dalmuti as Game>::Options::from_pairs([("hands", "1")]).unwrap();
    let mut game = dalmuti::Dalmuti::new(&opts, 4, 3).unwrap();
    let mut ext = External::<dalmuti::Dalmuti>::new("exit 0", limits(), 1).unwrap();
    let mut others: Vec<Box<dyn Bot<dalmuti::Dalmuti>>> = (0..3)
        .map(|s| dalmuti::Dalmuti::bot("heuristic", s).unwrap())
        .collect();
    let mut seats: Vec<&mut dyn Bot<dalmuti::Dalmuti>> = vec![&mut ext];
    seats.extend(others.iter_mut().map(|b| b.as_mut() as &mut dyn Bot<_>));
    play(&mut game, &mut seats);
    drop(seats);
    let stood_in = ext.take_stand_in();
    assert!(stood_in > 0);
    assert_eq!(stood_in, ext.record().stand_in);
    assert_eq!(ext.take_stand_in(), 0, "taken once");
}

#[test]
fn a_segfault_names_the_signal() {
    let r = dalmuti("segv");
    assert!(has(&r, "killed by signal 11"), "{:?}", r.strikes);
}

#[test]
fn a_hang_costs_three_deadlines_then_the_process() {
    let r = dalmuti("hang");
    let timeouts = r
        .strikes
        .iter()
        .filter(|(_, s)| s.contains("no answer in 100 ms"))
        .count();
    assert_eq!(timeouts, 3, "{:?}", r.strikes);
    assert!(r.strikes[2].1.contains("replaced"), "{:?}", r.strikes);
    assert_eq!(r.strikes.len(), 3);
}

#[test]
fn one_late_answer_is_one_strike_and_the_bot_plays_on() {
    let r = dalmuti("slow_once");
    assert_eq!(r.strikes.len(), 1, "{:?}", r.strikes);
    assert!(has(&r, "no answer in 100 ms"));
    assert!(!has(&r, "replaced"));
    // The late answer was ignored, and the bot answered the rest itself.
    assert!(
        r.record.answers.is_empty(),
        "answers are kept only on request"
    );
    assert_eq!(r.record.stand_in, 1);
    assert_eq!(r.record.clean_exits, 1);
}

#[test]
fn garbage_is_a_strike_in_both_games() {
    let r = dalmuti("garbage");
    assert!(has(&r, "garbage: expected"), "{:?}", r.strikes);
    assert!(has(&r, "I think I'll pass"), "the reason quotes the line");
    assert_eq!(r.strikes.len(), 3);
    let b = run::<bigcheese::BigCheese>("garbage", 4, &[]);
    assert!(has(&b, "garbage"), "{:?}", b.strikes);
}

#[test]
fn an_illegal_action_is_a_strike() {
    let r = dalmuti("illegal");
    assert!(has(&r, "play 13x12"), "{:?}", r.strikes);
    assert!(r.strikes.len() == 3);
}

#[test]
fn an_answer_to_the_wrong_decision_is_garbage() {
    let r = dalmuti("wrong_id");
    assert!(has(&r, "garbage"), "{:?}", r.strikes);
}

#[test]
fn a_huge_line_is_a_flood() {
    let r = dalmuti("flood_line");
    assert!(
        has(&r, "flooded its output (a line over 64 KiB)"),
        "{:?}",
        r.strikes
    );
    assert_eq!(r.strikes.len(), 1);
}

#[test]
fn endless_lines_are_cut_off() {
    let r = dalmuti("flood_lines");
    assert!(has(&r, "replaced"), "{:?}", r.strikes);
    assert!(r.strikes.len() <= 3);
}

#[test]
fn a_stderr_flood_is_a_strike_and_costs_no_memory() {
    let r = dalmuti("stderr_flood");
    assert!(has(&r, "flooded stderr"), "{:?}", r.strikes);
}

#[test]
fn no_ready_and_the_wrong_protocol_are_refused() {
    let r = dalmuti("no_ready");
    assert!(has(&r, "no ready in 1500 ms"), "{:?}", r.strikes);
    let why = r.unusable.as_deref().unwrap_or_default();
    assert!(
        why.contains("never said ready (no ready in 1500 ms)"),
        "{why}"
    );
    assert!(
        why.contains("loading the model...\nno model file here"),
        "its stderr: {why}"
    );
    assert_eq!(
        r.record.answers.len() as u64 + r.record.stand_in,
        r.record.stand_in
    );
    let r = dalmuti("bad_protocol");
    assert!(has(&r, "speaks protocol 2, not 1"), "{:?}", r.strikes);
    assert!(r.unusable.is_some_and(|w| w.contains("speaks protocol 2")));
}

#[test]
fn a_bot_that_never_reads_and_has_a_child_leaves_nothing_behind() {
    let r = dalmuti("deaf");
    assert!(has(&r, "no ready"), "{:?}", r.strikes);
    assert_eq!(r.pids.len(), 2, "the bot and its child");
}

#[test]
fn a_bot_that_ignores_quit_is_killed_with_its_group() {
    let r = dalmuti("ignore_quit");
    assert!(r.strikes.is_empty(), "{:?}", r.strikes);
    assert_eq!(r.record.clean_exits, 0);
    assert!(
        r.record.unclean_exits[0].contains("still running"),
        "{:?}",
        r.record
    );
}

#[test]
fn a_command_that_does_not_exist_is_reported_with_its_stderr() {
    let opts = <dalmuti::Dalmuti as Game>::Options::default();
    let mut game = dalmuti::Dalmuti::new(&opts, 4, 1).unwrap();
    let mut ext =
        External::<dalmuti::Dalmuti>::new("no-such-bot-program --x", limits(), 1).unwrap();
    let mut others: Vec<Box<dyn Bot<dalmuti::Dalmuti>>> = (0..3)
        .map(|s| dalmuti::Dalmuti::bot("heuristic", s).unwrap())
        .collect();
    let mut seats: Vec<&mut dyn Bot<dalmuti::Dalmuti>> = vec![&mut ext];
    seats.extend(others.iter_mut().map(|b| b.as_mut() as &mut dyn Bot<_>));
    let (_, strikes) = play(&mut game, &mut seats);
    assert_eq!(strikes.len(), 1, "{strikes:?}");
    assert!(
        strikes[0].1.contains("exited with status 127"),
        "{strikes:?}"
    );
    assert!(
        strikes[0].1.contains("not found"),
        "the stderr's last line: {strikes:?}"
    );
    let why = ext.unusable().unwrap_or_default();
    assert!(why.contains("no-such-bot-program --x"), "{why}");
    assert!(why.contains("not found"), "{why}");
}
