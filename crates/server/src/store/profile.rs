//! The rows of a person's public profile: their ratings, each rating's
//! history, their results by seat and their recent games, all of public
//! tables only, as both backends read them in one call
//! (the store's `profile`). The history is written with each
//! rating update (migration 10), so reading it is a lookup by person and
//! game, newest first, capped by the caller.

pub use super::lists::SHORT_ID;
use super::lists::{PlayerGame, RatingRow};
use serde::Serialize;

/// One rating update of a person, at a public table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    /// The table the game was played at.
    pub table: String,
    /// Unix seconds of the result.
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its uncertainty.
    pub uncertainty: f64,
    /// Rating less three uncertainties, as the leaderboard sorts.
    pub score: f64,
    /// The person's seat (0-based).
    pub seat: u8,
    /// Their place as the ratings counted it, 1 = first.
    pub place: u8,
}

/// A person's rated games at public tables in one seat of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatStats {
    /// The game.
    pub game: String,
    /// The seat (0-based).
    pub seat: u8,
    /// Rated games in that seat.
    pub games: u64,
    /// Of them, won (first place).
    pub wins: u64,
    /// The sum of their places (the mean is this over `games`).
    pub place_sum: u64,
}

/// A person's rated games at public tables of one game under one set of
/// rules options (a variant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantStats {
    /// The game.
    pub game: String,
    /// The table's options, as stored (a JSON object, key to value).
    pub options: String,
    /// Rated games with these options.
    pub games: u64,
    /// Of them, won (first place).
    pub wins: u64,
    /// The sum of their places.
    pub place_sum: u64,
}

/// The most variants a profile lists per person (the most played).
pub const VARIANTS: usize = 20;

/// What a profile is made of, as the store reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileRows {
    /// The person's whole id (never sent: the page shows the short id).
    pub player: String,
    /// Their rating in each game they are rated in (as the leaderboard).
    pub ratings: Vec<RatingRow>,
    /// Per game (as `ratings`), the newest rating updates at public
    /// tables, oldest first, at most the `points` asked for.
    pub history: Vec<(String, Vec<HistoryPoint>)>,
    /// Rated games at public tables by game and seat.
    pub stats: Vec<SeatStats>,
    /// Rated games at public tables by game and options, the most played
    /// first, at most [`VARIANTS`].
    pub variants: Vec<VariantStats>,
    /// Their newest finished games at public tables.
    pub games: Vec<PlayerGame>,
    /// Per game, their decisions in the analysed games at public tables.
    pub accuracy: Vec<AccuracyStats>,
}

/// One seat's decisions in an analysed game, as the analysis summed them
/// up (kept beside the analysis, migration 15, so that a profile adds
/// them up without reading any analysis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatAccuracy {
    /// The seat (0-based).
    pub seat: u8,
    /// Its decisions that had a choice.
    pub decisions: u64,
    /// The share of them labelled good, 0..=1.
    pub accuracy: f64,
    /// Decisions labelled mistakes.
    pub mistakes: u64,
    /// Decisions labelled blunders.
    pub blunders: u64,
}

/// A person's decisions in the analysed games of one game at public
/// tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccuracyStats {
    /// The game.
    pub game: String,
    /// Analysed games where they decided something.
    pub games: u64,
    /// Their decisions with a choice, in all.
    pub decisions: u64,
    /// The share of those decisions labelled good, 0..=1.
    pub accuracy: f64,
    /// Mistakes, in all.
    pub mistakes: u64,
    /// Blunders, in all.
    pub blunders: u64,
}

/// A row of the profile's accuracy query (`accuracy_query!` in
/// `store/mod.rs`): game, games, decisions, the sum of
/// accuracy times decisions, mistakes, blunders.
pub fn accuracy_row(
    game: String,
    games: i64,
    decisions: i64,
    weighted: f64,
    mistakes: i64,
    blunders: i64,
) -> AccuracyStats {
    let decisions = u64::try_from(decisions).unwrap_or(0);
    AccuracyStats {
        game,
        games: u64::try_from(games).unwrap_or(0),
        decisions,
        accuracy: if decisions > 0 {
            weighted / decisions as f64
        } else {
            0.0
        },
        mistakes: u64::try_from(mistakes).unwrap_or(0),
        blunders: u64::try_from(blunders).unwrap_or(0),
    }
}

/// A profile's lookup by short id.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup {
    /// Nobody rated has that short id.
    Unknown,
    /// Two rated people share it (a 32-bit prefix: rare, possible).
    Ambiguous,
    /// The one person.
    Found(Box<ProfileRows>),
}

/// The range of whole ids that begin with `short` (lowercase hex): from
/// `short` up to `short` followed by `g`, above every hex digit, so an
/// index on the id finds them; each backend checks the prefix again.
pub(crate) fn id_range(short: &str) -> (String, String) {
    (short.to_string(), format!("{short}g"))
}

/// Whether `short` is a short id: [`SHORT_ID`] lowercase hex digits.
pub fn is_short_id(short: &str) -> bool {
    short.len() == SHORT_ID
        && short
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
