//! What the store keeps and how it is asked: the rows a table is kept as
//! (tables, seats, actions, fairness), the [`Store`] trait every backend
//! implements, its errors, and the encodings both backends share. It
//! imports nothing above the store.

use game::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use super::lists::{PlayerGame, RatingRow, TableSummary};

/// A storage failure. Its text goes to the server log, never to a client.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A stored JSON column does not parse.
    #[error("stored json: {0}")]
    Json(#[from] serde_json::Error),
    /// The database file cannot be opened or made (its folder is missing,
    /// or not writable): the path and why.
    #[error("the database file {path}: {why}")]
    File {
        /// The file named.
        path: String,
        /// Why it cannot be opened.
        why: String,
    },
    /// A stored value is out of range (a seed that is not a u64, a seat
    /// out of range).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The transaction that held this write (with others) failed to
    /// commit: nothing of it was stored.
    #[error("commit: {0}")]
    Commit(String),
    /// PostgreSQL refused or failed, or its pool had no connection.
    #[error("postgres: {0}")]
    Postgres(String),
    /// The write came from a process that no longer owns the table: another
    /// one claimed it (a newer epoch). Nothing was stored; the table's
    /// history cannot fork.
    #[error("table {table}: written under epoch {epoch}, but it is owned under epoch {current}")]
    Fenced {
        /// The table.
        table: String,
        /// The epoch the write carried.
        epoch: Epoch,
        /// The table's epoch in the store.
        current: Epoch,
    },
    /// The store's schema is newer than this program knows.
    #[error("the database has schema version {found}; this ratrace knows up to {known}: upgrade ratrace")]
    TooNew {
        /// The newest migration applied to the database.
        found: i64,
        /// The newest migration this program has.
        known: i64,
    },
}

/// Per-table settings that are not rules options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableConfig {
    /// How long a bot waits before acting, so people can follow.
    pub bot_delay_ms: u64,
    /// If set, a human to move for longer than this is played by the
    /// heuristic bot for that turn.
    pub turn_timer_ms: Option<u64>,
    /// Whether spectators may read and write the table's chat (by default
    /// only the seated players chat).
    pub spectator_chat: bool,
    /// A tutorial table ("Learn to play"): its deal is the game's
    /// published fixed one (`lobby::tutorial`), its bots are seeded the
    /// same every time, and its result is never rated.
    pub tutorial: bool,
    /// A tournament's table: it plays on with nobody watching (its bots
    /// at the server's minimum speed, an absent person's seat by the
    /// stand-in on the turn timer) and stays in memory until it ends, so
    /// that a round never waits for someone to look.
    pub unattended: bool,
}

