//! Every read of the PostgreSQL backend: a whole table (header, seats,
//! actions) in one snapshot, the unfinished ones, a table's dump for a
//! copy, the lobby's list and a person's games with their seats, ratings
//! and the ownership queries (orphans, live nodes), plus the one-query
//! helpers the trait's simple reads use. Plain async functions over a
//! pool (or a read-only transaction), run by `store`.

use crate::store::columns::seat_of;
use crate::store::lists::{ListLine, RatingRow, SeatSummary, TableSummary};
use crate::store::model::{
    Access, SeatKind, Social, StoreError, StoredAction, StoredFair, StoredSeat, StoredTable,
    TableDump,
};
use deadpool_postgres::{Pool, Transaction};
use tokio_postgres::{IsolationLevel, Row};

/// The parameters of a statement run by a task.
pub(super) type Params = Vec<Box<dyn tokio_postgres::types::ToSql + Send + Sync>>;

/// Runs one query; its rows.
pub(super) async fn query(
    pool: Pool,
    sql: &'static str,
    params: Params,
) -> Result<Vec<Row>, StoreError> {
    let client = pool.get().await?;
    let stmt = client.prepare_cached(sql).await?;
    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
        .iter()
        .map(|p| p.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect();
    Ok(client.query(&stmt, &refs).await?)
}

/// The first column of every row, as text.
pub(super) fn ids(rows: &[Row]) -> Result<Vec<String>, StoreError> {
    rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
}

/// A count read back as a size.
pub(super) fn count(rows: &[Row]) -> Result<usize, StoreError> {
    let n: i64 = rows
        .first()
        .ok_or_else(|| StoreError::Corrupt("a count returned no row".to_string()))?
        .try_get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// A read-only transaction that sees one moment of the database.
async fn snapshot(client: &mut deadpool_postgres::Object) -> Result<Transaction<'_>, StoreError> {
    Ok(client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?)
}
/// One table with its seats and actions, as `tx` sees it; `None` if there
/// is no such table. Three queries (the table's row, its seats, its
/// actions), read in that order.
async fn load_with(tx: &Transaction<'_>, id: &str) -> Result<Option<StoredTable>, StoreError> {
    let stmt = tx
        .prepare_cached(
            "SELECT id, game, rules_version, players, options, seed, seed_hash, config,
                    created_at, finished_at, public, invite_hash, creator_hash, owner,
                    fair_secret, contributions, rematch, rematch_of, result, fair_scheme
             FROM tables WHERE id = $1",
        )
        .await?;
    let Some(r) = tx.query_opt(&stmt, &[&id]).await? else {
        return Ok(None);
    };
    let mut header = Header::read(&r)?;
    let seats = load_seats(tx, &header.id, &mut header.social).await?;
    let fair = header.fair()?;
    let actions = load_actions(tx, &header.id).await?;
    header.table(&r, fair, seats, actions).map(Some)
}

/// The columns of a table's row that are read before its seats; the
/// others are read last, by [`Header::table`].
struct Header {
    id: String,
    players: i64,
    options: String,
    seed: String,
    config: String,
    access: Access,
    secret: Option<String>,
    contributions: Option<String>,
    scheme: Option<i64>,
    /// The rematch links and the result, to which the seats add their
    /// players and origins.
    social: Social,
}

impl Header {
    /// Reads the header's columns from the row of [`load_with`]'s first
    /// query.
    fn read(r: &Row) -> Result<Header, StoreError> {
        let id: String = r.try_get(0)?;
        let players: i64 = r.try_get(3)?;
        let options: String = r.try_get(4)?;
        let seed: String = r.try_get(5)?;
        let config: String = r.try_get(7)?;
        let access = Access {
            public: r.try_get::<_, i64>(10)? != 0,
            invite_hash: r.try_get(11)?,
            creator_hash: r.try_get(12)?,
            owner: r.try_get(13)?,
        };
        let secret: Option<String> = r.try_get(14)?;
        let contributions: Option<String> = r.try_get(15)?;
        let scheme: Option<i64> = r.try_get(19)?;
        let social = Social {
            rematch: r.try_get(16)?,
            rematch_of: r.try_get(17)?,
            result: r.try_get(18)?,
            players: std::collections::BTreeMap::new(),
            origins: std::collections::BTreeMap::new(),
            conceded: std::collections::BTreeMap::new(),
        };
        Ok(Header {
            id,
            players,
            options,
            seed,
            config,
            access,
            secret,
            contributions,
            scheme,
            social,
        })
    }

    /// The fair-dealing state of the table, if it deals fairly (its
    /// secret is stored).
    fn fair(&self) -> Result<Option<StoredFair>, StoreError> {
        crate::store::columns::fair_of(
            self.secret.as_deref(),
            self.contributions.as_deref(),
            self.scheme,
            &self.id,
        )
    }

    /// The whole table: this header, the rest of its row `r`, and what
    /// the other queries read.
    fn table(
        self,
        r: &Row,
        fair: Option<StoredFair>,
        seats: Vec<StoredSeat>,
        actions: Vec<StoredAction>,
    ) -> Result<StoredTable, StoreError> {
        let Header {
            id,
            players,
            options,
            seed,
            config,
            access,
            social,
            ..
        } = self;
        Ok(StoredTable {
            id,
            game: r.try_get(1)?,
            rules_version: r.try_get(2)?,
            players: crate::store::columns::players_of(players)?,
            options: serde_json::from_str(&options)?,
            seed: crate::store::columns::seed_of(&seed, fair.as_ref())?,
            seed_hash: r.try_get(6)?,
            fair,
            config: serde_json::from_str(&config)?,
            created_at: r.try_get(8)?,
            finished_at: r.try_get(9)?,
            seats,
            actions,
            access,
            social,
        })
    }
}

/// A table's seats in order; the players, origins and concessions they
/// name go to `social`.
async fn load_seats(
    tx: &Transaction<'_>,
    id: &str,
    social: &mut Social,
) -> Result<Vec<StoredSeat>, StoreError> {
    let stmt = tx
        .prepare_cached(
            "SELECT seat, kind, bot, name, token_hash, player, origin, conceded_at FROM seats
             WHERE table_id = $1 ORDER BY seat",
        )
        .await?;
    let mut seats = Vec::new();
    for s in tx.query(&stmt, &[&id]).await? {
        if let Some(p) = s.try_get::<_, Option<String>>(5)? {
            social.players.insert(seat_of(s.try_get(0)?)?, p);
        }
        if let Some(o) = s.try_get::<_, Option<String>>(6)? {
            social.origins.insert(seat_of(s.try_get(0)?)?, o);
        }
        if let Some(at) = s.try_get::<_, Option<i64>>(7)? {
            let at =
                u64::try_from(at).map_err(|_| StoreError::Corrupt(format!("conceded at {at}")))?;
            social.conceded.insert(seat_of(s.try_get(0)?)?, at);
        }
        let kind: String = s.try_get(1)?;
        let kind = match kind.as_str() {
            "bot" => SeatKind::Bot(
                s.try_get::<_, Option<String>>(2)?
                    .unwrap_or_else(|| "heuristic".to_string()),
            ),
            "human" => SeatKind::Human {
                name: s.try_get(3)?,
                token_hash: s.try_get(4)?,
            },
            other => return Err(StoreError::Corrupt(format!("seat kind {other}"))),
        };
        seats.push(StoredSeat {
            seat: seat_of(s.try_get(0)?)?,
            kind,
        });
    }
    Ok(seats)
}

/// A table's actions in order of their seq.
async fn load_actions(tx: &Transaction<'_>, id: &str) -> Result<Vec<StoredAction>, StoreError> {
    let stmt = tx
        .prepare_cached(
            "SELECT seq, seat, action, stand_in FROM actions WHERE table_id = $1 ORDER BY seq",
        )
        .await?;
    let mut actions = Vec::new();
    for a in tx.query(&stmt, &[&id]).await? {
        let seq: i64 = a.try_get(0)?;
        let stand_in: Option<i64> = a.try_get(3)?;
        actions.push(StoredAction {
            seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("seq {seq}")))?,
            seat: seat_of(a.try_get(1)?)?,
            action: a.try_get(2)?,
            stand_in: stand_in.is_some_and(|s| s != 0),
        });
    }
    Ok(actions)
}

