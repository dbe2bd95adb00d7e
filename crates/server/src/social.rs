//! The social side of a table (issue 11, item 5): the in-table chat (what
//! may be said, how it is cleaned, how much is kept), the players'
//! identities (a random key their browser keeps, stored only as a hash),
//! and their ratings (Weng–Lin, through the `skillratings` crate).
//!
//! Why here and not in the table task: these are pure rules with their own
//! tests, shared by the WebSocket loop (which refuses a bad message before
//! it reaches the table) and the lobby's HTTP handlers. Chat carries only
//! what people type or the emotes they pick, never anything of the game,
//! so it cannot leak hidden information.

use crate::error::Error;
use game::Seat;
use serde::Serialize;
use std::collections::VecDeque;

/// The longest chat message, in characters (after cleaning).
pub const CHAT_MAX_CHARS: usize = 200;
/// Chat messages a table keeps in memory (and sends to a newcomer).
pub const CHAT_KEEP: usize = 50;
/// Chat messages a seat may send at once (however many connections it
/// has; a spectator where spectators chat: per table and address)...
pub const CHAT_BURST: u32 = 5;
/// ...then one per this many seconds.
pub const CHAT_EVERY_S: u32 = 2;
/// Chat messages one client address may send at once, at every table
/// and from every connection together...
pub const CHAT_IP_BURST: u32 = 20;
/// ...then one per this many seconds.
pub const CHAT_IP_EVERY_S: u32 = 1;

/// The emotes: fixed codes, drawn by the client (an emoji and a word in
/// the reader's language).
pub const EMOTES: &[&str] = &["hi", "gg", "wp", "thanks", "oops", "wow", "think", "laugh"];

/// What somebody said: their cleaned words, or an emote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Said {
    /// Words, cleaned ([`clean_chat`]).
    Text(String),
    /// One of [`EMOTES`].
    Emote(&'static str),
}

impl Said {
    /// A chat message from its two optional fields: exactly one must be
    /// there, the text cleaned, the emote one of [`EMOTES`].
    pub fn parse(text: Option<&str>, emote: Option<&str>) -> Result<Said, Error> {
        match (text, emote) {
            (Some(t), None) => clean_chat(t).map(Said::Text),
            (None, Some(e)) => EMOTES
                .iter()
                .find(|x| **x == e)
                .map(|x| Said::Emote(x))
                .ok_or_else(|| {
                    Error::BadInput(format!(
                        "no emote `{}`",
                        e.chars().take(20).collect::<String>()
                    ))
                }),
            _ => Err(Error::BadInput(
                "a chat message has either a text or an emote".to_string(),
            )),
        }
    }
}

/// A chat message as every reader gets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// Who said it (`null`: a spectator, at a table that lets them chat).
    pub seat: Option<Seat>,
    /// Their display name (a seat's; `null` for a spectator).
    pub name: Option<String>,
    /// `text` or `emote`.
    #[serde(flatten)]
    pub said: Said,
    /// Unix seconds.
    pub at: i64,
}

