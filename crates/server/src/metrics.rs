//! The server's operational figures, served by `GET /metrics` in the
//! Prometheus text exposition format 0.0.4 (docs/server.md,
//! "Operations"): gauges of what is open now, counters of what happened,
//! and one histogram, the commit latency of actions.
//!
//! Written by hand over atomics instead of with `prometheus-client`: that
//! crate adds `dtoa`, `itoa`, `parking_lot` and a derive-macro crate to a
//! two-core build, and writes the OpenMetrics text format rather than
//! 0.0.4, while a dozen figures need only relaxed atomic adds and one
//! `writeln!` per line. Recording never locks and never allocates; only
//! rendering (on a scrape) and registering an extra gauge take the mutex.
//!
//! Nothing here names a table, a player, an address or a seed: the figures
//! are counts and durations only, so the endpoint leaks nothing about games
//! even when it is left open.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The upper bounds (seconds) of the commit-latency histogram's buckets.
pub const COMMIT_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// A value that goes up and down (open connections, tables in memory).
#[derive(Debug, Default)]
pub struct Gauge(AtomicI64);

impl Gauge {
    /// Adds one.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// Takes one away.
    pub fn dec(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }

    /// Sets the value.
    pub fn set(&self, v: i64) {
        self.0.store(v, Ordering::Relaxed);
    }

    /// The value now.
    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Adds one now and takes it away when the guard drops, whatever way
    /// the holder ends.
    pub(crate) fn hold(self: &Arc<Self>) -> Held {
        self.inc();
        Held(Arc::clone(self))
    }
}

/// One unit of a [`Gauge`], given back on drop.
#[derive(Debug)]
pub(crate) struct Held(Arc<Gauge>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// Why a request or connection was refused for a quota or cap (the `kind`
/// label of `ratrace_refusals_total`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The per-address quota on creating tables.
    Create,
    /// The per-address quota on joins and seat changes.
    Join,
    /// The per-address quota on record checks.
    Verify,
    /// The per-address quota on record downloads and table loads.
    Record,
    /// The per-address quota on starting analyses.
    Analysis,
    /// The caps on unfinished tables (in all and per address).
    LiveTables,
    /// The connection caps (in all and per address).
    Connections,
    /// The cap on bot-program processes (`--bot-processes`).
    BotProcesses,
    /// The cap on bot-program processes for one address's tables
    /// (`--bot-processes-per-ip`).
    BotProcessesPerIp,
    /// The chat budgets (per seat, per address).
    Chat,
    /// The `resync` budgets (per connection, per address).
    Resync,
    /// The per-address quota on quick-pairing tickets.
    Pairing,
    /// The per-address quota on friends lists, follows and blocks.
    Friends,
    /// The per-address quota on invitations.
    Invite,
    /// The per-address quota on shared-replay rooms.
    Room,
    /// The per-address quota on passkey ceremonies.
    Passkey,
    /// The per-address quota on tournament requests.
    Tournament,
    /// A WebSocket closed because its outbox passed its byte budget, or
    /// its address's.
    SlowReader,
}

impl Refusal {
    const ALL: [Refusal; 18] = [
        Refusal::Create,
        Refusal::Join,
        Refusal::Verify,
        Refusal::Record,
        Refusal::Analysis,
        Refusal::LiveTables,
        Refusal::Connections,
        Refusal::BotProcesses,
        Refusal::BotProcessesPerIp,
        Refusal::Chat,
        Refusal::Resync,
        Refusal::Pairing,
        Refusal::Friends,
        Refusal::Invite,
        Refusal::Room,
        Refusal::Passkey,
        Refusal::Tournament,
        Refusal::SlowReader,
    ];

    fn label(self) -> &'static str {
        match self {
            Refusal::Create => "create",
            Refusal::Join => "join",
            Refusal::Verify => "verify",
            Refusal::Record => "record",
            Refusal::Analysis => "analysis",
            Refusal::LiveTables => "live_tables",
            Refusal::Connections => "connections",
            Refusal::BotProcesses => "bot_processes",
            Refusal::BotProcessesPerIp => "bot_processes_per_ip",
            Refusal::Chat => "chat",
            Refusal::Resync => "resync",
            Refusal::Pairing => "pairing",
            Refusal::Friends => "friends",
            Refusal::Invite => "invite",
            Refusal::Room => "room",
            Refusal::Passkey => "passkey",
            Refusal::Tournament => "tournament",
            Refusal::SlowReader => "slow_reader",
        }
    }
}

