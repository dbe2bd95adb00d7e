//! The browser's engine in WebAssembly (the `engine.wasm` the server
//! serves, built by build.rs) plays as the native engine: the same seeds
//! and random actions give the same records and the same states, views,
//! legal actions and events for every seat, over 1,000 random games of
//! each title across option sets. The module runs in Node
//! (tests/engine-host.mjs), as in the browser's worker; the native
//! answers come from the same crate built for this machine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// The engine the server embeds.
const WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/engine.wasm"));

/// Games per title.
const GAMES: usize = 1000;

/// Option sets each title is played under, in turn, with its player counts.
fn variants(game: &str) -> Vec<(usize, Vec<(&'static str, &'static str)>)> {
    match game {
        "bigcheese" => vec![
            (4, vec![]),
            (3, vec![("dice", "d6")]),
            (5, vec![("dice", "best-of-two"), ("exact", "on")]),
            (6, vec![("dice", "half-of-n"), ("veto", "before-bid")]),
            (4, vec![("dice", "no-dice"), ("specials", "off")]),
            (
                3,
                vec![("final_tie", "chance"), ("chips", "4"), ("target", "25")],
            ),
        ],
        _ => vec![
            (4, vec![("hands", "1")]),
            (5, vec![("hands", "2"), ("market", "on")]),
            (
                6,
                vec![
                    ("hands", "2"),
                    ("black_market", "on"),
                    ("settling_hand", "on"),
                ],
            ),
            (
                3,
                vec![
                    ("hands", "3"),
                    ("standard_deck", "on"),
                    ("auto_revolution", "on"),
                ],
            ),
            (
                4,
                vec![
                    ("hands", "3"),
                    ("joins", "2"),
                    ("benevolent_rulers", "on"),
                    ("the_elected", "on"),
                ],
            ),
            (7, vec![("hands", "1"), ("single_hand", "points")]),
        ],
    }
}

/// A trace request per game: each title's games over its option sets.
fn requests() -> Vec<String> {
    let mut out = Vec::new();
    for game in ["bigcheese", "dalmuti"] {
        let sets = variants(game);
        for i in 0..GAMES {
            let (players, options) = &sets[i % sets.len()];
            let options: serde_json::Map<String, serde_json::Value> = options
                .iter()
                .map(|(k, v)| (k.to_string(), (*v).into()))
                .collect();
            let seed = format!("{:064x}", 0x5eed_0000 + i);
            let request = serde_json::json!({
                "cmd": "trace", "game": game, "players": players,
                "options": options, "seed": seed, "cap": 3000,
            });
            out.push(request.to_string());
        }
    }
    out
}

#[test]
fn the_webassembly_engine_plays_as_the_native_one() {
    // It never touches a store: the suite's PostgreSQL pass leaves it out.
    if std::env::var("RATRACE_IT_BACKEND").is_ok_and(|b| b == "postgres") {
        return;
    }
    let dir = tempfile_dir();
    let wasm = dir.join("engine.wasm");
    std::fs::write(&wasm, WASM).expect("write the engine");
    let host = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engine-host.mjs");
    let mut node = Command::new("node")
        .arg(host)
        .arg(&wasm)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (the browser tests need it too)");
    // Node works through every request while this thread plays the same
    // games natively: the two engines run side by side.
    let requests = requests();
    let mut to = node.stdin.take().expect("piped");
    let sent = requests.clone();
    let writer = std::thread::spawn(move || {
        for r in sent {
            writeln!(to, "{r}").expect("to node");
        }
    });
    let from = BufReader::new(node.stdout.take().expect("piped"));
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in from.lines() {
            if tx.send(line.expect("from node")).is_err() {
                break;
            }
        }
    });
    for (i, request) in requests.iter().enumerate() {
        let native = browser::handle(request, &[], &mut |_, _| {});
        let wasm = rx.recv().expect("node answers every request");
        assert!(native.starts_with(r#"{"ok":"#), "game {i}: {native}");
        assert_eq!(wasm, native, "game {i} ({request}) differs");
    }
    writer.join().expect("the writer");
    reader.join().expect("the reader");
    assert!(node.wait().expect("node ends").success());
    assert_eq!(requests.len(), 2 * GAMES);
    std::fs::remove_dir_all(dir).ok();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ratrace-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}
