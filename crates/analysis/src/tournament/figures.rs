//! The tournament's figures: per entrant, paired differences, ratings and
//! seats, computed from the deals alone ([`analyse`]).
//!
//! A pure function of the deals (and the seed of the ratings' bootstrap),
//! so a resumed run, which reads some deals back from the checkpoint,
//! reports exactly what an uninterrupted one does.

use super::plackett_luce::{ratings, PlData, Ratings};
use super::worker::Deal;
use crate::stats::{mean_ci, Rate};
use game::Seat;
use serde::Serialize;
use std::collections::BTreeMap;

/// One entrant's figures.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantStats {
    /// Its name in the report.
    pub bot: String,
    /// Seat-games it played (one per seat per game).
    pub seat_games: u64,
    /// First places per seat-game (shared wins count as fractions), with a
    /// 95% Wilson interval over seat-games.
    pub wins: Rate,
    /// The rate if every seat were equal: the mean of 1/seats over its
    /// seat-games.
    pub fair_share: f64,
    /// Mean finishing place (1 = first).
    pub mean_place: f64,
}

/// A paired difference between two entrants over duplicate deals.
#[derive(Clone, Debug, Serialize)]
pub struct Paired {
    /// The first entrant.
    pub a: String,
    /// The second entrant.
    pub b: String,
    /// Deals in which both played.
    pub deals: u64,
    /// Mean over deals of (a's per-seat win share - b's), in the games of
    /// that deal with only a and b at the table.
    pub mean: f64,
    /// Standard deviation of the per-deal differences.
    pub sd: f64,
    /// Lower end of the 95% interval (Student t over deals).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Half-width of the 95% interval of the same mean from the per-game
    /// differences, as if the games were independent (no duplicate deals),
    /// for contrast.
    pub unpaired_half_width: f64,
}

/// One seat's figures.
#[derive(Clone, Debug, Serialize)]
pub struct SeatStats {
    /// The seat.
    pub seat: String,
    /// First places of whoever sat there.
    pub wins: Rate,
    /// Each entrant's first places when it sat there (entrant order).
    pub by_bot: Vec<Rate>,
}

/// Everything measured, a pure function of the deals.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// Deals reported.
    pub deals: u64,
    /// Games reported.
    pub games: u64,
    /// Per entrant.
    pub entrants: Vec<EntrantStats>,
    /// Per pair of entrants that met.
    pub paired: Vec<Paired>,
    /// Plackett–Luce ratings.
    pub ratings: Ratings,
    /// Per seat.
    pub seats: Vec<SeatStats>,
    /// Games won by more than one seat.
    pub shared_wins: u64,
    /// Games stopped by the length cap, with no winner (B17).
    pub capped: u64,
    /// Mean actions per game.
    pub mean_actions: f64,
}

/// The report's figures from the deals; `labels` are the entrants' names,
/// `seed` seeds the bootstrap.
pub fn analyse(deals: &[Deal], labels: &[String], seed: u64) -> Figures {
    let k = labels.len();
    let mut seat_games = vec![0u64; k];
    let mut credit = vec![0.0; k];
    let mut fair = vec![0.0; k];
    let mut place_sum = vec![0.0; k];
    let mut seat_credit: Vec<f64> = Vec::new();
    let mut seat_count: Vec<u64> = Vec::new();
    let mut seat_bot: Vec<Vec<(f64, u64)>> = Vec::new();
    let (mut games, mut shared, mut capped, mut actions) = (0u64, 0u64, 0u64, 0u64);
    // Per pair (a, b): the per-deal differences, and the per-game ones for
    // the contrast with independent games.
    let mut pair_diffs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut game_diffs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut per_deal_pl: Vec<PlData> = Vec::new();
    for d in deals {
        let mut pl = PlData::new(k);
        let mut deal_pairs: BTreeMap<(usize, usize), [f64; 4]> = BTreeMap::new();
        for p in &d.games {
            let g = &p.game;
            let n = g.seating.len();
            games += 1;
            actions += g.actions;
            if g.capped || g.winners.is_empty() {
                capped += 1;
            } else {
                pl.add_game(&g.seating, &g.places);
            }
            if g.winners.len() > 1 {
                shared += 1;
            }
            if seat_credit.len() < n {
                seat_credit.resize(n, 0.0);
                seat_count.resize(n, 0);
                seat_bot.resize(n, vec![(0.0, 0); k]);
            }
            let mut present: Vec<usize> = g.seating.clone();
            present.sort_unstable();
            present.dedup();
            for (s, &e) in g.seating.iter().enumerate() {
                let w = g.win_share(s);
                seat_games[e] += 1;
                credit[e] += w;
                fair[e] += 1.0 / n as f64;
                place_sum[e] += f64::from(g.places[s]);
                seat_credit[s] += w;
                seat_count[s] += 1;
                seat_bot[s][e].0 += w;
                seat_bot[s][e].1 += 1;
            }
            if let [a, b] = present[..] {
                let t = pair_shares(g, a);
                game_diffs
                    .entry((a, b))
                    .or_default()
                    .push(t[0] / t[1] - t[2] / t[3]);
                let d = deal_pairs.entry((a, b)).or_insert([0.0; 4]);
                for i in 0..4 {
                    d[i] += t[i];
                }
            }
        }
        for (pair, t) in deal_pairs {
            pair_diffs
                .entry(pair)
                .or_default()
                .push(t[0] / t[1] - t[2] / t[3]);
        }
        per_deal_pl.push(pl);
    }
    let entrants = (0..k)
        .map(|e| {
            let n = seat_games[e];
            EntrantStats {
                bot: labels[e].clone(),
                seat_games: n,
                wins: Rate::new(credit[e], n),
                fair_share: fair[e] / n.max(1) as f64,
                mean_place: place_sum[e] / n.max(1) as f64,
            }
        })
        .collect();
    let paired = paired_stats(labels, &pair_diffs, &game_diffs);
    let seats = seat_stats(&seat_credit, &seat_count, &seat_bot);
    Figures {
        deals: deals.len() as u64,
        games,
        entrants,
        paired,
        ratings: ratings(&per_deal_pl, labels, seed),
        seats,
        shared_wins: shared,
        capped,
        mean_actions: actions as f64 / games.max(1) as f64,
    }
}

