//! The duplicate-spread study (`ratrace lab duplicate-spread`): does
//! duplicate play make a bot tournament's standings less a matter of luck?
//! The same lineup of bots of different strength plays many tournaments
//! with different seeds, each both ways, and the spread of every
//! entrant's standing across the tournaments is compared.
//!
//! - **Duplicate**: `deals` deals, each played in every seat rotation
//!   ([`crate::duplicate::Match`]), so every entrant met the same cards and
//!   dice from every seat;
//! - **plain**: as many games (`deals` x players), each a fresh deal with
//!   the lineup shuffled round the table: the same number of games, so
//!   the comparison is fair.
//!
//! An entrant's standing in a tournament is its mean normalised place
//! over every seat it played, and its rank among the entrants by that
//! ([`figures::standing`]). The repeats' seeds all come from the one seed
//! of the run: repeat `r`'s duplicate tournament plays on
//! `derive_seed(derive_seed(seed, r), 0)`, its plain one on
//! `derive_seed(derive_seed(seed, r), 1)` (game `j` on the derived seed of
//! `j`, its seating shuffled from `derive_seed(derive_seed(seed, r), 2)`).
//! Every game of every tournament goes on one worker pool, a tournament
//! being a group whose games come back in order ([`crate::pool`]), and
//! only its standing is kept: the figures are the same whatever the
//! thread count. One run is one game; the report ([`report`]) puts the
//! games side by side.

pub mod figures;
pub mod report;

pub use figures::{ByMode, EntrantSpread, Figures, ModeSpread, Standing};
pub use report::Report;

use crate::duplicate::Match;
use crate::playout::Table;
use crate::Error;
use bots::Roster;
use game::{Game, GameOptions};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::Instant;

/// Bootstrap draws for the interval of each ratio.
pub const RESAMPLES: usize = 2000;
/// The most repeated tournaments a run may ask for.
pub const MAX_REPEATS: u64 = 10_000;
/// The most deals a tournament may have.
pub const MAX_DEALS: u64 = 1_000_000;

/// How a tournament's games are dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every deal in every seat rotation.
    Duplicate,
    /// Every game a fresh deal, the lineup shuffled round the table.
    Plain,
}

/// What one game's study plays.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// Rules options.
    pub options: G::Options,
    /// Seats at the table.
    pub players: usize,
    /// The distinct bots, weakest first (bot specs); the last is taken as
    /// the strongest. They sit round the table in turn from P1
    /// ([`Config::lineup`]).
    pub entrants: Vec<String>,
    /// Deals of a duplicate tournament; a plain one plays `deals` x
    /// `players` games.
    pub deals: u64,
    /// Tournaments per mode.
    pub repeats: u64,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Actions after which a game is stopped with no winner (B17).
    pub max_actions: u64,
}

impl<G: Roster> Config<G> {
    /// The entrant in each seat before rotating or shuffling: the
    /// entrants in turn round the table (`random, heuristic, strong,
    /// random` at four seats).
    pub fn lineup(&self) -> Vec<usize> {
        (0..self.players)
            .map(|s| s % self.entrants.len().max(1))
            .collect()
    }

    /// Games in one tournament: `deals` x `players`, in either mode.
    pub fn games_per_tournament(&self) -> u64 {
        self.deals * self.players as u64
    }

    /// Games in the whole run: both modes, every repeat.
    pub fn games(&self) -> u64 {
        2 * self.repeats * self.games_per_tournament()
    }

    /// Checks everything that can be wrong before any game is played;
    /// the error names the flag to change.
    pub fn validate(&self) -> Result<(), Error> {
        if !(1..=MAX_DEALS).contains(&self.deals) {
            return Err(Error::Config(format!(
                "--deals must be 1 to {MAX_DEALS}, not {}",
                self.deals
            )));
        }
        if !(2..=MAX_REPEATS).contains(&self.repeats) {
            return Err(Error::Config(format!(
                "--repeats must be 2 to {MAX_REPEATS} (a spread needs two tournaments), not {}",
                self.repeats
            )));
        }
        let k = self.entrants.len();
        if k < 2 {
            return Err(Error::Config(
                "--bots needs at least two bots, weakest first".into(),
            ));
        }
        if k > self.players {
            return Err(Error::Config(format!(
                "--bots names {k} bots for {} seats: give at most one bot per seat",
                self.players
            )));
        }
        if let Some((i, e)) = self
            .entrants
            .iter()
            .enumerate()
            .find(|(i, e)| self.entrants[..*i].contains(e))
        {
            return Err(Error::Config(format!(
                "--bots names `{e}` twice (bot {} and an earlier one)",
                i + 1
            )));
        }
        self.game(0, Mode::Duplicate, 0).0.validate()
    }

    /// The match, deal and rotation that play game `j` of repeat
    /// `repeat`'s tournament in `mode`.
    pub fn game(&self, repeat: u64, mode: Mode, j: u64) -> (Match<G>, u64, usize) {
        let base = crate::derive_seed(self.seed, repeat);
        let m = |seed: u64, lineup: Vec<usize>| Match {
            options: self.options.clone(),
            players: self.players,
            entrants: self.entrants.clone(),
            lineup,
            seed,
            max_actions: self.max_actions,
            limits: extbot::Limits::default(),
        };
        let n = self.players as u64;
        match mode {
            Mode::Duplicate => (
                m(crate::derive_seed(base, 0), self.lineup()),
                j / n,
                (j % n) as usize,
            ),
            Mode::Plain => {
                let mut lineup = self.lineup();
                let shuffle = crate::derive_seed(crate::derive_seed(base, 2), j);
                lineup.shuffle(&mut ChaCha8Rng::seed_from_u64(shuffle));
                (m(crate::derive_seed(base, 1), lineup), j, 0)
            }
        }
    }