impl From<crate::quota::Kind> for Refusal {
    fn from(k: crate::quota::Kind) -> Refusal {
        match k {
            crate::quota::Kind::Create => Refusal::Create,
            crate::quota::Kind::Join => Refusal::Join,
            crate::quota::Kind::Verify => Refusal::Verify,
            crate::quota::Kind::Record => Refusal::Record,
            crate::quota::Kind::Analysis => Refusal::Analysis,
            crate::quota::Kind::Chat => Refusal::Chat,
            crate::quota::Kind::Resync => Refusal::Resync,
            crate::quota::Kind::Pairing => Refusal::Pairing,
            crate::quota::Kind::Friends => Refusal::Friends,
            crate::quota::Kind::Invite => Refusal::Invite,
            crate::quota::Kind::Room => Refusal::Room,
            crate::quota::Kind::Passkey => Refusal::Passkey,
            crate::quota::Kind::Tournament => Refusal::Tournament,
        }
    }
}

/// Counts per bucket (not cumulative: the text is), the total in
/// nanoseconds.
#[derive(Debug, Default)]
struct Histogram {
    buckets: [AtomicU64; COMMIT_BUCKETS.len() + 1],
    sum_ns: AtomicU64,
}

impl Histogram {
    fn observe(&self, d: Duration) {
        let s = d.as_secs_f64();
        let i = COMMIT_BUCKETS
            .iter()
            .position(|&b| s <= b)
            .unwrap_or(COMMIT_BUCKETS.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.sum_ns.fetch_add(ns, Ordering::Relaxed);
    }
}

/// A gauge another part of the server registered (a cluster layer's
/// figures, say).
struct Extra {
    name: String,
    help: String,
    gauge: Arc<Gauge>,
}

/// Every figure `/metrics` shows. One per [`crate::AppState`], reached
/// through [`crate::AppState::metrics`].
#[derive(Default)]
pub struct Metrics {
    /// Open TCP connections (WebSockets included), counted by the accept
    /// loop.
    pub(crate) connections: Arc<Gauge>,
    /// Open WebSocket connections.
    pub(crate) websockets: Arc<Gauge>,
    /// Running table tasks (what shutdown waits for).
    pub(crate) table_tasks: Arc<Gauge>,
    /// External bots holding a process slot (`ratrace serve --bot`).
    pub(crate) bot_processes: Arc<Gauge>,
    /// Strikes of external bots (a decision the stand-in played).
    bot_strikes: AtomicU64,
    /// Bot program seats credited to their stand-in at the end of a game.
    stand_in_seats: AtomicU64,
    actions: AtomicU64,
    commit: Histogram,
    refusals: [AtomicU64; Refusal::ALL.len()],
    tables_created: AtomicU64,
    store_errors: AtomicU64,
    extra: Mutex<Vec<Extra>>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// The names the server's own figures use (an extra gauge may not take
/// one).
const BUILT_IN: [&str; 12] = [
    "ratrace_live_tables",
    "ratrace_bot_processes",
    "ratrace_bot_strikes_total",
    "ratrace_stand_in_seats_total",
    "ratrace_connections",
    "ratrace_websockets",
    "ratrace_table_tasks",
    "ratrace_actions_total",
    "ratrace_commit_seconds",
    "ratrace_refusals_total",
    "ratrace_tables_created_total",
    "ratrace_store_errors_total",
];

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

impl Metrics {
    /// Every figure at zero.
    pub fn new() -> Metrics {
        Metrics::default()
    }

    /// An action's append took `took` from its submission to the store's
    /// answer, and was committed (`ok`) or failed.
    pub(crate) fn committed(&self, took: Duration, ok: bool) {
        self.commit.observe(took);
        if ok {
            self.actions.fetch_add(1, Ordering::Relaxed);
        } else {
            self.store_error();
        }
    }

