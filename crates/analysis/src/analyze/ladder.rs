//! The proof that the analysis measures something: bots of the ladder
//! play games against each other, every game is analysed
//! ([`super::analyze`]), and the mean loss per decision of each level is
//! reported with its 95% interval. A judge that measures skill must rank
//! the ladder in order, random worst and search best.
//!
//! Designs ([`Tables`]), and why **alone** is the one the docs report:
//! - **Alone** (each seat a bot of the level; game `g` is level `g mod
//!   L`): a level is judged in the positions it makes against its equals.
//!   This is the design that ranks both ladders.
//! - **Mixed** (every level at every table, seats rotating): one game
//!   measures every level on the same deals, but a weak level is then
//!   judged mostly in positions already lost to the strong ones. In the
//!   Big Cheese a random bidder soon has its chips locked up, and its
//!   later decisions (few, among few actions, changing little) are cheap:
//!   over 100 mixed games random and heuristic came out equal
//!   (`docs/analysis.md`).
//! - **Field** (one seat of the level against a fixed bot): kept for
//!   checks; it costs a game per measured seat.
//!
//! The unit of independence is the game: a level's mean loss per decision
//! is a ratio of its summed loss to its decisions over games, and its
//! interval is the ratio estimator's normal interval with games as
//! clusters ([`crate::stats::ratio_mean`]), so decisions of one game are
//! not counted as independent.

use super::{analyze, Judge, Label, Unit};
use crate::stats::{ratio_mean, Interval};
use crate::{derive_seed, pool, Error, Progress};
use bots::Bot;
use game::{Game, Record, Seat};
use serde::Serialize;
use std::fmt;

/// A ladder run.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// Games to play and analyse.
    pub games: u64,
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub options: G::Options,
    /// The bots, weakest first (default: the game's ladder).
    pub levels: Vec<String>,
    /// Seed of the run: game `g` is dealt from `derive_seed(seed, g)`.
    pub seed: u64,
    /// Worker threads (one game each; the report does not depend on it).
    pub threads: usize,
    /// The analysis budget per decision.
    pub judge: super::Config,
    /// Stop a game with no winner after this many actions (B17).
    pub max_actions: u64,
    /// Keep every game's record in [`Report::records`].
    pub keep_records: bool,
    /// Who sits at a table ([`Tables`]).
    pub tables: Tables,
}

/// Who sits at the tables of a ladder run (`L` levels).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tables {
    /// Every level at every table: seat `s` of game `g` is level `(s + g)
    /// mod L`.
    Mixed,
    /// One level per table, alone: every seat of game `g` is level `g mod
    /// L`.
    Alone,
    /// One level against a fixed field: game `g` seats level `g mod L` in
    /// seat `(g / L) mod players` and this bot everywhere else; only that
    /// seat's decisions count.
    Field(String),
}

/// One level's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Level {
    /// The bot.
    pub bot: String,
    /// Decisions with a choice it made.
    pub decisions: u64,
    /// Its mean loss per decision with the 95% interval (games as
    /// clusters), in the unit.
    pub mean_loss: Interval,
    /// How many decisions got each label: good, inaccuracy, mistake,
    /// blunder.
    pub labels: [u64; 4],
}

/// Two adjacent levels compared.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The weaker bot.
    pub weaker: String,
    /// The stronger bot.
    pub stronger: String,
    /// The weaker's mean loss is the higher.
    pub ordered: bool,
    /// The two 95% intervals do not overlap (in either order).
    pub separated: bool,
}

/// What a ladder run found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game.
    pub game: String,
    /// Games played and analysed.
    pub games: u64,
    /// Seats per game.
    pub players: usize,
    /// Who sat at the tables.
    pub tables: Tables,
    /// What losses are in.
    pub unit: Unit,
    /// The analysis budget.
    pub budget: super::Config,
    /// Per level, weakest first.
    pub levels: Vec<Level>,
    /// Each adjacent pair, weakest first.
    pub steps: Vec<Step>,
    /// Every adjacent pair is in order.
    pub ranked: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every game's record, in game order, when [`Config::keep_records`].
    #[serde(skip)]
    pub records: Vec<Record>,
}

