//! The flags of `ratrace` and of each of its commands, as clap parses
//! them; kept apart from the commands' code (`crate::cmd`) so that what a
//! person types and what a command does can each be read alone. The doc
//! comments are the `--help` text, word for word.
//!
//! Every command's flags are one struct, its variant of [`Command`]; the
//! many flags of `serve` are in [`serve`].

pub(crate) mod serve;

use clap::{Parser, Subcommand};
use game::Seat;
use std::path::PathBuf;

pub(crate) use serve::ServeArgs;

#[derive(Parser)]
#[command(
    name = "ratrace",
    version,
    about = "The Big Cheese and The Great Dalmuti: play, simulate, replay"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

// Parsed once per run: the size of `serve`'s flags does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub(crate) enum Command {
    /// Play in the terminal against bots.
    Play(PlayArgs),
    /// Play many bot games and report wins per seat and per bot.
    Simulate(SimulateArgs),
    /// Rate bots over duplicate deals: a candidate against a field, or a
    /// round robin of several bots, with paired differences, an optional
    /// SPRT and Plackett–Luce ratings; resumable with --out.
    Tournament(TournamentArgs),
    /// Compare rules variants side by side: seat advantage, game length,
    /// skill and luck; writes DIR/report.html (inline SVG plots) and
    /// DIR/report.md. `lab duplicate-spread`: duplicate against plain
    /// bot tournaments, how much the standings spread.
    Lab(LabArgs),
    /// Check a bot program against the bot protocol (docs/bot-protocol.md):
    /// it plays both games, every player count and a spread of options
    /// against heuristic bots; the report gives the handshake, every
    /// strike with what to fix, answer times and the exit after `quit`.
    /// Exits 0 if the bot conforms, 1 if not.
    BotCheck(BotCheckArgs),
    /// Print a readable play-by-play of a game record.
    Replay(ReplayArgs),
    /// Judge every decision of a finished game from the deciding seat's own
    /// view (the search bot's sampling, never the hidden cards): the value
    /// of the chosen and of the best action, the loss, a label, a summary
    /// per player and the turning points (docs/analysis.md). With --ladder
    /// GAME instead: play bot games of every ladder level and check that
    /// the mean loss ranks them.
    Analyze(AnalyzeArgs),
    /// Run scenario files (or folders of *.scen files).
    Scenario(ScenarioArgs),
    /// Serve the game in the browser: lobby, live tables, bots, replays.
    Serve(ServeArgs),
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
    Verify(VerifyArgs),
    /// List a game's rules options and their defaults.
    Options(OptionsArgs),
    /// Write the client for play in the browser with no server, as static
    /// files any static file server serves: the lobby's "Play offline
    /// against bots", the table page, the engine in WebAssembly, the
    /// service worker (docs/web.md, "A static site").
    Site(SiteArgs),
}

/// `ratrace db` subcommands.
#[derive(Subcommand)]
pub(crate) enum DbCommand {
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

/// `ratrace play`'s flags.
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// bigcheese or dalmuti.
    pub(crate) game: String,
    /// Number of players (default: 4 for bigcheese, 5 for dalmuti).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rules option, key=value (repeatable); `ratrace options GAME` lists them.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub(crate) options: Vec<String>,
    /// Seed of all chance (default: from the clock).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Bots for the other seats, comma-separated, repeated as needed (a
    /// comma in a `cmd:COMMAND` stays in the command unless a bot name
    /// follows it).
    #[arg(long, default_value = "heuristic")]
    pub(crate) bots: Vec<String>,
    /// Your seat, or `none` to watch the bots play every seat.
    #[arg(long, default_value = "P1", value_parser = seat_or_none)]
    pub(crate) seat: SeatOrNone,
    /// With --seat none: milliseconds between actions (0: no pause).
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub(crate) pace: u64,
    /// Where to save the game record (default: games/GAME-SEED.json with
    /// --seed, else games/GAME-TIME.json).
    #[arg(long)]
    pub(crate) record: Option<PathBuf>,
    /// How bot programs are run.
    #[command(flatten)]
    pub(crate) programs: ProgramArgs,
}

