//! Runs every `scenarios/bigcheese/*.scen` file through the one scenario
//! runner (`game::scenario`), so the engine's own tests cover every ruling
//! without the CLI.

use bigcheese::BigCheese;
use std::path::PathBuf;

#[test]
fn scenario_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/bigcheese");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    let mut errors = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let report = game::scenario::run::<BigCheese>(&f.display().to_string(), &text);
        errors.extend(report.failures.iter().map(ToString::to_string));
    }
    assert!(
        errors.is_empty(),
        "{} of {} scenarios failed:\n{}",
        errors.len(),
        files.len(),
        errors.join("\n\n")
    );
}
