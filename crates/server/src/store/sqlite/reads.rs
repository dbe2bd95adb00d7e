//! Reading tables back: a whole table (its seats, actions and social
//! links) and the lines of a list with their seats. Reads use their own
//! connections, never the writer's.

use super::SqliteStore;
use crate::store::columns::seat_of;
use crate::store::lists::{ListLine, RatingRow, SeatSummary, TableSummary};
use crate::store::model::{
    Access, SeatKind, Social, StoreError, StoredAction, StoredSeat, StoredTable,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::BTreeMap;

/// One line of a table list as read: id, game, players, created,
/// finished, ended, free seats, result.
pub(super) type ListRow = (
    String,
    String,
    i64,
    i64,
    Option<i64>,
    Option<String>,
    i64,
    Option<String>,
);

pub(super) fn list_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
    ))
}

/// A table list's line with its seats.
pub(super) fn summary(conn: &Connection, row: ListRow) -> Result<TableSummary, StoreError> {
    let (id, game, players, created_at, finished_at, ended, free, result) = row;
    let seats = conn
        .prepare_cached(
            "SELECT seat, kind, bot, name, conceded_at IS NOT NULL, player FROM seats
             WHERE table_id = ?1 ORDER BY seat",
        )?
        .query_map(params![id], |r| {
            Ok((
                (
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ),
                r.get::<_, bool>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?
        .map(|row| {
            let ((seat, kind, bot, name), conceded, player) = row?;
            Ok(SeatSummary::of(seat_of(seat)?, &kind, bot, name)
                .conceded(conceded)
                .player(player.as_deref()))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let line = ListLine {
        id,
        game,
        players,
        created_at,
        finished_at,
        ended,
        free,
        result,
    };
    Ok(line.summary(seats))
}

/// A rating row as read, its columns in `rating_columns!()` order.
pub(super) fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRow> {
    let columns = (
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
    );
    Ok(crate::store::columns::rating_row(columns))
}

impl SqliteStore {
    pub(super) fn load_with(
        conn: &Connection,
        id: &str,
    ) -> Result<Option<StoredTable>, StoreError> {
        let header = conn
            .query_row(
                "SELECT id, game, rules_version, players, options, seed, seed_hash, config,
                        created_at, finished_at, public, invite_hash, creator_hash, owner,
                        fair_secret, contributions, rematch, rematch_of, result, fair_scheme
                 FROM tables WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                            r.get::<_, String>(6)?,
                            r.get::<_, String>(7)?,
                            r.get::<_, i64>(8)?,
                            r.get::<_, Option<i64>>(9)?,
                        ),
                        Access {
                            public: r.get::<_, i64>(10)? != 0,
                            invite_hash: r.get(11)?,
                            creator_hash: r.get(12)?,
                            owner: r.get(13)?,
                        },
                        (
                            r.get::<_, Option<String>>(14)?,
                            r.get::<_, Option<String>>(15)?,
                            r.get::<_, Option<i64>>(19)?,
                        ),
                        Social {
                            rematch: r.get(16)?,
                            rematch_of: r.get(17)?,
                            result: r.get(18)?,
                            players: BTreeMap::new(),
                            origins: BTreeMap::new(),
                            conceded: BTreeMap::new(),
                        },
                    ))
                },
            )
            .optional()?;
        let Some((
            (
                id,
                game,
                rules_version,
                players,
                options,
                seed,
                seed_hash,
                config,
                created_at,
                finished_at,
            ),
            access,
            (secret, contributions, scheme),
            mut social,
        )) = header
        else {
            return Ok(None);
        };
        let seats = Self::load_seats(conn, &id, &mut social)?;
        let fair = crate::store::columns::fair_of(
            secret.as_deref(),
            contributions.as_deref(),
            scheme,
            &id,
        )?;
        let actions = Self::load_actions(conn, &id)?;
        Ok(Some(StoredTable {
            id,
            game,
            rules_version,
            players: crate::store::columns::players_of(players)?,
            options: serde_json::from_str(&options)?,
            seed: crate::store::columns::seed_of(&seed, fair.as_ref())?,
            seed_hash,
            fair,
            config: serde_json::from_str(&config)?,
            created_at,
            finished_at,
            seats,
            actions,
            access,
            social,
        }))
    }

    /// A table's seats, in order; who sat where, from which origin, and
    /// who conceded go into `social`.
    fn load_seats(
        conn: &Connection,
        id: &str,
        social: &mut Social,
    ) -> Result<Vec<StoredSeat>, StoreError> {
        let mut seats = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT seat, kind, bot, name, token_hash, player, origin, conceded_at FROM seats
         WHERE table_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<i64>>(7)?,
            ))
        })?;
        for row in rows {
            let (seat, kind, bot, name, token_hash, player, origin, conceded) = row?;
            if let Some(at) = conceded {
                let at = u64::try_from(at)
                    .map_err(|_| StoreError::Corrupt(format!("conceded at {at}")))?;
                social.conceded.insert(seat_of(seat)?, at);
            }
            if let Some(p) = player {
                social.players.insert(seat_of(seat)?, p);
            }
            if let Some(o) = origin {
                social.origins.insert(seat_of(seat)?, o);
            }
            let kind = match kind.as_str() {
                "bot" => SeatKind::Bot(bot.unwrap_or_else(|| "heuristic".to_string())),
                "human" => SeatKind::Human { name, token_hash },
                other => return Err(StoreError::Corrupt(format!("seat kind {other}"))),
            };
            seats.push(StoredSeat {
                seat: seat_of(seat)?,
                kind,
            });
        }
        Ok(seats)
    }

    /// A table's actions, in order.
    fn load_actions(conn: &Connection, id: &str) -> Result<Vec<StoredAction>, StoreError> {
        let mut actions = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT seq, seat, action, stand_in FROM actions WHERE table_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<i64>>(3)?,
            ))
        })?;
        for row in rows {
            let (seq, seat, action, stand_in) = row?;
            actions.push(StoredAction {
                seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("seq {seq}")))?,
                seat: seat_of(seat)?,
                action,
                stand_in: stand_in.is_some_and(|s| s != 0),
            });
        }
        Ok(actions)
    }
}
