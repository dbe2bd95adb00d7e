//! Tournaments: bots rated against each other over duplicate deals, with
//! paired differences, a sequential test and Plackett–Luce ratings, on every
//! core and resumable after an interrupt.
//!
//! Two modes share one engine. *Candidate vs field* plays one lineup, the
//! candidate in one seat and the field bot in the others. *Round robin*
//! plays, for every ordered pair of entrants (A, B), the lineup of one A
//! against `players - 1` B: every entrant meets every other one from both
//! sides, which is what a rating of the whole ladder needs, and each lineup
//! is a plain "one vs the rest" table like the candidate mode's. The one
//! sits in the last seat of rotation 0, so that seats joining mid-session
//! (Dalmuti's joins, which take the lineup from its first seat on) are the
//! rest's.
//!
//! A *deal* is one seed (see [`crate::duplicate`]): it is played by every
//! lineup in every seat rotation, so within a deal everyone met the same
//! cards and dice from every seat. That is why the *paired* difference (a
//! bot's per-seat win share minus another's, per deal, then averaged over
//! deals) is far tighter than the unpaired one: the luck of the deal cancels
//! out. Deals are handed back in deal order whatever the thread count, so
//! every figure, and the point where the SPRT stops, depends only on the
//! seed.
//!
//! With an output folder every finished deal is appended to a JSON-lines
//! checkpoint (a header line with the configuration, then one line per deal,
//! flushed), and a rerun skips the deals already there: the report of an
//! interrupted and resumed run is the report of an uninterrupted one,
//! because the report is a pure function of the deals ([`analyse`]).
//!
//! Statistics, all implemented here (no new dependency): Wilson intervals
//! for rates; Student-t intervals for the mean of per-deal paired
//! differences; a sequential probability ratio test on the candidate's
//! first-place rate whose observations are deals, not games (see [`Sprt`]); a
//! Plackett–Luce fit of the finishing orders by Hunter's MM algorithm (tied
//! places are handled Breslow-style: each tied seat counts as chosen from
//! the same set), with a weak prior (one virtual win each way between every
//! two entrants) so that a bot that never won still gets a finite rating,
//! and a bootstrap over deals for its uncertainty.

use crate::duplicate::{GameResult, Match};
use crate::simulate::Rate;
use bots::Roster;
use game::{Game, GameOptions, Seat};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The checkpoint file's format version (its header line's `ratrace_tournament`).
const FORMAT: u32 = 1;
/// Bootstrap resamples for the ratings' uncertainty.
const BOOTSTRAP: usize = 200;
/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_964;

/// Who plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One candidate against `players - 1` copies of the field bot.
    Candidate {
        /// The candidate's bot spec.
        candidate: String,
        /// The field's bot spec.
        field: String,
    },
    /// Every ordered pair (A, B) of entrants plays one A against
    /// `players - 1` B.
    RoundRobin {
        /// The entrants' bot specs.
        bots: Vec<String>,
    },
}

/// How long to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// This many deals.
    Deals(u64),
    /// At least this many games (rounded up to whole deals).
    Games(u64),
}

/// What to do with an existing checkpoint in the output folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resume {
    /// Continue it when its configuration matches (refuse it otherwise);
    /// start one when there is none.
    #[default]
    Auto,
    /// Continue it; it is an error if there is none.
    Require,
    /// Start over, replacing it.
    Fresh,
}

/// A sequential probability ratio test on the candidate's first-place
/// rate: H0 p = p0 against H1 p = p1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSpec {
    /// The rate under H0.
    pub p0: f64,
    /// The rate under H1.
    pub p1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl std::str::FromStr for SprtSpec {
    type Err = String;

    /// `p0,p1` or `p0,p1,alpha,beta` (alpha and beta default to 0.05).
    fn from_str(text: &str) -> Result<SprtSpec, String> {
        let bad = |why: &str| {
            format!("bad --sprt `{text}`: {why} (write p0,p1 or p0,p1,alpha,beta, e.g. 0.20,0.24)")
        };
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad("not numbers"))?;
        let (p0, p1, alpha, beta) = match parts[..] {
            [p0, p1] => (p0, p1, 0.05, 0.05),
            [p0, p1, a, b] => (p0, p1, a, b),
            _ => return Err(bad("two or four numbers")),
        };
        if !(p0 > 0.0 && p0 < 1.0 && p1 > 0.0 && p1 < 1.0) {
            return Err(bad("p0 and p1 must be between 0 and 1"));
        }
        if p0 >= p1 {
            return Err(bad("p0 must be below p1"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(bad("alpha and beta must be between 0 and 0.5"));
        }
        Ok(SprtSpec {
            p0,
            p1,
            alpha,
            beta,
        })
    }
}

/// Deals before the SPRT may decide: its variance is estimated from the
/// deals, and a handful would make it overconfident.
pub const SPRT_MIN_DEALS: u64 = 20;

/// The running state of an SPRT.
///
/// The rotations of a deal are not independent games (same cards, same
/// dice), so a per-game Bernoulli SPRT would get its error rates wrong.
/// The observations are the deals instead: `x` = the candidate's mean win
/// share over a deal's games, and the log-likelihood ratio of H1 (mean p1)
/// against H0 (mean p0) is that of a normal model with the variance of `x`
/// estimated from the deals so far (the generalised SPRT Fishtest uses for
/// correlated game pairs): (p1 - p0) / var * sum(x - (p0 + p1) / 2).
/// Wald's bounds apply; no decision before [`SPRT_MIN_DEALS`] deals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// The hypotheses and error rates.
    pub spec: SprtSpec,
    /// The log-likelihood ratio so far.
    pub llr: f64,
    /// Accept H0 at or below this: ln(beta / (1 - alpha)).
    pub lower: f64,
    /// Accept H1 at or above this: ln((1 - beta) / alpha).
    pub upper: f64,
    /// Games so far.
    pub games: u64,
    /// Deals so far.
    pub deals: u64,
    /// The candidate's mean win share per game so far.
    pub mean: f64,
    /// The variance of the per-deal mean win share.
    pub deal_variance: f64,
    /// `H1`, `H0`, or `none` while undecided.
    pub decision: String,
    #[serde(skip)]
    deal_sum: f64,
    #[serde(skip)]
    deal_games: u64,
    #[serde(skip)]
    sum: f64,
    #[serde(skip)]
    sum_sq: f64,
    #[serde(skip)]
    game_sum: f64,
}

impl Sprt {
    /// A test with no observations yet.
    pub fn new(spec: SprtSpec) -> Sprt {
        Sprt {
            spec,
            llr: 0.0,
            lower: (spec.beta / (1.0 - spec.alpha)).ln(),
            upper: ((1.0 - spec.beta) / spec.alpha).ln(),
            games: 0,
            deals: 0,
            mean: 0.0,
            deal_variance: 0.0,
            decision: "none".into(),
            deal_sum: 0.0,
            deal_games: 0,
            sum: 0.0,
            sum_sq: 0.0,
            game_sum: 0.0,
        }
    }

