//! Follows and blocks in SQLite: the reads on a reader connection, the
//! one write (set or clear, the cap checked in the inserting statement)
//! applied by the writer thread like every other write.

use super::write::Applied;
use crate::store::model::StoreError;
use crate::store::profile::id_range;
use crate::store::relations::{Person, Relation, RelationChange, RelationRow, SetOutcome};
use rusqlite::{params, Connection, OptionalExtension};

/// The name a person last played under.
const NAME_OF: &str = "SELECT s.name FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = ?1 AND s.name IS NOT NULL ORDER BY t.created_at DESC LIMIT 1";

/// Who `short` names among the people who ever held a seat.
pub(super) fn find_person(conn: &Connection, short: &str) -> Result<Person, StoreError> {
    let (from, to) = id_range(short);
    let found: Vec<String> = conn
        .prepare_cached(
            "SELECT DISTINCT player FROM seats WHERE player >= ?1 AND player < ?2 LIMIT 2",
        )?
        .query_map(params![from, to], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let player = match found.as_slice() {
        [] => return Ok(Person::Unknown),
        [one] => one.clone(),
        _ => return Ok(Person::Ambiguous),
    };
    let name: Option<String> = conn
        .prepare_cached(NAME_OF)?
        .query_row(params![player], |r| r.get(0))
        .optional()?;
    Ok(Person::Found {
        player,
        name: name.unwrap_or_default(),
    })
}

/// `owner`'s follows and blocks, newest first, at most `limit` of each.
pub(super) fn relations_of(
    conn: &Connection,
    owner: &str,
    limit: usize,
) -> Result<Vec<RelationRow>, StoreError> {
    let mut out = Vec::new();
    for kind in [Relation::Follow, Relation::Block] {
        let rows = conn
            .prepare_cached(
                "SELECT r.other, r.at,
                   EXISTS (SELECT 1 FROM relations b WHERE b.owner = r.other
                             AND b.kind = 'block' AND b.other = r.owner)
                 FROM relations r WHERE r.owner = ?1 AND r.kind = ?2
                 ORDER BY r.at DESC, r.other LIMIT ?3",
            )?
            .query_map(params![owner, kind.as_str(), limit as i64], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, bool>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        for (player, at, blocks_owner) in rows {
            let name: Option<String> = conn
                .prepare_cached(NAME_OF)?
                .query_row(params![player], |r| r.get(0))
                .optional()?;
            out.push(RelationRow {
                kind,
                player,
                name: name.unwrap_or_default(),
                at,
                blocks_owner,
            });
        }
    }
    Ok(out)
}

/// Whether `owner` blocks `other`.
pub(super) fn blocks(conn: &Connection, owner: &str, other: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM relations WHERE owner = ?1 AND kind = 'block' AND other = ?2",
        )?
        .query_row(params![owner, other], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Applies a relation set or cleared (in the writer's transaction).
pub(super) fn apply(tx: &Connection, c: RelationChange) -> Result<Applied, StoreError> {
    let kind = c.kind.as_str();
    if !c.on {
        let n = tx
            .prepare_cached("DELETE FROM relations WHERE owner = ?1 AND kind = ?2 AND other = ?3")?
            .execute(params![c.owner, kind, c.other])?;
        return Ok(Applied::Set(if n > 0 {
            SetOutcome::Changed
        } else {
            SetOutcome::Unchanged
        }));
    }
    let n = tx
        .prepare_cached(
            "INSERT INTO relations (owner, kind, other, at)
             SELECT ?1, ?2, ?3, ?4
             WHERE (SELECT COUNT(*) FROM relations WHERE owner = ?1 AND kind = ?2) < ?5
             ON CONFLICT (owner, kind, other) DO NOTHING",
        )?
        .execute(params![c.owner, kind, c.other, c.at, c.cap as i64])?;
    if n > 0 {
        return Ok(Applied::Set(SetOutcome::Changed));
    }
    let there = tx
        .prepare_cached("SELECT 1 FROM relations WHERE owner = ?1 AND kind = ?2 AND other = ?3")?
        .query_row(params![c.owner, kind, c.other], |_| Ok(()))
        .optional()?
        .is_some();
    Ok(Applied::Set(if there {
        SetOutcome::Unchanged
    } else {
        SetOutcome::Full
    }))
}
