//! Several `ratrace serve` processes, one site: heartbeats, taking over the
//! tables of a process that died, and forwarding a request for a table to
//! the process that owns it.
//!
//! Ownership lives in the store, not in a home-made protocol: a table is
//! owned by the process whose claim raised its epoch last, and every write
//! carries that epoch ([`crate::store::Epoch`]), so a stale owner can never
//! append. A process heartbeats every quarter of the lease; one silent for
//! a whole lease counts as dead, and the others claim its tables, replay
//! them from the action log and go on. A process that finds it missed its
//! own lease (it was stopped, or its database was unreachable) hands every
//! table it holds back and claims them again, since another process may
//! have taken some.
//!
//! Any process serves any request. One that is not the owner of the table
//! a request is about forwards it, WebSocket upgrades included, to the
//! owner's cluster listener and pipes the bytes both ways; the client
//! never notices. Forwarding rather than redirecting works behind any load
//! balancer with one public address. The cluster listener trusts only
//! requests that carry the site's secret (kept in the store), and takes
//! the client's address from them, so quotas count the real client.
//!
//! Files: `forward.rs` (a request for another process's table; the
//! cluster listener's guard). What a process knows of the site
//! ([`Cluster`]) and its heartbeats and take-overs live with the server's
//! state (`crate::state::cluster`, `crate::state::nodes`).

pub mod forward;

pub use crate::state::cluster::{Cluster, PEER_HEADER, SECRET_HEADER};
