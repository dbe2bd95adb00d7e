//! The simulator: many bot-vs-bot games over several threads, then wins per
//! seat and per bot with 95% confidence intervals.
//!
//! Game `i` gets its own seed derived from the run's seed and `i` alone, and
//! results are summed as exact integers, so the same seed gives the same
//! figures whatever the thread count (the games per second aside).

use crate::playout::{play_out_at, Table};
use crate::stats::pct;
use crate::stats::Rate;
use crate::strikes::{StandInStats, StandInTally, StrikeStats, Tally as Strikes};
use crate::Error;
use bots::Roster;
use game::{Game, Seat};
use serde::Serialize;
use std::time::Instant;

/// Credit for one win, divisible by every tie size up to 16.
const WIN: u64 = 720_720;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// Number of games.
    pub games: u64,
    /// Seats at the start.
    pub players: usize,
    /// Bot names by seat, repeated cyclically when shorter than the table.
    pub bots: Vec<String>,
    /// Rules options.
    pub options: G::Options,
    /// Seed of the whole run.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Actions after which a game is stopped with no winner (B17).
    pub max_actions: u64,
    /// Rotate the bots one seat per game, so per-bot figures do not carry
    /// a seat advantage.
    pub rotate: bool,
    /// The limits bot programs (`cmd:` bots) play under.
    pub limits: extbot::Limits,
    /// Where and which games are saved as records (none when `None`).
    /// Game `i` is `g{i}`, saved as `GAME-g{i}.json`.
    pub save: Option<crate::records::SaveGames>,
}

/// The id of game `index` of a simulation: `g` and its number from 0,
/// the name of its record file (`dalmuti-g42.json`).
pub fn game_id(index: u64) -> String {
    format!("g{index}")
}

/// The rate of `credit` win credits (see [`WIN`]) in `games`.
fn credit_rate(credit: u64, games: u64) -> Rate {
    Rate::new(credit as f64 / WIN as f64, games)
}

/// One seat's figures.
#[derive(Clone, Debug, Serialize)]
pub struct SeatStats {
    /// The seat.
    pub seat: String,
    /// The bot in that seat (without rotation).
    pub bot: String,
    /// First places.
    pub wins: Rate,
}

/// One bot's figures, over every seat it held.
#[derive(Clone, Debug, Serialize)]
pub struct BotStats {
    /// The bot's name.
    pub bot: String,
    /// Seats it held per game.
    pub seats: usize,
    /// Share of games won by one of its seats.
    pub wins: Rate,
    /// Its share if every seat were equal: seats / players.
    pub fair_share: f64,
}

/// The result of a run, printed as text or JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Game name.
    pub game: String,
    /// Options as `key=value`.
    pub options: Vec<String>,
    /// Seats at the start.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Threads used.
    pub threads: usize,
    /// Whether bots rotated seats.
    pub rotate: bool,
    /// Per seat.
    pub seats: Vec<SeatStats>,
    /// Per bot.
    pub bots: Vec<BotStats>,
    /// Games won by more than one seat.
    pub shared_wins: u64,
    /// Games stopped by the length cap, with no winner (B17).
    pub capped: u64,
    /// Mean actions per game.
    pub mean_actions: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Strikes of bot programs, per bot (absent when there were none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<StrikeStats>,
    /// Per bot program, the share of its decisions its stand-in played
    /// (absent without bot programs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stand_in: Vec<StandInStats>,
}

#[derive(Default)]
struct Tally {
    seat_credit: Vec<u64>,
    bot_credit: Vec<u64>,
    shared: u64,
    capped: u64,
    actions: u64,
    strikes: Strikes,
    stand_in: StandInTally,
}

/// The distinct bot names of a run, in first-seen order.
fn distinct(bots: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for b in bots {
        if !out.contains(b) {
            out.push(b.clone());
        }
    }
    out
}

/// Which bot (index into `names`) sits in `seat` in game `index`: seat `s`
/// takes `bots[s % len]`, shifted one seat per game when rotating.
fn bot_index(
    bots: &[String],
    names: &[String],
    players: usize,
    rotate: bool,
    index: u64,
    seat: usize,
) -> usize {
    let slot = if rotate {
        (seat + players - (index % players as u64) as usize) % players
    } else {
        seat
    };
    let name = &bots[slot % bots.len()];
    names
        .iter()
        .position(|n| n == name)
        .expect("bot names come from the list")
}