/// Plays one game of the run with the level of each seat, as a record.
fn play<G: Judge>(cfg: &Config<G>, g: u64) -> Result<Record, Error> {
    let seed = derive_seed(cfg.seed, g);
    let mut game = G::new(&cfg.options, cfg.players, seed)?;
    let mut record = Record::new::<G>(&cfg.options, cfg.players, seed);
    let mut bots: Vec<Box<dyn Bot<G>>> = Vec::new();
    let mut legal = Vec::new();
    let mut actions = 0u64;
    while let Some(seat) = game.to_move() {
        if actions >= cfg.max_actions {
            record.outcome = Some(game.capped_outcome());
            return Ok(record);
        }
        while bots.len() <= seat.index() {
            let s = bots.len();
            let name = bot_of(cfg, g, s);
            bots.push(G::bot(name, derive_seed(seed, 1000 + s as u64)).map_err(Error::from)?);
        }
        game.legal_actions(&mut legal);
        let action = bots[seat.index()].choose(&game.view(seat), &legal);
        game.apply(action).map_err(|e| {
            Error::Engine(format!(
                "bot {} chose {action}: {e}",
                bot_of(cfg, g, seat.index())
            ))
        })?;
        record.push::<G>(seat, action);
        actions += 1;
    }
    record.outcome = game.outcome();
    Ok(record)
}

/// The level (index into the levels) of seat `s` in game `g` at mixed
/// tables.
fn level_of(levels: usize, g: u64, s: usize) -> usize {
    ((s as u64 + g) % levels.max(1) as u64) as usize
}

/// The level whose decisions seat `s` of game `g` makes, if any.
fn measured<G: Game>(cfg: &Config<G>, g: u64, s: usize) -> Option<usize> {
    let l = cfg.levels.len().max(1) as u64;
    match cfg.tables {
        Tables::Mixed => Some(level_of(cfg.levels.len(), g, s)),
        Tables::Alone => Some((g % l) as usize),
        Tables::Field(_) => {
            let seat = ((g / l) % cfg.players.max(1) as u64) as usize;
            (s == seat).then_some((g % l) as usize)
        }
    }
}

/// The bot of seat `s` in game `g`.
fn bot_of<G: Game>(cfg: &Config<G>, g: u64, s: usize) -> &str {
    match (measured(cfg, g, s), &cfg.tables) {
        (Some(l), _) => &cfg.levels[l],
        (None, Tables::Field(f)) => f,
        (None, _) => &cfg.levels[0],
    }
}

/// Per level of one game: summed loss, decisions, label counts.
type Losses = Vec<(f64, u64, [u64; 4])>;

/// One game's losses, and its record when kept.
type GameLosses = (Losses, Option<Record>);

/// Plays and analyses game `g`.
fn one_game<G: Judge>(cfg: &Config<G>, g: u64) -> Result<GameLosses, Error> {
    let record = play(cfg, g)?;
    let judge = super::Config {
        threads: 1,
        unfinished: true, // a game stopped at the cap still has its decisions
        ..cfg.judge
    };
    let analysis = analyze::<G>(&record, &judge, |_, _| {})?;
    let mut out: Losses = vec![(0.0, 0u64, [0u64; 4]); cfg.levels.len()];
    for d in &analysis.decisions {
        let Some(l) = measured(cfg, g, d.seat.index()) else {
            continue;
        };
        out[l].0 += d.loss;
        out[l].1 += 1;
        let k = Label::ALL.iter().position(|x| *x == d.label).unwrap_or(0);
        out[l].2[k] += 1;
    }
    Ok((out, cfg.keep_records.then_some(record)))
}