impl Default for TableConfig {
    fn default() -> TableConfig {
        TableConfig {
            bot_delay_ms: 600,
            turn_timer_ms: None,
            spectator_chat: false,
            tutorial: false,
            unattended: false,
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person, once they join with a name.
    Human {
        /// The display name, once joined.
        name: Option<String>,
        /// SHA-256 hex of the seat token, once joined.
        token_hash: Option<String>,
    },
    /// A bot, by roster name.
    Bot(String),
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// The seat.
    pub seat: Seat,
    /// Who sits there.
    pub kind: SeatKind,
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1-based sequence number, no gaps.
    pub seq: u64,
    /// Who took it.
    pub seat: Seat,
    /// Its text notation (without the seat).
    pub action: String,
    /// Made by a stand-in for the seat's own player (a person away, out
    /// of time or conceded; a bot program without a process): whether a
    /// person took part is counted from these (the ratings'
    /// [`crate::store::ratings::ENGAGED_DECISIONS`]).
    pub stand_in: bool,
}

/// A table as stored: its header, seats, and (when loaded in full) actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// `bigcheese` or `dalmuti`.
    pub game: String,
    /// The rules version the table plays under.
    pub rules_version: String,
    /// Seats at the start.
    pub players: usize,
    /// Every rules option and its value.
    pub options: BTreeMap<String, String>,
    /// The seed of all chance. Never leaves the server before the end. A
    /// fair-deal table's seed is derived from [`StoredTable::fair`] (and is
    /// final once every human seat is taken); an older table's is a
    /// 64-bit number the server drew.
    pub seed: game::Seed,
    /// The public commitment, from creation: a fair-deal table's is
    /// [`registry::fair::commitment`] of its secret; an older table's the hex
    /// SHA-256 of its seed's decimal text.
    pub seed_hash: String,
    /// The fair-deal scheme's secret and the players' contributions
    /// (`None` for tables made before it).
    pub fair: Option<StoredFair>,
    /// Bot delay and turn timer.
    pub config: TableConfig,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, once the game is over.
    pub finished_at: Option<i64>,
    /// Every seat, in order.
    pub seats: Vec<StoredSeat>,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// Who may find and join the table: listed in the lobby, or reached
    /// only through the invite link.
    pub access: Access,
    /// Rematch links, the identities of the people seated, the result
    /// (what the social pages show).
    pub social: Social,
}

impl StoredTable {
    /// The stored table as a game record (actions as `SEAT ACTION`).
    pub fn record(&self) -> game::Record {
        game::Record {
            game: self.game.clone(),
            rules_version: self.rules_version.clone(),
            players: self.players,
            options: self.options.clone(),
            seed: self.seed,
            names: Vec::new(),
            actions: self
                .actions
                .iter()
                .map(|a| format!("{} {}", a.seat, a.action))
                .collect(),
            outcome: None,
            seed_hash: self.fair.is_none().then(|| self.seed_hash.clone()),
            fairness: self
                .fair
                .as_ref()
                .map(|f| f.fairness(self.finished_at.is_some())),
        }
    }
}

/// What a table knows of the people around it and of the games before and
/// after it: none of it changes the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Social {
    /// The finished table this one is the rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this (finished) table, once someone asked for it.
    pub rematch: Option<String>,
    /// Per seat, the identity of the person who took it: the SHA-256 hex of
    /// the key their browser keeps (never the key).
    pub players: BTreeMap<Seat, String>,
    /// Per seat, where the person who took it joined from
    /// ([`crate::social::origin`]: a hash, never the address).
    pub origins: BTreeMap<Seat, String>,
    /// Per seat whose person conceded: how many actions the game had then
    /// (a stand-in plays the seat from there; the result rates them last).
    pub conceded: BTreeMap<Seat, u64>,
    /// The game's outcome as JSON (`game::Outcome`), once recorded after
    /// the end.
    pub result: Option<String>,
}

/// A fair-deal table's inputs (docs/server.md, "Fairness: commit,
/// contribute, reveal").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFair {
    /// The server's secret, committed to at creation.
    pub secret: [u8; 32],
    /// Each human's contribution, by seat.
    pub contributions: BTreeMap<Seat, [u8; 32]>,
    /// The table id the seed is bound to (`ratrace-fair/2` and `/3`);
    /// `None` for a table made before the binding (`ratrace-fair/1`).
    pub table: Option<String>,
    /// Version 3: the commitment is signed by the server's key (tables
    /// made before are version 1 or 2).
    pub signed: bool,
}

impl StoredFair {
    /// A new table's fair deal: a fresh secret, bound to table `id` and
    /// signed (version 3), no contribution yet.
    pub fn new(id: &str) -> StoredFair {
        StoredFair {
            secret: registry::fair::new_secret(),
            contributions: BTreeMap::new(),
            table: Some(id.to_string()),
            signed: true,
        }
    }

    /// The version its seed is made by.
    pub fn binding(&self) -> registry::fair::Binding<'_> {
        use registry::fair::Binding;
        match (&self.table, self.signed) {
            (None, _) => Binding::Unbound,
            (Some(t), false) => Binding::Table(t),
            (Some(t), true) => Binding::Signed(t),
        }
    }

    /// The seed these inputs give.
    pub fn seed(&self) -> game::Seed {
        registry::fair::seed(self.binding(), &self.secret, &self.contributions)
    }

    /// The record's fairness section; the secret only if `reveal`. A
    /// signed one's signature is added where the server's key is
    /// (`AppState::sign`).
    pub fn fairness(&self, reveal: bool) -> game::Fairness {
        registry::fair::fairness(self.binding(), &self.secret, &self.contributions, reveal)
    }
}

/// A person taking a free human seat: what [`Store::take_seat_as`]
/// writes, the same for every backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatTaking {
    /// The table.
    pub table: String,
    /// The seat taken.
    pub seat: Seat,
    /// The display name.
    pub name: String,
    /// The SHA-256 of the seat token (never the token).
    pub token_hash: String,
    /// The person's contribution to a fair deal, if the table has one.
    pub contribution: Option<[u8; 32]>,
    /// The person's identity (the hash of their key), if they sent one.
    pub player: Option<String>,
    /// Where they joined from ([`crate::social::origin`]).
    pub origin: Option<String>,
    /// The ownership epoch the write is fenced by.
    pub epoch: Epoch,
}