/// What one game adds to the figures.
struct OneGame {
    /// Actions played.
    actions: u64,
    /// Seats at the end (Dalmuti joins can add seats).
    players: usize,
    /// The winners; empty when capped.
    winners: Vec<Seat>,
    /// Stopped by the length cap (B17).
    capped: bool,
    /// Strikes of bot programs: seat index and reason.
    strikes: Vec<(usize, String)>,
    /// Bot programs' decisions and their stand-ins'.
    stand_in: Vec<crate::strikes::StandIn>,
}

/// Plays game `index` between bots at a worker's `table`.
fn play_one<G: Roster>(
    cfg: &Config<G>,
    names: &[String],
    index: u64,
    table: &mut Table<G>,
) -> Result<OneGame, Error> {
    let seed = crate::derive_seed(cfg.seed, index);
    let mut game = G::new(&cfg.options, cfg.players, seed)?;
    let save = cfg.save.as_ref().filter(|s| s.records(index));
    table.record(save.is_some());
    if cfg.limits.stderr_log.is_some() {
        table.name_game(Some(format!("{}-{}", G::NAME, game_id(index))));
    }
    let who = |seat: usize| bot_index(&cfg.bots, names, cfg.players, cfg.rotate, index, seat);
    let played = play_out_at(
        table,
        &mut game,
        cfg.max_actions,
        false,
        |seat| {
            (
                names[who(seat)].as_str(),
                crate::derive_seed(seed, 1 + seat as u64),
            )
        },
        |seat, bot_seed| {
            extbot::bot_with::<G>(&names[who(seat)], bot_seed, &cfg.limits).map_err(Error::Bot)
        },
        |seat, action, e| {
            format!(
                "bot {} chose an illegal action `{action}` in game {index}: {e}",
                names[who(seat)]
            )
        },
    )?;
    let outcome = played.outcome;
    if let Some(save) = save {
        let actions = table.take_actions();
        let seats = outcome.places.len().max(game.players());
        let record = crate::records::record_of::<G>(
            &cfg.options,
            cfg.players,
            seed,
            (0..seats).map(|s| names[who(s)].clone()).collect(),
            actions,
            outcome.clone(),
        );
        save.write::<G>(&game_id(index), &record)?;
    }
    Ok(OneGame {
        actions: played.actions,
        players: game.players(),
        capped: outcome.capped || outcome.winners.is_empty(),
        winners: outcome.winners,
        strikes: played.strikes,
        stand_in: played.stand_in,
    })
}

impl Tally {
    /// Adds game `index`'s figures.
    fn add_game<G: Game>(&mut self, cfg: &Config<G>, names: &[String], index: u64, one: &OneGame) {
        self.actions += one.actions;
        for (seat, reason) in &one.strikes {
            let b = bot_index(&cfg.bots, names, cfg.players, cfg.rotate, index, *seat);
            self.strikes.add(&names[b], reason);
        }
        for si in &one.stand_in {
            let b = bot_index(&cfg.bots, names, cfg.players, cfg.rotate, index, si.seat);
            self.stand_in.add(&names[b], si);
        }
        if one.capped {
            self.capped += 1;
            return;
        }
        if one.winners.len() > 1 {
            self.shared += 1;
        }
        let credit = WIN / one.winners.len() as u64;
        if self.seat_credit.len() < one.players {
            self.seat_credit.resize(one.players, 0);
        }
        if self.bot_credit.len() < names.len() {
            self.bot_credit.resize(names.len(), 0);
        }
        for w in &one.winners {
            self.seat_credit[w.index()] += credit;
            let b = bot_index(&cfg.bots, names, cfg.players, cfg.rotate, index, w.index());
            self.bot_credit[b] += credit;
        }
    }
}

