//! `impl Store for SqliteStore`: each call as a write for the writer
//! thread or a read on a reader connection.

use super::reads::*;
use super::sql::*;
use super::write::*;
use super::SqliteStore;
use crate::store::columns::seat_of;
use crate::store::lists::{PlayerGame, RatingRow, TableSummary};
use crate::store::model::SeatTaking;
use crate::store::model::{
    Done, Epoch, Node, Ownership, Store, StoreError, StoredAction, StoredTable, TableDump,
};
use crate::store::tournaments::TournamentRow;
use game::Seat;
use rusqlite::{params, OptionalExtension};
use std::sync::Arc;
use std::time::Duration;

impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn create_table(&self, t: &StoredTable, node: &str) -> Result<Epoch, StoreError> {
        self.write(Write::Create(Box::new(t.clone()), node.to_string()))
            .map(|_| 1)
    }

    fn append_action(
        &self,
        table: &str,
        a: &StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    ) -> Result<(), StoreError> {
        self.write(Write::Append(Append {
            table: table.to_string(),
            action: a.clone(),
            at,
            ends,
            epoch,
        }))
        .map(|_| ())
    }

    fn append_action_then(
        self: Arc<Self>,
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
        done: Done<()>,
    ) {
        self.submit(
            Write::Append(Append {
                table,
                action,
                at,
                ends,
                epoch,
            }),
            Box::new(move |r| done(r.map(|_| ()))),
        );
    }

    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError> {
        self.write(Write::Finish(Finish {
            table: table.to_string(),
            at,
            ended: "over",
            epoch: None,
        }))
        .map(|_| ())
    }

    fn mark_abandoned(&self, table: &str, at: i64, epoch: Epoch) -> Result<(), StoreError> {
        self.write(Write::Finish(Finish {
            table: table.to_string(),
            at,
            ended: "abandoned",
            epoch: Some(epoch),
        }))
        .map(|_| ())
    }

    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError> {
        match self.write(Write::Abandon(Abandon {
            before,
            unstarted_before,
            at,
        }))? {
            Applied::Ids(ids) => Ok(ids),
            other => Err(StoreError::Commit(format!("abandon reported {other:?}"))),
        }
    }

    fn fill_seat(
        &self,
        table: &str,
        seat: Seat,
        bot: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::Fill(Fill {
            table: table.to_string(),
            seat,
            bot: bot.to_string(),
            epoch,
        }))
        .map(Applied::changed)
    }

    fn take_seat_as(&self, taking: SeatTaking) -> Result<bool, StoreError> {
        self.write(Write::TakeSeat(taking)).map(Applied::changed)
    }

    fn unrecorded_ids(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let ids = conn
            .prepare_cached(
                "SELECT id FROM tables WHERE ended = 'over' AND result IS NULL AND id > ?1
                 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![after, limit as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn retoken(
        &self,
        table: &str,
        seat: Seat,
        player: &str,
        token_hash: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::Retoken(Retoken {
            table: table.to_string(),
            seat,
            player: player.to_string(),
            token_hash: token_hash.to_string(),
            epoch,
        }))
        .map(Applied::changed)
    }

    fn concede(&self, table: &str, seat: Seat, at: u64, epoch: Epoch) -> Result<bool, StoreError> {
        self.write(Write::Concede(Concede {
            table: table.to_string(),
            seat,
            at,
            epoch,
        }))
        .map(Applied::changed)
    }

    fn contribute(
        &self,
        table: &str,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.write(Write::Contribute(Contribute {
            table: table.to_string(),
            seat,
            value,
            epoch,
        }))
        .map(Applied::changed)
    }

    fn heartbeat(&self, node: &Node) -> Result<(), StoreError> {
        self.write(Write::Heartbeat(node.clone())).map(|_| ())
    }

    fn leave(&self, node: &str) -> Result<(), StoreError> {
        self.write(Write::Leave(node.to_string())).map(|_| ())
    }

    fn claim(&self, id: &str, node: &str, lease: Duration) -> Result<Ownership, StoreError> {
        match self.write(Write::Claim(Claim {
            table: id.to_string(),
            node: node.to_string(),
            lease,
        }))? {
            Applied::Owner(o) => Ok(o),
            other => Err(StoreError::Commit(format!("claim reported {other:?}"))),
        }
    }

    fn release(&self, id: &str, node: &str, epoch: Epoch) -> Result<(), StoreError> {
        self.write(Write::Release(Release {
            table: id.to_string(),
            node: node.to_string(),
            epoch,
        }))
        .map(|_| ())
    }

    fn orphans(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM tables t WHERE owner_node IS NOT NULL AND owner_node <> ?1
               AND finished_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM nodes n
                               WHERE n.id = t.owner_node AND n.heartbeat_ms > ?2)
             LIMIT ?3",
        )?;
        let ids = stmt
            .query_map(params![node, alive_since(lease), limit as i64], |r| {
                r.get(0)
            })?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn live_nodes(&self, lease: Duration) -> Result<Vec<Node>, StoreError> {
        let conn = self.reader();
        let mut stmt =
            conn.prepare_cached("SELECT id, url FROM nodes WHERE heartbeat_ms > ?1 ORDER BY id")?;
        let nodes = stmt
            .query_map(params![alive_since(lease)], |r| {
                Ok(Node {
                    id: r.get(0)?,
                    url: r.get(1)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(nodes)
    }

    fn ids_after(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt =
            conn.prepare_cached("SELECT id FROM tables WHERE id > ?1 ORDER BY id LIMIT ?2")?;
        let ids = stmt
            .query_map(params![after, limit as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn dump(&self, id: &str) -> Result<Option<TableDump>, StoreError> {
        let conn = self.reader();
        let tx = conn.unchecked_transaction()?;
        let Some(table) = SqliteStore::load_with(&tx, id)? else {
            return Ok(None);
        };
        let (last_active, ended) = tx.query_row(
            "SELECT last_active, ended FROM tables WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let action_times = tx
            .prepare("SELECT at FROM actions WHERE table_id = ?1 ORDER BY seq")?
            .query_map(params![id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        tx.finish()?;
        Ok(Some(TableDump {
            table,
            last_active,
            ended,
            action_times,
        }))
    }

    fn restore(&self, dump: &TableDump) -> Result<(), StoreError> {
        self.write(Write::Restore(Box::new(dump.clone())))
            .map(|_| ())
    }

    fn site_secret(&self) -> Result<String, StoreError> {
        let fresh = registry::fair::hex(&rand::random::<[u8; 32]>());
        match self.write(Write::SiteSecret(fresh))? {
            Applied::Text(value) => Ok(value),
            other => Err(StoreError::Commit(format!(
                "site secret reported {other:?}"
            ))),
        }
    }

    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let conn = self.reader();
        // One read transaction: the header, seats and actions of one
        // moment.
        let tx = conn.unchecked_transaction()?;
        let table = SqliteStore::load_with(&tx, id)?;
        tx.finish()?;
        Ok(table)
    }

    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        let conn = self.reader();
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(t) = SqliteStore::load_with(&conn, &id)? {
                out.push(t);
            }
        }
        Ok(out)
    }

    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .reader()
            .prepare("SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }

    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError> {
        let conn = self.reader();
        let all: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM tables WHERE finished_at IS NULL")?
            .query_row([], |r| r.get(0))?;
        let mine: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM tables WHERE owner = ?1 AND finished_at IS NULL")?
            .query_row(params![owner], |r| r.get(0))?;
        Ok((
            usize::try_from(all).unwrap_or(0),
            usize::try_from(mine).unwrap_or(0),
        ))
    }

    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError> {
        let conn = self.reader();
        let rows: Vec<ListRow> = conn
            .prepare_cached(LIST)?
            .query_map(params![limit as i64], list_row)?
            .collect::<Result<_, _>>()?;
        rows.into_iter().map(|row| summary(&conn, row)).collect()
    }

    fn record_result(
        &self,
        table: &str,
        result: &crate::store::ratings::GameResult,
    ) -> Result<bool, StoreError> {
        self.write(Write::Result(RecordResult {
            table: table.to_string(),
            result: Box::new(result.clone()),
        }))
        .map(Applied::changed)
    }

    fn games_of(&self, player: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let conn = self.reader();
        let rows: Vec<(ListRow, i64)> = conn
            .prepare_cached(GAMES_OF)?
            .query_map(params![player, limit as i64], |r| {
                Ok((list_row(r)?, r.get(8)?))
            })?
            .collect::<Result<_, _>>()?;
        rows.into_iter()
            .map(|(row, seat)| {
                Ok(PlayerGame {
                    table: summary(&conn, row)?,
                    seat: seat_of(seat)?,
                })
            })
            .collect()
    }

    fn leaderboard(&self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StoreError> {
        let conn = self.reader();
        let rows = conn
            .prepare_cached(concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings WHERE game = ?1 ORDER BY score DESC, games DESC, player LIMIT ?2"
            ))?
            .query_map(params![game, limit as i64], rating_row)?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    fn put_analysis(
        &self,
        table: &str,
        format: &str,
        body: &str,
        at: i64,
        seats: &[crate::store::profile::SeatAccuracy],
    ) -> Result<(), StoreError> {
        self.write(Write::Analysis(Analysis {
            table: table.to_string(),
            format: format.to_string(),
            body: body.to_string(),
            at,
            seats: seats.to_vec(),
        }))
        .map(|_| ())
    }

    fn analysis(&self, table: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(self
            .reader()
            .prepare_cached("SELECT format, body FROM analyses WHERE table_id = ?1")?
            .query_row(params![table], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    fn profile(
        &self,
        short: &str,
        points: usize,
        games: usize,
    ) -> Result<crate::store::profile::Lookup, StoreError> {
        super::profile::profile(&self.reader(), short, points, games)
    }

    fn find_person(&self, short: &str) -> Result<crate::store::relations::Person, StoreError> {
        super::relations::find_person(&self.reader(), short)
    }

    fn relations_of(
        &self,
        owner: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::relations::RelationRow>, StoreError> {
        super::relations::relations_of(&self.reader(), owner, limit)
    }

    fn set_relation(
        &self,
        change: crate::store::relations::RelationChange,
    ) -> Result<crate::store::relations::SetOutcome, StoreError> {
        match self.write(Write::Relation(change))? {
            Applied::Set(outcome) => Ok(outcome),
            other => Err(StoreError::Commit(format!("a relation reported {other:?}"))),
        }
    }

    fn blocks(&self, owner: &str, other: &str) -> Result<bool, StoreError> {
        super::relations::blocks(&self.reader(), owner, other)
    }

    fn add_passkey(
        &self,
        row: &crate::store::passkeys::PasskeyRow,
        cap: usize,
    ) -> Result<bool, StoreError> {
        let w = super::write::PasskeyWrite::Add(row.clone(), cap);
        self.write(Write::Passkey(w)).map(Applied::changed)
    }

    fn passkey(&self, id: &str) -> Result<Option<crate::store::passkeys::PasskeyRow>, StoreError> {
        super::passkeys::passkey(&self.reader(), id)
    }

    fn passkeys_of(
        &self,
        player: &str,
    ) -> Result<Vec<crate::store::passkeys::PasskeyRow>, StoreError> {
        super::passkeys::passkeys_of(&self.reader(), player)
    }

    fn passkey_used(&self, id: &str, passkey: &str, at: i64) -> Result<(), StoreError> {
        let w = super::write::PasskeyWrite::Used {
            id: id.to_string(),
            passkey: passkey.to_string(),
            at,
        };
        self.write(Write::Passkey(w)).map(|_| ())
    }

    fn remove_passkey(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        let w = super::write::PasskeyWrite::Remove {
            player: player.to_string(),
            id: id.to_string(),
        };
        self.write(Write::Passkey(w)).map(Applied::changed)
    }

    fn put_ticket(&self, row: &crate::store::tickets::TicketRow) -> Result<(), StoreError> {
        let w = super::write::TicketWrite::Put(row.clone());
        self.write(Write::Ticket(w)).map(|_| ())
    }

    fn drop_ticket(&self, id: &str) -> Result<(), StoreError> {
        let w = super::write::TicketWrite::Drop(id.to_string());
        self.write(Write::Ticket(w)).map(|_| ())
    }

    fn stray_tickets(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<crate::store::tickets::TicketRow>, StoreError> {
        super::tickets::strays(&self.reader(), node, lease, limit)
    }

    fn take_ticket(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError> {
        let w = super::write::TicketWrite::Take {
            id: id.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        };
        self.write(Write::Ticket(w)).map(Applied::changed)
    }

    fn put_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        let w = TournamentWrite::Put(row.clone());
        self.write(Write::Tournament(w)).map(|_| ())
    }

    fn save_tournament(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        status: &str,
    ) -> Result<bool, StoreError> {
        let w = TournamentWrite::Save {
            id: id.to_string(),
            version,
            doc: doc.to_string(),
            status: status.to_string(),
        };
        self.write(Write::Tournament(w)).map(Applied::changed)
    }

    fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        super::tournaments::one(&self.reader(), id)
    }

    fn tournaments(&self, limit: usize) -> Result<Vec<TournamentRow>, StoreError> {
        super::tournaments::newest(&self.reader(), limit)
    }

    fn driven_tournaments(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        super::tournaments::driven(&self.reader(), node, lease, limit)
    }

    fn take_tournament(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError> {
        let w = TournamentWrite::Take {
            id: id.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        };
        self.write(Write::Tournament(w)).map(Applied::changed)
    }

    fn enter_tournament(&self, id: &str, player: &str, at: i64) -> Result<(), StoreError> {
        let w = TournamentWrite::Enter {
            id: id.to_string(),
            player: player.to_string(),
            at,
        };
        self.write(Write::Tournament(w)).map(|_| ())
    }

    fn tournaments_of(&self, player: &str, limit: usize) -> Result<Vec<TournamentRow>, StoreError> {
        super::tournaments::of(&self.reader(), player, limit)
    }

    fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StoreError> {
        let conn = self.reader();
        let mut out = Vec::new();
        for game in registry::GAMES {
            let row = conn
                .prepare_cached(concat!(
                    "SELECT ",
                    rating_columns!(),
                    " FROM ratings WHERE game = ?1 AND player = ?2"
                ))?
                .query_row(params![game, player], rating_row)
                .optional()?;
            out.extend(row);
        }
        Ok(out)
    }
}
