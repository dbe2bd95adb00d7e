//! The writer thread: it owns the write connection and group-commits
//! every write queued while it commits (one savepoint each, so one failing
//! write fails alone), fences each table's writes by its ownership epoch,
//! and applies each kind of write.

use super::sql::*;
use super::write::*;
use super::SqliteStore;
use crate::store::columns::{contributions_json, parse_contributions};
use crate::store::model::{
    Done, Epoch, Node, Ownership, SeatKind, StoreError, StoredAction, StoredTable, TableDump,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::mpsc;
use std::sync::Mutex;

impl SqliteStore {
    /// The writer thread: takes every queued write (at most
    /// [`MAX_BATCH`]), commits them in one transaction, then tells each
    /// caller. Ends when the store is dropped.
    pub(super) fn writer(conn: &Mutex<Connection>, jobs: &mpsc::Receiver<Job>) {
        while let Ok(first) = jobs.recv() {
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match jobs.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let (writes, dones): (Vec<Write>, Vec<Done<Applied>>) =
                batch.into_iter().map(|j| (j.write, j.done)).unzip();
            let outcomes = {
                let mut conn = conn.lock().unwrap_or_else(|p| p.into_inner());
                SqliteStore::commit_batch(&mut conn, writes)
            };
            for (done, outcome) in dones.into_iter().zip(outcomes) {
                done(outcome);
            }
        }
    }

    /// Queues `write`; `done` gets its outcome once it is committed.
    pub(super) fn submit(&self, write: Write, done: Done<Applied>) {
        let job = Job { write, done };
        let sent = match &self.writes {
            Some(w) => w.send(job),
            None => Err(mpsc::SendError(job)),
        };
        if let Err(mpsc::SendError(job)) = sent {
            (job.done)(Err(StoreError::Commit(
                "the writer thread stopped".to_string(),
            )));
        }
    }

    /// Queues `write` and blocks until it is committed.
    pub(super) fn write(&self, write: Write) -> Result<Applied, StoreError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.submit(
            write,
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        );
        rx.recv()
            .unwrap_or_else(|_| Err(StoreError::Commit("the writer thread stopped".to_string())))
    }

    /// Runs every write in one transaction, each in its own savepoint, and
    /// commits. If the commit fails, every write fails.
    pub(super) fn commit_batch(
        conn: &mut Connection,
        batch: Vec<Write>,
    ) -> Vec<Result<Applied, StoreError>> {
        // IMMEDIATE: the write lock is taken at BEGIN, where the busy
        // timeout waits for it, never later when a read snapshot would have
        // to be upgraded (which fails at once if another process of the
        // site wrote meanwhile).
        let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
            Ok(tx) => tx,
            Err(e) => {
                let text = e.to_string();
                return batch
                    .iter()
                    .map(|_| Err(StoreError::Commit(text.clone())))
                    .collect();
            }
        };
        let mut outcomes = Vec::with_capacity(batch.len());
        for w in batch {
            // Each write in its own savepoint, through cached statements
            // (rusqlite's `Savepoint` parses its SQL text every time, which
            // was a tenth of the writer's time under load).
            let outcome = SqliteStore::savepoint(&tx, "SAVEPOINT w").and_then(|()| {
                match SqliteStore::apply(&tx, w) {
                    Ok(changed) => {
                        SqliteStore::savepoint(&tx, "RELEASE w")?;
                        Ok(changed)
                    }
                    Err(e) => {
                        // A failed write is undone; the others stay.
                        SqliteStore::savepoint(&tx, "ROLLBACK TO w")?;
                        SqliteStore::savepoint(&tx, "RELEASE w")?;
                        Err(e)
                    }
                }
            });
            outcomes.push(outcome);
        }
        if let Err(e) = tx.commit() {
            let text = e.to_string();
            for o in &mut outcomes {
                *o = Err(StoreError::Commit(text.clone()));
            }
        }
        outcomes
    }

    /// Runs one savepoint statement (`SAVEPOINT w`, `RELEASE w`,
    /// `ROLLBACK TO w`), prepared once.
    pub(super) fn savepoint(tx: &Connection, sql: &str) -> Result<(), StoreError> {
        tx.prepare_cached(sql)?.execute([])?;
        Ok(())
    }

    /// Fails with [`StoreError::Fenced`] unless `table` is owned under
    /// `epoch` (the table row is then write-locked by this transaction);
    /// else the table's `last_active` and `finished_at`, read in the same
    /// query for the append.
    pub(super) fn fence(
        tx: &Connection,
        table: &str,
        epoch: Epoch,
    ) -> Result<Liveness, StoreError> {
        let row: Option<(Epoch, Option<i64>, Option<i64>)> = tx
            .prepare_cached("SELECT epoch, last_active, finished_at FROM tables WHERE id = ?1")?
            .query_row(params![table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        match row {
            Some((c, last_active, finished_at)) if c == epoch => Ok(Liveness {
                last_active,
                finished_at,
            }),
            Some((current, ..)) => Err(StoreError::Fenced {
                table: table.to_string(),
                epoch,
                current,
            }),
            None => Err(StoreError::Corrupt(format!("no table {table}"))),
        }
    }

    /// One write inside a transaction; `Changed(false)` when it changed
    /// nothing (a seat that is not free).
    /// Applies one write inside the batch's transaction.
    pub(super) fn apply(tx: &Connection, w: Write) -> Result<Applied, StoreError> {
        match w {
            Write::Create(table, node) => create(tx, table, node),
            Write::Restore(dump) => restore(tx, dump),
            Write::Append(w) => w.apply(tx),
            Write::Abandon(w) => w.apply(tx),
            Write::Fill(w) => w.apply(tx),
            Write::Finish(w) => w.apply(tx),
            Write::TakeSeat(w) => w.apply(tx),
            Write::Contribute(w) => w.apply(tx),
            Write::Concede(w) => w.apply(tx),
            Write::Retoken(w) => w.apply(tx),
            Write::Heartbeat(node) => heartbeat(tx, node),
            Write::Leave(node) => leave(tx, node),
            Write::Claim(w) => w.apply(tx),
            Write::Release(w) => w.apply(tx),
            Write::SiteSecret(fresh) => site_secret(tx, fresh),
            Write::Analysis(w) => w.apply(tx),
            Write::Result(w) => w.apply(tx),
            Write::Relation(c) => super::relations::apply(tx, c),
            Write::Passkey(w) => super::passkeys::apply(tx, w),
            Write::Ticket(w) => super::tickets::apply(tx, w),
            Write::Tournament(w) => super::tournaments::apply(tx, w),
        }
    }

    /// Inserts a table's header and seats (not its actions).
    pub(super) fn insert_table(
        tx: &Connection,
        t: &StoredTable,
        last_active: Option<i64>,
        ended: Option<&str>,
    ) -> Result<(), StoreError> {
        tx.execute(
            "INSERT INTO tables (id, game, rules_version, players, options, seed, seed_hash,
                                         config, created_at, finished_at, public, invite_hash,
                                         creator_hash, owner, last_active, fair_secret,
                                         contributions, ended, rematch, rematch_of, result,
                                         fair_scheme)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,
                             COALESCE(?17, ?9), ?15, ?16, ?18, ?19, ?20, ?21, ?22)",
            params![
                t.id,
                t.game,
                t.rules_version,
                t.players as i64,
                serde_json::to_string(&t.options)?,
                if t.fair.is_some() {
                    String::new()
                } else {
                    t.seed.to_string()
                },
                t.seed_hash,
                serde_json::to_string(&t.config)?,
                t.created_at,
                t.finished_at,
                i64::from(t.access.public),
                t.access.invite_hash,
                t.access.creator_hash,
                t.access.owner,
                t.fair.as_ref().map(|f| registry::fair::hex(&f.secret)),
                t.fair
                    .as_ref()
                    .map(|f| contributions_json(&f.contributions)),
                last_active,
                ended,
                t.social.rematch,
                t.social.rematch_of,
                t.social.result,
                t.fair.as_ref().map(crate::store::columns::fair_scheme),
            ],
        )?;
        for s in &t.seats {
            let (kind, bot, name, token_hash) = match &s.kind {
                SeatKind::Bot(b) => ("bot", Some(b.as_str()), None, None),
                SeatKind::Human { name, token_hash } => {
                    ("human", None, name.as_deref(), token_hash.as_deref())
                }
            };
            tx.execute(
                "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, player, origin,
                                    conceded_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    t.id,
                    s.seat.index() as i64,
                    kind,
                    bot,
                    name,
                    token_hash,
                    t.social.players.get(&s.seat),
                    t.social.origins.get(&s.seat),
                    t.social.conceded.get(&s.seat).map(|&at| at as i64)
                ],
            )?;
        }
        Ok(())
    }

    /// Inserts one action row.
    pub(super) fn insert_action(
        tx: &Connection,
        table: &str,
        action: &StoredAction,
        at: i64,
    ) -> Result<(), StoreError> {
        tx.prepare_cached(
            "INSERT INTO actions (table_id, seq, seat, action, at, stand_in)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            table,
            action.seq as i64,
            action.seat.index() as i64,
            action.action,
            at,
            action.stand_in.then_some(1i64)
        ])?;
        Ok(())
    }
}

