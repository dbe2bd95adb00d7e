//! A connection's outbox, bounded in bytes as well as in messages, and
//! why the server closes a connection.
//!
//! A reader that stops reading must cost the server a bounded amount of
//! memory however many messages the table makes for it: so the outbox
//! counts the bytes it holds (queued, and the message being written until
//! it reached the kernel), per connection and per client address across
//! all of that address's connections, and a connection over either budget
//! is closed as too slow. A whole state replaces whatever updates and
//! older state are still queued (it holds everything they would have
//! said), so at most one state waits per connection, however often the
//! client asks `resync`.

use crate::addr::ClientAddr;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Notify};

/// Why a connection is being closed by the server: a WebSocket close code
/// and a reason the client can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kick {
    /// The close code (1008 policy, 1013 try again later).
    pub code: u16,
    /// The reason, in words.
    pub reason: &'static str,
}

/// What a queued message is, for the queue's one rule: a state supersedes
/// the updates and the state queued before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole state (`state`).
    State,
    /// A change since the last message (`update`, `presence`).
    Update,
    /// Anything else (errors, chat, notices): never dropped.
    Other,
}

/// The bounds of one connection's outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Messages queued at most.
    pub messages: usize,
    /// Bytes queued or being written at most.
    pub bytes: usize,
}

/// Bytes queued for each client address, across its connections.
#[derive(Debug, Default)]
pub struct AddrBytes {
    map: Mutex<HashMap<ClientAddr, Arc<AtomicUsize>>>,
}

impl AddrBytes {
    fn counter(&self, addr: ClientAddr) -> Arc<AtomicUsize> {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        Arc::clone(map.entry(addr).or_default())
    }

    /// Forgets `addr`'s counter if no connection holds it any more.
    fn release(&self, addr: ClientAddr) {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if map
            .get(&addr)
            .is_some_and(|c| Arc::strong_count(c) == 1 && c.load(Ordering::Acquire) == 0)
        {
            map.remove(&addr);
        }
    }

