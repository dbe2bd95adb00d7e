//! A persistent pool of worker threads for the vector env: the tables are
//! split once into small parts, each behind its own mutex, and at every
//! step the calling thread and the workers (started with the env, kept
//! until it is dropped) take parts one at a time from a shared counter
//! until none is left.
//!
//! Why persistent: starting threads on every step cost more than the step
//! itself at the sizes training uses (a step of 1,024 Dalmuti tables takes
//! a few hundred microseconds), so two threads were slower than one. Here
//! a step costs one channel message per worker. Why many small parts taken
//! in turn rather than one fixed share per thread: a thread the system
//! leaves waiting (a busy machine) then delays only the part it holds,
//! the others take the rest. Parts are fixed ranges of tables, so the
//! results do not depend on which thread stepped which part.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// What a part does when a thread takes it.
pub(crate) trait Work: Send + 'static {
    fn run(&mut self) -> Result<(), String>;
}

type Parts<P> = Arc<Vec<Mutex<P>>>;

/// One step: the next part to take, and how many are done (with the
/// first error).
struct Step {
    next: AtomicUsize,
    done: Mutex<(usize, Result<(), String>)>,
    all_done: Condvar,
}

impl Step {
    /// Takes and runs parts until none is left. A panic is caught and
    /// counted as an error, so the caller never waits for a part forever.
    fn work<P: Work>(&self, parts: &[Mutex<P>]) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(part) = parts.get(i) else {
                return;
            };
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock(part).run()))
                    .unwrap_or_else(|_| Err("stepping the tables panicked".into()));
            let mut done = lock(&self.done);
            done.0 += 1;
            if done.1.is_ok() {
                done.1 = result;
            }
            if done.0 == parts.len() {
                self.all_done.notify_all();
            }
        }
    }
}

/// The parts and the threads that step them.
pub(crate) struct Pool<P: Work> {
    parts: Parts<P>,
    /// One sender per worker thread.
    go: Vec<Sender<Arc<Step>>>,
    handles: Vec<JoinHandle<()>>,
    /// The step [`Pool::start`] began, until [`Pool::finish`].
    current: Option<Arc<Step>>,
}

fn lock<P>(part: &Mutex<P>) -> MutexGuard<'_, P> {
    part.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P: Work> Pool<P> {
    /// A pool over `parts` stepped by `threads` threads: the caller's and
    /// `threads - 1` workers.
    pub(crate) fn new(parts: Vec<P>, threads: usize) -> Result<Pool<P>, String> {
        let parts: Parts<P> = Arc::new(parts.into_iter().map(Mutex::new).collect());
        let mut go = Vec::new();
        let mut handles = Vec::new();
        for i in 1..threads.max(1) {
            let (tx, rx) = channel::<Arc<Step>>();
            let parts = Arc::clone(&parts);
            let handle = std::thread::Builder::new()
                .name(format!("ratrace-vector-{i}"))
                .spawn(move || {
                    // Closing the channel (the pool dropped) ends the loop.
                    while let Ok(step) = rx.recv() {
                        step.work(&parts);
                    }
                })
                .map_err(|e| format!("cannot start a worker thread: {e}"))?;
            go.push(tx);
            handles.push(handle);
        }
        Ok(Pool {
            parts,
            go,
            handles,
            current: None,
        })
    }

    /// Number of threads stepping the parts, the caller's included.
    pub(crate) fn threads(&self) -> usize {
        self.go.len() + 1
    }

    /// Part `i`, locked (for the caller's reads and writes between steps).
    pub(crate) fn part(&self, i: usize) -> MutexGuard<'_, P> {
        lock(&self.parts[i])
    }

    /// Every part, in order.
    pub(crate) fn each(&self) -> impl Iterator<Item = MutexGuard<'_, P>> {
        self.parts.iter().map(|p| lock(p))
    }

    /// Starts a step: wakes the workers, then takes parts on the calling
    /// thread until none is left to take (some may still be running on
    /// workers). [`Pool::finish`] waits for them.
    pub(crate) fn start(&mut self) {
        let step = Arc::new(Step {
            next: AtomicUsize::new(0),
            done: Mutex::new((0, Ok(()))),
            all_done: Condvar::new(),
        });
        for tx in &self.go {
            // A worker that is gone takes no part: the others take its share.
            let _ = tx.send(Arc::clone(&step));
        }
        step.work(&self.parts);
        self.current = Some(step);
    }

    /// Waits until every part of the step [`Pool::start`] began is done;
    /// the first error of any part, if one failed.
    pub(crate) fn finish(&mut self) -> Result<(), String> {
        let Some(step) = self.current.take() else {
            return Ok(());
        };
        let mut done = lock(&step.done);
        while done.0 < self.parts.len() {
            done = step.all_done.wait(done).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::replace(&mut done.1, Ok(()))
    }
}

impl<P: Work> Drop for Pool<P> {
    fn drop(&mut self) {
        let _ = self.finish();
        self.go.clear();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}
