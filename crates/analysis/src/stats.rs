//! The statistics of the simulator, the tournament and the lab, kept apart
//! from the games so they can be tested on synthetic data: Wilson
//! intervals for rates, the Student-t interval of a mean and the normal
//! interval of a deal-clustered mean, the chi-square test of equal seats,
//! length histograms, and the luck/skill variance decomposition over
//! duplicate deals with its bootstrap interval.
//!
//! Everything here is plain arithmetic on numbers handed in, in a fixed
//! order, so the same games give the same report whatever the thread count.
//! The one place for each helper: one normal quantile ([`Z95`]), one
//! mean-with-interval ([`mean_ci`]), one clustered mean
//! ([`clustered_mean`]), one percentage format ([`pct`]).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// 97.5% point of the standard normal: the 95% two-sided interval.
pub const Z95: f64 = 1.959_964;

/// `x` (a share, 0..=1) as a percentage with `decimals` decimals:
/// `pct(0.1234, 1)` is `12.3%`.
pub fn pct(x: f64, decimals: usize) -> String {
    format!("{:.*}%", decimals, 100.0 * x)
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Applies an increasing function to the estimate and both ends.
    pub fn map(self, f: impl Fn(f64) -> f64) -> Interval {
        Interval {
            value: f(self.value),
            low: f(self.low),
            high: f(self.high),
        }
    }
}

/// A win rate with its 95% Wilson interval.
#[derive(Clone, Debug, Serialize)]
pub struct Rate {
    /// Wins (shared wins count as fractions).
    pub wins: f64,
    /// Out of this many chances.
    pub games: u64,
    /// wins / games.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// The rate of `wins` (may be fractional: shared wins) in `games`,
    /// with its Wilson interval.
    pub fn new(wins: f64, games: u64) -> Rate {
        let w = wilson(wins, games);
        Rate {
            wins,
            games,
            rate: w.value,
            low: w.low,
            high: w.high,
        }
    }
}