    /// Bytes queued now for `addr`'s connections.
    pub fn of(&self, addr: ClientAddr) -> usize {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&addr).map_or(0, |c| c.load(Ordering::Acquire))
    }

    /// Addresses with a counter (connections open or bytes held).
    pub fn addresses(&self) -> usize {
        self.map.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// The per-address side of an outbox: the address's counter and its cap.
#[derive(Clone, Debug)]
pub struct AddrBudget {
    all: Arc<AddrBytes>,
    addr: ClientAddr,
    cap: usize,
}

impl AddrBudget {
    /// The budget of `addr` in `all`, at most `cap` bytes (0: none).
    pub fn new(all: &Arc<AddrBytes>, addr: ClientAddr, cap: usize) -> AddrBudget {
        AddrBudget {
            all: Arc::clone(all),
            addr,
            cap,
        }
    }
}

struct Queue {
    items: VecDeque<(Kind, String)>,
    /// Bytes of `items`.
    queued: usize,
    /// Bytes taken by the writer and not yet sent.
    writing: usize,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Notify,
    kick: watch::Sender<Option<Kick>>,
    bounds: Bounds,
    addr: Option<(AddrBudget, Arc<AtomicUsize>)>,
    /// Live [`Outbox`] handles: the receiver ends when none is left.
    senders: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn addr_add(&self, n: usize) -> bool {
        match &self.addr {
            None => true,
            Some((budget, count)) => {
                let was = count.fetch_add(n, Ordering::AcqRel);
                if budget.cap > 0 && was + n > budget.cap {
                    count.fetch_sub(n, Ordering::AcqRel);
                    false
                } else {
                    true
                }
            }
        }
    }

    fn addr_sub(&self, n: usize) {
        if let Some((_, count)) = &self.addr {
            count.fetch_sub(n, Ordering::AcqRel);
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        let q = self.queue.get_mut().unwrap_or_else(|p| p.into_inner());
        let held = q.queued + q.writing;
        q.items.clear();
        self.addr_sub(held);
        if let Some((budget, count)) = self.addr.take() {
            drop(count);
            budget.all.release(budget.addr);
        }
    }
}

/// Where a connection's messages go: JSON text, and a way to close it
/// with a reason when it cannot keep up.
pub struct Outbox {
    shared: Arc<Shared>,
}

impl Clone for Outbox {
    fn clone(&self) -> Outbox {
        self.shared.senders.fetch_add(1, Ordering::AcqRel);
        Outbox {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        if self.shared.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.shared.ready.notify_one();
        }
    }
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = self.shared.lock();
        f.debug_struct("Outbox")
            .field("messages", &q.items.len())
            .field("bytes", &(q.queued + q.writing))
            .finish()
    }
}

/// The receiving end of an [`Outbox`]: the writer's side.
pub struct OutboxRx {
    shared: Arc<Shared>,
}

/// A message the writer took: its bytes stay counted against the budgets
/// until this is dropped (after the message reached the kernel).
pub struct Taken {
    /// The message.
    pub text: String,
    bytes: usize,
    shared: Arc<Shared>,
}

impl Drop for Taken {
    fn drop(&mut self) {
        let mut q = self.shared.lock();
        q.writing -= self.bytes;
        drop(q);
        self.shared.addr_sub(self.bytes);
    }
}

impl Outbox {
    /// An outbox within `bounds`, its bytes also counted against `addr`'s
    /// budget if given.
    pub fn new(bounds: Bounds, addr: Option<AddrBudget>) -> (Outbox, OutboxRx) {
        let (kick, _) = watch::channel(None);
        let addr = addr.map(|b| {
            let count = b.all.counter(b.addr);
            (b, count)
        });
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                items: VecDeque::new(),
                queued: 0,
                writing: 0,
            }),
            ready: Notify::new(),
            kick,
            bounds,
            addr,
            senders: AtomicUsize::new(1),
        });
        (
            Outbox {
                shared: Arc::clone(&shared),
            },
            OutboxRx { shared },
        )
    }

    /// Queues a message that is neither a state nor an update; `false`
    /// if that would pass a budget (the connection is then too slow).
    pub fn try_send(&self, text: String) -> bool {
        self.send(Kind::Other, text)
    }

    /// Queues a message of `kind`: a state first drops the updates and
    /// the state still queued. `false` if the message would pass the
    /// connection's or its address's budget: the caller closes it.
    pub fn send(&self, kind: Kind, text: String) -> bool {
        let shared = &self.shared;
        let mut q = shared.lock();
        let mut freed = 0;
        if kind == Kind::State {
            q.items.retain(|(k, t)| {
                let keep = *k == Kind::Other;
                if !keep {
                    freed += t.len();
                }
                keep
            });
            q.queued -= freed;
        }
        let n = text.len();
        // The first message always fits the connection's own budget, so a
        // state larger than the budget (a long session's) still reaches a
        // reader that keeps up; the address's budget has no such room.
        let idle = q.items.is_empty() && q.writing == 0;
        let over = q.items.len() >= shared.bounds.messages
            || (!idle && q.queued + q.writing + n > shared.bounds.bytes);
        let ok = !over && shared.addr_add(n);
        if ok {
            q.queued += n;
            q.items.push_back((kind, text));
        }
        drop(q);
        shared.addr_sub(freed);
        if ok {
            shared.ready.notify_one();
        }
        ok
    }

    /// Bytes queued or being written now.
    pub fn bytes(&self) -> usize {
        let q = self.shared.lock();
        q.queued + q.writing
    }

    /// A receiver of the close order (the connection's receive loop stops
    /// on it).
    pub fn kicked(&self) -> watch::Receiver<Option<Kick>> {
        self.shared.kick.subscribe()
    }

    /// Orders the connection closed with `kick` (the first order counts).
    pub fn kick(&self, kick: Kick) {
        self.shared.kick.send_if_modified(|k| {
            let first = k.is_none();
            if first {
                *k = Some(kick);
            }
            first
        });
    }
}

impl OutboxRx {
    /// The next message, once there is one; `None` when every [`Outbox`]
    /// handle is gone and nothing is queued.
    pub async fn recv(&mut self) -> Option<Taken> {
        let shared = Arc::clone(&self.shared);
        loop {
            let ready = shared.ready.notified();
            if let Some(t) = self.try_recv() {
                return Some(t);
            }
            if shared.senders.load(Ordering::Acquire) == 0 {
                return None;
            }
            ready.await;
        }
    }

