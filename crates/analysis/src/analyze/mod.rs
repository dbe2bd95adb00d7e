//! Post-game analysis: every decision of a finished
//! game judged by the strongest bot *from the deciding seat's own view at
//! that moment*, with the value of the chosen and of the best action, the
//! loss between them, a label, an evaluation series per player and the
//! turning points. `docs/analysis.md` is the design, the JSON format and
//! the measurements behind every number below.
//!
//! How one decision is judged ([`analyze`]):
//! 1. The record is replayed; at every decision with two or more legal
//!    actions the seat's [`Game::view`] is kept, never the full state.
//! 2. **Candidates.** The game's search engine ([`bots::search::Mcts`],
//!    with the search bot's domain, opponents by policy) searches from that
//!    view for [`Config::search`] iterations; its [`Config::candidates`]
//!    most visited actions, plus the action chosen, are the candidates.
//! 3. **Paired rollouts.** [`Config::rollouts`] times, a full state is drawn
//!    from the view ([`Game::sample_from_view`], the search bots'
//!    determinization), and every candidate is played from that *same*
//!    state and the same playout seed with the search bot's playout policy
//!    to the horizon (Big Cheese: the end of the game; Dalmuti: the end of
//!    the hand). Common random numbers make the differences between
//!    candidates far less noisy than their values.
//! 4. The value of an action is its mean outcome for the seat ([`Unit`]);
//!    the best action is the candidate with the best mean, the loss is
//!    best minus chosen (0 when the chosen is the best), and its standard
//!    error comes from the paired differences.
//!
//! Units, both in expected finishing place (1 = first; lower is better):
//! **Big Cheese** the place in the game ([`game::Outcome::places`], by
//! points, the winner first). Win chance was tried first: it saturates (a
//! seat far behind has about 0% whatever it does, so every decision of a
//! losing player looked good, and random play came out better than the
//! heuristic bot); final points were no less noisy, and the game is a race
//! to the target, not a score. **Dalmuti** the place
//! in the current hand: under D12 a hand's place is worth its session
//! points (first of N scores N-1, each place down one point less), so a
//! loss of 0.5 place is half a session point; the search bot looks at the
//! hand too, and the next deal is chance a decision cannot steer.
//!
//! Everything is a function of the record and the [`Config`]: decision
//! `i` is judged with seeds derived from the record's seed and `i`, so the
//! result does not depend on the thread count.

pub mod ladder;

use crate::pool;
use crate::{derive_seed, Error};
use bots::search::{Domain, Mcts};
use bots::{Budget, Roster};
use game::{Game, Record, Seat, Seed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The version of the JSON form ([`Analysis`]): bumped whenever a field
/// changes meaning or is removed (new fields may be added).
pub const FORMAT: &str = "ratrace-analysis/1";

/// The most actions one rollout plays before it is scored as it stands
/// (ruling B17's endless games; no rollout measured came near it).
pub const ROLLOUT_CAP: u32 = 20_000;

/// What a value is measured in, for a reader of the JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Short name: `win%` (Big Cheese) or `place` (Dalmuti).
    pub name: Cow<'static, str>,
    /// In words, for a legend.
    pub words: Cow<'static, str>,
    /// True when a higher value is better (win%), false when lower is
    /// (place). A loss is always >= 0 whatever the direction.
    pub higher_is_better: bool,
}

/// The loss thresholds of the labels, in the game's unit: a loss below
/// `inaccuracy` is good, below `mistake` an inaccuracy, below `blunder`
/// a mistake, else a blunder.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Smallest loss labelled an inaccuracy.
    pub inaccuracy: f64,
    /// Smallest loss labelled a mistake.
    pub mistake: f64,
    /// Smallest loss labelled a blunder.
    pub blunder: f64,
}

impl Thresholds {
    /// The label of a loss.
    pub fn label(&self, loss: f64) -> Label {
        if loss >= self.blunder {
            Label::Blunder
        } else if loss >= self.mistake {
            Label::Mistake
        } else if loss >= self.inaccuracy {
            Label::Inaccuracy
        } else {
            Label::Good
        }
    }
}

/// How a decision is judged, by its loss ([`Thresholds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Within the evaluation's noise of the best.
    Good,
    /// A small but real loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A large loss.
    Blunder,
}

impl Label {
    /// Every label, best first.
    pub const ALL: [Label; 4] = [
        Label::Good,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ];

