//! `ratrace`: play The Big Cheese and The Great Dalmuti in the terminal or
//! the browser (`serve`), simulate bot games, replay and verify records and
//! run scenario files.
//!
//! This file only parses flags and dispatches; the work is in the `cli`
//! library so tests run the same code.

use analysis::{lab, simulate, tournament};
use clap::{Parser, Subcommand};
use cli::{dispatch, play, records, scenario, Error};
use game::{Game, GameOptions, Seat};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `print!` that ends the program quietly when standard output is closed
/// (`ratrace replay FILE | head`) instead of panicking like `print!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

/// `println!` that ends the program quietly when standard output is closed.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

#[derive(Parser)]
#[command(
    name = "ratrace",
    version,
    about = "The Big Cheese and The Great Dalmuti: play, simulate, replay"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of `serve`'s flags does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Play in the terminal against bots.
    Play {
        /// bigcheese or dalmuti.
        game: String,
        /// Number of players (default: 4 for bigcheese, 5 for dalmuti).
        #[arg(long)]
        players: Option<usize>,
        /// A rules option, key=value (repeatable); `ratrace options GAME` lists them.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Seed of all chance (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Bots for the other seats, comma-separated, repeated as needed.
        #[arg(long, default_value = "heuristic", value_delimiter = ',')]
        bots: Vec<String>,
        /// Your seat.
        #[arg(long, default_value = "P1")]
        seat: Seat,
        /// Where to save the game record (default: games/GAME-SEED.json with
        /// --seed, else games/GAME-TIME.json).
        #[arg(long)]
        record: Option<PathBuf>,
        /// Milliseconds a bot program (`cmd:COMMAND`) has per decision;
        /// docs/bot-protocol.md.
        #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        bot_time: u64,
    },
    /// Play many bot games and report wins per seat and per bot.
    Simulate {
        /// bigcheese or dalmuti.
        game: String,
        /// Number of games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Number of players.
        #[arg(long)]
        players: Option<usize>,
        /// Bots by seat, comma-separated, repeated as needed.
        #[arg(long, default_value = "random", value_delimiter = ',')]
        bots: Vec<String>,
        /// A rules option, key=value (repeatable).
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Seed of the run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Stop a game with no winner after this many actions (B17).
        #[arg(long, default_value_t = 100_000)]
        max_actions: u64,
        /// Move the bots one seat along each game.
        #[arg(long)]
        rotate: bool,
        /// Milliseconds a bot program (`cmd:COMMAND`) has per decision;
        /// docs/bot-protocol.md.
        #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        bot_time: u64,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Rate bots over duplicate deals: a candidate against a field, or a
    /// round robin of several bots, with paired differences, an optional
    /// SPRT and Plackett–Luce ratings; resumable with --out.
    Tournament {
        /// bigcheese or dalmuti.
        game: String,
        /// The bot under test (one seat; the field takes the others).
        #[arg(long, conflicts_with = "bots")]
        candidate: Option<String>,
        /// The field's bot (default: the game's default opponent).
        #[arg(long, requires = "candidate")]
        field: Option<String>,
        /// Round robin: every ordered pair A,B plays one A vs players-1 B.
        /// With --panel: the ladder's levels, weakest first (default: the
        /// game's ladder).
        #[arg(long, value_delimiter = ',')]
        bots: Vec<String>,
        /// Rate the ladder against the sparring panel: each level alone
        /// against players-1 of the level below and of each panel bot, and
        /// each panel bot alone against players-1 of the --panel-against
        /// levels; the report gives every level's worst case.
        #[arg(long, conflicts_with = "candidate")]
        panel: bool,
        /// With --panel: only these panel bots (default: the whole panel).
        #[arg(long, value_delimiter = ',', requires = "panel")]
        panel_bots: Vec<String>,
        /// With --panel: the levels each panel bot is tried against alone
        /// (default: strong, when it is a level).
        #[arg(long, value_delimiter = ',', requires = "panel")]
        panel_against: Vec<String>,
        /// Number of players.
        #[arg(long)]
        players: Option<usize>,
        /// A rules option, key=value (repeatable).
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Deals (default 100); each is played by every lineup in every seat
        /// rotation.
        #[arg(long, conflicts_with = "games")]
        deals: Option<u64>,
        /// Games instead of deals (rounded up to whole deals).
        #[arg(long)]
        games: Option<u64>,
        /// Seed of the tournament.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Stop a game with no winner after this many actions (B17).
        #[arg(long, default_value_t = 100_000)]
        max_actions: u64,
        /// Sequential test on the candidate's first-place rate: p0,p1 or
        /// p0,p1,alpha,beta (e.g. 0.20,0.24); stops once decided.
        #[arg(long, value_name = "P0,P1[,ALPHA,BETA]")]
        sprt: Option<String>,
        /// Folder for the checkpoint (checkpoint.jsonl) and the reports
        /// (tournament.json, tournament.md); a rerun resumes it.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Require a checkpoint in --out to resume.
        #[arg(long, requires = "out", conflicts_with = "fresh")]
        resume: bool,
        /// Replace the checkpoint in --out instead of resuming it.
        #[arg(long, requires = "out")]
        fresh: bool,
        /// Milliseconds a bot program (`cmd:COMMAND`) has per decision;
        /// docs/bot-protocol.md.
        #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        bot_time: u64,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Compare rules variants side by side: seat advantage, game length,
    /// skill and luck; writes DIR/report.html (inline SVG plots) and
    /// DIR/report.md.
    Lab {
        /// bigcheese or dalmuti.
        game: String,
        /// A variant, NAME=key=value,key=value (repeatable); `players=N`
        /// sets its table size. Dalmuti variants start from hands=1.
        #[arg(long = "variant", value_name = "NAME=K=V,...")]
        variants: Vec<String>,
        /// A preset comparing the rulebook's variants (repeatable):
        /// bigcheese dice|exact|specials, dalmuti taxes|settling|deck.
        #[arg(long = "preset", value_name = "NAME")]
        presets: Vec<String>,
        /// Players for variants that do not say (default: the game's).
        #[arg(long)]
        players: Option<usize>,
        /// A rules option for every variant, key=value (repeatable).
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Deals per variant and study (a study plays players x deals games).
        #[arg(long, default_value_t = 1000)]
        deals: u64,
        /// Seed of the run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores); the report does not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// WEAK,STRONG bots (default: the weakest and the strongest non-search bot of the game's ladder).
        #[arg(long, value_delimiter = ',', value_name = "WEAK,STRONG")]
        bots: Vec<String>,
        /// Stop a game with no winner after this many actions (B17).
        #[arg(long, default_value_t = 100_000)]
        max_actions: u64,
        /// Where to write the report.
        #[arg(long, default_value = "lab")]
        out: PathBuf,
    },
    /// Check a bot program against the bot protocol (docs/bot-protocol.md):
    /// it plays both games, every player count and a spread of options
    /// against heuristic bots; the report gives the handshake, every
    /// strike with what to fix, answer times and the exit after `quit`.
    /// Exits 0 if the bot conforms, 1 if not.
    BotCheck {
        /// The bot's command, run by /bin/sh -c (e.g. "python3 my_bot.py").
        command: String,
        /// Games per configuration (game, players, options).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        games: u64,
        /// Seed of the run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Milliseconds the bot has per decision;
        /// docs/bot-protocol.md.
        #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        bot_time: u64,
        /// Configurations played at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Print a readable play-by-play of a game record.
    Replay {
        /// The record (JSON).
        file: PathBuf,
        /// Show every seat's hidden cards even if the game is not over.
        #[arg(long)]
        reveal: bool,
    },
    /// Judge every decision of a finished game from the deciding seat's own
    /// view (the search bot's sampling, never the hidden cards): the value
    /// of the chosen and of the best action, the loss, a label, a summary
    /// per player and the turning points (docs/analysis.md). With --ladder
    /// GAME instead: play bot games of every ladder level and check that
    /// the mean loss ranks them.
    Analyze {
        /// The record (JSON), as `ratrace play` and the server write it.
        #[arg(required_unless_present = "ladder")]
        record: Option<PathBuf>,
        /// Print the analysis (or the ladder report) as JSON.
        #[arg(long)]
        json: bool,
        /// Search iterations per decision that pick the candidates
        /// (default: the game's, see docs/analysis.md).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        search: Option<u32>,
        /// Paired rollouts per candidate: more is slower and less noisy
        /// (default: the game's).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        playouts: Option<u32>,
        /// How many of the search's best actions are compared with the
        /// chosen one.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=50))]
        candidates: Option<u64>,
        /// Worker threads (default: all cores); the result does not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Analyse a game that is not over (its analysis shows every seat's
        /// cards through their best actions).
        #[arg(long)]
        unfinished: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Check the judge on the bot ladder of GAME instead of analysing a
        /// record: --games bot games, mean loss per decision of each level
        /// with 95% intervals.
        #[arg(long, value_name = "GAME", conflicts_with_all = ["record", "unfinished"])]
        ladder: Option<String>,
        /// Ladder: games to play and analyse.
        #[arg(long, default_value_t = 20, requires = "ladder")]
        games: u64,
        /// Ladder: players per game (default: the game's).
        #[arg(long, requires = "ladder")]
        players: Option<usize>,
        /// Ladder: a rules option, key=value (repeatable); Dalmuti starts
        /// from hands=1.
        #[arg(long = "option", value_name = "KEY=VALUE", requires = "ladder")]
        options: Vec<String>,
        /// Ladder: the bots, weakest first (default: the game's ladder).
        #[arg(long, value_delimiter = ',', requires = "ladder")]
        bots: Vec<String>,
        /// Ladder: seed of the run.
        #[arg(long, default_value_t = 0, requires = "ladder")]
        seed: u64,
        /// Ladder: also write every game's record into this folder
        /// (ladder-N.json), to analyse or replay one.
        #[arg(long, value_name = "DIR", requires = "ladder")]
        save: Option<PathBuf>,
        /// Ladder: one level per game against this bot in every other seat
        /// (rotating the level's seat), instead of --tables.
        #[arg(long, value_name = "BOT", requires = "ladder")]
        field: Option<String>,
        /// Ladder: who sits at a table: `alone` (every seat one level, the
        /// levels taking turns by game) or `mixed` (every level at every
        /// table, rotating seats); docs/analysis.md says why alone.
        #[arg(long, value_enum, default_value_t = Tables::Alone, requires = "ladder", conflicts_with = "field")]
        tables: Tables,
    },
    /// Run scenario files (or folders of *.scen files).
    Scenario {
        /// Files or folders.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Serve the game in the browser: lobby, live tables, bots, replays.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The database: a SQLite file (a path or `sqlite:PATH`, created if
        /// missing, readable by its owner only) or PostgreSQL
        /// (`postgres://USER:PASSWORD@HOST/DB`).
        #[arg(long, default_value = "ratrace.db")]
        db: String,
        #[command(flatten)]
        cluster: ClusterArgs,
        #[command(flatten)]
        limits: ServeLimits,
        #[command(flatten)]
        bots: ServeBots,
        #[command(flatten)]
        ops: ServeOps,
    },
    /// Manage the database.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Check a finished game's record: the seed against what the server
    /// published (its hash, or the fair-deal commitment and each player's
    /// contribution), every shuffle, deal and roll recomputed, the game
    /// over, and every field of the outcome. Exit status: 0 verified; 1
    /// failed (the first mismatch is printed); 3 unverifiable (the game
    /// replays and matches, but the record carries no commitment to its
    /// seed, as a local game's: see --allow-uncommitted); 2 the record
    /// could not be read.
    Verify {
        /// The record (JSON), e.g. downloaded from a finished table.
        record: PathBuf,
        /// Exit 0 for a record with no commitment that replays and
        /// matches (a game of `ratrace play`): it proves the game legal
        /// and its outcome, not that its seed was fixed beforehand.
        #[arg(long)]
        allow_uncommitted: bool,
    },
    /// List a game's rules options and their defaults.
    Options {
        /// bigcheese or dalmuti.
        game: String,
    },
}

/// `ratrace db` subcommands.
#[derive(Subcommand)]
enum DbCommand {
    /// Copy every table, seat and action from one database to another
    /// (e.g. a SQLite file into PostgreSQL), then check every table reads
    /// back equal and every finished game's record verifies on the
    /// target. Safe to run again: tables already copied are skipped.
    Copy {
        /// The source: `sqlite:PATH`, a path, or `postgres://…`.
        #[arg(long)]
        from: String,
        /// The target (its schema is created or brought up to date).
        #[arg(long)]
        to: String,
    },
}

/// `ratrace serve`'s place in a site of several processes (docs/deploy.md).
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Several processes, one site")]
struct ClusterArgs {
    /// Join a site of several processes on one database: listen here for
    /// the other processes (requests for tables this process owns; keep it
    /// on a private network). Without it the process serves alone.
    #[arg(long, value_name = "ADDR")]
    cluster_listen: Option<std::net::SocketAddr>,
    /// The URL the other processes reach the cluster listener at
    /// (default: http://ADDR of --cluster-listen; needed if ADDR is
    /// 0.0.0.0).
    #[arg(long, value_name = "URL")]
    advertise: Option<String>,
    /// Milliseconds a process may go without a heartbeat before the others
    /// take its tables over.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(200..=600_000))]
    lease_ms: u64,
    /// A reverse proxy or load balancer in front of this process
    /// (repeatable): its `X-Forwarded-For` names the client that quotas
    /// count. Behind one, also set --max-connections-per-ip 0 (every
    /// connection comes from the proxy).
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<std::net::IpAddr>,
}

/// `ratrace serve`'s bot programs (docs/bot-protocol.md): levels in the
/// lobby after the ladder.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Bot programs")]
struct ServeBots {
    /// Offer a bot program as a level in the lobby, after the ladder
    /// (repeatable): NAME (1 to 24 of a-z, 0-9, _ and -, not a built-in
    /// bot's) is what players choose, COMMAND (run by /bin/sh -c, one
    /// process per seat for the table's game) speaks ratrace-bot/1.
    /// Players never give a command.
    #[arg(long = "bot", value_name = "NAME=COMMAND", value_parser = server::extbots::Program::parse)]
    bots: Vec<server::extbots::Program>,
    /// Milliseconds a bot program may take for one decision (after that
    /// the heuristic bot plays it, and the bot gets a strike).
    #[arg(long, default_value_t = server::extbots::DEFAULT_MOVE_MS, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    bot_time: u64,
    /// Bot-program processes alive at once, server-wide. A program takes
    /// its slot when its seat first decides in a game under way and gives
    /// it back when the game ends or the table leaves memory; without a
    /// free slot the heuristic bot plays the seat until one is free. A
    /// table that needs more than are free now is refused (busy). At most
    /// 10,000.
    #[arg(long, default_value_t = server::extbots::DEFAULT_PROCESSES as u64, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    bot_processes: u64,
    /// Bot-program processes alive at once for the tables one client
    /// address made (0 = only the server-wide cap); a table with more
    /// programs is refused (busy).
    #[arg(long, default_value_t = server::extbots::DEFAULT_PROCESSES_PER_IP as u64, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    bot_processes_per_ip: u64,
    /// Memory a bot program may use, MiB (RLIMIT_DATA: heap and private
    /// mappings).
    ///
    /// Bot programs are strangers' code run as the server's user, so each
    /// is confined: an environment of its own (PATH and LANG only; HOME,
    /// TMPDIR and its working folder a private one, removed after it), no
    /// descriptor but its pipes, limits on memory, CPU time and tasks
    /// (RLIMIT_NPROC: not applied when the server runs as root), and,
    /// where the kernel has Landlock (Linux 5.13+), no access to /proc or
    /// to the database's folder and no writing outside its own. Without
    /// Landlock (logged at start) a program can read every file the
    /// server's user can, the database included: run the server as a user
    /// of its own then. Give commands absolute paths, outside the
    /// database's folder. docs/server.md, "Bot programs".
    #[arg(long, default_value_t = extbot::sandbox::MEMORY >> 20, value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    bot_memory_mb: u64,
    /// CPU seconds a bot program may use over its whole life (then it is
    /// killed: a strike, and the heuristic bot plays the seat).
    #[arg(long, default_value_t = extbot::sandbox::CPU_SECONDS, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    bot_cpu_s: u64,
}

/// `ratrace serve`'s logs and `/metrics` (docs/server.md, "Operations").
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Operations")]
struct ServeOps {
    /// Log lines as text, or as one JSON object per line (for a log
    /// collector).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// What to log: a level (error, warn, info, debug, trace) or
    /// `target=level` pairs separated by commas (`info,server::table=debug`).
    /// Default: $RUST_LOG in that form, else info.
    #[arg(long)]
    log_level: Option<String>,
    /// Serve /metrics only with `Authorization: Bearer TOKEN` (default:
    /// $RATRACE_METRICS_TOKEN, which stays out of the process list; open
    /// without either). /metrics has counts only, never table ids or names.
    #[arg(long)]
    metrics_token: Option<String>,
}

/// `ratrace analyze --ladder`'s tables.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Tables {
    /// Every seat of a game is one level; the levels take turns by game.
    Alone,
    /// Every level at every table, the seats rotating by game.
    Mixed,
}

/// How `ratrace serve` writes its log lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// `ratrace serve`'s limits: every resource an outside client can use is
/// bounded (docs/server.md, "Limits"); each default is
/// [`server::Limits::default`].
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits")]
struct ServeLimits {
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
}

/// `SEARCH,ROLLOUTS` for --analysis-budget.
fn parse_budget(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| "expected SEARCH,ROLLOUTS (such as 200,64)".to_string())?;
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a whole number"))
    };
    Ok((num(a)?, num(b)?))
}