/// Applies `Write::Create`.
pub(super) fn create(
    tx: &Connection,
    t: Box<StoredTable>,
    node: String,
) -> Result<Applied, StoreError> {
    SqliteStore::insert_table(tx, &t, None, None)?;
    tx.execute(
        "UPDATE tables SET owner_node = ?2, epoch = 1 WHERE id = ?1",
        params![t.id, node],
    )?;
    if let Some(old) = &t.social.rematch_of {
        let linked = tx.execute(
            "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
            params![old, t.id],
        )?;
        if linked != 1 {
            return Err(StoreError::Corrupt(format!(
                "table {old} has a rematch already"
            )));
        }
    }
    for a in &t.actions {
        SqliteStore::insert_action(tx, &t.id, a, t.created_at)?;
    }
    Ok(Applied::Changed(true))
}

/// Applies `Write::Restore`.
pub(super) fn restore(tx: &Connection, d: Box<TableDump>) -> Result<Applied, StoreError> {
    let t = &d.table;
    SqliteStore::insert_table(tx, t, d.last_active, d.ended.as_deref())?;
    for (i, a) in t.actions.iter().enumerate() {
        let at = d.action_times.get(i).copied().unwrap_or(t.created_at);
        SqliteStore::insert_action(tx, &t.id, a, at)?;
    }
    Ok(Applied::Changed(true))
}

