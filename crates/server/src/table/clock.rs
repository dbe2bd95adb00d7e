//! The table's clock: when the decision at hand became due, when the
//! table last did anything, and a secret decision's window.
//!
//! A secret decision (D7: whether the holder of both Jesters calls a
//! revolution) must take effect at a fixed time whoever makes it, so its
//! timing tells nobody who holds them: the decision is held in a window
//! and applied when the window closes (`Table::close_window`).

use std::time::Duration;
use tokio::time::Instant;

/// A secret decision's window: the decision is held until `until`, then
/// applied, whoever made it and whenever.
pub(super) struct Quiet<A> {
    pub(super) until: Instant,
    /// The decision held: its seat, action, and whether a stand-in made it.
    pub(super) pending: Option<(game::Seat, A, bool)>,
}

/// See the module docs.
pub(super) struct Clock<A> {
    /// When the current decision became due.
    turn_started: Instant,
    /// The last command or action: a table idle for long leaves memory.
    last_activity: Instant,
    quiet: Option<Quiet<A>>,
}

impl<A: Copy> Clock<A> {
    /// A clock whose turn starts now.
    pub(super) fn new() -> Clock<A> {
        let now = Instant::now();
        Clock {
            turn_started: now,
            last_activity: now,
            quiet: None,
        }
    }

    /// A new decision is due now (or the one due is to be tried again a
    /// delay from now).
    pub(super) fn turn_begins(&mut self) {
        self.turn_started = Instant::now();
    }

    pub(super) fn turn_started(&self) -> Instant {
        self.turn_started
    }

    /// The table did something now.
    pub(super) fn touch(&mut self) {
        self.last_activity = Instant::now();
    }

    /// An action was applied: a new turn, and activity.
    pub(super) fn acted(&mut self) {
        self.turn_begins();
        self.last_activity = self.turn_started;
    }

    /// When the table may leave memory if nothing else happens.
    pub(super) fn idle_after(&self, wait: Duration) -> Instant {
        self.last_activity + wait
    }

    /// Whether a secret decision's window is open.
    pub(super) fn window_open(&self) -> bool {
        self.quiet.is_some()
    }

    /// When the open window closes.
    pub(super) fn window_closes(&self) -> Option<Instant> {
        self.quiet.as_ref().map(|q| q.until)
    }

    /// Whether a decision is held in the open window.
    pub(super) fn holding(&self) -> bool {
        self.quiet.as_ref().is_some_and(|q| q.pending.is_some())
    }

    /// Opens a window of `length`, holding `pending` (none yet, or a
    /// decision held again after a failed write).
    pub(super) fn open_window(&mut self, length: Duration, pending: Option<(game::Seat, A, bool)>) {
        self.quiet = Some(Quiet {
            until: Instant::now() + length,
            pending,
        });
    }

    /// Holds a decision in the open window; the time left in it, or `None`
    /// (nothing held) if no window is open.
    pub(super) fn hold(&mut self, seat: game::Seat, action: A, stand_in: bool) -> Option<Duration> {
        let quiet = self.quiet.as_mut()?;
        quiet.pending = Some((seat, action, stand_in));
        Some(quiet.until.saturating_duration_since(Instant::now()))
    }

    /// Closes the window: what it held.
    pub(super) fn close_window(&mut self) -> Option<Quiet<A>> {
        self.quiet.take()
    }
}
