//! Pairing tickets in PostgreSQL, as SQLite's (`sqlite/tickets.rs`).

use super::reads::query;
use super::writes::execute;
use crate::store::model::StoreError;
use crate::store::tickets::TicketRow;
use deadpool_postgres::Pool;

/// Tickets of processes other than `node` that are gone.
const STRAYS: &str = concat!(
    "SELECT id, preset, player, name, addr, bot, wait_ms, contribution, joined_ms, node
     FROM pairing_tickets t WHERE node <> $1
       AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = t.node AND n.heartbeat_ms > ",
    now_ms!(),
    " - $2)
     ORDER BY joined_ms, id LIMIT $3"
);

/// Tickets of processes other than `node` that are gone.
pub(super) async fn strays(
    pool: Pool,
    node: String,
    lease_ms: i64,
    limit: i64,
) -> Result<Vec<TicketRow>, StoreError> {
    let rows = query(
        pool,
        STRAYS,
        vec![Box::new(node), Box::new(lease_ms), Box::new(limit)],
    )
    .await?;
    rows.iter()
        .map(|r| {
            Ok(TicketRow {
                id: r.try_get(0)?,
                preset: r.try_get(1)?,
                player: r.try_get(2)?,
                name: r.try_get(3)?,
                addr: r.try_get(4)?,
                bot: r.try_get(5)?,
                wait_ms: r.try_get(6)?,
                contribution: r.try_get(7)?,
                joined_ms: r.try_get(8)?,
                node: r.try_get(9)?,
            })
        })
        .collect()
}

/// Keeps a ticket.
pub(super) async fn put(pool: Pool, t: TicketRow) -> Result<(), StoreError> {
    execute(
        pool,
        "INSERT INTO pairing_tickets
           (id, preset, player, name, addr, bot, wait_ms, contribution, joined_ms, node)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        vec![
            Box::new(t.id),
            Box::new(t.preset),
            Box::new(t.player),
            Box::new(t.name),
            Box::new(t.addr),
            Box::new(t.bot),
            Box::new(t.wait_ms),
            Box::new(t.contribution),
            Box::new(t.joined_ms),
            Box::new(t.node),
        ],
    )
    .await
    .map(|_| ())
}

/// Forgets a ticket.
pub(super) async fn drop(pool: Pool, id: String) -> Result<(), StoreError> {
    execute(
        pool,
        "DELETE FROM pairing_tickets WHERE id = $1",
        vec![Box::new(id)],
    )
    .await
    .map(|_| ())
}

/// Passes a ticket from `from` to `to`, if `from` still holds it.
pub(super) async fn take(
    pool: Pool,
    id: String,
    from: String,
    to: String,
) -> Result<bool, StoreError> {
    let n = execute(
        pool,
        "UPDATE pairing_tickets SET node = $3 WHERE id = $1 AND node = $2",
        vec![Box::new(id), Box::new(from), Box::new(to)],
    )
    .await?;
    Ok(n > 0)
}
