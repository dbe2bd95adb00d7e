//! The writes the writer thread commits: one variant per kind of write,
//! each with what it writes, and what a committed write reports.

pub(super) use crate::store::columns::Append;
use crate::store::model::{Done, Epoch, Node, Ownership, StoredTable, TableDump};
use game::Seat;
use std::time::Duration;

/// A write for the writer thread and whom to tell its outcome.
pub(super) struct Job {
    pub(super) write: Write,
    pub(super) done: Done<Applied>,
}

/// What a committed write reports.
#[derive(Debug)]
pub(super) enum Applied {
    /// Whether it changed anything (a seat that was not free did not).
    Changed(bool),
    /// The ids it touched (the abandoned tables).
    Ids(Vec<String>),
    /// Who owns the table after a claim.
    Owner(Ownership),
    /// A value read back (the site's secret).
    Text(String),
    /// What a relation set or cleared did.
    Set(crate::store::relations::SetOutcome),
}

impl Applied {
    pub(super) fn changed(self) -> bool {
        match self {
            Applied::Changed(c) => c,
            Applied::Ids(ids) => !ids.is_empty(),
            Applied::Owner(o) => matches!(o, Ownership::Mine(_)),
            Applied::Text(_) => true,
            Applied::Set(s) => s == crate::store::relations::SetOutcome::Changed,
        }
    }
}

/// Most writes committed in one transaction.
pub(super) const MAX_BATCH: usize = 1024;

/// A write waiting to be committed: one variant per kind, each holding
/// what it writes (applied by `writer.rs`).
#[derive(Debug)]
pub(super) enum Write {
    Create(Box<StoredTable>, String),
    Restore(Box<TableDump>),
    Append(Append),
    Abandon(Abandon),
    Fill(Fill),
    Finish(Finish),
    TakeSeat(TakeSeat),
    Contribute(Contribute),
    Concede(Concede),
    Retoken(Retoken),
    Heartbeat(Node),
    Leave(String),
    Claim(Claim),
    Release(Release),
    /// Stores this secret unless the site has one; reads the site's back.
    SiteSecret(String),
    /// A finished table's analysis (replacing an earlier one).
    Analysis(Analysis),
    /// A finished game's result and the ratings it moves.
    Result(RecordResult),
    /// A follow or block set or cleared.
    Relation(crate::store::relations::RelationChange),
    /// A passkey added or used.
    Passkey(PasskeyWrite),
    /// A pairing ticket kept, forgotten or taken over.
    Ticket(TicketWrite),
    /// A tournament made, saved, taken over or entered.
    Tournament(TournamentWrite),
}

/// See [`Write::Abandon`].
#[derive(Debug)]
pub(super) struct Abandon {
    pub(super) before: i64,
    pub(super) unstarted_before: i64,
    pub(super) at: i64,
}

/// See [`Write::Fill`].
#[derive(Debug)]
pub(super) struct Fill {
    pub(super) table: String,
    pub(super) seat: Seat,
    pub(super) bot: String,
    pub(super) epoch: Epoch,
}

/// See [`Write::Finish`].
#[derive(Debug)]
pub(super) struct Finish {
    pub(super) table: String,
    pub(super) at: i64,
    pub(super) ended: &'static str,
    /// `None` for a repair, which needs no ownership.
    pub(super) epoch: Option<Epoch>,
}

/// See [`Write::TakeSeat`]: the shared request.
pub(super) type TakeSeat = crate::store::model::SeatTaking;

/// See [`Write::Contribute`].
#[derive(Debug)]
pub(super) struct Contribute {
    pub(super) table: String,
    pub(super) seat: Seat,
    pub(super) value: [u8; 32],
    pub(super) epoch: Epoch,
}

/// See [`Write::Concede`].
#[derive(Debug)]
pub(super) struct Concede {
    pub(super) table: String,
    pub(super) seat: Seat,
    pub(super) at: u64,
    pub(super) epoch: Epoch,
}

/// See [`Write::Retoken`].
#[derive(Debug)]
pub(super) struct Retoken {
    pub(super) table: String,
    pub(super) seat: Seat,
    pub(super) player: String,
    pub(super) token_hash: String,
    pub(super) epoch: Epoch,
}

/// See [`Write::Claim`].
#[derive(Debug)]
pub(super) struct Claim {
    pub(super) table: String,
    pub(super) node: String,
    pub(super) lease: Duration,
}

/// See [`Write::Release`].
#[derive(Debug)]
pub(super) struct Release {
    pub(super) table: String,
    pub(super) node: String,
    pub(super) epoch: Epoch,
}

/// A finished table's analysis (replacing an earlier one).
#[derive(Debug)]
pub(super) struct Analysis {
    pub(super) table: String,
    pub(super) format: String,
    pub(super) body: String,
    pub(super) at: i64,
    pub(super) seats: Vec<crate::store::profile::SeatAccuracy>,
}

/// A finished game's result and the ratings it moves.
#[derive(Debug)]
pub(super) struct RecordResult {
    pub(super) table: String,
    pub(super) result: Box<crate::store::ratings::GameResult>,
}

/// A passkey write.
#[derive(Debug)]
pub(super) enum PasskeyWrite {
    /// Stored unless its person holds the cap already.
    Add(crate::store::passkeys::PasskeyRow, usize),
    /// Signed someone in: the credential as updated, and when.
    Used {
        /// The credential id.
        id: String,
        /// The credential as updated.
        passkey: String,
        /// Unix seconds.
        at: i64,
    },
    /// Removed, if its person is `player`.
    Remove {
        /// The person.
        player: String,
        /// The credential id.
        id: String,
    },
}

/// A pairing ticket write.
#[derive(Debug)]
pub(super) enum TicketWrite {
    /// Kept.
    Put(crate::store::tickets::TicketRow),
    /// Forgotten.
    Drop(String),
    /// Passes to process `to`, if process `from` still holds it.
    Take {
        /// The ticket.
        id: String,
        /// Who held it.
        from: String,
        /// Who takes it.
        to: String,
    },
}

/// A tournament write.
#[derive(Debug)]
pub(super) enum TournamentWrite {
    /// A new one.
    Put(crate::store::tournaments::TournamentRow),
    /// Its document and status replaced, if its version is `version`.
    Save {
        /// The tournament.
        id: String,
        /// The version the document was read at.
        version: i64,
        /// The new document.
        doc: String,
        /// The new status.
        status: String,
    },
    /// Passes to process `to`, if process `from` still drives it.
    Take {
        /// The tournament.
        id: String,
        /// Who drove it.
        from: String,
        /// Who takes it.
        to: String,
    },
    /// A person entered it.
    Enter {
        /// The tournament.
        id: String,
        /// The person's identity.
        player: String,
        /// Unix milliseconds.
        at: i64,
    },
}
