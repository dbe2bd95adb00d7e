//! The figures of the duplicate-spread study: each tournament's standings
//! from its games, then, over the repeated tournaments, the spread of
//! every entrant's standing in each mode and the ratio of the spreads
//! with its bootstrap interval.
//!
//! A pure function of numbers handed in, in a fixed order, so that it can
//! be tested on hand-made standings and gives the same figures whatever
//! the thread count that played the games. The bootstrap resamples
//! *tournaments* (the repeated runs are the independent units; the games
//! of one tournament are not), the duplicate and the plain ones apart,
//! since the two modes' tournaments share no seed.

use crate::duplicate::GameResult;
use crate::stats::{self, Interval};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One tournament's standing of every entrant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Per entrant, its score: the mean over every seat it played in the
    /// tournament of (seats - place) / (seats - 1), 1 for first and 0 for
    /// last (tied seats share a place).
    pub scores: Vec<f64>,
    /// Per entrant, its rank among the entrants by score, 1 the best;
    /// tied scores share the better rank.
    pub ranks: Vec<u32>,
    /// Per entrant, the spread of its score that the tournament's own
    /// units predict: the standard deviation of its mean score per unit
    /// (a deal's rotations in duplicate, one game in plain) over the
    /// square root of the number of units.
    pub within_sd: Vec<f64>,
}

/// A seat's result in a game on a 0..1 scale: 1 first, 0 last.
fn normalised_place(g: &GameResult, seat: usize) -> f64 {
    let n = g.places.len();
    if n < 2 {
        return 0.0;
    }
    (n as f64 - f64::from(g.places[seat])) / (n as f64 - 1.0)
}

/// Per entrant, the sum of its seats' normalised places in `games` and
/// how many seats that is.
fn tally(games: &[GameResult], entrants: usize) -> (Vec<f64>, Vec<u64>) {
    let mut sum = vec![0.0; entrants];
    let mut seats = vec![0u64; entrants];
    for g in games {
        for seat in 0..g.places.len().min(g.seating.len()) {
            if let Some(e) = g.seating.get(seat).filter(|&&e| e < entrants) {
                sum[*e] += normalised_place(g, seat);
                seats[*e] += 1;
            }
        }
    }
    (sum, seats)
}

/// Per entrant, `sum / seats` (0 without seats).
fn means((sum, seats): (Vec<f64>, Vec<u64>)) -> Vec<f64> {
    sum.iter()
        .zip(&seats)
        .map(|(&s, &n)| if n == 0 { 0.0 } else { s / n as f64 })
        .collect()
}

/// The standing of `entrants` entrants after `games`: every seat of every
/// game counts once for the entrant that sat there. `unit` consecutive
/// games make one unit (a deal's rotations in duplicate, 1 in plain) for
/// [`Standing::within_sd`].
pub fn standing(games: &[GameResult], entrants: usize, unit: usize) -> Standing {
    let scores = means(tally(games, entrants));
    let per_unit: Vec<Vec<f64>> = games
        .chunks(unit.max(1))
        .map(|u| means(tally(u, entrants)))
        .collect();
    let units = (per_unit.len() as f64).max(1.0);
    let within_sd = (0..entrants)
        .map(|e| sd(&per_unit.iter().map(|u| u[e]).collect::<Vec<_>>()) / units.sqrt())
        .collect();
    let ranks = ranks(&scores);
    Standing {
        scores,
        ranks,
        within_sd,
    }
}

/// Competition ranks of `scores`, higher is better: 1 + how many score
/// strictly more.
pub fn ranks(scores: &[f64]) -> Vec<u32> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|&o| o > s).count() as u32)
        .collect()
}