    /// Adds one game of the current deal in which the candidate took `x`
    /// of the win (1, 1/k for a shared win, 0).
    pub fn observe(&mut self, x: f64) {
        self.deal_sum += x;
        self.deal_games += 1;
        self.game_sum += x;
        self.games += 1;
    }

    /// Ends a deal: updates the ratio and decides if a bound is crossed;
    /// returns true once decided.
    pub fn end_deal(&mut self) -> bool {
        if self.decided() || self.deal_games == 0 {
            return self.decided();
        }
        let x = self.deal_sum / self.deal_games as f64;
        (self.deal_sum, self.deal_games) = (0.0, 0);
        self.deals += 1;
        self.sum += x;
        self.sum_sq += x * x;
        self.mean = self.game_sum / self.games as f64;
        let n = self.deals as f64;
        if self.deals < 2 {
            return false;
        }
        let var = ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).max(1e-12);
        self.deal_variance = var;
        let s = self.spec;
        self.llr = (s.p1 - s.p0) / var * (self.sum - n * (s.p0 + s.p1) / 2.0);
        if self.deals >= SPRT_MIN_DEALS {
            if self.llr >= self.upper {
                self.decision = "H1".into();
            } else if self.llr <= self.lower {
                self.decision = "H0".into();
            }
        }
        self.decided()
    }

    /// Whether a hypothesis has been accepted.
    pub fn decided(&self) -> bool {
        self.decision != "none"
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// Who plays.
    pub mode: Mode,
    /// Seats at the start.
    pub players: usize,
    /// Rules options.
    pub options: G::Options,
    /// How long.
    pub length: Length,
    /// The tournament's seed: deal `i` is played on `derive_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Actions after which a game is stopped with no winner (B17).
    pub max_actions: u64,
    /// Stop early once this test decides (candidate mode only).
    pub sprt: Option<SprtSpec>,
    /// Folder for the checkpoint and the reports.
    pub out: Option<PathBuf>,
    /// What to do with an existing checkpoint.
    pub resume: Resume,
    /// The command line, for the report.
    pub command: String,
}

/// One game of a deal, with the lineup that played it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// Index of the lineup (see [`Report::lineups`]).
    pub lineup: usize,
    /// The game.
    #[serde(flatten)]
    pub game: GameResult,
}

/// Every game of one deal, lineup by lineup, rotation by rotation: one
/// checkpoint line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deal {
    /// The deal's index.
    pub deal: u64,
    /// Its games.
    pub games: Vec<Played>,
}

/// What a checkpoint was written for: everything that decides a deal's
/// games. The deal count, threads and SPRT are not in it, so a run can be
/// lengthened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Game name.
    pub game: String,
    /// Seats at the start.
    pub players: usize,
    /// Options as `key=value`.
    pub options: Vec<String>,
    /// The entrants' bot specs.
    pub entrants: Vec<String>,
    /// Each lineup: the entrant in each seat in rotation 0.
    pub lineups: Vec<Vec<usize>>,
    /// The seed.
    pub seed: u64,
    /// The length cap.
    pub max_actions: u64,
}

#[derive(Serialize, Deserialize)]
struct Header {
    ratrace_tournament: u32,
    config: Fingerprint,
}

/// One entrant's figures.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantStats {
    /// Its name in the report.
    pub bot: String,
    /// Seat-games it played (one per seat per game).
    pub seat_games: u64,
    /// First places per seat-game (shared wins count as fractions), with a
    /// 95% Wilson interval over seat-games.
    pub wins: Rate,
    /// The rate if every seat were equal: the mean of 1/seats over its
    /// seat-games.
    pub fair_share: f64,
    /// Mean finishing place (1 = first).
    pub mean_place: f64,
}

/// A paired difference between two entrants over duplicate deals.
#[derive(Clone, Debug, Serialize)]
pub struct Paired {
    /// The first entrant.
    pub a: String,
    /// The second entrant.
    pub b: String,
    /// Deals in which both played.
    pub deals: u64,
    /// Mean over deals of (a's per-seat win share - b's), in the games of
    /// that deal with only a and b at the table.
    pub mean: f64,
    /// Standard deviation of the per-deal differences.
    pub sd: f64,
    /// Lower end of the 95% interval (Student t over deals).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Half-width of the 95% interval of the same mean from the per-game
    /// differences, as if the games were independent (no duplicate deals),
    /// for contrast.
    pub unpaired_half_width: f64,
}

/// One entrant's Plackett–Luce rating.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    /// Its name in the report.
    pub bot: String,
    /// 400 log10(strength / anchor's strength): Elo-like, anchor = 0.
    pub rating: f64,
    /// Standard deviation of the rating over bootstrap resamples of deals.
    pub sd: f64,
    /// 2.5th percentile of the bootstrap ratings.
    pub low: f64,
    /// 97.5th percentile.
    pub high: f64,
    /// Strength as a share of the sum over entrants.
    pub strength: f64,
}

/// The ratings of every entrant.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    /// The entrant rated 0.
    pub anchor: String,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// Per entrant, in entrant order.
    pub bots: Vec<Rating>,
}

/// One seat's figures.
#[derive(Clone, Debug, Serialize)]
pub struct SeatStats {
    /// The seat.
    pub seat: String,
    /// First places of whoever sat there.
    pub wins: Rate,
    /// Each entrant's first places when it sat there (entrant order).
    pub by_bot: Vec<Rate>,
}

/// Everything measured, a pure function of the deals.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// Deals reported.
    pub deals: u64,
    /// Games reported.
    pub games: u64,
    /// Per entrant.
    pub entrants: Vec<EntrantStats>,
    /// Per pair of entrants that met.
    pub paired: Vec<Paired>,
    /// Plackett–Luce ratings.
    pub ratings: Ratings,
    /// Per seat.
    pub seats: Vec<SeatStats>,
    /// Games won by more than one seat.
    pub shared_wins: u64,
    /// Games stopped by the length cap, with no winner (B17).
    pub capped: u64,
    /// Mean actions per game.
    pub mean_actions: f64,
}

/// Timing, which (unlike everything else) varies from run to run.
#[derive(Clone, Debug, Serialize)]
pub struct Speed {
    /// Worker threads.
    pub threads: usize,
    /// Games played by this run (not read from the checkpoint).
    pub games_played: u64,
    /// Wall-clock seconds of this run's play.
    pub play_seconds: f64,
    /// Wall-clock seconds of this run, reading, play and analysis.
    pub seconds: f64,
    /// Games per second of this run's play.
    pub games_per_second: f64,
    /// Per bot, how long it thought per decision with a choice, over every
    /// game reported (those read from a checkpoint too).
    pub think: Vec<ThinkStats>,
}

