//! The duplicate-spread report: `report.md` (the figures of every game
//! side by side, then how they were made), `report.json` (the same and
//! every tournament's standings) and a few lines for the terminal.
//!
//! Only the line saying how long the run took and on how many threads
//! depends on the machine (and `threads` and `seconds` in the JSON);
//! everything else is a function of the command.

use super::{GameSpread, Mode};
use crate::stats::Interval;
use crate::Error;
use serde::Serialize;
use std::fmt::{self, Write as _};
use std::path::Path;

/// The study of every game asked for.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The command that makes it (from the repository root).
    pub command: String,
    /// The run's seed.
    pub seed: u64,
    /// Deals per duplicate tournament.
    pub deals: u64,
    /// Tournaments per mode.
    pub repeats: u64,
    /// Bootstrap draws per interval of a ratio.
    pub resamples: usize,
    /// Per game.
    pub games: Vec<GameSpread>,
    /// Threads used (not part of the results).
    pub threads: usize,
    /// Wall-clock seconds (not part of the results).
    pub seconds: f64,
}

/// `0.61 [0.48, 0.77]`, or `n/a` without a ratio.
fn ratio(r: &Option<Interval>) -> String {
    match r {
        Some(r) => format!("{:.2} [{:.2}, {:.2}]", r.value, r.low, r.high),
        None => "n/a (no spread in plain play)".into(),
    }
}

/// `12.5% [6.1, 24.0]`.
fn share(i: &Interval) -> String {
    format!(
        "{} [{:.1}, {:.1}]",
        crate::stats::pct(i.value, 1),
        100.0 * i.low,
        100.0 * i.high
    )
}

/// The game's verdict in one sentence: for whom the ratio's interval
/// lies below 1, above 1, or neither.
fn verdict(g: &GameSpread) -> String {
    let es = &g.figures.entrants;
    let names = |keep: &dyn Fn(&super::EntrantSpread) -> bool| {
        es.iter()
            .filter(|e| keep(e))
            .map(|e| format!("`{}`", e.name))
            .collect::<Vec<_>>()
    };
    let below = names(&|e| e.below_one);
    let above = names(&|e| e.above_one);
    let neither = names(&|e| !e.below_one && !e.above_one);
    let mut parts = Vec::new();
    if below.len() == es.len() {
        parts.push(
            "the ratio's interval lies below 1 for every entrant: duplicate play's spread is measurably smaller"
                .to_string(),
        );
    } else {
        if !below.is_empty() {
            parts.push(format!(
                "duplicate play's spread is measurably smaller (the interval below 1) for {}",
                below.join(", ")
            ));
        }
        if !above.is_empty() {
            parts.push(format!(
                "measurably larger (the interval above 1) for {}",
                above.join(", ")
            ));
        }
        if !neither.is_empty() {
            parts.push(format!(
                "not measurably different with {} tournaments (the interval holds 1) for {}",
                g.repeats,
                neither.join(", ")
            ));
        }
    }
    format!("**{}**: {}.", g.game, parts.join("; "))
}

/// The lineup by seat: `P1 random, P2 heuristic, ...`.
fn lineup(g: &GameSpread) -> String {
    g.lineup
        .iter()
        .enumerate()
        .map(|(s, &e)| format!("{} {}", game::Seat::new(s), g.entrants[e]))
        .collect::<Vec<_>>()
        .join(", ")
}

