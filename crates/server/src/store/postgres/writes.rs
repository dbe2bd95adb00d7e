//! Every write of the PostgreSQL backend but the appends (`appends`):
//! fencing a table's writes by its epoch, a table's rows (made, copied
//! in), its end and the sweep of idle tables, seats and contributions,
//! claims and heartbeats, results with their ratings, and the one-statement
//! writes of the trait. Each is a plain async function over a pool (or a
//! transaction), one transaction each, run by `store`.

use super::reads::Params;
use crate::store::columns::{contributions_json, parse_contributions};
use crate::store::model::{
    Epoch, Node, Ownership, SeatKind, StoreError, StoredAction, StoredTable, TableDump,
};
use deadpool_postgres::{Pool, Transaction};
use game::Seat;
use tokio_postgres::Row;

/// Locks a table's row for the rest of the transaction and reads its
/// epoch: the first statement of every fenced write.
pub(super) const FENCE: &str = "SELECT epoch, finished_at FROM tables WHERE id = $1 FOR UPDATE";

/// Fails with [`StoreError::Fenced`] unless `table` is owned under
/// `epoch`; the table's row is then locked until the transaction ends.
async fn fence(tx: &Transaction<'_>, table: &str, epoch: Epoch) -> Result<(), StoreError> {
    let stmt = tx.prepare_cached(FENCE).await?;
    fenced(tx.query_opt(&stmt, &[&table]).await?, table, epoch)
}

/// The verdict of [`FENCE`]'s row.
pub(super) fn fenced(row: Option<Row>, table: &str, epoch: Epoch) -> Result<(), StoreError> {
    let Some(row) = row else {
        return Err(StoreError::Corrupt(format!("no table {table}")));
    };
    let current: Epoch = row.try_get(0)?;
    if current == epoch {
        Ok(())
    } else {
        Err(StoreError::Fenced {
            table: table.to_string(),
            epoch,
            current,
        })
    }
}

/// Inserts a table's header and seats (not its actions), owned by
/// `owner` under `epoch`.
async fn insert_table(
    tx: &Transaction<'_>,
    t: &StoredTable,
    last_active: Option<i64>,
    ended: Option<&str>,
    owner: Option<&str>,
    epoch: Epoch,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO tables (id, game, rules_version, players, options, seed, seed_hash,
                                 config, created_at, finished_at, public, invite_hash,
                                 creator_hash, owner, last_active, fair_secret,
                                 contributions, ended, owner_node, epoch, rematch,
                                 rematch_of, result, fair_scheme)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                     COALESCE($17::bigint, $9), $15, $16, $18, $19, $20, $21, $22, $23, $24)",
        )
        .await?;
    let seed = if t.fair.is_some() {
        String::new()
    } else {
        t.seed.to_string()
    };
    let secret = t.fair.as_ref().map(|f| registry::fair::hex(&f.secret));
    let contributions = t
        .fair
        .as_ref()
        .map(|f| contributions_json(&f.contributions));
    let scheme = t.fair.as_ref().map(crate::store::columns::fair_scheme);
    tx.execute(
        &stmt,
        &[
            &t.id,
            &t.game,
            &t.rules_version,
            &(t.players as i64),
            &serde_json::to_string(&t.options)?,
            &seed,
            &t.seed_hash,
            &serde_json::to_string(&t.config)?,
            &t.created_at,
            &t.finished_at,
            &i64::from(t.access.public),
            &t.access.invite_hash,
            &t.access.creator_hash,
            &t.access.owner,
            &secret,
            &contributions,
            &last_active,
            &ended,
            &owner,
            &epoch,
            &t.social.rematch,
            &t.social.rematch_of,
            &t.social.result,
            &scheme,
        ],
    )
    .await?;
    let stmt = tx
        .prepare_cached(
            "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, player, origin,
                                conceded_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .await?;
    for s in &t.seats {
        let (kind, bot, name, token_hash) = match &s.kind {
            SeatKind::Bot(b) => ("bot", Some(b.as_str()), None, None),
            SeatKind::Human { name, token_hash } => {
                ("human", None, name.as_deref(), token_hash.as_deref())
            }
        };
        tx.execute(
            &stmt,
            &[
                &t.id,
                &(s.seat.index() as i64),
                &kind,
                &bot,
                &name,
                &token_hash,
                &t.social.players.get(&s.seat),
                &t.social.origins.get(&s.seat),
                &t.social.conceded.get(&s.seat).map(|&at| at as i64),
            ],
        )
        .await?;
    }
    Ok(())
}