/// `--seat`: a seat (`P2`), or `none` for no person at the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SeatOrNone(pub(crate) Option<Seat>);

fn seat_or_none(text: &str) -> Result<SeatOrNone, game::SeatParseError> {
    if text.eq_ignore_ascii_case("none") {
        Ok(SeatOrNone(None))
    } else {
        text.parse().map(|s| SeatOrNone(Some(s)))
    }
}

/// How bot programs (`cmd:COMMAND`) are run, shared by play, simulate,
/// tournament and bot-check.
#[derive(clap::Args)]
pub(crate) struct ProgramArgs {
    /// Milliseconds a bot program (`cmd:COMMAND`) has per decision;
    /// docs/bot-protocol.md.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub(crate) bot_time: u64,
    /// Keep each bot program's stderr, per seat and game, in DIR
    /// (GAME-ID-SEAT.stderr.log, at most 1 MiB each).
    #[arg(long, value_name = "DIR")]
    pub(crate) bot_log: Option<PathBuf>,
}

/// How a command prints its result, shared by simulate, tournament and
/// bot-check.
#[derive(clap::Args)]
pub(crate) struct OutputArgs {
    /// Print the result (the report) as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `--save-games DIR` and its sample, shared by simulate, tournament and
/// lab.
#[derive(clap::Args)]
pub(crate) struct SaveArgs {
    /// Save games as records in DIR (GAME-ID.json), which `replay`,
    /// `verify` and `analyze` read: every game, unless a sample is given.
    #[arg(long, value_name = "DIR")]
    pub(crate) save_games: Option<PathBuf>,
    /// With --save-games: only every Nth game (the 1st, the N+1th, ...).
    #[arg(long, value_name = "N", requires = "save_games", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) save_every: Option<u64>,
}

impl SaveArgs {
    /// The run's [`analysis::records::SaveGames`], `losses` only for a
    /// tournament's candidate.
    pub(crate) fn sample(
        &self,
        losses: bool,
    ) -> Result<Option<analysis::records::SaveGames>, analysis::Error> {
        self.save_games
            .clone()
            .map(|dir| analysis::records::SaveGames::new(dir, self.save_every, losses))
            .transpose()
    }
}

/// `ratrace simulate`'s flags.
#[derive(clap::Args)]
pub(crate) struct SimulateArgs {
    /// bigcheese or dalmuti.
    pub(crate) game: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub(crate) games: u64,
    /// Number of players.
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// Bots by seat, comma-separated, repeated as needed (a comma in a
    /// `cmd:COMMAND` stays in the command unless a bot name follows it).
    #[arg(long, default_value = "random")]
    pub(crate) bots: Vec<String>,
    /// A rules option, key=value (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub(crate) options: Vec<String>,
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Stop a game with no winner after this many actions (B17).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) max_actions: u64,
    /// Move the bots one seat along each game.
    #[arg(long)]
    pub(crate) rotate: bool,
    /// Records of the games (ids g0, g1, ...).
    #[command(flatten)]
    pub(crate) save: SaveArgs,
    /// How bot programs are run.
    #[command(flatten)]
    pub(crate) programs: ProgramArgs,
    /// How the result is printed.
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// `ratrace tournament`'s flags.
#[derive(clap::Args)]
pub(crate) struct TournamentArgs {
    /// bigcheese or dalmuti.
    pub(crate) game: String,
    /// The bot under test (one seat; the field takes the others).
    #[arg(long, conflicts_with = "bots")]
    pub(crate) candidate: Option<String>,
    /// The field's bot (default: the game's default opponent).
    #[arg(long, requires = "candidate")]
    pub(crate) field: Option<String>,
    /// Round robin: every ordered pair A,B plays one A vs players-1 B.
    /// With --panel: the ladder's levels, weakest first (default: the
    /// game's ladder). A comma in a `cmd:COMMAND` stays in the command
    /// unless a bot name follows it.
    #[arg(long)]
    pub(crate) bots: Vec<String>,
    /// Rate the ladder against the sparring panel: each level alone
    /// against players-1 of the level below and of each panel bot, and
    /// each panel bot alone against players-1 of the --panel-against
    /// levels; the report gives every level's worst case.
    #[arg(long, conflicts_with = "candidate")]
    pub(crate) panel: bool,
    /// With --panel: only these panel bots (default: the whole panel).
    #[arg(long, value_delimiter = ',', requires = "panel")]
    pub(crate) panel_bots: Vec<String>,
    /// With --panel: the levels each panel bot is tried against alone
    /// (default: strong, when it is a level).
    #[arg(long, value_delimiter = ',', requires = "panel")]
    pub(crate) panel_against: Vec<String>,
    /// Number of players.
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rules option, key=value (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub(crate) options: Vec<String>,
    /// Deals (default 100); each is played by every lineup in every seat
    /// rotation.
    #[arg(long, conflicts_with = "games")]
    pub(crate) deals: Option<u64>,
    /// Games instead of deals (rounded up to whole deals).
    #[arg(long)]
    pub(crate) games: Option<u64>,
    /// Seed of the tournament.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Stop a game with no winner after this many actions (B17).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) max_actions: u64,
    /// Sequential test on the candidate's first-place rate: p0,p1 or
    /// p0,p1,alpha,beta (e.g. 0.20,0.24); stops once decided.
    #[arg(long, value_name = "P0,P1[,ALPHA,BETA]")]
    pub(crate) sprt: Option<String>,
    /// Folder for the checkpoint (checkpoint.jsonl) and the reports
    /// (tournament.json, tournament.md); a rerun resumes it.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Require a checkpoint in --out to resume.
    #[arg(long, requires = "out", conflicts_with = "fresh")]
    pub(crate) resume: bool,
    /// Replace the checkpoint in --out instead of resuming it.
    #[arg(long, requires = "out")]
    pub(crate) fresh: bool,
    /// Records of the games (ids dDEAL-lLINEUP-rROTATION).
    #[command(flatten)]
    pub(crate) save: SaveArgs,
    /// With --save-games: only the games the candidate did not win (lost
    /// or capped).
    #[arg(
        long,
        requires = "save_games",
        requires = "candidate",
        conflicts_with = "save_every"
    )]
    pub(crate) save_losses: bool,
    /// Play game ID (dDEAL-lLINEUP-rROTATION, from the report's games
    /// list) again alone, with the same bots and seed, and print its
    /// record (saved in --save-games too when given). Give the flags of
    /// the tournament's command.
    #[arg(long, value_name = "ID", conflicts_with_all = ["out", "resume", "fresh", "sprt", "save_every", "save_losses"])]
    pub(crate) rerun: Option<String>,
    /// Exit 0 even when a bot program's stand-in played more than 5% of
    /// its decisions (its rows then rate the stand-in; they are flagged ⚠
    /// either way).
    #[arg(long)]
    pub(crate) allow_stand_in: bool,
    /// How bot programs are run.
    #[command(flatten)]
    pub(crate) programs: ProgramArgs,
    /// How the result is printed.
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// `ratrace lab`'s flags: a comparison of variants of GAME, or a study
/// of its own (`ratrace lab duplicate-spread`).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct LabArgs {
    /// A study instead of a comparison of variants.
    #[command(subcommand)]
    pub(crate) study: Option<LabStudy>,
    /// bigcheese or dalmuti.
    #[arg(required = true)]
    pub(crate) game: Option<String>,
    /// A variant, NAME=key=value,key=value (repeatable); `players=N`
    /// sets its table size. Dalmuti variants start from hands=1.
    #[arg(long = "variant", value_name = "NAME=K=V,...")]
    pub(crate) variants: Vec<String>,
    /// A preset comparing the rulebook's variants (repeatable):
    /// bigcheese dice|exact|specials, dalmuti taxes|settling|deck.
    #[arg(long = "preset", value_name = "NAME")]
    pub(crate) presets: Vec<String>,
    /// Players for variants that do not say (default: the game's).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rules option for every variant, key=value (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub(crate) options: Vec<String>,
    /// Deals per variant and study (a study plays players x deals games).
    #[arg(long, default_value_t = 1000)]
    pub(crate) deals: u64,
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores); the report does not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// WEAK,STRONG bots (default: the weakest and the strongest non-search bot of the game's ladder).
    #[arg(long, value_delimiter = ',', value_name = "WEAK,STRONG")]
    pub(crate) bots: Vec<String>,
    /// Stop a game with no winner after this many actions (B17).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) max_actions: u64,
    /// Where to write the report.
    #[arg(long, default_value = "lab")]
    pub(crate) out: PathBuf,
    /// Records of the games (ids VARIANT-STUDY-dDEAL-rROTATION).
    #[command(flatten)]
    pub(crate) save: SaveArgs,
}