/// The Wilson 95% interval of `successes` (may be fractional, for shared
/// wins) out of `trials`.
pub fn wilson(successes: f64, trials: u64) -> Interval {
    let n = trials.max(1) as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let denom = 1.0 + Z95 * Z95 / n;
    let centre = (p + Z95 * Z95 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + Z95 * Z95 / (4.0 * n * n)).sqrt() / denom;
    Interval {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The mean of `xs` and, from two values on, their sample variance
/// (n - 1 in the denominator); `None` when `xs` is empty.
fn mean_and_variance(xs: &[f64]) -> Option<(f64, Option<f64>)> {
    let n = xs.len();
    if n == 0 {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return Some((mean, None));
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some((mean, Some(var)))
}

/// The mean of per-deal figures with a normal 95% interval from their
/// spread: games of one deal share its cards, so the deal, not the game,
/// is the independent unit. One deal gives a point, none gives zeros.
pub fn clustered_mean(per_deal: &[f64]) -> Interval {
    let point = |x| Interval {
        value: x,
        low: x,
        high: x,
    };
    match mean_and_variance(per_deal) {
        None => point(0.0),
        Some((mean, None)) => point(mean),
        Some((mean, Some(var))) => {
            let half = Z95 * (var / per_deal.len() as f64).sqrt();
            Interval {
                value: mean,
                low: mean - half,
                high: mean + half,
            }
        }
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

/// Mean, standard deviation and 95% Student-t interval of `xs` (for few
/// independent units, e.g. per-deal paired differences). One value gives
/// an unbounded interval, none gives zeros.
pub fn mean_ci(xs: &[f64]) -> (f64, f64, f64, f64) {
    match mean_and_variance(xs) {
        None => (0.0, 0.0, 0.0, 0.0),
        Some((mean, None)) => (mean, 0.0, f64::NEG_INFINITY, f64::INFINITY),
        Some((mean, Some(var))) => {
            let sd = var.sqrt();
            let half = t975(xs.len() as u64 - 1) * sd / (xs.len() as f64).sqrt();
            (mean, sd, mean - half, mean + half)
        }
    }
}

/// A ratio of sums over independent clusters, `sum(y) / sum(x)` (the mean
/// loss per decision over games: `y` a game's summed loss, `x` its
/// decisions), with the normal 95% interval of the ratio estimator:
/// variance `n / (n - 1) * sum((y - r x)^2) / sum(x)^2`. Clusters with
/// `x = 0` count as clusters that saw nothing. None (or no `x`) gives
/// zeros; one cluster gives a point.
pub fn ratio_mean(clusters: &[(f64, f64)]) -> Interval {
    let sy: f64 = clusters.iter().map(|c| c.0).sum();
    let sx: f64 = clusters.iter().map(|c| c.1).sum();
    let n = clusters.len();
    if sx <= 0.0 {
        return Interval {
            value: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let r = sy / sx;
    if n < 2 {
        return Interval {
            value: r,
            low: r,
            high: r,
        };
    }
    let ss: f64 = clusters.iter().map(|(y, x)| (y - r * x).powi(2)).sum();
    let var = n as f64 / (n - 1) as f64 * ss / (sx * sx);
    let half = Z95 * var.sqrt();
    Interval {
        value: r,
        low: r - half,
        high: r + half,
    }
}

/// The chi-square test that every seat wins equally often.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChiSquare {
    /// The statistic: sum over seats of (observed - expected)^2 / expected.
    pub statistic: f64,
    /// Degrees of freedom: seats - 1.
    pub df: usize,
    /// The chance of a statistic at least this large if seats were equal.
    pub p_value: f64,
}

/// Pearson's chi-square of `observed` wins per seat against equal shares.
pub fn chi_square_equal(observed: &[f64]) -> ChiSquare {
    let k = observed.len();
    let total: f64 = observed.iter().sum();
    if k < 2 || total <= 0.0 {
        return ChiSquare {
            statistic: 0.0,
            df: k.saturating_sub(1),
            p_value: 1.0,
        };
    }
    let expected = total / k as f64;
    let statistic = observed
        .iter()
        .map(|o| (o - expected).powi(2) / expected)
        .sum();
    ChiSquare {
        statistic,
        df: k - 1,
        p_value: chi_square_survival(statistic, (k - 1) as f64),
    }
}

/// P(X >= x) for a chi-square variable with `df` degrees of freedom.
pub fn chi_square_survival(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    (1.0 - gamma_p(df / 2.0, x / 2.0)).clamp(0.0, 1.0)
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised lower incomplete gamma function P(a, x): a series
/// below a + 1, a continued fraction above (Numerical Recipes 6.2).
fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        sum * front
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        1.0 - front * h
    }
}

/// The `q` quantile (0..=1) of `sorted` by nearest rank; `sorted` must not
/// be empty.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let last = sorted.len() - 1;
    sorted[((q * last as f64).round() as usize).min(last)]
}

/// Counts of values in equal-width bins.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Histogram {
    /// The lower edge of the first bin.
    pub start: u64,
    /// The width of every bin: 1, 2 or 5 times a power of ten.
    pub width: u64,
    /// Values in `[start + i * width, start + (i + 1) * width)`.
    pub counts: Vec<u64>,
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `x`.
fn nice_width(x: f64) -> u64 {
    let mut w = 1u64;
    loop {
        for m in [1, 2, 5] {
            if (w * m) as f64 >= x {
                return w * m;
            }
        }
        w = w.saturating_mul(10);
        if w == u64::MAX {
            return w;
        }
    }
}

/// Bins `values` into at most `max_bins` bins of a round width, the first
/// starting at a multiple of the width.
pub fn histogram(values: &[u64], max_bins: usize) -> Histogram {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
        return Histogram {
            start: 0,
            width: 1,
            counts: Vec::new(),
        };
    };
    histogram_over(values, min, max, max_bins)
}

/// Like [`histogram`] with the bins laid over `min..=max` (which must hold
/// every value), so several histograms share their bins.
pub fn histogram_over(values: &[u64], min: u64, max: u64, max_bins: usize) -> Histogram {
    let (min, max) = (min.min(max), max.max(min));
    let max_bins = max_bins.max(1);
    let mut width = nice_width((max - min + 1) as f64 / max_bins as f64);
    // Aligning the start to the width can spill into one more bin.
    while (max / width - min / width + 1) as usize > max_bins {
        width = nice_width(width as f64 + 1.0);
    }
    let start = min / width * width;
    let bins = ((max - start) / width + 1) as usize;
    let mut counts = vec![0u64; bins];
    for &v in values {
        if let Some(c) = counts.get_mut((v.saturating_sub(start) / width) as usize) {
            *c += 1;
        }
    }
    Histogram {
        start,
        width,
        counts,
    }
}

/// Mean, median and 90th percentile of game lengths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (nearest rank).
    pub median: u64,
    /// 90th percentile (nearest rank).
    pub p90: u64,
    /// Shortest.
    pub min: u64,
    /// Longest.
    pub max: u64,
}

/// The nearest-rank `q` quantile (0 < q <= 1) of sorted values.
fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

/// Summarises `values`.
pub fn summary(values: &[u64]) -> Summary {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    Summary {
        mean: values.iter().sum::<u64>() as f64 / values.len().max(1) as f64,
        median: quantile(&sorted, 0.5),
        p90: quantile(&sorted, 0.9),
        min: sorted.first().copied().unwrap_or(0),
        max: sorted.last().copied().unwrap_or(0),
    }
}

/// One seat's result in one game of a duplicate deal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obs {
    /// The seat (position at the table): with the deal, the "cell" whose
    /// cards and dice are the same in every rotation.
    pub seat: usize,
    /// Which bot sat there.
    pub bot: usize,
    /// The result, e.g. normalised place (1 first .. 0 last).
    pub y: f64,
}

/// Shares of the variance of a seat's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Decomposition {
    /// Explained by the deal and seat (the cards and dice that position
    /// got): luck.
    pub luck: Interval,
    /// Explained by which bot sat there: skill.
    pub skill: Interval,
    /// The rest: how the bots' play met this particular deal.
    pub residual: Interval,
}

