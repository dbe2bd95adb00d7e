//! `ratrace serve`'s flags: where it listens, its database, its place in
//! a site of several processes, its limits, its bot programs and its logs.
//! Many flags (every resource an outside client can use has one), so they
//! are grouped in structs that clap flattens, each under its own `--help`
//! heading; [`ServeLimits::limits`] turns the limits into the server's.

/// `ratrace serve`'s flags.
#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub(crate) addr: std::net::SocketAddr,
    /// The database: a SQLite file (a path or `sqlite:PATH`, created if
    /// missing, readable by its owner only) or PostgreSQL
    /// (`postgres://USER:PASSWORD@HOST/DB`).
    #[arg(long, default_value = "ratrace.db")]
    pub(crate) db: String,
    /// Print the public key that signs this site's commitments (64 hex
    /// digits, what `ratrace verify --key` takes and `GET /api/key`
    /// serves), made from the database's site secret, and exit.
    #[arg(long)]
    pub(crate) print_key: bool,
    /// Offer passkeys to keep an identity, for the site at this origin
    /// (`https://play.example.org`): its host is the WebAuthn relying
    /// party, which every passkey is bound to for good, so it must be the
    /// address people use. `http://localhost` (any port) is for trying it
    /// out; browsers refuse passkeys on other plain-HTTP origins. Off by
    /// default.
    #[arg(long, value_name = "URL")]
    pub(crate) passkey_origin: Option<String>,
    #[command(flatten)]
    pub(crate) cluster: ClusterArgs,
    #[command(flatten)]
    pub(crate) limits: ServeLimits,
    #[command(flatten)]
    pub(crate) bots: ServeBots,
    #[command(flatten)]
    pub(crate) ops: ServeOps,
}

/// `ratrace serve`'s place in a site of several processes (docs/deploy.md).
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Several processes, one site")]
pub(crate) struct ClusterArgs {
    /// Join a site of several processes on one database: listen here for
    /// the other processes (requests for tables this process owns; keep it
    /// on a private network). Without it the process serves alone.
    #[arg(long, value_name = "ADDR")]
    pub(crate) cluster_listen: Option<std::net::SocketAddr>,
    /// The URL the other processes reach the cluster listener at
    /// (default: http://ADDR of --cluster-listen; needed if ADDR is
    /// 0.0.0.0).
    #[arg(long, value_name = "URL")]
    pub(crate) advertise: Option<String>,
    /// Milliseconds a process may go without a heartbeat before the others
    /// take its tables over.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(200..=600_000))]
    pub(crate) lease_ms: u64,
    /// A reverse proxy or load balancer in front of this process
    /// (repeatable): its `X-Forwarded-For` names the client that quotas
    /// count. Behind one, also set --max-connections-per-ip 0 (every
    /// connection comes from the proxy).
    #[arg(long, value_name = "IP")]
    pub(crate) trusted_proxy: Vec<std::net::IpAddr>,
}

