//! Tournaments in SQLite: the reads on a reader connection, the writes
//! (a new one, a save compared on its version, a take-over, an entrant)
//! applied by the writer thread.

use super::sql::alive_since;
use super::write::{Applied, TournamentWrite};
use crate::store::model::StoreError;
use crate::store::tournaments::TournamentRow;
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::time::Duration;

/// The columns [`row`] reads, in its order.
macro_rules! tournament_columns {
    () => {
        "t.id, t.doc, t.version, t.status, t.node, t.created_ms"
    };
}

fn row(r: &Row<'_>) -> rusqlite::Result<TournamentRow> {
    Ok(TournamentRow {
        id: r.get(0)?,
        doc: r.get(1)?,
        version: r.get(2)?,
        status: r.get(3)?,
        node: r.get(4)?,
        created_ms: r.get(5)?,
    })
}

/// Tournament `id`.
pub(super) fn one(conn: &Connection, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    Ok(conn
        .prepare_cached(concat!(
            "SELECT ",
            tournament_columns!(),
            " FROM tournaments t WHERE t.id = ?1"
        ))?
        .query_row(params![id], row)
        .optional()?)
}

/// The newest, unfinished first.
pub(super) fn newest(conn: &Connection, limit: usize) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(conn
        .prepare_cached(concat!(
            "SELECT ",
            tournament_columns!(),
            " FROM tournaments t
             ORDER BY (t.status = 'finished'), t.created_ms DESC, t.id LIMIT ?1"
        ))?
        .query_map(params![limit as i64], row)?
        .collect::<Result<Vec<_>, _>>()?)
}

/// Unfinished ones `node` drives, or whose process is gone.
pub(super) fn driven(
    conn: &Connection,
    node: &str,
    lease: Duration,
    limit: usize,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(conn
        .prepare_cached(concat!(
            "SELECT ",
            tournament_columns!(),
            " FROM tournaments t WHERE t.status <> 'finished'
               AND (t.node = ?1 OR NOT EXISTS
                 (SELECT 1 FROM nodes n WHERE n.id = t.node AND n.heartbeat_ms > ?2))
             ORDER BY t.created_ms, t.id LIMIT ?3"
        ))?
        .query_map(params![node, alive_since(lease), limit as i64], row)?
        .collect::<Result<Vec<_>, _>>()?)
}

/// Those `player` entered, newest first.
pub(super) fn of(
    conn: &Connection,
    player: &str,
    limit: usize,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(conn
        .prepare_cached(concat!(
            "SELECT ",
            tournament_columns!(),
            " FROM tournament_players p JOIN tournaments t ON t.id = p.tournament
             WHERE p.player = ?1 ORDER BY t.created_ms DESC, t.id LIMIT ?2"
        ))?
        .query_map(params![player, limit as i64], row)?
        .collect::<Result<Vec<_>, _>>()?)
}

/// Applies a tournament write (in the writer's transaction).
pub(super) fn apply(tx: &Connection, w: TournamentWrite) -> Result<Applied, StoreError> {
    let n = match w {
        TournamentWrite::Put(t) => tx
            .prepare_cached(
                "INSERT INTO tournaments (id, doc, version, status, node, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                t.id,
                t.doc,
                t.version,
                t.status,
                t.node,
                t.created_ms
            ])?,
        TournamentWrite::Save {
            id,
            version,
            doc,
            status,
        } => tx
            .prepare_cached(
                "UPDATE tournaments SET doc = ?3, status = ?4, version = version + 1
                 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![id, version, doc, status])?,
        TournamentWrite::Take { id, from, to } => tx
            .prepare_cached("UPDATE tournaments SET node = ?3 WHERE id = ?1 AND node = ?2")?
            .execute(params![id, from, to])?,
        TournamentWrite::Enter { id, player, at } => tx
            .prepare_cached(
                "INSERT INTO tournament_players (tournament, player, at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![id, player, at])?,
    };
    Ok(Applied::Changed(n > 0))
}
