//! SQL fragments and clocks both the reads and the writes use: the
//! lobby's lists, what counts as idle or as a dead owner, and the clock
//! heartbeats are compared with.

use std::time::Duration;

/// The lobby's list: the newest public tables, through an index, never a
/// scan of every table.
pub(super) const LIST: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id
           AND s.kind = 'human' AND s.token_hash IS NULL), t.result
     FROM tables t WHERE t.public = 1
     ORDER BY t.created_at DESC LIMIT ?1";

/// The tables a person sat at, newest first, with their seat (through
/// the index on `seats.player`).
pub(super) const GAMES_OF: &str =
    "SELECT t.id, t.game, t.players, t.created_at, t.finished_at, t.ended,
        (SELECT COUNT(*) FROM seats f WHERE f.table_id = t.id
           AND f.kind = 'human' AND f.token_hash IS NULL), t.result, s.seat
     FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.player = ?1 ORDER BY t.created_at DESC LIMIT ?2";

/// How far behind the time of a table's last action its `last_active`
/// may be, in seconds (see the append).
pub(super) const ACTIVE_GRAIN_S: i64 = 60;

/// What [`SqliteStore::fence`] reads besides the epoch.
pub(super) struct Liveness {
    pub(super) last_active: Option<i64>,
    pub(super) finished_at: Option<i64>,
}

/// The tables the sweep ends as abandoned: unfinished, and idle since
/// `?1`, or never started (no action) and idle since `?2`.
pub(super) const IDLE: &str = "finished_at IS NULL AND (COALESCE(last_active, created_at) < ?1
     OR (COALESCE(last_active, created_at) < ?2
         AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.table_id = tables.id)))";

/// A node is alive if its heartbeat is younger than the lease: the
/// condition on `tables.owner_node` that lets a claim through.
pub(super) const OWNER_GONE: &str = "(owner_node IS NULL OR owner_node = ?2 OR NOT EXISTS (
       SELECT 1 FROM nodes n WHERE n.id = tables.owner_node AND n.heartbeat_ms > ?3))";

/// Milliseconds since the epoch by this machine's clock (one machine:
/// every process of a SQLite site shares it).
pub(super) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The oldest heartbeat that still counts as alive under `lease`.
pub(super) fn alive_since(lease: Duration) -> i64 {
    now_ms().saturating_sub(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
}
