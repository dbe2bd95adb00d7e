//! The group commit of appends, the one hot write (see the parent
//! module's doc): each lane is a task that takes every queued append of
//! its tables, runs them pipelined in one transaction, each in its own
//! savepoint, and tells each caller its outcome once the commit is done.
//! Apart from the other writes because its shape (queues, savepoints,
//! futures polled in order) is its own; it shares their fencing and their
//! statement that inserts an action.

use super::errors::chain;
use super::writes::{fenced, FENCE, INSERT_ACTION};
use crate::store::columns::Append;
use crate::store::model::{Done, StoreError};
use deadpool_postgres::{Pool, Transaction};
use std::future::Future;
use std::task::Poll;
use tokio::sync::mpsc;
use tokio_postgres::Statement;

/// The most appends one transaction holds. Each has a savepoint (a
/// subtransaction): PostgreSQL keeps up to 64 of a transaction's in
/// shared memory, past which every snapshot of every session slows down
/// while it runs.
const MAX_BATCH: usize = 64;

/// An append's update of its table: when it was last active and, with its
/// last action, the game's end.
const END_WITH_ACTION: &str = "UPDATE tables SET last_active = $2,
       finished_at = COALESCE(finished_at, $3), ended = COALESCE(ended, $4)
     WHERE id = $1 AND finished_at IS NULL";

/// An append waiting in its lane's queue, and whom to tell its outcome.
pub(super) struct Appending {
    pub(super) append: Append,
    pub(super) done: Done<()>,
}

/// The lane of `table`: one table's appends always go through one lane,
/// so they run in the order they were submitted, and two lanes of one
/// process never lock the same table's row.
pub(super) fn lane_of(table: &str, lanes: usize) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    table.hash(&mut h);
    (h.finish() % lanes.max(1) as u64) as usize
}

/// A lane of the group commit: takes every queued append (at most
/// [`MAX_BATCH`]), commits them in one transaction, then tells each
/// caller. Ends when the store (every sender) is dropped.
pub(super) async fn lane(pool: Pool, mut queue: mpsc::UnboundedReceiver<Appending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queue.recv_many(&mut batch, MAX_BATCH).await > 0 {
        // Every batch (of every lane and every process) locks its tables'
        // rows in one order, byte order of the id, as the sweep does
        // (ABANDON): no cycle of waits, no deadlock. The sort is stable,
        // so a table's appends keep their order.
        batch.sort_by(|a, b| a.append.table.cmp(&b.append.table));
        let (appends, dones): (Vec<Append>, Vec<Done<()>>) =
            batch.drain(..).map(|j| (j.append, j.done)).unzip();
        let outcomes = commit_batch(&pool, &appends).await;
        for (done, outcome) in dones.into_iter().zip(outcomes) {
            done(outcome);
        }
    }
}

/// The statements of an append, prepared on the batch's connection.
struct AppendStatements {
    lock: Statement,
    insert: Statement,
    end: Statement,
}

/// Commits `batch` in one transaction, each append in its own savepoint
/// (see the module doc); the outcome of each, in order. If the
/// transaction cannot begin or go on, every append fails with
/// [`StoreError::Postgres`]; if it fails to commit, every append that had
/// succeeded fails with [`StoreError::Commit`].
async fn commit_batch(pool: &Pool, batch: &[Append]) -> Vec<Result<(), StoreError>> {
    let mut outcomes = Vec::with_capacity(batch.len());
    let failed = match run_batch(pool, batch, &mut outcomes).await {
        Ok(()) => return outcomes,
        Err(e) => e,
    };
    let (commit, text) = match failed {
        StoreError::Commit(text) => (true, text),
        StoreError::Postgres(text) => (false, text),
        other => (false, other.to_string()),
    };
    let mut all = Vec::with_capacity(batch.len());
    for i in 0..batch.len() {
        all.push(match outcomes.get_mut(i) {
            // A failed append keeps its own error: it failed whatever
            // became of the others.
            Some(o) if o.is_err() => std::mem::replace(o, Ok(())),
            _ if commit => Err(StoreError::Commit(text.clone())),
            _ => Err(StoreError::Postgres(text.clone())),
        });
    }
    all
}

