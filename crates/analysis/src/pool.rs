//! The worker pool behind every multi-game run (simulate, duplicate play,
//! the tournament, the lab): tasks on a fixed number of threads, their
//! results handed back in task order on the calling thread.
//!
//! Threads take the next task from a shared counter, so a few long games
//! still spread over the cores; results come back in completion order and
//! are held until every earlier group is in, so what is made of them never
//! depends on the thread count or on which thread finished first.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

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
    mut on_task: impl FnMut(),
    mut on_group: impl FnMut(usize, Vec<T>) -> Result<bool, Error>,
) -> Result<(), Error> {
    let group = group.max(1);
    let threads = threads.clamp(1, tasks.max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<T, Error>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= tasks {
                    return;
                }
                let result = work(t);
                let failed = result.is_err();
                if tx.send((t, result)).is_err() || failed {
                    return;
                }
            });
        }
        drop(tx);
        // Finished tasks of groups not yet handed on, and how many each has.
        let mut pending: BTreeMap<usize, (Vec<Option<T>>, usize)> = BTreeMap::new();
        let mut want = 0usize;
        let result = (|| {
            for (t, r) in rx.iter() {
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
