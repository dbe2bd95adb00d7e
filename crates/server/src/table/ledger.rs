//! The table's handle on the store: every write of the table goes through
//! it, under the ownership epoch the table was claimed with.
//!
//! Why one handle: a write the store refuses as fenced (another process
//! claimed the table since) means this copy of the table is stale. The
//! ledger notes it once, whichever write it was, and the table's loop
//! leaves memory after the command at hand (`Table::run`); no write site
//! has to remember to. Writes run on the blocking pool (the store's calls
//! block), and the hot one, an action's append, reports through the
//! store's callback.

use crate::clock::unix_now;
use crate::metrics::Metrics;
use crate::store::{Epoch, Store, StoreError, StoredAction, StoredTable};
use std::sync::Arc;
use tokio::sync::oneshot;

/// Why a write of the table's was not made.
#[derive(Debug, thiserror::Error)]
pub(super) enum WriteError {
    /// The store refused or failed (fenced, too: another process owns the
    /// table now).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store's task went away before it answered.
    #[error("the store dropped the write")]
    Dropped,
}

impl From<WriteError> for crate::error::Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Store(e) => e.into(),
            WriteError::Dropped => crate::error::Error::Internal(e.to_string()),
        }
    }
}

/// Whether this copy of the table still owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owning {
    /// It does: its writes carry the current epoch.
    Yes,
    /// A write was fenced: another process claimed the table. This copy
    /// must leave memory (`Table::run` sees it after the command at hand).
    Fenced,
    /// It let go (handed over, or left memory): nothing more is written.
    Gone,
}

/// See the module docs.
pub(super) struct Ledger {
    store: Arc<dyn Store>,
    table: Arc<str>,
    /// This process's id in the store (the table's owner).
    node: Arc<str>,
    /// The ownership epoch this process claimed the table under: every
    /// write carries it, and the store refuses it once another process
    /// has claimed the table.
    epoch: Epoch,
    owning: Owning,
    metrics: Arc<Metrics>,
}

impl Ledger {
    pub(super) fn new(
        store: Arc<dyn Store>,
        table: Arc<str>,
        node: Arc<str>,
        epoch: Epoch,
        metrics: Arc<Metrics>,
    ) -> Ledger {
        Ledger {
            store,
            table,
            node,
            epoch,
            owning: Owning::Yes,
            metrics,
        }
    }

    /// The store itself, for what is not a write of this table (a
    /// rematch's new table).
    pub(super) fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// This process's id in the store.
    pub(super) fn node(&self) -> &Arc<str> {
        &self.node
    }

    /// A write of this table under its epoch (`write(store, id, epoch)`),
    /// on the blocking pool. A fenced refusal is noted (see the module
    /// docs) and returned like any other.
    pub(super) async fn write<T: Send + 'static>(
        &mut self,
        write: impl FnOnce(&dyn Store, &str, Epoch) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, WriteError> {
        let (store, table, epoch) = (Arc::clone(&self.store), Arc::clone(&self.table), self.epoch);
        let done = tokio::task::spawn_blocking(move || write(store.as_ref(), &table, epoch)).await;
        match done {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => Err(self.note(e).into()),
            Err(_) => Err(WriteError::Dropped),
        }
    }

    /// Appends `action` to the table's record; the answer comes once it is
    /// committed (possibly in one transaction with other tables' actions),
    /// and goes through [`Ledger::appended`]. `ends`: the game's end is
    /// stored with it.
    pub(super) fn append(
        &self,
        action: StoredAction,
        ends: bool,
    ) -> oneshot::Receiver<Result<(), StoreError>> {
        let (done, committed) = oneshot::channel();
        let metrics = Arc::clone(&self.metrics);
        let submitted = std::time::Instant::now();
        Arc::clone(&self.store).append_action_then(
            self.table.to_string(),
            action,
            unix_now(),
            ends,
            self.epoch,
            Box::new(move |r| {
                metrics.committed(submitted.elapsed(), r.is_ok());
                let _ = done.send(r);
            }),
        );
        committed
    }

    /// What an append's answer means for the table.
    pub(super) fn appended(
        &mut self,
        answer: Result<Result<(), StoreError>, oneshot::error::RecvError>,
    ) -> Result<(), WriteError> {
        match answer {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(self.note(e).into()),
            Err(_) => Err(WriteError::Dropped),
        }
    }

    /// A fenced refusal means another process owns the table now.
    fn note(&mut self, e: StoreError) -> StoreError {
        if matches!(e, StoreError::Fenced { .. }) && self.owning == Owning::Yes {
            tracing::warn!(table = %self.table, "another process owns the table now: {e}");
            self.owning = Owning::Fenced;
        }
        e
    }

    /// Whether a write was fenced since the table last looked (then this
    /// copy must leave memory).
    pub(super) fn fenced(&self) -> bool {
        self.owning == Owning::Fenced
    }

    /// Whether this copy has let the table go.
    pub(super) fn gone(&self) -> bool {
        self.owning == Owning::Gone
    }

    /// This copy lets the table go: nothing more is written from here.
    pub(super) fn let_go(&mut self) {
        self.owning = Owning::Gone;
    }

    /// The table as the store has it now (after a refused write: has the
    /// store ended it?).
    pub(super) async fn load(&self) -> Option<StoredTable> {
        let (store, table) = (Arc::clone(&self.store), Arc::clone(&self.table));
        match tokio::task::spawn_blocking(move || store.load(&table)).await {
            Ok(Ok(t)) => t,
            _ => None,
        }
    }

    /// Marks a game over by the rules but not stored so (a crash in
    /// between) as finished; needs no ownership.
    pub(super) async fn mark_finished(&self) {
        let (store, table) = (Arc::clone(&self.store), Arc::clone(&self.table));
        let done =
            tokio::task::spawn_blocking(move || store.mark_finished(&table, unix_now())).await;
        if !matches!(done, Ok(Ok(()))) {
            tracing::error!(table = %self.table, "marking a finished game failed");
        }
    }

    /// Records the game's result and moves its people's ratings, off the
    /// table's task: the store records it once, whoever asks again.
    pub(super) fn record_result(&self, result: crate::social::GameResult) {
        let (store, table) = (Arc::clone(&self.store), Arc::clone(&self.table));
        tokio::task::spawn_blocking(move || {
            if let Err(e) = store.record_result(&table, &result) {
                tracing::error!(table = %table, "recording the result failed: {e}");
            }
        });
    }

    /// Gives the table's ownership up (it left memory), so any process may
    /// take it next.
    pub(super) fn release(&mut self) {
        self.owning = Owning::Gone;
        let (store, table, node, epoch) = (
            Arc::clone(&self.store),
            Arc::clone(&self.table),
            Arc::clone(&self.node),
            self.epoch,
        );
        tokio::task::spawn_blocking(move || {
            if let Err(e) = store.release(&table, &node, epoch) {
                tracing::warn!(table = %table, "releasing ownership: {e}");
            }
        });
    }
}
