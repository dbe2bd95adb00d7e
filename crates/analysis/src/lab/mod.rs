//! `ratrace lab`: a report comparing rules variants side by side, for a
//! designer asking "what does this option do to the game?".
//!
//! For every variant the lab plays three sets of games on the same deals
//! (seeds), through [`crate::duplicate::Match`]:
//!
//! - **seat**: every seat played by the strong bot, one game per deal, for
//!   first-place rates per starting position and the chi-square test of
//!   equal positions; the same games give the length distribution. The
//!   seat number is not what matters in either game (Big Cheese draws the
//!   first leader, B4; Dalmuti draws the roles, D3), so [`Positions`] says
//!   where each seat starts;
//! - **skill**: one strong bot against `players - 1` weak ones, every
//!   rotation of every deal, for the skill index;
//! - **mixed**: strong and weak bots alternating round the table, every
//!   rotation of every deal, for "strong finishes ahead of weak" and the
//!   luck/skill variance decomposition.
//!
//! The seat games are one rotation per deal because with one bot in every
//! seat the rotations would replay the same game; so the lab puts its own
//! `(deal, rotation)` jobs on the worker pool ([`crate::pool`]) rather than
//! [`crate::duplicate::run`], which always plays every rotation. Results
//! are stored by job index, so the report is the same whatever the thread
//! count. The statistics are in [`stats`], the HTML/Markdown/SVG in
//! [`report`].

mod format;
mod plots;
pub mod report;

use crate::duplicate::{GameResult, Match};
use crate::playout::Table;
use crate::stats::{self, Decomposition, Histogram, Interval, Obs};
use crate::Error;
use bots::Roster;
use game::{Game, GameOptions};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Games whose seats start a game in a position (who leads, which role)
/// that is drawn, so that "seat advantage" means position advantage.
pub trait Positions: Roster {
    /// What a position is, for the report.
    const POSITION: &'static str;
    /// The starting position (0 = first) of every starting seat.
    fn start_positions(game: &Self) -> Vec<usize>;
    /// The name of position `p` at a table of `players`.
    fn position_name(p: usize, players: usize) -> String;
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Positions for bigcheese::BigCheese {
    const POSITION: &'static str =
        "bidding order from the first leader, who is drawn at random (B4): 1st leads the first auction";

    fn start_positions(game: &Self) -> Vec<usize> {
        let n = game.players();
        let leader = game.public_view().leader.index();
        (0..n).map(|s| (s + n - leader) % n).collect()
    }

    fn position_name(p: usize, _players: usize) -> String {
        if p == 0 {
            "1st (leads)".into()
        } else {
            ordinal(p + 1)
        }
    }
}

impl Positions for dalmuti::Dalmuti {
    const POSITION: &'static str =
        "place in the table order after the seating draw (D3/D4), Greater Dalmuti first";

    fn start_positions(game: &Self) -> Vec<usize> {
        let order: Vec<usize> = game.order().map(|s| s.index()).collect();
        (0..order.len())
            .map(|s| order.iter().position(|&o| o == s).unwrap_or(s))
            .collect()
    }

    fn position_name(p: usize, players: usize) -> String {
        let role = dalmuti::Role::of(p, players);
        if role == dalmuti::Role::Merchant && players > 5 {
            format!("Merchant ({})", ordinal(p + 1))
        } else {
            role.name().to_string()
        }
    }
}

/// The most deals a run may ask for: every game's result is kept until
/// the report is computed.
pub const MAX_DEALS: u64 = 1_000_000;

/// Bins of the game-length histograms.
const LENGTH_BINS: usize = 30;
/// Bootstrap draws for the variance decomposition's interval.
const RESAMPLES: usize = 400;

/// One rules variant under study.
#[derive(Clone, Debug)]
pub struct Variant<G: Game> {
    /// Its name in the report.
    pub name: String,
    /// Seats at the table.
    pub players: usize,
    /// Rules options.
    pub options: G::Options,
}

impl<G: Game> Variant<G> {
    /// The options that differ from the game's defaults, as `key=value`.
    pub fn changes(&self) -> Vec<String> {
        let default = G::Options::default().pairs();
        self.options
            .pairs()
            .into_iter()
            .filter(|p| !default.contains(p))
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }
}

/// Options every lab variant of `game` starts from, before `--option` and
/// the variant's own: Dalmuti is studied one hand at a time (`hands=1`),
/// since a 20-hand session mixes the rules of a hand with the session's
/// compounding of roles.
pub fn base_options(game: &str) -> &'static [&'static str] {
    match game {
        "dalmuti" => &["hands=1"],
        _ => &[],
    }
}

