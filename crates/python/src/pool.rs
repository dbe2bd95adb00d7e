//! A persistent pool of worker threads for the vector env: the tables are
//! split once into parts, each behind its own mutex, and in every round
//! (a job asked of every part: checking the actions, stepping) the
//! calling thread and the workers (started with the env, kept until it is
//! dropped) take parts one at a time until none is left. The calling
//! thread also hands each finished part, as soon as it is finished, to a
//! function of its own (the copy into numpy, which needs the caller's
//! GIL), while the workers still run theirs.
//!
//! Why persistent: starting threads on every step cost more than the step
//! itself at the sizes training uses (a step of 1,024 Dalmuti tables takes
//! a few hundred microseconds). Why the threads spin a little before they
//! sleep: waking a sleeping thread takes tens of microseconds, a large
//! share of such a step, and a training loop that steps again at once
//! finds them awake. Why many parts taken in turn rather than one fixed
//! share per thread: a thread the system leaves waiting (a busy machine)
//! then delays only the part it holds, the others take the rest; and the
//! calling thread, which also copies, takes fewer. The caller takes parts
//! from the front, the workers from the back, so each thread mostly steps
//! the same tables at every step, which its cache still holds. Parts are
//! fixed ranges of tables, so the results do not depend on which thread
//! ran which part.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// What a part does when a thread takes it.
pub(crate) trait Work: Send + 'static {
    /// What a round asks of every part.
    type Job: Copy + Send + 'static;
    fn run(&mut self, job: Self::Job) -> Result<(), String>;
}

/// How long a thread with nothing to do spins (letting others of its
/// core run between short bursts) before it sleeps: longer
/// than the pause between the steps of a loop that steps again at once
/// (tens of microseconds), short enough that a pool left idle costs
/// little.
const SPIN: Duration = Duration::from_micros(200);

/// What the caller and the workers share.
struct Shared<P: Work> {
    parts: Vec<Mutex<P>>,
    /// The round's number (high 32 bits; 0 before the first) and the
    /// parts left to take in it, `lo..hi` (`lo` in bits 16 to 31, `hi` in
    /// the low 16 bits).
    ticket: AtomicU64,
    /// The current round's job: replaced only when no part of the round
    /// before is left to take.
    job: Mutex<Option<P::Job>>,
    /// Per part: the number of the last round that finished it.
    finished: Vec<AtomicU32>,
    /// The error of the first part (in order) that failed in the current
    /// round, and that part.
    error: Mutex<Option<(usize, String)>>,
    /// Per worker: asleep, to be woken by the next round.
    asleep: Vec<AtomicBool>,
    /// The caller is asleep, to be woken when a part finishes.
    caller_asleep: AtomicBool,
    /// The thread that began the current round.
    caller: Mutex<Option<Thread>>,
    /// Set when the pool is dropped: the workers return.
    stop: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn round_of(ticket: u64) -> u32 {
    (ticket >> 32) as u32
}

impl<P: Work> Shared<P> {
    /// Takes a part of round `round` left to take, if any: the first one
    /// for the caller, the last one for a worker.
    fn take(&self, round: u32, caller: bool) -> Option<usize> {
        let mut t = self.ticket.load(Ordering::Acquire);
        loop {
            let (lo, hi) = ((t >> 16) & 0xffff, t & 0xffff);
            if round_of(t) != round || lo >= hi {
                return None;
            }
            let (next, i) = if caller {
                (t + (1 << 16), lo)
            } else {
                (t - 1, hi - 1)
            };
            match self
                .ticket
                .compare_exchange_weak(t, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(i as usize),
                Err(now) => t = now,
            }
        }
    }

    /// Runs part `i` of round `round` and marks it finished. A panic is
    /// caught and counted as an error, so the caller never waits for a
    /// part forever.
    fn run(&self, i: usize, round: u32, job: P::Job) {
        let part = &self.parts[i];
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock(part).run(job)))
            .unwrap_or_else(|_| Err("stepping the tables panicked".into()));
        if let Err(e) = result {
            let mut error = lock(&self.error);
            if error.as_ref().is_none_or(|(j, _)| i < *j) {
                *error = Some((i, e));
            }
        }
        self.finished[i].store(round, Ordering::SeqCst);
        if self.caller_asleep.load(Ordering::SeqCst) {
            if let Some(caller) = &*lock(&self.caller) {
                caller.unpark();
            }
        }
    }

    /// A worker's life: waits for each round, takes its parts. A worker
    /// late for a round may read the next round's job, but then finds no
    /// part of its round left to take.
    fn serve(&self, me: usize) {
        let mut seen = 0;
        while let Some(round) = self.wait(me, seen) {
            seen = round;
            let Some(job) = *lock(&self.job) else {
                continue;
            };
            while let Some(i) = self.take(round, false) {
                self.run(i, round, job);
            }
        }
    }

    /// Waits for a round after `seen` (spinning first, then asleep);
    /// `None` once the pool is dropped.
    fn wait(&self, me: usize, seen: u32) -> Option<u32> {
        let since = Instant::now();
        let mut spins = 0u32;
        loop {
            if self.stop.load(Ordering::Acquire) {
                return None;
            }
            let round = round_of(self.ticket.load(Ordering::Acquire));
            if round != seen {
                return Some(round);
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 {
                std::hint::spin_loop();
                continue;
            }
            if since.elapsed() < SPIN {
                // Lets another thread of this core run, on a busy machine.
                std::thread::yield_now();
                continue;
            }
            // Asleep only after saying so and looking once more, so the
            // caller either sees the flag or this thread sees the round.
            self.asleep[me].store(true, Ordering::SeqCst);
            let round = round_of(self.ticket.load(Ordering::SeqCst));
            if round == seen && !self.stop.load(Ordering::SeqCst) {
                std::thread::park();
            }
            self.asleep[me].store(false, Ordering::SeqCst);
        }
    }
}