    /// A store call failed.
    pub(crate) fn store_error(&self) {
        self.store_errors.fetch_add(1, Ordering::Relaxed);
    }

    /// A request or connection was refused for a quota or cap.
    pub(crate) fn refused(&self, why: Refusal) {
        let i = Refusal::ALL.iter().position(|&r| r == why).unwrap_or(0);
        self.refusals[i].fetch_add(1, Ordering::Relaxed);
    }

    /// An external bot earned a strike.
    pub(crate) fn bot_strike(&self) {
        self.bot_strikes.fetch_add(1, Ordering::Relaxed);
    }

    /// A bot program's seat was credited to its stand-in.
    pub(crate) fn stand_in_seat(&self) {
        self.stand_in_seats.fetch_add(1, Ordering::Relaxed);
    }

    /// A table was created.
    pub(crate) fn table_created(&self) {
        self.tables_created.fetch_add(1, Ordering::Relaxed);
    }

    /// Registers one more gauge, shown after the server's own: `None` if
    /// `name` is not a valid metric name or is taken.
    pub fn gauge(&self, name: &str, help: &str) -> Option<Arc<Gauge>> {
        let mut extra = self.extra.lock().unwrap_or_else(|p| p.into_inner());
        if !valid_name(name) || BUILT_IN.contains(&name) || extra.iter().any(|e| e.name == name) {
            return None;
        }
        let gauge = Arc::new(Gauge::default());
        extra.push(Extra {
            name: name.to_string(),
            // HELP text may not hold a raw newline or backslash.
            help: help.replace('\\', "\\\\").replace('\n', "\\n"),
            gauge: Arc::clone(&gauge),
        });
        Some(gauge)
    }

    /// The text of a scrape, with `live_tables` tables in memory.
    pub fn render(&self, live_tables: usize) -> String {
        let mut out = String::with_capacity(4096);
        self.render_gauges(&mut out, live_tables);
        self.render_counters(&mut out);
        self.render_refusals(&mut out);
        self.render_commit_times(&mut out);
        self.render_extra(&mut out);
        out
    }

    /// What is open or running now.
    fn render_gauges(&self, out: &mut String, live_tables: usize) {
        one(
            out,
            "ratrace_live_tables",
            "gauge",
            "Tables in memory in this process.",
            live_tables,
        );
        one(
            out,
            "ratrace_connections",
            "gauge",
            "Open TCP connections, WebSockets included.",
            self.connections.get(),
        );
        one(
            out,
            "ratrace_websockets",
            "gauge",
            "Open WebSocket connections.",
            self.websockets.get(),
        );
        one(
            out,
            "ratrace_table_tasks",
            "gauge",
            "Running table tasks.",
            self.table_tasks.get(),
        );
        one(
            out,
            "ratrace_bot_processes",
            "gauge",
            "External bots (ratrace serve --bot) holding a process slot.",
            self.bot_processes.get(),
        );
    }

    /// What has happened since the process started.
    fn render_counters(&self, out: &mut String) {
        one(
            out,
            "ratrace_bot_strikes_total",
            "counter",
            "Strikes of external bots: decisions their stand-in played.",
            load(&self.bot_strikes),
        );
        one(
            out,
            "ratrace_stand_in_seats_total",
            "counter",
            "Bot program seats whose stand-in made more than 5% of their decisions: the result credits the stand-in.",
            load(&self.stand_in_seats),
        );
        one(
            out,
            "ratrace_actions_total",
            "counter",
            "Actions committed to the store.",
            load(&self.actions),
        );
        one(
            out,
            "ratrace_tables_created_total",
            "counter",
            "Tables created.",
            load(&self.tables_created),
        );
        one(
            out,
            "ratrace_store_errors_total",
            "counter",
            "Store calls that failed (action appends, readiness probes).",
            load(&self.store_errors),
        );
    }

