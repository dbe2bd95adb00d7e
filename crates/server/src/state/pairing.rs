//! Quick pairing's book: the declared presets, the waiting pools (one per
//! preset) and every ticket, as plain data with no IO, so its rules (who
//! is seated with whom, when bots fill in, what expires) are tested
//! without a server. The seater task (`pairing/seat.rs`) asks it which
//! groups are due and makes their tables; the handlers (`pairing/mod.rs`)
//! join, read and cancel tickets. It sits behind one mutex held for a few
//! map operations, never across `.await`.
//!
//! Every part of it is bounded: presets only from [`PRESETS`] (so pools
//! are few), people per pool, tickets per address and in all, the wait
//! from [`WAITS_S`], and a waiting ticket nobody asks about expires after
//! the heartbeat limit; a seated ticket is kept [`KEEP_SEATED`] for its
//! page to pick its seat up, then forgotten (the seat's token is the
//! person's from then on).

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::limits::Limits;
use crate::protocol::{PairingStatus, PairingTicket};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify};

/// One way to "Play now": a game, its player count, its rules options and
/// whether the table is public. Declared once here; `/api/games` serves
/// them (`pairing`) and a request names one by `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// What a request names.
    pub id: &'static str,
    /// The game (`registry::GAMES`).
    pub game: &'static str,
    /// Seats at the table.
    pub players: usize,
    /// Rules options, as `key=value` texts the game reads.
    pub options: &'static [(&'static str, &'static str)],
    /// A public table: listed, and people there are rated for each other
    /// by the usual rules (docs/server.md, "Ratings"); a private one
    /// rates people against the bots only.
    pub public: bool,
}

/// The presets offered, per game. Few on purpose: every preset is a pool,
/// and people spread over many pools wait longer.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "bigcheese-4",
        game: "bigcheese",
        players: 4,
        options: &[],
        public: true,
    },
    Preset {
        id: "bigcheese-3-casual",
        game: "bigcheese",
        players: 3,
        options: &[],
        public: false,
    },
    Preset {
        id: "dalmuti-5",
        game: "dalmuti",
        players: 5,
        options: &[],
        public: true,
    },
    Preset {
        id: "dalmuti-4-one-hand",
        game: "dalmuti",
        players: 4,
        options: &[("hands", "1")],
        public: false,
    },
];

/// The waits a person may choose before bots fill the free seats, in
/// seconds.
pub const WAITS_S: &[u64] = &[5, 10, 20, 40, 60];

/// The wait when none is chosen.
pub const DEFAULT_WAIT_S: u64 = 20;

/// How long a seated ticket is kept for its page to pick the seat up.
pub const KEEP_SEATED: Duration = Duration::from_secs(120);

/// A person's validated request, ready for the book.
#[derive(Clone, Debug)]
pub struct Joining {
    /// Index in [`PRESETS`].
    pub preset: usize,
    /// The cleaned display name.
    pub name: String,
    /// The identity (the hash of the person's key).
    pub player: String,
    /// Where they ask from.
    pub addr: ClientAddr,
    /// The bot level for free seats.
    pub bot: String,
    /// The wait before bots.
    pub wait: Duration,
    /// Their contribution to the fair deal.
    pub contribution: Option<[u8; 32]>,
}

/// Where a ticket stands, inside the book.
#[derive(Clone, Debug)]
enum Stage {
    Waiting,
    Seating,
    Done(PairingStatus),
}

#[derive(Clone, Debug)]
struct Ticket {
    who: Joining,
    since: Instant,
    seen: Instant,
    stage: Stage,
}

/// A group to seat at one new table: people in arrival order, the rest of
/// the seats bots of `bot`.
#[derive(Clone, Debug)]
pub struct Group {
    /// The preset.
    pub preset: Preset,
    /// The tickets and their people, in arrival order (seats P1, P2, ...).
    pub people: Vec<(String, Joining)>,
    /// The bot level of the free seats: the longest waiter's choice.
    pub bot: String,
}