/// The sample standard deviation of `xs` (n - 1 in the denominator); 0
/// for fewer than two values.
pub fn sd(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n < 2 {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
}

/// `sd(duplicate) / sd(plain)`, with the 2.5-97.5% percentiles of
/// `resamples` bootstrap draws (each mode's values resampled with
/// replacement, apart, seeded by `seed`) as its 95% interval. `None` when
/// the plain spread is 0 (no ratio). A draw whose plain spread is 0 counts
/// as an infinite ratio, so it widens the interval rather than vanish.
pub fn sd_ratio(duplicate: &[f64], plain: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    let below = sd(plain);
    if below == 0.0 || duplicate.is_empty() {
        return None;
    }
    let value = sd(duplicate) / below;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |xs: &[f64], buf: &mut Vec<f64>| {
        buf.clear();
        buf.extend((0..xs.len()).map(|_| xs[rng.random_range(0..xs.len())]));
        sd(buf)
    };
    let mut buf = Vec::with_capacity(duplicate.len().max(plain.len()));
    let mut ratios: Vec<f64> = (0..resamples.max(1))
        .map(|_| {
            let d = draw(duplicate, &mut buf);
            let p = draw(plain, &mut buf);
            if p == 0.0 {
                f64::INFINITY
            } else {
                d / p
            }
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    Some(Interval {
        value,
        low: stats::percentile(&ratios, 0.025),
        high: stats::percentile(&ratios, 0.975),
    })
}

/// A figure in each mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ByMode<T> {
    /// In duplicate tournaments.
    pub duplicate: T,
    /// In plain tournaments.
    pub plain: T,
}

/// One entrant's standing over the repeated tournaments of one mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeSpread {
    /// The mean score.
    pub mean: f64,
    /// The standard deviation of the score: the spread studied.
    pub sd: f64,
    /// The mean rank.
    pub mean_rank: f64,
    /// The standard deviation of the rank.
    pub rank_sd: f64,
}

/// One entrant's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntrantSpread {
    /// Its bot spec.
    pub name: String,
    /// Its seats at the table.
    pub seats: usize,
    /// Its standing per mode.
    pub modes: ByMode<ModeSpread>,
    /// The spread of its score in duplicate over plain, with its bootstrap
    /// 95% interval; `None` when the plain spread is 0. An unbounded upper
    /// end (too many resamples with no plain spread) is `null` in JSON.
    pub ratio: Option<Interval>,
    /// Whether the ratio's interval lies below 1: duplicate play's spread
    /// is measurably smaller.
    pub below_one: bool,
    /// Whether the ratio's interval lies above 1: duplicate play's spread
    /// is measurably larger.
    pub above_one: bool,
    /// The same ratio as the tournaments' own units predict it (the root
    /// mean square of [`Standing::within_sd`] in duplicate over that in
    /// plain): a cross-check from many more units; `None` without plain
    /// spread.
    pub within_ratio: Option<f64>,
}

/// Everything measured over the repeated tournaments of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// Per entrant, in the order given (weakest first).
    pub entrants: Vec<EntrantSpread>,
    /// The share of tournaments the strongest entrant (the last) won,
    /// a tie for first counting as a share, with its Wilson interval.
    pub strongest_wins: ByMode<Interval>,
    /// The share of tournaments whose ranks were exactly the entrants'
    /// order (the last first, the first last, no ties).
    pub order_recovered: ByMode<Interval>,
}

