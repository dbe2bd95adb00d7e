//! The sequential probability ratio test on a candidate's first-place
//! rate, whose observations are deals, not games.
//!
//! Shaped as a running state ([`Sprt`]) fed one game at a time and closed
//! one deal at a time, so the worker loop can stop the moment it decides
//! and a resumed run, replaying the checkpoint's deals through it, stops
//! at the same deal.

use serde::{Deserialize, Serialize};

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

/// Why a `--sprt` text is not an [`SprtSpec`]: the text and what is
/// wrong with it, shown with the notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad --sprt `{text}`: {why} (write p0,p1 or p0,p1,alpha,beta, e.g. 0.20,0.24)")]
pub struct BadSprt {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl std::str::FromStr for SprtSpec {
    type Err = BadSprt;

    /// `p0,p1` or `p0,p1,alpha,beta` (alpha and beta default to 0.05).
    fn from_str(text: &str) -> Result<SprtSpec, BadSprt> {
        let bad = |why: &'static str| BadSprt {
            text: text.to_string(),
            why,
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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
}
