//! The tournament's report: the configuration, the figures, the SPRT and
//! the timing, serialised as JSON and displayed as Markdown.
//!
//! Timing ([`Speed`]) is the only part that varies between equal runs, so
//! it is kept apart from the figures: tests and comparisons drop it.

use super::figures::Figures;
use super::panel::PanelFigures;
use super::sprt::Sprt;
use super::worker::Deal;
use crate::strikes::{StandInStats, StrikeStats};
use serde::Serialize;

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
pub(crate) fn think_stats(deals: &[Deal], labels: &[String]) -> Vec<ThinkStats> {
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

/// Counts the bot programs' strikes over `deals`, per entrant.
pub(crate) fn strike_stats(deals: &[Deal], labels: &[String]) -> Vec<StrikeStats> {
    let mut tally = crate::strikes::Tally::default();
    for p in deals.iter().flat_map(|d| &d.games) {
        for (seat, reason) in &p.game.strikes {
            if let Some(bot) = p.game.seating.get(*seat).and_then(|&e| labels.get(e)) {
                tally.add(bot, reason);
            }
        }
    }
    tally.into_stats()
}

/// Sums the bot programs' stand-in decisions over `deals`, per entrant.
pub(crate) fn stand_in_stats(deals: &[Deal], labels: &[String]) -> Vec<StandInStats> {
    let mut tally = crate::strikes::StandInTally::default();
    for p in deals.iter().flat_map(|d| &d.games) {
        for si in &p.game.stand_in {
            if let Some(bot) = p.game.seating.get(si.seat).and_then(|&e| labels.get(e)) {
                tally.add(bot, si);
            }
        }
    }
    tally.into_stats()
}

/// The report: written as JSON and Markdown.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Game name.
    pub game: String,
    /// `candidate`, `round-robin` or `panel`.
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
    /// The ladder against the panel (panel mode only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panel: Option<PanelFigures>,
    /// Strikes of bot programs (`cmd:` bots), per entrant; absent when
    /// there were none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<StrikeStats>,
    /// Per bot program (`cmd:` bot), the share of its decisions its
    /// stand-in played; absent without bot programs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stand_in: Vec<StandInStats>,
    /// Timing.
    pub speed: Speed,
    /// Every game by id, with its seed and winners, in deal order.
    pub games: Vec<super::games::GameEntry>,
}

/// A share as a percentage with two decimals, the report's precision.
fn pct(x: f64) -> String {
    crate::stats::pct(x, 2)
}

/// A difference of shares, with its sign.
fn signed_pct(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.header(f)?;
        self.entrants_section(f)?;
        self.stand_in_section(f)?;
        self.paired_section(f)?;
        self.ratings_section(f)?;
        self.sprt_section(f)?;
        self.seats_section(f)?;
        self.games_section(f)?;
        self.game_ids_section(f)
    }
}