/// Parses `NAME` or `NAME=key=value,key=value` (`players=N` sets the
/// table size) on top of `base` options and `players` seats.
pub fn parse_variant<G: Game>(
    text: &str,
    base: &G::Options,
    players: usize,
) -> Result<Variant<G>, Error> {
    let (name, rest) = match text.split_once('=') {
        Some((n, r)) => (n.trim(), r),
        None => (text.trim(), ""),
    };
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
        return Err(Error::Config(format!(
            "bad variant `{text}`: write NAME=key=value,key=value (a name without spaces or commas)"
        )));
    }
    let mut v = Variant {
        name: name.to_string(),
        players,
        options: base.clone(),
    };
    for pair in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some(n) = pair.strip_prefix("players=") {
            v.players = n
                .parse()
                .map_err(|_| Error::Config(format!("variant `{name}`: bad player count `{n}`")))?;
        } else {
            GameOptions::set_pair(&mut v.options, pair)
                .map_err(|e| Error::Config(format!("variant `{name}`: {e}")))?;
        }
    }
    if !G::PLAYERS.contains(&v.players) {
        return Err(Error::Config(format!(
            "variant `{name}`: {} is played by {} to {} players, not {}",
            G::NAME,
            G::PLAYERS.start(),
            G::PLAYERS.end(),
            v.players
        )));
    }
    Ok(v)
}

/// A preset: the variants that answer one of the rulebooks' questions.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// Its name (`--preset NAME`).
    pub name: &'static str,
    /// The question it answers.
    pub question: &'static str,
    /// The variants, as `--variant` texts.
    pub variants: &'static [&'static str],
}

/// Every preset of `game`.
pub fn presets(game: &str) -> &'static [Preset] {
    match game {
        "bigcheese" => &[
            Preset {
                name: "dice",
                question: "Which dice (B11)? Polyhedral (the book's) against one d6, best of two, half of n, and no dice at all, each with its own target.",
                variants: &[
                    "polyhedral=dice=polyhedral",
                    "d6=dice=d6",
                    "best-of-two=dice=best-of-two",
                    "half-of-n=dice=half-of-n",
                    "no-dice=dice=no-dice",
                ],
            },
            Preset {
                name: "exact",
                question: "Exact target (B13)? Passing the target wins, against a payout that would pass it being ignored (target 30).",
                variants: &["pass=exact=off", "exact=exact=on"],
            },
            Preset {
                name: "specials",
                question: "Specials (B2)? The 36-card deck with Vetos and Big Cheeses against the 28-card deck without.",
                variants: &["specials=specials=on", "no-specials=specials=off"],
            },
        ],
        "dalmuti" => &[
            Preset {
                name: "taxes",
                question: "Taxes (D14/D7)? One hand with the book's taxes, with automatic revolution (never taxes), and with the settling-hand rule (which in a one-hand game means no taxes and no revolution).",
                variants: &[
                    "taxes=hands=1",
                    "auto-revolution=hands=1,auto_revolution=on",
                    "no-taxes=hands=1,settling_hand=on",
                ],
            },
            Preset {
                name: "settling",
                question: "Settling hand (D14)? Two-hand sessions, the first hand taxed (the book) against untaxed: the rule only matters across hands.",
                variants: &[
                    "taxes-2=hands=2",
                    "settling-2=hands=2,settling_hand=on",
                ],
            },
            Preset {
                name: "deck",
                question: "Stripped or standard deck (D2/D14)? The 80-card deck against the stripped one, at 4 and 5 players.",
                variants: &[
                    "stripped-4=players=4,hands=1",
                    "standard-4=players=4,hands=1,standard_deck=on",
                    "stripped-5=players=5,hands=1",
                    "standard-5=players=5,hands=1,standard_deck=on",
                ],
            },
        ],
        _ => &[],
    }
}

/// The preset `name` of `game`, or an error listing the presets.
pub fn preset(game: &str, name: &str) -> Result<&'static Preset, Error> {
    let all = presets(game);
    all.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|p| p.name).collect();
        Error::Config(format!(
            "unknown preset `{name}` for {game} (choose from: {})",
            names.join(", ")
        ))
    })
}

