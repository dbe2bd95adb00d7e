//! The wire types of tournaments for people (docs/server.md,
//! "Tournaments"): what a client sends to make or enter one, and what the
//! server answers about one. Kept beside `protocol.rs` rather than in it
//! (which holds the table's messages); their schemas are generated with
//! the rest (`protocol::schemas`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The three kinds of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// A time window; each player is seated again as soon as their table
    /// ends; points per place.
    Arena,
    /// Fixed rounds; each round's tables are formed by standing.
    Swiss,
    /// Fixed rounds; every table of a round plays the same deal with the
    /// seats rotated, and each seat is compared with those who held the
    /// same cards at the other tables.
    Duplicate,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entrants, not started.
    Open,
    /// Playing.
    Running,
    /// Over (or called off: `note` says why).
    Finished,
}

/// `POST /api/tournaments`: a new tournament. The header `X-Ratrace-Key`
/// makes its creator (who may start it early).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentRequest {
    /// Its name (cleaned like a player's).
    pub name: String,
    /// Arena, Swiss or duplicate.
    pub kind: TournamentKind,
    /// A quick-pairing preset's id (`GET /api/games`): the game, the
    /// seats at each table and the rules options.
    pub preset: String,
    /// Swiss and duplicate: the rounds (default 3).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Arena: its length in minutes (default 20).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Seconds from now until it starts by itself (default 120); its
    /// creator may start it earlier.
    #[serde(default)]
    pub start_in_s: Option<u32>,
    /// The bot level that fills free seats (default `heuristic`).
    #[serde(default)]
    pub bot: Option<String>,
    /// Bots entered as players, by level (each its own entrant, standing
    /// with the people).
    #[serde(default)]
    pub bots: Vec<String>,
    /// Milliseconds bots wait before each move at its tables (default:
    /// the lobby's; 0 when every entrant is a bot).
    #[serde(default)]
    pub bot_delay_ms: Option<u64>,
}

/// `POST /api/tournaments/{id}/join`: entering under a name (the header
/// `X-Ratrace-Key` names the person).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentJoin {
    /// The name shown in the standings.
    pub name: String,
}

/// A tournament as listed in the lobby.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentSummary {
    /// Its id (`/tournament/{id}`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: TournamentKind,
    /// The preset its tables play.
    pub preset: String,
    /// The game.
    pub game: String,
    /// Where it stands.
    pub status: TournamentStatus,
    /// Entrants.
    pub entrants: usize,
    /// Unix milliseconds it starts (or started).
    pub starts_ms: i64,
}

/// One line of the standings.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StandingLine {
    /// 1 = first; equal points share a place.
    pub place: usize,
    /// The name entered under.
    pub name: String,
    /// The person's short id (their profile, `/p/{short}`); none for a bot.
    pub short: Option<String>,
    /// A bot entrant's level.
    pub bot: Option<String>,
    /// Points: per place at arena and Swiss tables, duplicate's
    /// comparison points at a duplicate.
    pub points: f64,
    /// Tables finished.
    pub tables: usize,
    /// Tables won (first place).
    pub firsts: usize,
    /// Tables where a stand-in played most of the seat for them.
    pub stand_ins: usize,
    /// Left the tournament.
    pub left: bool,
}

/// One of a tournament's tables.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentTable {
    /// The table's id (`/t/{id}` to watch, `/replay/{id}` once over).
    pub id: String,
    /// The round (an arena's tables count up).
    pub round: u32,
    /// The name at each seat (a bot's level for a seat bots fill).
    pub seats: Vec<String>,
    /// Each seat's place, once the table is over.
    pub places: Option<Vec<u8>>,
    /// Per seat: a stand-in played most of it for its absent player.
    pub stand_in: Vec<bool>,
    /// Over without a result (abandoned): it counts for nobody.
    pub void: bool,
}

/// What a person sees of their own part.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentYou {
    /// They entered (and have not left).
    pub entered: bool,
    /// They made it (they may start it early).
    pub creator: bool,
    /// The table they are seated at now, if one is live: open
    /// `/t/{id}#back` to take the seat.
    pub table: Option<String>,
}

/// `GET /api/tournaments/{id}`: a tournament, its standings and tables.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentView {
    /// What the lobby lists.
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// Seats at each table.
    pub players: usize,
    /// Swiss and duplicate: the rounds; an arena: 0.
    pub rounds: u32,
    /// The round being played (0 before the first).
    pub round: u32,
    /// An arena: unix milliseconds it ends (no table starts after).
    pub ends_ms: Option<i64>,
    /// Why it was called off, or how it ended.
    pub note: Option<String>,
    /// The standings, best first.
    pub standings: Vec<StandingLine>,
    /// Its tables, newest first, at most 100 (the standings count them
    /// all).
    pub tables: Vec<TournamentTable>,
    /// The asker's part, when they sent their key.
    pub you: Option<TournamentYou>,
}

/// `GET /api/tournaments`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentList {
    /// The newest, unfinished first.
    pub tournaments: Vec<TournamentSummary>,
}

/// `POST /api/tournaments`'s answer.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TournamentMade {
    /// The new tournament's id.
    pub id: String,
}