/// Stores one action; the primary key `(table_id, seq)` refuses a stored
/// seq.
pub(super) const INSERT_ACTION: &str = "INSERT INTO actions (table_id, seq, seat, action, at,
     stand_in) VALUES ($1, $2, $3, $4, $5, $6)";

/// Inserts one action row (the primary key refuses a stored seq).
async fn insert_action(
    tx: &Transaction<'_>,
    table: &str,
    action: &StoredAction,
    at: i64,
) -> Result<(), StoreError> {
    let stmt = tx.prepare_cached(INSERT_ACTION).await?;
    tx.execute(
        &stmt,
        &[
            &table,
            &(action.seq as i64),
            &(action.seat.index() as i64),
            &action.action,
            &at,
            &action.stand_in.then_some(1i64),
        ],
    )
    .await?;
    Ok(())
}

/// Stores a new table with its seats and first actions, owned by `node`
/// under epoch 1, and links it from the table it is a rematch of (which
/// must have none yet).
pub(super) async fn create(pool: Pool, t: StoredTable, node: String) -> Result<Epoch, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    insert_table(&tx, &t, None, None, Some(&node), 1).await?;
    for a in &t.actions {
        insert_action(&tx, &t.id, a, t.created_at).await?;
    }
    if let Some(old) = &t.social.rematch_of {
        let stmt = tx
            .prepare_cached("UPDATE tables SET rematch = $2 WHERE id = $1 AND rematch IS NULL")
            .await?;
        if tx.execute(&stmt, &[old, &t.id]).await? != 1 {
            return Err(StoreError::Corrupt(format!(
                "table {old} has a rematch already"
            )));
        }
    }
    tx.commit().await?;
    Ok(1)
}

/// Stores a copied table ([`TableDump`]) as it was, owned by no one.
pub(super) async fn restore(pool: Pool, d: TableDump) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let t = &d.table;
    insert_table(&tx, t, d.last_active, d.ended.as_deref(), None, 0).await?;
    // Every action in one statement (arrays unnested), not one round trip
    // each: a copy of a whole site is bound by round trips otherwise.
    let seqs: Vec<i64> = t.actions.iter().map(|a| a.seq as i64).collect();
    let seats: Vec<i64> = t.actions.iter().map(|a| a.seat.index() as i64).collect();
    let texts: Vec<&str> = t.actions.iter().map(|a| a.action.as_str()).collect();
    let times: Vec<i64> = (0..t.actions.len())
        .map(|i| d.action_times.get(i).copied().unwrap_or(t.created_at))
        .collect();
    let stand_ins: Vec<Option<i64>> = t.actions.iter().map(|a| a.stand_in.then_some(1)).collect();
    let many = tx
        .prepare_cached(
            "INSERT INTO actions (table_id, seq, seat, action, at, stand_in)
             SELECT $1, s, p, a, w, b FROM unnest($2::bigint[], $3::bigint[], $4::text[],
                                                $5::bigint[], $6::bigint[]) AS x(s, p, a, w, b)",
        )
        .await?;
    tx.execute(&many, &[&t.id, &seqs, &seats, &texts, &times, &stand_ins])
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Ends a table at `at` as `ended` (`over` or `abandoned`), fenced by
/// `epoch` if given; an ended table is left as it is.
pub(super) async fn finish(
    pool: Pool,
    table: String,
    at: i64,
    ended: &'static str,
    epoch: Option<Epoch>,
) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    if let Some(epoch) = epoch {
        fence(&tx, &table, epoch).await?;
    }
    let stmt = tx
        .prepare_cached(
            "UPDATE tables SET finished_at = $2, ended = $3
             WHERE id = $1 AND finished_at IS NULL",
        )
        .await?;
    tx.execute(&stmt, &[&table, &at, &ended]).await?;
    tx.commit().await?;
    Ok(())
}

