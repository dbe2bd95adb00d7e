//! Per-client-address token buckets for the requests that cost the server
//! something lasting: creating a table, joining a seat, checking a record
//! (its replay costs CPU), starting a post-game analysis, reading one, a
//! quick-pairing ticket, and chat messages (at every table together). A
//! refusal says when to try again (`Retry-After`).
//!
//! A bucket holds up to `burst` tokens and gains one every `every`
//! seconds; each request takes one. Buckets live in one map behind a
//! mutex (never held across `.await`); a full bucket is the same as no
//! bucket, so the map is pruned of full ones when it grows, which bounds
//! it by the addresses active in the last few minutes.

use crate::addr::ClientAddr;
use crate::limits::Limits;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Chat messages one client address may send at once, at every table
/// and from every connection together...
pub const CHAT_IP_BURST: u32 = 20;
/// ...then one per this many seconds.
pub const CHAT_IP_EVERY_S: u32 = 1;
/// Invitations from one address at once, then one more every
/// [`INVITE_EVERY_S`].
pub const INVITE_BURST: u32 = 5;
/// See [`INVITE_BURST`].
pub const INVITE_EVERY_S: u32 = 30;
/// Shared-replay room requests from one address at once, then one a
/// second: a member asks again after every step its leader takes.
pub const ROOM_BURST: u32 = 120;
/// New tournaments an address may make at once...
pub const TOURNAMENT_BURST: u32 = 5;
/// ...then one per this many seconds.
pub const TOURNAMENT_EVERY_S: u32 = 60;

/// What a request spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `POST /api/tables`.
    Create,
    /// `POST /api/tables/{id}/join` (and seat fills).
    Join,
    /// `POST /api/verify`.
    Verify,
    /// `GET /api/tables/{id}/record` (a replay of the whole game).
    Record,
    /// `POST /api/tables/{id}/analysis` that starts an analysis.
    Analysis,
    /// A chat message, at any table.
    Chat,
    /// A WebSocket's `resync` (a whole state built and sent), at any
    /// table.
    Resync,
    /// `POST /api/pairing` (a pairing ticket: a seat later), metered as
    /// joins are but in its own bucket.
    Pairing,
    /// `GET /api/me/friends` (the pages ask every few seconds) and every
    /// follow or block set or cleared, metered as game lists are but in
    /// its own bucket.
    Friends,
    /// `POST /api/me/invites`.
    Invite,
    /// Every shared-replay room request but its opening (a member's long
    /// poll, a join, a step, a line).
    Room,
    /// A passkey ceremony's start (adding one, or signing in), metered as
    /// joins are but in its own bucket.
    Passkey,
    /// A new tournament (entering one is metered as a join).
    Tournament,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Every address's buckets.
#[derive(Debug)]
pub struct Quotas {
    limits: Limits,
    buckets: Mutex<HashMap<(Kind, ClientAddr), Bucket>>,
}

/// Buckets kept before full ones are pruned.
const PRUNE_AT: usize = 50_000;

impl Quotas {
    /// Empty buckets for `limits`.
    pub fn new(limits: Limits) -> Quotas {
        Quotas {
            limits,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn rule(&self, kind: Kind) -> (f64, f64) {
        let l = &self.limits;
        let (burst, every) = match kind {
            Kind::Create => (l.create_burst, l.create_every_s),
            Kind::Join => (l.join_burst, l.join_every_s),
            Kind::Verify => (l.verify_burst, l.verify_every_s),
            Kind::Record => (l.record_burst, l.record_every_s),
            Kind::Analysis => (l.analysis_burst, l.analysis_every_s),
            Kind::Chat => (CHAT_IP_BURST, CHAT_IP_EVERY_S),
            Kind::Resync => (l.resync_burst_per_ip, 1),
            Kind::Pairing => (l.join_burst, l.join_every_s),
            Kind::Friends => (l.record_burst, l.record_every_s),
            Kind::Invite => (INVITE_BURST, INVITE_EVERY_S),
            Kind::Room => (ROOM_BURST, 1),
            Kind::Passkey => (l.join_burst, l.join_every_s),
            Kind::Tournament => (TOURNAMENT_BURST, TOURNAMENT_EVERY_S),
        };
        (f64::from(burst.max(1)), f64::from(every.max(1)))
    }

    /// Takes a token of `kind` for `addr`, or says how long until one is
    /// there.
    pub fn take(&self, kind: Kind, addr: ClientAddr) -> Result<(), Duration> {
        self.take_at(kind, addr, Instant::now())
    }

    /// Gives back a token taken for work that turned out not to be done
    /// here (a table another process serves), up to the burst.
    pub fn give_back(&self, kind: Kind, addr: ClientAddr) {
        let (burst, _) = self.rule(kind);
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(b) = map.get_mut(&(kind, addr)) {
            b.tokens = (b.tokens + 1.0).min(burst);
        }
    }

    fn take_at(&self, kind: Kind, addr: ClientAddr, now: Instant) -> Result<(), Duration> {
        let (burst, every) = self.rule(kind);
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= PRUNE_AT {
            map.retain(|(k, _), b| {
                let (burst, every) = self.rule(*k);
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() / every < burst
            });
        }
        let b = map.entry((kind, addr)).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let gained = now.saturating_duration_since(b.at).as_secs_f64() / every;
        b.tokens = (b.tokens + gained).min(burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) * every))
        }
    }
}

