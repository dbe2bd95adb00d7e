//! `ratrace verify`: a finished game's record checked
//! (`registry::verify`). Three outcomes, three exit statuses: verified
//! (0), failed (1), unverifiable (3, [`Error::Unverifiable`]) unless
//! `--allow-uncommitted`. A signed record is verified only against a
//! server key given with `--key`.

use crate::args::VerifyArgs;
use cli::{records, Error};
use registry::verify::Verdict;

/// Runs `ratrace verify`.
pub(crate) fn run(args: VerifyArgs) -> Result<bool, Error> {
    let record = args.record;
    let r = records::read(&record)?;
    let report = registry::verify::verify_with(&r, &args.key);
    for line in &report.checks {
        outln!("{line}");
    }
    for line in &report.chance {
        outln!("  {line}");
    }
    let why = report.error.as_deref().unwrap_or("mismatch");
    match report.verdict {
        Verdict::Verified => {
            outln!("verified: {}", record.display());
            Ok(true)
        }
        Verdict::Unverifiable if args.allow_uncommitted => {
            outln!("unverifiable, allowed: {}: {why}", record.display());
            Ok(true)
        }
        Verdict::Unverifiable => Err(Error::Unverifiable(format!(
            "{}: {why} (--allow-uncommitted accepts it)",
            record.display()
        ))),
        Verdict::Failed => {
            eprintln!("{}: {why}", record.display());
            Ok(false)
        }
    }
}