/// Per-deal sums, so a bootstrap resample is a sum over deals.
#[derive(Clone, Debug, Default)]
struct DealSums {
    n: f64,
    sum: f64,
    sum_sq: f64,
    /// Sum over seats of (seat sum)^2 / (seat count).
    cells: f64,
    /// Per bot: (sum, count).
    bots: Vec<(f64, f64)>,
}

fn deal_sums(obs: &[Obs], bots: usize) -> DealSums {
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut s = DealSums {
        bots: vec![(0.0, 0.0); bots],
        ..DealSums::default()
    };
    for o in obs {
        s.n += 1.0;
        s.sum += o.y;
        s.sum_sq += o.y * o.y;
        if cells.len() <= o.seat {
            cells.resize(o.seat + 1, (0.0, 0.0));
        }
        cells[o.seat].0 += o.y;
        cells[o.seat].1 += 1.0;
        if let Some(b) = s.bots.get_mut(o.bot) {
            b.0 += o.y;
            b.1 += 1.0;
        }
    }
    s.cells = cells
        .iter()
        .filter(|c| c.1 > 0.0)
        .map(|c| c.0 * c.0 / c.1)
        .sum();
    s
}

/// (luck, skill, residual) shares from the deals picked by `pick`.
fn shares<'a>(picked: impl Iterator<Item = &'a DealSums>, bots: usize) -> (f64, f64, f64) {
    let (mut n, mut sum, mut sum_sq, mut cells) = (0.0, 0.0, 0.0, 0.0);
    let mut by_bot = vec![(0.0, 0.0); bots];
    for d in picked {
        n += d.n;
        sum += d.sum;
        sum_sq += d.sum_sq;
        cells += d.cells;
        for (t, b) in by_bot.iter_mut().zip(&d.bots) {
            t.0 += b.0;
            t.1 += b.1;
        }
    }
    if n <= 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let correction = sum * sum / n;
    let total = sum_sq - correction;
    if total <= 1e-12 {
        return (0.0, 0.0, 0.0);
    }
    let deal = (cells - correction).max(0.0);
    let bot = (by_bot
        .iter()
        .filter(|b| b.1 > 0.0)
        .map(|b| b.0 * b.0 / b.1)
        .sum::<f64>()
        - correction)
        .max(0.0);
    let residual = (total - deal - bot).max(0.0);
    (deal / total, bot / total, residual / total)
}