impl ServeLimits {
    fn limits(&self) -> server::Limits {
        use std::time::Duration;
        server::Limits {
            rate_limit: self.rate_limit,
            rate_close: self.rate_close.max(self.rate_limit),
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            send_buffer: self.send_buffer.clamp(4096, 16 << 20),
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
        }
    }
}

/// The limits of bot programs with `--bot-time MS` per decision.
fn bot_limits(ms: u64) -> extbot::Limits {
    extbot::Limits {
        move_time: std::time::Duration::from_millis(ms),
        ..extbot::Limits::default()
    }
}

fn parse_options<G: Game>(pairs: &[String]) -> Result<G::Options, Error> {
    let mut o = <G as Game>::Options::default();
    for p in pairs {
        o.set_pair(p)?;
    }
    Ok(o)
}

fn players<G: Game>(p: Option<usize>) -> Result<usize, Error> {
    Ok(analysis::players::<G>(p)?)
}

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

fn run_scenarios(paths: &[PathBuf]) -> Result<bool, Error> {
    let files = scenario_files(paths)?;
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

/// `games/GAME-NAME.json`, numbered if taken. `name` is the seed when the
/// person chose it, else the start time: a file named after a secret seed
/// would give it away.
fn default_record(game: &str, name: &str) -> PathBuf {
    let dir = Path::new("games");
    let mut path = dir.join(format!("{game}-{name}.json"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("{game}-{name}-{n}.json"));
    }
    path
}

fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        % 1_000_000_000
}