/// The figures of repeated tournaments: `duplicate[r]` and `plain[r]` are
/// the standings of repeat `r`; `names` and `seats` describe the entrants,
/// weakest first. `seed` seeds the bootstrap.
pub fn figures(
    names: &[String],
    seats: &[usize],
    duplicate: &[Standing],
    plain: &[Standing],
    resamples: usize,
    seed: u64,
) -> Figures {
    let column = |ts: &[Standing], e: usize, rank: bool| -> Vec<f64> {
        ts.iter()
            .map(|t| {
                if rank {
                    f64::from(t.ranks[e])
                } else {
                    t.scores[e]
                }
            })
            .collect()
    };
    let mode = |ts: &[Standing], e: usize| {
        let (scores, ranks) = (column(ts, e, false), column(ts, e, true));
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        ModeSpread {
            mean: mean(&scores),
            sd: sd(&scores),
            mean_rank: mean(&ranks),
            rank_sd: sd(&ranks),
        }
    };
    let entrants = names
        .iter()
        .enumerate()
        .map(|(e, name)| {
            let ratio = sd_ratio(
                &column(duplicate, e, false),
                &column(plain, e, false),
                resamples,
                crate::derive_seed(seed, e as u64),
            );
            let rms = |ts: &[Standing]| {
                let n = ts.len().max(1) as f64;
                (ts.iter().map(|t| t.within_sd[e].powi(2)).sum::<f64>() / n).sqrt()
            };
            let plain_within = rms(plain);
            EntrantSpread {
                within_ratio: (plain_within > 0.0).then(|| rms(duplicate) / plain_within),
                name: name.clone(),
                seats: seats.get(e).copied().unwrap_or(0),
                modes: ByMode {
                    duplicate: mode(duplicate, e),
                    plain: mode(plain, e),
                },
                below_one: ratio.is_some_and(|r| r.high < 1.0),
                above_one: ratio.is_some_and(|r| r.low > 1.0),
                ratio,
            }
        })
        .collect();
    let strongest = names.len().saturating_sub(1);
    let wins = |ts: &[Standing]| {
        let won: f64 = ts
            .iter()
            .filter(|t| t.ranks.get(strongest) == Some(&1))
            .map(|t| 1.0 / t.ranks.iter().filter(|&&r| r == 1).count() as f64)
            .sum();
        stats::wilson(won, ts.len() as u64)
    };
    let k = names.len() as u32;
    let in_order = |ts: &[Standing]| {
        let hits = ts
            .iter()
            .filter(|t| t.ranks.iter().enumerate().all(|(e, &r)| r == k - e as u32))
            .count();
        stats::wilson(hits as f64, ts.len() as u64)
    };
    Figures {
        entrants,
        strongest_wins: ByMode {
            duplicate: wins(duplicate),
            plain: wins(plain),
        },
        order_recovered: ByMode {
            duplicate: in_order(duplicate),
            plain: in_order(plain),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seating: Vec<usize>, places: Vec<u8>) -> GameResult {
        GameResult {
            deal: 0,
            rotation: 0,
            seating,
            places,
            scores: Vec::new(),
            winners: Vec::new(),
            actions: 0,
            capped: false,
            think: Vec::new(),
            strikes: Vec::new(),
            stand_in: Vec::new(),
        }
    }

    fn standing_of(scores: &[f64]) -> Standing {
        Standing {
            scores: scores.to_vec(),
            ranks: ranks(scores),
            within_sd: vec![0.1; scores.len()],
        }
    }

    #[test]
    fn a_standing_is_the_mean_normalised_place_of_every_seat() {
        // Entrant 0 has two seats: first and last, then second and third.
        let games = [
            game(vec![0, 1, 0], vec![1, 2, 3]),
            game(vec![1, 0, 0], vec![1, 2, 2]),
        ];
        let s = standing(&games, 2, 1);
        // Entrant 0: 1, 0, 0.5, 0.5 → 0.5; entrant 1: 0.5, 1 → 0.75.
        assert_eq!(s.scores, vec![0.5, 0.75]);
        assert_eq!(s.ranks, vec![2, 1]);
        // Per game, entrant 0 averaged 0.5 and 0.5: no spread between
        // units; entrant 1 0.5 and 1: sd 0.3536, over sqrt(2) units.
        assert_eq!(s.within_sd[0], 0.0);
        assert!((s.within_sd[1] - 0.25).abs() < 1e-12, "{s:?}");
        // Both games one unit: nothing to spread.
        assert_eq!(standing(&games, 2, 2).within_sd, vec![0.0, 0.0]);
        assert_eq!(ranks(&[0.2, 0.7, 0.7, 0.1]), vec![3, 1, 1, 4]);
    }

    #[test]
    fn the_spread_and_its_ratio_on_hand_made_standings() {
        assert_eq!(sd(&[1.0]), 0.0);
        assert!((sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.138_089_935).abs() < 1e-8);
        // Plain spreads twice as much as duplicate: the ratio is 1/2.
        let dup = [0.4, 0.5, 0.6, 0.5, 0.45, 0.55, 0.5, 0.5];
        let plain: Vec<f64> = dup.iter().map(|x| 0.5 + 2.0 * (x - 0.5)).collect();
        let r = sd_ratio(&dup, &plain, 500, 3).unwrap();
        assert!((r.value - 0.5).abs() < 1e-12, "{r:?}");
        assert!(r.low <= r.value && r.value <= r.high, "{r:?}");
        assert_eq!(r, sd_ratio(&dup, &plain, 500, 3).unwrap(), "seeded");
        // No plain spread, no ratio.
        assert!(sd_ratio(&dup, &[0.5; 8], 100, 3).is_none());
    }

    #[test]
    fn far_tighter_duplicate_standings_give_an_interval_below_one() {
        let wobble = |scale: f64, i: usize| 0.5 + scale * (((i * 37) % 11) as f64 - 5.0) / 10.0;
        let dup: Vec<Standing> = (0..40)
            .map(|i| standing_of(&[wobble(0.02, i) - 0.2, wobble(0.02, i + 3) + 0.2]))
            .collect();
        let plain: Vec<Standing> = (0..40)
            .map(|i| standing_of(&[wobble(0.2, i) - 0.2, wobble(0.2, i + 3) + 0.2]))
            .collect();
        let names = vec!["weak".to_string(), "strong".to_string()];
        let f = figures(&names, &[2, 2], &dup, &plain, 1000, 9);
        for e in &f.entrants {
            let r = e.ratio.unwrap();
            assert!(r.high < 1.0 && e.below_one, "{e:?}");
            assert!((r.value - 0.1).abs() < 1e-9, "{e:?}");
            assert_eq!(e.within_ratio, Some(1.0), "the units spread alike");
            assert_eq!(e.seats, 2);
        }
        // The same spread in both modes: the interval straddles 1.
        let f = figures(&names, &[2, 2], &plain, &plain, 1000, 9);
        assert!(f.entrants.iter().all(|e| !e.below_one
            && !e.above_one
            && e.ratio.unwrap().low < 1.0
            && e.ratio.unwrap().high > 1.0));
        // Swapped, the interval lies above 1.
        let f = figures(&names, &[2, 2], &plain, &dup, 1000, 9);
        assert!(f.entrants.iter().all(|e| e.above_one && !e.below_one));
    }

    #[test]
    fn the_strongest_wins_and_the_order_is_counted_per_tournament() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let ts = [
            standing_of(&[0.1, 0.2, 0.3]), // in order
            standing_of(&[0.2, 0.1, 0.3]), // strongest wins, order wrong
            standing_of(&[0.1, 0.3, 0.3]), // shared first place
            standing_of(&[0.3, 0.2, 0.1]), // strongest last
        ];
        let f = figures(&names, &[1, 1, 1], &ts, &ts, 10, 1);
        assert!((f.strongest_wins.duplicate.value - 2.5 / 4.0).abs() < 1e-12);
        assert!((f.order_recovered.plain.value - 0.25).abs() < 1e-12);
        let c = &f.entrants[2].modes.duplicate;
        assert!((c.mean_rank - 1.5).abs() < 1e-12, "{c:?}");
    }
}