pub(super) async fn load(pool: Pool, id: String) -> Result<Option<StoredTable>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let table = load_with(&tx, &id).await?;
    tx.commit().await?;
    Ok(table)
}

pub(super) async fn load_unfinished(pool: Pool) -> Result<Vec<StoredTable>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let stmt = tx
        .prepare_cached("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")
        .await?;
    let mut out = Vec::new();
    for id in ids(&tx.query(&stmt, &[]).await?)? {
        if let Some(t) = load_with(&tx, &id).await? {
            out.push(t);
        }
    }
    tx.commit().await?;
    Ok(out)
}

pub(super) async fn dump(pool: Pool, id: String) -> Result<Option<TableDump>, StoreError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let Some(table) = load_with(&tx, &id).await? else {
        return Ok(None);
    };
    let stmt = tx
        .prepare_cached("SELECT last_active, ended FROM tables WHERE id = $1")
        .await?;
    let row = tx.query_one(&stmt, &[&id]).await?;
    let stmt = tx
        .prepare_cached("SELECT at FROM actions WHERE table_id = $1 ORDER BY seq")
        .await?;
    let action_times = tx
        .query(&stmt, &[&id])
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    tx.commit().await?;
    Ok(Some(TableDump {
        table,
        last_active: row.try_get(0)?,
        ended: row.try_get(1)?,
        action_times,
    }))
}

