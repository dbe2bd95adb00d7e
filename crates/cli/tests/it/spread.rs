//! End-to-end tests of `ratrace lab duplicate-spread`: the binary on a
//! tiny run of both games writes a Markdown report with every section and
//! a JSON one with every tournament, the same whatever the thread count,
//! and one-line errors (exit code 2) for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ratrace-spread-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn ratrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A tiny run: its stdout, report.md and report.json.
fn spread(extra: &[&str], out: &Path, threads: &str) -> (String, String, serde_json::Value) {
    let mut args = vec![
        "lab",
        "duplicate-spread",
        "--deals",
        "2",
        "--repeats",
        "3",
        "--seed",
        "4",
        "--quiet",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = ratrace(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        md,
        serde_json::from_str(&json).unwrap(),
    )
}

#[test]
fn both_games_in_one_report_with_every_section_and_tournament() {
    let dir = temp_dir("both");
    let (stdout, md, json) = spread(&[], &dir, "2");
    for section in ["## Summary", "## bigcheese", "## dalmuti", "## Method"] {
        assert!(md.contains(section), "no {section} in\n{md}");
    }
    assert!(md.contains("ratrace lab duplicate-spread --deals 2 --repeats 3 --seed 4 --out"));
    assert!(md.contains("`hands=1`"), "Dalmuti plays one hand");
    for game in ["bigcheese", "dalmuti"] {
        for bot in ["random", "heuristic", "strong"] {
            assert!(md.contains(&format!("| {game} | {bot} |")), "{game} {bot}");
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with(game) && l.contains(bot) && l.contains("ratio")),
                "{stdout}"
            );
        }
    }
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        let players = g["players"].as_u64().unwrap();
        assert_eq!(g["figures"]["entrants"].as_array().unwrap().len(), 3);
        let ts = g["tournaments"].as_array().unwrap();
        assert_eq!(ts.len(), 6, "3 repeats, both modes");
        for t in ts {
            let want = if t["mode"] == "duplicate" {
                2
            } else {
                2 * players
            };
            assert_eq!(t["distinct_deals"].as_u64(), Some(want), "{t}");
            assert_eq!(t["standing"]["ranks"].as_array().unwrap().len(), 3);
        }
        let ratio = &g["figures"]["entrants"][2]["ratio"];
        // No ratio, an unbounded interval (its upper end is null), or an
        // interval with its ends in order.
        if let Some(low) = ratio["low"].as_f64() {
            assert!(ratio["high"].is_null() || ratio["high"].as_f64() >= Some(low));
        } else {
            assert!(ratio.is_null(), "{ratio}");
        }
    }
}

#[test]
fn same_seed_same_report_whatever_the_threads() {
    let (a, b) = (temp_dir("t1"), temp_dir("t3"));
    let extra = [
        "--game",
        "dalmuti",
        "--bots",
        "random,strong",
        "--players",
        "3",
    ];
    let (_, md1, mut json1) = spread(&extra, &a, "1");
    let (_, md3, mut json3) = spread(&extra, &b, "3");
    let stable = |md: &str, dir: &Path| {
        md.lines()
            .filter(|l| !l.contains("thread(s)"))
            .collect::<Vec<_>>()
            .join("\n")
            .replace(dir.to_str().unwrap(), "DIR")
    };
    assert_eq!(stable(&md1, &a), stable(&md3, &b));
    for j in [&mut json1, &mut json3] {
        let o = j.as_object_mut().unwrap();
        for key in ["threads", "seconds", "command"] {
            o.remove(key);
        }
        for g in o["games"].as_array_mut().unwrap() {
            g.as_object_mut().unwrap().remove("seconds");
        }
    }
    assert_eq!(json1, json3);
    assert!(md1.contains("--game dalmuti --bots random,strong --players 3"));
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let dir = temp_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, "not a folder").unwrap();
    let under_file = file.join("sub");
    let out = dir.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--repeats", "1"], "--repeats"),
        (vec!["--deals", "0"], "--deals"),
        (vec!["--game", "chess"], "unknown game"),
        (vec!["--game", "dalmuti", "--game", "dalmuti"], "twice"),
        (vec!["--bots", "random"], "at least two"),
        (vec!["--bots", "random,nosuch"], "nosuch"),
        (vec!["--bots", "random,strong,random"], "twice"),
        (
            vec![
                "--game",
                "bigcheese",
                "--players",
                "3",
                "--bots",
                "random,heuristic,strong,learned",
            ],
            "4 bots for 3 seats",
        ),
        (vec!["--players", "99"], "players"),
        (vec!["--option", "hands=2"], "exactly one --game"),
        (vec!["--game", "dalmuti", "--option", "nosuch=1"], "nosuch"),
        (vec!["--out", under_file.to_str().unwrap()], "cannot write"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["lab", "duplicate-spread"];
        for (flag, value) in [("--deals", "1"), ("--out", out)] {
            if !extra.contains(&flag) {
                args.extend_from_slice(&[flag, value]);
            }
        }
        args.extend_from_slice(&extra);
        let o = ratrace(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // The variant lab still wants its game.
    let o = ratrace(&["lab", "--deals", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("<GAME>"));
}
