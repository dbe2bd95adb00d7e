//! Bot programs (`cmd:COMMAND`, docs/bot-protocol.md) through the real
//! binary: `ratrace bot-check` passes the example bots and fails broken
//! ones with the strike named, `ratrace play` seats a bot program against
//! scripted input, and tournaments and simulations report strikes (and
//! none for a well-behaved bot).

use crate::protocol_doc;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn ratrace(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A game that ends early leaves input unread: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `python3 examples/bots/NAME`, by absolute path.
fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/bots")
        .join(name);
    format!("python3 {}", path.display())
}

/// A bot that answers every `act` with `answer` (a line, `{id}` replaced
/// by the act's id), written to a temporary folder; its command.
fn broken_bot(name: &str, answer: &str) -> (PathBuf, String) {
    // Tests run in parallel: each bot gets its own folder.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = crate::it::temp_dir(&format!("bots-{name}-{n}"));
    let path = dir.join(format!("{name}.py"));
    let script = format!(
        r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({{"type": "ready", "name": "{name}", "protocol": 1}}), flush=True)
    elif m["type"] == "act":
        print({answer:?}.replace("{{id}}", str(m["id"])), flush=True)
    elif m["type"] == "quit":
        break
"#
    );
    std::fs::write(&path, script).unwrap();
    (dir, format!("python3 {}", path.display()))
}

fn bot_check(command: &str) -> (Option<i32>, String) {
    let out = ratrace(&["bot-check", command, "--games", "1", "--quiet"], "");
    let stdout = text(&out.stdout);
    assert!(out.stderr.is_empty(), "stderr: {}", text(&out.stderr));
    (out.status.code(), stdout)
}