    /// The label in words, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A game the analysis knows how to judge: its search domain, its unit
/// and its thresholds (see the module docs and `docs/analysis.md`).
pub trait Judge: Roster {
    /// The search bot's half of the search: its playout policy and horizon.
    type Domain: Domain<Self> + Default + Clone;
    /// The search bot's UCT exploration constant.
    const EXPLORATION: f64;
    /// What values are measured in.
    const UNIT: Unit;
    /// The label thresholds, in [`Judge::UNIT`].
    const THRESHOLDS: Thresholds;
    /// Default MCTS iterations per decision (candidates).
    const SEARCH: u32;
    /// Default paired rollouts per candidate.
    const ROLLOUTS: u32;

    /// What a rollout from `start` ending at `end` is worth to `seat`,
    /// higher better (a win share, or minus a place).
    fn utility(start: &Self, end: &Self, seat: Seat) -> f64;

    /// A utility in the game's unit ([`Judge::UNIT`]).
    fn shown(utility: f64) -> f64;

    /// The evaluation horizon a view is in: Dalmuti's hand number; 1 for
    /// the Big Cheese (the whole game).
    fn hand(view: &Self::View) -> u32;
}

impl Judge for bigcheese::BigCheese {
    type Domain = bots::big_cheese::search::CheeseDomain;
    const EXPLORATION: f64 = bots::big_cheese::search::EXPLORATION;
    const UNIT: Unit = Unit {
        name: Cow::Borrowed("place"),
        words: Cow::Borrowed("expected finishing place in the game (1 = winner)"),
        higher_is_better: false,
    };
    const THRESHOLDS: Thresholds = Thresholds {
        inaccuracy: 0.07,
        mistake: 0.15,
        blunder: 0.3,
    };
    const SEARCH: u32 = 500;
    const ROLLOUTS: u32 = 1024;

    fn utility(_start: &Self, end: &Self, seat: Seat) -> f64 {
        // a rollout stopped at the cap is ranked as it stands (B17)
        let outcome = end.outcome().unwrap_or_else(|| end.capped_outcome());
        let n = outcome.places.len();
        -(outcome
            .places
            .get(seat.index())
            .copied()
            .map_or(n, usize::from) as f64)
    }

    fn shown(utility: f64) -> f64 {
        -utility
    }

    fn hand(_view: &Self::View) -> u32 {
        1
    }
}

impl Judge for dalmuti::Dalmuti {
    type Domain = bots::great_dalmuti::search::DalmutiDomain;
    const EXPLORATION: f64 = bots::great_dalmuti::search::EXPLORATION;
    const UNIT: Unit = Unit {
        name: Cow::Borrowed("place"),
        words: Cow::Borrowed("expected finishing place in the hand (1 = first out)"),
        higher_is_better: false,
    };
    const THRESHOLDS: Thresholds = Thresholds {
        inaccuracy: 0.07,
        mistake: 0.25,
        blunder: 0.5,
    };
    const SEARCH: u32 = 1000;
    const ROLLOUTS: u32 = 1024;

    fn utility(start: &Self, end: &Self, seat: Seat) -> f64 {
        let n = end.players();
        let place =
            if end.hand_number() != start.hand_number() && end.phase() != dalmuti::Phase::Over {
                // the next hand started: its table order is the finishing order
                end.order().position(|s| s == seat)
            } else {
                end.finishing_order().position(|s| s == seat)
            };
        -((place.unwrap_or(n.saturating_sub(1)) + 1) as f64)
    }

    fn shown(utility: f64) -> f64 {
        -utility
    }

    fn hand(view: &Self::View) -> u32 {
        view.public.hand_number
    }
}

/// How much work goes into each decision; [`Config::for_game`] gives the
/// defaults, which meet the speed goals of `docs/analysis.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// MCTS iterations from the seat's view to find the candidates.
    pub search: u32,
    /// Paired rollouts per candidate.
    pub rollouts: u32,
    /// How many of the search's most visited actions are candidates
    /// (the chosen action always is one).
    pub candidates: usize,
    /// Worker threads (the result does not depend on it).
    #[serde(skip)]
    pub threads: usize,
    /// Also analyse a game that is not over. Off by default: the analysis
    /// of a decision (its best action) shows what the seat held, which a
    /// game in progress must not tell the other players.
    #[serde(skip)]
    pub unfinished: bool,
}

impl Config {
    /// The defaults for game `G`, on one thread.
    pub fn for_game<G: Judge>() -> Config {
        Config {
            search: G::SEARCH,
            rollouts: G::ROLLOUTS,
            candidates: 3,
            threads: 1,
            unfinished: false,
        }
    }
}

