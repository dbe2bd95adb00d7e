//! The lobby's list of open tables, cached for a moment: the busiest
//! request of the site, answered without the store while nothing changed.

use std::sync::Arc;

/// How long a cached lobby list is served at most, even if no change was
/// heard (a bound on what a lost notification can cost).
pub(super) const LOBBY_TTL: std::time::Duration = std::time::Duration::from_secs(2);

/// The lobby's list, cached between changes when the store tells every
/// process about changes (PostgreSQL's LISTEN/NOTIFY); not cached
/// otherwise. A flood of lobby requests then costs one database read per
/// change, whichever process they reach.
#[derive(Debug, Default)]
pub(crate) struct LobbyCache {
    enabled: std::sync::atomic::AtomicBool,
    generation: std::sync::atomic::AtomicU64,
    list: std::sync::Mutex<Option<(std::time::Instant, Arc<Vec<crate::store::TableSummary>>)>>,
}

impl LobbyCache {
    /// Caches from now on (the store reports changes).
    pub(crate) fn enable(&self) {
        self.enabled
            .store(true, std::sync::atomic::Ordering::Release);
    }

    /// Forgets the list: something changed.
    pub(crate) fn invalidate(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        *self.list.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Acquire)
    }

    pub(crate) fn get(&self) -> Option<Arc<Vec<crate::store::TableSummary>>> {
        let list = self.list.lock().unwrap_or_else(|p| p.into_inner());
        list.as_ref()
            .filter(|(at, _)| at.elapsed() < LOBBY_TTL)
            .map(|(_, l)| Arc::clone(l))
    }

    /// Keeps `list`, read when the generation was `generation`, unless a
    /// change came meanwhile (then it may be stale: not kept).
    pub(crate) fn put(
        &self,
        generation: u64,
        list: Vec<crate::store::TableSummary>,
    ) -> Arc<Vec<crate::store::TableSummary>> {
        let list = Arc::new(list);
        if self.enabled.load(std::sync::atomic::Ordering::Acquire) {
            let mut kept = self.list.lock().unwrap_or_else(|p| p.into_inner());
            if self.generation() == generation {
                *kept = Some((std::time::Instant::now(), Arc::clone(&list)));
            }
        }
        list
    }
}
