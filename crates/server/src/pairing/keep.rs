//! A pool that survives its process: each waiting ticket is stored
//! (`store/tickets.rs`) before its holder hears it waits, and forgotten
//! once seated, cancelled or expired; the seater takes the tickets of a
//! process that is gone (this one's predecessor after a crash, or another
//! process of the site) and puts them back in the pools with the wait
//! they had, so that their pages, asking again, find them.
//!
//! What is not kept: a group being seated when its process died comes
//! back as waiting (its half-made table, if any, has a seat nobody takes
//! and is abandoned as any such table is); a seated ticket's answer (the
//! page that missed it finds its seat under My games).

use crate::error::Error;
use crate::state::pairing::{Joining, PRESETS};
use crate::state::AppState;
use crate::store::tickets::TicketRow;
use std::time::{Duration, Instant};

/// The most tickets taken over at once.
const ADOPT_AT_ONCE: usize = 1_000;

/// Unix milliseconds now.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Ticket `id` of `who` as stored, held by process `node`.
fn row(id: &str, who: &Joining, node: &str) -> TicketRow {
    TicketRow {
        id: id.to_string(),
        preset: PRESETS[who.preset].id.to_string(),
        player: who.player.clone(),
        name: who.name.clone(),
        addr: who.addr.0.to_string(),
        bot: who.bot.clone(),
        wait_ms: i64::try_from(who.wait.as_millis()).unwrap_or(i64::MAX),
        contribution: who.contribution.map(|c| registry::fair::hex(&c)),
        joined_ms: now_ms(),
        node: node.to_string(),
    }
}

/// The person of a stored ticket, if it still reads as one (a preset
/// since withdrawn does not).
fn joining(t: &TicketRow) -> Option<Joining> {
    Some(Joining {
        preset: PRESETS.iter().position(|p| p.id == t.preset)?,
        name: t.name.clone(),
        player: t.player.clone(),
        addr: crate::addr::ClientAddr(t.addr.parse().ok()?),
        bot: t.bot.clone(),
        wait: Duration::from_millis(u64::try_from(t.wait_ms).ok()?),
        contribution: match &t.contribution {
            Some(c) => Some(registry::fair::parse_contribution(c).ok()?),
            None => None,
        },
    })
}

/// Stores waiting ticket `id` of `who`.
pub(super) async fn keep(state: &AppState, id: &str, who: &Joining) -> Result<(), Error> {
    let store = state.store();
    let row = row(id, who, &state.node().id);
    tokio::task::spawn_blocking(move || store.put_ticket(&row))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(())
}

/// Forgets tickets `ids` (best effort: one left over is a stray this
/// process holds, which nobody takes, and which its next start forgets).
pub(super) async fn forget(state: &AppState, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    let store = state.store();
    let done =
        tokio::task::spawn_blocking(move || ids.iter().try_for_each(|id| store.drop_ticket(id)))
            .await;
    if let Err(e) = done
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
    {
        tracing::error!("pairing: forgetting tickets: {e}");
    }
}

/// Takes the tickets of processes that are gone and puts them back in
/// the pools; how many. Alone (no cluster) every other process's ticket
/// is a predecessor's; in a cluster, those of processes past their lease.
pub(super) async fn adopt(state: &AppState) -> usize {
    let lease = if state.cluster().adopt_orphans {
        state.lease()
    } else {
        Duration::ZERO
    };
    let store = state.store();
    let me = state.node().id.clone();
    let taken = tokio::task::spawn_blocking(move || {
        let mut taken = Vec::new();
        for t in store.stray_tickets(&me, lease, ADOPT_AT_ONCE)? {
            if store.take_ticket(&t.id, &t.node, &me)? {
                taken.push(t);
            }
        }
        Ok::<_, crate::store::StoreError>(taken)
    })
    .await;
    let taken = match taken {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => {
            tracing::error!("pairing: taking over tickets: {e}");
            return 0;
        }
        Err(e) => {
            tracing::error!("pairing: taking over tickets: {e}");
            return 0;
        }
    };
    let (now, now_ms) = (Instant::now(), now_ms());
    let mut unreadable = Vec::new();
    let mut back = 0;
    {
        let mut book = state.pairing().book();
        for t in &taken {
            let waited = Duration::from_millis(u64::try_from(now_ms - t.joined_ms).unwrap_or(0));
            match joining(t) {
                Some(who) => {
                    if book.restore(t.id.clone(), who, waited, now) {
                        back += 1;
                    } else {
                        unreadable.push(t.id.clone());
                    }
                }
                _ => unreadable.push(t.id.clone()),
            }
        }
    }
    forget(state, unreadable).await;
    if back > 0 {
        tracing::info!("pairing: {back} waiting tickets taken over from a process that stopped");
        state.pairing().touch();
    }
    back
}
