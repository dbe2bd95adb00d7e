//! End-to-end tests of `ratrace analyze`: the binary on ladder games it
//! saved itself (both games), the table and the JSON form, the same result
//! whatever the thread count, the ladder report, and one-line errors
//! (exit code 2, no panic) for a missing file, a file that is not a
//! record, a record of an unknown game, a record with a bad action and a
//! game that is not over.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ratrace-analyze-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ratrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let o = ratrace(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A one-line error, exit code 2, containing `want`.
fn fails(args: &[&str], want: &str) {
    let o = ratrace(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

const TINY: [&str; 4] = ["--search", "20", "--playouts", "4"];

/// Plays `games` ladder games of `game` with a tiny budget, saving their
/// records in `dir`; returns the ladder's text.
fn ladder(game: &str, extra: &[&str], dir: &Path) -> String {
    let d = dir.to_str().unwrap();
    // (a small search budget: the default is slow in a debug build)
    let mut args = vec![
        "analyze",
        "--ladder",
        game,
        "--games",
        "2",
        "--save",
        d,
        "--bots",
        "random,heuristic,strong,search:50",
    ];
    args.extend_from_slice(&TINY);
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn analyze_prints_a_table_a_summary_and_json() {
    let dir = temp_dir("both");
    for (game, extra) in [
        ("bigcheese", &["--option", "target=20"][..]),
        ("dalmuti", &["--option", "hands=2"][..]),
    ] {
        let sub = dir.join(game);
        let report = ladder(game, extra, &sub);
        for bot in ["random", "heuristic", "strong", "search"] {
            assert!(report.contains(bot), "{report}");
        }
        assert!(report.contains("95% interval"), "{report}");
        let file = sub.join("ladder-0.json");
        let f = file.to_str().unwrap();
        let mut args = vec!["analyze", f, "--threads", "1"];
        args.extend_from_slice(&TINY);
        let text = ok(&args);
        for want in [
            "move",
            "chosen",
            "best",
            "loss",
            "label",
            "mean loss",
            "accuracy",
            "P1",
            "values: place",
        ] {
            assert!(text.contains(want), "{want}: {text}");
        }
        args[3] = "2";
        assert_eq!(ok(&args), text, "the thread count changed the analysis");
        args.push("--json");
        let json: serde_json::Value = serde_json::from_str(&ok(&args)).expect("JSON");
        assert_eq!(json["format"], "ratrace-analysis/1");
        assert_eq!(json["game"], game);
        assert_eq!(json["unit"]["name"], "place");
        let decisions = json["decisions"].as_array().expect("decisions");
        assert!(!decisions.is_empty());
        for d in decisions {
            for key in [
                "move",
                "seat",
                "chosen",
                "best",
                "value_chosen",
                "value_best",
                "loss",
                "std_error",
                "label",
                "candidates",
            ] {
                assert!(d.get(key).is_some(), "{key} missing: {d}");
            }
            assert!(d["loss"].as_f64().unwrap() >= 0.0);
        }
        assert!(json["summary"].as_array().is_some_and(|s| !s.is_empty()));
        assert!(json["series"][0]["points"].is_array());
        assert!(json["turning_points"].is_array());
    }
}

#[test]
fn bad_records_are_one_line_errors() {
    let dir = temp_dir("bad");
    fails(
        &["analyze", dir.join("missing.json").to_str().unwrap()],
        "missing.json",
    );
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{ this is not json").unwrap();
    fails(
        &["analyze", garbage.to_str().unwrap()],
        "not a valid game record at line 1",
    );
    ladder("dalmuti", &["--option", "hands=1"], &dir);
    let good = std::fs::read_to_string(dir.join("ladder-0.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&good).unwrap();

    let mut chess = record.clone();
    chess["game"] = "chess".into();
    let file = dir.join("chess.json");
    std::fs::write(&file, chess.to_string()).unwrap();
    fails(&["analyze", file.to_str().unwrap()], "unknown game `chess`");

    let mut bad = record.clone();
    bad["actions"][2] = "P1 fly away".into();
    let file = dir.join("badaction.json");
    std::fs::write(&file, bad.to_string()).unwrap();
    fails(
        &["analyze", file.to_str().unwrap()],
        "action 3 `P1 fly away`",
    );

    // an unfinished game: refused, unless asked for
    record["actions"].as_array_mut().unwrap().truncate(10);
    record.as_object_mut().unwrap().remove("outcome");
    let file = dir.join("unfinished.json");
    std::fs::write(&file, record.to_string()).unwrap();
    fails(&["analyze", file.to_str().unwrap()], "the game is not over");
    let mut args = vec!["analyze", file.to_str().unwrap(), "--unfinished"];
    args.extend_from_slice(&TINY);
    assert!(ok(&args).contains("(unfinished)"));

    fails(&["analyze", "--ladder", "chess"], "unknown game `chess`");
    fails(
        &["analyze", "--ladder", "dalmuti", "--bots", "random,nosuch"],
        "nosuch",
    );
    fails(
        &["analyze", "--ladder", "dalmuti", "--games", "0"],
        "--games",
    );
    // no record and no ladder: clap's usage error
    let o = ratrace(&["analyze"]);
    assert_eq!(o.status.code(), Some(2));
}