/// The pools and tickets.
#[derive(Debug, Default)]
pub struct Book {
    tickets: HashMap<String, Ticket>,
    /// Waiting tickets per preset, oldest first.
    pools: Vec<VecDeque<String>>,
    /// The waiting ticket of each identity.
    waiting: HashMap<String, String>,
    /// Waiting tickets per address (a seated one no longer counts: people
    /// behind one address play on while others of it wait).
    per_addr: HashMap<ClientAddr, usize>,
    /// Waiting tickets forgotten (expired) since the seater last asked:
    /// the store forgets them too.
    expired: Vec<String>,
}

impl Book {
    /// Tickets held, in any stage.
    pub fn len(&self) -> usize {
        self.tickets.len()
    }

    /// Whether no ticket is held.
    pub fn is_empty(&self) -> bool {
        self.tickets.is_empty()
    }

    /// Puts `who` in its preset's pool under the new ticket `id`, unless a
    /// bound refuses it (then nothing changes).
    pub fn join(
        &mut self,
        id: String,
        who: Joining,
        limits: &Limits,
        now: Instant,
    ) -> Result<PairingTicket, Error> {
        if self.pools.len() < PRESETS.len() {
            self.pools.resize_with(PRESETS.len(), VecDeque::new);
        }
        let Some(pool) = self.pools.get(who.preset) else {
            return Err(Error::BadInput("no such preset".to_string()));
        };
        if self.waiting.contains_key(&who.player) {
            return Err(Error::AlreadyWaiting);
        }
        if self.per_addr.get(&who.addr).copied().unwrap_or(0) >= limits.pairing_tickets_per_ip {
            return Err(Error::RateLimited {
                retry_after: 30,
                message: format!(
                    "{} people from your address are waiting, the most it may have: try again soon",
                    limits.pairing_tickets_per_ip
                ),
            });
        }
        if pool.len() >= limits.pairing_pool_size || self.tickets.len() >= limits.pairing_tickets {
            return Err(Error::RateLimited {
                retry_after: 10,
                message: "too many people are waiting for this game: try again in a moment"
                    .to_string(),
            });
        }
        self.waiting.insert(who.player.clone(), id.clone());
        *self.per_addr.entry(who.addr).or_insert(0) += 1;
        self.pools[who.preset].push_back(id.clone());
        self.tickets.insert(
            id.clone(),
            Ticket {
                who,
                since: now,
                seen: now,
                stage: Stage::Waiting,
            },
        );
        self.see(&id, now)
    }

    /// Puts back a waiting ticket kept by a process that is gone, with the
    /// wait it had (`waited`), ahead of anyone who joined later; the caps
    /// took it once already. `false` (nothing changes) if the ticket or
    /// its person is here already, or its preset is no longer offered.
    pub fn restore(&mut self, id: String, who: Joining, waited: Duration, now: Instant) -> bool {
        if self.pools.len() < PRESETS.len() {
            self.pools.resize_with(PRESETS.len(), VecDeque::new);
        }
        if who.preset >= PRESETS.len()
            || self.tickets.contains_key(&id)
            || self.waiting.contains_key(&who.player)
        {
            return false;
        }
        let since = now.checked_sub(waited).unwrap_or(now);
        let pool = &mut self.pools[who.preset];
        let at = pool
            .iter()
            .position(|t| self.tickets.get(t).is_some_and(|x| x.since > since))
            .unwrap_or(pool.len());
        pool.insert(at, id.clone());
        self.waiting.insert(who.player.clone(), id.clone());
        *self.per_addr.entry(who.addr).or_insert(0) += 1;
        self.tickets.insert(
            id,
            Ticket {
                who,
                since,
                seen: now,
                stage: Stage::Waiting,
            },
        );
        true
    }

    /// The waiting tickets that expired since the last call.
    pub fn take_expired(&mut self) -> Vec<String> {
        std::mem::take(&mut self.expired)
    }

