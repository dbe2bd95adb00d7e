//! What a number card's roll pays in each dice mode (B11), as
//! distributions and means: the arithmetic every bot estimates a card's
//! worth with. It lives beside the rules, as [`DiceMode`] methods, so the
//! bots read one copy of it instead of each writing its own.
//!
//! Half-of-n has no short closed form, and the bots use two estimates of
//! its mean, kept apart by [`HalfOfNMean`]: the ladder's rough one (4.4
//! per die) and the panel's exact one. Which a bot uses is part of how it
//! plays, so both stay.

use crate::DiceMode;

/// Which mean of half-of-n (the best half of `n` d6, times 2) a payout
/// estimate takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfOfNMean {
    /// About 4.4 per kept die, times 2: the ladder's estimate.
    Rough,
    /// The expected sum of the best `n / 2` of `n` d6, times 2.
    Exact,
}

impl HalfOfNMean {
    /// This mean of half-of-n's payout for `n` dice.
    pub fn of(self, n: usize) -> f64 {
        match self {
            HalfOfNMean::Rough => n as f64 / 2.0 * 4.4 * 2.0,
            HalfOfNMean::Exact => exact_half_of_n(n),
        }
    }
}

/// Twice the expected sum of the best `n / 2` of `n` d6. The sum of the
/// best `k` dice is `sum over t = 1..=6 of min(k, N_t)` where `N_t`
/// counts dice showing at least `t`, a binomial count.
fn exact_half_of_n(n: usize) -> f64 {
    let k = n / 2;
    let mut sum = 0.0;
    for t in 1..=6 {
        let p = (7 - t) as f64 / 6.0;
        // E[min(k, Binomial(n, p))].
        let mut pmf = (1.0 - p).powi(n as i32);
        let mut e = 0.0;
        for j in 0..=n {
            if j > 0 {
                pmf *= (n - j + 1) as f64 / j as f64 * p / (1.0 - p).max(1e-12);
            }
            if p >= 1.0 {
                e = k as f64;
                break;
            }
            e += pmf * j.min(k) as f64;
        }
        sum += e;
    }
    2.0 * sum
}

impl DiceMode {
    /// The payout distribution of a number card worth `value`, as
    /// (payout, probability) pairs (B11); half-of-n as one point at
    /// `half`'s mean, rounded.
    pub fn payouts(self, value: u16, half: HalfOfNMean) -> Vec<(u16, f64)> {
        let v = value;
        match self {
            DiceMode::Polyhedral => (1..=v).map(|f| (f, 1.0 / v as f64)).collect(),
            DiceMode::D6 => (1..=6).map(|f| (f * v, 1.0 / 6.0)).collect(),
            // The best of two d6 is k with probability (2k - 1) / 36.
            DiceMode::BestOfTwo => (1..=6)
                .map(|k| (k * v, (2 * k - 1) as f64 / 36.0))
                .collect(),
            DiceMode::HalfOfN => vec![(half.of(v as usize).round() as u16, 1.0)],
            DiceMode::NoDice => vec![(v, 1.0)],
        }
    }

    /// The mean of [`DiceMode::payouts`]: the sum of payout times
    /// probability.
    pub fn mean_of_payouts(self, value: u16, half: HalfOfNMean) -> f64 {
        self.payouts(value, half)
            .iter()
            .map(|&(p, q)| p as f64 * q)
            .sum()
    }

    /// The mean payout of a number card worth `value`, in closed form
    /// (the search bot's playouts, which need it fast): half-of-n at the
    /// rough mean, not rounded.
    pub fn mean_payout(self, value: f64) -> f64 {
        let v = value;
        match self {
            DiceMode::Polyhedral => (v + 1.0) / 2.0,
            DiceMode::D6 => 3.5 * v,
            // E[max of 2d6] = 161/36
            DiceMode::BestOfTwo => v * 161.0 / 36.0,
            DiceMode::HalfOfN => v * 4.4,
            DiceMode::NoDice => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_half_of_n_means() {
        // 2 dice, best 1: E[max of two d6] = 161/36.
        assert!((HalfOfNMean::Exact.of(2) - 2.0 * 161.0 / 36.0).abs() < 1e-9);
        // 4 dice, best 2: between 2 x 3.5 x 2 and 2 x 6 x 2.
        let m = HalfOfNMean::Exact.of(4);
        assert!(m > 14.0 && m < 24.0, "{m}");
        // The rough mean is 4.4 per die.
        assert!((HalfOfNMean::Rough.of(10) - 44.0).abs() < 1e-9);
    }

    #[test]
    fn the_closed_form_mean_is_the_distributions() {
        for mode in [
            DiceMode::Polyhedral,
            DiceMode::D6,
            DiceMode::BestOfTwo,
            DiceMode::NoDice,
        ] {
            for v in [2u16, 4, 6, 8, 10, 12, 20] {
                let d = mode.mean_of_payouts(v, HalfOfNMean::Rough);
                assert!((mode.mean_payout(v as f64) - d).abs() < 1e-9, "{mode} {v}");
            }
        }
    }
}
