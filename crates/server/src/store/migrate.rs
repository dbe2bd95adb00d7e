//! The versioned schema of both backends: one list of migrations, each
//! written in both SQL dialects side by side, so the two schemas can never
//! drift apart in their versions.
//!
//! A database records every migration it has had in `schema_migrations`
//! (version, name, unix seconds). At start-up each process applies, in one
//! transaction, those it lacks, in order; PostgreSQL takes an advisory lock
//! first so several processes starting together migrate once. A database
//! with a migration newer than this program refuses to open
//! ([`super::StoreError::TooNew`]) rather than be written by code that does
//! not know its shape.
//!
//! SQLite files made before migrations existed (the first releases) have the
//! tables of migration 1 but no `schema_migrations`: migration 1 creates
//! only what is missing, and the SQLite backend first adds the columns
//! the limits and the private tables added, so such a file is brought up to date without loss.

/// One step of the schema.
#[derive(Debug)]
pub struct Migration {
    /// 1, 2, 3…: applied in this order, each once.
    pub version: i64,
    /// What it does, for `schema_migrations` and the logs.
    pub name: &'static str,
    /// The step in SQLite's dialect.
    pub sqlite: &'static str,
    /// The step in PostgreSQL's dialect.
    pub postgres: &'static str,
}

/// The table that records applied migrations, in both dialects (the same
/// text works in both).
pub const LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
  version BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)";