    /// Ticket `id` as its holder sees it; asking is its heartbeat.
    pub fn see(&mut self, id: &str, now: Instant) -> Result<PairingTicket, Error> {
        let t = self.tickets.get_mut(id).ok_or(Error::UnknownTicket)?;
        // A settled ticket's time runs from its settling: asking again
        // does not keep it.
        if !matches!(t.stage, Stage::Done(_)) {
            t.seen = now;
        }
        let t = &self.tickets[id];
        let preset = PRESETS[t.who.preset];
        let status = match &t.stage {
            Stage::Waiting => {
                let pool = &self.pools[t.who.preset];
                let first = pool.front().and_then(|f| self.tickets.get(f));
                let due = first.map_or(now, |f| f.since + f.who.wait);
                PairingStatus::Waiting {
                    here: pool.len(),
                    players: preset.players,
                    waited_ms: millis(now.saturating_duration_since(t.since)),
                    bots_in_ms: millis(due.saturating_duration_since(now)),
                }
            }
            Stage::Seating => PairingStatus::Seating,
            Stage::Done(status) => status.clone(),
        };
        Ok(PairingTicket {
            ticket: id.to_string(),
            preset: preset.id.to_string(),
            status,
        })
    }

    /// Cancels waiting ticket `id`. A ticket being seated or seated is not
    /// cancelled (its seat is the person's: they may concede there).
    pub fn cancel(&mut self, id: &str) -> Result<(), Error> {
        let t = self.tickets.get(id).ok_or(Error::UnknownTicket)?;
        match t.stage {
            Stage::Waiting => {
                self.forget(id);
                Ok(())
            }
            Stage::Seating | Stage::Done(_) => Err(Error::SeatTaken(
                "this ticket is already seated at a table".to_string(),
            )),
        }
    }

    /// Records what became of a seating ticket.
    pub fn settle(&mut self, id: &str, status: PairingStatus, now: Instant) {
        if let Some(t) = self.tickets.get_mut(id) {
            t.stage = Stage::Done(status);
            t.seen = now;
        }
    }

    /// The groups due now (taken out of their pools, their tickets marked
    /// as seating), after dropping what expired: a full table's worth of
    /// people, oldest first; or everyone in a pool whose longest waiter
    /// has waited their chosen wait, with bots for the rest.
    pub fn due(&mut self, limits: &Limits, now: Instant) -> Vec<Group> {
        self.expire(limits, now);
        let mut groups = Vec::new();
        for (i, preset) in PRESETS.iter().enumerate() {
            while let Some(pool) = self.pools.get(i) {
                let Some(first) = pool.front().and_then(|f| self.tickets.get(f)) else {
                    break;
                };
                let full = pool.len() >= preset.players;
                if !full && now < first.since + first.who.wait {
                    break;
                }
                let bot = first.who.bot.clone();
                let take = pool.len().min(preset.players);
                let ids: Vec<String> = self.pools[i].drain(..take).collect();
                let mut people = Vec::with_capacity(ids.len());
                for id in ids {
                    if let Some(t) = self.tickets.get_mut(&id) {
                        t.stage = Stage::Seating;
                        self.waiting.remove(&t.who.player);
                        uncount(&mut self.per_addr, t.who.addr);
                        people.push((id, t.who.clone()));
                    }
                }
                groups.push(Group {
                    preset: *preset,
                    people,
                    bot,
                });
            }
        }
        groups
    }

    /// Drops waiting tickets nobody asked about within the heartbeat, and
    /// settled ones kept long enough.
    fn expire(&mut self, limits: &Limits, now: Instant) {
        let gone: Vec<String> = self
            .tickets
            .iter()
            .filter(|(_, t)| match t.stage {
                Stage::Waiting => now.saturating_duration_since(t.seen) > limits.pairing_heartbeat,
                Stage::Seating => false,
                Stage::Done(_) => now.saturating_duration_since(t.seen) > KEEP_SEATED,
            })
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            if matches!(
                self.tickets.get(&id).map(|t| &t.stage),
                Some(Stage::Waiting)
            ) {
                self.expired.push(id.clone());
            }
            self.forget(&id);
        }
    }

    /// Removes ticket `id` from every map.
    fn forget(&mut self, id: &str) {
        let Some(t) = self.tickets.remove(id) else {
            return;
        };
        if self.waiting.get(&t.who.player).is_some_and(|w| w == id) {
            self.waiting.remove(&t.who.player);
        }
        if matches!(t.stage, Stage::Waiting) {
            if let Some(pool) = self.pools.get_mut(t.who.preset) {
                pool.retain(|x| x != id);
            }
            uncount(&mut self.per_addr, t.who.addr);
        }
    }
}