/// The sweep: ends as abandoned (at `$3`) the unfinished tables idle since
/// `$1`, or never started and idle since `$2` (as SQLite's `IDLE`).
///
/// It locks the rows first, in byte order of the id as every batch of
/// appends does, so a sweep and a batch never wait for each other in a
/// cycle. A row an append changed meanwhile is checked again once locked
/// (its `last_active` is then new: it is left alone).
const ABANDON: &str = "WITH idle AS (
       SELECT id FROM tables
       WHERE finished_at IS NULL AND (COALESCE(last_active, created_at) < $1
         OR (COALESCE(last_active, created_at) < $2
             AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_id = tables.id)))
       ORDER BY id COLLATE \"C\"
       FOR UPDATE
     )
     UPDATE tables SET finished_at = $3, ended = 'abandoned'
     FROM idle WHERE tables.id = idle.id AND tables.finished_at IS NULL
     RETURNING tables.id";

/// Runs the sweep ([`ABANDON`]); the ids of the tables it ended.
pub(super) async fn abandon(
    pool: Pool,
    before: i64,
    unstarted_before: i64,
    at: i64,
) -> Result<Vec<String>, StoreError> {
    // The ids come from the update itself, so a table a join or an action
    // saved meanwhile is neither ended nor told it was.
    let client = pool.get().await?;
    let stmt = client.prepare_cached(ABANDON).await?;
    let rows = client
        .query(&stmt, &[&before, &unstarted_before, &at])
        .await?;
    rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
}

/// Gives a free human seat to bot `bot` (see [`Store::fill_seat`]); whether
/// it was free.
pub(super) async fn fill(
    pool: Pool,
    table: String,
    seat: Seat,
    bot: String,
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    fence(&tx, &table, epoch).await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET kind = 'bot', bot = $3, name = NULL
             WHERE table_id = $1 AND seat = $2 AND kind = 'human' AND token_hash IS NULL
               AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND finished_at IS NULL)",
        )
        .await?;
    let changed = tx
        .execute(&stmt, &[&table, &(seat.index() as i64), &bot])
        .await?;
    tx.commit().await?;
    Ok(changed == 1)
}

/// A seat taken by a person: the shared request of [`Store::take_seat_as`].
pub(super) type Taking = crate::store::model::SeatTaking;

/// Locks table `table`'s row for this transaction, checks `epoch` owns it,
/// and says whether its game is still unfinished.
async fn fence_unfinished(
    tx: &Transaction<'_>,
    table: &str,
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let stmt = tx.prepare_cached(FENCE).await?;
    let row = tx.query_opt(&stmt, &[&table]).await?;
    let finished: Option<i64> = match &row {
        Some(r) => r.try_get(1)?,
        None => None,
    };
    fenced(row, table, epoch)?;
    Ok(finished.is_none())
}