/// One evaluated candidate of a decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The action, in the game's notation (`bid 3`, `play 2x7+J`).
    pub action: String,
    /// Its value, in the unit.
    pub value: f64,
}

/// One decision of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// 1-based number of the action in the record (as `ratrace replay`
    /// numbers them).
    #[serde(rename = "move")]
    pub move_number: usize,
    /// Who decided.
    pub seat: Seat,
    /// The evaluation horizon: Dalmuti's hand number, 1 in the Big Cheese.
    pub hand: u32,
    /// How many legal actions there were.
    pub legal: usize,
    /// The action taken.
    pub chosen: String,
    /// The best candidate found (the chosen one when nothing was better).
    pub best: String,
    /// The value of the chosen action: the position's value for the seat
    /// after this decision, from its own view.
    pub value_chosen: f64,
    /// The value of the best action: the position's value before it.
    pub value_best: f64,
    /// `|value_best - value_chosen|` in the unit, >= 0.
    pub loss: f64,
    /// The standard error of `loss` (from the paired rollouts).
    pub std_error: f64,
    /// The label of `loss`.
    pub label: Label,
    /// Every candidate evaluated, best first.
    pub candidates: Vec<Candidate>,
}

/// One point of a player's evaluation series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The decision's move number.
    #[serde(rename = "move")]
    pub move_number: usize,
    /// The position's value for the player after that decision (its
    /// `value_chosen`).
    pub value: f64,
}

/// A player's evaluation series, for a graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Whose.
    pub seat: Seat,
    /// After each of the player's decisions, in move order.
    pub points: Vec<Point>,
}

/// A player's decisions, summed up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// Whose.
    pub seat: Seat,
    /// Decisions with a choice.
    pub decisions: usize,
    /// Mean loss per decision, in the unit.
    pub mean_loss: f64,
    /// Total loss, in the unit.
    pub total_loss: f64,
    /// How many of each label.
    pub good: usize,
    /// See `good`.
    pub inaccuracy: usize,
    /// See `good`.
    pub mistake: usize,
    /// See `good`.
    pub blunder: usize,
    /// Share of decisions labelled good, 0..=1 (1 with no decision).
    pub accuracy: f64,
}

/// A large swing of a player's value between two of their decisions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurningPoint {
    /// The decision's move number.
    #[serde(rename = "move")]
    pub move_number: usize,
    /// Whose value swung.
    pub seat: Seat,
    /// The move number of the player's previous decision.
    pub since: usize,
    /// The value after the previous decision.
    pub from: f64,
    /// The value after this one.
    pub to: f64,
    /// `to - from` in the unit (its sign: see [`Unit::higher_is_better`]).
    pub swing: f64,
    /// The part of the swing that came from the table in between (other
    /// players, chance): `value_best - from`.
    pub by_table: f64,
    /// The part that came from this decision: `value_chosen -
    /// value_best`, so `by_table + by_choice = swing`.
    pub by_choice: f64,
}

/// The analysis of a game: what the server stores and the web page draws.
/// The field names are the format [`FORMAT`]; `docs/analysis.md` has an
/// example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// [`FORMAT`].
    pub format: String,
    /// The game: `bigcheese` or `dalmuti`.
    pub game: String,
    /// The record's rules version.
    pub rules_version: String,
    /// Seats at the start.
    pub players: usize,
    /// Actions in the record.
    pub actions: usize,
    /// Whether the game was over (or stopped at a length cap, B17).
    pub finished: bool,
    /// What values are in.
    pub unit: Unit,
    /// The label thresholds, in the unit.
    pub thresholds: Thresholds,
    /// The work per decision.
    pub budget: Config,
    /// Every decision with a choice, in order.
    pub decisions: Vec<Decision>,
    /// Per seat that decided, in seat order.
    pub summary: Vec<PlayerSummary>,
    /// Per seat that decided, in seat order.
    pub series: Vec<Series>,
    /// The largest swings, largest first (at most [`TURNING_POINTS`]).
    pub turning_points: Vec<TurningPoint>,
}

/// How many turning points an analysis lists.
pub const TURNING_POINTS: usize = 5;

/// A decision waiting to be judged: what the seat knew and did.
struct Pending<G: Game> {
    index: usize,
    seat: Seat,
    view: G::View,
    legal: Vec<G::Action>,
    chosen: G::Action,
}

