//! Follows and blocks between people (migration 11): one row per
//! (owner, kind, other), the whole ids of both. A follow is silent (the
//! person followed is not told), so it is no way to reach anyone; a block
//! keeps the blocked person's invitations and chat away from its owner
//! and hides the owner's presence from them. Each person holds at most a
//! capped number of each kind, which the backends check in the same
//! statement that inserts (see [`RelationChange`]).

use serde::Serialize;

/// A kind of relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The owner sees where the other is and may invite them.
    Follow,
    /// The other may not invite the owner, nor be seen chatting by them,
    /// nor see where the owner is.
    Block,
}

impl Relation {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Follow => "follow",
            Relation::Block => "block",
        }
    }
}

/// One relation of a person, as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct RelationRow {
    /// Follow or block.
    pub kind: Relation,
    /// The other person's whole id.
    pub player: String,
    /// The name they last played under.
    pub name: String,
    /// Unix seconds of the relation.
    pub at: i64,
    /// Whether the other person blocks the owner (then the owner is not
    /// shown where they are).
    pub blocks_owner: bool,
}

/// A relation set or cleared.
#[derive(Clone, Debug)]
pub struct RelationChange {
    /// Follow or block.
    pub kind: Relation,
    /// Whose relation it is (whole id).
    pub owner: String,
    /// To whom (whole id).
    pub other: String,
    /// Set (`true`) or cleared.
    pub on: bool,
    /// The most relations of this kind the owner may hold: a new one past
    /// it is refused ([`SetOutcome::Full`]).
    pub cap: usize,
    /// Unix seconds.
    pub at: i64,
}

/// What a [`RelationChange`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// It was set or cleared.
    Changed,
    /// It already was as asked.
    Unchanged,
    /// Refused: the owner holds `cap` of this kind already.
    Full,
}

/// Who a short id names, among the people who ever held a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Person {
    /// Nobody who held a seat has that short id.
    Unknown,
    /// Two people share it.
    Ambiguous,
    /// The one person: their whole id and the name they last played under.
    Found {
        /// The whole id.
        player: String,
        /// Their newest seat's name.
        name: String,
    },
}