/// Decomposes the variance of a seat's result over duplicate deals
/// (`deals[d]` holds every seat of every rotation of deal `d`):
///
/// - total: sum of (y - mean)^2 over every seat of every game;
/// - luck: sum over (deal, seat) of rotations x (mean y of that seat over
///   the deal's rotations - mean)^2: what the seat's cards and dice were
///   worth, averaged over every bot that played them;
/// - skill: sum over bots of games x (the bot's mean y - mean)^2;
/// - residual: total - luck - skill.
///
/// In a duplicate match every seat sees every bot equally often, so luck
/// and skill do not overlap. Shares are of the total; intervals are
/// bootstrap percentiles over deals (`resamples` draws, seeded by `seed`).
pub fn decompose(deals: &[Vec<Obs>], bots: usize, resamples: usize, seed: u64) -> Decomposition {
    let sums: Vec<DealSums> = deals.iter().map(|d| deal_sums(d, bots)).collect();
    let (luck, skill, residual) = shares(sums.iter(), bots);
    let mut draws: [Vec<f64>; 3] = Default::default();
    if sums.len() >= 2 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..resamples {
            let picks: Vec<usize> = (0..sums.len())
                .map(|_| rng.random_range(0..sums.len()))
                .collect();
            let (l, s, r) = shares(picks.iter().map(|&i| &sums[i]), bots);
            draws[0].push(l);
            draws[1].push(s);
            draws[2].push(r);
        }
    }
    let interval = |value: f64, draws: &mut Vec<f64>| {
        if draws.is_empty() {
            return Interval {
                value,
                low: value,
                high: value,
            };
        }
        draws.sort_by(f64::total_cmp);
        Interval {
            value,
            low: percentile(draws, 0.025).min(value),
            high: percentile(draws, 0.975).max(value),
        }
    };
    let [l, s, r] = &mut draws;
    Decomposition {
        luck: interval(luck, l),
        skill: interval(skill, s),
        residual: interval(residual, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_matches_table_values() {
        // Textbook 5% critical values.
        assert!((chi_square_survival(3.841, 1.0) - 0.05).abs() < 1e-3);
        assert!((chi_square_survival(7.815, 3.0) - 0.05).abs() < 1e-3);
        assert!((chi_square_survival(9.488, 4.0) - 0.05).abs() < 1e-3);
        assert!((chi_square_survival(13.277, 4.0) - 0.01).abs() < 1e-3);
        assert!((chi_square_survival(2.366, 3.0) - 0.5).abs() < 1e-3);
        assert_eq!(chi_square_survival(0.0, 3.0), 1.0);
        let equal = chi_square_equal(&[250.0, 250.0, 250.0, 250.0]);
        assert_eq!(equal.statistic, 0.0);
        assert_eq!(equal.p_value, 1.0);
        let skew = chi_square_equal(&[300.0, 250.0, 250.0, 200.0]);
        assert!((skew.statistic - 20.0).abs() < 1e-9);
        assert_eq!(skew.df, 3);
        assert!(skew.p_value < 0.001 && skew.p_value > 0.0);
    }

    #[test]
    fn wilson_matches_known_values() {
        // 20 of 100: the Wilson interval is [13.34%, 28.88%].
        let r = Rate::new(20.0, 100);
        assert!((r.low - 0.1334).abs() < 1e-4, "{}", r.low);
        assert!((r.high - 0.2888).abs() < 1e-4, "{}", r.high);
        let r = Rate::new(0.0, 10);
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
        assert_eq!(mean_ci(&[]), (0.0, 0.0, 0.0, 0.0));
        assert_eq!(mean_ci(&[2.0]).2, f64::NEG_INFINITY);
        let c = clustered_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        let half = Z95 * (2.5f64 / 5.0).sqrt();
        assert_eq!((c.value, c.low, c.high), (3.0, 3.0 - half, 3.0 + half));
        assert_eq!(clustered_mean(&[2.0]).low, 2.0);
        assert_eq!(pct(0.12345, 2), "12.35%");
    }

    #[test]
    fn wilson_brackets_the_rate() {
        let w = wilson(25.0, 100);
        assert_eq!(w.value, 0.25);
        assert!((w.low - 0.1754).abs() < 1e-3 && (w.high - 0.3430).abs() < 1e-3);
        let zero = wilson(0.0, 10);
        assert_eq!(zero.low, 0.0);
        assert!(zero.high > 0.2);
    }

    #[test]
    fn histogram_bins_are_round_and_hold_everything() {
        let values: Vec<u64> = (0..100).collect();
        let h = histogram(&values, 10);
        assert_eq!((h.start, h.width), (0, 10));
        assert_eq!(h.counts, vec![10; 10]);
        let h = histogram(&[95, 96, 180, 250], 20);
        assert_eq!(h.width, 10);
        assert_eq!(h.start, 90);
        assert_eq!(h.counts.len(), 17);
        assert_eq!(h.counts.iter().sum::<u64>(), 4);
        assert_eq!(h.counts[0], 2);
        assert_eq!(*h.counts.last().unwrap(), 1);
        let h = histogram(&[7, 7, 7], 30);
        assert_eq!((h.start, h.width, h.counts.clone()), (7, 1, vec![3]));
        assert!(histogram(&[], 5).counts.is_empty());
        let shared = histogram_over(&[95, 96], 50, 250, 20);
        assert_eq!(
            (shared.start, shared.width, shared.counts.len()),
            (40, 20, 11)
        );
        assert_eq!(shared.counts[2], 2);
        for max_bins in 1..40 {
            let h = histogram(&[13, 101, 977], max_bins);
            assert!(h.counts.len() <= max_bins, "{max_bins}: {h:?}");
            assert_eq!(h.counts.iter().sum::<u64>(), 3);
        }
    }

    #[test]
    fn summary_uses_nearest_rank() {
        let s = summary(&[5, 1, 4, 2, 3, 6, 7, 8, 9, 10]);
        assert_eq!((s.median, s.p90, s.min, s.max), (5, 9, 1, 10));
        assert!((s.mean - 5.5).abs() < 1e-12);
    }

    /// A deal of 4 seats in 4 rotations, bots 0,1,0,1 rotating, with seat
    /// values `a` (luck) and bot values `b` (skill) and optional noise.
    fn synthetic(a: &[f64; 4], b: [f64; 2], noise: impl Fn(usize, usize) -> f64) -> Vec<Obs> {
        let mut obs = Vec::new();
        for r in 0..4 {
            for (seat, a) in a.iter().enumerate() {
                let bot = (seat + r) % 2;
                obs.push(Obs {
                    seat,
                    bot,
                    y: a + b[bot] + noise(r, seat),
                });
            }
        }
        obs
    }

    #[test]
    fn decomposition_recovers_a_known_luck_share() {
        // No residual: luck share = sum (a - mean a)^2 x rotations over
        // that plus the bot part, exactly.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut deals = Vec::new();
        let mut all_a = Vec::new();
        for _ in 0..500 {
            let a: [f64; 4] = std::array::from_fn(|_| rng.random_range(-1.0..1.0));
            all_a.extend(a);
            deals.push(synthetic(&a, [0.0, 0.5], |_, _| 0.0));
        }
        let mean_a = all_a.iter().sum::<f64>() / all_a.len() as f64;
        let ss_a = 4.0 * all_a.iter().map(|a| (a - mean_a).powi(2)).sum::<f64>();
        let ss_b = (deals.len() * 16) as f64 * 0.25 * 0.25;
        let want = ss_a / (ss_a + ss_b);
        let d = decompose(&deals, 2, 200, 1);
        assert!((d.luck.value - want).abs() < 1e-9, "{d:?} want {want}");
        assert!((d.skill.value - (1.0 - want)).abs() < 1e-9);
        assert!(d.residual.value < 1e-9);
        assert!(d.luck.low <= d.luck.value && d.luck.value <= d.luck.high);
        assert!(d.luck.high - d.luck.low < 0.1);

        // Luck variance 1/3 (uniform on -1..1), skill 1/16, noise 1/12
        // (uniform on -0.5..0.5): the luck share is near
        // (1/3 + 1/12/4) / (1/3 + 1/16 + 1/12), the cell means carrying a
        // quarter of the noise.
        let mut deals = Vec::new();
        for _ in 0..3000 {
            let a: [f64; 4] = std::array::from_fn(|_| rng.random_range(-1.0..1.0));
            let noise: Vec<f64> = (0..16).map(|_| rng.random_range(-0.5..0.5)).collect();
            deals.push(synthetic(&a, [0.0, 0.5], |r, s| noise[r * 4 + s]));
        }
        let total = 1.0 / 3.0 + 1.0 / 16.0 + 1.0 / 12.0;
        let want = (1.0 / 3.0 + 1.0 / 48.0) / total;
        let d = decompose(&deals, 2, 200, 1);
        assert!((d.luck.value - want).abs() < 0.02, "{d:?} want {want}");
        assert!((d.skill.value - (1.0 / 16.0) / total).abs() < 0.02, "{d:?}");
        assert!(d.luck.low < want && want < d.luck.high, "{d:?} want {want}");

        // Pure skill: the seat does not matter.
        let deals: Vec<Vec<Obs>> = (0..50)
            .map(|_| synthetic(&[0.0; 4], [0.0, 1.0], |_, _| 0.0))
            .collect();
        let d = decompose(&deals, 2, 50, 1);
        assert!(d.luck.value < 1e-9 && (d.skill.value - 1.0).abs() < 1e-9);
    }

    #[test]
    fn the_bootstrap_is_reproducible() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let deals: Vec<Vec<Obs>> = (0..100)
            .map(|_| {
                let a: [f64; 4] = std::array::from_fn(|_| rng.random_range(-1.0..1.0));
                let n: Vec<f64> = (0..16).map(|_| rng.random_range(-1.0..1.0)).collect();
                synthetic(&a, [0.0, 0.3], |r, s| n[r * 4 + s])
            })
            .collect();
        assert_eq!(decompose(&deals, 2, 100, 5), decompose(&deals, 2, 100, 5));
    }

    #[test]
    fn ratio_mean_weights_clusters_by_size() {
        // 10 decisions losing 1 each and 30 losing 0: 0.25 per decision,
        // not the 0.5 a mean of per-game means would give.
        let r = ratio_mean(&[(10.0, 10.0), (0.0, 30.0)]);
        assert!((r.value - 0.25).abs() < 1e-12);
        assert!(r.low < 0.25 && r.high > 0.25);
        // equal clusters: no spread, a point
        let p = ratio_mean(&[(2.0, 4.0), (3.0, 6.0), (1.0, 2.0)]);
        assert!((p.value - 0.5).abs() < 1e-12 && (p.high - p.low).abs() < 1e-9);
        assert_eq!(ratio_mean(&[]).value, 0.0);
        assert_eq!(ratio_mean(&[(0.0, 0.0)]).high, 0.0);
        let one = ratio_mean(&[(3.0, 2.0)]);
        assert_eq!((one.low, one.value, one.high), (1.5, 1.5, 1.5));
    }
}