/// What a lab run is asked for: the flags of `ratrace lab` (the CLI) or
/// the arguments of `ratrace.lab` (Python).
#[derive(Clone, Debug)]
pub struct Args {
    /// Variants: `NAME` or `NAME=key=value,...`.
    pub variants: Vec<String>,
    /// Presets by name ([`presets`]).
    pub presets: Vec<String>,
    /// Seats (default: the game's).
    pub players: Option<usize>,
    /// `key=value` options under every variant.
    pub options: Vec<String>,
    /// Deals per variant and study.
    pub deals: u64,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// `[WEAK, STRONG]`, or empty for the ladder's default pair.
    pub bots: Vec<String>,
    /// The length cap (B17).
    pub max_actions: u64,
    /// Where the report goes.
    pub out: PathBuf,
}

/// Turns a lab request into a checked configuration: the game's base
/// options, then `options`, then each preset's and variant's own.
pub fn configure<G: Positions>(game: &str, a: Args) -> Result<Config<G>, Error> {
    let players = crate::players::<G>(a.players)?;
    let mut base = G::Options::default();
    for pair in base_options(game)
        .iter()
        .copied()
        .map(String::from)
        .chain(a.options.iter().cloned())
    {
        base.set_pair(&pair)
            .map_err(|e| Error::Config(e.to_string()))?;
    }
    let mut texts: Vec<String> = Vec::new();
    let mut questions = Vec::new();
    for name in &a.presets {
        let p = preset(game, name)?;
        questions.push(p.question);
        texts.extend(p.variants.iter().map(|v| v.to_string()));
    }
    texts.extend(a.variants.iter().cloned());
    if texts.is_empty() {
        texts.push("default".into());
    }
    let variants = texts
        .iter()
        .map(|t| parse_variant::<G>(t, &base, players))
        .collect::<Result<Vec<_>, _>>()?;
    let (weak, strong) = match a.bots.as_slice() {
        [] => (
            G::LADDER.first().copied().unwrap_or("random").to_string(),
            // The strongest bot that decides at once and plays every
            // variant by the same rules: a lab plays hundreds of thousands
            // of games, which a search bot would take hours for, and the
            // learned bot's network fits one table only (elsewhere it
            // plays as strong), so variants would meet different bots
            // (name either with --bots to use it anyway).
            G::LEVELS
                .iter()
                .rev()
                .find(|l| l.instant && l.every_size)
                .map_or("random", |l| l.name)
                .to_string(),
        ),
        [weak, strong] => (weak.trim().to_string(), strong.trim().to_string()),
        _ => return Err(Error::Config("--bots takes two bots: WEAK,STRONG".into())),
    };
    let mut command = format!("ratrace lab {game}");
    for p in &a.presets {
        command += &format!(" --preset {p}");
    }
    for v in &a.variants {
        command += &format!(" --variant {v}");
    }
    if let Some(p) = a.players {
        command += &format!(" --players {p}");
    }
    for o in &a.options {
        command += &format!(" --option {o}");
    }
    if !a.bots.is_empty() {
        command += &format!(" --bots {weak},{strong}");
    }
    command += &format!(" --deals {} --seed {}", a.deals, a.seed);
    if a.max_actions != 100_000 {
        command += &format!(" --max-actions {}", a.max_actions);
    }
    command += &format!(" --out {}", a.out.display());
    let title = if a.presets.is_empty() {
        format!("{} lab", G::NAME)
    } else {
        format!("{} lab: {}", G::NAME, a.presets.join(", "))
    };
    let question = (!questions.is_empty()).then(|| questions.join(" "));
    let cfg = Config::<G> {
        variants,
        deals: a.deals,
        seed: a.seed,
        threads: a.threads,
        weak,
        strong,
        max_actions: a.max_actions,
        out: a.out,
        title,
        question,
        command,
        save: None,
    };
    validate(&cfg)?;
    Ok(cfg)
}

/// What the lab runs.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// The variants, in report order.
    pub variants: Vec<Variant<G>>,
    /// Deals per variant and study.
    pub deals: u64,
    /// The run's seed: every variant plays the same deal seeds.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The weak bot (spec).
    pub weak: String,
    /// The strong bot (spec).
    pub strong: String,
    /// Actions after which a game is stopped with no winner (B17).
    pub max_actions: u64,
    /// Where the report goes.
    pub out: PathBuf,
    /// The report's title.
    pub title: String,
    /// The question, if a preset asked one.
    pub question: Option<String>,
    /// The command that makes this report, printed in it.
    pub command: String,
    /// Where and which games are saved as records (ids
    /// `VARIANT-STUDY-dDEAL-rROTATION`, [`game_id`]); `configure` leaves
    /// it `None`.
    pub save: Option<crate::records::SaveGames>,
}

