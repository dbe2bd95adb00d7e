//! The rows the lists read (the table list, a person's games, a
//! leaderboard): what both backends build from their queries and the
//! server answers as JSON, kept apart from the rows a table is stored as.

use game::Seat;
use serde::Serialize;

/// A line of the table list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSummary {
    /// The table id.
    pub id: String,
    /// The game.
    pub game: String,
    /// Seats at the start.
    pub players: usize,
    /// Human seats nobody has joined yet.
    pub free_seats: usize,
    /// `open` (a human seat is free), `playing`, `finished` or
    /// `abandoned`.
    pub status: &'static str,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, once over.
    pub finished_at: Option<i64>,
    /// Who sits where (names of people who joined, bots by name).
    pub seats: Vec<SeatSummary>,
    /// The winners, once the result is recorded (empty: nobody won).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<Seat>>,
}

/// A line of a table list as both backends read it, before its seats.
pub(crate) struct ListLine {
    pub(crate) id: String,
    pub(crate) game: String,
    pub(crate) players: i64,
    pub(crate) created_at: i64,
    pub(crate) finished_at: Option<i64>,
    /// How it ended: `abandoned`, or by the rules.
    pub(crate) ended: Option<String>,
    /// Human seats nobody has taken yet.
    pub(crate) free: i64,
    /// The recorded outcome's JSON, if any.
    pub(crate) result: Option<String>,
}

impl ListLine {
    /// The summary a list shows: the status derived (`abandoned`, then
    /// `finished`, then `open` while a human seat is free, else
    /// `playing`), the winners read from the outcome.
    pub(crate) fn summary(self, seats: Vec<SeatSummary>) -> TableSummary {
        let free_seats = usize::try_from(self.free).unwrap_or(0);
        TableSummary {
            status: if self.ended.as_deref() == Some("abandoned") {
                "abandoned"
            } else if self.finished_at.is_some() {
                "finished"
            } else if free_seats > 0 {
                "open"
            } else {
                "playing"
            },
            id: self.id,
            game: self.game,
            players: usize::try_from(self.players).unwrap_or(0),
            free_seats,
            created_at: self.created_at,
            finished_at: self.finished_at,
            seats,
            winners: winners_of(self.result.as_deref()),
        }
    }
}

/// A seat in a list of tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: Seat,
    /// `human` or `bot`.
    pub kind: &'static str,
    /// A person's display name once joined; a bot's name.
    pub name: Option<String>,
    /// The bot's name for a bot seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The seat's person conceded: a bot played it to the end (and a win
    /// of the seat is the bot's, never the person's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub conceded: bool,
    /// The short id of the seat's person ([`SHORT_ID`] hex digits of their
    /// identity's hash, as the leaderboard shows it: their profile's
    /// address), if they sat with an identity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// How many hex digits of a person's id the leaderboard shows, and a
/// profile is found by.
pub const SHORT_ID: usize = 8;

/// A person's id as the leaderboard shows it: its first [`SHORT_ID`] hex
/// digits, enough to tell two people of one name apart.
pub fn short_id(id: &str) -> String {
    id.chars().take(SHORT_ID).collect()
}

impl SeatSummary {
    /// The summary, marked as conceded if `conceded`.
    pub(crate) fn conceded(self, conceded: bool) -> Self {
        SeatSummary { conceded, ..self }
    }

    /// The summary with its person's short id, from their whole id.
    pub(crate) fn player(self, player: Option<&str>) -> Self {
        SeatSummary {
            player: player.map(short_id),
            ..self
        }
    }

    /// A stored seat row (`kind`, `bot`, `name`) as a summary.
    pub(crate) fn of(seat: Seat, kind: &str, bot: Option<String>, name: Option<String>) -> Self {
        if kind == "bot" {
            let bot = bot.unwrap_or_else(|| "heuristic".to_string());
            SeatSummary {
                seat,
                kind: "bot",
                name: Some(bot.clone()),
                bot: Some(bot),
                conceded: false,
                player: None,
            }
        } else {
            SeatSummary {
                seat,
                kind: "human",
                name,
                bot: None,
                conceded: false,
                player: None,
            }
        }
    }
}

/// The winners a stored result names (`None` without a result).
pub(crate) fn winners_of(result: Option<&str>) -> Option<Vec<Seat>> {
    let outcome: game::Outcome = serde_json::from_str(result?).ok()?;
    Some(outcome.winners)
}

/// A game of one person ("my games"): the table and their seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerGame {
    /// The table.
    #[serde(flatten)]
    pub table: TableSummary,
    /// The person's seat there.
    pub seat: Seat,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    /// The game.
    pub game: String,
    /// The person's id (the hash of their key).
    pub player: String,
    /// The name they last played under.
    pub name: String,
    /// The estimated skill.
    pub rating: f64,
    /// Its uncertainty.
    pub uncertainty: f64,
    /// What the board sorts by: rating less three uncertainties.
    pub score: f64,
    /// Rated games played.
    pub games: u64,
}