    /// The next message if one is queued.
    pub fn try_recv(&mut self) -> Option<Taken> {
        let mut q = self.shared.lock();
        let (_, text) = q.items.pop_front()?;
        let bytes = text.len();
        q.queued -= bytes;
        q.writing += bytes;
        Some(Taken {
            text,
            bytes,
            shared: Arc::clone(&self.shared),
        })
    }

    /// A receiver of the close order.
    pub fn kicked(&self) -> watch::Receiver<Option<Kick>> {
        self.shared.kick.subscribe()
    }
}

/// The close order for the connections of a table another process took
/// over: reconnecting reaches it (1012, service restart).
pub const MOVED: Kick = Kick {
    code: 1012,
    reason: "the table moved to another server process: reconnecting",
};

/// The close order for a connection that does not read its messages.
pub const TOO_SLOW: Kick = Kick {
    code: 1013,
    reason: "too slow to read the table's messages: reconnect",
};

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        messages: 8,
        bytes: 100,
    };

    fn addr(n: u8) -> ClientAddr {
        ClientAddr(std::net::IpAddr::from([10, 0, 0, n]))
    }

    #[test]
    fn a_state_replaces_the_updates_and_state_queued_before_it() {
        let (out, mut rx) = Outbox::new(BOUNDS, None);
        assert!(out.send(Kind::Update, "u1".into()));
        assert!(out.try_send("error".into()));
        assert!(out.send(Kind::State, "s1".into()));
        assert!(out.send(Kind::Update, "u2".into()));
        assert!(out.send(Kind::State, "s2".into()));
        assert!(out.send(Kind::Update, "u3".into()));
        let mut got = Vec::new();
        while let Some(t) = rx.try_recv() {
            got.push(t.text.clone());
        }
        assert_eq!(got, ["error", "s2", "u3"]);
        assert_eq!(out.bytes(), 0);
    }

    #[test]
    fn bytes_are_bounded_until_the_writer_has_sent_them() {
        let (out, mut rx) = Outbox::new(BOUNDS, None);
        assert!(out.send(Kind::Update, "x".repeat(60)));
        let taken = rx.try_recv().unwrap();
        // Taken but not yet written: still counted.
        assert_eq!(out.bytes(), 60);
        assert!(!out.send(Kind::Update, "y".repeat(50)), "over 100 bytes");
        assert!(out.send(Kind::Update, "y".repeat(40)));
        drop(taken);
        assert_eq!(out.bytes(), 40);
        // A state over the budget replaces what was queued, and, alone,
        // goes: a reader that keeps up gets even a state that large.
        assert!(out.send(Kind::State, "z".repeat(101)));
        assert_eq!(out.bytes(), 101);
        assert!(!out.send(Kind::Update, "u".into()), "but nothing after it");
    }

    #[test]
    fn an_address_has_one_budget_across_its_connections() {
        let all = Arc::new(AddrBytes::default());
        let budget = |n| Some(AddrBudget::new(&all, addr(n), 150));
        let (a, _ra) = Outbox::new(BOUNDS, budget(1));
        let (b, mut rb) = Outbox::new(BOUNDS, budget(1));
        let (c, _rc) = Outbox::new(BOUNDS, budget(2));
        assert!(a.send(Kind::State, "a".repeat(90)));
        assert!(!b.send(Kind::State, "b".repeat(90)), "the address is full");
        assert!(c.send(Kind::State, "c".repeat(90)), "another address");
        assert!(b.send(Kind::State, "b".repeat(60)));
        assert_eq!(all.of(addr(1)), 150);
        drop(rb.try_recv());
        assert_eq!(all.of(addr(1)), 90);
        // A connection that ends gives its bytes back, and an address
        // with no connection is forgotten.
        drop((a, _ra));
        assert_eq!(all.of(addr(1)), 0);
        drop((b, rb));
        assert_eq!(all.addresses(), 1);
        drop((c, _rc));
        assert_eq!(all.addresses(), 0);
    }

    #[tokio::test]
    async fn the_receiver_ends_when_every_handle_is_gone() {
        let (out, mut rx) = Outbox::new(BOUNDS, None);
        let other = out.clone();
        assert!(out.try_send("a".into()));
        drop(out);
        assert_eq!(
            rx.recv().await.map(|t| t.text.clone()).as_deref(),
            Some("a")
        );
        let waiting = tokio::spawn(async move { rx.recv().await.is_none() });
        tokio::task::yield_now().await;
        drop(other);
        assert!(waiting.await.unwrap());
    }
}
