//! The life of a process among others: heartbeats, following the store's
//! changes, adopting a dead process's tables, handing its own over when it
//! stops. Background tasks over the server's state.

use crate::error::Error;
use crate::state::AppState;
use crate::table::Command;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most orphaned tables one process adopts per heartbeat, so survivors
/// share a dead process's tables and none is swamped.
pub(crate) const ADOPT_PER_BEAT: usize = 64;

/// Heartbeats every quarter lease until the server closes. The upkeep
/// (adopting orphans, cutting pipes to dead processes, reclaiming after a
/// missed lease) runs in a task of its own, one at a time, so a long
/// take-over never delays the next heartbeat.
pub(crate) async fn heartbeats(state: AppState) {
    let lease = state.lease();
    let every = (lease / 4).max(Duration::from_millis(50));
    let mut closing = state.closing();
    // When the last heartbeat that succeeded was sent: the store stamped
    // it at some moment after this, so measuring from here never
    // underestimates a gap.
    let mut last_ok = Instant::now();
    let busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
    loop {
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            _ = closing.changed() => return,
        }
        if state.is_draining() {
            return;
        }
        let store = state.store();
        let node = state.node().clone();
        let sent = Instant::now();
        let mut missed = false;
        match tokio::task::spawn_blocking(move || store.heartbeat(&node)).await {
            Ok(Ok(())) if state.is_draining() => {
                // The drain left the site while this heartbeat was on its
                // way: leave again, for good.
                leave(&state).await;
                return;
            }
            Ok(Ok(())) => {
                let gap = last_ok.elapsed();
                if gap > lease {
                    tracing::warn!(
                        "this process missed its lease ({} ms between heartbeats): \
                         handing its tables back and claiming them again",
                        gap.as_millis()
                    );
                    missed = true;
                }
                last_ok = sent;
            }
            Ok(Err(e)) => tracing::error!("heartbeat: {e}"),
            Err(e) => tracing::error!("heartbeat: {e}"),
        }
        if !state.cluster().forwards() || busy.swap(true, Ordering::AcqRel) {
            continue;
        }
        let (state, busy) = (state.clone(), Arc::clone(&busy));
        tokio::spawn(async move {
            if missed {
                reclaim_all(&state).await;
            }
            cut_dead_pipes(&state).await;
            if state.cluster().adopt_orphans && !state.is_draining() {
                adopt(&state).await;
            }
            busy.store(false, Ordering::Release);
        });
    }
}

/// Follows what the other processes change (PostgreSQL's LISTEN/NOTIFY):
/// a lobby change empties the lobby cache; a process that left has its
/// tables taken over at once instead of at the next heartbeat.
pub(crate) async fn follow(
    state: AppState,
    mut changes: tokio::sync::broadcast::Receiver<crate::store::Change>,
) {
    use crate::store::Change;
    use tokio::sync::broadcast::error::RecvError;
    let mut closing = state.closing();
    loop {
        let change = tokio::select! {
            c = changes.recv() => c,
            _ = closing.changed() => return,
        };
        match change {
            Ok(Change::Lobby | Change::Resync) | Err(RecvError::Lagged(_)) => {
                state.lobby_cache().invalidate();
            }
            Ok(Change::Left(node)) => {
                state.lobby_cache().invalidate();
                if node != state.node().id
                    && state.cluster().forwards()
                    && state.cluster().adopt_orphans
                    && !state.is_draining()
                {
                    let state = state.clone();
                    tokio::spawn(async move {
                        state.cluster().pipes.cut_node(&node);
                        adopt(&state).await;
                    });
                }
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// Removes this process from the site: its tables may be claimed by the
/// others at once.
pub(crate) async fn leave(state: &AppState) {
    let store = state.store();
    let node = state.node().id.clone();
    match tokio::task::spawn_blocking(move || store.leave(&node)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::error!("leaving the site: {e}"),
        Err(e) => tracing::error!("leaving the site: {e}"),
    }
}

/// How long a drain's hand-over may take before the drain goes on.
pub(crate) const HAND_OVER_LIMIT: Duration = Duration::from_secs(3);

/// The cluster's part of a drain: leave the site (so the others may claim
/// this process's tables at once, and take them over within a heartbeat),
/// cut the WebSockets piped to other processes, then close every table's
/// connections so their clients reconnect to another process. A write
/// from a table still in memory after another process claimed it is
/// fenced. A process alone only leaves (so its next start does not wait
/// for its lease).
pub(crate) async fn hand_over(state: &AppState) {
    let work = async {
        leave(state).await;
        if !state.cluster().forwards() {
            return;
        }
        state.cluster().pipes.cut_all();
        let n = state.relinquish_all().await.len();
        tracing::info!("handed {n} tables over to the other processes");
    };
    if tokio::time::timeout(HAND_OVER_LIMIT, work).await.is_err() {
        tracing::warn!("hand-over: gave up after {HAND_OVER_LIMIT:?}");
    }
}

/// Cuts the WebSockets piped to processes that are no longer alive (died,
/// stopped, or left), so their clients reconnect and reach the table's
/// new owner.
pub(crate) async fn cut_dead_pipes(state: &AppState) {
    let nodes = state.cluster().pipes.nodes();
    if nodes.is_empty() {
        return;
    }
    let (store, lease) = (state.store(), state.lease());
    let live = match tokio::task::spawn_blocking(move || store.live_nodes(lease)).await {
        Ok(Ok(live)) => live,
        _ => return,
    };
    for node in nodes {
        if !live.iter().any(|n| n.id == node) {
            state.cluster().pipes.cut_node(&node);
        }
    }
}

/// Takes over tables whose owner died or left.
pub(crate) async fn adopt(state: &AppState) {
    let store = state.store();
    let (node, lease) = (state.node().id.clone(), state.lease());
    let ids = match tokio::task::spawn_blocking(move || store.orphans(&node, lease, ADOPT_PER_BEAT))
        .await
    {
        Ok(Ok(ids)) => ids,
        Ok(Err(e)) => return tracing::error!("looking for orphaned tables: {e}"),
        Err(e) => return tracing::error!("looking for orphaned tables: {e}"),
    };
    for id in ids {
        match state.load_table(&id, None).await {
            Ok(_) => tracing::info!(table = %id, "took over from a process that stopped"),
            Err(Error::Elsewhere(_)) => {}
            Err(e) => tracing::warn!(table = %id, "taking over: {e}"),
        }
    }
}

/// How long a relinquished table may take to leave memory before it is
/// claimed again anyway.
pub(crate) const LEAVE_LIMIT: Duration = Duration::from_secs(2);

/// Every table in memory leaves it (its connections reconnect), then is
/// claimed again once its task has stopped: those another process took
/// meanwhile stay there.
pub(crate) async fn reclaim_all(state: &AppState) {
    for (id, h) in state.relinquish_all().await {
        let deadline = Instant::now() + LEAVE_LIMIT;
        while !h.is_closed() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if let Err(e) = state.load_table(&id, None).await {
            tracing::info!(table = %id, "not reclaimed: {e}");
        }
    }
}

impl AppState {
    /// Makes every table in memory leave it, closing its connections so
    /// they reconnect; returns them.
    pub(crate) async fn relinquish_all(&self) -> Vec<(String, crate::table::TableHandle)> {
        let held = self.handles();
        for (_, h) in &held {
            let _ = h.send(Command::Relinquish).await;
        }
        held
    }
}
