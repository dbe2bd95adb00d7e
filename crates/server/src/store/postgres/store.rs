//! The [`Store`] trait on [`PgStore`]: each blocking method runs the async
//! function of `writes` or `reads` that does its work on the store's
//! runtime (`PgStore::block`), or queues an append in its lane
//! (`appends`), and tells the site's processes when the lobby changed.
//! Apart from the functions so the trait reads as a list of what each
//! method runs, and the functions as plain SQL over a pool.

use super::appends::Appending;
use super::reads::{
    count, dump, ids, load, load_unfinished, query, rating_row, summaries, GAMES_OF, LIST,
    LIVE_NODES, ORPHANS,
};
use super::writes::{
    abandon, claim, concede, contribute, create, execute, fill, finish, record, restore, retoken,
    site_secret, take, HEARTBEAT,
};
use super::{notify, PgStore, NODES_CHANNEL};
use crate::store::columns::seat_of;
use crate::store::columns::Append;
use crate::store::lists::{PlayerGame, RatingRow, TableSummary};
use crate::store::model::SeatTaking;
use crate::store::model::{
    Change, Done, Epoch, Node, Ownership, Store, StoreError, StoredAction, StoredTable, TableDump,
};
use crate::store::tournaments::TournamentRow;
use game::Seat;
use std::sync::Arc;
use std::time::Duration;

/// Milliseconds of a lease, for SQL.
fn millis(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX)
}

impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn create_table(&self, t: &StoredTable, node: &str) -> Result<Epoch, StoreError> {
        let made = self.block(create(self.pool(), t.clone(), node.to_string()));
        self.lobby_changed(made.is_ok());
        made
    }

    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }

    fn append_action(
        &self,
        table: &str,
        a: &StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    ) -> Result<(), StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.submit(Appending {
            append: Append {
                table: table.to_string(),
                action: a.clone(),
                at,
                ends,
                epoch,
            },
            done: Box::new(move |r| {
                let _ = tx.send(r);
            }),
        });
        rx.recv().unwrap_or_else(|_| {
            Err(StoreError::Postgres(
                "the appending task stopped before the call ended".to_string(),
            ))
        })
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
        self.submit(Appending {
            append: Append {
                table,
                action,
                at,
                ends,
                epoch,
            },
            done,
        });
    }

    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError> {
        let done = self.block(finish(self.pool(), table.to_string(), at, "over", None));
        self.lobby_changed(done.is_ok());
        done
    }

    fn mark_abandoned(&self, table: &str, at: i64, epoch: Epoch) -> Result<(), StoreError> {
        let done = self.block(finish(
            self.pool(),
            table.to_string(),
            at,
            "abandoned",
            Some(epoch),
        ));
        self.lobby_changed(done.is_ok());
        done
    }

    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError> {
        let ended = self.block(abandon(self.pool(), before, unstarted_before, at));
        self.lobby_changed(ended.as_ref().is_ok_and(|ids| !ids.is_empty()));
        ended
    }

    fn fill_seat(
        &self,
        table: &str,
        seat: Seat,
        bot: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        let filled = self.block(fill(
            self.pool(),
            table.to_string(),
            seat,
            bot.to_string(),
            epoch,
        ));
        self.lobby_changed(filled.as_ref().is_ok_and(|&f| f));
        filled
    }

    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            "SELECT id FROM tables WHERE finished_at IS NULL ORDER BY created_at",
            Vec::new(),
        ))?;
        ids(&rows)
    }

    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError> {
        let all = self.block(query(
            self.pool(),
            "SELECT COUNT(*) FROM tables WHERE finished_at IS NULL",
            Vec::new(),
        ))?;
        let mine = self.block(query(
            self.pool(),
            "SELECT COUNT(*) FROM tables WHERE owner = $1 AND finished_at IS NULL",
            vec![Box::new(owner.to_string())],
        ))?;
        Ok((count(&all)?, count(&mine)?))
    }

    fn take_seat_as(&self, taking: SeatTaking) -> Result<bool, StoreError> {
        let taken = self.block(take(self.pool(), taking));
        self.lobby_changed(taken.as_ref().is_ok_and(|&t| t));
        taken
    }

    fn unrecorded_ids(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let pool = self.pool();
        let after = after.to_string();
        self.block(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT id FROM tables WHERE ended = 'over' AND result IS NULL
                       AND id COLLATE \"C\" > $1 ORDER BY id COLLATE \"C\" LIMIT $2",
                )
                .await?;
            let rows = client.query(&stmt, &[&after, &(limit as i64)]).await?;
            rows.iter()
                .map(|r| r.try_get(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn concede(&self, table: &str, seat: Seat, at: u64, epoch: Epoch) -> Result<bool, StoreError> {
        self.block(concede(self.pool(), table.to_string(), seat, at, epoch))
    }

    fn retoken(
        &self,
        table: &str,
        seat: Seat,
        player: &str,
        token_hash: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        self.block(retoken(
            self.pool(),
            table.to_string(),
            seat,
            player.to_string(),
            token_hash.to_string(),
            epoch,
        ))
    }

    fn contribute(
        &self,
        table: &str,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        let added = self.block(contribute(
            self.pool(),
            table.to_string(),
            seat,
            value,
            epoch,
        ));
        self.lobby_changed(added.as_ref().is_ok_and(|&a| a));
        added
    }

    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        self.block(load(self.pool(), id.to_string()))
    }

    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.block(load_unfinished(self.pool()))
    }

    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError> {
        let lines = self.block(summaries(
            self.pool(),
            LIST,
            vec![Box::new(i64::try_from(limit).unwrap_or(i64::MAX))],
        ))?;
        Ok(lines.into_iter().map(|(t, _)| t).collect())
    }

    fn record_result(
        &self,
        table: &str,
        result: &crate::store::ratings::GameResult,
    ) -> Result<bool, StoreError> {
        let recorded = self.block(record(self.pool(), table.to_string(), result.clone()));
        self.lobby_changed(recorded.as_ref().is_ok_and(|&r| r));
        recorded
    }

    fn games_of(&self, player: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let lines = self.block(summaries(
            self.pool(),
            GAMES_OF,
            vec![
                Box::new(player.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        lines
            .into_iter()
            .map(|(table, seat)| {
                Ok(PlayerGame {
                    table,
                    seat: seat_of(seat.unwrap_or(-1))?,
                })
            })
            .collect()
    }

    fn leaderboard(&self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StoreError> {
        const BOARD: &str = concat!(
            "SELECT ",
            rating_columns!(),
            " FROM ratings",
            // (a row is made, at 0 games, to lock it while a result whose
            // ratings did not move that person is recorded)
            " WHERE game = $1 AND games > 0 ORDER BY score DESC, games DESC, player LIMIT $2"
        );
        let rows = self.block(query(
            self.pool(),
            BOARD,
            vec![
                Box::new(game.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        rows.iter().map(rating_row).collect()
    }

    fn put_analysis(
        &self,
        table: &str,
        format: &str,
        body: &str,
        at: i64,
        seats: &[crate::store::profile::SeatAccuracy],
    ) -> Result<(), StoreError> {
        self.block(super::profile::put_analysis(
            self.pool(),
            table.to_string(),
            format.to_string(),
            body.to_string(),
            at,
            seats.to_vec(),
        ))
    }

    fn analysis(&self, table: &str) -> Result<Option<(String, String)>, StoreError> {
        const GET: &str = "SELECT format, body FROM analyses WHERE table_id = $1";
        let rows = self.block(query(self.pool(), GET, vec![Box::new(table.to_string())]))?;
        match rows.first() {
            Some(r) => Ok(Some((r.try_get(0)?, r.try_get(1)?))),
            None => Ok(None),
        }
    }

    fn profile(
        &self,
        short: &str,
        points: usize,
        games: usize,
    ) -> Result<crate::store::profile::Lookup, StoreError> {
        self.block(super::profile::profile(
            self.pool(),
            short.to_string(),
            points,
            games,
        ))
    }

    fn find_person(&self, short: &str) -> Result<crate::store::relations::Person, StoreError> {
        self.block(super::relations::find_person(
            self.pool(),
            short.to_string(),
        ))
    }

    fn relations_of(
        &self,
        owner: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::relations::RelationRow>, StoreError> {
        self.block(super::relations::relations_of(
            self.pool(),
            owner.to_string(),
            limit,
        ))
    }

    fn set_relation(
        &self,
        change: crate::store::relations::RelationChange,
    ) -> Result<crate::store::relations::SetOutcome, StoreError> {
        self.block(super::relations::set_relation(self.pool(), change))
    }

    fn blocks(&self, owner: &str, other: &str) -> Result<bool, StoreError> {
        self.block(super::relations::blocks(
            self.pool(),
            owner.to_string(),
            other.to_string(),
        ))
    }

    fn add_passkey(
        &self,
        row: &crate::store::passkeys::PasskeyRow,
        cap: usize,
    ) -> Result<bool, StoreError> {
        self.block(super::passkeys::add(self.pool(), row.clone(), cap))
    }

    fn passkey(&self, id: &str) -> Result<Option<crate::store::passkeys::PasskeyRow>, StoreError> {
        self.block(super::passkeys::passkey(self.pool(), id.to_string()))
    }

    fn passkeys_of(
        &self,
        player: &str,
    ) -> Result<Vec<crate::store::passkeys::PasskeyRow>, StoreError> {
        self.block(super::passkeys::passkeys_of(
            self.pool(),
            player.to_string(),
        ))
    }

    fn passkey_used(&self, id: &str, passkey: &str, at: i64) -> Result<(), StoreError> {
        self.block(super::passkeys::used(
            self.pool(),
            id.to_string(),
            passkey.to_string(),
            at,
        ))
    }

    fn remove_passkey(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        self.block(super::passkeys::remove(
            self.pool(),
            player.to_string(),
            id.to_string(),
        ))
    }

    fn put_ticket(&self, row: &crate::store::tickets::TicketRow) -> Result<(), StoreError> {
        self.block(super::tickets::put(self.pool(), row.clone()))
    }

    fn drop_ticket(&self, id: &str) -> Result<(), StoreError> {
        self.block(super::tickets::drop(self.pool(), id.to_string()))
    }

    fn stray_tickets(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<crate::store::tickets::TicketRow>, StoreError> {
        self.block(super::tickets::strays(
            self.pool(),
            node.to_string(),
            millis(lease),
            i64::try_from(limit).unwrap_or(i64::MAX),
        ))
    }

    fn take_ticket(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError> {
        self.block(super::tickets::take(
            self.pool(),
            id.to_string(),
            from.to_string(),
            to.to_string(),
        ))
    }

    fn put_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        self.block(super::tournaments::put(self.pool(), row.clone()))
    }

    fn save_tournament(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        status: &str,
    ) -> Result<bool, StoreError> {
        self.block(super::tournaments::save(
            self.pool(),
            id.to_string(),
            version,
            doc.to_string(),
            status.to_string(),
        ))
    }

    fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        self.block(super::tournaments::one(self.pool(), id.to_string()))
    }

    fn tournaments(&self, limit: usize) -> Result<Vec<TournamentRow>, StoreError> {
        self.block(super::tournaments::newest(
            self.pool(),
            i64::try_from(limit).unwrap_or(i64::MAX),
        ))
    }

    fn driven_tournaments(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        self.block(super::tournaments::driven(
            self.pool(),
            node.to_string(),
            millis(lease),
            i64::try_from(limit).unwrap_or(i64::MAX),
        ))
    }

    fn take_tournament(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError> {
        self.block(super::tournaments::take(
            self.pool(),
            id.to_string(),
            from.to_string(),
            to.to_string(),
        ))
    }

    fn enter_tournament(&self, id: &str, player: &str, at: i64) -> Result<(), StoreError> {
        self.block(super::tournaments::enter(
            self.pool(),
            id.to_string(),
            player.to_string(),
            at,
        ))
    }

    fn tournaments_of(&self, player: &str, limit: usize) -> Result<Vec<TournamentRow>, StoreError> {
        self.block(super::tournaments::of(
            self.pool(),
            player.to_string(),
            i64::try_from(limit).unwrap_or(i64::MAX),
        ))
    }

    fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StoreError> {
        const MINE: &str = concat!(
            "SELECT ",
            rating_columns!(),
            " FROM ratings",
            " WHERE player = $1 AND game = ANY($2) AND games > 0 ORDER BY game"
        );
        let games: Vec<String> = registry::GAMES.iter().map(|g| g.to_string()).collect();
        let rows = self.block(query(
            self.pool(),
            MINE,
            vec![Box::new(player.to_string()), Box::new(games)],
        ))?;
        rows.iter().map(rating_row).collect()
    }

    fn heartbeat(&self, node: &Node) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            HEARTBEAT,
            vec![Box::new(node.id.clone()), Box::new(node.url.clone())],
        ))
        .map(|_| ())
    }

    fn leave(&self, node: &str) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            "DELETE FROM nodes WHERE id = $1",
            vec![Box::new(node.to_string())],
        ))?;
        // The others may take this process's tables over at once.
        let pool = self.pool();
        let payload = node.to_string();
        self.block(async move {
            notify(pool, NODES_CHANNEL, payload).await;
            Ok(())
        })
    }

    fn claim(&self, id: &str, node: &str, lease: Duration) -> Result<Ownership, StoreError> {
        self.block(claim(
            self.pool(),
            id.to_string(),
            node.to_string(),
            millis(lease),
        ))
    }

    fn release(&self, id: &str, node: &str, epoch: Epoch) -> Result<(), StoreError> {
        self.block(execute(
            self.pool(),
            "UPDATE tables SET owner_node = NULL WHERE id = $1 AND owner_node = $2 AND epoch = $3",
            vec![
                Box::new(id.to_string()),
                Box::new(node.to_string()),
                Box::new(epoch),
            ],
        ))
        .map(|_| ())
    }

    fn orphans(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            ORPHANS,
            vec![
                Box::new(node.to_string()),
                Box::new(millis(lease)),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        ids(&rows)
    }

    fn live_nodes(&self, lease: Duration) -> Result<Vec<Node>, StoreError> {
        let rows = self.block(query(
            self.pool(),
            LIVE_NODES,
            vec![Box::new(millis(lease))],
        ))?;
        rows.iter()
            .map(|r| {
                Ok(Node {
                    id: r.try_get(0)?,
                    url: r.try_get(1)?,
                })
            })
            .collect()
    }

    fn ids_after(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        // Byte order, as SQLite's: the "C" collation (migration 4 indexes
        // it), whatever the database's default.
        let rows = self.block(query(
            self.pool(),
            "SELECT id FROM tables WHERE id COLLATE \"C\" > $1
             ORDER BY id COLLATE \"C\" LIMIT $2",
            vec![
                Box::new(after.to_string()),
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        ))?;
        ids(&rows)
    }

    fn dump(&self, id: &str) -> Result<Option<TableDump>, StoreError> {
        self.block(dump(self.pool(), id.to_string()))
    }

    fn restore(&self, d: &TableDump) -> Result<(), StoreError> {
        self.block(restore(self.pool(), d.clone()))
    }

    fn site_secret(&self) -> Result<String, StoreError> {
        self.block(site_secret(self.pool()))
    }
}