/// One bot's thinking time per decision with a choice (wall clock: it
/// depends on the machine and its load).
#[derive(Clone, Debug, Serialize)]
pub struct ThinkStats {
    /// The bot.
    pub bot: String,
    /// Decisions with more than one legal action.
    pub decisions: u64,
    /// Mean milliseconds per decision.
    pub mean_ms: f64,
    /// The longest decision, milliseconds.
    pub max_ms: f64,
}

/// Sums the bots' thinking times over `deals`.
fn think_stats(deals: &[Deal], labels: &[String]) -> Vec<ThinkStats> {
    let mut sums = vec![(0u64, 0u64, 0u64); labels.len()];
    for p in deals.iter().flat_map(|d| &d.games) {
        for (t, &e) in p.game.think.iter().zip(&p.game.seating) {
            if let Some(s) = sums.get_mut(e) {
                s.0 += u64::from(t.decisions);
                s.1 += t.total_us;
                s.2 = s.2.max(t.max_us);
            }
        }
    }
    labels
        .iter()
        .zip(sums)
        .map(|(bot, (n, total, max))| ThinkStats {
            bot: bot.clone(),
            decisions: n,
            mean_ms: total as f64 / 1000.0 / n.max(1) as f64,
            max_ms: max as f64 / 1000.0,
        })
        .collect()
}

/// The report: written as JSON and Markdown.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Game name.
    pub game: String,
    /// `candidate` or `round-robin`.
    pub mode: String,
    /// The command line.
    pub command: String,
    /// Options as `key=value`.
    pub options: Vec<String>,
    /// Seats at the start.
    pub players: usize,
    /// The entrants' names in the report (bot specs, tagged when the
    /// candidate and the field are the same bot).
    pub entrants: Vec<String>,
    /// The lineups, e.g. `heuristic + 4 random`.
    pub lineups: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// The length cap.
    pub max_actions: u64,
    /// Games per deal: lineups x rotations.
    pub games_per_deal: u64,
    /// Deals asked for.
    pub deals_planned: u64,
    /// Deals read back from the checkpoint.
    pub deals_resumed: u64,
    /// The SPRT, when asked for.
    pub sprt: Option<Sprt>,
    /// The figures.
    pub figures: Figures,
    /// Timing.
    pub speed: Speed,
}

/// The entrants' bot specs, their names in the report, and the lineups.
type Plan = (Vec<String>, Vec<String>, Vec<Vec<usize>>);

/// The entrants' bot specs, their report names and the lineups of a mode.
fn plan(mode: &Mode, players: usize) -> Result<Plan, String> {
    if players < 2 {
        return Err(format!(
            "a tournament needs at least 2 players, not {players}"
        ));
    }
    match mode {
        Mode::Candidate { candidate, field } => {
            let entrants = vec![candidate.clone(), field.clone()];
            let labels = if candidate == field {
                vec![
                    format!("{candidate} (candidate)"),
                    format!("{field} (field)"),
                ]
            } else {
                entrants.clone()
            };
            // The candidate sits last in rotation 0: seats that join later
            // (Dalmuti's joins) take the lineup from its first seat on, so
            // they are field seats.
            let mut lineup = vec![1; players];
            lineup[players - 1] = 0;
            Ok((entrants, labels, vec![lineup]))
        }
        Mode::RoundRobin { bots } => {
            if bots.len() < 2 {
                return Err("a round robin needs at least two bots in --bots".into());
            }
            for (i, b) in bots.iter().enumerate() {
                if bots[..i].contains(b) {
                    return Err(format!("bot `{b}` is named twice in --bots"));
                }
            }
            let mut lineups = Vec::new();
            for a in 0..bots.len() {
                for b in 0..bots.len() {
                    if a != b {
                        let mut l = vec![b; players];
                        l[players - 1] = a;
                        lineups.push(l);
                    }
                }
            }
            Ok((bots.clone(), bots.clone(), lineups))
        }
    }
}

