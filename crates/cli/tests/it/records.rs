//! Tests of saved games: `--save-games` on simulate, tournament and lab
//! writes records that `replay`, `verify` and `analyze` read and that
//! replay to the game's own result; a tournament game played again alone
//! (`--rerun ID`) gives the very record saved during the run; the
//! checkpoint holds every game's id and seed; an unwritable folder
//! stops the run before any game; and `play --seat none` shows bots
//! playing, every turn told, the result once.

use super::temp_dir;
use game::Record;
use std::path::Path;
use std::process::Command;

fn ratrace(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = ratrace(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn read(path: &Path) -> Record {
    registry::records::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The saved files of `dir`, sorted by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A saved record replays (every action legal, the recorded outcome
/// matched) and the commands that read records accept it.
fn readable(path: &Path) {
    let record = read(path);
    assert!(!record.actions.is_empty(), "{}", path.display());
    assert!(record.outcome.is_some(), "{}", path.display());
    let p = path.to_str().unwrap();
    let replay = ok(&["replay", p]);
    assert!(replay.contains("result: won by"), "{replay}");
    ok(&["verify", "--allow-uncommitted", p]);
    let analysis = ok(&[
        "analyze",
        p,
        "--search",
        "20",
        "--playouts",
        "2",
        "--candidates",
        "2",
        "--quiet",
    ]);
    assert!(!analysis.is_empty());
}

const TOURNAMENT: [&str; 12] = [
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
];

#[test]
fn simulate_saves_every_nth_game_and_each_replays_to_its_result() {
    let dir = temp_dir("sim-save");
    let save = dir.join("games");
    let s = save.to_str().unwrap();
    let args = [
        "simulate",
        "bigcheese",
        "--games",
        "7",
        "--bots",
        "heuristic,random",
        "--seed",
        "4",
        "--save-games",
        s,
        "--save-every",
        "3",
    ];
    ok(&args);
    assert_eq!(
        files(&save),
        [
            "bigcheese-g0.json",
            "bigcheese-g3.json",
            "bigcheese-g6.json"
        ]
    );
    readable(&save.join("bigcheese-g3.json"));
    // The same run saves the same games, byte for byte.
    let first = std::fs::read(save.join("bigcheese-g6.json")).unwrap();
    std::fs::remove_dir_all(&save).unwrap();
    ok(&args);
    assert_eq!(
        std::fs::read(save.join("bigcheese-g6.json")).unwrap(),
        first
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rerun_gives_the_record_saved_during_the_tournament() {
    let dir = temp_dir("rerun");
    let save = dir.join("games");
    let out = dir.join("out");
    let mut args: Vec<&str> = TOURNAMENT.to_vec();
    let (s, o) = (save.to_str().unwrap(), out.to_str().unwrap());
    args.extend(["--save-games", s, "--out", o, "--json", "--quiet"]);
    let report: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 12, "3 deals x 4 rotations");
    assert_eq!(files(&save).len(), 12);
    // Every game of the report has its record, named after its id, whose
    // seed is the game's.
    for g in games {
        let id = g["id"].as_str().unwrap();
        let record = read(&save.join(format!("dalmuti-{id}.json")));
        assert_eq!(record.seed.to_string(), g["seed"].as_str().unwrap(), "{id}");
        // each seat's bot, in the report and the record: the candidate
        // sits last in rotation 0 and one seat on in each next rotation
        let seats: Vec<&str> = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(record.names, seats, "{id}");
        let rotation: usize = id.rsplit_once("-r").unwrap().1.parse().unwrap();
        let mut want = vec!["random"; 4];
        want[(3 + rotation) % 4] = "heuristic";
        assert_eq!(seats, want, "{id}");
    }
    readable(&save.join("dalmuti-d2-l0-r1.json"));
    // Played again alone, the game gives the same record, byte for byte.
    let mut again: Vec<&str> = TOURNAMENT.to_vec();
    again.extend(["--rerun", "d2-l0-r1"]);
    let rerun = ok(&again);
    let saved = std::fs::read_to_string(save.join("dalmuti-d2-l0-r1.json")).unwrap();
    assert_eq!(rerun, saved);
    // The checkpoint holds every game's id and seed.
    let checkpoint = std::fs::read_to_string(out.join("checkpoint.jsonl")).unwrap();
    let deal: serde_json::Value = serde_json::from_str(checkpoint.lines().nth(3).unwrap()).unwrap();
    let ids: Vec<&str> = deal["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["d2-l0-r0", "d2-l0-r1", "d2-l0-r2", "d2-l0-r3"]);
    assert_eq!(deal["games"][1]["seed"], games[9]["seed"]);
    let list = std::fs::read_to_string(out.join("games.tsv")).unwrap();
    assert_eq!(list.lines().count(), 13, "{list}");
    assert!(
        list.starts_with("id\tseed\tlineup\twinners\tlone_won\tactions\tP1\tP2\tP3\tP4\n"),
        "{list}"
    );
    let row = list.lines().find(|l| l.starts_with("d2-l0-r1\t")).unwrap();
    assert!(
        row.ends_with("\theuristic\trandom\trandom\trandom"),
        "{row}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_the_candidates_losses_are_saved_when_asked() {
    let dir = temp_dir("losses");
    let save = dir.join("games");
    // random as the candidate against heuristic: it loses most games.
    let mut args: Vec<&str> = TOURNAMENT.to_vec();
    args[7] = "random";
    args[9] = "heuristic";
    args.extend([
        "--save-games",
        save.to_str().unwrap(),
        "--save-losses",
        "--json",
        "--quiet",
    ]);
    let report: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let lost: Vec<String> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["lone_won"] == false)
        .map(|g| format!("dalmuti-{}.json", g["id"].as_str().unwrap()))
        .collect();
    assert!(!lost.is_empty(), "random never lost to heuristic?");
    let mut want = lost;
    want.sort();
    assert_eq!(files(&save), want);
    // Losses need a candidate.
    let out = ratrace(&[
        "tournament",
        "dalmuti",
        "--bots",
        "random,heuristic",
        "--deals",
        "1",
        "--save-games",
        save.to_str().unwrap(),
        "--save-losses",
    ]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_folder_stops_the_run_before_any_game() {
    let dir = temp_dir("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let target = file.join("games");
    let t = target.to_str().unwrap();
    for args in [
        vec!["simulate", "dalmuti", "--games", "3", "--save-games", t],
        [TOURNAMENT.as_slice(), &["--save-games", t]].concat(),
    ] {
        let out = ratrace(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--save-games") && err.contains("a-file"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{args:?} played: {:?}", out.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_lab_saves_its_games_by_variant_and_study() {
    let dir = temp_dir("lab-save");
    let save = dir.join("games");
    let out = dir.join("report");
    ok(&[
        "lab",
        "dalmuti",
        "--variant",
        "plain=hands=1",
        "--deals",
        "2",
        "--players",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--save-games",
        save.to_str().unwrap(),
        "--save-every",
        "5",
    ]);
    // 3 studies x 4 seats x 2 deals = 24 games; every 5th is kept.
    let names = files(&save);
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"dalmuti-plain-seat-d0-r0.json".to_string()));
    assert!(names.iter().any(|n| n.contains("-skill-")), "{names:?}");
    assert!(names.iter().any(|n| n.contains("-mixed-")), "{names:?}");
    readable(&save.join(&names[0]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watching_bots_tells_every_turn_and_the_result_once() {
    let dir = temp_dir("watch");
    let record = dir.join("watched.json");
    let r = record.to_str().unwrap();
    let out = ok(&[
        "play",
        "bigcheese",
        "--seat",
        "none",
        "--pace",
        "0",
        "--seed",
        "9",
        "--bots",
        "heuristic,random",
        "--record",
        r,
    ]);
    assert!(out.contains("watched: P1 heuristic, P2 random"), "{out}");
    let saved = read(&record);
    let turns = out.lines().filter(|l| l.ends_with(") to move:")).count();
    assert_eq!(turns, saved.actions.len(), "one turn line per action");
    let results = out
        .lines()
        .filter(|l| l.contains("over: ") && l.ends_with(" won"))
        .count();
    assert_eq!(results, 1, "{out}");
    // A watcher is no seat: no hand is shown as anyone's own.
    assert!(
        !out.contains("(you)") && !out.contains("your hand"),
        "{out}"
    );
    ok(&["verify", "--allow-uncommitted", r]);
    let bad = ratrace(&["play", "bigcheese", "--seat", "P9", "--players", "4"]);
    assert!(!bad.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bot program that says on stderr which seat it plays and every
/// message it reads, and plays the first legal action.
fn chatty_bot(dir: &Path) -> String {
    let path = dir.join("chatty.py");
    let script = r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    # one write a line (with PYTHONUNBUFFERED, print writes each piece
    # alone, and a line could straddle two games' files)
    sys.stderr.write("read %s %s\n" % (m["type"], m.get("seat", "")))
    sys.stderr.flush()
    if m["type"] == "start":
        print(json.dumps({"type": "ready", "name": "chatty", "protocol": 1}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"#;
    std::fs::write(&path, script).unwrap();
    format!("cmd:python3 {}", path.display())
}

#[test]
fn bot_logs_keep_each_programs_stderr_per_game_and_seat() {
    let dir = temp_dir("bot-log");
    let bot = chatty_bot(&dir);
    let logs = dir.join("logs");
    let l = logs.to_str().unwrap();
    let mut args: Vec<&str> = TOURNAMENT.to_vec();
    args[7] = &bot;
    args[11] = "2";
    args.extend(["--bot-log", l, "--quiet"]);
    let report = ok(&args);
    assert!(!report.contains("## Strikes"), "{report}");
    // The candidate sits in one seat per game: one file per game, named
    // after the game's id and the seat.
    let names = files(&logs);
    assert_eq!(names.len(), 8, "{names:?}");
    for deal in 0..2 {
        for rotation in 0..4 {
            let seat = (3 + rotation) % 4 + 1;
            let name = format!("dalmuti-d{deal}-l0-r{rotation}-P{seat}.stderr.log");
            let text = std::fs::read_to_string(logs.join(&name)).unwrap();
            assert!(text.contains("read act"), "{name}: {text}");
            // The start of this game, told with this seat, is in this file.
            assert!(
                text.contains(&format!("read start P{seat}")),
                "{name}: {text}"
            );
        }
    }
    // A folder that cannot take the logs stops the run first.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let bad = file.join("logs");
    let out = ratrace(&[
        "simulate",
        "dalmuti",
        "--games",
        "1",
        "--bot-log",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--bot-log") && err.contains("a-file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