/// One waiting ticket fewer for `addr`.
fn uncount(per_addr: &mut HashMap<ClientAddr, usize>, addr: ClientAddr) {
    if let Some(n) = per_addr.get_mut(&addr) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            per_addr.remove(&addr);
        }
    }
}

/// What the shared state holds of quick pairing: the book, the bell that
/// wakes the seater when a pool may be full, whether the seater runs (it
/// starts with the first ticket), and a counter of the book's changes
/// that a waiting page's long poll watches.
#[derive(Debug)]
pub struct Pairing {
    book: Mutex<Book>,
    /// Rung by a join: a pool may be full.
    pub wake: Notify,
    /// Set once the seater task runs.
    pub started: AtomicBool,
    changes: watch::Sender<u64>,
}

impl Default for Pairing {
    fn default() -> Pairing {
        Pairing {
            book: Mutex::default(),
            wake: Notify::new(),
            started: AtomicBool::new(false),
            changes: watch::channel(0).0,
        }
    }
}

impl Pairing {
    /// Says that the book changed (a ticket joined, left, was seated or
    /// settled): the long polls look again.
    pub fn touch(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A receiver of the book's changes.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The book, locked (for a few map operations; never across `.await`).
    pub fn book(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn who(preset: usize, player: &str, addr: u8, wait_s: u64) -> Joining {
        Joining {
            preset,
            name: player.to_string(),
            player: player.to_string(),
            addr: ClientAddr(IpAddr::from([10, 0, 0, addr])),
            bot: "heuristic".to_string(),
            wait: Duration::from_secs(wait_s),
            contribution: None,
        }
    }

    #[test]
    fn a_full_pool_is_seated_at_once_and_presets_do_not_mix() {
        let limits = Limits::default();
        let mut b = Book::default();
        let t0 = Instant::now();
        // Big Cheese for 4 (preset 0): three people, and one for another preset.
        for (i, p) in ["a", "b", "c"].iter().enumerate() {
            b.join(format!("t{i}"), who(0, p, 1, 20), &limits, t0)
                .unwrap();
        }
        b.join("x".into(), who(1, "x", 2, 20), &limits, t0).unwrap();
        assert!(b.due(&limits, t0).is_empty());
        b.join("t3".into(), who(0, "d", 3, 20), &limits, t0)
            .unwrap();
        let groups = b.due(&limits, t0);
        assert_eq!(groups.len(), 1);
        let ids: Vec<&str> = groups[0].people.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["t0", "t1", "t2", "t3"]);
        assert_eq!(b.see("t0", t0).unwrap().status, PairingStatus::Seating);
        assert!(matches!(
            b.see("x", t0).unwrap().status,
            PairingStatus::Waiting {
                here: 1,
                players: 3,
                ..
            }
        ));
    }

    #[test]
    fn bots_fill_in_after_the_longest_waiters_wait() {
        let limits = Limits::default();
        let mut b = Book::default();
        let t0 = Instant::now();
        b.join("a".into(), who(2, "a", 1, 5), &limits, t0).unwrap();
        b.join("b".into(), who(2, "b", 1, 60), &limits, t0).unwrap();
        assert!(b.due(&limits, t0 + Duration::from_secs(4)).is_empty());
        let groups = b.due(&limits, t0 + Duration::from_secs(5));
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].people.len(), 2);
    }

    #[test]
    fn bounds_refuse_and_change_nothing() {
        let limits = Limits {
            pairing_pool_size: 2,
            pairing_tickets_per_ip: 2,
            ..Limits::default()
        };
        let mut b = Book::default();
        let t0 = Instant::now();
        b.join("a".into(), who(0, "a", 1, 20), &limits, t0).unwrap();
        let e = b
            .join("a2".into(), who(1, "a", 2, 20), &limits, t0)
            .unwrap_err();
        assert!(matches!(e, Error::AlreadyWaiting));
        b.join("b".into(), who(0, "b", 1, 20), &limits, t0).unwrap();
        let e = b
            .join("c".into(), who(1, "c", 1, 20), &limits, t0)
            .unwrap_err();
        assert!(matches!(e, Error::RateLimited { .. }), "{e}");
        let e = b
            .join("d".into(), who(0, "d", 3, 20), &limits, t0)
            .unwrap_err();
        assert!(matches!(e, Error::RateLimited { .. }), "{e}");
        assert_eq!(b.len(), 2);
        // A cancel frees the identity, the address and the pool.
        b.cancel("a").unwrap();
        assert!(matches!(b.see("a", t0), Err(Error::UnknownTicket)));
        b.join("a3".into(), who(0, "a", 1, 20), &limits, t0)
            .unwrap();
    }

    #[test]
    fn an_abandoned_ticket_expires_and_a_settled_one_is_kept_a_while() {
        let limits = Limits {
            pairing_heartbeat: Duration::from_secs(3),
            ..Limits::default()
        };
        let mut b = Book::default();
        let t0 = Instant::now();
        b.join("a".into(), who(0, "a", 1, 60), &limits, t0).unwrap();
        b.join("b".into(), who(0, "b", 1, 60), &limits, t0).unwrap();
        b.see("b", t0 + Duration::from_secs(3)).unwrap();
        assert!(b.due(&limits, t0 + Duration::from_secs(4)).is_empty());
        assert!(matches!(b.see("a", t0), Err(Error::UnknownTicket)));
        assert_eq!(b.take_expired(), ["a"], "the store forgets it too");
        assert!(b.take_expired().is_empty());
        assert!(b.see("b", t0 + Duration::from_secs(4)).is_ok());
        let t1 = t0 + Duration::from_secs(60);
        b.see("b", t1).unwrap();
        let groups = b.due(&limits, t1);
        assert_eq!(groups.len(), 1);
        b.settle(
            "b",
            PairingStatus::Failed {
                message: "x".into(),
            },
            t1,
        );
        b.due(&limits, t1 + KEEP_SEATED);
        assert!(b.see("b", t1).is_ok());
        b.due(&limits, t1 + KEEP_SEATED + Duration::from_secs(61));
        assert!(b.is_empty());
        assert!(
            b.take_expired().is_empty(),
            "a settled one was forgotten when settled"
        );
    }

    /// A ticket kept by a process that is gone comes back with its wait,
    /// ahead of later joiners; never twice, nor for a person who waits.
    #[test]
    fn a_restored_ticket_keeps_its_place_and_its_wait() {
        let limits = Limits::default();
        let mut b = Book::default();
        let t0 = Instant::now() + Duration::from_secs(100);
        b.join("new".into(), who(0, "n", 1, 20), &limits, t0)
            .unwrap();
        assert!(b.restore(
            "old".into(),
            who(0, "o", 2, 20),
            Duration::from_secs(15),
            t0
        ));
        assert!(!b.restore(
            "old".into(),
            who(0, "o", 2, 20),
            Duration::from_secs(15),
            t0
        ));
        assert!(
            !b.restore(
                "again".into(),
                who(0, "n", 3, 20),
                Duration::from_secs(1),
                t0
            ),
            "n waits already"
        );
        let Ok(PairingTicket {
            status:
                PairingStatus::Waiting {
                    waited_ms,
                    bots_in_ms,
                    here,
                    ..
                },
            ..
        }) = b.see("old", t0)
        else {
            panic!("old waits");
        };
        assert_eq!((here, waited_ms), (2, 15_000));
        assert_eq!(bots_in_ms, 5_000, "the longest waiter is the restored one");
        // five seconds on, the pool is due with the restored one first
        let groups = b.due(&limits, t0 + Duration::from_secs(5));
        assert_eq!(groups.len(), 1);
        let ids: Vec<&str> = groups[0].people.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["old", "new"]);
    }

    /// Every preset is a valid table of its game.
    #[test]
    fn the_presets_are_tables_their_games_accept() {
        for p in PRESETS {
            assert!(registry::GAMES.contains(&p.game), "{}", p.id);
            assert!(WAITS_S.contains(&DEFAULT_WAIT_S));
        }
    }
}
