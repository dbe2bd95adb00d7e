//! Passkeys in PostgreSQL, as SQLite's (`sqlite/passkeys.rs`): the cap
//! per person is checked in the statement that inserts.

use super::reads::query;
use super::writes::execute;
use crate::store::model::StoreError;
use crate::store::passkeys::PasskeyRow;
use deadpool_postgres::Pool;
use tokio_postgres::Row;

fn row(r: &Row) -> Result<PasskeyRow, StoreError> {
    Ok(PasskeyRow {
        id: r.try_get(0)?,
        player: r.try_get(1)?,
        identity_key: r.try_get(2)?,
        passkey: r.try_get(3)?,
        created_at: r.try_get(4)?,
        used_at: r.try_get(5)?,
    })
}

/// The passkey `id`.
pub(super) async fn passkey(pool: Pool, id: String) -> Result<Option<PasskeyRow>, StoreError> {
    const ONE: &str = "SELECT id, player, identity_key, passkey, created_at, used_at
         FROM passkeys WHERE id = $1";
    let rows = query(pool, ONE, vec![Box::new(id)]).await?;
    rows.first().map(row).transpose()
}

/// Person `player`'s passkeys, oldest first.
pub(super) async fn passkeys_of(pool: Pool, player: String) -> Result<Vec<PasskeyRow>, StoreError> {
    const OF: &str = "SELECT id, player, identity_key, passkey, created_at, used_at
         FROM passkeys WHERE player = $1 ORDER BY created_at, id";
    query(pool, OF, vec![Box::new(player)])
        .await?
        .iter()
        .map(row)
        .collect()
}

/// Stores a passkey unless its person holds `cap` already.
pub(super) async fn add(pool: Pool, p: PasskeyRow, cap: usize) -> Result<bool, StoreError> {
    let n = execute(
        pool,
        "INSERT INTO passkeys (id, player, identity_key, passkey, created_at)
         SELECT $1::TEXT, $2::TEXT, $3::TEXT, $4::TEXT, $5::BIGINT
         WHERE (SELECT COUNT(*) FROM passkeys WHERE player = $2::TEXT) < $6::BIGINT",
        vec![
            Box::new(p.id),
            Box::new(p.player),
            Box::new(p.identity_key),
            Box::new(p.passkey),
            Box::new(p.created_at),
            Box::new(i64::try_from(cap).unwrap_or(i64::MAX)),
        ],
    )
    .await?;
    Ok(n > 0)
}

/// Passkey `id` signed someone in.
pub(super) async fn used(
    pool: Pool,
    id: String,
    passkey: String,
    at: i64,
) -> Result<(), StoreError> {
    execute(
        pool,
        "UPDATE passkeys SET passkey = $2, used_at = $3 WHERE id = $1",
        vec![Box::new(id), Box::new(passkey), Box::new(at)],
    )
    .await
    .map(|_| ())
}

/// Removes passkey `id` if `player` holds it: whether it did.
pub(super) async fn remove(pool: Pool, player: String, id: String) -> Result<bool, StoreError> {
    let n = execute(
        pool,
        "DELETE FROM passkeys WHERE id = $1 AND player = $2",
        vec![Box::new(id), Box::new(player)],
    )
    .await?;
    Ok(n > 0)
}
