//! Tournaments in PostgreSQL, as SQLite's (`sqlite/tournaments.rs`).

use super::reads::query;
use super::writes::execute;
use crate::store::model::StoreError;
use crate::store::tournaments::TournamentRow;
use deadpool_postgres::Pool;
use tokio_postgres::Row;

/// The columns [`row`] reads, in its order.
macro_rules! tournament_columns {
    () => {
        "t.id, t.doc, t.version, t.status, t.node, t.created_ms"
    };
}

fn row(r: &Row) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get(0)?,
        doc: r.try_get(1)?,
        version: r.try_get(2)?,
        status: r.try_get(3)?,
        node: r.try_get(4)?,
        created_ms: r.try_get(5)?,
    })
}

fn rows(rows: &[Row]) -> Result<Vec<TournamentRow>, StoreError> {
    rows.iter().map(row).collect()
}

/// Tournament `id`.
pub(super) async fn one(pool: Pool, id: String) -> Result<Option<TournamentRow>, StoreError> {
    let found = query(
        pool,
        concat!(
            "SELECT ",
            tournament_columns!(),
            " FROM tournaments t WHERE t.id = $1"
        ),
        vec![Box::new(id)],
    )
    .await?;
    found.first().map(row).transpose()
}

/// The newest, unfinished first.
pub(super) async fn newest(pool: Pool, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
    rows(
        &query(
            pool,
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments t
                 ORDER BY (t.status = 'finished'), t.created_ms DESC, t.id LIMIT $1"
            ),
            vec![Box::new(limit)],
        )
        .await?,
    )
}

/// Unfinished ones `node` drives, or whose process is gone.
pub(super) async fn driven(
    pool: Pool,
    node: String,
    lease_ms: i64,
    limit: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    rows(
        &query(
            pool,
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments t WHERE t.status <> 'finished'
                   AND (t.node = $1 OR NOT EXISTS
                     (SELECT 1 FROM nodes n WHERE n.id = t.node AND n.heartbeat_ms > ",
                now_ms!(),
                " - $2))
                 ORDER BY t.created_ms, t.id LIMIT $3"
            ),
            vec![Box::new(node), Box::new(lease_ms), Box::new(limit)],
        )
        .await?,
    )
}

/// Those `player` entered, newest first.
pub(super) async fn of(
    pool: Pool,
    player: String,
    limit: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    rows(
        &query(
            pool,
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournament_players p JOIN tournaments t ON t.id = p.tournament
                 WHERE p.player = $1 ORDER BY t.created_ms DESC, t.id LIMIT $2"
            ),
            vec![Box::new(player), Box::new(limit)],
        )
        .await?,
    )
}

/// A new one.
pub(super) async fn put(pool: Pool, t: TournamentRow) -> Result<(), StoreError> {
    execute(
        pool,
        "INSERT INTO tournaments (id, doc, version, status, node, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
        vec![
            Box::new(t.id),
            Box::new(t.doc),
            Box::new(t.version),
            Box::new(t.status),
            Box::new(t.node),
            Box::new(t.created_ms),
        ],
    )
    .await
    .map(|_| ())
}

/// Its document and status replaced, if its version is `version`.
pub(super) async fn save(
    pool: Pool,
    id: String,
    version: i64,
    doc: String,
    status: String,
) -> Result<bool, StoreError> {
    let n = execute(
        pool,
        "UPDATE tournaments SET doc = $3, status = $4, version = version + 1
         WHERE id = $1 AND version = $2",
        vec![
            Box::new(id),
            Box::new(version),
            Box::new(doc),
            Box::new(status),
        ],
    )
    .await?;
    Ok(n > 0)
}

/// Passes one from `from` to `to`, if `from` still drives it.
pub(super) async fn take(
    pool: Pool,
    id: String,
    from: String,
    to: String,
) -> Result<bool, StoreError> {
    let n = execute(
        pool,
        "UPDATE tournaments SET node = $3 WHERE id = $1 AND node = $2",
        vec![Box::new(id), Box::new(from), Box::new(to)],
    )
    .await?;
    Ok(n > 0)
}

/// A person entered one (once).
pub(super) async fn enter(
    pool: Pool,
    id: String,
    player: String,
    at: i64,
) -> Result<(), StoreError> {
    execute(
        pool,
        "INSERT INTO tournament_players (tournament, player, at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
        vec![Box::new(id), Box::new(player), Box::new(at)],
    )
    .await
    .map(|_| ())
}
