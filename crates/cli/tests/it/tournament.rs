//! Tests of `ratrace tournament`: the same seed gives the same report
//! whatever the thread count, an interrupted and resumed run reports
//! exactly what an uninterrupted one does, a checkpoint of another
//! tournament is refused, the SPRT stops at the same deal every time, and
//! the binary runs end to end and fails cleanly on bad input.

use analysis::tournament::{self, Config, Length, Mode, Resume};
use analysis::Quiet;
use game::GameOptions;
use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ratrace-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn config(mode: Mode, deals: u64, threads: usize) -> Config<dalmuti::Dalmuti> {
    let mut options = dalmuti::Options::default();
    options.set("hands", "1").unwrap();
    Config {
        mode,
        players: 4,
        options,
        length: Length::Deals(deals),
        seed: 11,
        threads,
        max_actions: 100_000,
        sprt: None,
        out: None,
        resume: Resume::Auto,
        command: "test".into(),
        limits: extbot::Limits::default(),
        save: None,
    }
}

fn candidate() -> Mode {
    Mode::Candidate {
        candidate: "heuristic".into(),
        field: "random".into(),
    }
}

/// The report without what may differ between equal runs: timing, and how
/// much came from a checkpoint.
fn figures(r: &tournament::Report) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("speed");
    o.remove("deals_resumed");
    v
}

#[test]
fn same_seed_same_report_whatever_the_threads() {
    let one = tournament::run(&config(candidate(), 6, 1), &Quiet).unwrap();
    let three = tournament::run(&config(candidate(), 6, 3), &Quiet).unwrap();
    assert_eq!(figures(&one), figures(&three));
    assert_eq!(one.figures.deals, 6);
    // Every bot's thinking time is measured, over its decisions with a choice.
    assert_eq!(one.speed.think.len(), 2);
    assert!(one
        .speed
        .think
        .iter()
        .all(|t| t.decisions > 0 && t.mean_ms <= t.max_ms));
    assert_eq!(one.figures.games, 24);
    assert_eq!(one.games_per_deal, 4);
    // The candidate holds one seat per game, the field three.
    assert_eq!(one.figures.entrants[0].seat_games, 24);
    assert_eq!(one.figures.entrants[1].seat_games, 72);
    assert_eq!(one.figures.ratings.anchor, "random");
    assert_eq!(one.figures.ratings.bots[1].rating, 0.0);
    // Another seed plays other deals.
    let mut other = config(candidate(), 6, 1);
    other.seed = 12;
    assert_ne!(
        figures(&one),
        figures(&tournament::run(&other, &Quiet).unwrap())
    );
}

/// A checkpoint's lines without the bots' thinking times (wall clock).
fn without_times(checkpoint: &str) -> Vec<serde_json::Value> {
    checkpoint
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(games) = v.get_mut("games").and_then(|g| g.as_array_mut()) {
                for g in games {
                    assert!(g.as_object_mut().unwrap().remove("think").is_some());
                }
            }
            v
        })
        .collect()
}

