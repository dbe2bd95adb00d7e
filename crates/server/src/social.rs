//! The social side of a table (playing with people): the in-table chat
//! (what may be said, how it is cleaned, how much is kept), the players'
//! identities (a random key their browser keeps, stored only as a hash),
//! and their ratings (Weng–Lin, through the `skillratings` crate).
//!
//! Why here and not in the table task: these are pure rules with their own
//! tests, shared by the WebSocket loop (which refuses a bad message before
//! it reaches the table) and the lobby's HTTP handlers. Chat carries only
//! what people type or the emotes they pick, never anything of the game,
//! so it cannot leak hidden information.

use crate::error::Error;
// The ratings bookkeeping lives with the store (every backend shares it);
// the social pages and the tables name it from here too.
pub use crate::store::ratings::{
    bot_rating, rate, rate_with, rateable, GameResult, Rated, Rating, Recent, Standing,
    ENGAGED_DECISIONS, MIN_RATED_ACTIONS, PROVEN_AGE_S, PROVEN_GAMES, REPEAT_LIMIT,
};
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

/// The emotes: fixed codes, drawn by the client (an emoji and a word in
/// the reader's language).
pub const EMOTES: &[&str] = &["hi", "gg", "wp", "thanks", "oops", "wow", "think", "laugh"];

/// What somebody said: their cleaned words, or an emote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    Spectator(crate::addr::ClientAddr),
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
        who: crate::addr::ClientAddr,
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

/// The origin of a person's seat as ratings compare it: a hash of their
/// client address (an IPv6 address by its /56) under the site's secret,
/// so the store keeps no address, and one site's origins say nothing of
/// another's.
pub fn origin(site_secret: &str, addr: crate::addr::ClientAddr) -> String {
    registry::fair::sha256_hex(&format!("ratrace origin\n{site_secret}\n{}", addr.0))
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
            at: PROVEN_AGE_S,
            public: true,
            actions: MIN_RATED_ACTIONS,
            engaged: Vec::new(),
            tutorial: false,
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
            first_at: 0,
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
        // A tutorial, whose deal anyone can know in advance.
        let mut tutorial = result(vec![1, 2], vec![person("a"), Rated::Nobody]);
        tutorial.tutorial = true;
        assert!(!rateable(&tutorial));
        // A private table: a person playing bots is rated against them,
        // and two people are not rated for each other (friends could farm
        // each other); a short game counts nowhere.
        let mut private = result(vec![1, 2], vec![person("a"), Rated::Bot("random".into())]);
        private.public = false;
        assert!(rateable(&private));
        assert!(rate(&private, &[None, None])[0].unwrap().rating > 25.0);
        let mut friends = result(vec![1, 2], vec![person("a"), person("b")]);
        assert!(rate(&friends, &[proven(5), proven(5)])[0].is_some());
        friends.public = false;
        assert_eq!(rate(&friends, &[proven(5), proven(5)]), vec![None, None]);
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

    /// The proven sybils' ways in: a seat that conceded or stood still,
    /// an identity proven the same day, and the same opponent game after
    /// game all stop counting for the others.
    #[test]
    fn forfeits_young_identities_and_repeated_opponents_move_nobody() {
        let r = result(
            vec![1, 2, 3],
            vec![person("farmer"), person("s1"), person("s2")],
        );
        let standing = [proven(9), proven(9), proven(9)];
        assert!(rate(&r, &standing)[0].unwrap().rating > 25.0, "they count");
        // Both opponents forfeit: the farmer is not rated; the forfeits
        // still lose.
        let mut forfeit = r.clone();
        forfeit.engaged = vec![true, false, false];
        let new = rate(&forfeit, &standing);
        assert_eq!(new[0], None);
        assert!(new[1].unwrap().rating < 25.0);
        // One forfeits: only the other counts.
        forfeit.engaged = vec![true, false, true];
        let one = rate(&forfeit, &standing)[0].unwrap().rating;
        let both = rate(&r, &standing)[0].unwrap().rating;
        assert!(one > 25.0 && one < both, "{one} {both}");
        // Proven today: not yet.
        let young = Some(Standing {
            first_at: r.at - PROVEN_AGE_S + 1,
            ..proven(9).unwrap()
        });
        assert_eq!(rate(&r, &[proven(9), young, young])[0], None);
        // The same opponents, a third time within the day: not counted.
        let mut recent = Recent::new();
        recent.insert(("farmer".into(), "s1".into()), REPEAT_LIMIT);
        recent.insert(("farmer".into(), "s2".into()), REPEAT_LIMIT - 1);
        let new = rate_with(&r, &standing, &recent);
        assert!(
            (new[0].unwrap().rating - one).abs() < 1e-9,
            "s2 alone counts"
        );
        recent.insert(("farmer".into(), "s2".into()), REPEAT_LIMIT);
        assert_eq!(rate_with(&r, &standing, &recent)[0], None);
        // The pairs a result counts are the ones it writes back.
        let moves = crate::store::ratings::moves(
            &r,
            &[
                ("farmer".to_string(), standing[0].unwrap()),
                ("s1".to_string(), standing[1].unwrap()),
                ("s2".to_string(), standing[2].unwrap()),
            ]
            .into_iter()
            .collect(),
            &Recent::new(),
        );
        assert_eq!(moves.ratings.len(), 3);
        assert!(moves.pairs.contains(&("farmer", "s1")));
        assert!(moves.pairs.contains(&("s2", "farmer")));
        assert_eq!(moves.pairs.len(), 6);
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
