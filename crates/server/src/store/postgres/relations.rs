//! Follows and blocks in PostgreSQL, as SQLite's (`sqlite/relations.rs`):
//! the cap is checked in the statement that inserts, so a relation past
//! it is never stored, whichever process asks.

use super::reads::query;
use super::writes::execute;
use crate::store::model::StoreError;
use crate::store::profile::id_range;
use crate::store::relations::{Person, Relation, RelationChange, RelationRow, SetOutcome};
use deadpool_postgres::Pool;

/// The name a person last played under.
const NAME_OF: &str = "SELECT s.name FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = $1 AND s.name IS NOT NULL ORDER BY t.created_at DESC LIMIT 1";

async fn name_of(pool: &Pool, player: &str) -> Result<String, StoreError> {
    let rows = query(pool.clone(), NAME_OF, vec![Box::new(player.to_string())]).await?;
    match rows.first() {
        Some(r) => Ok(r.try_get(0)?),
        None => Ok(String::new()),
    }
}

/// Who `short` names among the people who ever held a seat.
pub(super) async fn find_person(pool: Pool, short: String) -> Result<Person, StoreError> {
    let (from, to) = id_range(&short);
    let rows = query(
        pool.clone(),
        "SELECT DISTINCT player FROM seats WHERE player >= $1 AND player < $2 LIMIT 2",
        vec![Box::new(from), Box::new(to)],
    )
    .await?;
    let found = rows
        .iter()
        .map(|r| r.try_get::<_, String>(0))
        .collect::<Result<Vec<_>, _>>()?;
    let player = match found.as_slice() {
        [] => return Ok(Person::Unknown),
        [one] => one.clone(),
        _ => return Ok(Person::Ambiguous),
    };
    let name = name_of(&pool, &player).await?;
    Ok(Person::Found { player, name })
}

/// `owner`'s follows and blocks, newest first, at most `limit` of each.
pub(super) async fn relations_of(
    pool: Pool,
    owner: String,
    limit: usize,
) -> Result<Vec<RelationRow>, StoreError> {
    let mut out = Vec::new();
    for kind in [Relation::Follow, Relation::Block] {
        let rows = query(
            pool.clone(),
            "SELECT r.other, r.at,
               EXISTS (SELECT 1 FROM relations b WHERE b.owner = r.other
                         AND b.kind = 'block' AND b.other = r.owner)
             FROM relations r WHERE r.owner = $1 AND r.kind = $2
             ORDER BY r.at DESC, r.other LIMIT $3",
            vec![
                Box::new(owner.clone()),
                Box::new(kind.as_str().to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        )
        .await?;
        for r in rows {
            let player: String = r.try_get(0)?;
            let name = name_of(&pool, &player).await?;
            out.push(RelationRow {
                kind,
                player,
                name,
                at: r.try_get(1)?,
                blocks_owner: r.try_get(2)?,
            });
        }
    }
    Ok(out)
}

/// Whether `owner` blocks `other`.
pub(super) async fn blocks(pool: Pool, owner: String, other: String) -> Result<bool, StoreError> {
    let rows = query(
        pool,
        "SELECT 1 FROM relations WHERE owner = $1 AND kind = 'block' AND other = $2",
        vec![Box::new(owner), Box::new(other)],
    )
    .await?;
    Ok(!rows.is_empty())
}

/// Sets or clears a relation, within its cap.
pub(super) async fn set_relation(pool: Pool, c: RelationChange) -> Result<SetOutcome, StoreError> {
    let kind = c.kind.as_str().to_string();
    if !c.on {
        let n = execute(
            pool,
            "DELETE FROM relations WHERE owner = $1 AND kind = $2 AND other = $3",
            vec![Box::new(c.owner), Box::new(kind), Box::new(c.other)],
        )
        .await?;
        return Ok(if n > 0 {
            SetOutcome::Changed
        } else {
            SetOutcome::Unchanged
        });
    }
    let n = execute(
        pool.clone(),
        "INSERT INTO relations (owner, kind, other, at)
         SELECT $1::TEXT, $2::TEXT, $3::TEXT, $4::BIGINT
         WHERE (SELECT COUNT(*) FROM relations WHERE owner = $1::TEXT AND kind = $2::TEXT) < $5::BIGINT
         ON CONFLICT (owner, kind, other) DO NOTHING",
        vec![
            Box::new(c.owner.clone()),
            Box::new(kind.clone()),
            Box::new(c.other.clone()),
            Box::new(c.at),
            Box::new(i64::try_from(c.cap).unwrap_or(i64::MAX)),
        ],
    )
    .await?;
    if n > 0 {
        return Ok(SetOutcome::Changed);
    }
    let there = query(
        pool,
        "SELECT 1 FROM relations WHERE owner = $1 AND kind = $2 AND other = $3",
        vec![Box::new(c.owner), Box::new(kind), Box::new(c.other)],
    )
    .await?;
    Ok(if there.is_empty() {
        SetOutcome::Full
    } else {
        SetOutcome::Unchanged
    })
}