#[test]
fn a_resumed_run_reports_what_an_uninterrupted_one_does() {
    let whole = tournament::run(&config(candidate(), 6, 2), &Quiet).unwrap();

    // Stopped after 3 deals, then lengthened to 6.
    let dir = temp_dir("resume");
    let mut cfg = config(candidate(), 3, 2);
    cfg.out = Some(dir.clone());
    let first = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(first.figures.deals, 3);
    cfg.length = Length::Deals(6);
    cfg.resume = Resume::Require;
    let resumed = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(resumed.deals_resumed, 3);
    assert_eq!(resumed.speed.games_played, 12);
    assert_eq!(figures(&whole), figures(&resumed));
    let cp = std::fs::read_to_string(tournament::checkpoint_path(&dir)).unwrap();
    assert_eq!(cp.lines().count(), 7, "a header and one line per deal");
    for file in ["tournament.json", "tournament.md"] {
        assert!(dir.join(file).exists(), "{file} written");
    }

    // Killed in the middle of writing deal 4: the torn line is dropped and
    // the deal played again.
    let torn: String = cp
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + &cp.lines().nth(5).unwrap()[..40];
    std::fs::write(tournament::checkpoint_path(&dir), torn).unwrap();
    cfg.resume = Resume::Auto;
    let again = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(again.deals_resumed, 4);
    assert_eq!(figures(&whole), figures(&again));
    let cp2 = std::fs::read_to_string(tournament::checkpoint_path(&dir)).unwrap();
    assert_eq!(
        without_times(&cp),
        without_times(&cp2),
        "the checkpoint is whole again"
    );

    // Rerunning a finished tournament plays nothing.
    let done = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(done.speed.games_played, 0);
    assert_eq!(figures(&whole), figures(&done));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_checkpoint_of_another_tournament_is_refused() {
    let dir = temp_dir("mismatch");
    let mut cfg = config(candidate(), 2, 1);
    cfg.out = Some(dir.clone());
    tournament::run(&cfg, &Quiet).unwrap();
    cfg.seed = 99;
    let e = tournament::run(&cfg, &Quiet).unwrap_err().to_string();
    assert!(
        e.contains("another tournament") && e.contains("seed 11 there, 99 here"),
        "{e}"
    );
    cfg.players = 5;
    cfg.seed = 11;
    let e = tournament::run(&cfg, &Quiet).unwrap_err().to_string();
    assert!(e.contains("players 4 there, 5 here"), "{e}");
    // --fresh replaces it.
    cfg.resume = Resume::Fresh;
    assert_eq!(tournament::run(&cfg, &Quiet).unwrap().deals_resumed, 0);
    // A damaged line in the middle is an error, not a panic.
    let path = tournament::checkpoint_path(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "{\"deal\":0,\"games\":[]}";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    cfg.resume = Resume::Auto;
    let e = tournament::run(&cfg, &Quiet).unwrap_err().to_string();
    assert!(e.contains("unreadable checkpoint at line 2"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_stops_at_the_same_deal_whatever_the_threads() {
    // heuristic beats random far more often than 1/4: H1 is accepted fast.
    let mut cfg = config(candidate(), 200, 1);
    cfg.sprt = Some("0.25,0.35".parse().unwrap());
    let one = tournament::run(&cfg, &Quiet).unwrap();
    cfg.threads = 3;
    let three = tournament::run(&cfg, &Quiet).unwrap();
    let t = one.sprt.as_ref().unwrap();
    assert_eq!(t.decision, "H1");
    assert!(t.llr >= t.upper);
    assert!(
        one.figures.deals < 200,
        "stopped early at {}",
        one.figures.deals
    );
    assert_eq!(t.deals, one.figures.deals);
    assert_eq!(figures(&one), figures(&three));
    // Interrupted before the decision and resumed: the same stop.
    let dir = temp_dir("sprt");
    cfg.out = Some(dir.clone());
    cfg.length = Length::Deals(3);
    assert_eq!(
        tournament::run(&cfg, &Quiet)
            .unwrap()
            .sprt
            .unwrap()
            .decision,
        "none"
    );
    cfg.length = Length::Deals(200);
    let resumed = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(resumed.deals_resumed, 3);
    assert_eq!(figures(&one), figures(&resumed));
    // Rerun: everything comes from the checkpoint, the test stops at the
    // same deal, nothing is played.
    let rerun = tournament::run(&cfg, &Quiet).unwrap();
    assert_eq!(rerun.speed.games_played, 0);
    assert_eq!(figures(&one), figures(&rerun));
    let _ = std::fs::remove_dir_all(&dir);
    // No SPRT in a round robin.
    let mut rr = config(
        Mode::RoundRobin {
            bots: vec!["random".into(), "heuristic".into()],
        },
        2,
        1,
    );
    rr.sprt = cfg.sprt;
    assert!(tournament::run(&rr, &Quiet)
        .unwrap_err()
        .to_string()
        .contains("--candidate"));
}

#[test]
fn a_round_robin_plays_every_pair_from_both_sides() {
    let r = tournament::run(
        &config(
            Mode::RoundRobin {
                bots: vec!["random".into(), "heuristic".into()],
            },
            3,
            2,
        ),
        &Quiet,
    )
    .unwrap();
    assert_eq!(
        r.lineups,
        vec!["random + 3 heuristic", "heuristic + 3 random"]
    );
    assert_eq!(r.games_per_deal, 8);
    assert_eq!(r.figures.games, 24);
    // Each bot holds 1 + 3 seats per rotation pair: equal seat-games.
    assert_eq!(r.figures.entrants[0].seat_games, 48);
    assert_eq!(r.figures.entrants[1].seat_games, 48);
    assert_eq!(r.figures.paired.len(), 1);
    assert!(
        r.figures.ratings.bots[1].rating > 0.0,
        "heuristic above random"
    );
    // Seat rates over all seats add up to the games won.
    let won: f64 = r.figures.seats.iter().map(|s| s.wins.wins).sum();
    assert!((won - (24 - r.figures.capped) as f64).abs() < 1e-9);
    // --games rounds up to whole deals: 20 games of 8 per deal is 3 deals.
    let mut by_games = config(
        Mode::RoundRobin {
            bots: vec!["random".into(), "heuristic".into()],
        },
        0,
        2,
    );
    by_games.length = Length::Games(20);
    let g = tournament::run(&by_games, &Quiet).unwrap();
    assert_eq!(figures(&g), figures(&r));
    // A bot named twice is refused.
    let e = tournament::run(
        &config(
            Mode::RoundRobin {
                bots: vec!["random".into(), "random".into()],
            },
            3,
            1,
        ),
        &Quiet,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn a_panel_run_rates_every_level_against_the_level_below_and_each_panel_bot() {
    let panel = |against: Vec<String>| Mode::Panel {
        levels: vec!["random".into(), "heuristic".into(), "strong".into()],
        panel: vec!["search:30".into(), "random:x".into()],
        against,
    };
    // A bad panel bot is refused before anything is played.
    let e = tournament::run(&config(panel(vec![]), 1, 1), &Quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("random:x"), "{e}");
    let mode = Mode::Panel {
        levels: vec!["random".into(), "heuristic".into(), "strong".into()],
        panel: vec!["search:30".into()],
        against: vec!["strong".into(), "heuristic".into()],
    };
    let r = tournament::run(&config(mode.clone(), 4, 2), &Quiet).unwrap();
    assert_eq!(r.mode, "panel");
    assert_eq!(
        r.lineups,
        vec![
            "heuristic + 3 random",
            "heuristic + 3 search:30",
            "strong + 3 heuristic",
            "strong + 3 search:30",
            "search:30 + 3 strong",
            "search:30 + 3 heuristic",
        ]
    );
    assert_eq!(r.games_per_deal, 6 * 4);
    let p = r.panel.as_ref().unwrap();
    assert_eq!(p.levels.len(), 2);
    let strong = &p.levels[1];
    assert_eq!(strong.level, "strong");
    assert_eq!(strong.vs_below.against, "heuristic");
    assert_eq!(strong.vs_panel.len(), 1);
    // Each matchup counts the lone bot's seat-games: one per game of its
    // lineup (4 deals x 4 rotations).
    for m in p
        .levels
        .iter()
        .flat_map(|l| std::iter::once(&l.vs_below).chain(&l.vs_panel))
    {
        assert_eq!(m.wins.games, 16, "{m:?}");
        assert!((m.fair_share - 0.25).abs() < 1e-12);
    }
    // The worst case is the lowest of the row, and `holds` follows the
    // lower bounds.
    for l in &p.levels {
        let rates = std::iter::once(&l.vs_below).chain(&l.vs_panel);
        let min = rates.map(|m| m.wins.rate).fold(f64::INFINITY, f64::min);
        assert_eq!(l.worst.wins.rate, min);
        assert_eq!(
            l.holds,
            l.vs_below.above_fair() && l.vs_panel.iter().all(|m| m.above_fair())
        );
    }
    assert_eq!(
        p.panel_vs
            .iter()
            .map(|m| (m.bot.as_str(), m.against.as_str()))
            .collect::<Vec<_>>(),
        [("search:30", "strong"), ("search:30", "heuristic")]
    );
    // The matchups add up to the entrant's totals: search:30 is alone in
    // its two lineups and fills three seats in two others.
    let search = &r.figures.entrants[3];
    assert_eq!(search.seat_games, 2 * 16 + 2 * 48);
    // The same seed gives the same report whatever the threads, and the
    // Markdown shows the ladder against the panel.
    let again = tournament::run(&config(mode, 4, 1), &Quiet).unwrap();
    assert_eq!(figures(&r), figures(&again));
    let md = r.to_string();
    assert!(md.contains("## The ladder against the panel"), "{md}");
    assert!(md.contains("| strong | "), "{md}");
    // --panel-against must name levels.
    let e = tournament::run(&config(panel(vec!["search".into()]), 1, 1), &Quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a level"), "{e}");
}

fn ratrace(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_binary_runs_end_to_end() {
    let dir = temp_dir("bin");
    let d = dir.to_str().unwrap();
    let args = [
        "tournament",
        "dalmuti",
        "--players",
        "4",
        "--option",
        "hands=1",
        "--candidate",
        "heuristic",
        "--field",
        "random",
        "--deals",
        "3",
        "--threads",
        "2",
        "--out",
        d,
    ];
    let out = ratrace(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for part in [
        "# Tournament",
        "## Entrants",
        "## Paired differences",
        "## Ratings",
        "## Seats",
        "games/s",
    ] {
        assert!(text.contains(part), "{part} missing from\n{text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(json["figures"]["games"], 12);
    let md = std::fs::read_to_string(dir.join("tournament.md")).unwrap();
    assert!(md.contains("heuristic + 3 random"));

    // --json prints the same figures; a rerun resumes everything.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = ratrace(&json_args);
    assert!(out.status.success());
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["deals_resumed"], 3);
    assert_eq!(again["figures"], json["figures"]);
    let _ = std::fs::remove_dir_all(&dir);

    // --panel: the game's ladder (here two levels of it) against the
    // panel bots named, in JSON and in Markdown.
    let args = [
        "tournament",
        "bigcheese",
        "--panel",
        "--bots",
        "random,strong",
        "--panel-bots",
        "heuristic",
        "--deals",
        "2",
    ];
    let out = ratrace(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("## The ladder against the panel"), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = ratrace(&json_args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["mode"], "panel");
    assert_eq!(json["panel"]["levels"][0]["level"], "strong");
    assert_eq!(
        json["panel"]["levels"][0]["vs_panel"][0]["against"],
        "heuristic"
    );
    assert_eq!(json["panel"]["panel_vs"][0]["bot"], "heuristic");
    assert_eq!(json["panel"]["panel_vs"][0]["wins"]["games"], 8);
}

#[test]
fn bad_input_is_one_clear_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "tournament",
                "bigcheese",
                "--panel",
                "--panel-bots",
                "search:20",
                "--panel-against",
                "nosuch",
            ],
            "not a level",
        ),
        (
            &["tournament", "bigcheese", "--panel", "--bots", "strong"],
            "at least two ladder levels",
        ),
        (
            &["tournament", "dalmuti", "--candidate", "nosuch"],
            "unknown bot",
        ),
        (
            &[
                "tournament",
                "dalmuti",
                "--candidate",
                "random",
                "--deals",
                "0",
            ],
            "at least 1",
        ),
        (
            &[
                "tournament",
                "dalmuti",
                "--candidate",
                "random",
                "--sprt",
                "0.3,0.2",
            ],
            "p0 must be below p1",
        ),
        (
            &[
                "tournament",
                "dalmuti",
                "--candidate",
                "random",
                "--option",
                "hands=x",
            ],
            "hands",
        ),
        (&["tournament", "dalmuti", "--bots", "random"], "two bots"),
        (&["tournament", "dalmuti"], "--candidate"),
        (
            &["tournament", "chess", "--candidate", "random"],
            "unknown game",
        ),
        (
            &[
                "tournament",
                "dalmuti",
                "--candidate",
                "random",
                "--players",
                "2",
            ],
            "players",
        ),
    ];
    for (args, want) in cases {
        let out = ratrace(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
