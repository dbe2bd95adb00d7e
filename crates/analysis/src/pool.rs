//! The worker pool behind every multi-game run (simulate, duplicate play,
//! the tournament, the lab): tasks on a fixed number of threads, their
//! results handed back in task order on the calling thread.
//!
//! Threads take the next task from a shared counter, so a few long games
//! still spread over the cores; results come back in completion order and
//! are held until every earlier group is in, so what is made of them never
//! depends on the thread count or on which thread finished first. Workers
//! hand results on in batches (at most every 10 ms), so a run of short
//! games does not pay a channel message and a wake-up per game.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::Error;

/// The worker pool behind every multi-game run: tasks `0..tasks` run on
/// `threads` threads, and come in groups of `group` consecutive tasks
/// (the games of one deal). Each group's results go to `on_group` with the
/// group's index, in group order, on the calling thread, so what is made of
/// them never depends on the thread count; `on_task` is called there for
/// every finished task in completion order (progress). `on_group` returns
/// false to stop early; the first error stops everything and is returned.
pub fn ordered<T: Send>(
    tasks: usize,
    group: usize,
    threads: usize,
    work: impl Fn(usize) -> Result<T, Error> + Sync,
    on_task: impl FnMut(),
    on_group: impl FnMut(usize, Vec<T>) -> Result<bool, Error>,
) -> Result<(), Error> {
    ordered_with(
        tasks,
        group,
        threads,
        || (),
        |_, t| work(t),
        on_task,
        on_group,
    )
}

/// How long a worker holds finished tasks before handing them on, at most
/// (a task that takes longer is handed on as soon as it is done).
const FLUSH: Duration = Duration::from_millis(10);

/// [`ordered`] with a state per worker thread: `init()` makes it on the
/// thread, and every task the thread runs gets it (the game loop's
/// [`crate::playout::Table`], reused from game to game). Whatever the state
/// holds must not change a task's result. Workers hand their results on
/// in batches, at most every 10 ms, rather than one by one.
#[allow(clippy::too_many_arguments)]
pub fn ordered_with<S, T: Send>(
    tasks: usize,
    group: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> Result<T, Error> + Sync,
    mut on_task: impl FnMut(),
    mut on_group: impl FnMut(usize, Vec<T>) -> Result<bool, Error>,
) -> Result<(), Error> {
    let group = group.max(1);
    let threads = threads.clamp(1, tasks.max(1));
    if threads == 1 {
        return inline(tasks, group, init, work, on_task, on_group);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    type Batch<T> = Vec<(usize, Result<T, Error>)>;
    let (tx, rx) = mpsc::channel::<Batch<T>>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, work, init) = (&next, &stop, &work, &init);
            scope.spawn(move || {
                let mut state = init();
                let mut batch: Batch<T> = Vec::new();
                let mut since = Instant::now();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let t = next.fetch_add(1, Ordering::Relaxed);
                    if t >= tasks {
                        break;
                    }
                    let result = work(&mut state, t);
                    let failed = result.is_err();
                    batch.push((t, result));
                    if failed || since.elapsed() >= FLUSH {
                        if tx.send(std::mem::take(&mut batch)).is_err() || failed {
                            return;
                        }
                        since = Instant::now();
                    }
                }
                if !batch.is_empty() {
                    let _ = tx.send(batch);
                }
            });
        }
        drop(tx);
        // Finished tasks of groups not yet handed on, and how many each has.
        let mut pending: BTreeMap<usize, (Vec<Option<T>>, usize)> = BTreeMap::new();
        let mut want = 0usize;
        let result = (|| {
            for (t, r) in rx.iter().flatten() {
                on_task();
                let value = r?;
                let (g, k) = (t / group, t % group);
                let size = group.min(tasks - g * group);
                let slot = pending
                    .entry(g)
                    .or_insert_with(|| ((0..size).map(|_| None).collect(), 0));
                slot.0[k] = Some(value);
                slot.1 += 1;
                while pending.get(&want).is_some_and(|(v, n)| *n == v.len()) {
                    let (values, _) = pending.remove(&want).unwrap_or_default();
                    let values: Vec<T> = values.into_iter().flatten().collect();
                    want += 1;
                    if !on_group(want - 1, values)? {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// [`ordered_with`] on the calling thread: no thread is spawned and no
/// clock read, so one thread works where there are neither (the browser's
/// engine, wasm32). The same calls in the same order as the pool makes
/// with one worker.
fn inline<S, T>(
    tasks: usize,
    group: usize,
    init: impl Fn() -> S,
    work: impl Fn(&mut S, usize) -> Result<T, Error>,
    mut on_task: impl FnMut(),
    mut on_group: impl FnMut(usize, Vec<T>) -> Result<bool, Error>,
) -> Result<(), Error> {
    let mut state = init();
    let mut values = Vec::with_capacity(group.min(tasks));
    for t in 0..tasks {
        let value = work(&mut state, t);
        on_task();
        values.push(value?);
        let full = values.len() == group || t + 1 == tasks;
        if full && !on_group(t / group, std::mem::take(&mut values))? {
            return Ok(());
        }
    }
    Ok(())
}