/// The id of a lab game: the variant, the study (`seat`, `skill` or
/// `mixed`), the deal and the rotation, e.g. `default-skill-d3-r1`.
pub fn game_id(variant: &str, study: &str, deal: u64, rotation: usize) -> String {
    format!("{variant}-{study}-d{deal}-r{rotation}")
}

/// Seat (starting position) advantage of one variant.
#[derive(Clone, Debug, Serialize)]
pub struct Seats {
    /// Games played (one per deal, strong bot in every seat).
    pub games: u64,
    /// The positions' names, first first.
    pub positions: Vec<String>,
    /// First-place rate per starting position (shared wins split).
    pub rates: Vec<Interval>,
    /// The test that all positions win equally often.
    pub chi_square: stats::ChiSquare,
    /// Games stopped by the cap, with no winner.
    pub capped: u64,
}

/// Game lengths of one variant (the seat games).
#[derive(Clone, Debug, Serialize)]
pub struct Lengths {
    /// Mean, median, p90, extremes.
    pub summary: stats::Summary,
    /// The histogram.
    pub histogram: Histogram,
}

/// Skill figures of one variant.
#[derive(Clone, Debug, Serialize)]
pub struct Skill {
    /// The lone strong bot's first-place rate against players - 1 weak.
    pub strong_wins: Interval,
    /// Its fair share, 1 / players.
    pub fair_share: f64,
    /// (rate - fair) / (1 - fair): 0 = no better than a weak bot, 1 =
    /// always first.
    pub index: Interval,
    /// In the mixed lineup, the share of (strong, weak) pairs of a game in
    /// which the strong bot finished ahead (ties count half).
    pub ahead: Interval,
}

/// Everything measured for one variant.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    /// The variant's name.
    pub name: String,
    /// Its seats.
    pub players: usize,
    /// Options differing from the defaults.
    pub changes: Vec<String>,
    /// Seat advantage.
    pub seats: Seats,
    /// Game lengths.
    pub lengths: Lengths,
    /// Skill.
    pub skill: Skill,
    /// Luck vs skill.
    pub luck: Decomposition,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Game name.
    pub game: String,
    /// What a position is in this game.
    pub position: String,
    /// Title.
    pub title: String,
    /// The preset's question, if any.
    pub question: Option<String>,
    /// The command that made it.
    pub command: String,
    /// Deals per study.
    pub deals: u64,
    /// Seed.
    pub seed: u64,
    /// The weak bot.
    pub weak: String,
    /// The strong bot.
    pub strong: String,
    /// Per variant.
    pub variants: Vec<VariantReport>,
    /// Games played in all.
    pub games: u64,
    /// Threads used (not part of the results).
    pub threads: usize,
    /// Wall-clock seconds (not part of the results).
    pub seconds: f64,
}

/// Runs `jobs` jobs on `threads` threads, each with its worker's game
/// loop [`Table`], and returns their results in job order; stops at the
/// first error.
fn ordered<G: Game, T: Send>(
    jobs: usize,
    threads: usize,
    job: impl Fn(&mut Table<G>, usize) -> Result<T, Error> + Sync,
    tick: impl Fn(),
) -> Result<Vec<T>, Error> {
    let mut out = Vec::with_capacity(jobs);
    crate::pool::ordered_with(jobs, 1, threads, Table::new, job, tick, |_, mut one| {
        out.extend(one.pop());
        Ok(true)
    })?;
    Ok(out)
}

/// Plays one lab game at a worker's `table` and, when `cfg.save`
/// samples it (it is game `number` of the run), saves its record as
/// [`game_id`] of variant `variant` and `study`.
fn play_saved<G: Roster>(
    cfg: &Config<G>,
    variant: &str,
    m: &Match<G>,
    table: &mut Table<G>,
    (study, number): (&str, u64),
    deal: u64,
    rotation: usize,
) -> Result<GameResult, Error> {
    let save = cfg.save.as_ref().filter(|s| s.records(number));
    let (game, record) = m.play_recorded(table, deal, rotation, save.is_some())?;
    if let (Some(save), Some(record)) = (save, record) {
        save.write::<G>(&game_id(variant, study, deal, rotation), &record)?;
    }
    Ok(game)
}