/// Runs the ladder (see the module docs).
pub fn run<G: Judge>(cfg: &Config<G>, progress: &dyn Progress) -> Result<Report, Error> {
    if cfg.levels.len() < 2 {
        return Err(Error::Config("a ladder needs at least two bots".into()));
    }
    if cfg.games == 0 {
        return Err(Error::Config("--games: at least one game".into()));
    }
    for b in &cfg.levels {
        G::bot(b, 0).map_err(Error::from)?;
    }
    // fail early on a bad setup, not in a worker
    G::new(&cfg.options, cfg.players, 0)?;
    let started = std::time::Instant::now();
    progress.start(cfg.games);
    let mut per_game: Vec<Losses> = Vec::new();
    let mut records = Vec::new();
    pool::ordered(
        cfg.games as usize,
        1,
        cfg.threads.max(1),
        |g| one_game(cfg, g as u64),
        || progress.game_done(),
        |_, v| {
            for (losses, record) in v {
                per_game.push(losses);
                records.extend(record);
            }
            Ok(true)
        },
    )?;
    progress.finish();
    let levels: Vec<Level> = cfg
        .levels
        .iter()
        .enumerate()
        .map(|(l, bot)| {
            let clusters: Vec<(f64, f64)> =
                per_game.iter().map(|g| (g[l].0, g[l].1 as f64)).collect();
            let mut labels = [0u64; 4];
            for g in &per_game {
                for (total, n) in labels.iter_mut().zip(g[l].2) {
                    *total += n;
                }
            }
            Level {
                bot: bot.clone(),
                decisions: per_game.iter().map(|g| g[l].1).sum(),
                mean_loss: ratio_mean(&clusters),
                labels,
            }
        })
        .collect();
    let steps: Vec<Step> = levels
        .windows(2)
        .map(|w| Step {
            weaker: w[0].bot.clone(),
            stronger: w[1].bot.clone(),
            ordered: w[0].mean_loss.value > w[1].mean_loss.value,
            separated: w[0].mean_loss.low > w[1].mean_loss.high
                || w[1].mean_loss.low > w[0].mean_loss.high,
        })
        .collect();
    Ok(Report {
        game: G::NAME.to_string(),
        games: cfg.games,
        players: cfg.players,
        tables: cfg.tables.clone(),
        unit: G::UNIT,
        budget: cfg.judge,
        ranked: steps.iter().all(|s| s.ordered),
        levels,
        steps,
        seconds: started.elapsed().as_secs_f64(),
        records,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} games, {} players, {}; loss in {} ({})",
            self.game,
            self.games,
            self.players,
            match &self.tables {
                Tables::Mixed => "mixed tables".to_string(),
                Tables::Alone => "each level alone at its tables".to_string(),
                Tables::Field(f) => format!("each level against {f}"),
            },
            self.unit.name,
            self.unit.words
        )?;
        writeln!(
            f,
            "budget per decision: search {} iterations, {} candidates, {} paired rollouts",
            self.budget.search, self.budget.candidates, self.budget.rollouts
        )?;
        writeln!(
            f,
            "{:<12} {:>9} {:>10} {:>22} {:>6} {:>6} {:>6} {:>6}",
            "bot", "decisions", "mean loss", "95% interval", "good", "inacc", "mist", "blund"
        )?;
        for l in &self.levels {
            writeln!(
                f,
                "{:<12} {:>9} {:>10.3} {:>22} {:>6} {:>6} {:>6} {:>6}",
                l.bot,
                l.decisions,
                l.mean_loss.value,
                format!("[{:.3}, {:.3}]", l.mean_loss.low, l.mean_loss.high),
                l.labels[0],
                l.labels[1],
                l.labels[2],
                l.labels[3]
            )?;
        }
        for s in &self.steps {
            writeln!(
                f,
                "{} > {}: {}{}",
                s.weaker,
                s.stronger,
                if s.ordered {
                    "in order"
                } else {
                    "OUT OF ORDER"
                },
                if s.separated {
                    ", intervals apart"
                } else {
                    ", intervals overlap"
                }
            )?;
        }
        write!(
            f,
            "{} in {:.1} s",
            if self.ranked {
                "the ladder is ranked in order"
            } else {
                "the ladder is NOT ranked in order"
            },
            self.seconds
        )
    }
}

/// The level of each seat in game `g`, for callers that want to label a
/// ladder game's record (tests, the docs).
pub fn seat_levels(levels: usize, g: u64, players: usize) -> Vec<usize> {
    (0..players).map(|s| level_of(levels, g, s)).collect()
}

#[doc(hidden)]
pub fn play_game<G: Judge>(cfg: &Config<G>, g: u64) -> Result<Record, Error> {
    play(cfg, g)
}

/// Seat names with their level, `P1 random, P2 heuristic`.
pub fn lineup(levels: &[String], g: u64, players: usize) -> String {
    seat_levels(levels.len(), g, players)
        .into_iter()
        .enumerate()
        .map(|(s, l)| format!("{} {}", Seat::new(s), levels[l]))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(tables: Tables) -> Config<dalmuti::Dalmuti> {
        Config {
            games: 8,
            players: 5,
            options: dalmuti::Options::default(),
            levels: ["random", "heuristic", "strong", "search"]
                .map(String::from)
                .to_vec(),
            seed: 0,
            threads: 1,
            judge: super::super::Config::for_game::<dalmuti::Dalmuti>(),
            max_actions: 100,
            keep_records: false,
            tables,
        }
    }

    /// Who sits where, and whose decisions count, in each design.
    #[test]
    fn tables_seat_the_levels_as_documented() {
        let c = cfg(Tables::Alone);
        for g in 0..8 {
            for s in 0..5 {
                assert_eq!(measured(&c, g, s), Some(g as usize % 4));
            }
        }
        assert_eq!(bot_of(&c, 6, 3), "strong");
        let c = cfg(Tables::Mixed);
        assert_eq!(
            (0..5).map(|s| bot_of(&c, 1, s)).collect::<Vec<_>>(),
            ["heuristic", "strong", "search", "random", "heuristic"]
        );
        let c = cfg(Tables::Field("strong".into()));
        // game 5: level 1 (heuristic) in seat 1; the others are the field
        assert_eq!(measured(&c, 5, 1), Some(1));
        assert_eq!(measured(&c, 5, 0), None);
        assert_eq!(bot_of(&c, 5, 1), "heuristic");
        assert_eq!(bot_of(&c, 5, 4), "strong");
    }
}
