//! Ratings bookkeeping: who played a finished game, whether it counts,
//! and the Weng–Lin update. Pure functions over the store's rows, shared
//! by every backend (each holds only the SQL that reads and writes them);
//! the social pages show what they compute.

/// Who played a seat of a finished game, for its ratings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rated {
    /// A person with an identity: its id (the key's hash) and the name
    /// they played under.
    Person {
        /// The identity.
        id: String,
        /// The display name at that table.
        name: String,
        /// Where they joined from: a hash of their client address
        /// ([`crate::social::origin`]), `None` if unknown (a seat taken before origins
        /// were kept). People from one origin do not rate each other.
        origin: Option<String>,
    },
    /// A bot, by name: a fixed rating per level.
    Bot(String),
    /// A person without an identity: counted at the starting rating,
    /// never stored.
    Nobody,
}

/// A finished game's result as the store records it: the outcome, and
/// who played each seat (for the ratings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `bigcheese` or `dalmuti`.
    pub game: String,
    /// The outcome, as JSON (`game::Outcome`).
    pub outcome: String,
    /// The finishing place of each seat, 1 = first (ties share a place).
    pub places: Vec<u8>,
    /// Cut short by a length cap: recorded, not rated.
    pub capped: bool,
    /// Who played each seat.
    pub seats: Vec<Rated>,
    /// Unix seconds.
    pub at: i64,
    /// Played at a public table (a private table is among friends: there
    /// only the bots count for a person, never another person).
    pub public: bool,
    /// How many actions the game took (a game shorter than
    /// [`MIN_RATED_ACTIONS`] is unrated).
    pub actions: usize,
    /// Per seat, whether its person took part: did not concede, and made
    /// [`ENGAGED_DECISIONS`] of the seat's decisions themselves (a seat
    /// left to the stand-in from the start stood still). A seat that did
    /// not counts for nobody else. Empty: every seat did.
    pub engaged: Vec<bool>,
    /// A tutorial's guided hand, on a published deal with bots that play
    /// the same every time: recorded, never rated.
    pub tutorial: bool,
}

/// A person's rating, how many rated games made it and since when (a
/// person with fewer than [`PROVEN_GAMES`], or rated for less than
/// [`PROVEN_AGE_S`], moves nobody else's rating).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The rating.
    pub rating: Rating,
    /// Rated games so far.
    pub games: i64,
    /// Unix seconds of their first rated game (0: before this was kept).
    pub first_at: i64,
}

/// The fewest actions a rated game takes: shorter games (a one-point Big
/// Cheese, one quick trick) say little about skill and are cheap to farm.
pub const MIN_RATED_ACTIONS: usize = 30;

/// The rated games after which a person's results move other people's
/// ratings: identities cost nothing, so a fresh one is measured against
/// bots and proven people first, and cannot feed anyone points.
pub const PROVEN_GAMES: i64 = 5;

/// How long after its first rated game a person is proven, at the
/// earliest: five quick games against bots make no one proven the same
/// day.
pub const PROVEN_AGE_S: i64 = 24 * 3600;

/// The decisions of a seat its person must make themselves (or all of
/// them, in a game that gave the seat fewer) to have taken part: a seat
/// whose person conceded, or left the stand-in to play from the start,
/// counts for nobody else (a forfeit proves nothing about the winner).
pub const ENGAGED_DECISIONS: u64 = 3;

/// In any 24 hours, the rated games in which one person counts for
/// another: after that the two play on unrated for each other until the
/// window has passed, so the same opponents cannot be farmed game after
/// game.
pub const REPEAT_LIMIT: u32 = 2;

/// The window of [`REPEAT_LIMIT`], seconds.
pub const REPEAT_WINDOW_S: i64 = 24 * 3600;

/// Per pair of people (a person, an opponent), the rated games of the
/// last [`REPEAT_WINDOW_S`] in which the opponent counted for them.
pub type Recent = std::collections::HashMap<(String, String), u32>;

/// A rating: Weng–Lin's mean (`rating`) and its uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimated skill (starts at 25).
    pub rating: f64,
    /// How unsure the estimate is (starts at 25/3; shrinks with games).
    pub uncertainty: f64,
}

