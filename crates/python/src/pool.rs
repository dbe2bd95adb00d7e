//! A persistent pool of worker threads for the vector env: the tables are
//! split into parts once, each part lives behind its own mutex, and each
//! worker thread, started with the env and kept until it is dropped,
//! steps its part when told to.
//!
//! Why persistent: starting threads on every step cost more than the step
//! itself at the sizes training uses (a step of 1,024 Dalmuti tables takes
//! a few hundred microseconds), so two threads were slower than one. Here
//! a step costs one channel message per worker each way. The calling
//! thread steps part 0 itself, and may copy part 0's results out while
//! the workers finish theirs ([`Pool::start`], [`Pool::finish`]). Parts are fixed ranges of tables, so the
//! results do not depend on the thread count.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// What a part does when its worker is told to go.
pub(crate) trait Work: Send + 'static {
    fn run(&mut self) -> Result<(), String>;
}

/// The parts and the threads that step them (none for a single part).
pub(crate) struct Pool<P: Work> {
    parts: Vec<Arc<Mutex<P>>>,
    /// One sender per worker: worker `i` steps part `i + 1`.
    go: Vec<Sender<()>>,
    done: Receiver<Result<(), String>>,
    handles: Vec<JoinHandle<()>>,
    /// Between [`Pool::start`] and [`Pool::finish`]: the workers told to
    /// go, whether one could not be told, and part 0's result.
    sent: usize,
    missing: bool,
    mine: Result<(), String>,
}

fn lock<P>(part: &Mutex<P>) -> MutexGuard<'_, P> {
    part.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P: Work> Pool<P> {
    /// A pool over `parts`, with one worker thread for each part past the
    /// first.
    pub(crate) fn new(parts: Vec<P>) -> Result<Pool<P>, String> {
        let parts: Vec<_> = parts.into_iter().map(|p| Arc::new(Mutex::new(p))).collect();
        let (done_tx, done) = channel();
        let mut go = Vec::new();
        let mut handles = Vec::new();
        for (i, part) in parts.iter().enumerate().skip(1) {
            let (tx, rx) = channel::<()>();
            let (part, done_tx) = (Arc::clone(part), done_tx.clone());
            let handle = std::thread::Builder::new()
                .name(format!("ratrace-vector-{i}"))
                .spawn(move || worker(&part, &rx, &done_tx))
                .map_err(|e| format!("cannot start a worker thread: {e}"))?;
            go.push(tx);
            handles.push(handle);
        }
        Ok(Pool {
            parts,
            go,
            done,
            handles,
            sent: 0,
            missing: false,
            mine: Ok(()),
        })
    }

    /// Number of parts (and of threads stepping them, the caller's
    /// included).
    pub(crate) fn len(&self) -> usize {
        self.parts.len()
    }

    /// Part `i`, locked (for the caller's reads and writes between steps).
    pub(crate) fn part(&self, i: usize) -> MutexGuard<'_, P> {
        lock(&self.parts[i])
    }

    /// Every part, in order.
    pub(crate) fn each(&self) -> impl Iterator<Item = MutexGuard<'_, P>> {
        self.parts.iter().map(|p| lock(p))
    }

    /// Starts a step: tells every worker to step its part, then steps
    /// part 0 on the calling thread and returns while the workers may
    /// still run (the caller can copy part 0's rows out meanwhile).
    /// [`Pool::finish`] must follow.
    pub(crate) fn start(&mut self) {
        self.sent = self.go.iter().filter(|tx| tx.send(()).is_ok()).count();
        self.missing = self.sent < self.go.len();
        // A panic is caught as in a worker: every worker's answer is still
        // collected by `finish`, so none is left for the next step.
        self.mine =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock(&self.parts[0]).run()))
                .unwrap_or_else(|_| Err("stepping the tables panicked".into()));
    }

    /// Waits for every worker told to go by [`Pool::start`]; the first
    /// error of any part, if one failed.
    pub(crate) fn finish(&mut self) -> Result<(), String> {
        let mut result = std::mem::replace(&mut self.mine, Ok(()));
        for _ in 0..std::mem::take(&mut self.sent) {
            let theirs = self
                .done
                .recv()
                .unwrap_or_else(|_| Err("a worker thread stopped".into()));
            result = result.and(theirs);
        }
        if std::mem::take(&mut self.missing) {
            result = result.and(Err("a worker thread stopped".into()));
        }
        result
    }
}

/// A worker's life: step its part at each message, report, and stop when
/// the pool is dropped. A panic is caught and reported as an error, so
/// the caller never waits for a worker that died.
fn worker<P: Work>(part: &Mutex<P>, go: &Receiver<()>, done: &Sender<Result<(), String>>) {
    while go.recv().is_ok() {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock(part).run()))
            .unwrap_or_else(|_| Err("a worker thread panicked".into()));
        if done.send(result).is_err() {
            return;
        }
    }
}

impl<P: Work> Drop for Pool<P> {
    fn drop(&mut self) {
        // Closing the channels ends the workers' loops.
        self.go.clear();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}