impl Append {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Append {
            table,
            action,
            at,
            ends,
            epoch,
        } = self;
        let live = SqliteStore::fence(tx, &table, epoch)?;
        if live.finished_at.is_some() {
            return Err(StoreError::Corrupt(format!(
                "table {table} is over: action {} refused",
                action.seq
            )));
        }
        SqliteStore::insert_action(tx, &table, &action, at)?;
        // The game's end goes in the same transaction as its last
        // action, so a crash cannot leave a game over but not marked so. `last_active` only serves the sweep of idle
        // tables (hours): it is moved on at most once a minute, not
        // with every action (rewriting the row and its index was a
        // good part of each commit).
        let stale = live.last_active.is_none_or(|l| at - l >= ACTIVE_GRAIN_S);
        if ends || stale {
            let finished = ends.then_some(at);
            let ended = ends.then_some("over");
            tx.prepare_cached(
                "UPDATE tables SET last_active = ?2,
                       finished_at = COALESCE(finished_at, ?3), ended = COALESCE(ended, ?4)
                     WHERE id = ?1",
            )?
            .execute(params![table, at, finished, ended])?;
        }
        Ok(Applied::Changed(true))
    }
}

impl Abandon {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Abandon {
            before,
            unstarted_before,
            at,
        } = self;
        // The ids come from the update itself, so a table a join
        // or an action saved meanwhile is neither ended nor told
        // it was.
        let ids: Vec<String> = tx
            .prepare(&format!(
                "UPDATE tables SET finished_at = ?3, ended = 'abandoned' WHERE {IDLE}
                     RETURNING id"
            ))?
            .query_map(params![before, unstarted_before, at], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(Applied::Ids(ids))
    }
}