/// Prints a run's result: as JSON with `--json`, else as its text form.
fn print_result<T: serde::Serialize + std::fmt::Display>(
    result: &T,
    json: bool,
) -> Result<(), Error> {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(result).map_err(Error::Json)?
        );
    } else {
        outln!("{result}");
    }
    Ok(())
}

fn run(cli: Cli) -> Result<bool, Error> {
    match cli.command {
        Command::Play {
            game,
            players: p,
            options,
            seed,
            bots,
            seat,
            record,
            bot_time,
        } => {
            dispatch!(game.as_str(), G => {
                let file_name = seed.map_or_else(|| unix_time().to_string(), |s| s.to_string());
                let seed = seed.unwrap_or_else(clock_seed);
                let cfg = play::Config::<G> {
                    players: players::<G>(p)?,
                    options: parse_options::<G>(&options)?,
                    seed,
                    bots,
                    human: seat,
                    record_path: record.unwrap_or_else(|| default_record(&game, &file_name)),
                    limits: bot_limits(bot_time),
                };
                // A person at a terminal gets line editing and history;
                // piped moves (scripts, tests) are read line by line.
                let stdin = std::io::stdin();
                if stdin.is_terminal() && std::io::stdout().is_terminal() {
                    let editor = cli::prompt::Editor::new()?;
                    play::play_with(&cfg, editor, std::io::stdout())?;
                } else {
                    play::play(&cfg, stdin.lock(), std::io::stdout())?;
                }
                Ok(true)
            }, _ => Err(Error::unknown_game(&game)))
        }
        Command::Simulate {
            game,
            games,
            players: p,
            bots,
            options,
            seed,
            threads,
            max_actions,
            rotate,
            bot_time,
            json,
        } => {
            dispatch!(game.as_str(), G => {
                let cfg = simulate::Config::<G> {
                    games,
                    players: players::<G>(p)?,
                    bots,
                    options: parse_options::<G>(&options)?,
                    seed,
                    threads: analysis::all_cores_unless(threads),
                    max_actions,
                    rotate,
                    limits: bot_limits(bot_time),
                };
                let summary = simulate::run(&cfg, &*cli::progress(!json && games >= 1000))?;
                print_result(&summary, json)?;
                Ok(true)
            }, _ => Err(Error::unknown_game(&game)))
        }
        Command::Tournament {
            game,
            candidate,
            field,
            bots,
            panel,
            panel_bots,
            panel_against,
            players: p,
            options,
            deals,
            games,
            seed,
            threads,
            max_actions,
            sprt,
            out,
            resume,
            fresh,
            bot_time,
            json,
            quiet,
        } => {
            dispatch!(game.as_str(), G => {
                let mode = match candidate {
                    None if panel => {
                        let levels: Vec<String> = if bots.is_empty() {
                            <G as bots::Roster>::LADDER.iter().map(|s| s.to_string()).collect()
                        } else {
                            bots
                        };
                        let against = if !panel_against.is_empty() {
                            panel_against
                        } else if levels.iter().any(|l| l == "strong") {
                            vec!["strong".to_string()]
                        } else {
                            Vec::new()
                        };
                        tournament::Mode::Panel {
                            levels,
                            panel: if panel_bots.is_empty() {
                                <G as bots::Roster>::PANEL.iter().map(|s| s.to_string()).collect()
                            } else {
                                panel_bots
                            },
                            against,
                        }
                    }
                    Some(candidate) => tournament::Mode::Candidate {
                        candidate,
                        field: field.unwrap_or_else(|| <G as bots::Roster>::BOTS[0].to_string()),
                    },
                    None if !bots.is_empty() => tournament::Mode::RoundRobin { bots },
                    None => return Err(Error::Usage("give --candidate BOT (against --field BOT), --bots A,B,... for a round robin, or --panel".into())),
                };
                let length = match (deals, games) {
                    (_, Some(g)) => tournament::Length::Games(g),
                    (d, None) => tournament::Length::Deals(d.unwrap_or(100)),
                };
                let cfg = tournament::Config::<G> {
                    mode,
                    players: players::<G>(p)?,
                    options: parse_options::<G>(&options)?,
                    length,
                    seed,
                    threads: analysis::all_cores_unless(threads),
                    max_actions,
                    sprt: sprt.map(|s| s.parse()).transpose()?,
                    out,
                    resume: if resume {
                        tournament::Resume::Require
                    } else if fresh {
                        tournament::Resume::Fresh
                    } else {
                        tournament::Resume::Auto
                    },
                    command: std::env::args().collect::<Vec<_>>().join(" "),
                    limits: bot_limits(bot_time),
                };
                let bar = cli::progress(!quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()));
                let report = tournament::run(&cfg, &*bar)?;
                print_result(&report, json)?;
                Ok(true)
            }, _ => Err(Error::unknown_game(&game)))
        }
        Command::Lab {
            game,
            variants,
            presets,
            players: p,
            options,
            deals,
            seed,
            threads,
            bots,
            max_actions,
            out,
        } => {
            dispatch!(game.as_str(), G => {
                let cfg = lab::configure::<G>(&game, lab::Args {
                    variants, presets, players: p, options, deals, seed,
                    threads: analysis::all_cores_unless(threads), bots, max_actions, out,
                })?;
                lab::report::check_out_dir(&cfg.out)?;
                let report = lab::run(&cfg, &cli::Bar::default())?;
                lab::report::write(&report, &cfg.out)?;
                for v in &report.variants {
                    outln!(
                        "{:<16} seat spread {:5.1} pts (p {:.3})  mean length {:7.1}  skill index {:.3}  luck share {:4.1}%",
                        v.name,
                        100.0 * (v.seats.rates.iter().map(|r| r.value).fold(0.0, f64::max)
                            - v.seats.rates.iter().map(|r| r.value).fold(1.0, f64::min)),
                        v.seats.chi_square.p_value,
                        v.lengths.summary.mean,
                        v.skill.index.value,
                        100.0 * v.luck.luck.value,
                    );
                }
                outln!(
                    "{} games in {:.1} s; wrote {} and {}",
                    report.games,
                    report.seconds,
                    cfg.out.join("report.html").display(),
                    cfg.out.join("report.md").display()
                );
                Ok(true)
            }, _ => Err(Error::unknown_game(&game)))
        }
        Command::Replay { file, reveal } => {
            let record = records::read(&file)?;
            let text = records::play_by_play(&record, reveal).map_err(Error::in_file(&file))?;
            out!("{text}");
            Ok(true)
        }
        Command::Analyze {
            record,
            json,
            search,
            playouts,
            candidates,
            threads,
            unfinished,
            quiet,
            ladder,
            games,
            players: p,
            options,
            bots,
            seed,
            save,
            field,
            tables,
        } => {
            let threads = analysis::all_cores_unless(threads);
            let budget = |mut c: analysis::analyze::Config| {
                if let Some(s) = search {
                    c.search = s;
                }
                if let Some(r) = playouts {
                    c.rollouts = r;
                }
                if let Some(k) = candidates {
                    c.candidates = k as usize;
                }
                c.threads = threads;
                c.unfinished = unfinished;
                c
            };
            if let Some(game) = ladder {
                return dispatch!(game.as_str(), G => {
                    let mut o = <G as Game>::Options::default();
                    if G::NAME == "dalmuti" {
                        o.set_pair("hands=1")?;
                    }
                    for pair in &options {
                        o.set_pair(pair)?;
                    }
                    let cfg = analysis::analyze::ladder::Config::<G> {
                        games,
                        players: players::<G>(p)?,
                        options: o,
                        levels: if bots.is_empty() {
                            <G as bots::Roster>::LADDER.iter().map(|s| s.to_string()).collect()
                        } else {
                            bots.iter().map(|b| b.trim().to_string()).collect()
                        },
                        seed,
                        threads,
                        judge: analysis::analyze::Config { threads: 1, ..budget(analysis::analyze::Config::for_game::<G>()) },
                        max_actions: 100_000,
                        keep_records: save.is_some(),
                        tables: match (&field, tables) {
                            (Some(f), _) => analysis::analyze::ladder::Tables::Field(f.clone()),
                            (None, Tables::Alone) => analysis::analyze::ladder::Tables::Alone,
                            (None, Tables::Mixed) => analysis::analyze::ladder::Tables::Mixed,
                        },
                    };
                    let bar = cli::progress(!quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()));
                    let report = analysis::analyze::ladder::run(&cfg, &*bar)?;
                    if let Some(dir) = &save {
                        for (g, r) in report.records.iter().enumerate() {
                            records::write(&dir.join(format!("ladder-{g}.json")), r)?;
                        }
                    }
                    print_result(&report, json)?;
                    Ok(true)
                }, _ => Err(Error::unknown_game(&game)));
            }
            let Some(file) = record else {
                return Err(Error::Usage("give a record file, or --ladder GAME".into()));
            };
            let r = records::read(&file)?;
            let a =
                cli::analyze::analyze_record(&r, budget, !quiet).map_err(Error::in_file(&file))?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&a).map_err(Error::Json)?);
            } else {
                out!("{}", cli::analyze::text(&a));
            }
            Ok(true)
        }
        Command::BotCheck {
            command,
            games,
            seed,
            bot_time,
            threads,
            json,
            quiet,
        } => {
            let cfg = analysis::botcheck::Config {
                command,
                games,
                seed,
                limits: bot_limits(bot_time),
                threads: analysis::all_cores_unless(threads),
            };
            let bar = cli::progress(!json && !quiet && std::io::stderr().is_terminal());
            let report = analysis::botcheck::run(&cfg, &*bar)?;
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&report).map_err(Error::Json)?
                );
            } else {
                out!("{}", cli::botcheck::text(&report));
            }
            Ok(report.conforms)
        }
        Command::Scenario { files } => run_scenarios(&files),
        Command::Serve {
            addr,
            db,
            cluster,
            limits,
            bots,
            ops,
        } => serve(addr, &db, &cluster, limits.limits(), bots, ops),
        Command::Db {
            command: DbCommand::Copy { from, to },
        } => db_copy(&from, &to),
        Command::Verify {
            record,
            allow_uncommitted,
        } => {
            use registry::verify::Verdict;
            let r = records::read(&record)?;
            let report = registry::verify::verify(&r);
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
                Verdict::Unverifiable if allow_uncommitted => {
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
        Command::Options { game } => {
            dispatch!(game.as_str(), G => {
                outln!("{} options (ratrace play {} --option KEY=VALUE):", G::NAME, G::NAME);
                for o in <<G as Game>::Options as GameOptions>::info() {
                    outln!("  {:<18} default {:<10} values {:<28} {}", o.key, o.default, o.values, o.help);
                }
                Ok(true)
            }, _ => Err(Error::unknown_game(&game)))
        }
    }
}