    /// The options that differ from the game's defaults, as `key=value`.
    fn changes(&self) -> Vec<String> {
        let default = G::Options::default().pairs();
        self.options
            .pairs()
            .into_iter()
            .filter(|p| !default.contains(p))
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }
}

/// One tournament of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tournament {
    /// Its repeat (0 first).
    pub repeat: u64,
    /// How its games were dealt.
    pub mode: Mode,
    /// The distinct deal seeds its games were played on: `deals` in
    /// duplicate, one per game in plain.
    pub distinct_deals: u64,
    /// Its games stopped by the length cap (nobody won; the places are
    /// the game's at the cap).
    pub capped: u64,
    /// Every entrant's standing.
    pub standing: Standing,
}

/// The study of one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameSpread {
    /// The game's name.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// Options differing from the game's defaults.
    pub options: Vec<String>,
    /// The entrants, weakest first.
    pub entrants: Vec<String>,
    /// The entrant in each seat before rotating or shuffling.
    pub lineup: Vec<usize>,
    /// Deals per duplicate tournament.
    pub deals: u64,
    /// Games per tournament, in either mode.
    pub games_per_tournament: u64,
    /// Tournaments per mode.
    pub repeats: u64,
    /// Every tournament, repeat by repeat, duplicate before plain.
    pub tournaments: Vec<Tournament>,
    /// The figures.
    pub figures: Figures,
    /// Games played in all.
    pub games: u64,
    /// Wall-clock seconds (not part of the results).
    pub seconds: f64,
}

impl GameSpread {
    /// The tournaments of one mode, repeat by repeat.
    pub fn of(&self, mode: Mode) -> impl Iterator<Item = &Tournament> {
        self.tournaments.iter().filter(move |t| t.mode == mode)
    }
}

/// Plays every tournament of `cfg` in both modes and computes the
/// figures; `progress` hears of every game, and of the game's name as
/// they start.
pub fn run<G: Roster>(
    cfg: &Config<G>,
    progress: &dyn crate::Progress,
) -> Result<GameSpread, Error> {
    cfg.validate()?;
    let start = Instant::now();
    let per = cfg.games_per_tournament() as usize;
    let groups = 2 * cfg.repeats as usize;
    let mode = |g: usize| {
        if g % 2 == 0 {
            Mode::Duplicate
        } else {
            Mode::Plain
        }
    };
    progress.start(cfg.games());
    progress.stage(G::NAME);
    let k = cfg.entrants.len();
    // A duplicate deal's rotations are consecutive games: one unit.
    let unit = |m: Mode| match m {
        Mode::Duplicate => cfg.players,
        Mode::Plain => 1,
    };
    let mut tournaments = Vec::with_capacity(groups);
    crate::pool::ordered_with(
        groups * per,
        per,
        cfg.threads,
        Table::new,
        |table, t| {
            let g = t / per;
            let (m, deal, rotation) = cfg.game((g / 2) as u64, mode(g), (t % per) as u64);
            Ok((m.deal_seed(deal), m.play_at(table, deal, rotation)?))
        },
        || progress.game_done(),
        |g, games| {
            let mut seeds: Vec<u64> = games.iter().map(|(s, _)| *s).collect();
            seeds.sort_unstable();
            seeds.dedup();
            let games: Vec<_> = games.into_iter().map(|(_, game)| game).collect();
            tournaments.push(Tournament {
                repeat: (g / 2) as u64,
                mode: mode(g),
                distinct_deals: seeds.len() as u64,
                capped: games.iter().filter(|g| g.capped).count() as u64,
                standing: figures::standing(&games, k, unit(mode(g))),
            });
            Ok(true)
        },
    )?;
    progress.finish();
    let standings = |m: Mode| -> Vec<Standing> {
        tournaments
            .iter()
            .filter(|t| t.mode == m)
            .map(|t| t.standing.clone())
            .collect()
    };
    let lineup = cfg.lineup();
    let seats: Vec<usize> = (0..k)
        .map(|e| lineup.iter().filter(|&&x| x == e).count())
        .collect();
    let figures = figures::figures(
        &cfg.entrants,
        &seats,
        &standings(Mode::Duplicate),
        &standings(Mode::Plain),
        RESAMPLES,
        crate::derive_seed(cfg.seed, u64::MAX),
    );
    Ok(GameSpread {
        game: G::NAME.to_string(),
        players: cfg.players,
        options: cfg.changes(),
        entrants: cfg.entrants.clone(),
        lineup,
        deals: cfg.deals,
        games_per_tournament: cfg.games_per_tournament(),
        repeats: cfg.repeats,
        tournaments,
        figures,
        games: cfg.games(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The default entrants of a game: the ladder's levels that decide at
/// once and play every table size as themselves (`random`, `heuristic`,
/// `strong`), weakest first.
pub fn default_entrants<G: Roster>() -> Vec<String> {
    G::LEVELS
        .iter()
        .filter(|l| l.instant && l.every_size)
        .map(|l| l.name.to_string())
        .collect()
}

#[cfg(test)]
mod tests;