/// First places by seat, for whoever sat there (`credit` of `count`
/// seat-games) and for each bot (`by_bot`).
fn seat_stats(credit: &[f64], count: &[u64], by_bot: &[Vec<(f64, u64)>]) -> Vec<SeatStats> {
    (0..credit.len())
        .map(|s| SeatStats {
            seat: Seat::new(s).to_string(),
            wins: Rate::new(credit[s], count[s]),
            by_bot: by_bot[s].iter().map(|&(c, n)| Rate::new(c, n)).collect(),
        })
        .collect()
}

/// A game of two entrants, `a` and another: `a`'s win shares and seats,
/// then the other's.
fn pair_shares(g: &crate::duplicate::GameResult, a: usize) -> [f64; 4] {
    let mut t = [0.0; 4];
    for (s, &e) in g.seating.iter().enumerate() {
        let i = if e == a { 0 } else { 2 };
        t[i] += g.win_share(s);
        t[i + 1] += 1.0;
    }
    t
}

/// Each pair's paired difference over deals (mean, 95% t interval), with
/// the half-width the per-game differences would give.
fn paired_stats(
    labels: &[String],
    pair_diffs: &BTreeMap<(usize, usize), Vec<f64>>,
    game_diffs: &BTreeMap<(usize, usize), Vec<f64>>,
) -> Vec<Paired> {
    pair_diffs
        .iter()
        .map(|(&(a, b), xs)| {
            let (mean, sd, low, high) = mean_ci(xs);
            let (_, _, g_low, g_high) = mean_ci(&game_diffs[&(a, b)]);
            Paired {
                a: labels[a].clone(),
                b: labels[b].clone(),
                deals: xs.len() as u64,
                mean,
                sd,
                low,
                high,
                unpaired_half_width: (g_high - g_low) / 2.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::worker::Played;
    use super::*;
    use crate::duplicate::GameResult;

    fn played(lineup: usize, seating: Vec<usize>, winner: usize) -> Played {
        let n = seating.len();
        Played {
            id: String::new(),
            seed: String::new(),
            lineup,
            game: GameResult {
                deal: 0,
                rotation: 0,
                places: (0..n).map(|s| if s == winner { 1 } else { 2 }).collect(),
                scores: vec![0; n],
                seating,
                winners: vec![winner],
                actions: 10,
                capped: false,
                think: Vec::new(),
                strikes: Vec::new(),
                stand_in: Vec::new(),
            },
        }
    }

    #[test]
    fn paired_differences_come_from_per_deal_shares() {
        let labels = vec!["a".to_string(), "b".to_string()];
        // Deal 0: a wins both of its games (share 1) and b none: per-seat
        // b share 0, diff +1. Deal 1: a wins one of two (0.5), b's two
        // seats win one of four seat-games (0.25): diff +0.25.
        let deals = vec![
            Deal {
                deal: 0,
                games: vec![played(0, vec![0, 1, 1], 0), played(0, vec![1, 0, 1], 1)],
            },
            Deal {
                deal: 1,
                games: vec![played(0, vec![0, 1, 1], 1), played(0, vec![1, 0, 1], 1)],
            },
        ];
        let fig = analyse(&deals, &labels, 0);
        let p = &fig.paired[0];
        assert_eq!((p.a.as_str(), p.b.as_str(), p.deals), ("a", "b", 2));
        assert!((p.mean - 0.625).abs() < 1e-12, "{p:?}");
        assert_eq!(fig.games, 4);
        assert!((fig.entrants[0].fair_share - 1.0 / 3.0).abs() < 1e-12);
    }
}