/// The studies of `ratrace lab` that are not a comparison of variants.
#[derive(Subcommand)]
pub(crate) enum LabStudy {
    /// Whether duplicate play makes a bot tournament's standings spread
    /// less: a lineup of bots of different strength plays --repeats
    /// tournaments of --deals deals with different seeds, each in
    /// duplicate (every deal in every seat rotation) and plain (as many
    /// games, each a fresh deal, seats shuffled); per entrant, the spread
    /// of its standing in each mode, their ratio with a bootstrap 95%
    /// interval, and how often the strongest wins. Writes DIR/report.md
    /// and DIR/report.json.
    DuplicateSpread(SpreadArgs),
}

/// `ratrace lab duplicate-spread`'s flags.
#[derive(clap::Args)]
pub(crate) struct SpreadArgs {
    /// bigcheese or dalmuti (repeatable; default: every game, one report).
    #[arg(long = "game", value_name = "GAME")]
    pub(crate) games: Vec<String>,
    /// The lineup's bots, weakest first, at most one per seat; they sit
    /// round the table in turn (default: the ladder's levels that decide
    /// at once, random,heuristic,strong).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub(crate) bots: Vec<String>,
    /// Number of players (default: the game's).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rules option, key=value (repeatable; with one --game only).
    /// Dalmuti starts from hands=1.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub(crate) options: Vec<String>,
    /// Deals per duplicate tournament (a plain one plays players x deals
    /// games, as many).
    #[arg(long, default_value_t = 200)]
    pub(crate) deals: u64,
    /// Tournaments per mode, each with its own seeds.
    #[arg(long, default_value_t = 40)]
    pub(crate) repeats: u64,
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores); the report does not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Stop a game with no winner after this many actions (B17).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) max_actions: u64,
    /// Where to write the report.
    #[arg(long, default_value = "duplicate-spread")]
    pub(crate) out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// `ratrace bot-check`'s flags.