#[test]
fn bot_check_passes_the_python_examples() {
    for bot in ["random_bot.py", "rule_bot.py"] {
        let (code, out) = bot_check(&example(bot));
        assert_eq!(code, Some(0), "{bot}:\n{out}");
        assert!(out.contains("PASS"), "{out}");
        assert!(out.contains(", protocol 1;"), "{out}");
        // Both games, every player count.
        for line in [
            "bigcheese        3  defaults",
            "bigcheese        6",
            "dalmuti         13",
        ] {
            assert!(out.contains(line), "no `{line}` in\n{out}");
        }
        assert!(out.contains(" 0 strike(s)"), "{out}");
    }
    // The JSON report says the same.
    let out = ratrace(
        &[
            "bot-check",
            &example("random_bot.py"),
            "--games",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["conforms"], true);
    assert_eq!(v["name"], "random");
    assert_eq!(v["strikes"], 0);
    let configs = v["configs"].as_array().unwrap();
    assert!(configs.len() > 20, "{} configurations", configs.len());
    assert!(configs
        .iter()
        .all(|c| c["clean_exits"] == 1 && c["answered"].as_u64() > Some(0)));
}

#[test]
fn bot_check_fails_a_bot_that_answers_illegal_actions_or_garbage() {
    let (dir, illegal) = broken_bot(
        "illegal",
        r#"{"type":"action","id":{id},"action":"bid 999"}"#,
    );
    let (code, out) = bot_check(&illegal);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(out.contains("strike: unreadable action `bid 999`"), "{out}");
    assert!(out.contains("fix: answer with one of the strings"), "{out}");
    std::fs::remove_dir_all(&dir).ok();

    let (dir, garbage) = broken_bot("garbage", "this is not JSON");
    let (code, out) = bot_check(&garbage);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("strike: garbage: expected"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bot_check_fails_a_bot_that_exits_badly_after_quit() {
    let dir = crate::it::temp_dir("bots-bad-exit");
    let path = dir.join("bad_exit.py");
    // The random bot, but `quit` ends it with status 3.
    let random = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bots/random_bot.py"),
    )
    .unwrap();
    let script = random.replace(
        "elif t == \"quit\":\n                return 0",
        "elif t == \"quit\":\n                return 3",
    );
    assert_ne!(script, random, "the quit branch of random_bot.py moved");
    std::fs::write(&path, script).unwrap();
    let out = ratrace(
        &[
            "bot-check",
            &format!("python3 {}", path.display()),
            "--games",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["conforms"], false);
    assert_eq!(v["strikes"], 0);
    let problem = &v["problems"][0];
    assert_eq!(problem["problem"], "after quit: exited with status 3");
    assert!(problem["fix"].as_str().unwrap().contains("status 0"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_against_a_bot_program_with_scripted_input() {
    let dir = crate::it::temp_dir("bots-play");
    let input = "1\n".repeat(3000);
    let record = dir.join("game.json");
    let bots = format!("cmd:{}", example("random_bot.py"));
    let args = [
        "play",
        "dalmuti",
        "--option",
        "hands=1",
        "--players",
        "4",
        "--seed",
        "5",
        "--bots",
        &bots,
        "--record",
        record.to_str().unwrap(),
    ];
    let out = ratrace(&args, &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{stdout}", text(&out.stderr));
    assert!(stdout.contains("session over: "), "{stdout}");
    assert!(!stdout.contains("strike"), "{stdout}");
    assert!(record.exists());

    // A bot program that misbehaves: every strike is printed as it
    // happens, the heuristic bot plays for it, the game ends.
    let (bad_dir, bad) = broken_bot(
        "illegal",
        r#"{"type":"action","id":{id},"action":"bid 999"}"#,
    );
    let bots = format!("cmd:{bad},heuristic");
    let args = [
        "play",
        "bigcheese",
        "--seed",
        "5",
        "--bots",
        &bots,
        "--bot-time",
        "2000",
        "--record",
        record.to_str().unwrap(),
    ];
    let out = ratrace(&args, &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{stdout}", text(&out.stderr));
    assert!(stdout.contains("Game over"), "{stdout}");
    let strike = stdout
        .lines()
        .find(|l| l.contains("strike:"))
        .unwrap_or_else(|| panic!("no strike printed:\n{stdout}"));
    assert!(strike.starts_with("P2 (cmd:python3 "), "{strike}");
    assert!(
        strike.ends_with("; the heuristic bot played this decision"),
        "{strike}"
    );
    assert!(stdout.contains("replaced by the heuristic bot for the rest of the game"));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&bad_dir).ok();
}

#[test]
fn tournaments_and_simulations_report_strikes() {
    let tournament = |candidate: &str| {
        let candidate = format!("cmd:{candidate}");
        let args = [
            "tournament",
            "dalmuti",
            "--option",
            "hands=1",
            "--players",
            "4",
            "--candidate",
            &candidate,
            "--field",
            "heuristic",
            "--deals",
            "3",
            "--threads",
            "2",
            "--json",
            "--quiet",
            // The broken bot's rows rate its stand-in: accepted here.
            "--allow-stand-in",
        ];
        let out = ratrace(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    // A well-behaved bot: no strikes, so no strikes field at all.
    let good = tournament(&example("random_bot.py"));
    assert_eq!(good["figures"]["games"], 12);
    assert!(good.get("strikes").is_none(), "{}", good["strikes"]);

    let (dir, bad) = broken_bot(
        "illegal",
        r#"{"type":"action","id":{id},"action":"bid 999"}"#,
    );
    let report = tournament(&bad);
    let strikes = report["strikes"].as_array().expect("strikes reported");
    assert_eq!(strikes.len(), 1);
    assert_eq!(strikes[0]["bot"], format!("cmd:{bad}"));
    assert!(strikes[0]["strikes"].as_u64() >= Some(12), "{}", strikes[0]);
    assert!(strikes[0]["reasons"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("unreadable action `bid 999`"));

    // The Markdown report has a section for them.
    let candidate = format!("cmd:{bad}");
    let out = ratrace(
        &[
            "tournament",
            "dalmuti",
            "--option",
            "hands=1",
            "--players",
            "4",
            "--candidate",
            &candidate,
            "--deals",
            "1",
            "--quiet",
        ],
        "",
    );
    let md = text(&out.stdout);
    assert!(md.contains("## Strikes"), "{md}");

    // The simulator counts them per bot too.
    let bots = format!("cmd:{bad},heuristic");
    let out = ratrace(
        &[
            "simulate",
            "dalmuti",
            "--option",
            "hands=1",
            "--players",
            "4",
            "--bots",
            &bots,
            "--games",
            "4",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["strikes"][0]["bot"], format!("cmd:{bad}"));
    assert!(v["strikes"][0]["strikes"].as_u64() > Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bot_program_that_never_starts_stops_the_run_with_its_stderr() {
    let dir = crate::it::temp_dir("bots-missing");
    let missing = dir.join("missing_file.py");
    let candidate = format!("cmd:python3 {}", missing.display());
    for args in [
        vec![
            "tournament",
            "dalmuti",
            "--players",
            "4",
            "--option",
            "hands=1",
        ],
        vec![
            "simulate",
            "dalmuti",
            "--players",
            "4",
            "--option",
            "hands=1",
        ],
    ] {
        let mut args = args;
        let tail = if args[0] == "tournament" {
            [
                "--candidate",
                &candidate,
                "--field",
                "heuristic",
                "--deals",
                "20",
                "--quiet",
            ]
            .to_vec()
        } else {
            ["--bots", &candidate, "--bots", "heuristic", "--games", "20"].to_vec()
        };
        args.extend(tail);
        let out = ratrace(&args, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", args[0]);
        assert!(stderr.contains("never said ready"), "{stderr}");
        assert!(stderr.contains("missing_file.py"), "{stderr}");
        assert!(
            stderr.contains("No such file or directory"),
            "the bot's stderr: {stderr}"
        );
        // Stopped at its first game: no report rates a stand-in.
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tournament_flags_a_bot_program_whose_stand_in_played_and_exits_1() {
    let (dir, bad) = broken_bot("garbage", "I think I'll pass");
    let candidate = format!("cmd:{bad}");
    let mut args = vec![
        "tournament",
        "dalmuti",
        "--option",
        "hands=1",
        "--players",
        "4",
        "--candidate",
        &candidate,
        "--field",
        "heuristic",
        "--deals",
        "2",
        "--quiet",
        "--json",
    ];
    let out = ratrace(&args, "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("warning: the stand-in (the heuristic bot) played"),
        "{stderr}"
    );
    assert!(stderr.contains("--allow-stand-in"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["stand_in"][0];
    assert_eq!(s["bot"], candidate.as_str());
    assert_eq!(s["flagged"], true);
    assert!(s["share"].as_f64() > Some(0.9), "{s}");
    assert_eq!(s["stand_in"], s["decisions"]);

    // Accepted on request, still flagged in the Markdown tables.
    args.retain(|a| *a != "--json");
    args.push("--allow-stand-in");
    let out = ratrace(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    let row = md
        .lines()
        .find(|l| l.starts_with(&format!("| {candidate} ⚠ stand-in ")))
        .unwrap_or_else(|| panic!("no flagged row:\n{md}"));
    assert!(row.contains("100.00%"), "{row}");
    assert!(md.contains("## Bot programs"), "{md}");

    // A bot that plays its own game is not flagged: no stand-in, exit 0.
    let good = format!("cmd:{}", example("random_bot.py"));
    let out = ratrace(
        &[
            "tournament",
            "dalmuti",
            "--option",
            "hands=1",
            "--players",
            "4",
            "--candidate",
            &good,
            "--deals",
            "1",
            "--quiet",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stand_in"][0]["stand_in"], 0);
    assert_eq!(v["stand_in"][0]["flagged"], false);
    assert!(v["stand_in"][0]["decisions"].as_u64() > Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_comma_in_a_bot_programs_command_stays_in_the_command() {
    // `cmd:python3 BOT.py a,b` runs the bot with the argument `a,b`;
    // `cmd:...,heuristic` still seats the heuristic bot beside it.
    let bots = format!("cmd:{} a,b,heuristic", example("random_bot.py"));
    let out = ratrace(
        &[
            "simulate",
            "dalmuti",
            "--option",
            "hands=1",
            "--players",
            "4",
            "--bots",
            &bots,
            "--games",
            "2",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bot"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].ends_with("random_bot.py a,b"), "{names:?}");
    assert_eq!(names[1], "heuristic");

    let out = ratrace(
        &["simulate", "dalmuti", "--bots", "nobody", "--games", "1"],
        "",
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("unknown bot `nobody`"), "{stderr}");
    assert!(stderr.contains("or cmd:COMMAND, a bot program"), "{stderr}");
}

#[test]
fn bot_check_checks_one_game_and_words_its_totals_for_a_bot_that_never_answers() {
    // Says ready, then never answers a decision.
    let dir = crate::it::temp_dir("bots-mute");
    let path = dir.join("mute.py");
    std::fs::write(
        &path,
        "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'start':\n        print(json.dumps({'type': 'ready', 'name': 'mute', 'protocol': 1}), flush=True)\n",
    )
    .unwrap();
    let command = format!("python3 {}", path.display());
    let out = ratrace(
        &[
            "bot-check",
            &command,
            "--game",
            "bigcheese",
            "--games",
            "1",
            "--bot-time",
            "50",
            "--quiet",
        ],
        "",
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("bigcheese") || l.starts_with("dalmuti"))
        .collect();
    assert!(
        !rows.is_empty() && rows.iter().all(|l| l.starts_with("bigcheese")),
        "{report}"
    );
    let total = report.lines().find(|l| l.starts_with("total:")).unwrap();
    assert!(
        total.contains("none answered in time (limit 50 ms)"),
        "{total}"
    );
    assert!(total.contains("not answered within the limit"), "{total}");
    assert!(total.contains("no process reached quit"), "{total}");
    assert!(!total.contains("median 0.00"), "{total}");

    let out = ratrace(&["bot-check", &command, "--game", "chess", "--quiet"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown game `chess` for --game"));

    // A bot that never starts: one error with its stderr, not a report
    // after a five-second wait per configuration.
    let missing = format!("python3 {}", dir.join("missing.py").display());
    let out = ratrace(&["bot-check", &missing, "--quiet"], "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("never said ready"), "{stderr}");
    assert!(stderr.contains("No such file or directory"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// docs/bot-protocol.md's `ratrace bot-check` lines run as written, the
/// placeholders filled: `ratrace` is this binary and the bot (`python3
/// my_bot.py`, `target/release/my-bot`) the random example bot. Each
/// passes, and the JSON one writes a report that says the bot conforms.
#[test]
fn the_bot_check_lines_of_the_protocol_page_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let lines: Vec<String> = protocol_doc::shell_lines(&root)
        .into_iter()
        .filter(|l| l.starts_with("ratrace bot-check "))
        .collect();
    assert!(lines.len() >= 4, "{lines:?}");
    let bot = example("random_bot.py");
    let dir = crate::it::temp_dir("bot-check-doc-lines");
    for line in &lines {
        let line = line
            .replacen("ratrace", env!("CARGO_BIN_EXE_ratrace"), 1)
            .replace("\"python3 my_bot.py\"", &format!("\"{bot}\""))
            .replace("target/release/my-bot", &format!("\"{bot}\""));
        assert!(
            !line.contains("my_bot") && !line.contains("my-bot"),
            "{line}"
        );
        let out = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}\n{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["conforms"], true, "{report}");
}