/// Runs the simulation, telling `progress` of every game played.
pub fn run<G: Roster>(cfg: &Config<G>, progress: &dyn crate::Progress) -> Result<Summary, Error> {
    if cfg.bots.is_empty() {
        return Err(Error::Config("no bots given".into()));
    }
    // No games would give win rates of 0% with meaningless intervals.
    if cfg.games == 0 {
        return Err(Error::Config(
            "nothing to play: --games must be at least 1".into(),
        ));
    }
    let names = distinct(&cfg.bots);
    for n in &names {
        extbot::check::<G>(n).map_err(Error::Bot)?;
    }
    G::new(&cfg.options, cfg.players, cfg.seed)?;
    if let Some(save) = &cfg.save {
        if save.sample == crate::records::Sample::Losses {
            return Err(Error::Config(
                "a simulation has no candidate whose losses to save: save every game or every Nth"
                    .into(),
            ));
        }
        save.prepare()?;
    }
    let threads = cfg.threads.max(1);
    let start = Instant::now();
    progress.start(cfg.games);
    let mut total = Tally::default();
    crate::pool::ordered_with(
        cfg.games as usize,
        1,
        threads,
        Table::new,
        |table, i| play_one(cfg, &names, i as u64, table),
        || progress.game_done(),
        |i, games| {
            for one in &games {
                total.add_game(cfg, &names, i as u64, one);
            }
            Ok(true)
        },
    )?;
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let games = cfg.games;
    let seats = (0..total.seat_credit.len().max(cfg.players))
        .map(|s| SeatStats {
            seat: Seat::new(s).to_string(),
            bot: cfg.bots[s % cfg.bots.len()].clone(),
            wins: credit_rate(total.seat_credit.get(s).copied().unwrap_or(0), games),
        })
        .collect();
    let bots = names
        .iter()
        .enumerate()
        .map(|(b, name)| {
            let seats = (0..cfg.players)
                .filter(|&s| cfg.bots[s % cfg.bots.len()] == *name)
                .count();
            BotStats {
                bot: name.clone(),
                seats,
                wins: credit_rate(total.bot_credit.get(b).copied().unwrap_or(0), games),
                fair_share: seats as f64 / cfg.players as f64,
            }
        })
        .collect();
    Ok(Summary {
        game: G::NAME.to_string(),
        options: game::GameOptions::pairs(&cfg.options)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
        players: cfg.players,
        games,
        seed: cfg.seed,
        threads,
        rotate: cfg.rotate,
        seats,
        bots,
        shared_wins: total.shared,
        capped: total.capped,
        mean_actions: total.actions as f64 / games.max(1) as f64,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        strikes: total.strikes.into_stats(),
        stand_in: total.stand_in.into_stats(),
    })
}

/// A rate and its interval, in columns.
fn rate_ci(r: &Rate) -> String {
    format!(
        "{:>7}  [{:>7}, {:>7}]",
        pct(r.rate, 2),
        pct(r.low, 2),
        pct(r.high, 2)
    )
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} games, {} players, seed {}, {} thread(s)",
            self.game, self.games, self.players, self.seed, self.threads
        )?;
        writeln!(f, "options: {}", self.options.join(" "))?;
        writeln!(
            f,
            "\nwins per seat (95% CI){}:",
            if self.rotate { ", bots rotating" } else { "" }
        )?;
        for s in &self.seats {
            let bot = if self.rotate {
                String::new()
            } else {
                format!(" ({})", s.bot)
            };
            writeln!(f, "  {:<4}{:<14} {}", s.seat, bot, rate_ci(&s.wins))?;
        }
        writeln!(f, "\nwins per bot (95% CI):")?;
        for b in &self.bots {
            writeln!(
                f,
                "  {:<12} {} seat(s)  {}   fair share {:.2}%",
                b.bot,
                b.seats,
                rate_ci(&b.wins),
                100.0 * b.fair_share
            )?;
        }
        writeln!(
            f,
            "\nshared wins: {}   capped (no winner, B17): {}",
            self.shared_wins, self.capped
        )?;
        writeln!(f, "mean game length: {:.1} actions", self.mean_actions)?;
        if !self.strikes.is_empty() {
            writeln!(
                f,
                "strikes of bot programs (each a decision the heuristic bot played):"
            )?;
            crate::strikes::write_lines(f, &self.strikes, "  ")?;
        }
        for s in &self.stand_in {
            writeln!(
                f,
                "{}: its stand-in played {} of {} decisions ({}){}",
                s.bot,
                s.stand_in,
                s.decisions,
                pct(s.share, 2),
                if s.flagged {
                    " ⚠ its wins above are mostly the stand-in's"
                } else {
                    ""
                }
            )?;
        }
        write!(
            f,
            "speed: {:.0} games/s ({:.2} s)",
            self.games_per_second, self.seconds
        )
    }
}