/// Result of `seat` in `g` on a 0..1 scale: 1 first, 0 last.
fn normalised_place(g: &GameResult, seat: usize) -> f64 {
    let n = g.places.len();
    if n < 2 {
        return 0.0;
    }
    (n as f64 - g.places[seat] as f64) / (n as f64 - 1.0)
}

fn seats<G: Positions>(players: usize, games: &[(GameResult, Vec<usize>)]) -> Seats {
    let mut wins = vec![0.0; players];
    for (g, positions) in games {
        for (s, &p) in positions.iter().enumerate() {
            if let Some(w) = wins.get_mut(p) {
                *w += g.win_share(s);
            }
        }
    }
    let n = games.len() as u64;
    Seats {
        games: n,
        positions: (0..players).map(|p| G::position_name(p, players)).collect(),
        rates: wins.iter().map(|&w| stats::wilson(w, n)).collect(),
        chi_square: stats::chi_square_equal(&wins),
        capped: games.iter().filter(|g| g.0.capped).count() as u64,
    }
}

fn skill(players: usize, lone: &[GameResult], mixed: &[GameResult]) -> Skill {
    const STRONG: usize = 0;
    let per_deal = |games: &[GameResult], f: &dyn Fn(&GameResult) -> f64| -> Vec<f64> {
        games
            .chunks(players)
            .map(|d| d.iter().map(f).sum::<f64>() / d.len() as f64)
            .collect()
    };
    let strong_win = |g: &GameResult| -> f64 {
        (0..players.min(g.seating.len()))
            .filter(|&s| g.seating[s] == STRONG)
            .map(|s| g.win_share(s))
            .sum()
    };
    let ahead = |g: &GameResult| -> f64 {
        let n = players.min(g.seating.len()).min(g.places.len());
        let (mut total, mut pairs) = (0.0, 0.0);
        for i in (0..n).filter(|&s| g.seating[s] == STRONG) {
            for j in (0..n).filter(|&s| g.seating[s] != STRONG) {
                pairs += 1.0;
                total += match g.places[i].cmp(&g.places[j]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
        if pairs > 0.0 {
            total / pairs
        } else {
            0.0
        }
    };
    let strong_wins = stats::clustered_mean(&per_deal(lone, &strong_win));
    let fair = 1.0 / players as f64;
    Skill {
        strong_wins,
        fair_share: fair,
        index: strong_wins.map(|p| (p - fair) / (1.0 - fair)),
        ahead: stats::clustered_mean(&per_deal(mixed, &ahead)),
    }
}

fn luck(players: usize, mixed: &[GameResult], seed: u64) -> Decomposition {
    let deals: Vec<Vec<Obs>> = mixed
        .chunks(players)
        .map(|d| {
            d.iter()
                .flat_map(|g| {
                    (0..players.min(g.places.len())).map(move |s| Obs {
                        seat: s,
                        bot: g.seating[s],
                        y: normalised_place(g, s),
                    })
                })
                .collect()
        })
        .collect();
    stats::decompose(&deals, 2, RESAMPLES, seed)
}

/// The lab's matches for one variant: (all strong, one strong, mixed).
fn matches<G: Roster>(cfg: &Config<G>, v: &Variant<G>) -> [Match<G>; 3] {
    let n = v.players;
    let m = |entrants: Vec<String>, lineup: Vec<usize>| Match {
        options: v.options.clone(),
        players: n,
        entrants,
        lineup,
        seed: cfg.seed,
        max_actions: cfg.max_actions,
        limits: extbot::Limits::default(),
    };
    let pair = vec![cfg.strong.clone(), cfg.weak.clone()];
    [
        m(vec![cfg.strong.clone()], vec![0; n]),
        m(pair.clone(), (0..n).map(|s| usize::from(s > 0)).collect()),
        m(pair, (0..n).map(|s| s % 2).collect()),
    ]
}

/// Checks everything that can be wrong before any game is played.
pub fn validate<G: Roster>(cfg: &Config<G>) -> Result<(), Error> {
    if !(1..=MAX_DEALS).contains(&cfg.deals) {
        return Err(Error::Config(format!(
            "--deals must be 1 to {MAX_DEALS}, not {}",
            cfg.deals
        )));
    }
    if cfg.variants.is_empty() {
        return Err(Error::Config(
            "no variants: give --variant NAME=key=value or --preset NAME".into(),
        ));
    }
    for bot in [&cfg.weak, &cfg.strong] {
        G::bot(bot, 0).map_err(Error::from)?;
    }
    for (i, v) in cfg.variants.iter().enumerate() {
        if cfg.variants[..i].iter().any(|o| o.name == v.name) {
            return Err(Error::Config(format!(
                "two variants are called `{}`",
                v.name
            )));
        }
        for m in matches(cfg, v) {
            m.validate().map_err(|e| Error::Variant {
                name: v.name.clone(),
                source: Box::new(e),
            })?;
        }
    }
    Ok(())
}

/// Plays every study of every variant and computes the report (without
/// writing it; see [`report::write`]); `progress` hears of every game and
/// of each variant's name as its games start.
pub fn run<G: Positions>(cfg: &Config<G>, progress: &dyn crate::Progress) -> Result<Report, Error> {
    validate(cfg)?;
    let start = Instant::now();
    let d = cfg.deals as usize;
    let total: u64 = cfg
        .variants
        .iter()
        .map(|v| 3 * (v.players * d) as u64)
        .sum();
    progress.start(total);
    let tick = || progress.game_done();
    if let Some(save) = &cfg.save {
        if save.sample == crate::records::Sample::Losses {
            return Err(Error::Config(
                "a lab has no candidate whose losses to save: save every game or every Nth".into(),
            ));
        }
        save.prepare()?;
    }
    let mut variants = Vec::new();
    let mut all_lengths = Vec::new();
    // Games played before this study, so that `--save-every` counts the
    // run's games, not each study's.
    let mut before = 0u64;
    for v in &cfg.variants {
        progress.stage(&v.name);
        let n = v.players;
        let [all, lone, mixed] = matches(cfg, v);
        let play = |m: &Match<G>, table: &mut Table<G>, study: &str, number, deal, rotation| {
            play_saved(cfg, &v.name, m, table, (study, number), deal, rotation)
        };
        let seat_games = ordered(
            n * d,
            cfg.threads,
            |table, i| {
                let start = G::new(&v.options, n, all.deal_seed(i as u64))?;
                let game = play(&all, table, "seat", before + i as u64, i as u64, 0)?;
                Ok((game, G::start_positions(&start)))
            },
            tick,
        )?;
        let rotated = |m: &Match<G>, study: &str, first: u64| {
            ordered(
                n * d,
                cfg.threads,
                |table, i| play(m, table, study, first + i as u64, (i / n) as u64, i % n),
                tick,
            )
        };
        let lone_games = rotated(&lone, "skill", before + (n * d) as u64)?;
        let mixed_games = rotated(&mixed, "mixed", before + 2 * (n * d) as u64)?;
        before += 3 * (n * d) as u64;
        let lengths: Vec<u64> = seat_games.iter().map(|g| g.0.actions).collect();
        variants.push(VariantReport {
            name: v.name.clone(),
            players: n,
            changes: v.changes(),
            seats: seats::<G>(n, &seat_games),
            // The histogram comes below, on bins shared by every variant.
            lengths: Lengths {
                summary: stats::summary(&lengths),
                histogram: Histogram::default(),
            },
            skill: skill(n, &lone_games, &mixed_games),
            luck: luck(n, &mixed_games, cfg.seed),
        });
        all_lengths.push(lengths);
    }
    // Every variant's histogram on the same bins, so they compare.
    let lo = all_lengths.iter().flatten().min().copied().unwrap_or(0);
    let hi = all_lengths.iter().flatten().max().copied().unwrap_or(0);
    for (v, lengths) in variants.iter_mut().zip(&all_lengths) {
        v.lengths.histogram = stats::histogram_over(lengths, lo, hi, LENGTH_BINS);
    }
    progress.finish();
    Ok(Report {
        game: G::NAME.to_string(),
        position: G::POSITION.to_string(),
        title: cfg.title.clone(),
        question: cfg.question.clone(),
        command: cfg.command.clone(),
        deals: cfg.deals,
        seed: cfg.seed,
        weak: cfg.weak.clone(),
        strong: cfg.strong.clone(),
        variants,
        games: total,
        threads: cfg.threads,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests;