impl SeatTaking {
    /// A person taking `seat` under `name`, with no contribution,
    /// identity or origin.
    pub fn person(table: &str, seat: Seat, name: &str, token_hash: &str, epoch: Epoch) -> Self {
        SeatTaking {
            table: table.to_string(),
            seat,
            name: name.to_string(),
            token_hash: token_hash.to_string(),
            contribution: None,
            player: None,
            origin: None,
            epoch,
        }
    }
}

/// How a table is reached (tables are private by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Listed in the lobby, and joined without the invite key.
    pub public: bool,
    /// SHA-256 hex of the invite key a private table's seats need; `None`
    /// for public tables and tables created before keys existed.
    pub invite_hash: Option<String>,
    /// SHA-256 hex of the creator's token (fills an empty seat with a bot).
    pub creator_hash: Option<String>,
    /// The client address that created the table (live-table caps).
    pub owner: Option<String>,
}

impl Access {
    /// Whether `key` opens the table to whoever has it: any key for a
    /// table without an invite key (public, or from before keys), else
    /// only its own.
    pub fn admits(&self, key: Option<&str>) -> bool {
        match &self.invite_hash {
            None => true,
            // (hashes compared: the time it takes says nothing of the key)
            Some(hash) => key.is_some_and(|k| crate::ids::sha256_hex(k) == *hash),
        }
    }
}

impl StoredTable {
    /// Whether the bearer of `key` (an invite key) or `token` (a seat's
    /// token) may see this table's game: anyone at a table without an
    /// invite key; else its key, or a seat's token.
    pub fn admits(&self, key: Option<&str>, token: Option<&str>) -> bool {
        if self.access.admits(key) {
            return true;
        }
        let Some(token) = token else {
            return false;
        };
        let hash = crate::ids::sha256_hex(token);
        self.seats
            .iter()
            .any(|s| matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash))
    }
}

/// A table's ownership epoch: the fencing token that keeps two processes from writing one table. Every claim
/// of a table by a process raises it by one, and every write a table's
/// owner makes carries the epoch it claimed under; the store refuses a
/// write whose epoch is not the table's current one
/// ([`StoreError::Fenced`]).
pub type Epoch = i64;

/// A `ratrace serve` process as the store knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// A random id, new at every start.
    pub id: String,
    /// Where the other processes reach it (its cluster listener), e.g.
    /// `http://10.0.0.5:8081`; empty for a process nobody forwards to.
    pub url: String,
}

/// A change some process of the site made ([`Store::changes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The lobby changed: a table was made, joined, filled or ended.
    Lobby,
    /// This process left the site (its id): its tables may be taken over.
    Left(String),
    /// Changes may have been missed (the listening connection dropped):
    /// forget what was cached.
    Resync,
}

/// Who owns a table after a [`Store::claim`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// The claiming process does, under this epoch.
    Mine(Epoch),
    /// Another live process does.
    Other(Node),
    /// No such table.
    Missing,
}

/// Every column of one table, its seats and its actions, as stored: what
/// `ratrace db copy` moves between backends, nothing lost or recomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDump {
    /// The table as the server reads it.
    pub table: StoredTable,
    /// Unix seconds of the last action or join.
    pub last_active: Option<i64>,
    /// `over` or `abandoned` once finished.
    pub ended: Option<String>,
    /// Unix seconds of each action, in order.
    pub action_times: Vec<i64>,
}

