//! A person's public profile read from PostgreSQL: who the short id is,
//! then their ratings, each rating's public history, their results by
//! seat and their newest finished public games, each an indexed query.

use super::reads::{query, rating_row, summaries};
use crate::store::columns::seat_of;
use crate::store::lists::{PlayerGame, RatingRow};
use crate::store::model::StoreError;
use crate::store::profile::{
    accuracy_row, id_range, AccuracyStats, HistoryPoint, Lookup, ProfileRows, SeatAccuracy,
    SeatStats, VariantStats, VARIANTS,
};
use deadpool_postgres::Pool;

/// A person's newest finished games at public tables, with their seat
/// (as SQLite's).
const PUBLIC_GAMES_OF: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = $1 AND t.public = 1 AND t.finished_at IS NOT NULL
     ORDER BY t.created_at DESC LIMIT $2";

/// A count or sum as read (never negative) as `u64`.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A small column (a seat, a place) as `u8`.
fn small(n: i32) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The profile of the rated person whose id begins with `short`.
pub(super) async fn profile(
    pool: Pool,
    short: String,
    points: usize,
    games: usize,
) -> Result<Lookup, StoreError> {
    let (from, to) = id_range(&short);
    let rows = query(
        pool.clone(),
        "SELECT DISTINCT player FROM ratings
         WHERE player >= $1 AND player < $2 AND games > 0 LIMIT 2",
        vec![Box::new(from), Box::new(to)],
    )
    .await?;
    let mut found = Vec::new();
    for r in rows {
        let p: String = r.try_get(0)?;
        if p.starts_with(&short) {
            found.push(p);
        }
    }
    let player = match found.as_slice() {
        [] => return Ok(Lookup::Unknown),
        [one] => one.clone(),
        _ => return Ok(Lookup::Ambiguous),
    };
    let ratings: Vec<RatingRow> = query(
        pool.clone(),
        concat!(
            "SELECT ",
            rating_columns!(),
            " FROM ratings WHERE player = $1 AND games > 0 ORDER BY game"
        ),
        vec![Box::new(player.clone())],
    )
    .await?
    .iter()
    .map(rating_row)
    .collect::<Result<_, _>>()?;
    let history = histories(&pool, &player, &ratings, points).await?;
    let rows = query(
        pool.clone(),
        "SELECT game, seat, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(place)
         FROM rating_history WHERE player = $1 AND public = 1
         GROUP BY game, seat ORDER BY game, seat",
        vec![Box::new(player.clone())],
    )
    .await?;
    let mut stats = Vec::with_capacity(rows.len());
    for r in rows {
        stats.push(SeatStats {
            game: r.try_get(0)?,
            seat: small(r.try_get(1)?),
            games: count(r.try_get(2)?),
            wins: count(r.try_get(3)?),
            place_sum: count(r.try_get(4)?),
        });
    }
    let variants = variants(&pool, &player).await?;
    let accuracy = accuracy(&pool, &player).await?;
    let lines = summaries(
        pool,
        PUBLIC_GAMES_OF,
        vec![
            Box::new(player.clone()),
            Box::new(i64::try_from(games).unwrap_or(i64::MAX)),
        ],
    )
    .await?;
    let games = lines
        .into_iter()
        .map(|(table, seat)| {
            Ok(PlayerGame {
                table,
                seat: seat_of(seat.unwrap_or(-1))?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Lookup::Found(Box::new(ProfileRows {
        player,
        ratings,
        history,
        stats,
        variants,
        games,
        accuracy,
    })))
}

/// Per game, the person's analysed seats at public tables, summed.
async fn accuracy(pool: &Pool, player: &str) -> Result<Vec<AccuracyStats>, StoreError> {
    let rows = query(
        pool.clone(),
        accuracy_query!("$1"),
        vec![Box::new(player.to_string())],
    )
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        out.push(accuracy_row(
            r.try_get(0)?,
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
        ));
    }
    Ok(out)
}

/// Stores an analysis and its seats' summaries in one transaction, in
/// place of any earlier one.
pub(super) async fn put_analysis(
    pool: Pool,
    table: String,
    format: String,
    body: String,
    at: i64,
    seats: Vec<SeatAccuracy>,
) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let put = tx
        .prepare_cached(
            "INSERT INTO analyses (table_id, format, body, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (table_id) DO UPDATE SET format = $2, body = $3, created_at = $4",
        )
        .await?;
    tx.execute(&put, &[&table, &format, &body, &at]).await?;
    let clear = tx
        .prepare_cached("DELETE FROM analysis_seats WHERE table_id = $1")
        .await?;
    tx.execute(&clear, &[&table]).await?;
    let add = tx
        .prepare_cached(
            "INSERT INTO analysis_seats (table_id, seat, decisions, accuracy, mistakes, blunders)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    let int = |n: u64| i32::try_from(n).unwrap_or(i32::MAX);
    for a in &seats {
        tx.execute(
            &add,
            &[
                &table,
                &i32::from(a.seat),
                &int(a.decisions),
                &a.accuracy,
                &int(a.mistakes),
                &int(a.blunders),
            ],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A person's rated public games by game and options, the most played
/// first, at most [`VARIANTS`].
async fn variants(pool: &Pool, player: &str) -> Result<Vec<VariantStats>, StoreError> {
    let rows = query(
        pool.clone(),
        "SELECT h.game, t.options, COUNT(*), SUM(CASE WHEN h.place = 1 THEN 1 ELSE 0 END),
           SUM(h.place)
         FROM rating_history h JOIN tables t ON t.id = h.table_id
         WHERE h.player = $1 AND h.public = 1
         GROUP BY h.game, t.options ORDER BY COUNT(*) DESC, h.game, t.options LIMIT $2",
        vec![
            Box::new(player.to_string()),
            Box::new(i64::try_from(VARIANTS).unwrap_or(i64::MAX)),
        ],
    )
    .await?;
    let mut variants = Vec::with_capacity(rows.len());
    for r in rows {
        variants.push(VariantStats {
            game: r.try_get(0)?,
            options: r.try_get(1)?,
            games: count(r.try_get(2)?),
            wins: count(r.try_get(3)?),
            place_sum: count(r.try_get(4)?),
        });
    }
    Ok(variants)
}

/// Per rating, its newest `points` updates at public tables, oldest first.
async fn histories(
    pool: &Pool,
    player: &str,
    ratings: &[RatingRow],
    points: usize,
) -> Result<Vec<(String, Vec<HistoryPoint>)>, StoreError> {
    let cap = i64::try_from(points).unwrap_or(i64::MAX);
    let mut history = Vec::with_capacity(ratings.len());
    for rating in ratings {
        let rows = query(
            pool.clone(),
            "SELECT table_id, at, rating, uncertainty, score, seat, place
         FROM rating_history WHERE player = $1 AND game = $2 AND public = 1
         ORDER BY seq DESC LIMIT $3",
            vec![
                Box::new(player.to_string()),
                Box::new(rating.game.clone()),
                Box::new(cap),
            ],
        )
        .await?;
        let mut points = Vec::with_capacity(rows.len());
        for r in rows.iter().rev() {
            points.push(HistoryPoint {
                table: r.try_get(0)?,
                at: r.try_get(1)?,
                rating: r.try_get(2)?,
                uncertainty: r.try_get(3)?,
                score: r.try_get(4)?,
                seat: small(r.try_get(5)?),
                place: small(r.try_get(6)?),
            });
        }
        history.push((rating.game.clone(), points));
    }
    Ok(history)
}