/// A 64-bit number from the record's seed, for the analysis' own seeds
/// (they only drive the sampler and the rollouts, which see views).
pub fn seed_number(seed: &Seed) -> u64 {
    match *seed {
        Seed::Legacy(n) => n,
        Seed::Full(bytes) => bytes.chunks(8).enumerate().fold(0u64, |acc, (i, c)| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            derive_seed(acc ^ u64::from_le_bytes(b), i as u64)
        }),
    }
}

/// Analyses a game record (see the module docs). `progress(done, total)`
/// is called on the calling thread once before the first decision (`done
/// = 0`) and after each decision is judged. Fails on a record that does
/// not replay ([`Error::Record`]) and, unless [`Config::unfinished`], on a
/// game that is not over ([`Error::Unfinished`]).
pub fn analyze<G: Judge>(
    record: &Record,
    cfg: &Config,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, Error> {
    let mut pending: Vec<Pending<G>> = Vec::new();
    let mut game: G = record.start()?;
    let mut legal = Vec::new();
    for index in 0..record.actions.len() {
        let (seat, action) = record.parse_action::<G>(index)?;
        if game.to_move() == Some(seat) {
            game.legal_actions(&mut legal);
            if legal.len() >= 2 {
                pending.push(Pending {
                    index,
                    seat,
                    view: game.view(seat),
                    legal: legal.clone(),
                    chosen: action,
                });
            }
        }
        game.act(seat, action)
            .map_err(|e| game::RecordError::BadAction {
                index: index + 1,
                text: record.actions[index].clone(),
                reason: e.to_string(),
            })?;
    }
    record.check_outcome(&game)?;
    // over, or stopped by a runner's length cap as the record says (B17)
    let finished = game.outcome().is_some() || record.outcome.as_ref().is_some_and(|o| o.capped);
    if !finished && !cfg.unfinished {
        return Err(Error::Unfinished {
            actions: record.actions.len(),
        });
    }
    let base = seed_number(&record.seed);
    let total = pending.len();
    progress(0, total);
    let mut decisions: Vec<Decision> = Vec::with_capacity(total);
    let mut done = 0;
    pool::ordered(
        total,
        1,
        cfg.threads.max(1),
        |t| {
            Ok(judge::<G>(
                &pending[t],
                cfg,
                derive_seed(base, pending[t].index as u64),
            ))
        },
        || {
            done += 1;
            progress(done, total);
        },
        |_, mut d| {
            decisions.append(&mut d);
            Ok(true)
        },
    )?;
    Ok(assemble::<G>(record, finished, cfg, decisions))
}

/// Judges one decision from the seat's view (steps 2 to 4 of the module
/// docs), with every seed derived from `seed`.
fn judge<G: Judge>(p: &Pending<G>, cfg: &Config, seed: u64) -> Decision {
    let mut mcts: Mcts<G, G::Domain> = Mcts::new(
        G::Domain::default(),
        Budget::Iterations(cfg.search.max(1)),
        G::EXPLORATION,
        derive_seed(seed, 1),
    );
    mcts.opponents_by_policy = true;
    let ranked = mcts.search(&p.view, &p.legal);
    let mut cands: Vec<G::Action> = ranked
        .iter()
        .take(cfg.candidates.max(1))
        .map(|s| s.action)
        .collect();
    if !cands.contains(&p.chosen) {
        cands.push(p.chosen);
    }
    let chosen_at = cands.iter().position(|a| *a == p.chosen).unwrap_or(0);
    let rollouts = cfg.rollouts.max(1) as usize;
    // utilities[r][c]: candidate c in rollout r
    let mut utilities: Vec<Vec<f64>> = Vec::with_capacity(rollouts);
    let mut domain = G::Domain::default();
    domain.start(&p.view);
    let mut scratch = Vec::new();
    for r in 0..rollouts {
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, 2 + r as u64));
        let start = G::sample_from_view(&p.view, &mut rng);
        let playout_seed: u64 = rng.random();
        let row = cands
            .iter()
            .map(|&a| {
                let mut state = start.clone();
                state.apply_unchecked(a);
                let mut prng = ChaCha8Rng::seed_from_u64(playout_seed);
                let mut steps = 0;
                while steps < ROLLOUT_CAP && !domain.stop(&state) && state.to_move().is_some() {
                    let b = domain.policy(&state, &mut prng, &mut scratch);
                    state.apply_unchecked(b);
                    steps += 1;
                }
                G::utility(&start, &state, p.seat)
            })
            .collect();
        utilities.push(row);
    }
    let means: Vec<f64> = (0..cands.len())
        .map(|c| utilities.iter().map(|row| row[c]).sum::<f64>() / rollouts as f64)
        .collect();
    // best: the highest mean; ties go to the chosen action, then the
    // search's order
    let mut best = chosen_at;
    for c in 0..cands.len() {
        if means[c] > means[best] + 1e-12 {
            best = c;
        }
    }
    let diffs: Vec<f64> = utilities
        .iter()
        .map(|row| row[best] - row[chosen_at])
        .collect();
    let mean_diff = diffs.iter().sum::<f64>() / rollouts as f64;
    let std_error = if rollouts > 1 {
        let var =
            diffs.iter().map(|d| (d - mean_diff).powi(2)).sum::<f64>() / (rollouts - 1) as f64;
        (var / rollouts as f64).sqrt()
    } else {
        0.0
    };
    let scale = G::shown(1.0) - G::shown(0.0);
    let loss = (mean_diff * scale).abs();
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| {
        means[b]
            .partial_cmp(&means[a])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Decision {
        move_number: p.index + 1,
        seat: p.seat,
        hand: G::hand(&p.view),
        legal: p.legal.len(),
        chosen: p.chosen.to_string(),
        best: cands[best].to_string(),
        value_chosen: G::shown(means[chosen_at]),
        value_best: G::shown(means[best]),
        loss,
        std_error: std_error * scale.abs(),
        label: G::THRESHOLDS.label(loss),
        candidates: order
            .into_iter()
            .map(|c| Candidate {
                action: cands[c].to_string(),
                value: G::shown(means[c]),
            })
            .collect(),
    }
}

