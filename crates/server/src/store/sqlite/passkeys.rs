//! Passkeys in SQLite: reads on a reader connection, the two writes (one
//! added within its person's cap, one used) applied by the writer thread.

use super::write::{Applied, PasskeyWrite};
use crate::store::model::StoreError;
use crate::store::passkeys::PasskeyRow;
use rusqlite::{params, Connection, OptionalExtension, Row};

const COLUMNS: &str = "id, player, identity_key, passkey, created_at, used_at";

fn row(r: &Row<'_>) -> rusqlite::Result<PasskeyRow> {
    Ok(PasskeyRow {
        id: r.get(0)?,
        player: r.get(1)?,
        identity_key: r.get(2)?,
        passkey: r.get(3)?,
        created_at: r.get(4)?,
        used_at: r.get(5)?,
    })
}

/// The passkey `id`.
pub(super) fn passkey(conn: &Connection, id: &str) -> Result<Option<PasskeyRow>, StoreError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM passkeys WHERE id = ?1"))?
        .query_row(params![id], row)
        .optional()?)
}

/// Person `player`'s passkeys, oldest first.
pub(super) fn passkeys_of(conn: &Connection, player: &str) -> Result<Vec<PasskeyRow>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM passkeys WHERE player = ?1 ORDER BY created_at, id"
        ))?
        .query_map(params![player], row)?
        .collect::<Result<Vec<_>, _>>()?)
}

/// Applies a passkey write (in the writer's transaction).
pub(super) fn apply(tx: &Connection, w: PasskeyWrite) -> Result<Applied, StoreError> {
    let n = match w {
        PasskeyWrite::Add(p, cap) => tx
            .prepare_cached(
                "INSERT INTO passkeys (id, player, identity_key, passkey, created_at)
                 SELECT ?1, ?2, ?3, ?4, ?5
                 WHERE (SELECT COUNT(*) FROM passkeys WHERE player = ?2) < ?6",
            )?
            .execute(params![
                p.id,
                p.player,
                p.identity_key,
                p.passkey,
                p.created_at,
                cap as i64
            ])?,
        PasskeyWrite::Used { id, passkey, at } => tx
            .prepare_cached("UPDATE passkeys SET passkey = ?2, used_at = ?3 WHERE id = ?1")?
            .execute(params![id, passkey, at])?,
        PasskeyWrite::Remove { player, id } => tx
            .prepare_cached("DELETE FROM passkeys WHERE id = ?1 AND player = ?2")?
            .execute(params![id, player])?,
    };
    Ok(Applied::Changed(n > 0))
}
