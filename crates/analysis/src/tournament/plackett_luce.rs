//! Plackett–Luce ratings of the entrants from the finishing orders, fitted
//! by Hunter's MM algorithm, with a bootstrap over deals.
//!
//! The data is summarised per deal ([`PlData`], stages keyed by who was
//! still in the running) so that a bootstrap resample is a weighted sum of
//! deals and refitting costs nothing per game. Ties are Breslow-style
//! (each tied seat counts as chosen from the same set), and a weak prior
//! (one virtual win each way between every two entrants) keeps a bot that
//! never won finite.

use crate::stats::mean_ci;
use serde::Serialize;

use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

/// One entrant's Plackett–Luce rating.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    /// Its name in the report.
    pub bot: String,
    /// 400 log10(strength / anchor's strength): Elo-like, anchor = 0.
    pub rating: f64,
    /// Standard deviation of the rating over bootstrap resamples of deals.
    pub sd: f64,
    /// 2.5th percentile of the bootstrap ratings.
    pub low: f64,
    /// 97.5th percentile.
    pub high: f64,
    /// Strength as a share of the sum over entrants.
    pub strength: f64,
}

/// The ratings of every entrant.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    /// The entrant rated 0.
    pub anchor: String,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// Per entrant, in entrant order.
    pub bots: Vec<Rating>,
}

/// Bootstrap resamples for the ratings' uncertainty.
const BOOTSTRAP: usize = 200;

/// Finishing orders summarised for a Plackett–Luce fit: each *stage*
/// (choosing the next place among the seats not yet placed) is keyed by
/// how many seats of each entrant were still in the running, with how many
/// seats were placed from it; `wins` counts each entrant's placements.
/// Seats of the same entrant share a strength, so stages with the same
/// counts merge and the fit costs nothing per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlData {
    /// Placements per entrant.
    pub wins: Vec<f64>,
    /// Stage composition -> seats placed from it.
    pub stages: BTreeMap<Vec<u32>, f64>,
}

impl PlData {
    /// Empty data for `entrants` entrants.
    pub fn new(entrants: usize) -> PlData {
        PlData {
            wins: vec![0.0; entrants],
            stages: BTreeMap::new(),
        }
    }

    /// Adds one finishing order: `seating[s]` is the entrant in seat `s`,
    /// `places[s]` its place (1 = first; tied seats share a place and are
    /// each counted as chosen from the same set, Breslow's way). The last
    /// seat left is not a choice and adds nothing.
    pub fn add_game(&mut self, seating: &[usize], places: &[u8]) {
        let k = self.wins.len();
        let mut left: Vec<u32> = vec![0; k];
        for &e in seating {
            left[e] += 1;
        }
        let mut distinct: Vec<u8> = places.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for place in distinct {
            if left.iter().sum::<u32>() <= 1 {
                break;
            }
            let chosen: Vec<usize> = (0..seating.len())
                .filter(|&s| places[s] == place)
                .map(|s| seating[s])
                .collect();
            *self.stages.entry(left.clone()).or_insert(0.0) += chosen.len() as f64;
            for e in chosen {
                self.wins[e] += 1.0;
                left[e] -= 1;
            }
        }
    }

    /// Adds `weight` times `other`.
    pub fn add_scaled(&mut self, other: &PlData, weight: f64) {
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += weight * o;
        }
        for (c, m) in &other.stages {
            *self.stages.entry(c.clone()).or_insert(0.0) += weight * m;
        }
    }

    /// Fits strengths by Hunter's MM algorithm, with a prior of `prior`
    /// virtual wins each way between every two entrants (0 for none), so a
    /// bot that never won still gets a finite strength. Strengths are
    /// relative (their geometric mean is 1): compare ratios.
    pub fn fit(&self, prior: f64) -> Vec<f64> {
        self.fit_from(prior, &vec![1.0; self.wins.len()])
    }

    /// [`PlData::fit`] starting from `start` (a nearby fit converges in a
    /// few steps: the bootstrap starts from the full data's fit).
    pub fn fit_from(&self, prior: f64, start: &[f64]) -> Vec<f64> {
        let k = self.wins.len();
        let mut gamma = start.to_vec();
        for _ in 0..100_000 {
            let mut denom = vec![0.0; k];
            for (c, m) in &self.stages {
                let s: f64 = c.iter().zip(&gamma).map(|(&n, g)| n as f64 * g).sum();
                if s > 0.0 {
                    for e in 0..k {
                        denom[e] += m * c[e] as f64 / s;
                    }
                }
            }
            let mut new = gamma.clone();
            for e in 0..k {
                let mut d = denom[e];
                for f in (0..k).filter(|&f| f != e) {
                    d += 2.0 * prior / (gamma[e] + gamma[f]);
                }
                let w = self.wins[e] + prior * (k - 1) as f64;
                if d > 0.0 && w > 0.0 {
                    new[e] = w / d;
                }
            }
            let logs: Vec<f64> = new.iter().map(|g| g.ln()).collect();
            let centre = logs.iter().sum::<f64>() / k as f64;
            let mut change = 0.0f64;
            for e in 0..k {
                let g = (logs[e] - centre).exp();
                change = change.max((g / gamma[e]).ln().abs());
                gamma[e] = g;
            }
            if change.is_nan() || change < 1e-10 {
                break;
            }
        }
        gamma
    }
}

