//! Tournaments as stored (migration 14): one row per tournament holding
//! its whole state as a JSON document (`crate::state::tournaments`), a
//! version that every save compares and bumps, and the process that
//! drives it. A document rather than tables of rounds and seats: a
//! tournament is read and advanced whole (standings, the next round's
//! tables), it is small (its entrants and tables are capped), and one
//! compare-and-set on the version keeps two writers (a join on one
//! process, the director on another) from losing each other's change.
//! The entrants are also kept one row each, so a profile finds the
//! tournaments a person played without reading every document.

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// The tournament id.
    pub id: String,
    /// Its state, as JSON.
    pub doc: String,
    /// Bumped by every save.
    pub version: i64,
    /// `open`, `running` or `finished`.
    pub status: String,
    /// The process that drives it (makes its tables, reads their results).
    pub node: String,
    /// Unix milliseconds it was made.
    pub created_ms: i64,
}
