//! `ratrace scenario`: scenario files, and folders of `*.scen` files
//! walked in name order, each run by `cli::scenario`; failures go to
//! standard error, the totals to standard output.

use crate::args::ScenarioArgs;
use cli::{scenario, Error};
use std::path::PathBuf;

/// Runs `ratrace scenario`: true when no check failed.
pub(crate) fn run(args: ScenarioArgs) -> Result<bool, Error> {
    let files = scenario_files(&args.files)?;
    let (mut checks, mut failures) = (0, 0);
    for f in &files {
        let report = scenario::run_file(f);
        checks += report.checks;
        failures += report.failures.len();
        for failure in &report.failures {
            eprintln!("{failure}");
        }
    }
    outln!("{} scenario file(s)", files.len());
    outln!("scenarios: {checks} passed, {failures} failed");
    Ok(failures == 0)
}

/// The files named, and the `*.scen` files in the folders named: a
/// folder's files in name order, then its sub-folders'.
fn scenario_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(Error::io(p))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            let (dirs, files): (Vec<_>, Vec<_>) = entries.into_iter().partition(|e| e.is_dir());
            out.extend(
                files
                    .into_iter()
                    .filter(|f| f.extension().is_some_and(|x| x == "scen")),
            );
            out.extend(scenario_files(&dirs)?);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
