//! The text of `ratrace bot-check`'s report ([`analysis::botcheck`]): one
//! line per configuration, the totals, then each problem with what to fix.

use analysis::botcheck::Report;
use std::fmt::Write as _;

/// The report as a bot author reads it.
pub fn text(r: &Report) -> String {
    let mut s = String::new();
    let hello = match (&r.name, r.protocol) {
        (Some(name), Some(p)) => format!("ready as \"{name}\", protocol {p}"),
        _ => "never answered `start` with `ready`".to_string(),
    };
    let _ = writeln!(
        s,
        "bot-check `{}`: {hello}; {} ms per decision; {} game(s) per configuration, seed {}\n",
        r.command, r.move_ms, r.games_per_config, r.seed
    );
    let options_of = |o: &[String]| {
        if o.is_empty() {
            "defaults".to_string()
        } else {
            o.join(",")
        }
    };
    let w = r
        .configs
        .iter()
        .map(|c| options_of(&c.options).len())
        .max()
        .unwrap_or(8);
    let _ = writeln!(
        s,
        "{:<10} {:>7}  {:<w$} {:>5} {:>9} {:>9} {:>8} {:>7}  exit",
        "game", "players", "options", "games", "decisions", "median ms", "max ms", "strikes"
    );
    let (mut clean, mut quits, mut processes, mut timeouts) = (0, 0, 0, 0);
    for c in &r.configs {
        let options = options_of(&c.options);
        clean += c.clean_exits;
        quits += c.clean_exits + c.unclean_exits.len() as u64;
        processes += c.processes;
        timeouts += c.timeouts;
        // Times are of answers: none answered, no time to show.
        let (median, max) = if c.answered == 0 {
            ("-".to_string(), "-".to_string())
        } else {
            (format!("{:.2}", c.median_ms), format!("{:.2}", c.max_ms))
        };
        let exit = if !c.unclean_exits.is_empty() {
            c.unclean_exits.join("; ")
        } else if c.clean_exits > 0 {
            "clean".to_string()
        } else {
            // Every process was replaced (killed) before the quit.
            "-".to_string()
        };
        let _ = writeln!(
            s,
            "{:<10} {:>7}  {:<w$} {:>5} {:>9} {median:>9} {max:>8} {:>7}  {exit}",
            c.game,
            c.players,
            options,
            c.games,
            c.decisions,
            c.strikes.len()
        );
    }
    let _ = writeln!(s, "\n{}", totals(r, clean, quits, processes, timeouts));
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    if r.conforms {
        let _ = writeln!(s, "\nPASS: the bot conforms to ratrace-bot/1.");
    } else {
        let _ = writeln!(s, "\nFAIL: {} problem(s) to fix:", r.problems.len());
        for (i, p) in r.problems.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>3}. {} ({} time(s), first in {})\n     fix: {}",
                i + 1,
                p.problem,
                p.count,
                p.first_seen,
                p.fix
            );
        }
    }
    s
}

/// The totals line: decisions and how many were answered in time, strikes,
/// and how the processes ended (killed after strikes, or after `quit`).
fn totals(r: &Report, clean: u64, quits: u64, processes: u64, timeouts: u64) -> String {
    let answered: u64 = r.configs.iter().map(|c| c.answered).sum();
    let times = if answered == 0 {
        format!("none answered in time (limit {} ms)", r.move_ms)
    } else {
        format!(
            "{answered} answered in time: median {:.2} ms, longest {:.2} ms (limit {} ms)",
            r.median_ms, r.max_ms, r.move_ms
        )
    };
    let late = if timeouts > 0 {
        format!(", {timeouts} not answered within the limit")
    } else {
        String::new()
    };
    // Processes replaced after strikes were killed: they never saw quit.
    let killed = processes.saturating_sub(quits);
    let exits = match (quits, killed) {
        (0, 0) => "no process started".to_string(),
        (0, k) => format!("no process reached quit ({k} killed after strikes)"),
        (q, 0) => format!("{clean}/{q} clean exits after quit"),
        (q, k) => format!("{clean}/{q} clean exits after quit, {k} killed after strikes"),
    };
    format!(
        "total: {} configurations, {} decisions: {times}{late}; {} strike(s); {exits}; {:.1} s",
        r.configs.len(),
        r.decisions,
        r.strikes,
        r.seconds
    )
}