impl Rating {
    /// Where a new player starts.
    pub const START: Rating = Rating {
        rating: 25.0,
        uncertainty: 25.0 / 3.0,
    };

    /// What the leaderboard sorts by: the rating less three
    /// uncertainties, so one lucky game does not top it.
    pub fn score(&self) -> f64 {
        self.rating - 3.0 * self.uncertainty
    }
}

/// The fixed rating of bot `bot` of `game`: by its level on the game's
/// ladder (level 1, `random`, 15; each level 6 more, up to `search` 39; the
/// order of the middle levels is the game's own; a bot off the ladder as
/// the heuristic bot),
/// with a small fixed uncertainty. Bots are never updated: they are the
/// fixed points people are measured against.
pub fn bot_rating(game: &str, bot: &str) -> Rating {
    let levels: &[bots::Level] =
        registry::dispatch!(game, G => <G as bots::Roster>::LEVELS, _ => &[]);
    let level = levels.iter().find(|l| l.name == bot).map_or(2, |l| l.level);
    Rating {
        rating: 15.0 + 6.0 * f64::from(level - 1),
        uncertainty: 1.0,
    }
}

/// Whether `result` moves anybody's rating: a finished, uncapped game, not
/// a tutorial (its deal is published: anyone could learn it by heart), at
/// least [`MIN_RATED_ACTIONS`] long, with at least one person with an
/// identity, and nobody in two seats (playing oneself would farm points).
/// At any table, public or private: at a private one only the bots count
/// (`counts_for`), so a person who plays bots alone is rated too.
pub fn rateable(result: &GameResult) -> bool {
    let ids: Vec<&String> = result
        .seats
        .iter()
        .filter_map(|s| match s {
            Rated::Person { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    !result.capped
        && !result.tutorial
        && result.actions >= MIN_RATED_ACTIONS
        && !ids.is_empty()
        && unique.len() == ids.len()
        && result.places.len() == result.seats.len()
}

/// Whether seat `other` of `result` counts in the rating of seat `me` (a
/// person): bots always (at their fixed rating); another person only at a
/// public table (a private one is among friends, who could farm each
/// other's ratings), and only if proven (at least [`PROVEN_GAMES`] rated games, the first at least
/// [`PROVEN_AGE_S`] before), not from the same origin, engaged in this
/// game (see [`GameResult::engaged`]), and not already counted for `me`
/// in [`REPEAT_LIMIT`] games of the last day (`recent`); a person without
/// an identity never (nothing proves them).
fn counts_for(
    result: &GameResult,
    current: &[Option<Standing>],
    recent: &Recent,
    me: usize,
    other: usize,
) -> bool {
    if me == other {
        return true;
    }
    match (&result.seats[me], &result.seats[other]) {
        (_, Rated::Bot(_)) => true,
        (_, Rated::Nobody) => false,
        (
            Rated::Person {
                id: my_id,
                origin: mine,
                ..
            },
            Rated::Person {
                id: their_id,
                origin: theirs,
                ..
            },
        ) => {
            let proven =
                current.get(other).copied().flatten().is_some_and(|s| {
                    s.games >= PROVEN_GAMES && result.at - s.first_at >= PROVEN_AGE_S
                });
            let related = mine.is_some() && mine == theirs;
            let engaged = result.engaged.get(other).copied().unwrap_or(true);
            let repeated = recent
                .get(&(my_id.clone(), their_id.clone()))
                .is_some_and(|&n| n >= REPEAT_LIMIT);
            result.public && proven && !related && engaged && !repeated
        }
        _ => false,
    }
}

/// The new ratings of the people of `result` (by seat: `None` where the
/// seat is not a rated person, or where nobody at the table counts for
/// them), from `current` (their standings before, by seat; `None`: a
/// first game). Each person is rated on their own: every seat that
/// counts for them (`counts_for`) is one team ranked by its place, ties
/// sharing a rank (Weng–Lin, multi-team), bots at their fixed rating.
pub fn rate(result: &GameResult, current: &[Option<Standing>]) -> Vec<Option<Rating>> {
    rate_with(result, current, &Recent::new())
}

/// [`rate`], given who counted for whom in the last day (`recent`).
pub fn rate_with(
    result: &GameResult,
    current: &[Option<Standing>],
    recent: &Recent,
) -> Vec<Option<Rating>> {
    use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
    use skillratings::MultiTeamOutcome;
    let before: Vec<[WengLinRating; 1]> = result
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let r = match s {
                Rated::Person { .. } => current
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(Rating::START, |s| s.rating),
                Rated::Bot(b) => bot_rating(&result.game, b),
                Rated::Nobody => Rating::START,
            };
            [WengLinRating {
                rating: r.rating,
                uncertainty: r.uncertainty,
            }]
        })
        .collect();
    // Card games with dice and deals: luck decides more than in chess, so
    // a wider skill class (beta) than the default 25/6.
    let config = WengLinConfig {
        beta: 25.0 / 3.0,
        ..WengLinConfig::new()
    };
    (0..result.seats.len())
        .map(|me| {
            if !matches!(result.seats[me], Rated::Person { .. }) {
                return None;
            }
            let counted: Vec<usize> = (0..result.seats.len())
                .filter(|&other| counts_for(result, current, recent, me, other))
                .collect();
            if counted.len() < 2 {
                return None;
            }
            let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = counted
                .iter()
                .map(|&i| {
                    (
                        &before[i][..],
                        MultiTeamOutcome::new(usize::from(result.places[i])),
                    )
                })
                .collect();
            let after = weng_lin_multi_team(&teams, &config);
            let mine = counted.iter().position(|&i| i == me)?;
            after[mine].first().map(|r| Rating {
                rating: r.rating,
                uncertainty: r.uncertainty,
            })
        })
        .collect()
}

/// A rated person's new rating, as a backend writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move<'a> {
    /// The person's identity.
    pub id: &'a str,
    /// The name they played under (the leaderboard shows the latest).
    pub name: &'a str,
    /// Their rating after the game.
    pub rating: Rating,
    /// Their seat (0-based), for the rating history.
    pub seat: usize,
    /// Their place as the ratings count it, 1 = first (one who conceded
    /// below everyone who did not), for the rating history.
    pub place: u8,
}