/// The parts and the threads that run them.
pub(crate) struct Pool<P: Work> {
    shared: Arc<Shared<P>>,
    handles: Vec<JoinHandle<()>>,
    /// The last round's number.
    round: u32,
    /// Per part: handed to the caller's function in this round.
    reported: Vec<bool>,
}

impl<P: Work> Pool<P> {
    /// A pool over `parts` run by `threads` threads: the caller's and
    /// `threads - 1` workers.
    pub(crate) fn new(parts: Vec<P>, threads: usize) -> Result<Pool<P>, String> {
        let n = parts.len();
        if n > 0xffff {
            return Err(format!("{n} parts: the pool counts at most 65,535"));
        }
        let workers = threads.max(1) - 1;
        let shared = Arc::new(Shared {
            parts: parts.into_iter().map(Mutex::new).collect(),
            ticket: AtomicU64::new(0),
            job: Mutex::new(None),
            finished: (0..n).map(|_| AtomicU32::new(0)).collect(),
            error: Mutex::new(None),
            asleep: (0..workers).map(|_| AtomicBool::new(false)).collect(),
            caller_asleep: AtomicBool::new(false),
            caller: Mutex::new(None),
            stop: AtomicBool::new(false),
        });
        let mut pool = Pool {
            shared,
            handles: Vec::new(),
            round: 0,
            reported: vec![false; n],
        };
        for me in 0..workers {
            let shared = Arc::clone(&pool.shared);
            let handle = std::thread::Builder::new()
                .name(format!("ratrace-vector-{}", me + 1))
                .spawn(move || shared.serve(me))
                .map_err(|e| format!("cannot start a worker thread: {e}"))?;
            pool.handles.push(handle);
        }
        Ok(pool)
    }

    /// Number of threads running the parts, the caller's included.
    pub(crate) fn threads(&self) -> usize {
        self.handles.len() + 1
    }

    /// Part `i`, locked (for the caller's reads and writes between rounds).
    pub(crate) fn part(&self, i: usize) -> MutexGuard<'_, P> {
        lock(&self.shared.parts[i])
    }

    /// Every part, in order.
    pub(crate) fn each(&self) -> impl Iterator<Item = MutexGuard<'_, P>> {
        self.shared.parts.iter().map(|p| lock(p))
    }

    /// Runs `job` on every part, on the workers and the calling thread,
    /// and calls `done(i, part)` on the calling thread for each part `i`
    /// as soon as it is finished. Returns once every part is finished:
    /// the error of the first part (in order) that failed, if one did.
    pub(crate) fn round(
        &mut self,
        job: P::Job,
        done: &mut dyn FnMut(usize, &P),
    ) -> Result<(), String> {
        let shared = &*self.shared;
        self.round = self.round.wrapping_add(1).max(1);
        let round = self.round;
        *lock(&shared.error) = None;
        *lock(&shared.job) = Some(job);
        if !self.handles.is_empty() {
            let me = std::thread::current();
            let mut caller = lock(&shared.caller);
            if caller.as_ref().map(Thread::id) != Some(me.id()) {
                *caller = Some(me);
            }
        }
        self.reported.fill(false);
        let n = self.reported.len() as u64;
        shared
            .ticket
            .store(u64::from(round) << 32 | n, Ordering::SeqCst);
        for (asleep, handle) in shared.asleep.iter().zip(&self.handles) {
            if asleep.load(Ordering::SeqCst) {
                handle.thread().unpark();
            }
        }
        let mut left = self.reported.len();
        let mut idle = None;
        while left > 0 {
            // First the parts the workers finished, then one more part.
            let mut found = false;
            for (i, reported) in self.reported.iter_mut().enumerate() {
                if !*reported && shared.finished[i].load(Ordering::Acquire) == round {
                    *reported = true;
                    left -= 1;
                    found = true;
                    done(i, &lock(&shared.parts[i]));
                }
            }
            if let Some(i) = shared.take(round, true) {
                self.reported[i] = true;
                left -= 1;
                shared.run(i, round, job);
                done(i, &lock(&shared.parts[i]));
                found = true;
            }
            if found {
                idle = None;
            } else if left > 0 {
                self.wait_for_workers(*idle.get_or_insert_with(Instant::now), round);
            }
        }
        lock(&shared.error).take().map_or(Ok(()), |(_, e)| Err(e))
    }

    /// The caller's wait for a worker's part: spins, then sleeps until a
    /// worker finishes one (after saying so and looking once more).
    fn wait_for_workers(&self, since: Instant, round: u32) {
        let shared = &*self.shared;
        if since.elapsed() < SPIN {
            for _ in 0..64 {
                std::hint::spin_loop();
            }
            // Lets the worker being waited for run, should it share this
            // core (a busy machine).
            std::thread::yield_now();
            return;
        }
        shared.caller_asleep.store(true, Ordering::SeqCst);
        let waiting = self
            .reported
            .iter()
            .zip(&shared.finished)
            .all(|(&r, f)| r || f.load(Ordering::SeqCst) != round);
        if waiting {
            std::thread::park();
        }
        shared.caller_asleep.store(false, Ordering::SeqCst);
    }
}

impl<P: Work> Drop for Pool<P> {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for handle in self.handles.drain(..) {
            handle.thread().unpark();
            let _ = handle.join();
        }
    }
}
