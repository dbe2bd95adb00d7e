//! A player's own games and ratings, and the leaderboard.

use super::body::meter;
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::quota::Kind;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use bots::Roster;
use game::Game;
use serde::Serialize;

/// The longest "my games" list.
pub(super) const MY_GAMES: usize = 50;

/// The longest leaderboard.
pub(super) const BOARD: usize = 50;

pub(super) use crate::store::short_id;

/// A rating as the API shows it (the person's id shortened).
#[derive(Serialize)]
pub(super) struct RatingOut {
    game: String,
    player: String,
    name: String,
    rating: f64,
    uncertainty: f64,
    score: f64,
    games: u64,
}

impl From<crate::store::RatingRow> for RatingOut {
    fn from(r: crate::store::RatingRow) -> RatingOut {
        RatingOut {
            player: short_id(&r.player),
            game: r.game,
            name: r.name,
            rating: r.rating,
            uncertainty: r.uncertainty,
            score: r.score,
            games: r.games,
        }
    }
}

#[derive(Serialize)]
pub(super) struct MyGames {
    /// The person's id, shortened as on the leaderboard.
    player: String,
    games: Vec<crate::store::PlayerGame>,
    ratings: Vec<RatingOut>,
}

/// The identity of the person a request is from: its `X-Ratrace-Key`
/// header (their identity key), as its hash.
pub(crate) fn identity(headers: &axum::http::HeaderMap) -> Result<String, Error> {
    let key = headers
        .get("x-ratrace-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Error::BadInput("send the X-Ratrace-Key header".to_string()))?;
    crate::social::player_id(key)
}

/// `GET /api/me/games` with the header `X-Ratrace-Key`: the tables of the
/// person with that identity key (live and finished, newest first) and
/// their ratings. Metered like record downloads.
pub(super) async fn my_games(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: axum::http::HeaderMap,
) -> Result<Json<MyGames>, Error> {
    let player = identity(&headers)?;
    meter(&state, Kind::Record, addr, "game lists")?;
    let store = state.store();
    let id = player.clone();
    let (games, ratings) = tokio::task::spawn_blocking(move || {
        Ok::<_, crate::store::StoreError>((store.games_of(&id, MY_GAMES)?, store.ratings_of(&id)?))
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(MyGames {
        player: short_id(&player),
        games,
        ratings: ratings.into_iter().map(RatingOut::from).collect(),
    }))
}

#[derive(Serialize)]
pub(super) struct BotRating {
    bot: &'static str,
    level: usize,
    rating: f64,
}

#[derive(Serialize)]
pub(super) struct Leaderboard {
    game: &'static str,
    players: Vec<RatingOut>,
    /// The bots' fixed ratings, by level.
    bots: Vec<BotRating>,
}

/// `GET /api/leaderboard/{game}`: the best rated people of a game (by
/// rating less three uncertainties) and the bots' fixed ratings.
pub(super) async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Leaderboard>, Error> {
    let (name, ladder) = registry::dispatch!(game.as_str(), G => (G::NAME, <G as Roster>::LADDER),
        _ => return Err(Error::BadInput(format!(
            "unknown game (choose from: {})", registry::GAMES.join(", ")))));
    let store = state.store();
    let rows = tokio::task::spawn_blocking(move || store.leaderboard(name, BOARD))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(Leaderboard {
        game: name,
        players: rows.into_iter().map(RatingOut::from).collect(),
        bots: ladder
            .iter()
            .enumerate()
            .map(|(i, b)| BotRating {
                bot: b,
                level: i + 1,
                rating: crate::social::bot_rating(name, b).rating,
            })
            .collect(),
    }))
}