/// A table's chat budgets: [`CHAT_BURST`] messages at once, then one per
/// [`CHAT_EVERY_S`], for each seat (all its connections together), and
/// for each address spectating where spectators may chat.
#[derive(Debug, Default)]
pub struct ChatMeter {
    buckets: std::collections::HashMap<ChatKey, crate::quota::TokenBucket>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ChatKey {
    Seat(Seat),
    Spectator(crate::net::ClientAddr),
}

/// Budgets kept before the full ones are forgotten (a full budget is the
/// same as none): bounds the meter by who chatted lately.
const CHAT_METERS: usize = 1024;

impl ChatMeter {
    /// Takes one message from the budget of `seat` (or of the spectating
    /// address `who`), or says how long until one is there.
    pub fn take(
        &mut self,
        seat: Option<Seat>,
        who: crate::net::ClientAddr,
    ) -> Result<(), std::time::Duration> {
        if self.buckets.len() >= CHAT_METERS {
            self.buckets.retain(|_, b| !b.is_full());
        }
        let key = seat.map_or(ChatKey::Spectator(who), ChatKey::Seat);
        self.buckets
            .entry(key)
            .or_insert_with(|| crate::quota::TokenBucket::new(CHAT_BURST, CHAT_EVERY_S))
            .take()
    }
}

/// The last [`CHAT_KEEP`] messages of a table.
#[derive(Debug, Default)]
pub struct ChatLog {
    lines: VecDeque<ChatLine>,
}

impl ChatLog {
    /// Keeps `line`, forgetting the oldest beyond [`CHAT_KEEP`].
    pub fn push(&mut self, line: ChatLine) {
        if self.lines.len() == CHAT_KEEP {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    /// Every kept message, oldest first.
    pub fn lines(&self) -> Vec<ChatLine> {
        self.lines.iter().cloned().collect()
    }

    /// Whether nothing was said.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// A chat message as people will see it, cleaned like a name (control,
/// bidirectional and zero-width characters removed, runs of spaces and
/// line breaks made one space): 1 to [`CHAT_MAX_CHARS`] characters, or
/// refused (never cut: the writer sees why).
pub fn clean_chat(raw: &str) -> Result<String, Error> {
    let mut text = String::with_capacity(raw.len().min(4 * CHAT_MAX_CHARS));
    let mut count = 0;
    for c in raw.chars() {
        if c.is_whitespace() {
            if !text.is_empty() && !text.ends_with(' ') {
                text.push(' ');
                count += 1;
            }
            continue;
        }
        if c.is_control() || crate::names::invisible(c) {
            continue;
        }
        text.push(c);
        count += 1;
        if count > CHAT_MAX_CHARS + 1 {
            break;
        }
    }
    if text.ends_with(' ') {
        text.pop();
        count -= 1;
    }
    if text.is_empty() || count > CHAT_MAX_CHARS {
        return Err(Error::BadInput(format!(
            "a chat message is 1 to {CHAT_MAX_CHARS} visible characters"
        )));
    }
    Ok(text)
}

/// A person's identity from the key their browser made once (32 random
/// bytes as 64 lower-case hex digits, kept in its localStorage): the
/// SHA-256 hex of those 32 bytes. Only this hash is stored; anything but
/// exactly 64 lower-case hex digits is refused.
pub fn player_id(key: &str) -> Result<String, Error> {
    let bad = || {
        Error::BadInput("a player key is 64 lower-case hex digits (32 random bytes)".to_string())
    };
    if key.len() != 64 || !key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return Err(bad());
    }
    let bytes = registry::fair::parse_hex32("player key", key).map_err(|_| bad())?;
    Ok(registry::fair::commitment(&bytes))
}

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
        /// ([`origin`]), `None` if unknown (a seat taken before origins
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
    /// Played at a public table (private tables are among friends:
    /// unrated).
    pub public: bool,
    /// How many actions the game took (a game shorter than
    /// [`MIN_RATED_ACTIONS`] is unrated).
    pub actions: usize,
}

/// A person's rating and how many rated games made it (a person with
/// fewer than [`PROVEN_GAMES`] moves nobody else's rating).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The rating.
    pub rating: Rating,
    /// Rated games so far.
    pub games: i64,
}

/// The fewest actions a rated game takes: shorter games (a one-point Big
/// Cheese, one quick trick) say little about skill and are cheap to farm.
pub const MIN_RATED_ACTIONS: usize = 30;

/// The rated games after which a person's results move other people's
/// ratings: identities cost nothing, so a fresh one is measured against
/// bots and proven people first, and cannot feed anyone points.
pub const PROVEN_GAMES: i64 = 5;

/// The origin of a person's seat as ratings compare it: a hash of their
/// client address (an IPv6 address by its /56) under the site's secret,
/// so the store keeps no address, and one site's origins say nothing of
/// another's.
pub fn origin(site_secret: &str, addr: crate::net::ClientAddr) -> String {
    registry::fair::sha256_hex(&format!("ratrace origin\n{site_secret}\n{}", addr.0))
}

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
/// ladder (level 1, `random`, 15; each level 6 more: heuristic 21, strong
/// 27, search 33), with a small fixed uncertainty. Bots are never
/// updated: they are the fixed points people are measured against.
pub fn bot_rating(game: &str, bot: &str) -> Rating {
    let ladder: &[&str] = registry::dispatch!(game, G => <G as bots::Roster>::LADDER, _ => &[]);
    let level = ladder.iter().position(|b| *b == bot).unwrap_or(1);
    Rating {
        rating: 15.0 + 6.0 * level as f64,
        uncertainty: 1.0,
    }
}

/// Whether `result` moves anybody's rating: a finished, uncapped game at
/// a public table, at least [`MIN_RATED_ACTIONS`] long, with at least one
/// person with an identity, and nobody in two seats (playing oneself
/// would farm points).
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
        && result.public
        && result.actions >= MIN_RATED_ACTIONS
        && !ids.is_empty()
        && unique.len() == ids.len()
        && result.places.len() == result.seats.len()
}