impl Fill {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Fill {
            table,
            seat,
            bot,
            epoch,
        } = self;
        SqliteStore::fence(tx, &table, epoch)?;
        let changed = tx.execute(
            "UPDATE seats SET kind = 'bot', bot = ?3, name = NULL
                 WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL
                   AND EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND finished_at IS NULL)",
            params![table, seat.index() as i64, bot],
        )?;
        Ok(Applied::Changed(changed == 1))
    }
}

impl Finish {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Finish {
            table,
            at,
            ended,
            epoch,
        } = self;
        if let Some(epoch) = epoch {
            SqliteStore::fence(tx, &table, epoch)?;
        }
        tx.execute(
            "UPDATE tables SET finished_at = ?2, ended = ?3
                 WHERE id = ?1 AND finished_at IS NULL",
            params![table, at, ended],
        )?;
        Ok(Applied::Changed(true))
    }
}

impl TakeSeat {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let TakeSeat {
            table,
            seat,
            name,
            token_hash,
            contribution,
            player,
            origin,
            epoch,
        } = self;
        SqliteStore::fence(tx, &table, epoch)?;
        let changed = tx.execute(
            "UPDATE seats SET name = ?3, token_hash = ?4, player = ?5, origin = ?6
                 WHERE table_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS NULL
                   AND EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND finished_at IS NULL)",
            params![table, seat.index() as i64, name, token_hash, player, origin],
        )?;
        if changed == 1 {
            tx.execute(
                "UPDATE tables SET last_active = ?2 WHERE id = ?1",
                params![table, crate::clock::unix_now()],
            )?;
            if let Some(c) = contribution {
                let mut all = contributions(tx, &table)?;
                all.insert(seat, c);
                tx.execute(
                    "UPDATE tables SET contributions = ?2 WHERE id = ?1",
                    params![table, contributions_json(&all)],
                )?;
            }
        }
        Ok(Applied::Changed(changed == 1))
    }
}

impl Contribute {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Contribute {
            table,
            seat,
            value,
            epoch,
        } = self;
        let live = SqliteStore::fence(tx, &table, epoch)?;
        if live.finished_at.is_some() {
            return Ok(Applied::Changed(false));
        }
        let mut all = contributions(tx, &table)?;
        if all.contains_key(&seat) {
            return Ok(Applied::Changed(false));
        }
        all.insert(seat, value);
        tx.execute(
            "UPDATE tables SET contributions = ?2, last_active = ?3 WHERE id = ?1",
            params![table, contributions_json(&all), crate::clock::unix_now()],
        )?;
        Ok(Applied::Changed(true))
    }
}

impl Concede {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Concede {
            table,
            seat,
            at,
            epoch,
        } = self;
        let live = SqliteStore::fence(tx, &table, epoch)?;
        if live.finished_at.is_some() {
            return Ok(Applied::Changed(false));
        }
        let changed = tx.execute(
            "UPDATE seats SET conceded_at = ?3
                 WHERE table_id = ?1 AND seat = ?2 AND kind = 'human'
                   AND token_hash IS NOT NULL AND conceded_at IS NULL",
            params![table, seat.index() as i64, at as i64],
        )?;
        Ok(Applied::Changed(changed == 1))
    }
}

impl Retoken {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let live = SqliteStore::fence(tx, &self.table, self.epoch)?;
        if live.finished_at.is_some() {
            return Ok(Applied::Changed(false));
        }
        let changed = tx.execute(
            "UPDATE seats SET token_hash = ?4
                 WHERE table_id = ?1 AND seat = ?2 AND kind = 'human'
                   AND token_hash IS NOT NULL AND player = ?3",
            params![
                self.table,
                self.seat.index() as i64,
                self.player,
                self.token_hash
            ],
        )?;
        Ok(Applied::Changed(changed == 1))
    }
}