/// The one storage interface of the server. Every method is blocking and
/// commits before it returns.
///
/// Ownership: several processes may share one store. A table is
/// written by one process at a time, the one whose [`Store::claim`]
/// succeeded last; its writes carry the [`Epoch`] that claim returned, and
/// a write under an older epoch is refused. A process is alive while its
/// [`Store::heartbeat`] is younger than the lease; a table whose owner is
/// dead (or left) may be claimed by any other process.
pub trait Store: Send + Sync + 'static {
    /// `sqlite` or `postgres`, for logs.
    fn backend(&self) -> &'static str;

    /// Stores a new table with its seats (no actions), owned by `node`
    /// under epoch 1. A rematch (`social.rematch_of`) is linked from the
    /// table it follows in the same transaction, and refused if that table
    /// already has one.
    fn create_table(&self, table: &StoredTable, node: &str) -> Result<Epoch, StoreError>;

    /// Appends action `seq` (1-based) of a table, and when `ends` is true
    /// marks the game over in the same transaction (so a crash can never
    /// leave a finished game unmarked). Fails, storing nothing, if that seq
    /// is already stored, the game is over, or `epoch` is not the table's
    /// ([`StoreError::Fenced`]).
    fn append_action(
        &self,
        table: &str,
        action: &StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
    ) -> Result<(), StoreError>;

    /// [`Store::append_action`] without blocking the caller: returns at
    /// once and calls `done` (on some other thread) with the outcome once
    /// the action is committed or has failed. The default runs
    /// `append_action` on tokio's blocking pool, so it must be called
    /// inside a tokio runtime.
    #[allow(clippy::too_many_arguments)]
    fn append_action_then(
        self: Arc<Self>,
        table: String,
        action: StoredAction,
        at: i64,
        ends: bool,
        epoch: Epoch,
        done: Done<()>,
    ) {
        tokio::task::spawn_blocking(move || {
            done(self.append_action(&table, &action, at, ends, epoch))
        });
    }

    /// Records that a table's game is over (repairs; the normal end is
    /// stored with the last action). Needs no epoch: it only ever writes
    /// what the stored actions already say.
    fn mark_finished(&self, table: &str, at: i64) -> Result<(), StoreError>;

    /// Ends a table that reached the server's length cap as abandoned.
    fn mark_abandoned(&self, table: &str, at: i64, epoch: Epoch) -> Result<(), StoreError>;

    /// Ends as abandoned at `at` every unfinished table with no activity
    /// (an action or a join) since `before`, and every table that never
    /// started (no action) with none since `unstarted_before` (unix
    /// seconds); returns their ids.
    fn abandon_idle(
        &self,
        before: i64,
        unstarted_before: i64,
        at: i64,
    ) -> Result<Vec<String>, StoreError>;

    /// Puts bot `bot` in a human seat nobody has joined. Returns `false`
    /// (and changes nothing) if the seat is not a free human seat.
    fn fill_seat(
        &self,
        table: &str,
        seat: Seat,
        bot: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError>;

    /// Records that the person in `seat` conceded when the game had `at`
    /// actions. Returns `false` (and changes nothing) unless the seat is a
    /// taken human seat that has not conceded, at an unfinished table.
    fn concede(&self, table: &str, seat: Seat, at: u64, epoch: Epoch) -> Result<bool, StoreError>;

    /// Gives the seat that the person `player` (their identity's hash)
    /// holds a new token (`token_hash`): the person comes back from
    /// another device. Returns `false` (and changes nothing) unless the
    /// seat is a taken human seat of that person, at an unfinished table.
    /// The seat's old token no longer opens it.
    fn retoken(
        &self,
        table: &str,
        seat: Seat,
        player: &str,
        token_hash: &str,
        epoch: Epoch,
    ) -> Result<bool, StoreError>;

    /// Ids of every table whose game is not over (start-up repair).
    fn unfinished_ids(&self) -> Result<Vec<String>, StoreError>;

    /// Live (unfinished) tables in all, and those created by `owner`.
    fn count_live(&self, owner: &str) -> Result<(usize, usize), StoreError>;

    /// Seats a person in a free human seat, with their contribution to a
    /// fair deal if any. Returns `false` (and changes nothing) if the seat
    /// is not a free human seat.
    fn take_seat(
        &self,
        table: &str,
        seat: Seat,
        name: &str,
        token_hash: &str,
        contribution: Option<[u8; 32]>,
        epoch: Epoch,
    ) -> Result<bool, StoreError> {
        let mut taking = SeatTaking::person(table, seat, name, token_hash, epoch);
        taking.contribution = contribution;
        self.take_seat_as(taking)
    }

    /// [`Store::take_seat`], linking the seat to the person's identity
    /// (`player`, the hash of their key) when they sent one, and to where
    /// they joined from (`origin`, [`crate::social::origin`]).
    fn take_seat_as(&self, taking: SeatTaking) -> Result<bool, StoreError>;

    /// The tables whose game ended by the rules but whose result is not
    /// recorded (a crash between the last action and the result), with
    /// ids after `after` in byte order, at most `limit`.
    fn unrecorded_ids(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Adds a seated person's contribution to a fair deal that has none for
    /// that seat yet (a rematch's seats are taken when it is made; each
    /// person contributes when they arrive). Returns `false` (and changes
    /// nothing) if the seat has one or the game is over.
    fn contribute(
        &self,
        table: &str,
        seat: Seat,
        value: [u8; 32],
        epoch: Epoch,
    ) -> Result<bool, StoreError>;

    /// Records a finished game's result once (its outcome on the table)
    /// and, if it counts ([`crate::store::ratings::rateable`]), moves the ratings
    /// of its people, in one transaction. `false` (nothing changed) if a
    /// result is recorded already or the table did not end by the rules.
    fn record_result(
        &self,
        table: &str,
        result: &crate::store::ratings::GameResult,
    ) -> Result<bool, StoreError>;

    /// The tables where person `player` took a seat, newest first, at
    /// most `limit`.
    fn games_of(&self, player: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError>;

    /// The best rated people of `game`, at most `limit`.
    fn leaderboard(&self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StoreError>;

    /// Stores the post-game analysis of finished table `table` (its JSON,
    /// format `format`) and each seat's summary of it (`seats`),
    /// replacing any earlier one ([`crate::analysis`]).
    fn put_analysis(
        &self,
        table: &str,
        format: &str,
        body: &str,
        at: i64,
        seats: &[crate::store::profile::SeatAccuracy],
    ) -> Result<(), StoreError>;

    /// The stored analysis of table `table`: its format and JSON.
    fn analysis(&self, table: &str) -> Result<Option<(String, String)>, StoreError>;

    /// The public profile of the rated person whose id begins with
    /// `short` (see [`crate::store::profile`]): per game at most `points`
    /// of the newest rating updates at public tables, and at most `games`
    /// of their newest finished public games.
    fn profile(
        &self,
        short: &str,
        points: usize,
        games: usize,
    ) -> Result<crate::store::profile::Lookup, StoreError>;
    /// Person `player`'s rating in every game they are rated in.
    fn ratings_of(&self, player: &str) -> Result<Vec<RatingRow>, StoreError>;

    /// The person whose whole id begins with `short`, among those who
    /// ever held a seat (see [`crate::store::relations`]).
    fn find_person(&self, short: &str) -> Result<crate::store::relations::Person, StoreError>;
    /// Person `owner`'s follows and blocks, newest first, at most `limit`
    /// of each kind.
    fn relations_of(
        &self,
        owner: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::relations::RelationRow>, StoreError>;
    /// Sets or clears one relation, within its cap.
    fn set_relation(
        &self,
        change: crate::store::relations::RelationChange,
    ) -> Result<crate::store::relations::SetOutcome, StoreError>;
    /// Whether `owner` blocks `other`.
    fn blocks(&self, owner: &str, other: &str) -> Result<bool, StoreError>;

    /// Stores a passkey unless its person holds `cap` already (`false`)
    /// or its credential id is stored (an error).
    fn add_passkey(
        &self,
        row: &crate::store::passkeys::PasskeyRow,
        cap: usize,
    ) -> Result<bool, StoreError>;
    /// The passkey whose credential id is `id`.
    fn passkey(&self, id: &str) -> Result<Option<crate::store::passkeys::PasskeyRow>, StoreError>;
    /// Person `player`'s passkeys, oldest first.
    fn passkeys_of(
        &self,
        player: &str,
    ) -> Result<Vec<crate::store::passkeys::PasskeyRow>, StoreError>;
    /// Passkey `id` signed someone in at `at`; its credential as updated
    /// (its signature counter).
    fn passkey_used(&self, id: &str, passkey: &str, at: i64) -> Result<(), StoreError>;
    /// Removes passkey `id` if person `player` holds it: whether it did.
    fn remove_passkey(&self, player: &str, id: &str) -> Result<bool, StoreError>;

    /// Keeps a waiting pairing ticket (see [`crate::store::tickets`]).
    fn put_ticket(&self, row: &crate::store::tickets::TicketRow) -> Result<(), StoreError>;
    /// Forgets pairing ticket `id` (seated, cancelled or expired).
    fn drop_ticket(&self, id: &str) -> Result<(), StoreError>;
    /// The tickets held by processes other than `node` whose heartbeat is
    /// older than `lease` (or gone), oldest first, at most `limit`.
    fn stray_tickets(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<crate::store::tickets::TicketRow>, StoreError>;
    /// Ticket `id` passes from process `from` to `to`, unless another
    /// took it first (`false`).
    fn take_ticket(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError>;

    /// Stores new tournament `row`.
    fn put_tournament(
        &self,
        row: &crate::store::tournaments::TournamentRow,
    ) -> Result<(), StoreError>;
    /// Replaces tournament `id`'s document and status if its version is
    /// still `version` (it becomes one more): whether it did.
    fn save_tournament(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        status: &str,
    ) -> Result<bool, StoreError>;
    /// Tournament `id`.
    fn tournament(
        &self,
        id: &str,
    ) -> Result<Option<crate::store::tournaments::TournamentRow>, StoreError>;
    /// The newest tournaments, unfinished first, at most `limit`.
    fn tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::tournaments::TournamentRow>, StoreError>;
    /// The unfinished tournaments that process `node` drives, and those
    /// whose process is gone (no heartbeat within `lease`), at most `limit`.
    fn driven_tournaments(
        &self,
        node: &str,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<crate::store::tournaments::TournamentRow>, StoreError>;
    /// Passes tournament `id` to process `to`, if `from` still drives it.
    fn take_tournament(&self, id: &str, from: &str, to: &str) -> Result<bool, StoreError>;
    /// Notes that person `player` entered tournament `id` (once).
    fn enter_tournament(&self, id: &str, player: &str, at: i64) -> Result<(), StoreError>;
    /// The tournaments person `player` entered, newest first, at most `limit`.
    fn tournaments_of(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::tournaments::TournamentRow>, StoreError>;

    /// One table with its seats and actions.
    fn load(&self, id: &str) -> Result<Option<StoredTable>, StoreError>;

    /// Every table whose game is not over, with seats and actions.
    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError>;

    /// The newest public tables first, at most `limit`.
    fn list(&self, limit: usize) -> Result<Vec<TableSummary>, StoreError>;

    /// Records that `node` is alive now (by the store's clock), with the
    /// address the others reach it at.
    fn heartbeat(&self, node: &Node) -> Result<(), StoreError>;

    /// Forgets `node` (it is shutting down): its tables may be claimed at
    /// once.
    fn leave(&self, node: &str) -> Result<(), StoreError>;

    /// Makes `node` the owner of table `id` under a new epoch, unless a
    /// live other node (a heartbeat younger than `lease`) owns it.
    fn claim(&self, id: &str, node: &str, lease: Duration) -> Result<Ownership, StoreError>;

    /// Gives up table `id` if `node` still owns it under `epoch`, so the
    /// next process that needs it claims it without waiting for a lease.
    fn release(&self, id: &str, node: &str, epoch: Epoch) -> Result<(), StoreError>;

    /// Up to `limit` unfinished tables whose owner is neither `node` nor
    /// alive: the tables of a process that died or left, for the others
    /// to take over.
    fn orphans(&self, node: &str, lease: Duration, limit: usize)
        -> Result<Vec<String>, StoreError>;

    /// What the other processes of the site changed, as it happens
    /// (PostgreSQL's LISTEN/NOTIFY), for caches and quick take-overs;
    /// `None` for a backend that cannot say (SQLite: then nothing is
    /// cached).
    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        None
    }

    /// The processes whose heartbeat is younger than `lease`, by id.
    fn live_nodes(&self, lease: Duration) -> Result<Vec<Node>, StoreError>;

    /// Up to `limit` table ids greater than `after`, in order (a copy
    /// walks every table with it).
    fn ids_after(&self, after: &str, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Table `id` with every stored column, for a copy.
    fn dump(&self, id: &str) -> Result<Option<TableDump>, StoreError>;

    /// Stores a dumped table as it was (unowned). Fails if the id exists.
    fn restore(&self, dump: &TableDump) -> Result<(), StoreError>;

    /// A random secret shared by every process of the site, made once and
    /// kept in the store: 64 hex digits, the same for every caller and
    /// every call.
    fn site_secret(&self) -> Result<String, StoreError>;
}

/// The folder that holds a SQLite store's files (the database, its WAL
/// and shared memory), made absolute; `None` for PostgreSQL and an
/// in-memory store.
pub fn folder_of(spec: &str) -> Option<std::path::PathBuf> {
    if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
        return None;
    }
    let path = spec.strip_prefix("sqlite:").unwrap_or(spec);
    if path == ":memory:" {
        return None;
    }
    let path = std::path::Path::new(path);
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let folder = absolute.parent()?.to_path_buf();
    Some(std::fs::canonicalize(&folder).unwrap_or(folder))
}

/// What a non-blocking write calls with its outcome.
pub type Done<T> = Box<dyn FnOnce(Result<T, StoreError>) + Send>;

/// A fresh node id: 16 random hex digits.
pub fn new_node_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}