const METHOD: &[&str] = &[
    "**Standing.** In a tournament, an entrant's score is the mean, over every seat it played in every game, of \
     (seats - place) / (seats - 1): 1 for first, 0 for last, tied seats sharing a place. Its rank is 1 + the \
     number of entrants that scored more. The entrants are given weakest first and sit round the table in turn \
     from P1, so at a table larger than the lineup the first ones have two seats; an entrant's score is the mean \
     of its seats.",
    "**Duplicate.** A tournament of `deals` deals (a deal is the seed of the shuffles, the seating draw and the \
     dice), each played once in every seat rotation (every bot one seat on per rotation): seats x deals games, \
     and every entrant met every deal's cards and dice from every seat its rotations took it to.",
    "**Plain.** The same number of games, seats x deals, each on a deal of its own, with the lineup shuffled round \
     the table for each game (each entrant keeps its number of seats). The report counts the distinct deals each \
     tournament was played on, from the seeds the games were played on.",
    "**Repeats.** Repeat r's tournaments are seeded from the run's seed and r alone; its duplicate and plain \
     tournaments share no deal. The bots' own seeds come from the deal, the rotation and the seat, as in every \
     duplicate match.",
    "**Spread and ratio.** An entrant's spread in a mode is the sample standard deviation of its score across the \
     tournaments of that mode; the ratio is spread in duplicate / spread in plain, below 1 when duplicate play \
     moves the standing less from one set of seeds to the next. Its 95% interval is the 2.5-97.5% percentile of \
     `resamples` bootstrap draws, each resampling the duplicate and the plain tournaments with replacement, apart \
     (they are independent). *Measurably smaller* means the interval's upper end is below 1, *measurably larger* its lower end above 1. A standard deviation \
     is itself uncertain (its relative standard error is about 1 / sqrt(2 (repeats - 1)): 11% at 40 repeats, 5% \
     at 200) and the percentile bootstrap of it runs a little narrow with few repeats, so read an upper end just \
     below 1 as weak evidence.",
    "**Within-tournament cross-check.** A tournament's standing is the mean of its units' means (a unit is a \
     deal's rotations in duplicate, one game in plain), so the spread its own units predict is their standard \
     deviation over the square root of their number. The root mean square of that over a mode's tournaments gives \
     a second ratio, duplicate over plain, from every unit of every tournament rather than from the repeats \
     alone; it has no interval here, and agrees with the first when the tournaments are what their units say.",
    "**Why duplicate can fail to help.** Over a deal's rotations an entrant sits in every seat, so what a seat was \
     worth in that deal cancels out of its standing. What the deal did to the entrant in every seat alike does \
     not cancel: duplicate play repeats it in every rotation, where plain play would draw it afresh for each game. \
     So duplicate play narrows the spread only where the first kind of luck outweighs the second, and it can widen \
     it where the second dominates.",
    "**Tournament winner.** The strongest entrant is the last one given. *Won by the strongest* is the share of \
     tournaments in which it ranked first (a tie for first counts as a share); *in ladder order* the share in \
     which the ranks were exactly the entrants' order, strongest first, with no ties. Both with Wilson 95% \
     intervals over tournaments.",
    "**Options.** Each game's section gives its table size and the options that differ from the rulebook's \
     defaults. Dalmuti starts from one hand per game (`hands=1`), as in every lab report: a 20-hand session \
     compounds the roles and taxes of earlier hands. A game stopped by the length cap keeps the places it had \
     there; the sections count them.",
    "**Cost.** Each game's study plays 2 x repeats x seats x deals games. The default bots decide at once (no search \
     bot) and play some ten thousand games a second on 2 cores in a release build, so the repeats are bounded by \
     the interval wanted rather than by time: the line below gives this run's games and time. The same command \
     gives the same report whatever `--threads`, bar that line.",
];