/// [`commit_batch`]'s work: pushes the outcome of each append to
/// `outcomes`; an `Err` is a failure of the whole transaction (nothing of
/// it is stored): [`StoreError::Commit`] if it failed to commit.
async fn run_batch(
    pool: &Pool,
    batch: &[Append],
    outcomes: &mut Vec<Result<(), StoreError>>,
) -> Result<(), StoreError> {
    let mut client = pool.get().await?;
    let (lock, insert, end) = futures_util::future::try_join3(
        client.prepare_cached(FENCE),
        client.prepare_cached(INSERT_ACTION),
        client.prepare_cached(END_WITH_ACTION),
    )
    .await?;
    let st = AppendStatements { lock, insert, end };
    let tx = client.transaction().await?;
    while outcomes.len() < batch.len() {
        // Every append still to run, pipelined (one round trip), each in
        // a savepoint nested in the previous one's; the first that fails
        // is rolled back to its savepoint with every later one, which
        // then run again (rarely: a failure is a duplicate or a write of
        // a process that lost the table).
        let from = outcomes.len();
        let pass = in_order(
            batch[from..]
                .iter()
                .enumerate()
                .map(|(i, a)| append_in_savepoint(&tx, &st, from + i, a)),
        )
        .await;
        match pass.iter().position(Result::is_err) {
            None => outcomes.extend(pass),
            Some(bad) => {
                outcomes.extend(pass.into_iter().take(bad + 1));
                tx.batch_execute(&format!("ROLLBACK TO SAVEPOINT a{}", from + bad))
                    .await?;
            }
        }
    }
    tx.commit().await.map_err(|e| StoreError::Commit(chain(&e)))
}

/// Runs `futures` concurrently, polling every unfinished one in order
/// whenever woken, so their first polls (where each sends its statements
/// to the connection) follow the order of the batch, whatever their
/// number; their outputs, in order.
async fn in_order<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let mut running: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = running.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut finished = true;
        for (f, out) in running.iter_mut().zip(outputs.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => finished = false,
                }
            }
        }
        if finished {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// Runs append `a` (the `i`th of its batch) in a new savepoint `a{i}`:
/// the statements are sent at once and run in order (the fence's row lock
/// first); their outcomes are read in the same order, so a fenced write
/// reports [`StoreError::Fenced`] whatever the others said, as a lone
/// transaction would. On `Err` the caller rolls back to the savepoint.
async fn append_in_savepoint(
    tx: &Transaction<'_>,
    st: &AppendStatements,
    i: usize,
    a: &Append,
) -> Result<(), StoreError> {
    let savepoint = format!("SAVEPOINT a{i}");
    let (saved, locked, inserted, ended) = futures_util::future::join4(
        tx.batch_execute(&savepoint),
        tx.query_opt(&st.lock, &[&a.table]),
        tx.execute(
            &st.insert,
            &[
                &a.table,
                &(a.action.seq as i64),
                &(a.action.seat.index() as i64),
                &a.action.action,
                &a.at,
                &a.action.stand_in.then_some(1i64),
            ],
        ),
        // The game's end goes in the same transaction as its last action,
        // so a crash cannot leave a game over but not marked so.
        tx.execute(
            &st.end,
            &[
                &a.table,
                &a.at,
                &a.ends.then_some(a.at),
                &a.ends.then_some("over"),
            ],
        ),
    )
    .await;
    saved?;
    fenced(locked?, &a.table, a.epoch)?;
    inserted?;
    if ended? != 1 {
        return Err(StoreError::Corrupt(format!(
            "table {} is over or missing: action {} refused",
            a.table, a.action.seq
        )));
    }
    Ok(())
}