/// Logs to standard output, as text or JSON lines, filtered by `level`
/// (`target=level` pairs, the subset of `RUST_LOG` that needs no regular
/// expressions: tracing-subscriber's `env-filter` would add regex-automata
/// to the build).
fn init_logs(format: LogFormat, level: Option<&str>) -> Result<(), Error> {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let directives = level.map(str::to_string).or(from_env);
    let filter: tracing_subscriber::filter::Targets = directives
        .as_deref()
        .unwrap_or("info")
        .parse()
        .map_err(|e| Error::Server(format!("--log-level / RUST_LOG: {e}")))?;
    // The builder's own cap (info) is lifted: `filter` decides.
    let logs = tracing_subscriber::fmt()
        .with_target(false)
        .with_max_level(tracing::Level::TRACE);
    let done = match format {
        LogFormat::Text => logs.finish().with(filter).try_init(),
        LogFormat::Json => logs
            .json()
            .with_ansi(false)
            .finish()
            .with(filter)
            .try_init(),
    };
    done.map_err(|e| Error::Server(e.to_string()))
}

/// Resolves when the process is told to stop: SIGTERM (a service
/// manager, an orchestrator) or Ctrl-C.
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = term.recv() => tracing::info!("SIGTERM: stopping"),
                _ = tokio::signal::ctrl_c() => tracing::info!("interrupted: stopping"),
            }
        }
        Err(e) => {
            tracing::warn!("no SIGTERM handler ({e}): stopping on Ctrl-C only");
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// `ratrace serve`: logs to standard output, the database, then serve
/// until SIGTERM or Ctrl-C, and drain (docs/server.md, "Operations").
fn serve(
    addr: std::net::SocketAddr,
    db: &str,
    cluster: &ClusterArgs,
    mut limits: server::Limits,
    bots: ServeBots,
    ops: ServeOps,
) -> Result<bool, Error> {
    init_logs(ops.log_format, ops.log_level.as_deref())?;
    let offered = !bots.bots.is_empty();
    let sandbox = server::extbots::sandbox_for(db, bots.bot_memory_mb << 20, bots.bot_cpu_s);
    let bots =
        server::extbots::ExternalBots::new(bots.bots, bots.bot_time, bots.bot_processes as usize)
            .map_err(|e| Error::Server(e.to_string()))?
            .per_ip(bots.bot_processes_per_ip as usize)
            .with_sandbox(sandbox.clone());
    if offered {
        if extbot::sandbox::landlock_enforced() {
            // A program in the database's folder could not read itself.
            for folder in &sandbox.deny {
                for p in bots.programs() {
                    if let Some(path) = server::extbots::paths_within(&p.command, folder).first() {
                        return Err(Error::Server(format!(
                            "--bot {}: {path} is in the database's folder ({}), which bot \
                             programs may not read: move the program, or the database (--db)",
                            p.name,
                            folder.display()
                        )));
                    }
                }
            }
        } else {
            tracing::warn!(
                "Landlock is not available on this kernel: bot programs can read every file \
                 the server's user can (their environment, limits and private folder still apply)"
            );
        }
    }
    let token = ops
        .metrics_token
        .or_else(|| std::env::var("RATRACE_METRICS_TOKEN").ok());
    if token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(Error::Server("--metrics-token: empty".to_string()));
    }
    // The connection cap must fit the process's descriptors, or accept
    // fails before the cap ever refuses anyone.
    if let Some(files) = open_file_limit() {
        let fit = files.saturating_sub(64).max(16);
        if limits.max_connections > fit {
            tracing::warn!(
                "--max-connections {} lowered to {fit}: this process may open {files} files (ulimit -n)",
                limits.max_connections
            );
            limits.max_connections = fit;
        }
    }
    let runtime = tokio::runtime::Runtime::new().map_err(|e| Error::Server(e.to_string()))?;
    let served = runtime.block_on(async {
        let where_ = server::store::redact(db);
        let store = server::store::open(db)
            .await
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        let backend = store.backend();
        alone_or_together(&store, cluster, &where_).await?;
        let (site, inner) = match cluster.cluster_listen {
            None => (server::cluster::Cluster::standalone(), None),
            Some(at) => {
                let inner = tokio::net::TcpListener::bind(at)
                    .await
                    .map_err(|e| Error::Server(format!("--cluster-listen {at}: {e}")))?;
                let bound = inner.local_addr().map_err(|e| Error::Server(e.to_string()))?;
                let url = match &cluster.advertise {
                    Some(url) => url.clone(),
                    None if bound.ip().is_unspecified() => {
                        return Err(Error::Server(format!(
                            "--cluster-listen {at} is every address: say where the other \
                             processes reach this one with --advertise http://HOST:PORT"
                        )))
                    }
                    None => format!("http://{bound}"),
                };
                let probe = std::sync::Arc::clone(&store);
                let secret = tokio::task::spawn_blocking(move || probe.site_secret())
                    .await
                    .map_err(|e| Error::Server(e.to_string()))?
                    .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
                tracing::info!("cluster listener on http://{bound}, advertised as {url}");
                let site = server::cluster::Cluster::member(
                    server::store::Node {
                        id: server::store::new_node_id(),
                        url,
                    },
                    std::time::Duration::from_millis(cluster.lease_ms),
                    secret,
                );
                (site, Some(inner))
            }
        };
        let node = site.node.id.clone();
        let state = server::AppState::open_cluster(store, limits, site)
            .await
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        if let Some(t) = &token {
            state.require_metrics_token(t.trim());
        }
        state.trust_proxies(cluster.trusted_proxy.clone());
        if offered {
            tracing::info!(
                "bot programs offered as levels: {} (at most {} processes at once)",
                bots.names().join(", "),
                bots.cap()
            );
        }
        state.offer_bots(bots);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Server(format!("{addr}: {e}")))?;
        let local = listener.local_addr().map_err(|e| Error::Server(e.to_string()))?;
        if let Some(inner) = inner {
            tokio::spawn(server::run_cluster(
                inner,
                state.clone(),
                std::future::pending(),
            ));
        }
        tracing::info!(
            "serving on http://{local} (tables in {backend} {where_}, loaded when asked for; process {node})"
        );
        server::run(listener, state, stop_signal())
            .await
            .map_err(|e| Error::Server(e.to_string()))?;
        tracing::info!("stopped");
        Ok::<_, Error>(true)
    });
    // Blocking store calls still running (none after a complete drain)
    // get a moment, not forever.
    // Bot programs get up to a second to quit after their table ends.
    runtime.shutdown_timeout(std::time::Duration::from_secs(if offered { 2 } else { 1 }));
    served
}

