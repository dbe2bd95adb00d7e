//! Pairing tickets in SQLite: the strays read on a reader connection, the
//! writes (keep, forget, take) applied by the writer thread.

use super::sql::alive_since;
use super::write::{Applied, TicketWrite};
use crate::store::model::StoreError;
use crate::store::tickets::TicketRow;
use rusqlite::{params, Connection};
use std::time::Duration;

/// Tickets of processes other than `node` that are gone.
pub(super) fn strays(
    conn: &Connection,
    node: &str,
    lease: Duration,
    limit: usize,
) -> Result<Vec<TicketRow>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT id, preset, player, name, addr, bot, wait_ms, contribution, joined_ms, node
             FROM pairing_tickets t WHERE node <> ?1
               AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = t.node AND n.heartbeat_ms > ?2)
             ORDER BY joined_ms, id LIMIT ?3",
        )?
        .query_map(params![node, alive_since(lease), limit as i64], |r| {
            Ok(TicketRow {
                id: r.get(0)?,
                preset: r.get(1)?,
                player: r.get(2)?,
                name: r.get(3)?,
                addr: r.get(4)?,
                bot: r.get(5)?,
                wait_ms: r.get(6)?,
                contribution: r.get(7)?,
                joined_ms: r.get(8)?,
                node: r.get(9)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?)
}

/// Applies a ticket write (in the writer's transaction).
pub(super) fn apply(tx: &Connection, w: TicketWrite) -> Result<Applied, StoreError> {
    let n = match w {
        TicketWrite::Put(t) => tx
            .prepare_cached(
                "INSERT INTO pairing_tickets
                   (id, preset, player, name, addr, bot, wait_ms, contribution, joined_ms, node)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                t.id,
                t.preset,
                t.player,
                t.name,
                t.addr,
                t.bot,
                t.wait_ms,
                t.contribution,
                t.joined_ms,
                t.node
            ])?,
        TicketWrite::Drop(id) => tx
            .prepare_cached("DELETE FROM pairing_tickets WHERE id = ?1")?
            .execute(params![id])?,
        TicketWrite::Take { id, from, to } => tx
            .prepare_cached("UPDATE pairing_tickets SET node = ?3 WHERE id = ?1 AND node = ?2")?
            .execute(params![id, from, to])?,
    };
    Ok(Applied::Changed(n > 0))
}