#[derive(clap::Args)]
pub(crate) struct BotCheckArgs {
    /// The bot's command, run by /bin/sh -c (e.g. "python3 my_bot.py").
    pub(crate) command: String,
    /// Games per configuration (game, players, options).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub(crate) games: u64,
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// How bot programs are run.
    #[command(flatten)]
    pub(crate) programs: ProgramArgs,
    /// Configurations played at once (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Check only this game's configurations (bigcheese or dalmuti), for
    /// a bot that plays one game.
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// How the result is printed.
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// `ratrace replay`'s flags.
#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    /// The record (JSON).
    pub(crate) file: PathBuf,
    /// Show every seat's hidden cards even if the game is not over.
    #[arg(long)]
    pub(crate) reveal: bool,
}

/// `ratrace analyze`'s flags.
#[derive(clap::Args)]
pub(crate) struct AnalyzeArgs {
    /// The record (JSON), as `ratrace play` and the server write it.
    #[arg(required_unless_present = "ladder")]
    pub(crate) record: Option<PathBuf>,
    /// Print the analysis (or the ladder report) as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Search iterations per decision that pick the candidates
    /// (default: the game's, see docs/analysis.md).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) search: Option<u32>,
    /// Paired rollouts per candidate: more is slower and less noisy
    /// (default: the game's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(crate) playouts: Option<u32>,
    /// How many of the search's best actions are compared with the
    /// chosen one.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub(crate) candidates: Option<u64>,
    /// Worker threads (default: all cores); the result does not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Analyse a game that is not over (its analysis shows every seat's
    /// cards through their best actions).
    #[arg(long)]
    pub(crate) unfinished: bool,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Check the judge on the bot ladder of GAME instead of analysing a
    /// record: --games bot games, mean loss per decision of each level
    /// with 95% intervals.
    #[arg(long, value_name = "GAME", conflicts_with_all = ["record", "unfinished"])]
    pub(crate) ladder: Option<String>,
    /// Ladder: games to play and analyse.
    #[arg(long, default_value_t = 20, requires = "ladder")]
    pub(crate) games: u64,
    /// Ladder: players per game (default: the game's).
    #[arg(long, requires = "ladder")]
    pub(crate) players: Option<usize>,
    /// Ladder: a rules option, key=value (repeatable); Dalmuti starts
    /// from hands=1.
    #[arg(long = "option", value_name = "KEY=VALUE", requires = "ladder")]
    pub(crate) options: Vec<String>,
    /// Ladder: the bots, weakest first (default: the game's ladder).
    #[arg(long, value_delimiter = ',', requires = "ladder")]
    pub(crate) bots: Vec<String>,
    /// Ladder: seed of the run.
    #[arg(long, default_value_t = 0, requires = "ladder")]
    pub(crate) seed: u64,
    /// Ladder: also write every game's record into this folder
    /// (ladder-N.json), to analyse or replay one.
    #[arg(long, value_name = "DIR", requires = "ladder")]
    pub(crate) save: Option<PathBuf>,
    /// Ladder: one level per game against this bot in every other seat
    /// (rotating the level's seat), instead of --tables.
    #[arg(long, value_name = "BOT", requires = "ladder")]
    pub(crate) field: Option<String>,
    /// Ladder: who sits at a table: `alone` (every seat one level, the
    /// levels taking turns by game) or `mixed` (every level at every
    /// table, rotating seats); docs/analysis.md says why alone.
    #[arg(long, value_enum, default_value_t = Tables::Alone, requires = "ladder", conflicts_with = "field")]
    pub(crate) tables: Tables,
}