/// The report's Markdown sections, in the order [`Report`]'s `Display`
/// writes them.
impl Report {
    /// The title and the run: command, players, options, lineups, deals, and the panel's summary.
    fn header(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
        let title = match self.mode.as_str() {
            "candidate" => format!(
                "{} vs field {}",
                self.entrants[0],
                self.entrants.get(1).map_or("", String::as_str)
            ),
            "panel" => {
                let levels = self.panel.as_ref().map_or(0, |p| p.levels.len() + 1);
                let (ladder, panel) = self.entrants.split_at(levels.min(self.entrants.len()));
                format!(
                    "the ladder {} against the panel {}",
                    ladder.join(", "),
                    panel.join(", ")
                )
            }
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

        if let Some(p) = &self.panel {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }

    /// `## Entrants`: first places per bot.
    fn entrants_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
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
                self.flagged_name(&e.bot),
                e.seat_games,
                pct(e.wins.rate),
                pct(e.wins.low),
                pct(e.wins.high),
                pct(e.fair_share),
                e.mean_place
            )?;
        }
        Ok(())
    }

    /// A bot's name in a table, flagged when its stand-in played more
    /// than [`crate::strikes::STAND_IN_LIMIT`] of its decisions.
    fn flagged_name(&self, bot: &str) -> String {
        match self.flagged(bot) {
            Some(s) => format!("{bot} ⚠ stand-in {}", pct(s.share)),
            None => bot.to_string(),
        }
    }

    /// The stand-in figures of `bot` when they flag it.
    pub fn flagged(&self, bot: &str) -> Option<&StandInStats> {
        self.stand_in.iter().find(|s| s.bot == bot && s.flagged)
    }

    /// `## Bot programs`: how much of each program's play was its own,
    /// and a warning for those whose rows rate their stand-in.
    fn stand_in_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.stand_in.is_empty() {
            return Ok(());
        }
        writeln!(f, "\n## Bot programs\n")?;
        writeln!(
            f,
            "Decisions each bot program was asked for, and the share its stand-in (the heuristic bot) played after a strike (docs/bot-protocol.md). Over {}, the program's rows rate its stand-in, not the program (⚠).\n",
            pct(crate::strikes::STAND_IN_LIMIT)
        )?;
        writeln!(f, "| bot | decisions | played by the stand-in | share |")?;
        writeln!(f, "|---|---:|---:|---:|")?;
        for s in &self.stand_in {
            writeln!(
                f,
                "| {}{} | {} | {} | {} |",
                s.bot,
                if s.flagged { " ⚠" } else { "" },
                s.decisions,
                s.stand_in,
                pct(s.share)
            )?;
        }
        Ok(())
    }

    /// `## Paired differences`: A minus B per deal.
    fn paired_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
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
        Ok(())
    }

    /// `## Ratings`: the Plackett–Luce fit.
    fn ratings_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
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
                self.flagged_name(&b.bot),
                b.rating,
                b.sd,
                b.low,
                b.high,
                pct(b.strength)
            )?;
        }
        Ok(())
    }

    /// `## SPRT`, when the run had one.
    fn sprt_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
        Ok(())
    }

    /// `## Seats`: first places by seat.
    fn seats_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
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
        Ok(())
    }

    /// `## Strikes` of bot programs, if any, and `## Games`: length and speed.
    fn games_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fig = &self.figures;
        if !self.strikes.is_empty() {
            writeln!(f, "\n## Strikes\n")?;
            writeln!(
                f,
                "Bot programs' failures (docs/bot-protocol.md): each strike is a decision the heuristic bot played in their place.\n"
            )?;
            crate::strikes::write_lines(f, &self.strikes, "- ")?;
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

/// How many deals' seeds the text report lists (every game is in the
/// JSON and in `games.tsv`).
const LISTED: usize = 8;

impl Report {
    /// The games' ids and seeds, compactly: the id form and the first
    /// deals' seeds (every game of a deal has the deal's seed).
    pub(crate) fn game_ids_section(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut seeds: Vec<String> = Vec::new();
        let mut deals = 0usize;
        let mut last: Option<&str> = None;
        for g in &self.games {
            let deal = g.id.split('-').next().unwrap_or("");
            if last != Some(deal) {
                last = Some(deal);
                deals += 1;
                if seeds.len() < LISTED {
                    seeds.push(format!("{deal} {}", g.seed));
                }
            }
        }
        if deals == 0 {
            return Ok(());
        }
        let more = deals - seeds.len();
        write!(
            f,
            "\n- game ids: dDEAL-lLINEUP-rROTATION, e.g. {}; every game of a deal is played on its seed; `--rerun ID` plays one again alone\n- deal seeds: {}{}",
            self.games[0].id,
            seeds.join(", "),
            if more > 0 {
                format!(" and {more} more; every game with its seed and winners is in the JSON's `games` (and games.tsv with --out)")
            } else {
                "; every game with its seed and winners is in the JSON's `games` (and games.tsv with --out)".to_string()
            }
        )
    }
}