/// Adds a contribution for `seat` unless it has one (see
/// [`Store::contribute`]).
pub(super) async fn contribute(
    pool: Pool,
    table: String,
    seat: Seat,
    value: [u8; 32],
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    if !fence_unfinished(&tx, &table, epoch).await? {
        return Ok(false);
    }
    // The row is locked by the fence: no other write interleaves.
    let stmt = tx
        .prepare_cached("SELECT contributions FROM tables WHERE id = $1")
        .await?;
    let before: Option<String> = tx.query_one(&stmt, &[&table]).await?.try_get(0)?;
    let mut all = parse_contributions(before.as_deref())?;
    if all.contains_key(&seat) {
        return Ok(false);
    }
    all.insert(seat, value);
    let stmt = tx
        .prepare_cached("UPDATE tables SET contributions = $2, last_active = $3 WHERE id = $1")
        .await?;
    tx.execute(
        &stmt,
        &[&table, &contributions_json(&all), &crate::clock::unix_now()],
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Records a person's concession (see [`Store::concede`]); whether it
/// changed anything.
pub(super) async fn concede(
    pool: Pool,
    table: String,
    seat: Seat,
    at: u64,
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    if !fence_unfinished(&tx, &table, epoch).await? {
        return Ok(false);
    }
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET conceded_at = $3
             WHERE table_id = $1 AND seat = $2 AND kind = 'human'
               AND token_hash IS NOT NULL AND conceded_at IS NULL",
        )
        .await?;
    let changed = tx
        .execute(&stmt, &[&table, &(seat.index() as i64), &(at as i64)])
        .await?;
    tx.commit().await?;
    Ok(changed == 1)
}

/// A new token for the seat a person holds (see [`Store::retoken`]).
pub(super) async fn retoken(
    pool: Pool,
    table: String,
    seat: Seat,
    player: String,
    token_hash: String,
    epoch: Epoch,
) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    if !fence_unfinished(&tx, &table, epoch).await? {
        return Ok(false);
    }
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET token_hash = $4
             WHERE table_id = $1 AND seat = $2 AND kind = 'human'
               AND token_hash IS NOT NULL AND player = $3",
        )
        .await?;
    let changed = tx
        .execute(
            &stmt,
            &[&table, &(seat.index() as i64), &player, &token_hash],
        )
        .await?;
    tx.commit().await?;
    Ok(changed == 1)
}

/// Gives a free human seat to a person (see [`Store::take_seat`]), with
/// their contribution if any; whether it was free.
pub(super) async fn take(pool: Pool, w: Taking) -> Result<bool, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    fence(&tx, &w.table, w.epoch).await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE seats SET name = $3, token_hash = $4, player = $5, origin = $6
             WHERE table_id = $1 AND seat = $2 AND kind = 'human' AND token_hash IS NULL
               AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND finished_at IS NULL)",
        )
        .await?;
    let changed = tx
        .execute(
            &stmt,
            &[
                &w.table,
                &(w.seat.index() as i64),
                &w.name,
                &w.token_hash,
                &w.player,
                &w.origin,
            ],
        )
        .await?;
    if changed == 1 {
        let stmt = tx
            .prepare_cached("UPDATE tables SET last_active = $2 WHERE id = $1")
            .await?;
        tx.execute(&stmt, &[&w.table, &crate::clock::unix_now()])
            .await?;
        if let Some(c) = w.contribution {
            // The row is locked by the fence: no other write interleaves.
            let stmt = tx
                .prepare_cached("SELECT contributions FROM tables WHERE id = $1")
                .await?;
            let before: Option<String> = tx.query_one(&stmt, &[&w.table]).await?.try_get(0)?;
            let mut all = parse_contributions(before.as_deref())?;
            all.insert(w.seat, c);
            let stmt = tx
                .prepare_cached("UPDATE tables SET contributions = $2 WHERE id = $1")
                .await?;
            tx.execute(&stmt, &[&w.table, &contributions_json(&all)])
                .await?;
        }
    }
    tx.commit().await?;
    Ok(changed == 1)
}