fn lineup_name(labels: &[String], lineup: &[usize]) -> String {
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for &e in lineup {
        match parts.iter_mut().find(|(x, _)| *x == e) {
            Some(p) => p.1 += 1,
            None => parts.push((e, 1)),
        }
    }
    // The single bot first: "heuristic + 4 random".
    parts.sort_by_key(|&(_, n)| n);
    parts
        .iter()
        .map(|&(e, n)| {
            if n == 1 {
                labels[e].clone()
            } else {
                format!("{n} {}", labels[e])
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Runs the tournament (resuming a checkpoint when there is one) and
/// writes the reports when an output folder is given; `progress` hears of
/// every game played (not of those read back from the checkpoint).
pub fn run<G: Roster>(cfg: &Config<G>, progress: &dyn crate::Progress) -> Result<Report, String> {
    let start = Instant::now();
    let (entrants, labels, lineups) = plan(&cfg.mode, cfg.players)?;
    if cfg.sprt.is_some() && !matches!(cfg.mode, Mode::Candidate { .. }) {
        return Err("--sprt tests a candidate: use it with --candidate and --field".into());
    }
    let matches: Vec<Match<G>> = lineups
        .iter()
        .map(|l| Match {
            options: cfg.options.clone(),
            players: cfg.players,
            entrants: entrants.clone(),
            lineup: l.clone(),
            seed: cfg.seed,
            max_actions: cfg.max_actions,
        })
        .collect();
    for m in &matches {
        m.validate()?;
    }
    let per_deal = (lineups.len() * cfg.players) as u64;
    let planned = match cfg.length {
        Length::Deals(n) => n,
        Length::Games(n) => n.div_ceil(per_deal),
    };
    if planned == 0 {
        return Err("nothing to play: --deals (or --games) must be at least 1".into());
    }
    let options: Vec<String> = cfg
        .options
        .pairs()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let fingerprint = Fingerprint {
        game: G::NAME.to_string(),
        players: cfg.players,
        options: options.clone(),
        entrants: entrants.clone(),
        lineups: lineups.clone(),
        seed: cfg.seed,
        max_actions: cfg.max_actions,
    };
    let (resumed, mut writer) = match &cfg.out {
        Some(dir) => {
            let (deals, file) = open_checkpoint(dir, &fingerprint, per_deal, cfg.resume)?;
            (deals, Some(file))
        }
        None => (Vec::new(), None),
    };

    let mut sprt = cfg.sprt.map(Sprt::new);
    let mut deals: Vec<Deal> = Vec::new();
    // Feeds one deal to the SPRT; returns false once the run should stop.
    let accept = |deal: Deal, deals: &mut Vec<Deal>, sprt: &mut Option<Sprt>| -> bool {
        if let Some(t) = sprt.as_mut() {
            for p in &deal.games {
                let seats: Vec<usize> = (0..p.game.seating.len())
                    .filter(|&s| p.game.seating[s] == 0)
                    .collect();
                let share: f64 = seats.iter().map(|&s| p.game.win_share(s)).sum();
                t.observe(share / seats.len().max(1) as f64);
            }
            t.end_deal();
        }
        deals.push(deal);
        deals.len() < planned as usize && !sprt.as_ref().is_some_and(Sprt::decided)
    };
    let mut go_on = true;
    for d in resumed {
        if !go_on {
            break;
        }
        go_on = accept(d, &mut deals, &mut sprt);
    }
    let deals_resumed = deals.len() as u64;
    let mut games_played = 0u64;
    let play_start = Instant::now();
    if go_on && (deals.len() as u64) < planned {
        let todo = deals.len() as u64..planned;
        progress.start((todo.end - todo.start) * per_deal);
        run_deals(
            &matches,
            todo,
            cfg.threads,
            || {
                games_played += 1;
                progress.game_done();
            },
            |deal| {
                if let Some((path, file)) = writer.as_mut() {
                    let mut line = serde_json::to_string(&deal).map_err(|e| e.to_string())?;
                    line.push('\n');
                    file.write_all(line.as_bytes())
                        .and_then(|()| file.flush())
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
                Ok(accept(deal, &mut deals, &mut sprt))
            },
        )?;
        progress.finish();
    }
    let play_seconds = play_start.elapsed().as_secs_f64();
    let figures = analyse(&deals, &labels, cfg.seed);
    let seconds = start.elapsed().as_secs_f64();
    let report = Report {
        game: G::NAME.to_string(),
        mode: match cfg.mode {
            Mode::Candidate { .. } => "candidate".into(),
            Mode::RoundRobin { .. } => "round-robin".into(),
        },
        command: cfg.command.clone(),
        options,
        players: cfg.players,
        entrants: labels.clone(),
        lineups: lineups.iter().map(|l| lineup_name(&labels, l)).collect(),
        seed: cfg.seed,
        max_actions: cfg.max_actions,
        games_per_deal: per_deal,
        deals_planned: planned,
        deals_resumed,
        sprt,
        figures,
        speed: Speed {
            threads: cfg.threads.max(1),
            games_played,
            play_seconds,
            seconds,
            games_per_second: games_played as f64 / play_seconds.max(1e-9),
            think: think_stats(&deals, &labels),
        },
    };
    if let Some(dir) = &cfg.out {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        let path = dir.join("tournament.json");
        std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        let path = dir.join("tournament.md");
        std::fs::write(&path, format!("{report}\n"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(report)
}

/// The checkpoint's path in an output folder.
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.jsonl")
}

/// Reads the checkpoint in `dir` (when there is one and `resume` allows)
/// and opens it for appending; a new one gets its header line.
#[allow(clippy::type_complexity)]
fn open_checkpoint(
    dir: &Path,
    fingerprint: &Fingerprint,
    per_deal: u64,
    resume: Resume,
) -> Result<(Vec<Deal>, (PathBuf, std::fs::File)), String> {
    let path = checkpoint_path(dir);
    if resume == Resume::Require && !path.exists() {
        return Err(format!(
            "--resume: there is no checkpoint to resume at {}",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) if resume != Resume::Fresh && !text.trim().is_empty() => Some(text),
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(format!(
                "{}: unreadable checkpoint (not text); use another --out or --fresh",
                path.display()
            ))
        }
        Err(e) => return Err(err(e)),
    };
    let Some(text) = existing else {
        if resume == Resume::Require {
            return Err(format!(
                "--resume: there is no checkpoint to resume at {}",
                path.display()
            ));
        }
        let header = serde_json::to_string(&Header {
            ratrace_tournament: FORMAT,
            config: fingerprint.clone(),
        })
        .map_err(|e| e.to_string())?;
        let mut file = std::fs::File::create(&path).map_err(err)?;
        file.write_all(format!("{header}\n").as_bytes())
            .map_err(err)?;
        return Ok((Vec::new(), (path, file)));
    };
    let (deals, good_len) = parse_checkpoint(&text, fingerprint, per_deal)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .map_err(err)?;
    // Drop a last line cut short by an interrupt, then append after the
    // good lines.
    file.set_len(good_len as u64).map_err(err)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(err)?;
    Ok((deals, (path, file)))
}

/// Parses a checkpoint written for `fingerprint`: its deals, and the
/// length of the text up to the last complete line (a torn last line,
/// from an interrupt mid-write, is dropped).
pub fn parse_checkpoint(
    text: &str,
    fingerprint: &Fingerprint,
    per_deal: u64,
) -> Result<(Vec<Deal>, usize), String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let header: Header = Some(first)
        .filter(|l| l.ends_with('\n'))
        .and_then(|l| serde_json::from_str(l.trim()).ok())
        .ok_or_else(|| "unreadable checkpoint: the first line is not a tournament header; use another --out or --fresh".to_string())?;
    if header.ratrace_tournament != FORMAT {
        return Err(format!(
            "checkpoint format {} is not {FORMAT}; use another --out or --fresh",
            header.ratrace_tournament
        ));
    }
    if header.config != *fingerprint {
        return Err(format!(
            "the checkpoint was written for another tournament ({}); use another --out, or --fresh to replace it",
            differences(&header.config, fingerprint)
        ));
    }
    let mut deals = Vec::new();
    let mut good = first.len();
    let entrants = fingerprint.entrants.len();
    for (i, line) in lines.enumerate() {
        let complete = line.ends_with('\n');
        let parsed = serde_json::from_str::<Deal>(line.trim())
            .map_err(|e| e.to_string())
            .and_then(|d| {
                check_deal(&d, deals.len() as u64, fingerprint, entrants, per_deal).map(|()| d)
            });
        match (parsed, complete) {
            (Ok(d), true) => {
                deals.push(d);
                good += line.len();
            }
            // A torn last line: the run was stopped mid-write.
            (_, false) => break,
            (Err(e), true) => return Err(format!("unreadable checkpoint at line {}: {e}", i + 2)),
        }
    }
    Ok((deals, good))
}

/// What differs between two fingerprints, for the error message.
fn differences(there: &Fingerprint, here: &Fingerprint) -> String {
    let mut out = Vec::new();
    let mut cmp = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name} {a} there, {b} here"));
        }
    };
    cmp("game", there.game.clone(), here.game.clone());
    cmp(
        "players",
        there.players.to_string(),
        here.players.to_string(),
    );
    cmp("options", there.options.join(" "), here.options.join(" "));
    cmp("bots", there.entrants.join(","), here.entrants.join(","));
    cmp(
        "lineups",
        format!("{:?}", there.lineups),
        format!("{:?}", here.lineups),
    );
    cmp("seed", there.seed.to_string(), here.seed.to_string());
    cmp(
        "max-actions",
        there.max_actions.to_string(),
        here.max_actions.to_string(),
    );
    out.join("; ")
}

/// Checks a deal read back from a checkpoint, so a damaged file is an
/// error rather than a panic in the analysis.
fn check_deal(
    d: &Deal,
    want: u64,
    f: &Fingerprint,
    entrants: usize,
    per_deal: u64,
) -> Result<(), String> {
    if d.deal != want {
        return Err(format!("deal {} where deal {want} was expected", d.deal));
    }
    if d.games.len() as u64 != per_deal {
        return Err(format!(
            "deal {} has {} games, not {per_deal}",
            d.deal,
            d.games.len()
        ));
    }
    for p in &d.games {
        let g = &p.game;
        let n = g.seating.len();
        let ok = p.lineup < f.lineups.len()
            && n >= f.players
            && g.places.len() == n
            && g.scores.len() == n
            && g.seating.iter().all(|&e| e < entrants)
            && g.winners.iter().all(|&w| w < n);
        if !ok {
            return Err(format!("deal {} has a malformed game", d.deal));
        }
    }
    Ok(())
}

/// Plays `deals` with every lineup in every rotation on `threads` threads
/// (one game per task, so a few long games still spread over the cores)
/// and hands each deal to `on_deal` in deal order on the calling thread.
/// `on_deal` returns false to stop early. `on_game` is called for every
/// finished game in completion order.
pub fn run_deals<G: Roster>(
    matches: &[Match<G>],
    deals: std::ops::Range<u64>,
    threads: usize,
    on_game: impl FnMut(),
    mut on_deal: impl FnMut(Deal) -> Result<bool, String>,
) -> Result<(), String> {
    let Some(players) = matches.first().map(|m| m.rotations()) else {
        return Ok(());
    };
    let per_deal = matches.len() * players;
    let tasks = (deals.end.saturating_sub(deals.start)) as usize * per_deal;
    crate::duplicate::ordered(
        tasks,
        per_deal,
        threads,
        |t| {
            let deal = deals.start + (t / per_deal) as u64;
            let j = t % per_deal;
            let lineup = j / players;
            matches[lineup]
                .play(deal, j % players)
                .map(|game| Played { lineup, game })
        },
        on_game,
        |i, games| {
            on_deal(Deal {
                deal: deals.start + i as u64,
                games,
            })
        },
    )
}

/// A rate with its 95% Wilson interval; `wins` may be fractional (shared
/// wins).
pub fn wilson(wins: f64, games: u64) -> Rate {
    let w = crate::stats::wilson(wins, games);
    Rate {
        wins,
        games,
        rate: w.value,
        low: w.low,
        high: w.high,
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom.
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            // Cornish–Fisher expansion around the normal quantile.
            let (z, n) = (Z95, df as f64);
            z + (z.powi(3) + z) / (4.0 * n)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// Mean, standard deviation and 95% Student-t interval of `xs`.
pub fn mean_ci(xs: &[f64]) -> (f64, f64, f64, f64) {
    let n = xs.len();
    if n == 0 {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean, 0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let sd = var.sqrt();
    let half = t975(n as u64 - 1) * sd / (n as f64).sqrt();
    (mean, sd, mean - half, mean + half)
}

/// Finishing orders summarised for a Plackett–Luce fit: each *stage*
/// (choosing the next place among the seats not yet placed) is keyed by
/// how many seats of each entrant were still in the running, with how many
/// seats were placed from it; `wins` counts each entrant's placements.
/// Seats of the same entrant share a strength, so stages with the same
/// counts merge and the fit costs nothing per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlData {
    /// Placements per entrant.
    pub wins: Vec<f64>,
    /// Stage composition -> seats placed from it.
    pub stages: BTreeMap<Vec<u32>, f64>,
}

impl PlData {
    /// Empty data for `entrants` entrants.
    pub fn new(entrants: usize) -> PlData {
        PlData {
            wins: vec![0.0; entrants],
            stages: BTreeMap::new(),
        }
    }

    /// Adds one finishing order: `seating[s]` is the entrant in seat `s`,
    /// `places[s]` its place (1 = first; tied seats share a place and are
    /// each counted as chosen from the same set, Breslow's way). The last
    /// seat left is not a choice and adds nothing.
    pub fn add_game(&mut self, seating: &[usize], places: &[u8]) {
        let k = self.wins.len();
        let mut left: Vec<u32> = vec![0; k];
        for &e in seating {
            left[e] += 1;
        }
        let mut distinct: Vec<u8> = places.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for place in distinct {
            if left.iter().sum::<u32>() <= 1 {
                break;
            }
            let chosen: Vec<usize> = (0..seating.len())
                .filter(|&s| places[s] == place)
                .map(|s| seating[s])
                .collect();
            *self.stages.entry(left.clone()).or_insert(0.0) += chosen.len() as f64;
            for e in chosen {
                self.wins[e] += 1.0;
                left[e] -= 1;
            }
        }
    }

    /// Adds `weight` times `other`.
    pub fn add_scaled(&mut self, other: &PlData, weight: f64) {
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += weight * o;
        }
        for (c, m) in &other.stages {
            *self.stages.entry(c.clone()).or_insert(0.0) += weight * m;
        }
    }

    /// Fits strengths by Hunter's MM algorithm, with a prior of `prior`
    /// virtual wins each way between every two entrants (0 for none), so a
    /// bot that never won still gets a finite strength. Strengths are
    /// relative (their geometric mean is 1): compare ratios.
    pub fn fit(&self, prior: f64) -> Vec<f64> {
        self.fit_from(prior, &vec![1.0; self.wins.len()])
    }

    /// [`PlData::fit`] starting from `start` (a nearby fit converges in a
    /// few steps: the bootstrap starts from the full data's fit).
    pub fn fit_from(&self, prior: f64, start: &[f64]) -> Vec<f64> {
        let k = self.wins.len();
        let mut gamma = start.to_vec();
        for _ in 0..100_000 {
            let mut denom = vec![0.0; k];
            for (c, m) in &self.stages {
                let s: f64 = c.iter().zip(&gamma).map(|(&n, g)| n as f64 * g).sum();
                if s > 0.0 {
                    for e in 0..k {
                        denom[e] += m * c[e] as f64 / s;
                    }
                }
            }
            let mut new = gamma.clone();
            for e in 0..k {
                let mut d = denom[e];
                for f in (0..k).filter(|&f| f != e) {
                    d += 2.0 * prior / (gamma[e] + gamma[f]);
                }
                let w = self.wins[e] + prior * (k - 1) as f64;
                if d > 0.0 && w > 0.0 {
                    new[e] = w / d;
                }
            }
            let logs: Vec<f64> = new.iter().map(|g| g.ln()).collect();
            let centre = logs.iter().sum::<f64>() / k as f64;
            let mut change = 0.0f64;
            for e in 0..k {
                let g = (logs[e] - centre).exp();
                change = change.max((g / gamma[e]).ln().abs());
                gamma[e] = g;
            }
            if change.is_nan() || change < 1e-10 {
                break;
            }
        }
        gamma
    }
}

/// Elo-like rating of strength `g` against the anchor's `anchor`: the
/// Plackett–Luce chance that one beats the other head to head is
/// g / (g + anchor), which is Elo's curve on this scale.
fn elo(g: f64, anchor: f64) -> f64 {
    400.0 * (g / anchor).log10()
}

/// The report's figures from the deals; `labels` are the entrants' names,
/// `seed` seeds the bootstrap.
pub fn analyse(deals: &[Deal], labels: &[String], seed: u64) -> Figures {
    let k = labels.len();
    let mut seat_games = vec![0u64; k];
    let mut credit = vec![0.0; k];
    let mut fair = vec![0.0; k];
    let mut place_sum = vec![0.0; k];
    let mut seat_credit: Vec<f64> = Vec::new();
    let mut seat_count: Vec<u64> = Vec::new();
    let mut seat_bot: Vec<Vec<(f64, u64)>> = Vec::new();
    let (mut games, mut shared, mut capped, mut actions) = (0u64, 0u64, 0u64, 0u64);
    // Per pair (a, b): the per-deal differences, and the per-game ones for
    // the contrast with independent games.
    let mut pair_diffs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut game_diffs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut per_deal_pl: Vec<PlData> = Vec::new();
    for d in deals {
        let mut pl = PlData::new(k);
        let mut deal_pairs: BTreeMap<(usize, usize), [f64; 4]> = BTreeMap::new();
        for p in &d.games {
            let g = &p.game;
            let n = g.seating.len();
            games += 1;
            actions += g.actions;
            if g.capped || g.winners.is_empty() {
                capped += 1;
            } else {
                pl.add_game(&g.seating, &g.places);
            }
            if g.winners.len() > 1 {
                shared += 1;
            }
            if seat_credit.len() < n {
                seat_credit.resize(n, 0.0);
                seat_count.resize(n, 0);
                seat_bot.resize(n, vec![(0.0, 0); k]);
            }
            let mut present: Vec<usize> = g.seating.clone();
            present.sort_unstable();
            present.dedup();
            for (s, &e) in g.seating.iter().enumerate() {
                let w = g.win_share(s);
                seat_games[e] += 1;
                credit[e] += w;
                fair[e] += 1.0 / n as f64;
                place_sum[e] += f64::from(g.places[s]);
                seat_credit[s] += w;
                seat_count[s] += 1;
                seat_bot[s][e].0 += w;
                seat_bot[s][e].1 += 1;
            }
            if let [a, b] = present[..] {
                let mut t = [0.0; 4];
                for (s, &e) in g.seating.iter().enumerate() {
                    let i = if e == a { 0 } else { 2 };
                    t[i] += g.win_share(s);
                    t[i + 1] += 1.0;
                }
                game_diffs
                    .entry((a, b))
                    .or_default()
                    .push(t[0] / t[1] - t[2] / t[3]);
                let d = deal_pairs.entry((a, b)).or_insert([0.0; 4]);
                for i in 0..4 {
                    d[i] += t[i];
                }
            }
        }
        for (pair, t) in deal_pairs {
            pair_diffs
                .entry(pair)
                .or_default()
                .push(t[0] / t[1] - t[2] / t[3]);
        }
        per_deal_pl.push(pl);
    }
    let entrants = (0..k)
        .map(|e| {
            let n = seat_games[e];
            EntrantStats {
                bot: labels[e].clone(),
                seat_games: n,
                wins: wilson(credit[e], n),
                fair_share: fair[e] / n.max(1) as f64,
                mean_place: place_sum[e] / n.max(1) as f64,
            }
        })
        .collect();
    let paired = pair_diffs
        .iter()
        .map(|(&(a, b), xs)| {
            let (mean, sd, low, high) = mean_ci(xs);
            let (_, _, g_low, g_high) = mean_ci(&game_diffs[&(a, b)]);
            Paired {
                a: labels[a].clone(),
                b: labels[b].clone(),
                deals: xs.len() as u64,
                mean,
                sd,
                low,
                high,
                unpaired_half_width: (g_high - g_low) / 2.0,
            }
        })
        .collect();
    let seats = (0..seat_credit.len())
        .map(|s| SeatStats {
            seat: Seat::new(s).to_string(),
            wins: wilson(seat_credit[s], seat_count[s]),
            by_bot: seat_bot[s].iter().map(|&(c, n)| wilson(c, n)).collect(),
        })
        .collect();
    Figures {
        deals: deals.len() as u64,
        games,
        entrants,
        paired,
        ratings: ratings(&per_deal_pl, labels, seed),
        seats,
        shared_wins: shared,
        capped,
        mean_actions: actions as f64 / games.max(1) as f64,
    }
}

/// Plackett–Luce ratings with a bootstrap over deals. The anchor is
/// `random` when it plays, else the last entrant (the field in candidate
/// mode).
fn ratings(per_deal: &[PlData], labels: &[String], seed: u64) -> Ratings {
    let k = labels.len();
    let anchor = labels
        .iter()
        .position(|l| l == "random" || l == "random (field)")
        .unwrap_or(k.saturating_sub(1));
    let prior = 1.0;
    let mut all = PlData::new(k);
    for d in per_deal {
        all.add_scaled(d, 1.0);
    }
    let gamma = all.fit(prior);
    let total: f64 = gamma.iter().sum();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(crate::derive_seed(seed, u64::MAX));
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP); k];
    if per_deal.len() > 1 {
        for _ in 0..BOOTSTRAP {
            let mut counts = vec![0u32; per_deal.len()];
            for _ in 0..per_deal.len() {
                counts[rng.random_range(0..per_deal.len())] += 1;
            }
            let mut data = PlData::new(k);
            for (d, &c) in per_deal.iter().zip(&counts) {
                if c > 0 {
                    data.add_scaled(d, f64::from(c));
                }
            }
            let g = data.fit_from(prior, &gamma);
            for e in 0..k {
                samples[e].push(elo(g[e], g[anchor]));
            }
        }
    }
    let bots = (0..k)
        .map(|e| {
            let mut s = samples[e].clone();
            s.sort_by(f64::total_cmp);
            let rating = elo(gamma[e], gamma[anchor]);
            let (_, sd, _, _) = mean_ci(&s);
            let pick = |q: f64| {
                if s.is_empty() {
                    rating
                } else {
                    crate::stats::percentile(&s, q)
                }
            };
            Rating {
                bot: labels[e].clone(),
                rating,
                sd,
                low: pick(0.025),
                high: pick(0.975),
                strength: gamma[e] / total,
            }
        })
        .collect();
    Ratings {
        anchor: labels.get(anchor).cloned().unwrap_or_default(),
        bootstrap: if per_deal.len() > 1 { BOOTSTRAP } else { 0 },
        bots,
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn signed_pct(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
        let title = match self.mode.as_str() {
            "candidate" => format!(
                "{} vs field {}",
                self.entrants[0],
                self.entrants.get(1).map_or("", String::as_str)
            ),
            _ => format!("round robin of {}", self.entrants.join(", ")),
        };
        writeln!(f, "# Tournament: {}, {title}\n", self.game)?;
        writeln!(f, "- command: `{}`", self.command)?;
        writeln!(
            f,
            "- {} players, options: {}",
            self.players,
            if self.options.is_empty() {
                "defaults".to_string()
            } else {
                self.options.join(" ")
            }
        )?;
        writeln!(
            f,
            "- lineups (every one in every seat rotation): {}",
            self.lineups.join("; ")
        )?;
        writeln!(
            f,
            "- {} deals x {} games = {} games (seed {}, {} planned, {} read from the checkpoint)\n",
            fig.deals,
            self.games_per_deal,
            fig.games,
            self.seed,
            self.deals_planned,
            self.deals_resumed
        )?;

        writeln!(f, "## Entrants\n")?;
        writeln!(
            f,
            "First places per seat-game (shared wins count as fractions), 95% Wilson interval.\n"
        )?;
        writeln!(
            f,
            "| bot | seat-games | first-place rate | 95% CI | fair share | mean place |"
        )?;
        writeln!(f, "|---|---:|---:|---|---:|---:|")?;
        for e in &fig.entrants {
            writeln!(
                f,
                "| {} | {} | {} | {} – {} | {} | {:.2} |",
                e.bot,
                e.seat_games,
                pct(e.wins.rate),
                pct(e.wins.low),
                pct(e.wins.high),
                pct(e.fair_share),
                e.mean_place
            )?;
        }

        writeln!(f, "\n## Paired differences\n")?;
        writeln!(f, "Per deal: A's per-seat win share minus B's, over the games of that deal with only A and B at the table; mean over deals with a 95% t interval. The last column is the interval's half-width from the per-game differences, as if every game had its own deal.\n")?;
        writeln!(f, "| A - B | deals | mean | 95% CI (paired) | ± per game |")?;
        writeln!(f, "|---|---:|---:|---|---:|")?;
        for p in &fig.paired {
            writeln!(
                f,
                "| {} - {} | {} | {} | {} – {} | ±{} |",
                p.a,
                p.b,
                p.deals,
                signed_pct(p.mean),
                signed_pct(p.low),
                signed_pct(p.high),
                pct(p.unpaired_half_width)
            )?;
        }

        let r = &fig.ratings;
        writeln!(f, "\n## Ratings\n")?;
        writeln!(f, "Plackett–Luce fit of the finishing orders (Hunter's MM), Elo-like scale, {} = 0; ± is the standard deviation over {} bootstrap resamples of deals.\n", r.anchor, r.bootstrap)?;
        writeln!(
            f,
            "| bot | rating | ± | 95% bootstrap interval | strength share |"
        )?;
        writeln!(f, "|---|---:|---:|---|---:|")?;
        for b in &r.bots {
            writeln!(
                f,
                "| {} | {:.0} | {:.0} | {:.0} – {:.0} | {} |",
                b.bot,
                b.rating,
                b.sd,
                b.low,
                b.high,
                pct(b.strength)
            )?;
        }

        if let Some(t) = &self.sprt {
            writeln!(f, "\n## SPRT\n")?;
            let s = t.spec;
            let decision = match t.decision.as_str() {
                "H1" => format!("**accept H1** (p = {}) after {} deals", s.p1, t.deals),
                "H0" => format!("**accept H0** (p = {}) after {} deals", s.p0, t.deals),
                _ => format!("no decision after {} deals", t.deals),
            };
            writeln!(
                f,
                "{}'s first-place rate, H0 p = {} vs H1 p = {}, alpha {} beta {}: {decision} ({} games, mean {}); log-likelihood ratio {:.3}, bounds {:.3} and {:.3}. The observations are the deals' mean win shares (normal model, variance {:.5} estimated from the deals), since the games of a deal are not independent.",
                self.entrants[0], s.p0, s.p1, s.alpha, s.beta, t.games, pct(t.mean), t.llr, t.lower, t.upper, t.deal_variance
            )?;
        }

        writeln!(f, "\n## Seats\n")?;
        writeln!(
            f,
            "First-place rate by seat, for whoever sat there and for each bot.\n"
        )?;
        write!(f, "| seat | all | 95% CI |")?;
        for e in &self.entrants {
            write!(f, " {e} |")?;
        }
        write!(f, "\n|---|---:|---|")?;
        for _ in &self.entrants {
            write!(f, "---:|")?;
        }
        writeln!(f)?;
        for s in &fig.seats {
            write!(
                f,
                "| {} | {} | {} – {} |",
                s.seat,
                pct(s.wins.rate),
                pct(s.wins.low),
                pct(s.wins.high)
            )?;
            for b in &s.by_bot {
                if b.games == 0 {
                    write!(f, " – |")?;
                } else {
                    write!(f, " {} |", pct(b.rate))?;
                }
            }
            writeln!(f)?;
        }

        writeln!(f, "\n## Games\n")?;
        writeln!(
            f,
            "- mean game length: {:.1} actions; shared wins: {}; capped (no winner, B17): {}",
            fig.mean_actions, fig.shared_wins, fig.capped
        )?;
        write!(
            f,
            "- speed: {} games played in {:.2} s, {:.0} games/s on {} thread(s); {:.2} s in all",
            self.speed.games_played,
            self.speed.play_seconds,
            self.speed.games_per_second,
            self.speed.threads,
            self.speed.seconds
        )?;
        if self.speed.think.iter().any(|t| t.decisions > 0) {
            writeln!(
                f,
                "\n- thinking time per decision with a choice (wall clock, on this machine under its load at the time):"
            )?;
            for t in &self.speed.think {
                write!(
                    f,
                    "\n  - {}: mean {:.2} ms, longest {:.1} ms over {} decisions",
                    t.bot, t.mean_ms, t.max_ms, t.decisions
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn wilson_matches_known_values() {
        // 20 of 100: the Wilson interval is [13.34%, 28.88%].
        let r = wilson(20.0, 100);
        assert!((r.low - 0.1334).abs() < 1e-4, "{}", r.low);
        assert!((r.high - 0.2888).abs() < 1e-4, "{}", r.high);
        let r = wilson(0.0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-4, "{}", r.high);
    }

    #[test]
    fn t_interval_matches_known_values() {
        assert!((t975(10) - 2.228).abs() < 1e-9);
        assert!((t975(60) - 2.000).abs() < 2e-3);
        assert!((t975(1000) - 1.962).abs() < 1e-3);
        let (mean, sd, low, high) = mean_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(mean, 3.0);
        assert!((sd - 2.5f64.sqrt()).abs() < 1e-12);
        let half = 2.776 * 2.5f64.sqrt() / 5f64.sqrt();
        assert!((low - (3.0 - half)).abs() < 1e-9 && (high - (3.0 + half)).abs() < 1e-9);
    }

    #[test]
    fn sprt_parses_and_refuses_nonsense() {
        let s: SprtSpec = "0.20,0.24".parse().unwrap();
        assert_eq!((s.p0, s.p1, s.alpha, s.beta), (0.20, 0.24, 0.05, 0.05));
        let s: SprtSpec = "0.2, 0.3, 0.01, 0.1".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.01, 0.1));
        for bad in [
            "0.3,0.2",
            "0.2",
            "a,b",
            "0,0.5",
            "0.2,1",
            "0.2,0.3,0.6,0.1",
            "0.2,0.3,0.1",
        ] {
            assert!(bad.parse::<SprtSpec>().is_err(), "{bad}");
        }
    }

    fn sprt_run(p: f64, seed: u64) -> Sprt {
        let mut t = Sprt::new("0.20,0.24".parse().unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..1_000_000 {
            for _ in 0..5 {
                t.observe(if rng.random_bool(p) { 1.0 } else { 0.0 });
            }
            if t.end_deal() {
                break;
            }
        }
        t
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        // Wald's bounds: ln(0.95/0.05) = 2.944.
        let t = Sprt::new("0.20,0.24".parse().unwrap());
        assert!((t.upper - 2.944_439).abs() < 1e-6 && (t.lower + 2.944_439).abs() < 1e-6);
        let mut h1 = 0;
        let mut h0 = 0;
        for seed in 0..20 {
            h1 += (sprt_run(0.24, seed).decision == "H1") as u32;
            h0 += (sprt_run(0.20, seed).decision == "H0") as u32;
        }
        // Error rates are 5% each: 20 runs may see one or two errors.
        assert!(h1 >= 17, "H1 accepted {h1}/20 times when true");
        assert!(h0 >= 17, "H0 accepted {h0}/20 times when true");
        let t = sprt_run(0.40, 1);
        assert_eq!(t.decision, "H1");
        assert!(t.llr >= t.upper && t.games < 1000, "{t:?}");
        assert_eq!(t.games, 5 * t.deals);
        // Deals of 5 games with p = 0.2: the per-deal variance is
        // 0.2 * 0.8 / 5.
        let t = sprt_run(0.20, 2);
        assert!((t.deal_variance / 0.032 - 1.0).abs() < 0.25, "{t:?}");
        // Every deal gives the candidate exactly one win in five: H0 once
        // enough deals are in, not before.
        let mut t = Sprt::new("0.20,0.24".parse().unwrap());
        for d in 0..SPRT_MIN_DEALS {
            for g in 0..5 {
                t.observe(if (g + d) % 5 == 0 { 1.0 } else { 0.0 });
            }
            assert_eq!(t.end_deal(), d + 1 == SPRT_MIN_DEALS, "deal {d}: {t:?}");
        }
        assert_eq!(t.decision, "H0");
    }

    /// Draws a finishing order from Plackett–Luce with `weights`.
    fn pl_order(weights: &[f64], seating: &[usize], rng: &mut ChaCha8Rng) -> Vec<u8> {
        let mut left: Vec<usize> = (0..seating.len()).collect();
        let mut places = vec![0u8; seating.len()];
        let mut place = 1;
        while !left.is_empty() {
            let total: f64 = left.iter().map(|&s| weights[seating[s]]).sum();
            let mut x = rng.random::<f64>() * total;
            let mut pick = left.len() - 1;
            for (i, &s) in left.iter().enumerate() {
                x -= weights[seating[s]];
                if x < 0.0 {
                    pick = i;
                    break;
                }
            }
            places[left.remove(pick)] = place;
            place += 1;
        }
        places
    }

    #[test]
    fn plackett_luce_recovers_known_strengths() {
        let weights = [1.0, 2.0, 4.0, 0.5];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut data = PlData::new(4);
        for g in 0..6000 {
            // Mixed tables, with repeated entrants like a field.
            let seating: Vec<usize> = (0..5).map(|s| (g + s * (1 + g % 3)) % 4).collect();
            let places = pl_order(&weights, &seating, &mut rng);
            data.add_game(&seating, &places);
        }
        let g = data.fit(0.0);
        for e in 0..4 {
            let ratio = g[e] / g[0];
            assert!(
                (ratio / weights[e] - 1.0).abs() < 0.08,
                "entrant {e}: {ratio} vs {}",
                weights[e]
            );
        }
        // Elo scale: a 2x stronger bot is 120 points up.
        assert!((elo(2.0, 1.0) - 120.41).abs() < 0.01);
    }

    #[test]
    fn plackett_luce_stages_and_ties() {
        let mut d = PlData::new(2);
        // Seats: 0 1 1; places 2, 1, 1 -> entrant 1 twice chosen from
        // {0, 1, 1}; then the last seat is not a choice.
        d.add_game(&[0, 1, 1], &[2, 1, 1]);
        assert_eq!(d.wins, vec![0.0, 2.0]);
        assert_eq!(d.stages.len(), 1);
        assert_eq!(d.stages[&vec![1, 2]], 2.0);
        // Equal data for both: equal strengths, with or without a prior.
        let mut e = PlData::new(2);
        e.add_game(&[0, 1], &[1, 2]);
        e.add_game(&[0, 1], &[2, 1]);
        let g = e.fit(1.0);
        assert!((g[0] - g[1]).abs() < 1e-9);
        // A bot that never wins still gets a finite strength with a prior.
        let mut z = PlData::new(2);
        for _ in 0..10 {
            z.add_game(&[0, 1], &[2, 1]);
        }
        let g = z.fit(1.0);
        assert!(g[0] > 0.0 && g[0] < g[1]);
    }

    fn played(lineup: usize, seating: Vec<usize>, winner: usize) -> Played {
        let n = seating.len();
        Played {
            lineup,
            game: GameResult {
                deal: 0,
                rotation: 0,
                places: (0..n).map(|s| if s == winner { 1 } else { 2 }).collect(),
                scores: vec![0; n],
                seating,
                winners: vec![winner],
                actions: 10,
                capped: false,
                think: Vec::new(),
            },
        }
    }

    #[test]
    fn paired_differences_come_from_per_deal_shares() {
        let labels = vec!["a".to_string(), "b".to_string()];
        // Deal 0: a wins both of its games (share 1) and b none: per-seat
        // b share 0, diff +1. Deal 1: a wins one of two (0.5), b's two
        // seats win one of four seat-games (0.25): diff +0.25.
        let deals = vec![
            Deal {
                deal: 0,
                games: vec![played(0, vec![0, 1, 1], 0), played(0, vec![1, 0, 1], 1)],
            },
            Deal {
                deal: 1,
                games: vec![played(0, vec![0, 1, 1], 1), played(0, vec![1, 0, 1], 1)],
            },
        ];
        let fig = analyse(&deals, &labels, 0);
        let p = &fig.paired[0];
        assert_eq!((p.a.as_str(), p.b.as_str(), p.deals), ("a", "b", 2));
        assert!((p.mean - 0.625).abs() < 1e-12, "{p:?}");
        assert_eq!(fig.games, 4);
        assert!((fig.entrants[0].fair_share - 1.0 / 3.0).abs() < 1e-12);
    }
}
