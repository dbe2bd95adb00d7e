//! `GET /api/players/{player}`: a person's public profile, by the short id
//! the leaderboard shows (never their key, nor their whole id). Bounded
//! like every list: the newest [`HISTORY_READ`] rating updates per game
//! are read (indexed) and thinned to [`HISTORY_POINTS`] for the graph,
//! [`RECENT_GAMES`] recent games; metered as a game list. Only public
//! tables appear: their games, their rating updates, their results.

use super::body::meter;
use super::players::short_id;
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::quota::Kind;
use crate::state::AppState;
use crate::store::profile::{is_short_id, HistoryPoint, Lookup, ProfileRows, SeatStats};
use crate::store::PlayerGame;
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;

/// The newest rating updates read per game.
pub(super) const HISTORY_READ: usize = 1000;

/// The most points of a rating's history sent (for its graph).
pub(super) const HISTORY_POINTS: usize = 100;

/// The most recent games sent.
pub(super) const RECENT_GAMES: usize = 20;

/// A person's profile.
#[derive(Serialize)]
pub(super) struct Profile {
    /// The short id, as on the leaderboard.
    player: String,
    /// The name they last played under.
    name: String,
    /// Per game they are rated in.
    ratings: Vec<GameProfile>,
    /// Their newest finished games at public tables, newest first.
    games: Vec<PlayerGame>,
    /// The tournaments they played: none yet (the site has no tournaments
    /// for people); kept so the page and programs need no change when
    /// there are.
    tournaments: Vec<TournamentEntry>,
}

/// A tournament a person played (none exist yet).
#[derive(Serialize)]
pub(super) struct TournamentEntry {
    /// The tournament.
    id: String,
    /// The person's place.
    place: u32,
}

/// A person's rating in one game, its history and their results.
#[derive(Serialize)]
pub(super) struct GameProfile {
    game: String,
    rating: f64,
    uncertainty: f64,
    score: f64,
    /// Rated games, at any table (as the leaderboard).
    games: u64,
    /// Rated games at public tables (the points of the history before
    /// thinning, if fewer than [`HISTORY_READ`]).
    public_games: u64,
    /// The rating after each rated game at a public table, oldest first,
    /// thinned to at most [`HISTORY_POINTS`] (the newest kept).
    history: Vec<HistoryPoint>,
    /// Results of the rated games at public tables.
    stats: Stats,
}

/// Results: counts, wins and the mean place, overall and by seat.
#[derive(Serialize, Default)]
pub(super) struct Stats {
    games: u64,
    wins: u64,
    /// The mean place, 1 = first (0 without games).
    mean_place: f64,
    /// By seat (0-based), seats without games left out.
    seats: Vec<SeatLine>,
}

/// Results in one seat.
#[derive(Serialize)]
pub(super) struct SeatLine {
    seat: u8,
    games: u64,
    wins: u64,
    mean_place: f64,
}

/// A mean place from a sum (0 without games).
fn mean(sum: u64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        sum as f64 / games as f64
    }
}

/// The stats of `game` from the rows by seat.
fn stats(game: &str, rows: &[SeatStats]) -> Stats {
    let rows: Vec<&SeatStats> = rows.iter().filter(|r| r.game == game).collect();
    let games = rows.iter().map(|r| r.games).sum();
    let sum = rows.iter().map(|r| r.place_sum).sum();
    Stats {
        games,
        wins: rows.iter().map(|r| r.wins).sum(),
        mean_place: mean(sum, games),
        seats: rows
            .iter()
            .map(|r| SeatLine {
                seat: r.seat,
                games: r.games,
                wins: r.wins,
                mean_place: mean(r.place_sum, r.games),
            })
            .collect(),
    }
}

/// At most `n` of `points`, evenly spread, the first and the newest kept.
pub(super) fn thin<T>(points: Vec<T>, n: usize) -> Vec<T> {
    let len = points.len();
    if len <= n {
        return points;
    }
    if n < 2 {
        return points.into_iter().skip(len - n).collect();
    }
    let keep: Vec<usize> = (0..n).map(|i| i * (len - 1) / (n - 1)).collect();
    points
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.binary_search(i).is_ok())
        .map(|(_, p)| p)
        .collect()
}

impl From<ProfileRows> for Profile {
    fn from(rows: ProfileRows) -> Profile {
        let ProfileRows {
            player,
            ratings,
            mut history,
            stats: by_seat,
            games,
        } = rows;
        let name = ratings.first().map(|r| r.name.clone()).unwrap_or_default();
        let ratings = ratings
            .into_iter()
            .map(|r| {
                let points = history
                    .iter_mut()
                    .find(|(g, _)| *g == r.game)
                    .map(|(_, p)| std::mem::take(p))
                    .unwrap_or_default();
                let stats = stats(&r.game, &by_seat);
                GameProfile {
                    public_games: stats.games,
                    history: thin(points, HISTORY_POINTS),
                    stats,
                    game: r.game,
                    rating: r.rating,
                    uncertainty: r.uncertainty,
                    score: r.score,
                    games: r.games,
                }
            })
            .collect();
        Profile {
            player: short_id(&player),
            name,
            ratings,
            games,
            tournaments: Vec::new(),
        }
    }
}

/// `GET /api/players/{player}`: the profile of the rated person whose
/// short id is `player` (8 lowercase hex digits, else 400; nobody rated:
/// 404).
pub(super) async fn profile(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(player): Path<String>,
) -> Result<Json<Profile>, Error> {
    if !is_short_id(&player) {
        return Err(Error::BadInput(
            "a player id is 8 lowercase hex digits, as on the leaderboard".to_string(),
        ));
    }
    meter(&state, Kind::Record, addr, "game lists")?;
    let store = state.store();
    let found =
        tokio::task::spawn_blocking(move || store.profile(&player, HISTORY_READ, RECENT_GAMES))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
    match found {
        Lookup::Unknown => Err(Error::UnknownPlayer),
        Lookup::Ambiguous => Err(Error::AmbiguousPlayer),
        Lookup::Found(rows) => Ok(Json(Profile::from(*rows))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends_and_at_most_n() {
        let v: Vec<usize> = (0..1000).collect();
        let t = thin(v, 100);
        assert_eq!(t.len(), 100);
        assert_eq!((t[0], t[99]), (0, 999));
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(thin((0..5).collect::<Vec<_>>(), 100), vec![0, 1, 2, 3, 4]);
        assert_eq!(thin((0..101).collect::<Vec<_>>(), 100).len(), 100);
    }
}