/// `ratrace serve`'s bot programs (docs/bot-protocol.md): levels in the
/// lobby after the ladder.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Bot programs")]
pub(crate) struct ServeBots {
    /// Offer a bot program as a level in the lobby, after the ladder
    /// (repeatable): NAME (1 to 24 of a-z, 0-9, _ and -, not a built-in
    /// bot's) is what players choose, COMMAND (run by /bin/sh -c, one
    /// process per seat for the table's game) speaks ratrace-bot/1.
    /// GAME:NAME=COMMAND offers it for one game only (bigcheese or
    /// dalmuti). Players never give a command.
    #[arg(long = "bot", value_name = "[GAME:]NAME=COMMAND", value_parser = server::extbots::Program::parse)]
    pub(crate) bots: Vec<server::extbots::Program>,
    /// Milliseconds a bot program may take for one decision (after that
    /// the heuristic bot plays it, and the bot gets a strike).
    #[arg(long, default_value_t = server::extbots::DEFAULT_MOVE_MS, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub(crate) bot_time: u64,
    /// Bot-program processes alive at once, server-wide. A table's
    /// programs take their slots when its game is under way and a person
    /// is connected at it, and give them back when the game ends, the
    /// table leaves memory, or a few seconds after the last person left;
    /// without a free slot the heuristic bot plays the seat until one is
    /// free. A table that needs more than are free now is refused (busy).
    /// At most 10,000.
    #[arg(long, default_value_t = server::extbots::DEFAULT_PROCESSES as u64, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub(crate) bot_processes: u64,
    /// Bot-program processes alive at once for the tables one client
    /// address made (0 = only the server-wide cap); a table with more
    /// programs is refused (busy).
    #[arg(long, default_value_t = server::extbots::DEFAULT_PROCESSES_PER_IP as u64, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub(crate) bot_processes_per_ip: u64,
    /// The share, in percent, of --bot-processes that the tables made
    /// from one network (an IPv4 /24, an IPv6 /48) may hold at once
    /// (never less than --bot-processes-per-ip); 100 = no cap of its own.
    #[arg(long, default_value_t = server::extbots::DEFAULT_SHARE_PER_NET as u64, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub(crate) bot_share_per_net: u64,
    /// Memory a bot program may use, MiB: its cgroup's memory.max with
    /// --bot-cgroup, else RLIMIT_AS (address space, shared mappings
    /// included: a runtime that reserves large ranges up front, such as
    /// the JVM, Node.js or Go, needs more here, or a cgroup).
    ///
    /// Bot programs are strangers' code, so each is confined: an
    /// unprivileged user when the server runs as root (--bot-user), an
    /// environment of its own (PATH and LANG only; HOME, TMPDIR and its
    /// working folder a private one of --bot-disk-mb, removed after it),
    /// namespaces of its own (every process it starts ends with it), no
    /// descriptor but its pipes, limits on memory, CPU time and tasks,
    /// and, where the kernel has Landlock (Linux 5.13+), no access to
    /// /proc or to the database's folder and no writing outside its own.
    /// Without Landlock (logged at start) a program can read every file
    /// its user can. Give commands absolute paths, outside the database's
    /// folder, readable by --bot-user. docs/server.md, "Bot programs".
    #[arg(long, default_value_t = extbot::sandbox::MEMORY >> 20, value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub(crate) bot_memory_mb: u64,
    /// The user bot programs run as (default: nobody when the server runs
    /// as root, else the server's own user; another user needs a server
    /// run as root).
    #[arg(long, value_name = "NAME")]
    pub(crate) bot_user: Option<String>,
    /// Let bot programs run as root (a root server with --bot-user root):
    /// they could then read every file of the machine that Landlock does
    /// not hide.
    #[arg(long)]
    pub(crate) bot_allow_root: bool,
    /// Disk a bot program's private folder may hold in all, MiB (a tmpfs
    /// of its own; each file at most 16 MiB).
    #[arg(long, default_value_t = extbot::sandbox::DISK >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 16))]
    pub(crate) bot_disk_mb: u64,
    /// A cgroup v2 folder delegated to the server (systemd's Delegate=yes,
    /// or one made for it as root): each bot program gets a cgroup of its
    /// own there, with memory.max (then no RLIMIT_AS), pids.max where
    /// those controllers are enabled, and cgroup.kill at its end.
    #[arg(long, value_name = "DIR")]
    pub(crate) bot_cgroup: Option<std::path::PathBuf>,
    /// CPU seconds a bot program may use over its whole life (then it is
    /// killed: a strike, and the heuristic bot plays the seat).
    #[arg(long, default_value_t = extbot::sandbox::CPU_SECONDS, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) bot_cpu_s: u64,
}

/// `ratrace serve`'s logs and `/metrics` (docs/server.md, "Operations").
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Operations")]
pub(crate) struct ServeOps {
    /// Log lines as text, or as one JSON object per line (for a log
    /// collector).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
    /// What to log: a level (error, warn, info, debug, trace) or
    /// `target=level` pairs separated by commas (`info,server::table=debug`).
    /// Default: $RUST_LOG in that form, else info.
    #[arg(long)]
    pub(crate) log_level: Option<String>,
    /// Serve /metrics only with `Authorization: Bearer TOKEN` (default:
    /// $RATRACE_METRICS_TOKEN, which stays out of the process list; open
    /// without either). /metrics has counts only, never table ids or names.
    #[arg(long)]
    pub(crate) metrics_token: Option<String>,
}

/// How `ratrace serve` writes its log lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// `ratrace serve --ws-compression`: see [`server::WsCompression`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WsCompression {
    /// Declined.
    Off,
    /// Each message alone, from a shared pool: about half the bytes, no
    /// memory per idle connection.
    Message,
    /// One deflate context per connection: about a tenth of the bytes, a
    /// few hundred KiB per connection.
    Context,
}

