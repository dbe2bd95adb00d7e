//! `ratrace db copy`: every table from one database into another
//! (`server::store::copy`), with a progress bar, then the figures.

use cli::Error;
use std::path::Path;

/// Runs `ratrace db copy --from FROM --to TO`.
pub(crate) fn copy(from: &str, to: &str) -> Result<bool, Error> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| Error::Server(e.to_string()))?;
    let (src, dst) = (server::store::redact(from), server::store::redact(to));
    // A SQLite source must be there: opening a missing file would make an
    // empty one and copy nothing.
    let is_pg = |spec: &str| spec.starts_with("postgres://") || spec.starts_with("postgresql://");
    let path = from.strip_prefix("sqlite:").unwrap_or(from);
    if !is_pg(from) && path != ":memory:" && !Path::new(path).is_file() {
        return Err(Error::Server(format!(
            "--from {src}: no such database file"
        )));
    }
    let (source, target) = runtime.block_on(async {
        let source = server::store::open(from)
            .await
            .map_err(|e| Error::Server(format!("--from {src}: {e}")))?;
        let target = server::store::open(to)
            .await
            .map_err(|e| Error::Server(format!("--to {dst}: {e}")))?;
        Ok::<_, Error>((source, target))
    })?;
    let started = std::time::Instant::now();
    // The stores block: the copy runs on this thread, outside the runtime
    // (which keeps driving PostgreSQL's connections).
    let total =
        server::store::copy::count(source.as_ref()).map_err(|e| Error::Server(e.to_string()))?;
    let bar = cli::games_bar(total as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} tables  {per_sec}  eta {eta}")
    {
        bar.set_style(style);
    }
    let copied = server::store::copy::copy(source.as_ref(), target.as_ref(), |r| {
        bar.set_position(r.tables as u64)
    });
    bar.finish_and_clear();
    let report = copied.map_err(|e| Error::Server(format!("copy {src} -> {dst}: {e}")))?;
    outln!(
        "copied {src} -> {dst}: {} tables ({} new, {} already there), {} actions, \
         {} finished games verified, in {:.1} s",
        report.tables,
        report.copied,
        report.already,
        report.actions,
        report.verified,
        started.elapsed().as_secs_f64()
    );
    drop((source, target));
    drop(runtime);
    Ok(true)
}