/// Whether seat `other` of `result` counts in the rating of seat `me` (a
/// person): bots always (at their fixed rating); another person only if
/// proven (at least [`PROVEN_GAMES`] rated games) and not from the same
/// origin; a person without an identity never (nothing proves them).
fn counts_for(result: &GameResult, current: &[Option<Standing>], me: usize, other: usize) -> bool {
    if me == other {
        return true;
    }
    match (&result.seats[me], &result.seats[other]) {
        (_, Rated::Bot(_)) => true,
        (_, Rated::Nobody) => false,
        (Rated::Person { origin: mine, .. }, Rated::Person { origin: theirs, .. }) => {
            let proven = current
                .get(other)
                .copied()
                .flatten()
                .is_some_and(|s| s.games >= PROVEN_GAMES);
            let related = mine.is_some() && mine == theirs;
            proven && !related
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
                .filter(|&other| counts_for(result, current, me, other))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn result(places: Vec<u8>, seats: Vec<Rated>) -> GameResult {
        GameResult {
            game: "bigcheese".to_string(),
            outcome: "{}".to_string(),
            places,
            capped: false,
            seats,
            at: 0,
            public: true,
            actions: MIN_RATED_ACTIONS,
        }
    }

    fn person(id: &str) -> Rated {
        Rated::Person {
            id: id.to_string(),
            name: id.to_string(),
            origin: Some(format!("from-{id}")),
        }
    }

    /// A standing with `games` rated games at the start rating.
    fn proven(games: i64) -> Option<Standing> {
        Some(Standing {
            rating: Rating::START,
            games,
        })
    }

    #[test]
    fn winning_raises_a_rating_and_losing_lowers_it_bots_stay_fixed() {
        let r = result(
            vec![1, 2, 3],
            vec![person("a"), Rated::Bot("heuristic".into()), person("b")],
        );
        assert!(rateable(&r));
        let new = rate(&r, &[proven(5), None, proven(5)]);
        assert!(new[0].unwrap().rating > 25.0);
        assert!(new[2].unwrap().rating < 25.0);
        assert!(new[0].unwrap().uncertainty < Rating::START.uncertainty);
        assert_eq!(new[1], None);
        // Beating a stronger bot is worth more than beating a weaker one.
        let vs = |bot: &str| {
            let r = result(vec![1, 2], vec![person("a"), Rated::Bot(bot.into())]);
            rate(&r, &[None, None])[0].unwrap().rating
        };
        assert!(vs("search") > vs("random"));
        assert!(bot_rating("dalmuti", "search").rating > bot_rating("dalmuti", "random").rating);
    }

    #[test]
    fn ties_share_a_rank_and_some_games_do_not_count() {
        let tie = result(vec![1, 1], vec![person("a"), person("b")]);
        let new = rate(&tie, &[proven(5), proven(5)]);
        assert!((new[0].unwrap().rating - new[1].unwrap().rating).abs() < 1e-9);
        assert!((new[0].unwrap().rating - 25.0).abs() < 1e-9);
        // Oneself in two seats, nobody with an identity, a capped game.
        assert!(!rateable(&result(
            vec![1, 2],
            vec![person("a"), person("a")]
        )));
        assert!(!rateable(&result(
            vec![1, 2],
            vec![Rated::Nobody, Rated::Bot("random".into())]
        )));
        let mut capped = result(vec![1, 2], vec![person("a"), Rated::Nobody]);
        capped.capped = true;
        assert!(!rateable(&capped));
        // A private table, a short game.
        let mut private = result(vec![1, 2], vec![person("a"), Rated::Bot("random".into())]);
        assert!(rateable(&private));
        private.public = false;
        assert!(!rateable(&private));
        let mut short = result(vec![1, 2], vec![person("a"), Rated::Bot("random".into())]);
        short.actions = MIN_RATED_ACTIONS - 1;
        assert!(!rateable(&short));
    }

    /// The sybil's ways in: fresh identities, and people from one origin,
    /// move nobody; a proven stranger does; a person alone with unproven
    /// people is not rated at all.
    #[test]
    fn only_proven_strangers_and_bots_move_a_rating() {
        let champ = person("champ");
        let sybils = result(
            vec![1, 2, 3],
            vec![champ.clone(), person("s1"), person("s2")],
        );
        assert!(rateable(&sybils));
        // Fresh (or a handful of games): nobody counts for the winner,
        // and the fresh ones count the winner only once it is proven.
        for games in [0, PROVEN_GAMES - 1] {
            let new = rate(&sybils, &[proven(50), proven(games), proven(games)]);
            assert_eq!(new[0], None, "{games} games");
            assert!(new[1].unwrap().rating < 25.0, "a proven winner beat them");
        }
        assert_eq!(rate(&sybils, &[None, None, None]), vec![None, None, None]);
        // Proven, but from the winner's origin: still nothing.
        let mut same = sybils.clone();
        for seat in &mut same.seats {
            if let Rated::Person { origin, .. } = seat {
                *origin = Some("one-home".into());
            }
        }
        assert_eq!(
            rate(&same, &[proven(9), proven(9), proven(9)]),
            vec![None, None, None]
        );
        // Proven strangers count.
        let new = rate(
            &sybils,
            &[proven(0), proven(PROVEN_GAMES), proven(PROVEN_GAMES)],
        );
        assert!(new[0].unwrap().rating > 25.0);
        // A bot always counts: beating it moves a fresh identity, not the
        // bot.
        let bot = result(
            vec![1, 2, 3],
            vec![champ, Rated::Bot("heuristic".into()), person("s1")],
        );
        let new = rate(&bot, &[None, None, None]);
        assert!(new[0].unwrap().rating > 25.0);
        assert_eq!(new[1], None);
        assert!(new[2].unwrap().rating < 25.0, "s1 lost to the bot");
    }

    #[test]
    fn chat_is_cleaned_like_names_and_capped() {
        assert_eq!(clean_chat("  hi \n\t there ").unwrap(), "hi there");
        assert_eq!(clean_chat("a\u{202E}b\u{200B}c\u{0007}").unwrap(), "abc");
        assert!(clean_chat("\u{200B}\u{202E} \n").is_err());
        assert!(clean_chat("").is_err());
        let long = "é".repeat(CHAT_MAX_CHARS);
        assert_eq!(clean_chat(&long).unwrap(), long);
        assert!(clean_chat(&format!("{long}x")).is_err());
        // Invisible characters do not count towards the cap.
        let padded = format!("{long}{}", "\u{200B}".repeat(1000));
        assert_eq!(clean_chat(&padded).unwrap(), long);
    }

    #[test]
    fn said_is_a_text_or_a_known_emote() {
        assert_eq!(Said::parse(None, Some("gg")).unwrap(), Said::Emote("gg"));
        assert!(Said::parse(None, Some("<script>")).is_err());
        assert!(Said::parse(Some("hi"), Some("gg")).is_err());
        assert!(Said::parse(None, None).is_err());
        let line = ChatLine {
            seat: Some(Seat::new(1)),
            name: Some("Ann".into()),
            said: Said::Emote("gg"),
            at: 5,
        };
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"seat":"P2","name":"Ann","emote":"gg","at":5}"#
        );
    }

    #[test]
    fn the_chat_log_keeps_the_last_messages() {
        let mut log = ChatLog::default();
        for i in 0..(CHAT_KEEP as i64 + 7) {
            log.push(ChatLine {
                seat: None,
                name: None,
                said: Said::Text(i.to_string()),
                at: i,
            });
        }
        let lines = log.lines();
        assert_eq!(lines.len(), CHAT_KEEP);
        assert_eq!(lines[0].at, 7);
    }

    #[test]
    fn player_keys_are_checked_strictly_and_only_hashed() {
        let key = "0f".repeat(32);
        let id = player_id(&key).unwrap();
        assert_eq!(id.len(), 64);
        assert_ne!(id, key);
        for bad in [
            "0F".repeat(32),
            "0f".repeat(31),
            "0f".repeat(33),
            format!("{}zz", "0f".repeat(31)),
            format!("{} ", "0f".repeat(31)),
            String::new(),
        ] {
            assert!(player_id(&bad).is_err(), "{bad}");
        }
    }
}