/// Applies `Write::Heartbeat`.
pub(super) fn heartbeat(tx: &Connection, node: Node) -> Result<Applied, StoreError> {
    tx.prepare_cached(
        "INSERT INTO nodes (id, url, heartbeat_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (id) DO UPDATE SET url = ?2, heartbeat_ms = ?3",
    )?
    .execute(params![node.id, node.url, now_ms()])?;
    Ok(Applied::Changed(true))
}

/// Applies `Write::Leave`.
pub(super) fn leave(tx: &Connection, node: String) -> Result<Applied, StoreError> {
    tx.execute("DELETE FROM nodes WHERE id = ?1", params![node])?;
    Ok(Applied::Changed(true))
}

impl Claim {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Claim { table, node, lease } = self;
        let epoch: Option<Epoch> = tx
            .prepare_cached(&format!(
                "UPDATE tables SET owner_node = ?2, epoch = epoch + 1
                     WHERE id = ?1 AND {OWNER_GONE} RETURNING epoch"
            ))?
            .query_row(params![table, node, alive_since(lease)], |r| r.get(0))
            .optional()?;
        if let Some(e) = epoch {
            return Ok(Applied::Owner(Ownership::Mine(e)));
        }
        let owner: Option<(String, String)> = tx
            .query_row(
                "SELECT t.owner_node, COALESCE(n.url, '') FROM tables t
                     LEFT JOIN nodes n ON n.id = t.owner_node WHERE t.id = ?1",
                params![table],
                |r| {
                    Ok((
                        r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                        r.get(1)?,
                    ))
                },
            )
            .optional()?;
        Ok(Applied::Owner(match owner {
            None => Ownership::Missing,
            Some((id, url)) => Ownership::Other(Node { id, url }),
        }))
    }
}

impl Release {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Release { table, node, epoch } = self;
        let changed = tx.execute(
            "UPDATE tables SET owner_node = NULL
                 WHERE id = ?1 AND owner_node = ?2 AND epoch = ?3",
            params![table, node, epoch],
        )?;
        Ok(Applied::Changed(changed == 1))
    }
}

/// Applies `Write::SiteSecret`.
pub(super) fn site_secret(tx: &Connection, fresh: String) -> Result<Applied, StoreError> {
    tx.prepare_cached(
        "INSERT INTO site (key, value) VALUES ('secret', ?1)
             ON CONFLICT (key) DO NOTHING",
    )?
    .execute(params![fresh])?;
    let value = tx
        .prepare_cached("SELECT value FROM site WHERE key = 'secret'")?
        .query_row([], |r| r.get(0))?;
    Ok(Applied::Text(value))
}

impl Analysis {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let Analysis {
            table,
            format,
            body,
            at,
            seats,
        } = self;
        let n = tx
            .prepare_cached(
                "INSERT INTO analyses (table_id, format, body, created_at)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (table_id) DO UPDATE SET format = ?2, body = ?3,
                       created_at = ?4",
            )?
            .execute(params![table, format, body, at])?;
        tx.prepare_cached("DELETE FROM analysis_seats WHERE table_id = ?1")?
            .execute(params![table])?;
        for a in seats {
            tx.prepare_cached(
                "INSERT INTO analysis_seats (table_id, seat, decisions, accuracy, mistakes, blunders)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                table,
                a.seat,
                i64::try_from(a.decisions).unwrap_or(i64::MAX),
                a.accuracy,
                i64::try_from(a.mistakes).unwrap_or(i64::MAX),
                i64::try_from(a.blunders).unwrap_or(i64::MAX)
            ])?;
        }
        Ok(Applied::Changed(n > 0))
    }
}

