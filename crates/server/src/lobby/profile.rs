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
use crate::store::profile::{
    is_short_id, HistoryPoint, Lookup, ProfileRows, SeatStats, VariantStats,
};
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
    /// The tournaments they entered, newest first, at most
    /// [`TOURNAMENTS`].
    tournaments: Vec<TournamentEntry>,
}

/// The most tournaments sent.
pub(super) const TOURNAMENTS: usize = 20;

/// A tournament a person entered.
#[derive(Serialize)]
pub(super) struct TournamentEntry {
    /// The tournament (`/tournament/{id}`).
    id: String,
    /// Its name.
    name: String,
    /// Arena, Swiss or duplicate.
    kind: crate::tournament_wire::TournamentKind,
    /// The game.
    game: String,
    /// Where it stands.
    status: crate::tournament_wire::TournamentStatus,
    /// Their place in its standings (as they stand, if unfinished).
    place: usize,
    /// Its entrants.
    entrants: usize,
    /// Their points.
    points: f64,
}

/// The entries of person `player` (whole id) in `rows`.
fn entries(
    player: &str,
    rows: &[crate::store::tournaments::TournamentRow],
) -> Vec<TournamentEntry> {
    let short = short_id(player);
    rows.iter()
        .filter_map(|r| serde_json::from_str::<crate::state::tournaments::Tournament>(&r.doc).ok())
        .filter_map(|t| {
            let view = t.view(None);
            let line = view
                .standings
                .iter()
                .find(|l| l.short.as_deref() == Some(short.as_str()))?;
            Some(TournamentEntry {
                id: t.id.clone(),
                name: t.name.clone(),
                kind: t.kind,
                game: t.game.clone(),
                status: t.status,
                place: line.place,
                entrants: view.standings.len(),
                points: line.points,
            })
        })
        .collect()
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
    /// Their decisions in the analysed games at public tables (none
    /// analysed: absent).
    accuracy: Option<crate::store::profile::AccuracyStats>,
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
    /// By variant (the table's rules options), the most played first.
    variants: Vec<VariantLine>,
}

/// Results under one set of rules options.
#[derive(Serialize)]
pub(super) struct VariantLine {
    /// The options, key to value (empty: the game's defaults).
    options: std::collections::BTreeMap<String, String>,
    games: u64,
    wins: u64,
    mean_place: f64,
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

/// The stats of `game` from the rows by seat and by variant.
fn stats(game: &str, rows: &[SeatStats], variants: &[VariantStats]) -> Stats {
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
        variants: by_variant(game, variants),
    }
}

/// The results of `game` by variant: the stored option sets that differ
/// from its defaults in the same way counted together, the most played
/// first.
fn by_variant(game: &str, rows: &[VariantStats]) -> Vec<VariantLine> {
    let mut sums: Vec<(std::collections::BTreeMap<String, String>, u64, u64, u64)> = Vec::new();
    for v in rows.iter().filter(|v| v.game == game) {
        let options = departures(game, &v.options);
        match sums.iter_mut().find(|(o, ..)| *o == options) {
            Some((_, games, wins, places)) => {
                *games += v.games;
                *wins += v.wins;
                *places += v.place_sum;
            }
            None => sums.push((options, v.games, v.wins, v.place_sum)),
        }
    }
    sums.sort_by_key(|s| std::cmp::Reverse(s.1));
    sums.into_iter()
        .map(|(options, games, wins, places)| VariantLine {
            options,
            games,
            wins,
            mean_place: mean(places, games),
        })
        .collect()
}

/// The options of a stored table (a JSON object of texts) that differ
/// from `game`'s defaults: what makes the variant.
fn departures(game: &str, stored: &str) -> std::collections::BTreeMap<String, String> {
    let mut options: std::collections::BTreeMap<String, String> =
        serde_json::from_str(stored).unwrap_or_default();
    let defaults: &[game::OptionInfo] = registry::dispatch!(game,
        G => <<G as game::Game>::Options as game::GameOptions>::info(),
        _ => &[]);
    options.retain(|k, v| !defaults.iter().any(|o| o.key == k && o.default == v));
    options
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
            variants,
            games,
            accuracy,
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
                let stats = stats(&r.game, &by_seat, &variants);
                GameProfile {
                    accuracy: accuracy.iter().find(|a| a.game == r.game).cloned(),
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
    let found = super::blocking(move || {
        let found = store.profile(&player, HISTORY_READ, RECENT_GAMES)?;
        let entered = match &found {
            Lookup::Found(rows) => store.tournaments_of(&rows.player, TOURNAMENTS)?,
            _ => Vec::new(),
        };
        Ok((found, entered))
    })
    .await?;
    match found {
        (Lookup::Unknown, _) => Err(Error::UnknownPlayer),
        (Lookup::Ambiguous, _) => Err(Error::AmbiguousPlayer),
        (Lookup::Found(rows), entered) => {
            let tournaments = entries(&rows.player, &entered);
            Ok(Json(Profile {
                tournaments,
                ..Profile::from(*rows)
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_what_differs_from_the_defaults_counted_together() {
        let defaults = <<bigcheese::BigCheese as game::Game>::Options as game::GameOptions>::info();
        let first = defaults[0];
        let row = |options: String, games, wins, place_sum| VariantStats {
            game: "bigcheese".into(),
            options,
            games,
            wins,
            place_sum,
        };
        let plain = format!("{{\"{}\":\"{}\"}}", first.key, first.default);
        let rows = [
            row("{\"target\":\"60\"}".into(), 1, 0, 3),
            row("{}".into(), 2, 1, 3),
            // the default written out is the same variant as nothing written
            row(plain, 3, 1, 6),
            row("{\"target\":\"60\"}".into(), 1, 1, 1),
        ];
        let lines = by_variant("bigcheese", &rows);
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].options.is_empty(),
            "the defaults, most played first"
        );
        assert_eq!((lines[0].games, lines[0].wins), (5, 2));
        assert!((lines[0].mean_place - 9.0 / 5.0).abs() < 1e-9);
        assert_eq!(
            lines[1].options.get("target").map(String::as_str),
            Some("60")
        );
        assert_eq!((lines[1].games, lines[1].wins), (2, 1));
        assert!(by_variant("dalmuti", &rows).is_empty());
    }

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
