//! A person's public profile read from SQLite: who the short id is, then
//! their ratings, each rating's public history, their results by seat and
//! their newest finished public games, each an indexed query on one
//! reader connection.

use super::reads::{list_row, summary, ListRow};
use crate::store::columns::{rating_row, seat_of};
use crate::store::lists::{PlayerGame, RatingRow};
use crate::store::model::StoreError;
use crate::store::profile::{
    id_range, HistoryPoint, Lookup, ProfileRows, SeatStats, VariantStats, VARIANTS,
};
use rusqlite::{params, Connection};

/// A person's newest finished games at public tables, with their seat.
const PUBLIC_GAMES_OF: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = ?1 AND t.public = 1 AND t.finished_at IS NOT NULL
     ORDER BY t.created_at DESC LIMIT ?2";

/// The profile of the rated person whose id begins with `short`.
pub(super) fn profile(
    conn: &Connection,
    short: &str,
    points: usize,
    games: usize,
) -> Result<Lookup, StoreError> {
    let (from, to) = id_range(short);
    let found: Vec<String> = conn
        .prepare_cached(
            "SELECT DISTINCT player FROM ratings
             WHERE player >= ?1 AND player < ?2 AND games > 0 LIMIT 2",
        )?
        .query_map(params![from, to], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?
        .into_iter()
        .filter(|p| p.starts_with(short))
        .collect();
    let player = match found.as_slice() {
        [] => return Ok(Lookup::Unknown),
        [one] => one.clone(),
        _ => return Ok(Lookup::Ambiguous),
    };
    let ratings: Vec<RatingRow> = conn
        .prepare_cached(concat!(
            "SELECT ",
            rating_columns!(),
            " FROM ratings WHERE player = ?1 AND games > 0 ORDER BY game"
        ))?
        .query_map(params![player], |r| {
            Ok(rating_row((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            )))
        })?
        .collect::<Result<_, _>>()?;
    let history = histories(conn, &player, &ratings, points)?;
    let stats = conn
        .prepare_cached(
            "SELECT game, seat, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(place)
             FROM rating_history WHERE player = ?1 AND public = 1
             GROUP BY game, seat ORDER BY game, seat",
        )?
        .query_map(params![player], |r| {
            Ok(SeatStats {
                game: r.get(0)?,
                seat: r.get(1)?,
                games: r.get(2)?,
                wins: r.get(3)?,
                place_sum: r.get(4)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let variants = conn
        .prepare_cached(
            "SELECT h.game, t.options, COUNT(*), SUM(CASE WHEN h.place = 1 THEN 1 ELSE 0 END),
               SUM(h.place)
             FROM rating_history h JOIN tables t ON t.id = h.table_id
             WHERE h.player = ?1 AND h.public = 1
             GROUP BY h.game, t.options ORDER BY COUNT(*) DESC, h.game, t.options LIMIT ?2",
        )?
        .query_map(params![player, VARIANTS as i64], |r| {
            Ok(VariantStats {
                game: r.get(0)?,
                options: r.get(1)?,
                games: r.get(2)?,
                wins: r.get(3)?,
                place_sum: r.get(4)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let rows: Vec<(ListRow, i64)> = conn
        .prepare_cached(PUBLIC_GAMES_OF)?
        .query_map(params![player, games as i64], |r| {
            Ok((list_row(r)?, r.get(8)?))
        })?
        .collect::<Result<_, _>>()?;
    let games = rows
        .into_iter()
        .map(|(row, seat)| {
            Ok(PlayerGame {
                table: summary(conn, row)?,
                seat: seat_of(seat)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Lookup::Found(Box::new(ProfileRows {
        accuracy: accuracy(conn, &player)?,
        player,
        ratings,
        history,
        stats,
        variants,
        games,
    })))
}

/// Per rating, its newest `points` updates at public tables, oldest first.
fn histories(
    conn: &Connection,
    player: &str,
    ratings: &[RatingRow],
    points: usize,
) -> Result<Vec<(String, Vec<HistoryPoint>)>, StoreError> {
    let mut history = Vec::with_capacity(ratings.len());
    for rating in ratings {
        let mut points: Vec<HistoryPoint> = conn
            .prepare_cached(
                "SELECT table_id, at, rating, uncertainty, score, seat, place
             FROM rating_history WHERE player = ?1 AND game = ?2 AND public = 1
             ORDER BY seq DESC LIMIT ?3",
            )?
            .query_map(params![player, rating.game, points as i64], |r| {
                Ok(HistoryPoint {
                    table: r.get(0)?,
                    at: r.get(1)?,
                    rating: r.get(2)?,
                    uncertainty: r.get(3)?,
                    score: r.get(4)?,
                    seat: r.get(5)?,
                    place: r.get(6)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        points.reverse();
        history.push((rating.game.clone(), points));
    }
    Ok(history)
}

/// Per game, the person's analysed seats at public tables, summed.
fn accuracy(
    conn: &Connection,
    player: &str,
) -> Result<Vec<crate::store::profile::AccuracyStats>, StoreError> {
    Ok(conn
        .prepare_cached(accuracy_query!("?1"))?
        .query_map(params![player], |r| {
            Ok(crate::store::profile::accuracy_row(
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<Result<_, _>>()?)
}
