//! End-to-end tests of `ratrace lab`: the binary on a few deals of both
//! games writes an HTML page with one SVG plot per study showing every
//! variant, a Markdown report with every section, the same report
//! whatever the thread count, and one-line errors (exit code 2) for bad
//! input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ratrace-lab-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn ratrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn lab(game: &str, extra: &[&str], out: &Path, threads: &str) -> (String, String) {
    let mut args = vec![
        "lab",
        game,
        "--deals",
        "6",
        "--seed",
        "11",
        "--threads",
        threads,
    ];
    args.extend_from_slice(extra);
    let out_s = out.to_str().unwrap();
    args.extend_from_slice(&["--out", out_s]);
    let o = ratrace(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    (md, html)
}

/// The report without the line that depends on the machine.
fn stable(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("thread(s)"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_report(md: &str, html: &str, variants: &[&str]) {
    for section in [
        "## Summary",
        "## Seat advantage",
        "## Game length",
        "## Skill",
        "## Luck vs skill",
        "## Method",
    ] {
        assert!(md.contains(section), "no {section} in\n{md}");
    }
    for file in ["seat.svg", "length.svg", "skill.svg"] {
        assert!(md.contains(&format!("]({file})")), "{file} not linked");
    }
    assert_eq!(html.matches("<svg").count(), 3, "three inline plots");
    assert!(html.contains("</svg>") && html.contains("<table>"));
    for v in variants {
        // Every plot names every variant: the seat plot in its legend,
        // the length plot in its panel captions, the skill plot under its
        // bars.
        for plot in html.split("<svg").skip(1) {
            assert!(plot.contains(v), "variant {v} missing from a plot");
        }
        assert!(md.contains(&format!("| {v} |")), "variant {v} missing");
    }
}

#[test]
fn bigcheese_and_dalmuti_reports_have_every_section_and_plot() {
    let dir = temp_dir("bc");
    let (md, html) = lab(
        "bigcheese",
        &["--variant", "book=", "--variant", "d6=dice=d6,exact=on"],
        &dir,
        "2",
    );
    check_report(&md, &html, &["book", "d6"]);
    assert!(md.contains("`dice=d6 exact=on`"));
    assert!(md.contains("1st (leads)"));

    let dir = temp_dir("dal");
    let (md, html) = lab("dalmuti", &["--preset", "deck"], &dir, "2");
    check_report(
        &md,
        &html,
        &["stripped-4", "standard-4", "stripped-5", "standard-5"],
    );
    assert!(md.contains("Greater Dalmuti"));
    assert!(md.contains("**Question.**"));
}

#[test]
fn same_seed_same_report_whatever_the_threads() {
    let a = temp_dir("t1");
    let b = temp_dir("t3");
    let args = ["--preset", "taxes", "--players", "4"];
    let (md1, html1) = lab("dalmuti", &args, &a, "1");
    let (md3, html3) = lab("dalmuti", &args, &b, "3");
    let strip = |s: &str, dir: &Path| stable(s).replace(dir.to_str().unwrap(), "DIR");
    assert_eq!(strip(&md1, &a), strip(&md3, &b));
    assert_eq!(strip(&html1, &a), strip(&html3, &b));
    assert_ne!(md1, md3, "the timing line names the threads");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let dir = temp_dir("bad");
    let out = dir.to_str().unwrap();
    let file = dir.join("file");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&file, "not a folder").unwrap();
    let under_file = file.join("sub");
    let under_file = under_file.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["lab", "bigcheese", "--variant", "x=nosuch=1", "--out", out],
            "nosuch",
        ),
        (
            vec!["lab", "bigcheese", "--variant", "x=dice=d7", "--out", out],
            "d7",
        ),
        (
            vec!["lab", "dalmuti", "--preset", "nosuch", "--out", out],
            "unknown preset",
        ),
        (
            vec!["lab", "bigcheese", "--deals", "0", "--out", out],
            "--deals",
        ),
        (
            vec!["lab", "bigcheese", "--deals", "99999999999", "--out", out],
            "--deals",
        ),
        (
            vec!["lab", "dalmuti", "--variant", "a=players=99", "--out", out],
            "players",
        ),
        (vec!["lab", "chess", "--out", out], "unknown game"),
        (
            vec!["lab", "bigcheese", "--bots", "random,nosuch", "--out", out],
            "nosuch",
        ),
        (
            vec![
                "lab",
                "bigcheese",
                "--variant",
                "a=",
                "--variant",
                "a=dice=d6",
                "--out",
                out,
            ],
            "two variants",
        ),
        (
            vec!["lab", "bigcheese", "--deals", "1", "--out", under_file],
            "cannot write",
        ),
    ];
    for (args, needle) in cases {
        let o = ratrace(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