/// One token bucket of its own, for a single client (a seat's chat):
/// `burst` tokens, one more every `every_s` seconds.
#[derive(Clone, Copy, Debug)]
pub struct TokenBucket {
    burst: f64,
    every: f64,
    tokens: f64,
    at: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(burst: u32, every_s: u32) -> TokenBucket {
        let burst = f64::from(burst.max(1));
        TokenBucket {
            burst,
            every: f64::from(every_s.max(1)),
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Takes a token, or says how long until one is there.
    pub fn take(&mut self) -> Result<(), Duration> {
        self.take_at(Instant::now())
    }

    /// Whether the bucket has refilled to its burst (then it is the same
    /// as a new one).
    pub fn is_full(&self) -> bool {
        self.tokens + self.at.elapsed().as_secs_f64() / self.every >= self.burst
    }

    fn take_at(&mut self, now: Instant) -> Result<(), Duration> {
        let gained = now.saturating_duration_since(self.at).as_secs_f64() / self.every;
        self.tokens = (self.tokens + gained).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) * self.every))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_lone_bucket_refills_one_token_per_period() {
        let mut b = TokenBucket::new(2, 5);
        let t0 = Instant::now();
        b.take_at(t0).unwrap();
        b.take_at(t0).unwrap();
        let wait = b.take_at(t0).unwrap_err();
        assert!(wait > Duration::from_secs(4) && wait <= Duration::from_secs(5));
        b.take_at(t0 + Duration::from_secs(5)).unwrap();
        assert!(b.take_at(t0 + Duration::from_secs(5)).is_err());
    }

    use super::*;
    use std::net::IpAddr;

    #[test]
    fn a_burst_then_one_token_per_period_per_address() {
        let limits = Limits {
            create_burst: 3,
            create_every_s: 10,
            ..Limits::default()
        };
        let q = Quotas::new(limits);
        let a = ClientAddr(IpAddr::from([10, 0, 0, 1]));
        let b = ClientAddr(IpAddr::from([10, 0, 0, 2]));
        let t0 = Instant::now();
        for _ in 0..3 {
            q.take_at(Kind::Create, a, t0).unwrap();
        }
        let wait = q.take_at(Kind::Create, a, t0).unwrap_err();
        assert!(wait > Duration::from_secs(9) && wait <= Duration::from_secs(10));
        // Another address and another kind are untouched.
        q.take_at(Kind::Create, b, t0).unwrap();
        q.take_at(Kind::Join, a, t0).unwrap();
        // A token given back can be taken again, never beyond the burst.
        q.give_back(Kind::Create, a);
        q.take_at(Kind::Create, a, t0).unwrap();
        assert!(q.take_at(Kind::Create, a, t0).is_err());
        for _ in 0..10 {
            q.give_back(Kind::Create, b);
        }
        for _ in 0..3 {
            q.take_at(Kind::Create, b, t0).unwrap();
        }
        assert!(q.take_at(Kind::Create, b, t0).is_err());
        // One period later, exactly one more.
        let t1 = t0 + Duration::from_secs(10);
        q.take_at(Kind::Create, a, t1).unwrap();
        assert!(q.take_at(Kind::Create, a, t1).is_err());
    }

    #[test]
    fn ipv6_addresses_count_by_their_56_prefix() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:3f:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:102::1".parse().unwrap();
        assert_eq!(ClientAddr::of(a), ClientAddr::of(b));
        assert_ne!(ClientAddr::of(a), ClientAddr::of(c));
        let mapped: IpAddr = "::ffff:127.0.0.7".parse().unwrap();
        assert_eq!(
            ClientAddr::of(mapped),
            ClientAddr(IpAddr::from([127, 0, 0, 7]))
        );
    }
}