impl Report {
    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "# Duplicate against plain play: the spread of a bot's standing\n\n\
             **Question.** Is a bot tournament's standing less a matter of the seed when it is played in \
             duplicate? The same lineup of bots of different strength played {} tournaments of {} deals per \
             game, each both ways: in duplicate (every deal in every seat rotation) and plain (as many games, \
             each a fresh deal). The figure is the ratio of the spreads (standard deviations) of each \
             entrant's standing across the tournaments, duplicate over plain, with a bootstrap 95% interval.\n\n\
             Command, from the repository root (`ratrace` is `cargo run --release --`):\n\n```sh\n{}\n```\n\n## Summary\n",
            self.repeats, self.deals, self.command
        );
        let _ = writeln!(md, "| game | entrant | spread, duplicate | spread, plain | ratio [95% interval] | measurably smaller | ratio within tournaments |");
        let _ = writeln!(md, "| --- | --- | ---: | ---: | --- | --- | ---: |");
        for g in &self.games {
            for e in &g.figures.entrants {
                let _ = writeln!(
                    md,
                    "| {} | {} | {:.4} | {:.4} | {} | {} | {} |",
                    g.game,
                    e.name,
                    e.modes.duplicate.sd,
                    e.modes.plain.sd,
                    ratio(&e.ratio),
                    if e.below_one {
                        "yes"
                    } else if e.above_one {
                        "no: larger"
                    } else {
                        "no"
                    },
                    e.within_ratio.map_or("n/a".into(), |r| format!("{r:.2}"))
                );
            }
        }
        md.push('\n');
        for g in &self.games {
            let _ = writeln!(md, "{}\n", verdict(g));
        }
        for g in &self.games {
            self.game_section(&mut md, g);
        }
        let _ = writeln!(md, "## Method\n");
        for p in METHOD {
            let _ = writeln!(md, "{p}\n");
        }
        let _ = writeln!(
            md,
            "This run: seed {}, {} deals, {} repeats, {} bootstrap draws; {} games in {:.0} s on {} thread(s).",
            self.seed,
            self.deals,
            self.repeats,
            self.resamples,
            self.games.iter().map(|g| g.games).sum::<u64>(),
            self.seconds,
            self.threads
        );
        md
    }

    fn game_section(&self, md: &mut String, g: &GameSpread) {
        let options = if g.options.is_empty() {
            "the default options".to_string()
        } else {
            format!("`{}`", g.options.join(" "))
        };
        let range = |m: Mode, f: &dyn Fn(&super::Tournament) -> u64| {
            let xs: Vec<u64> = g.of(m).map(f).collect();
            let (lo, hi) = (xs.iter().min(), xs.iter().max());
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
                (Some(lo), Some(hi)) => format!("{lo} to {hi}"),
                _ => "0".into(),
            }
        };
        let _ = writeln!(
            md,
            "## {}\n\n{} players, {options}; the lineup by seat: {}. Each tournament plays {} games: {} deals \
             in every rotation (duplicate), or {} deals of one game each (plain). Distinct deals per \
             tournament, as played: duplicate {}, plain {}. Capped games per tournament: duplicate {}, plain {}.\n",
            g.game,
            g.players,
            lineup(g),
            g.games_per_tournament,
            g.deals,
            g.games_per_tournament,
            range(Mode::Duplicate, &|t| t.distinct_deals),
            range(Mode::Plain, &|t| t.distinct_deals),
            range(Mode::Duplicate, &|t| t.capped),
            range(Mode::Plain, &|t| t.capped),
        );
        let _ = writeln!(
            md,
            "| entrant | seats | mean score, duplicate / plain | spread, duplicate | spread, plain | ratio [95% interval] | mean rank, duplicate / plain | rank spread, duplicate / plain |\n\
             | --- | ---: | --- | ---: | ---: | --- | --- | --- |"
        );
        for e in &g.figures.entrants {
            let (d, p) = (&e.modes.duplicate, &e.modes.plain);
            let _ = writeln!(
                md,
                "| {} | {} | {:.4} / {:.4} | {:.4} | {:.4} | {} | {:.2} / {:.2} | {:.2} / {:.2} |",
                e.name,
                e.seats,
                d.mean,
                p.mean,
                d.sd,
                p.sd,
                ratio(&e.ratio),
                d.mean_rank,
                p.mean_rank,
                d.rank_sd,
                p.rank_sd
            );
        }
        let f = &g.figures;
        let strongest = g.entrants.last().map_or("", String::as_str);
        let _ = writeln!(
            md,
            "\nTournaments won by the strongest (`{strongest}`): duplicate {}, plain {}. Entrants ranked in \
             ladder order: duplicate {}, plain {}.\n",
            share(&f.strongest_wins.duplicate),
            share(&f.strongest_wins.plain),
            share(&f.order_recovered.duplicate),
            share(&f.order_recovered.plain),
        );
        let always = |i: &Interval| i.value >= 1.0;
        if always(&f.strongest_wins.duplicate) && always(&f.strongest_wins.plain) {
            let _ = writeln!(
                md,
                "Both modes crowned the strongest in every tournament: with these bots the winner does not \
                 tell the modes apart, only the spread of the standings can.\n"
            );
        }
    }

    /// Writes `report.md` and `report.json` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let fail = |source| Error::Report {
            dir: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(fail)?;
        std::fs::write(dir.join("report.md"), self.markdown()).map_err(fail)?;
        let json = serde_json::to_string_pretty(self)? + "\n";
        std::fs::write(dir.join("report.json"), json).map_err(fail)
    }
}