/// `ratrace serve`'s limits: every resource an outside client can use is
/// bounded (docs/server.md, "Limits"); each default is
/// [`server::Limits::default`].
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits")]
pub(crate) struct ServeLimits {
    /// Open connections in all (WebSockets included).
    #[arg(long, default_value_t = server::Limits::default().max_connections)]
    max_connections: usize,
    /// Open connections per client address (an IPv6 /56 is one address);
    /// 0 = no cap, for a server behind a proxy.
    #[arg(long, default_value_t = server::Limits::default().max_connections_per_ip)]
    max_connections_per_ip: usize,
    /// Kernel send buffer per connection, in bytes: with the outbox, what a
    /// reader that stops reading can hold up before it is closed.
    #[arg(long, default_value_t = server::Limits::default().send_buffer)]
    send_buffer: usize,
    /// Bytes a WebSocket's outbox may hold (queued, and the message being
    /// written until the kernel took it) before the connection counts as
    /// too slow and is closed (1013); at least 64 KiB.
    #[arg(long, default_value_t = server::Limits::default().outbox_bytes)]
    outbox_bytes: usize,
    /// Bytes the outboxes of one client address's WebSockets may hold
    /// together; a connection that would pass it is closed as too slow.
    /// 0 = no cap, for a server behind a proxy.
    #[arg(long, default_value_t = server::Limits::default().outbox_bytes_per_ip)]
    outbox_bytes_per_ip: usize,
    /// `resync` asks (each builds a whole state) one WebSocket may make at
    /// once, then one every --resync-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().resync_burst)]
    resync_burst: u32,
    /// See --resync-burst.
    #[arg(long, default_value_t = server::Limits::default().resync_every_s)]
    resync_every_s: u32,
    /// `resync` asks one client address may make at once, from all its
    /// WebSockets together, then one a second.
    #[arg(long, default_value_t = server::Limits::default().resync_burst_per_ip)]
    resync_burst_per_ip: u32,
    /// WebSocket compression (permessage-deflate) for clients that offer
    /// it: off, each message alone, or with a context per connection.
    #[arg(long, value_enum, default_value_t = WsCompression::Message)]
    ws_compression: WsCompression,
    /// Seconds a client has to send a request's headers (also the longest
    /// idle keep-alive) and its body.
    #[arg(long, default_value_t = server::Limits::default().header_timeout.as_secs())]
    request_timeout_s: u64,
    /// Seconds from a WebSocket's opening to its hello.
    #[arg(long, default_value_t = server::Limits::default().hello_timeout.as_secs())]
    hello_timeout_s: u64,
    /// Seconds a WebSocket may stay silent (the web client pings every 25 s).
    #[arg(long, default_value_t = server::Limits::default().idle_timeout.as_secs())]
    idle_timeout_s: u64,
    /// WebSocket messages per second before refusals (every frame counts).
    #[arg(long, default_value_t = server::Limits::default().rate_limit)]
    rate_limit: u32,
    /// WebSocket messages per second that close the connection.
    #[arg(long, default_value_t = server::Limits::default().rate_close)]
    rate_close: u32,
    /// Tables one address may create at once, then one every
    /// --create-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().create_burst)]
    create_burst: u32,
    /// See --create-burst.
    #[arg(long, default_value_t = server::Limits::default().create_every_s)]
    create_every_s: u32,
    /// Seat joins one address may make at once, then one every
    /// --join-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().join_burst)]
    join_burst: u32,
    /// See --join-burst.
    #[arg(long, default_value_t = server::Limits::default().join_every_s)]
    join_every_s: u32,
    /// Record checks one address may ask at once, then one every
    /// --verify-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().verify_burst)]
    verify_burst: u32,
    /// See --verify-burst.
    #[arg(long, default_value_t = server::Limits::default().verify_every_s)]
    verify_every_s: u32,
    /// Record downloads one address may make at once (each replays a
    /// whole game), then one every --record-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().record_burst)]
    record_burst: u32,
    /// See --record-burst.
    #[arg(long, default_value_t = server::Limits::default().record_every_s)]
    record_every_s: u32,
    /// Unfinished tables in all.
    #[arg(long, default_value_t = server::Limits::default().max_live_tables)]
    max_live_tables: usize,
    /// Unfinished tables one address may have created.
    #[arg(long, default_value_t = server::Limits::default().max_live_tables_per_ip)]
    max_live_tables_per_ip: usize,
    /// Seconds after which a table nobody is connected to leaves memory
    /// (it comes back on demand).
    #[arg(long, default_value_t = server::Limits::default().evict_after.as_secs())]
    evict_after_s: u64,
    /// Hours without any move or join after which an unfinished game ends
    /// as abandoned (its record is kept); 0 = never.
    #[arg(long, default_value_t = server::Limits::default().abandon_after.as_secs() / 3600)]
    abandon_after_h: u64,
    /// Minutes without a join after which a table that never started ends
    /// as abandoned (so unused tables cannot fill the caps); 0 = never.
    #[arg(long, default_value_t = server::Limits::default().unstarted_after.as_secs() / 60)]
    unstarted_after_m: u64,
    /// Most hands in a Dalmuti session.
    #[arg(long, default_value_t = server::Limits::default().max_hands)]
    max_hands: u32,
    /// Most actions in a table's game (it then ends as abandoned) and in a
    /// record sent to be checked.
    #[arg(long, default_value_t = server::Limits::default().max_actions)]
    max_actions: usize,
    /// Smallest bot delay (ms) of a table with no human seat.
    #[arg(long, default_value_t = server::Limits::default().min_bot_delay_ms)]
    min_bot_delay_ms: u64,
    /// Bot decisions computed at once, server-wide.
    #[arg(long, default_value_t = server::Limits::default().bot_threads)]
    bot_threads: usize,
    /// Turn timer (ms) of public tables whose creator set none.
    #[arg(long, default_value_t = server::Limits::default().public_turn_timer_ms)]
    public_turn_timer_ms: u64,
    /// Seconds a human seat must stay empty before the creator may give it
    /// to a bot.
    #[arg(long, default_value_t = server::Limits::default().fill_after.as_secs())]
    fill_after_s: u64,
    /// Milliseconds after the deal at which a Dalmuti revolution decision
    /// takes effect at a table with people, whoever holds the Jesters (D7
    /// fair timing); 0 = at once.
    #[arg(long, default_value_t = server::Limits::default().revolution_window_ms)]
    revolution_window_ms: u64,
    /// Post-game analyses one address may start at once, then one every
    /// --analysis-every-s seconds.
    #[arg(long, default_value_t = server::Limits::default().analysis_burst)]
    analysis_burst: u32,
    /// See --analysis-burst.
    #[arg(long, default_value_t = server::Limits::default().analysis_every_s)]
    analysis_every_s: u32,
    /// Analyses that may wait behind the one running, server-wide (more
    /// are refused as busy).
    #[arg(long, default_value_t = server::Limits::default().analysis_queue)]
    analysis_queue: usize,
    /// Worker threads of the analysis that runs (1 or 2).
    #[arg(long, default_value_t = server::Limits::default().analysis_threads)]
    analysis_threads: usize,
    /// The analysis budget per decision: MCTS iterations and paired
    /// rollouts, as SEARCH,ROLLOUTS (0 = the game's default; see
    /// `ratrace analyze --help`).
    #[arg(long, default_value = "0,0", value_parser = parse_budget)]
    analysis_budget: (u32, u32),
    /// Largest analysis kept, in bytes of JSON.
    #[arg(long, default_value_t = server::Limits::default().analysis_max_bytes)]
    analysis_max_bytes: usize,
    /// People waiting in one quick-pairing pool ("Play now", one pool per
    /// preset); more are refused.
    #[arg(long, default_value_t = server::Limits::default().pairing_pool_size)]
    pairing_pool_size: usize,
    /// Quick-pairing tickets one client address may hold at once.
    #[arg(long, default_value_t = server::Limits::default().pairing_tickets_per_ip)]
    pairing_tickets_per_ip: usize,
    /// Quick-pairing tickets held in all.
    #[arg(long, default_value_t = server::Limits::default().pairing_tickets)]
    pairing_tickets: usize,
    /// A waiting quick-pairing ticket nobody asked about for this many
    /// seconds is dropped (its page was closed).
    #[arg(long, default_value_t = server::Limits::default().pairing_heartbeat.as_secs())]
    pairing_heartbeat_s: u64,
}