/// `ratrace scenario`'s flags.
#[derive(clap::Args)]
pub(crate) struct ScenarioArgs {
    /// Files or folders.
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
}

/// `ratrace site`'s flags.
#[derive(clap::Args)]
pub(crate) struct SiteArgs {
    /// The folder to write the site into (made if missing; files of the
    /// same names are replaced, nothing else is touched).
    pub(crate) dir: PathBuf,
}

/// `ratrace verify`'s flags.
#[derive(clap::Args)]
pub(crate) struct VerifyArgs {
    /// The record (JSON), e.g. downloaded from a finished table.
    pub(crate) record: PathBuf,
    /// Exit 0 for a record that replays and matches but whose seed
    /// nothing shows was fixed beforehand (no commitment, as a game of
    /// `ratrace play`; a bare seed_hash; a commitment signed by a key not
    /// given with --key): it proves the game legal and its outcome only.
    #[arg(long)]
    pub(crate) allow_uncommitted: bool,
    /// A server key to trust (64 hex digits: the server's `GET /api/key`,
    /// or `ratrace serve --print-key`; repeatable): a signed record is
    /// verified only if one of these signed its commitment.
    #[arg(long, value_name = "HEX", value_parser = parse_key)]
    pub(crate) key: Vec<[u8; 32]>,
}

/// A server key for `ratrace verify --key`.
fn parse_key(text: &str) -> Result<[u8; 32], registry::fair::FairError> {
    registry::signed::parse_key(text)
}

/// `ratrace options`'s flags.
#[derive(clap::Args)]
pub(crate) struct OptionsArgs {
    /// bigcheese or dalmuti.
    pub(crate) game: String,
}

/// `ratrace analyze --ladder`'s tables.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tables {
    /// Every seat of a game is one level; the levels take turns by game.
    Alone,
    /// Every level at every table, the seats rotating by game.
    Mixed,
}
