//! Replays every committed fuzz input (`fuzz/corpus/<target>/` and
//! `fuzz/regressions/<target>/`) through its check, so that the stable
//! `cargo test` run keeps every case the fuzzers found or were seeded with.
//!
//! The checks panic on a finding; each file runs under `catch_unwind` so
//! that one report names every failing file, not only the first.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted; none if the folder is
/// missing.
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join(kind).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `check` on every input of `target`; returns how many ran.
fn replay(target: &str, check: fuzzing::Check) -> usize {
    let mut failures = Vec::new();
    let mut ran = 0;
    for kind in ["corpus", "regressions"] {
        for path in inputs(kind, target) {
            let data = std::fs::read(&path).expect("a readable input");
            ran += 1;
            if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
                failures.push(path.display().to_string());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: failing inputs {failures:#?}"
    );
    ran
}

#[test]
fn every_target_has_a_fuzz_target_file_and_a_seeded_corpus() {
    for (target, _) in fuzzing::TARGETS {
        let source = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(
            text.contains(&format!("fuzzing::{target}(")),
            "{} does not call fuzzing::{target}",
            source.display()
        );
        assert!(
            !inputs("corpus", target).is_empty(),
            "fuzz/corpus/{target} is empty"
        );
    }
}

#[test]
fn the_corpus_replays_cleanly() {
    for (target, check) in fuzzing::TARGETS {
        let ran = replay(target, *check);
        assert!(ran > 0, "{target}: no input ran");
    }
}

/// A notation whose display loses information: `3` displays as `3!`,
/// which reads back as 4.
#[derive(Debug, PartialEq)]
struct Lossy(u8);

impl std::fmt::Display for Lossy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}!", self.0)
    }
}

impl std::str::FromStr for Lossy {
    type Err = String;
    fn from_str(s: &str) -> Result<Lossy, String> {
        match s.strip_suffix('!') {
            Some(n) => n
                .parse::<u8>()
                .map(|n| Lossy(n + 1))
                .map_err(|e| e.to_string()),
            None => s.parse().map(Lossy).map_err(|e| e.to_string()),
        }
    }
}

#[test]
fn a_broken_round_trip_is_a_finding() {
    assert_eq!(
        fuzzing::round_trip::<Lossy>("x"),
        None,
        "no parse, no check"
    );
    let found = catch_unwind(|| fuzzing::round_trip::<Lossy>("3"));
    assert!(found.is_err(), "3 -> `3!` -> 4 must panic");
    assert_eq!(
        fuzzing::round_trip::<dalmuti::Action>("give 12 3"),
        Some("give 3 12".parse().unwrap())
    );
}

#[test]
fn the_seed_records_are_real_games() {
    // The record corpus starts from games that were played: each seed
    // replays to its recorded end, so the fuzzer starts deep in the engine.
    let seeds: Vec<PathBuf> = inputs("corpus", "record")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
        })
        .collect();
    assert!(seeds.len() >= 2, "a seed record per game");
    for path in seeds {
        let text = std::fs::read_to_string(&path).expect("a seed record reads");
        let record = registry::records::parse(&text).expect("a seed record reads");
        assert!(!record.actions.is_empty(), "{}", path.display());
        let ok = match record.game.as_str() {
            "bigcheese" => record
                .replay::<bigcheese::BigCheese>(false, |_, _, _| {})
                .is_ok(),
            "dalmuti" => record
                .replay::<dalmuti::Dalmuti>(false, |_, _, _| {})
                .is_ok(),
            other => panic!("{}: game {other}", path.display()),
        };
        assert!(ok, "{} replays", path.display());
    }
}