/// Every migration, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "tables, seats and actions",
        sqlite: "
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  rules_version TEXT NOT NULL,
  players INTEGER NOT NULL,
  options TEXT NOT NULL,
  seed TEXT NOT NULL,
  seed_hash TEXT NOT NULL,
  config TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  public INTEGER NOT NULL DEFAULT 1,
  invite_hash TEXT,
  creator_hash TEXT,
  owner TEXT,
  last_active INTEGER,
  ended TEXT,
  fair_secret TEXT,
  contributions TEXT
);
CREATE TABLE IF NOT EXISTS seats (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seat INTEGER NOT NULL,
  kind TEXT NOT NULL,
  bot TEXT,
  name TEXT,
  token_hash TEXT,
  PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seq INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  action TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables(finished_at);
",
        postgres: "
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  rules_version TEXT NOT NULL,
  players BIGINT NOT NULL,
  options TEXT NOT NULL,
  seed TEXT NOT NULL,
  seed_hash TEXT NOT NULL,
  config TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  finished_at BIGINT,
  public BIGINT NOT NULL DEFAULT 1,
  invite_hash TEXT,
  creator_hash TEXT,
  owner TEXT,
  last_active BIGINT,
  ended TEXT,
  fair_secret TEXT,
  contributions TEXT
);
CREATE TABLE IF NOT EXISTS seats (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seat BIGINT NOT NULL,
  kind TEXT NOT NULL,
  bot TEXT,
  name TEXT,
  token_hash TEXT,
  PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seq BIGINT NOT NULL,
  seat BIGINT NOT NULL,
  action TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables(finished_at);
",
    },
    Migration {
        version: 2,
        name: "indexes of the lobby, the caps and the sweep",
        sqlite: "
CREATE INDEX IF NOT EXISTS tables_public_created ON tables(public, created_at);
CREATE INDEX IF NOT EXISTS tables_owner_live ON tables(owner, finished_at);
CREATE INDEX IF NOT EXISTS tables_live_active ON tables(finished_at, last_active);
",
        postgres: "
CREATE INDEX IF NOT EXISTS tables_public_created ON tables(public, created_at);
CREATE INDEX IF NOT EXISTS tables_owner_live ON tables(owner, finished_at);
CREATE INDEX IF NOT EXISTS tables_live_active ON tables(finished_at, last_active);
",
    },
    Migration {
        version: 3,
        name: "table ownership: epochs, owner processes, heartbeats",
        sqlite: "
ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN owner_node TEXT;
CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  heartbeat_ms INTEGER NOT NULL
);
CREATE INDEX tables_owner_node ON tables(owner_node) WHERE owner_node IS NOT NULL;
",
        postgres: "
ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN owner_node TEXT;
CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  heartbeat_ms BIGINT NOT NULL
);
CREATE INDEX tables_owner_node ON tables(owner_node) WHERE owner_node IS NOT NULL;
",
    },
    Migration {
        version: 4,
        name: "the site's secret; table ids in byte order",
        sqlite: "
CREATE TABLE site (key TEXT PRIMARY KEY, value TEXT NOT NULL);
",
        // SQLite compares text by its bytes; PostgreSQL by the database's
        // collation. A copy walks the ids in byte order (`COLLATE "C"`):
        // this index serves it.
        postgres: "
CREATE TABLE site (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX tables_id_bytes ON tables (id COLLATE \"C\");
",
    },
    Migration {
        version: 5,
        name: "social: rematch links, identities of seats, results, ratings",
        sqlite: "
ALTER TABLE tables ADD COLUMN rematch TEXT;
ALTER TABLE tables ADD COLUMN rematch_of TEXT;
ALTER TABLE tables ADD COLUMN result TEXT;
ALTER TABLE seats ADD COLUMN player TEXT;
CREATE INDEX seats_player ON seats(player) WHERE player IS NOT NULL;
CREATE TABLE ratings (
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  name TEXT NOT NULL,
  rating REAL NOT NULL,
  uncertainty REAL NOT NULL,
  score REAL NOT NULL,
  games INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (game, player)
);
CREATE INDEX ratings_board ON ratings(game, score);
",
        postgres: "
ALTER TABLE tables ADD COLUMN rematch TEXT;
ALTER TABLE tables ADD COLUMN rematch_of TEXT;
ALTER TABLE tables ADD COLUMN result TEXT;
ALTER TABLE seats ADD COLUMN player TEXT;
CREATE INDEX seats_player ON seats(player) WHERE player IS NOT NULL;
CREATE TABLE ratings (
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  name TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  uncertainty DOUBLE PRECISION NOT NULL,
  score DOUBLE PRECISION NOT NULL,
  games BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (game, player)
);
CREATE INDEX ratings_board ON ratings(game, score);
",
    },
    Migration {
        version: 6,
        name: "post-game analyses",
        sqlite: "
CREATE TABLE analyses (
  table_id TEXT PRIMARY KEY REFERENCES tables(id),
  format TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
",
        postgres: "
CREATE TABLE analyses (
  table_id TEXT PRIMARY KEY REFERENCES tables(id),
  format TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
",
    },
    Migration {
        version: 7,
        name: "fair deals bound to their table; seats' origins; games without a result",
        // fair_scheme NULL: a table made before, whose seed is version
        // 1's. origin: a hash of the address a seat was taken from
        // (people from one origin do not rate each other). The partial
        // index finds, at start-up, the games a crash left over without
        // their result: only those rows are in it.
        sqlite: "
ALTER TABLE tables ADD COLUMN fair_scheme INTEGER;
ALTER TABLE seats ADD COLUMN origin TEXT;
CREATE INDEX tables_unrecorded ON tables(id) WHERE ended = 'over' AND result IS NULL;
",
        postgres: "
ALTER TABLE tables ADD COLUMN fair_scheme BIGINT;
ALTER TABLE seats ADD COLUMN origin TEXT;
CREATE INDEX tables_unrecorded ON tables(id) WHERE ended = 'over' AND result IS NULL;
",
    },
    Migration {
        version: 8,
        name: "seats whose person conceded",
        // conceded_at: how many actions the game had when the person who
        // took the seat conceded (a stand-in plays it from then on, and
        // the result rates them last); NULL while they play.
        sqlite: "
ALTER TABLE seats ADD COLUMN conceded_at INTEGER;
",
        postgres: "
ALTER TABLE seats ADD COLUMN conceded_at BIGINT;
",
    },
    Migration {
        version: 9,
        name: "who took part, since when people are rated, who rated whom lately",
        // actions.stand_in: 1 where a stand-in made the seat's decision
        // (NULL: its own player, or an action stored before). first_at:
        // the first rated game (0 for people rated before: long proven).
        // rated_pairs: one row per (person, opponent who counted for
        // them) and game, kept a day, so the same opponents count a few
        // times a day at most; a person's rows are read and pruned by
        // the index, in the transaction that rates them.
        sqlite: "
ALTER TABLE actions ADD COLUMN stand_in INTEGER;
ALTER TABLE ratings ADD COLUMN first_at INTEGER NOT NULL DEFAULT 0;
CREATE TABLE rated_pairs (
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  other TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX rated_pairs_of ON rated_pairs(game, player, at);
",
        postgres: "
ALTER TABLE actions ADD COLUMN stand_in BIGINT;
ALTER TABLE ratings ADD COLUMN first_at BIGINT NOT NULL DEFAULT 0;
CREATE TABLE rated_pairs (
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  other TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX rated_pairs_of ON rated_pairs(game, player, at);
",
    },
    Migration {
        version: 10,
        name: "rating history",
        // One row per rating update, written in the transaction that
        // moves the rating: the rating after the game, its seat and
        // place, and whether the table was public (a profile shows only
        // those), numbered in the order written (`seq`: two results of
        // one second keep their order). Read by player and game, newest
        // first; ratings gets an index by player, for finding a person
        // by their short id.
        sqlite: "
CREATE TABLE rating_history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  table_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  rating REAL NOT NULL,
  uncertainty REAL NOT NULL,
  score REAL NOT NULL,
  seat INTEGER NOT NULL,
  place INTEGER NOT NULL,
  public INTEGER NOT NULL,
  UNIQUE (player, game, table_id)
);
CREATE INDEX rating_history_of ON rating_history(player, game, public, seq);
CREATE INDEX ratings_player ON ratings(player);
",
        postgres: "
CREATE TABLE rating_history (
  seq BIGSERIAL PRIMARY KEY,
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  table_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  uncertainty DOUBLE PRECISION NOT NULL,
  score DOUBLE PRECISION NOT NULL,
  seat INTEGER NOT NULL,
  place INTEGER NOT NULL,
  public BIGINT NOT NULL,
  UNIQUE (player, game, table_id)
);
CREATE INDEX rating_history_of ON rating_history(player, game, public, seq);
CREATE INDEX ratings_player ON ratings(player);
",
    },
    Migration {
        version: 11,
        name: "follows and blocks between people",
        sqlite: "
CREATE TABLE relations (
  owner TEXT NOT NULL,
  kind TEXT NOT NULL,
  other TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (owner, kind, other)
);
CREATE INDEX relations_other ON relations(other, kind);
",
        postgres: "
CREATE TABLE relations (
  owner TEXT NOT NULL,
  kind TEXT NOT NULL,
  other TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (owner, kind, other)
);
CREATE INDEX relations_other ON relations(other, kind);
",
    },
    Migration {
        version: 12,
        name: "passkeys that keep an identity",
        sqlite: "
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  player TEXT NOT NULL,
  identity_key TEXT NOT NULL,
  passkey TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX passkeys_player ON passkeys(player);
",
        postgres: "
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  player TEXT NOT NULL,
  identity_key TEXT NOT NULL,
  passkey TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX passkeys_player ON passkeys(player);
",
    },
    Migration {
        version: 13,
        name: "quick pairing's waiting tickets",
        sqlite: "
CREATE TABLE pairing_tickets (
  id TEXT PRIMARY KEY,
  preset TEXT NOT NULL,
  player TEXT NOT NULL,
  name TEXT NOT NULL,
  addr TEXT NOT NULL,
  bot TEXT NOT NULL,
  wait_ms INTEGER NOT NULL,
  contribution TEXT,
  joined_ms INTEGER NOT NULL,
  node TEXT NOT NULL
);
CREATE INDEX pairing_tickets_node ON pairing_tickets(node, joined_ms);
",
        postgres: "
CREATE TABLE pairing_tickets (
  id TEXT PRIMARY KEY,
  preset TEXT NOT NULL,
  player TEXT NOT NULL,
  name TEXT NOT NULL,
  addr TEXT NOT NULL,
  bot TEXT NOT NULL,
  wait_ms BIGINT NOT NULL,
  contribution TEXT,
  joined_ms BIGINT NOT NULL,
  node TEXT NOT NULL
);
CREATE INDEX pairing_tickets_node ON pairing_tickets(node, joined_ms);
",
    },
    Migration {
        version: 14,
        name: "tournaments for people",
        // One document per tournament, saved by compare-and-set on its
        // version; its entrants one row each, for their profiles.
        sqlite: "
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY,
  doc TEXT NOT NULL,
  version INTEGER NOT NULL,
  status TEXT NOT NULL,
  node TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX tournaments_live ON tournaments(status, created_ms);
CREATE TABLE tournament_players (
  tournament TEXT NOT NULL REFERENCES tournaments(id),
  player TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (player, tournament)
);
",
        postgres: "
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY,
  doc TEXT NOT NULL,
  version BIGINT NOT NULL,
  status TEXT NOT NULL,
  node TEXT NOT NULL,
  created_ms BIGINT NOT NULL
);
CREATE INDEX tournaments_live ON tournaments(status, created_ms);
CREATE TABLE tournament_players (
  tournament TEXT NOT NULL REFERENCES tournaments(id),
  player TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (player, tournament)
);
",
    },
    Migration {
        version: 15,
        name: "each analysed seat's decisions, for profiles",
        // Written with each analysis (replaced with it); a profile sums
        // a person's rows at public tables without reading an analysis.
        sqlite: "
CREATE TABLE analysis_seats (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seat INTEGER NOT NULL,
  decisions INTEGER NOT NULL,
  accuracy REAL NOT NULL,
  mistakes INTEGER NOT NULL,
  blunders INTEGER NOT NULL,
  PRIMARY KEY (table_id, seat)
);
",
        postgres: "
CREATE TABLE analysis_seats (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seat INTEGER NOT NULL,
  decisions INTEGER NOT NULL,
  accuracy DOUBLE PRECISION NOT NULL,
  mistakes INTEGER NOT NULL,
  blunders INTEGER NOT NULL,
  PRIMARY KEY (table_id, seat)
);
",
    },
];

/// The newest version this program knows.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_run_in_order_without_gaps() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.name);
            assert!(!m.sqlite.trim().is_empty() && !m.postgres.trim().is_empty());
        }
        assert_eq!(latest(), MIGRATIONS.len() as i64);
    }
}