    /// The refusals, one series per kind.
    fn render_refusals(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "# HELP ratrace_refusals_total Requests and connections refused for a quota or cap."
        );
        let _ = writeln!(out, "# TYPE ratrace_refusals_total counter");
        for (r, n) in Refusal::ALL.iter().zip(&self.refusals) {
            let _ = writeln!(
                out,
                "ratrace_refusals_total{{kind=\"{}\"}} {}",
                r.label(),
                load(n)
            );
        }
    }

    /// The histogram of the store's commit times.
    fn render_commit_times(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "# HELP ratrace_commit_seconds Time from submitting an action to the store until it answers."
        );
        let _ = writeln!(out, "# TYPE ratrace_commit_seconds histogram");
        let mut cumulative = 0u64;
        for (bound, n) in COMMIT_BUCKETS.iter().zip(&self.commit.buckets) {
            cumulative += load(n);
            let _ = writeln!(
                out,
                "ratrace_commit_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
            );
        }
        cumulative += load(&self.commit.buckets[COMMIT_BUCKETS.len()]);
        let _ = writeln!(
            out,
            "ratrace_commit_seconds_bucket{{le=\"+Inf\"}} {cumulative}"
        );
        let sum = load(&self.commit.sum_ns) as f64 / 1e9;
        let _ = writeln!(out, "ratrace_commit_seconds_sum {sum}");
        let _ = writeln!(out, "ratrace_commit_seconds_count {cumulative}");
    }

    /// The gauges registered by name ([`Metrics::gauge`]).
    fn render_extra(&self, out: &mut String) {
        let extra = self.extra.lock().unwrap_or_else(|p| p.into_inner());
        for e in extra.iter() {
            one(out, &e.name, "gauge", &e.help, e.gauge.get());
        }
    }
}

/// A counter's value now.
fn load(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}

/// One series of a scrape: its help, its type and its value.
fn one(out: &mut String, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    let _ = writeln!(out, "{name} {value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, series: &str) -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
    }

    #[test]
    fn the_histogram_is_cumulative_and_counts_every_observation() {
        let m = Metrics::new();
        m.committed(Duration::from_micros(300), true);
        m.committed(Duration::from_millis(3), true);
        m.committed(Duration::from_secs(9), false);
        let text = m.render(2);
        let b = |le: &str| {
            value(
                &text,
                &format!("ratrace_commit_seconds_bucket{{le=\"{le}\"}}"),
            )
        };
        assert_eq!(b("0.0005"), 1.0);
        assert_eq!(b("0.0025"), 1.0);
        assert_eq!(b("0.005"), 2.0);
        assert_eq!(b("2.5"), 2.0);
        assert_eq!(b("+Inf"), 3.0);
        assert_eq!(value(&text, "ratrace_commit_seconds_count"), 3.0);
        let sum = value(&text, "ratrace_commit_seconds_sum");
        assert!((sum - 9.0033).abs() < 1e-9, "{sum}");
        assert_eq!(value(&text, "ratrace_actions_total"), 2.0);
        assert_eq!(value(&text, "ratrace_store_errors_total"), 1.0);
        assert_eq!(value(&text, "ratrace_live_tables"), 2.0);
    }

    #[test]
    fn extra_gauges_need_a_free_valid_name() {
        let m = Metrics::new();
        let g = m.gauge("ratrace_peers", "Peers\nseen").unwrap();
        g.set(7);
        assert!(m.gauge("ratrace_peers", "again").is_none());
        assert!(m.gauge("ratrace_actions_total", "built in").is_none());
        assert!(m.gauge("9lives", "bad").is_none());
        assert!(m.gauge("a b", "bad").is_none());
        let text = m.render(0);
        assert_eq!(value(&text, "ratrace_peers"), 7.0);
        assert!(
            text.contains("# HELP ratrace_peers Peers\\nseen\n"),
            "{text}"
        );
    }

    #[test]
    fn a_held_gauge_unit_is_given_back_on_drop() {
        let g = Arc::new(Gauge::default());
        let a = g.hold();
        let b = g.hold();
        assert_eq!(g.get(), 2);
        drop(a);
        drop(b);
        assert_eq!(g.get(), 0);
    }
}
