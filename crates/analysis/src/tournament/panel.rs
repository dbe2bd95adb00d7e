//! The panel mode's figures: every ladder level's first-place rate against
//! the level below and against each sparring-panel bot, its worst case,
//! and each panel bot's rate against the levels it was tried against.
//!
//! A level that only beats the bots it was tuned against is not a level:
//! the average over the panel can hide one opponent style that beats it,
//! so the worst matchup is reported beside every row. Like
//! [`super::analyse`], this is a pure function of the deals, so a resumed
//! run reports what an uninterrupted one does. A lineup's lone seat is its
//! last entry (see `config::plan`), which holds for every player count,
//! two included.

use super::worker::Deal;
use crate::stats::Rate;
use serde::Serialize;

/// One bot alone against `players - 1` of another.
#[derive(Clone, Debug, Serialize)]
pub struct Matchup {
    /// The lone bot.
    pub bot: String,
    /// The bot in every other seat.
    pub against: String,
    /// The lone bot's first places per seat-game, with a 95% Wilson
    /// interval over its seat-games.
    pub wins: Rate,
    /// The rate if every seat were equal (1 / seats).
    pub fair_share: f64,
}

impl Matchup {
    /// Above fair share with the interval's lower bound included.
    pub fn above_fair(&self) -> bool {
        self.wins.low > self.fair_share
    }
}

/// One ladder level against the level below and the panel.
#[derive(Clone, Debug, Serialize)]
pub struct LevelFigures {
    /// The level.
    pub level: String,
    /// Against `players - 1` of the level below.
    pub vs_below: Matchup,
    /// Against `players - 1` of each panel bot, in panel order.
    pub vs_panel: Vec<Matchup>,
    /// The mean first-place rate over the panel matchups.
    pub panel_mean: f64,
    /// The matchup with the lowest rate, the level below included.
    pub worst: Matchup,
    /// Whether every matchup is above fair share, lower bounds included.
    pub holds: bool,
}

/// The panel mode's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PanelFigures {
    /// Each level above the first, weakest first.
    pub levels: Vec<LevelFigures>,
    /// Each panel bot alone against `players - 1` of a level, level by
    /// level (as `--panel-against` lists them), then panel order.
    pub panel_vs: Vec<Matchup>,
}

/// The lone seat's figures in every lineup.
fn matchups(deals: &[Deal], lineups: &[Vec<usize>], labels: &[String]) -> Vec<Matchup> {
    // Per lineup: the lone bot's win credit, its seat-games and 1/seats.
    let mut sums = vec![(0.0, 0u64, 0.0); lineups.len()];
    for p in deals.iter().flat_map(|d| &d.games) {
        let (Some(lineup), Some(sum)) = (lineups.get(p.lineup), sums.get_mut(p.lineup)) else {
            continue;
        };
        let Some(&one) = lineup.last() else { continue };
        let g = &p.game;
        for (s, &e) in g.seating.iter().enumerate() {
            if e == one {
                sum.0 += g.win_share(s);
                sum.1 += 1;
                sum.2 += 1.0 / g.seating.len() as f64;
            }
        }
    }
    lineups
        .iter()
        .zip(sums)
        .map(|(l, (credit, n, fair))| Matchup {
            bot: labels[l[l.len() - 1]].clone(),
            against: labels[l[0]].clone(),
            wins: Rate::new(credit, n),
            fair_share: fair / n.max(1) as f64,
        })
        .collect()
}

/// The figures of a panel run whose first `levels` entrants are the
/// ladder and the rest the panel, from lineups made by `config::plan`.
pub fn panel_figures(
    deals: &[Deal],
    lineups: &[Vec<usize>],
    labels: &[String],
    levels: usize,
) -> PanelFigures {
    let all = matchups(deals, lineups, labels);
    let panel = labels.len() - levels;
    let mut it = all.into_iter();
    let mut rows = Vec::new();
    for level in labels.iter().take(levels).skip(1) {
        let Some(vs_below) = it.next() else { break };
        let vs_panel: Vec<Matchup> = it.by_ref().take(panel).collect();
        let panel_mean =
            vs_panel.iter().map(|m| m.wins.rate).sum::<f64>() / vs_panel.len().max(1) as f64;
        let worst = std::iter::once(&vs_below)
            .chain(&vs_panel)
            .min_by(|a, b| a.wins.rate.total_cmp(&b.wins.rate))
            .unwrap_or(&vs_below)
            .clone();
        let holds = vs_below.above_fair() && vs_panel.iter().all(Matchup::above_fair);
        rows.push(LevelFigures {
            level: level.clone(),
            vs_below,
            vs_panel,
            panel_mean,
            worst,
            holds,
        });
    }
    PanelFigures {
        levels: rows,
        panel_vs: it.collect(),
    }
}

/// A rate with its interval, for the Markdown tables.
fn cell(m: &Matchup) -> String {
    let pct = |x| crate::stats::pct(x, 1);
    format!(
        "{} [{}, {}]",
        pct(m.wins.rate),
        pct(m.wins.low),
        pct(m.wins.high)
    )
}

impl std::fmt::Display for PanelFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some(first) = self.levels.first() else {
            return Ok(());
        };
        let fair = crate::stats::pct(first.vs_below.fair_share, 1);
        writeln!(f, "## The ladder against the panel\n")?;
        writeln!(f, "Each level alone against the others' seats filled by the level below or by one panel bot: first places per seat-game, 95% Wilson interval (fair share {fair}). A level holds when every lower bound is above fair share; **bold** marks a matchup that is not.\n")?;
        write!(f, "| level | vs level below |")?;
        for m in &first.vs_panel {
            write!(f, " vs {} |", m.against)?;
        }
        writeln!(f, " panel mean | worst | holds |")?;
        write!(f, "|---|---|")?;
        for _ in &first.vs_panel {
            write!(f, "---|")?;
        }
        writeln!(f, "---:|---|---|")?;
        let mark = |m: &Matchup| {
            if m.above_fair() {
                cell(m)
            } else {
                format!("**{}**", cell(m))
            }
        };
        for row in &self.levels {
            write!(
                f,
                "| {} | {} ({}) |",
                row.level,
                mark(&row.vs_below),
                row.vs_below.against
            )?;
            for m in &row.vs_panel {
                write!(f, " {} |", mark(m))?;
            }
            writeln!(
                f,
                " {} | {} vs {} | {} |",
                crate::stats::pct(row.panel_mean, 1),
                cell(&row.worst),
                row.worst.against,
                if row.holds { "yes" } else { "**no**" }
            )?;
        }
        if !self.panel_vs.is_empty() {
            writeln!(f, "\nEach panel bot alone against the others' seats filled by one level; **bold** marks a rate above fair share.\n")?;
            writeln!(f, "| panel bot | against | first places | 95% CI |")?;
            writeln!(f, "|---|---|---:|---|")?;
            for m in &self.panel_vs {
                let pct = |x| crate::stats::pct(x, 1);
                let rate = if m.wins.rate > m.fair_share + 1e-9 {
                    format!("**{}**", pct(m.wins.rate))
                } else {
                    pct(m.wins.rate)
                };
                writeln!(
                    f,
                    "| {} | {} | {rate} | {} – {} |",
                    m.bot,
                    m.against,
                    pct(m.wins.low),
                    pct(m.wins.high)
                )?;
            }
        }
        Ok(())
    }
}