impl RecordResult {
    fn apply(self, tx: &Connection) -> Result<Applied, StoreError> {
        let RecordResult { table, result } = self;
        let changed = tx
            .prepare_cached(
                "UPDATE tables SET result = ?2 WHERE id = ?1 AND result IS NULL
                       AND finished_at IS NOT NULL AND ended = 'over'",
            )?
            .execute(params![table, result.outcome])?;
        if changed != 1 {
            return Ok(Applied::Changed(false));
        }
        if !crate::store::ratings::rateable(&result) {
            return Ok(Applied::Changed(true));
        }
        use crate::store::ratings::{Rating, Recent, Standing, REPEAT_WINDOW_S};
        let mut now = std::collections::HashMap::new();
        let mut recent = Recent::new();
        let since = result.at - REPEAT_WINDOW_S;
        for id in crate::store::ratings::people(&result) {
            // Their pairs older than the window go (nobody else's).
            tx.prepare_cached(
                "DELETE FROM rated_pairs WHERE game = ?1 AND player = ?2 AND at <= ?3",
            )?
            .execute(params![result.game, id, since])?;
            let standing = tx
                .prepare_cached(
                    "SELECT rating, uncertainty, games, first_at FROM ratings
                         WHERE game = ?1 AND player = ?2",
                )?
                .query_row(params![result.game, id], |r| {
                    Ok(Standing {
                        rating: Rating {
                            rating: r.get(0)?,
                            uncertainty: r.get(1)?,
                        },
                        games: r.get(2)?,
                        first_at: r.get(3)?,
                    })
                })
                .optional()?;
            if let Some(standing) = standing {
                now.insert(id.to_string(), standing);
            }
            let mut stmt = tx.prepare_cached(
                "SELECT other, COUNT(*) FROM rated_pairs
                     WHERE game = ?1 AND player = ?2 AND at > ?3 GROUP BY other",
            )?;
            let rows = stmt.query_map(params![result.game, id, since], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (other, n) = row?;
                recent.insert(
                    (id.to_string(), other),
                    u32::try_from(n).unwrap_or(u32::MAX),
                );
            }
        }
        let moves = crate::store::ratings::moves(&result, &now, &recent);
        for m in &moves.ratings {
            tx.prepare_cached(
                "INSERT INTO ratings (game, player, name, rating, uncertainty, score,
                                          games, updated_at, first_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?7)
                     ON CONFLICT (game, player) DO UPDATE SET name = ?3, rating = ?4,
                       uncertainty = ?5, score = ?6, games = ratings.games + 1,
                       updated_at = ?7",
            )?
            .execute(params![
                result.game,
                m.id,
                m.name,
                m.rating.rating,
                m.rating.uncertainty,
                m.rating.score(),
                result.at
            ])?;
            history(tx, &table, &result, m)?;
        }
        for (player, other) in &moves.pairs {
            tx.prepare_cached(
                "INSERT INTO rated_pairs (game, player, other, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![result.game, player, other, result.at])?;
        }
        Ok(Applied::Changed(true))
    }
}

/// Writes a rating update's history point, in the transaction that moves
/// the rating.
fn history(
    tx: &Connection,
    table: &str,
    result: &crate::store::ratings::GameResult,
    m: &crate::store::ratings::Move<'_>,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO rating_history (game, player, table_id, at, rating, uncertainty,
                                     score, seat, place, public)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        result.game,
        m.id,
        table,
        result.at,
        m.rating.rating,
        m.rating.uncertainty,
        m.rating.score(),
        i64::try_from(m.seat).unwrap_or(i64::MAX),
        i64::from(m.place),
        i64::from(result.public)
    ])?;
    Ok(())
}

/// A table's fair-deal contributions as stored, by seat.
fn contributions(
    tx: &Connection,
    table: &str,
) -> Result<std::collections::BTreeMap<game::Seat, [u8; 32]>, StoreError> {
    let stored: Option<String> = tx.query_row(
        "SELECT contributions FROM tables WHERE id = ?1",
        params![table],
        |r| r.get(0),
    )?;
    parse_contributions(stored.as_deref())
}