/// A claim: a new epoch unless a live other node (a heartbeat younger than
/// `$3` milliseconds by the database's clock) owns the table.
const CLAIM: &str = concat!(
    "UPDATE tables SET owner_node = $2, epoch = epoch + 1
     WHERE id = $1 AND (owner_node IS NULL OR owner_node = $2 OR NOT EXISTS (
       SELECT 1 FROM nodes n WHERE n.id = tables.owner_node
         AND n.heartbeat_ms > ",
    now_ms!(),
    " - $3))
     RETURNING epoch"
);

/// Claims a table for `node` ([`CLAIM`]), or says who owns it.
pub(super) async fn claim(
    pool: Pool,
    table: String,
    node: String,
    lease_ms: i64,
) -> Result<Ownership, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stmt = tx.prepare_cached(CLAIM).await?;
    if let Some(row) = tx.query_opt(&stmt, &[&table, &node, &lease_ms]).await? {
        let epoch: Epoch = row.try_get(0)?;
        tx.commit().await?;
        return Ok(Ownership::Mine(epoch));
    }
    let stmt = tx
        .prepare_cached(
            "SELECT t.owner_node, COALESCE(n.url, '') FROM tables t
             LEFT JOIN nodes n ON n.id = t.owner_node WHERE t.id = $1",
        )
        .await?;
    let owner = match tx.query_opt(&stmt, &[&table]).await? {
        None => Ownership::Missing,
        Some(row) => Ownership::Other(Node {
            id: row.try_get::<_, Option<String>>(0)?.unwrap_or_default(),
            url: row.try_get(1)?,
        }),
    };
    tx.commit().await?;
    Ok(owner)
}

/// A heartbeat: the process's row, its time by the database's clock.
pub(super) const HEARTBEAT: &str = concat!(
    "INSERT INTO nodes (id, url, heartbeat_ms) VALUES ($1, $2, ",
    now_ms!(),
    ") ON CONFLICT (id) DO UPDATE SET url = $2, heartbeat_ms = ",
    now_ms!()
);

/// Records a result and moves the ratings (see [`Store::record_result`]):
/// the people's rating rows are made if missing and locked in byte order
/// of their ids, so two games ending together never wait for each other
/// in a cycle, and neither loses the other's update.
pub(super) async fn record(
    pool: Pool,
    table: String,
    result: crate::store::ratings::GameResult,
) -> Result<bool, StoreError> {
    use crate::store::ratings::Rating;
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE tables SET result = $2 WHERE id = $1 AND result IS NULL
               AND finished_at IS NOT NULL AND ended = 'over'",
        )
        .await?;
    if tx.execute(&stmt, &[&table, &result.outcome]).await? != 1 {
        return Ok(false);
    }
    if crate::store::ratings::rateable(&result) {
        let people = crate::store::ratings::people(&result);
        let start = Rating::START;
        let stmt = tx
            .prepare_cached(
                "INSERT INTO ratings (game, player, name, rating, uncertainty, score, games,
                                      updated_at, first_at)
                 VALUES ($1, $2, '', $3, $4, $5, 0, $6, $6) ON CONFLICT (game, player) DO NOTHING",
            )
            .await?;
        for id in &people {
            tx.execute(
                &stmt,
                &[
                    &result.game,
                    id,
                    &start.rating,
                    &start.uncertainty,
                    &start.score(),
                    &result.at,
                ],
            )
            .await?;
        }
        let stmt = tx
            .prepare_cached(
                "SELECT player, rating, uncertainty, games, first_at FROM ratings
                 WHERE game = $1 AND player = ANY($2) ORDER BY player FOR UPDATE",
            )
            .await?;
        let mut now = std::collections::HashMap::new();
        for r in tx.query(&stmt, &[&result.game, &people]).await? {
            now.insert(
                r.try_get::<_, String>(0)?,
                crate::store::ratings::Standing {
                    rating: Rating {
                        rating: r.try_get(1)?,
                        uncertainty: r.try_get(2)?,
                    },
                    games: r.try_get(3)?,
                    first_at: r.try_get(4)?,
                },
            );
        }
        let recent = recent_pairs(&tx, &result, &people).await?;
        let stmt = tx
            .prepare_cached(
                "UPDATE ratings SET name = $3, rating = $4, uncertainty = $5, score = $6,
                   games = games + 1, updated_at = $7
                 WHERE game = $1 AND player = $2",
            )
            .await?;
        let moves = crate::store::ratings::moves(&result, &now, &recent);
        for m in &moves.ratings {
            tx.execute(
                &stmt,
                &[
                    &result.game,
                    &m.id,
                    &m.name,
                    &m.rating.rating,
                    &m.rating.uncertainty,
                    &m.rating.score(),
                    &result.at,
                ],
            )
            .await?;
            history(&tx, &table, &result, m).await?;
        }
        let stmt = tx
            .prepare_cached(
                "INSERT INTO rated_pairs (game, player, other, at) VALUES ($1, $2, $3, $4)",
            )
            .await?;
        for (player, other) in &moves.pairs {
            tx.execute(&stmt, &[&result.game, player, other, &result.at])
                .await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// Writes a rating update's history point, in the transaction that moves
/// the rating.
async fn history(
    tx: &deadpool_postgres::Transaction<'_>,
    table: &str,
    result: &crate::store::ratings::GameResult,
    m: &crate::store::ratings::Move<'_>,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO rating_history (game, player, table_id, at, rating, uncertainty,
                                         score, seat, place, public)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .await?;
    let (seat, place) = (
        i32::try_from(m.seat).unwrap_or(i32::MAX),
        i32::from(m.place),
    );
    tx.execute(
        &stmt,
        &[
            &result.game,
            &m.id,
            &table,
            &result.at,
            &m.rating.rating,
            &m.rating.uncertainty,
            &m.rating.score(),
            &seat,
            &place,
            &i64::from(result.public),
        ],
    )
    .await?;
    Ok(())
}

/// Who counted for whom among `people` in the day before `result`, their
/// rows older than that pruned first. The people's rating rows are
/// locked, and only their pairs are read and pruned, so two games ending
/// together never touch the same pairs (nor wait for each other).
async fn recent_pairs(
    tx: &Transaction<'_>,
    result: &crate::store::ratings::GameResult,
    people: &[&str],
) -> Result<crate::store::ratings::Recent, StoreError> {
    let since = result.at - crate::store::ratings::REPEAT_WINDOW_S;
    let prune = tx
        .prepare_cached("DELETE FROM rated_pairs WHERE game = $1 AND player = ANY($2) AND at <= $3")
        .await?;
    tx.execute(&prune, &[&result.game, &people, &since]).await?;
    let stmt = tx
        .prepare_cached(
            "SELECT player, other, COUNT(*) FROM rated_pairs
             WHERE game = $1 AND player = ANY($2) AND at > $3 GROUP BY player, other",
        )
        .await?;
    let mut recent = crate::store::ratings::Recent::new();
    for r in tx.query(&stmt, &[&result.game, &people, &since]).await? {
        let n: i64 = r.try_get(2)?;
        recent.insert(
            (r.try_get(0)?, r.try_get(1)?),
            u32::try_from(n).unwrap_or(u32::MAX),
        );
    }
    Ok(recent)
}

/// Runs one statement that writes (its own transaction); the rows changed.
pub(super) async fn execute(
    pool: Pool,
    sql: &'static str,
    params: Params,
) -> Result<u64, StoreError> {
    let client = pool.get().await?;
    let stmt = client.prepare_cached(sql).await?;
    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
        .iter()
        .map(|p| p.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect();
    Ok(client.execute(&stmt, &refs).await?)
}

/// The site's secret, made by the first process that asks for it.
pub(super) async fn site_secret(pool: Pool) -> Result<String, StoreError> {
    let fresh = registry::fair::hex(&rand::random::<[u8; 32]>());
    let client = pool.get().await?;
    let stmt = client
        .prepare_cached(
            "INSERT INTO site (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING",
        )
        .await?;
    client.execute(&stmt, &[&fresh]).await?;
    let stmt = client
        .prepare_cached("SELECT value FROM site WHERE key = 'secret'")
        .await?;
    Ok(client.query_one(&stmt, &[]).await?.try_get(0)?)
}