/// Elo-like rating of strength `g` against the anchor's `anchor`: the
/// Plackett–Luce chance that one beats the other head to head is
/// g / (g + anchor), which is Elo's curve on this scale.
pub(crate) fn elo(g: f64, anchor: f64) -> f64 {
    400.0 * (g / anchor).log10()
}

/// Plackett–Luce ratings with a bootstrap over deals. The anchor is
/// `random` when it plays, else the last entrant (the field in candidate
/// mode).
pub(crate) fn ratings(per_deal: &[PlData], labels: &[String], seed: u64) -> Ratings {
    let k = labels.len();
    let anchor = labels
        .iter()
        .position(|l| l == "random" || l == "random (field)")
        .unwrap_or(k.saturating_sub(1));
    let prior = 1.0;
    let mut all = PlData::new(k);
    for d in per_deal {
        all.add_scaled(d, 1.0);
    }
    let gamma = all.fit(prior);
    let total: f64 = gamma.iter().sum();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(crate::derive_seed(seed, u64::MAX));
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP); k];
    if per_deal.len() > 1 {
        for _ in 0..BOOTSTRAP {
            let mut counts = vec![0u32; per_deal.len()];
            for _ in 0..per_deal.len() {
                counts[rng.random_range(0..per_deal.len())] += 1;
            }
            let mut data = PlData::new(k);
            for (d, &c) in per_deal.iter().zip(&counts) {
                if c > 0 {
                    data.add_scaled(d, f64::from(c));
                }
            }
            let g = data.fit_from(prior, &gamma);
            for e in 0..k {
                samples[e].push(elo(g[e], g[anchor]));
            }
        }
    }
    let bots = (0..k)
        .map(|e| {
            let mut s = samples[e].clone();
            s.sort_by(f64::total_cmp);
            let rating = elo(gamma[e], gamma[anchor]);
            let (_, sd, _, _) = mean_ci(&s);
            let pick = |q: f64| {
                if s.is_empty() {
                    rating
                } else {
                    crate::stats::percentile(&s, q)
                }
            };
            Rating {
                bot: labels[e].clone(),
                rating,
                sd,
                low: pick(0.025),
                high: pick(0.975),
                strength: gamma[e] / total,
            }
        })
        .collect();
    Ratings {
        anchor: labels.get(anchor).cloned().unwrap_or_default(),
        bootstrap: if per_deal.len() > 1 { BOOTSTRAP } else { 0 },
        bots,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;

    /// Draws a finishing order from Plackett–Luce with `weights`.
    fn pl_order(weights: &[f64], seating: &[usize], rng: &mut ChaCha8Rng) -> Vec<u8> {
        let mut left: Vec<usize> = (0..seating.len()).collect();
        let mut places = vec![0u8; seating.len()];
        let mut place = 1;
        while !left.is_empty() {
            let total: f64 = left.iter().map(|&s| weights[seating[s]]).sum();
            let mut x = rng.random::<f64>() * total;
            let mut pick = left.len() - 1;
            for (i, &s) in left.iter().enumerate() {
                x -= weights[seating[s]];
                if x < 0.0 {
                    pick = i;
                    break;
                }
            }
            places[left.remove(pick)] = place;
            place += 1;
        }
        places
    }

    #[test]
    fn plackett_luce_recovers_known_strengths() {
        let weights = [1.0, 2.0, 4.0, 0.5];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut data = PlData::new(4);
        for g in 0..6000 {
            // Mixed tables, with repeated entrants like a field.
            let seating: Vec<usize> = (0..5).map(|s| (g + s * (1 + g % 3)) % 4).collect();
            let places = pl_order(&weights, &seating, &mut rng);
            data.add_game(&seating, &places);
        }
        let g = data.fit(0.0);
        for e in 0..4 {
            let ratio = g[e] / g[0];
            assert!(
                (ratio / weights[e] - 1.0).abs() < 0.08,
                "entrant {e}: {ratio} vs {}",
                weights[e]
            );
        }
        // Elo scale: a 2x stronger bot is 120 points up.
        assert!((elo(2.0, 1.0) - 120.41).abs() < 0.01);
    }

    #[test]
    fn plackett_luce_stages_and_ties() {
        let mut d = PlData::new(2);
        // Seats: 0 1 1; places 2, 1, 1 -> entrant 1 twice chosen from
        // {0, 1, 1}; then the last seat is not a choice.
        d.add_game(&[0, 1, 1], &[2, 1, 1]);
        assert_eq!(d.wins, vec![0.0, 2.0]);
        assert_eq!(d.stages.len(), 1);
        assert_eq!(d.stages[&vec![1, 2]], 2.0);
        // Equal data for both: equal strengths, with or without a prior.
        let mut e = PlData::new(2);
        e.add_game(&[0, 1], &[1, 2]);
        e.add_game(&[0, 1], &[2, 1]);
        let g = e.fit(1.0);
        assert!((g[0] - g[1]).abs() < 1e-9);
        // A bot that never wins still gets a finite strength with a prior.
        let mut z = PlData::new(2);
        for _ in 0..10 {
            z.add_game(&[0, 1], &[2, 1]);
        }
        let g = z.fit(1.0);
        assert!(g[0] > 0.0 && g[0] < g[1]);
    }
}
