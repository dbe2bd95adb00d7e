//! Quick pairing's waiting tickets, kept (migration 13) so that a pool
//! survives its process: a ticket is stored before its holder is told it
//! waits, and dropped once it is seated, cancelled or expired. A process
//! that starts (or, with several processes, one that outlives another)
//! takes the tickets of processes that are gone and puts them back in its
//! pools with the wait they had. The process that holds a ticket is its
//! `node`; taking one is a compare-and-set on it, so two survivors never
//! both take the same ticket.

/// A waiting ticket as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketRow {
    /// The ticket (its holder's secret).
    pub id: String,
    /// The preset's id.
    pub preset: String,
    /// The identity (the hash of the person's key).
    pub player: String,
    /// Their display name.
    pub name: String,
    /// The address they asked from.
    pub addr: String,
    /// The bot level for free seats.
    pub bot: String,
    /// The wait before bots, milliseconds.
    pub wait_ms: i64,
    /// Their contribution to the fair deal (hex), if any.
    pub contribution: Option<String>,
    /// Unix milliseconds they joined.
    pub joined_ms: i64,
    /// The process that holds it.
    pub node: String,
}
