//! Strikes of bot programs (`cmd:` bots, see the `extbot` crate) counted
//! per bot for the simulator's and the tournament's reports: how many, and
//! the first few distinct reasons with their counts.
//!
//! A run without bot programs has no strikes, and the reports then carry
//! no strikes field at all (their JSON stays what it was).

use serde::{Deserialize, Serialize};

pub use extbot::STAND_IN_LIMIT;

/// One bot program's seat in one game: the decisions it was asked for
/// and how many of them its stand-in (the heuristic bot) played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandIn {
    /// The seat (index).
    pub seat: usize,
    /// Decisions asked of the seat.
    pub decisions: u64,
    /// Of those, played by the stand-in.
    pub stand_in: u64,
}

/// One bot program's stand-in share over a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandInStats {
    /// The bot's name (as in the rest of the report).
    pub bot: String,
    /// Decisions asked of it.
    pub decisions: u64,
    /// Of those, played by its stand-in.
    pub stand_in: u64,
    /// `stand_in / decisions` (0 without decisions).
    pub share: f64,
    /// Over [`STAND_IN_LIMIT`]: its results are mostly not its own.
    pub flagged: bool,
}

/// The item of `items` that is `found`, made and pushed if there is none:
/// the tallies keep their bots in first-seen order.
fn entry<T>(items: &mut Vec<T>, found: impl Fn(&T) -> bool, make: impl FnOnce() -> T) -> &mut T {
    let i = match items.iter().position(found) {
        Some(i) => i,
        None => {
            items.push(make());
            items.len() - 1
        }
    };
    &mut items[i]
}

/// Stand-in decisions per bot program as they come, in first-seen order.
#[derive(Clone, Debug, Default)]
pub struct StandInTally(Vec<StandInStats>);

impl StandInTally {
    /// Counts one seat-game of `bot`.
    pub fn add(&mut self, bot: &str, seat: &StandIn) {
        let s = entry(
            &mut self.0,
            |s| s.bot == bot,
            || StandInStats {
                bot: bot.to_string(),
                decisions: 0,
                stand_in: 0,
                share: 0.0,
                flagged: false,
            },
        );
        s.decisions += seat.decisions;
        s.stand_in += seat.stand_in;
    }

    /// The figures, shares and flags set: empty without bot programs.
    pub fn into_stats(mut self) -> Vec<StandInStats> {
        for s in &mut self.0 {
            s.share = s.stand_in as f64 / s.decisions.max(1) as f64;
            s.flagged = s.share > STAND_IN_LIMIT;
        }
        self.0
    }
}

/// Distinct reasons kept per bot; the others are only counted.
pub const REASONS: usize = 5;

/// One reason and how often it was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// The strike's reason, as the bot's referee wrote it.
    pub reason: String,
    /// How many strikes gave it.
    pub count: u64,
}

/// One bot's strikes over a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeStats {
    /// The bot's name (as in the rest of the report).
    pub bot: String,
    /// Strikes in all: each a decision (or a game's start) its stand-in,
    /// the heuristic bot, played.
    pub strikes: u64,
    /// The first [`REASONS`] distinct reasons, in the order first seen,
    /// with their counts.
    pub reasons: Vec<Reason>,
}

impl StrikeStats {
    /// Strikes whose reason is not among [`StrikeStats::reasons`].
    pub fn other(&self) -> u64 {
        self.strikes - self.reasons.iter().map(|r| r.count).sum::<u64>()
    }
}

/// The strikes of a run as they come, per bot in first-seen order.
#[derive(Clone, Debug, Default)]
pub struct Tally(Vec<StrikeStats>);

impl Tally {
    /// Counts one strike of `bot`.
    pub fn add(&mut self, bot: &str, reason: &str) {
        let s = entry(
            &mut self.0,
            |s| s.bot == bot,
            || StrikeStats {
                bot: bot.to_string(),
                strikes: 0,
                reasons: Vec::new(),
            },
        );
        s.strikes += 1;
        if let Some(r) = s.reasons.iter_mut().find(|r| r.reason == reason) {
            r.count += 1;
        } else if s.reasons.len() < REASONS {
            s.reasons.push(Reason {
                reason: reason.to_string(),
                count: 1,
            });
        }
    }

    /// The figures: empty when nothing struck.
    pub fn into_stats(self) -> Vec<StrikeStats> {
        self.0
    }
}

/// The strikes as indented text lines (`bullet` before each line),
/// for the reports' text and Markdown forms.
pub fn write_lines(
    f: &mut std::fmt::Formatter<'_>,
    stats: &[StrikeStats],
    bullet: &str,
) -> std::fmt::Result {
    for s in stats {
        writeln!(f, "{bullet}{}: {} strike(s)", s.bot, s.strikes)?;
        for r in &s.reasons {
            writeln!(f, "  {bullet}{} x {}", r.count, r.reason)?;
        }
        if s.other() > 0 {
            writeln!(f, "  {bullet}{} x other reasons", s.other())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_bot_and_keeps_the_first_reasons() {
        let mut t = Tally::default();
        for i in 0..8 {
            t.add("cmd:a", &format!("reason {}", i % 7));
        }
        t.add("cmd:b", "no answer in 1000 ms");
        let s = t.into_stats();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].strikes, 8);
        assert_eq!(s[0].reasons.len(), REASONS);
        assert_eq!(s[0].reasons[0].count, 2);
        assert_eq!(s[0].other(), 2);
        assert_eq!(s[1].bot, "cmd:b");
        assert!(Tally::default().into_stats().is_empty());
    }
}