/// Why an --analysis-budget is not `SEARCH,ROLLOUTS`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BadBudget {
    /// No comma.
    #[error("expected SEARCH,ROLLOUTS (such as 200,64)")]
    NoComma,
    /// A part that is not a whole number.
    #[error("`{0}` is not a whole number")]
    NotANumber(String),
}

/// `SEARCH,ROLLOUTS` for --analysis-budget.
fn parse_budget(s: &str) -> Result<(u32, u32), BadBudget> {
    let (a, b) = s.split_once(',').ok_or(BadBudget::NoComma)?;
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| BadBudget::NotANumber(t.to_string()))
    };
    Ok((num(a)?, num(b)?))
}

impl ServeLimits {
    pub(crate) fn limits(&self) -> server::Limits {
        use std::time::Duration;
        server::Limits {
            rate_limit: self.rate_limit,
            rate_close: self.rate_close.max(self.rate_limit),
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            send_buffer: self.send_buffer.clamp(4096, 16 << 20),
            outbox_messages: server::Limits::default().outbox_messages,
            outbox_bytes: self.outbox_bytes.clamp(64 << 10, 1 << 30),
            outbox_bytes_per_ip: self.outbox_bytes_per_ip,
            resync_burst: self.resync_burst,
            resync_every_s: self.resync_every_s,
            resync_burst_per_ip: self.resync_burst_per_ip,
            ws_compression: match self.ws_compression {
                WsCompression::Off => server::WsCompression::Off,
                WsCompression::Message => server::WsCompression::Message,
                WsCompression::Context => server::WsCompression::Context,
            },
            // (every duration is clamped to a sane range: a deadline far in
            // the future must not overflow the clock)
            header_timeout: Duration::from_secs(self.request_timeout_s.clamp(1, 3600)),
            body_timeout: Duration::from_secs(self.request_timeout_s.clamp(1, 3600)),
            hello_timeout: Duration::from_secs(self.hello_timeout_s.clamp(1, 3600)),
            idle_timeout: Duration::from_secs(self.idle_timeout_s.clamp(1, 86_400)),
            create_burst: self.create_burst,
            create_every_s: self.create_every_s,
            join_burst: self.join_burst,
            join_every_s: self.join_every_s,
            verify_burst: self.verify_burst,
            verify_every_s: self.verify_every_s,
            record_burst: self.record_burst,
            record_every_s: self.record_every_s,
            max_live_tables: self.max_live_tables,
            max_live_tables_per_ip: self.max_live_tables_per_ip,
            evict_after: Duration::from_secs(self.evict_after_s.min(30 * 86_400)),
            abandon_after: never_if_zero(self.abandon_after_h, 3600),
            unstarted_after: never_if_zero(self.unstarted_after_m, 60),
            max_hands: self.max_hands,
            max_actions: self.max_actions.max(1),
            min_bot_delay_ms: self.min_bot_delay_ms,
            bot_threads: self.bot_threads.max(1),
            public_turn_timer_ms: self.public_turn_timer_ms.clamp(1000, 3_600_000),
            fill_after: Duration::from_secs(self.fill_after_s.min(30 * 86_400)),
            revolution_window_ms: self.revolution_window_ms.min(600_000),
            analysis_burst: self.analysis_burst,
            analysis_every_s: self.analysis_every_s,
            analysis_queue: self.analysis_queue.min(1000),
            analysis_threads: self.analysis_threads.clamp(1, 2),
            analysis_search: self.analysis_budget.0,
            analysis_rollouts: self.analysis_budget.1,
            analysis_max_bytes: self.analysis_max_bytes.clamp(64 * 1024, 64 << 20),
            pairing_pool_size: self.pairing_pool_size.clamp(1, 100_000),
            pairing_tickets_per_ip: self.pairing_tickets_per_ip.max(1),
            pairing_tickets: self.pairing_tickets.clamp(1, 1_000_000),
            pairing_heartbeat: Duration::from_secs(self.pairing_heartbeat_s.clamp(1, 3600)),
        }
    }
}

/// `n` units of `unit` seconds, where 0 means never (a hundred years, so a
/// deadline computed from it cannot overflow the clock).
fn never_if_zero(n: u64, unit: u64) -> std::time::Duration {
    const CENTURY: u64 = 100 * 365 * 24 * 3600;
    let secs = if n == 0 {
        CENTURY
    } else {
        n.saturating_mul(unit).min(CENTURY)
    };
    std::time::Duration::from_secs(secs)
}
