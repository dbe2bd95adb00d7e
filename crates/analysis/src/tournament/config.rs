//! What a tournament plays: its configuration ([`Config`]: who, how
//! long, where the checkpoint goes) and the lineups a mode makes.
//!
//! Kept apart from the running so that a caller (the CLI, a binding) can
//! build and check a configuration without touching the worker pool or
//! the disk; `plan` is the one place that turns a mode into entrants and
//! lineups, and the checkpoint's fingerprint is made from its result.

use crate::Error;
use game::Game;
use std::path::PathBuf;

use super::sprt::SprtSpec;

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
    /// A ladder rated against a sparring panel: each level above the first
    /// plays one seat against `players - 1` of the level below and of each
    /// panel bot, and each panel bot plays one seat against `players - 1`
    /// of each level in `against`. The report gives every level's worst
    /// case ([`super::PanelFigures`]).
    Panel {
        /// The ladder's bot specs, weakest first; the first is only ever
        /// the level below.
        levels: Vec<String>,
        /// The panel's bot specs.
        panel: Vec<String>,
        /// The levels each panel bot is tried against as the lone seat.
        against: Vec<String>,
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
    /// The limits bot programs (`cmd:` bots) play under.
    pub limits: extbot::Limits,
    /// Where and which games are saved as records (`GAME-ID.json`, the id
    /// of [`super::ids::game_id`]); none when `None`.
    pub save: Option<crate::records::SaveGames>,
}

/// The entrants' bot specs, their names in the report, and the lineups.
pub(crate) type Plan = (Vec<String>, Vec<String>, Vec<Vec<usize>>);

/// An error when a name is given twice.
fn distinct(names: &[String], flag: &str) -> Result<(), Error> {
    for (i, b) in names.iter().enumerate() {
        if names[..i].contains(b) {
            return Err(Error::Config(format!("bot `{b}` is named twice in {flag}")));
        }
    }
    Ok(())
}

/// The lineup of one `one` against `players - 1` of `rest`: the one sits
/// last in rotation 0, so seats that join later (Dalmuti's joins take the
/// lineup from its first seat on) are the rest's.
fn one_vs_rest(one: usize, rest: usize, players: usize) -> Vec<usize> {
    let mut l = vec![rest; players];
    l[players - 1] = one;
    l
}

/// The entrants' bot specs, their report names and the lineups of a mode.
pub(crate) fn plan(mode: &Mode, players: usize) -> Result<Plan, Error> {
    if players < 2 {
        return Err(Error::Config(format!(
            "a tournament needs at least 2 players, not {players}"
        )));
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
            Ok((entrants, labels, vec![one_vs_rest(0, 1, players)]))
        }
        Mode::RoundRobin { bots } => {
            if bots.len() < 2 {
                return Err(Error::Config(
                    "a round robin needs at least two bots in --bots".into(),
                ));
            }
            distinct(bots, "--bots")?;
            let mut lineups = Vec::new();
            for a in 0..bots.len() {
                for b in 0..bots.len() {
                    if a != b {
                        lineups.push(one_vs_rest(a, b, players));
                    }
                }
            }
            Ok((bots.clone(), bots.clone(), lineups))
        }
        Mode::Panel {
            levels,
            panel,
            against,
        } => {
            if levels.len() < 2 {
                return Err(Error::Config(
                    "a panel run needs at least two ladder levels (--bots, weakest first)".into(),
                ));
            }
            if panel.is_empty() {
                return Err(Error::Config("the sparring panel is empty".into()));
            }
            let entrants: Vec<String> = levels.iter().chain(panel).cloned().collect();
            distinct(&entrants, "the levels and the panel")?;
            distinct(against, "--panel-against")?;
            let level = |name: &String| {
                levels.iter().position(|l| l == name).ok_or_else(|| {
                    Error::Config(format!(
                        "--panel-against names `{name}`, which is not a level (levels: {})",
                        levels.join(", ")
                    ))
                })
            };
            let against: Vec<usize> = against.iter().map(level).collect::<Result<_, _>>()?;
            let first_panel = levels.len();
            let mut lineups = Vec::new();
            for l in 1..levels.len() {
                lineups.push(one_vs_rest(l, l - 1, players));
                for p in first_panel..entrants.len() {
                    lineups.push(one_vs_rest(l, p, players));
                }
            }
            for &l in &against {
                for p in first_panel..entrants.len() {
                    lineups.push(one_vs_rest(p, l, players));
                }
            }
            Ok((entrants.clone(), entrants, lineups))
        }
    }
}

pub(crate) fn lineup_name(labels: &[String], lineup: &[usize]) -> String {
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
