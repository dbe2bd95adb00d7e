//! The table's task: its loop, what wakes it, and when it leaves memory.

use super::outbox::MOVED;
use super::*;
use tokio::time::Instant;

/// What woke the table's task.
enum Wake<G: Roster> {
    Command(Option<Command>),
    BotDue,
    ProgramsIdle,
    Thought(Result<bot_seats::Thought<G>, tokio::sync::oneshot::error::RecvError>),
    WindowClosed,
    Idle,
    Closing,
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

impl<G: Roster> Table<G> {
    pub(super) async fn run(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        mut closing: watch::Receiver<bool>,
    ) {
        loop {
            if *closing.borrow() || self.ledger.gone() {
                break;
            }
            let due = self.due();
            let wake = tokio::select! {
                cmd = rx.recv() => Wake::Command(cmd),
                () = sleep_until(due.bot) => Wake::BotDue,
                thought = self.bots.answer(), if self.bots.thinking() => Wake::Thought(thought),
                () = sleep_until(due.window) => Wake::WindowClosed,
                () = sleep_until(due.idle) => Wake::Idle,
                () = sleep_until(due.programs) => Wake::ProgramsIdle,
                _ = closing.changed() => Wake::Closing,
            };
            match wake {
                Wake::Command(Some(cmd)) => {
                    self.clock.touch();
                    self.handle(cmd).await;
                }
                Wake::Command(None) | Wake::Closing => break,
                Wake::BotDue => self.bot_turn(),
                Wake::ProgramsIdle => self.bots.stop_programs(),
                Wake::Thought(thought) => self.bot_answer(thought).await,
                Wake::WindowClosed => self.close_window().await,
                Wake::Idle => {
                    if self.evict(&rx) {
                        break;
                    }
                    // Somebody holds a handle: look again later.
                    self.clock.touch();
                }
            }
            // A write was fenced: another process claimed this table, so
            // this copy is stale. It leaves memory and closes every
            // connection with a code that makes clients reconnect, and
            // their next connection reaches the new owner.
            if self.ledger.fenced() {
                self.leave_memory(MOVED);
            }
        }
    }

    /// Leaves the registry if nobody else holds this table's handle and
    /// no command is queued (both checked under the registry's lock, where
    /// every handle is cloned), so no command is ever lost.
    /// Its ownership is released, so any process may take it next.
    fn evict(&mut self, rx: &mpsc::Receiver<Command>) -> bool {
        let mut tables = self.ctx.registry.lock().unwrap_or_else(|p| p.into_inner());
        if rx.sender_strong_count() == 1 && rx.is_empty() {
            tables.remove(&*self.setup.id);
            drop(tables);
            tracing::debug!(table = %self.setup.id, "left memory");
            self.ledger.release();
            true
        } else {
            false
        }
    }

    /// Stops this copy of the table: out of the registry, every
    /// connection closed with `kick`. Ownership stays as the store has it.
    pub(super) fn leave_memory(&mut self, kick: Kick) {
        self.ledger.let_go();
        self.ctx
            .registry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&*self.setup.id);
        self.audience.kick_all(kick);
    }
}