/// Refuses to start a process that would fight another for the same
/// database: one alone (no --cluster-listen) while any other process
/// serves it, or any process while one serves it alone (the others cannot
/// forward to it). A process that just died still counts for one lease,
/// so this waits that long before refusing (a restart after a crash goes
/// through).
async fn alone_or_together(
    store: &std::sync::Arc<dyn server::store::Store>,
    cluster: &ClusterArgs,
    where_: &str,
) -> Result<(), Error> {
    let lease = std::time::Duration::from_millis(cluster.lease_ms);
    let give_up = std::time::Instant::now() + lease + std::time::Duration::from_millis(500);
    loop {
        let probe = std::sync::Arc::clone(store);
        let live = tokio::task::spawn_blocking(move || probe.live_nodes(lease))
            .await
            .map_err(|e| Error::Server(e.to_string()))?
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        let rival = live
            .iter()
            .find(|n| cluster.cluster_listen.is_none() || n.url.is_empty());
        let Some(rival) = rival else {
            return Ok(());
        };
        if std::time::Instant::now() >= give_up {
            return Err(Error::Server(if rival.url.is_empty() {
                format!(
                    "{where_}: another ratrace serve (process {}) serves this database alone: \
                     stop it, or start every process with --cluster-listen (docs/deploy.md)",
                    rival.id
                )
            } else {
                format!(
                    "{where_}: processes of a site serve this database (one at {}): \
                     start this one with --cluster-listen too (docs/deploy.md)",
                    rival.url
                )
            }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// `ratrace db copy`: every table from `from` into `to`, with a progress
/// bar, then the figures.
fn db_copy(from: &str, to: &str) -> Result<bool, Error> {
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

/// The soft limit on open files (Linux: /proc/self/limits), if known.
fn open_file_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Error::Unverifiable(why)) => {
            eprintln!("{why}");
            ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