/// The people of a result, by identity, sorted: the order a backend
/// locks their rating rows in, so two games ending together never wait
/// for each other in a circle.
pub fn people(result: &GameResult) -> Vec<&str> {
    let mut ids: Vec<&str> = result
        .seats
        .iter()
        .filter_map(|s| match s {
            Rated::Person { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids
}

/// What a result changes, as a backend writes it: each rated person's new
/// rating, and the pairs (person, opponent) in which an opponent counted
/// for a rated person (kept a day, for [`REPEAT_LIMIT`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves<'a> {
    /// The new ratings.
    pub ratings: Vec<Move<'a>>,
    /// (person, opponent) by identity.
    pub pairs: Vec<(&'a str, &'a str)>,
}

/// The moves a result makes ([`rate`]), given each person's standing as
/// the store has it (absent, or a row of 0 games: a first game) and who
/// counted for whom in the last day. Nothing moves for a result that does
/// not count ([`rateable`]).
pub fn moves<'a>(
    result: &'a GameResult,
    standings: &std::collections::HashMap<String, Standing>,
    recent: &Recent,
) -> Moves<'a> {
    if !rateable(result) {
        return Moves::default();
    }
    let current: Vec<Option<Standing>> = result
        .seats
        .iter()
        .map(|s| match s {
            Rated::Person { id, .. } => standings.get(id).copied().filter(|s| s.games > 0),
            _ => None,
        })
        .collect();
    let new = rate_with(result, &current, recent);
    let mut out = Moves::default();
    for (me, (seat, rating)) in result.seats.iter().zip(&new).enumerate() {
        let (Rated::Person { id, name, .. }, Some(rating)) = (seat, rating) else {
            continue;
        };
        out.ratings.push(Move {
            id,
            name,
            rating: *rating,
            seat: me,
            place: result.places.get(me).copied().unwrap_or(0),
        });
        for (other, them) in result.seats.iter().enumerate() {
            if let Rated::Person { id: their_id, .. } = them {
                if other != me && counts_for(result, &current, recent, me, other) {
                    out.pairs.push((id, their_id));
                }
            }
        }
    }
    out
}
