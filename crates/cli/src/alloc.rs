//! The `ratrace` binary's allocator (mimalloc, fast for the simulator's
//! many small allocations), and what the server asks of it: memory freed
//! is given back to the system within seconds. mimalloc keeps each
//! thread's freed pages until that thread next collects, and a worker
//! thread of the server's runtime that goes idle after a burst (readers
//! that never read, say, whose whole states were queued and dropped)
//! would keep them; so each worker collects its heap when it parks, at
//! most once a second.

use std::cell::Cell;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The least time between two collections on one thread.
const EVERY: Duration = Duration::from_secs(1);

thread_local! {
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Gives this thread's freed memory back to the system if it has not
/// done so in the last second (a runtime worker calls it as it parks).
pub(crate) fn collect_if_due() {
    let now = Instant::now();
    let due = LAST.with(|l| {
        let due = l.get().is_none_or(|t| now.duration_since(t) >= EVERY);
        if due {
            l.set(Some(now));
        }
        due
    });
    if due {
        // SAFETY: mi_collect takes a flag and works on the calling
        // thread's own heap (and segments abandoned by threads that
        // ended); it is safe to call at any time from any thread.
        #[allow(unsafe_code)]
        unsafe {
            libmimalloc_sys::mi_collect(true);
        }
    }
}