/// The per-player summary, series and turning points of judged decisions.
fn assemble<G: Judge>(
    record: &Record,
    finished: bool,
    cfg: &Config,
    decisions: Vec<Decision>,
) -> Analysis {
    let seats = decisions
        .iter()
        .map(|d| d.seat.index() + 1)
        .max()
        .unwrap_or(0);
    let mut summary = Vec::new();
    let mut series = Vec::new();
    let mut turning = Vec::new();
    for s in 0..seats {
        let seat = Seat::new(s);
        let mine: Vec<&Decision> = decisions.iter().filter(|d| d.seat == seat).collect();
        if mine.is_empty() {
            continue;
        }
        summary.push(summarize(seat, &mine));
        series.push(Series {
            seat,
            points: mine
                .iter()
                .map(|d| Point {
                    move_number: d.move_number,
                    value: d.value_chosen,
                })
                .collect(),
        });
        for w in mine.windows(2) {
            let (prev, d) = (w[0], w[1]);
            if prev.hand != d.hand {
                continue; // a new horizon (Dalmuti's next hand) starts afresh
            }
            turning.push(TurningPoint {
                move_number: d.move_number,
                seat,
                since: prev.move_number,
                from: prev.value_chosen,
                to: d.value_chosen,
                swing: d.value_chosen - prev.value_chosen,
                by_table: d.value_best - prev.value_chosen,
                by_choice: d.value_chosen - d.value_best,
            });
        }
    }
    turning.sort_by(|a, b| {
        b.swing
            .abs()
            .partial_cmp(&a.swing.abs())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.move_number.cmp(&b.move_number))
    });
    turning.truncate(TURNING_POINTS);
    Analysis {
        format: FORMAT.to_string(),
        game: G::NAME.to_string(),
        rules_version: record.rules_version.clone(),
        players: record.players,
        actions: record.actions.len(),
        finished,
        unit: G::UNIT,
        thresholds: G::THRESHOLDS,
        budget: *cfg,
        decisions,
        summary,
        series,
        turning_points: turning,
    }
}

/// One player's summary.
fn summarize(seat: Seat, mine: &[&Decision]) -> PlayerSummary {
    let count = |l: Label| mine.iter().filter(|d| d.label == l).count();
    let total_loss: f64 = mine.iter().map(|d| d.loss).sum();
    let n = mine.len();
    PlayerSummary {
        seat,
        decisions: n,
        mean_loss: if n > 0 { total_loss / n as f64 } else { 0.0 },
        total_loss,
        good: count(Label::Good),
        inaccuracy: count(Label::Inaccuracy),
        mistake: count(Label::Mistake),
        blunder: count(Label::Blunder),
        accuracy: if n > 0 {
            count(Label::Good) as f64 / n as f64
        } else {
            1.0
        },
    }
}

#[cfg(test)]
mod tests;
