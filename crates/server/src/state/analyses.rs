//! The analyses this process has been asked for: each one's progress, the
//! queue's bound, the gate that lets one run at a time, and the ETags of
//! stored ones lately served. Plain state the server holds; the routes
//! (`analysis/mod.rs`) drive it.

use axum::http::HeaderValue;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Where an analysis that is not stored yet stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Job {
    /// Waiting for the one running to end.
    Queued,
    /// Judging decisions: `done` of `total`.
    Running { done: usize, total: usize },
    /// It failed (the cause is logged); asking again starts it again.
    Failed,
}

/// The analyses this process has been asked for and not yet stored, and
/// the gate that lets one run at a time.
#[derive(Debug)]
pub(crate) struct Analyses {
    pub(crate) jobs: Mutex<HashMap<String, Job>>,
    pub(crate) gate: Arc<Semaphore>,
    /// The ETags of stored analyses served lately, by table.
    pub(crate) etags: Mutex<HashMap<String, HeaderValue>>,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            jobs: Mutex::new(HashMap::new()),
            gate: Arc::new(Semaphore::new(1)),
            etags: Mutex::new(HashMap::new()),
        }
    }
}

/// ETags remembered before the memory is cleared (it is only a shortcut:
/// a forgotten one is computed again from the stored body).
pub(crate) const ETAGS: usize = 4096;

impl Analyses {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn etag(&self, id: &str) -> Option<HeaderValue> {
        let etags = self.etags.lock().unwrap_or_else(|p| p.into_inner());
        etags.get(id).cloned()
    }

    pub(crate) fn remember(&self, id: &str, etag: HeaderValue) {
        let mut etags = self.etags.lock().unwrap_or_else(|p| p.into_inner());
        if etags.len() >= ETAGS {
            etags.clear();
        }
        etags.insert(id.to_string(), etag);
    }

    pub(crate) fn get(&self, id: &str) -> Option<Job> {
        self.lock().get(id).cloned()
    }

    pub(crate) fn set(&self, id: &str, job: Job) {
        self.lock().insert(id.to_string(), job);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Queues the analysis of `id` unless one is waiting or running (its
    /// state is returned) or one runs and `waiting` wait already (`Err`).
    pub(crate) fn enqueue(&self, id: &str, waiting: usize) -> Result<Option<Job>, ()> {
        let mut jobs = self.lock();
        match jobs.get(id) {
            Some(Job::Failed) | None => {}
            Some(job) => return Ok(Some(job.clone())),
        }
        let pending = jobs.values().filter(|j| **j != Job::Failed).count();
        if pending > waiting {
            return Err(());
        }
        jobs.insert(id.to_string(), Job::Queued);
        Ok(None)
    }

    /// Analyses waiting or running in this process.
    pub(crate) fn pending(&self) -> usize {
        self.lock().values().filter(|j| **j != Job::Failed).count()
    }
}