/// Checks before any game is played that `dir` takes the report (it
/// writes a placeholder `report.md`).
pub fn check_out_dir(dir: &Path) -> Result<(), Error> {
    crate::lab::report::check_out_dir(dir)
}

/// A few lines for the terminal: every entrant's ratio, and the
/// strongest's tournament wins.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for g in &self.games {
            for e in &g.figures.entrants {
                writeln!(
                    f,
                    "{:<10} {:<12} spread duplicate {:.4}  plain {:.4}  ratio {}{}  (within tournaments {})",
                    g.game,
                    e.name,
                    e.modes.duplicate.sd,
                    e.modes.plain.sd,
                    ratio(&e.ratio),
                    if e.below_one {
                        "  below 1"
                    } else if e.above_one {
                        "  above 1"
                    } else {
                        ""
                    },
                    e.within_ratio.map_or("n/a".into(), |r| format!("{r:.2}"))
                )?;
            }
            writeln!(
                f,
                "{:<10} won by the strongest: duplicate {}, plain {}",
                g.game,
                share(&g.figures.strongest_wins.duplicate),
                share(&g.figures.strongest_wins.plain)
            )?;
        }
        write!(
            f,
            "{} games in {:.1} s",
            self.games.iter().map(|g| g.games).sum::<u64>(),
            self.seconds
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ByMode, EntrantSpread, Figures, ModeSpread};
    use super::*;

    fn entrant(name: &str, low: f64, high: f64) -> EntrantSpread {
        let mode = ModeSpread {
            mean: 0.5,
            sd: 0.01,
            mean_rank: 1.0,
            rank_sd: 0.0,
        };
        EntrantSpread {
            name: name.into(),
            seats: 1,
            modes: ByMode {
                duplicate: mode.clone(),
                plain: mode,
            },
            ratio: Some(Interval {
                value: (low + high) / 2.0,
                low,
                high,
            }),
            below_one: high < 1.0,
            above_one: low > 1.0,
            within_ratio: None,
        }
    }

    fn game(entrants: Vec<EntrantSpread>) -> GameSpread {
        let all = Interval {
            value: 1.0,
            low: 0.9,
            high: 1.0,
        };
        GameSpread {
            game: "dalmuti".into(),
            players: 3,
            options: Vec::new(),
            entrants: entrants.iter().map(|e| e.name.clone()).collect(),
            lineup: (0..entrants.len()).collect(),
            deals: 2,
            games_per_tournament: 6,
            repeats: 40,
            tournaments: Vec::new(),
            figures: Figures {
                entrants,
                strongest_wins: ByMode {
                    duplicate: all,
                    plain: all,
                },
                order_recovered: ByMode {
                    duplicate: all,
                    plain: all,
                },
            },
            games: 0,
            seconds: 0.0,
        }
    }

    #[test]
    fn the_verdict_names_who_is_below_above_and_neither() {
        let v = verdict(&game(vec![entrant("a", 0.5, 0.9), entrant("b", 0.6, 0.8)]));
        assert!(v.contains("below 1 for every entrant"), "{v}");
        let v = verdict(&game(vec![
            entrant("a", 0.5, 0.9),
            entrant("b", 1.1, 1.3),
            entrant("c", 0.9, 1.1),
        ]));
        assert!(v.contains("smaller (the interval below 1) for `a`;"), "{v}");
        assert!(v.contains("larger (the interval above 1) for `b`;"), "{v}");
        assert!(
            v.contains("with 40 tournaments (the interval holds 1) for `c`."),
            "{v}"
        );
        assert!(!v.contains("every entrant"), "{v}");
        let md = Report {
            command: "ratrace lab duplicate-spread".into(),
            seed: 1,
            deals: 2,
            repeats: 40,
            resamples: 10,
            games: vec![game(vec![entrant("a", 1.1, 1.3), entrant("b", 0.9, 1.1)])],
            threads: 1,
            seconds: 0.0,
        }
        .markdown();
        assert!(
            md.contains("| dalmuti | a | 0.0100 | 0.0100 | 1.20 [1.10, 1.30] | no: larger | n/a |"),
            "{md}"
        );
        assert!(md.contains("Both modes crowned the strongest"), "{md}");
    }
}