/// The lobby's list: the newest public tables (as SQLite's `LIST`).
pub(super) const LIST: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id
           AND s.kind = 'human' AND s.token_hash IS NULL), t.result
     FROM tables t WHERE t.public = 1
     ORDER BY t.created_at DESC LIMIT $1";

/// The tables a person sat at, newest first, with their seat (as
/// SQLite's `GAMES_OF`).
pub(super) const GAMES_OF: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = $1 ORDER BY t.created_at DESC LIMIT $2";

/// Lines of a table list (the rows of [`LIST`] or [`GAMES_OF`]) with
/// their seats, read in one more query; the seat of [`GAMES_OF`]'s rows.
pub(super) async fn summaries(
    pool: Pool,
    sql: &'static str,
    params: Params,
) -> Result<Vec<(TableSummary, Option<i64>)>, StoreError> {
    let rows = query(pool.clone(), sql, params).await?;
    let ids = ids(&rows)?;
    let client = pool.get().await?;
    let stmt = client
        .prepare_cached(
            "SELECT table_id, seat, kind, bot, name, conceded_at IS NOT NULL, player FROM seats
             WHERE table_id = ANY($1) ORDER BY table_id, seat",
        )
        .await?;
    let mut seats: std::collections::HashMap<String, Vec<SeatSummary>> =
        std::collections::HashMap::new();
    for r in client.query(&stmt, &[&ids]).await? {
        let kind: String = r.try_get(2)?;
        seats.entry(r.try_get(0)?).or_default().push(
            SeatSummary::of(seat_of(r.try_get(1)?)?, &kind, r.try_get(3)?, r.try_get(4)?)
                .conceded(r.try_get(5)?)
                .player(r.try_get::<_, Option<String>>(6)?.as_deref()),
        );
    }
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.try_get(0)?;
        let seat: Option<i64> = if r.len() > 8 { r.try_get(8)? } else { None };
        let line = ListLine {
            id,
            game: r.try_get(1)?,
            players: r.try_get(2)?,
            created_at: r.try_get(3)?,
            finished_at: r.try_get(4)?,
            ended: r.try_get(5)?,
            free: r.try_get(6)?,
            result: r.try_get(7)?,
        };
        let seats = seats.remove(&line.id).unwrap_or_default();
        out.push((line.summary(seats), seat));
    }
    Ok(out)
}
/// A rating row as read, its columns in `rating_columns!()` order.
pub(super) fn rating_row(r: &Row) -> Result<RatingRow, StoreError> {
    let columns = (
        r.try_get(0)?,
        r.try_get(1)?,
        r.try_get(2)?,
        r.try_get(3)?,
        r.try_get(4)?,
        r.try_get(5)?,
        r.try_get(6)?,
    );
    Ok(crate::store::columns::rating_row(columns))
}

/// Unfinished tables whose owner is neither `$1` nor alive under a lease
/// of `$2` milliseconds.
pub(super) const ORPHANS: &str = concat!(
    "SELECT id FROM tables t WHERE owner_node IS NOT NULL AND owner_node <> $1
       AND finished_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM nodes n
                       WHERE n.id = t.owner_node AND n.heartbeat_ms > ",
    now_ms!(),
    " - $2)
     LIMIT $3"
);

/// The processes alive under a lease of `$1` milliseconds.
pub(super) const LIVE_NODES: &str = concat!(
    "SELECT id, url FROM nodes WHERE heartbeat_ms > ",
    now_ms!(),
    " - $1 ORDER BY id"
);
