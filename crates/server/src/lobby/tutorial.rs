//! Tutorial tables: "Learn to play" in the lobby opens a short guided
//! game against bots, which the browser's coach (`web/tutorial.js`) walks
//! through step by step.
//!
//! A tutorial is an ordinary table in all but three things, so that every
//! newcomer meets the same situations in the same order and the coach can
//! count on them: its deal is a fixed seed published in `/api/games`
//! (`tutorial`), its bots are seeded by their seat, and it is marked
//! (`TableConfig::tutorial`, `table::tutorial_bot_seed`) so that its result is never rated and its
//! page shows the coach. The fixed seed is not a fair deal, and the table
//! says so: it has no fair-deal secret, only the bare hash of its seed
//! (which anyone can compute from the published seed), as the verifier
//! reports. The bots still see only their own seat's view. It is private
//! and has no turn timer; the person sits in P1.

use super::body::JsonBody;
use super::create::{build, open, CreateRequest, Created, SeatRequest};
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One game's tutorial: who plays, with which options, on which deal.
#[derive(Debug, Serialize)]
pub(super) struct Tutorial {
    /// The game.
    #[serde(skip)]
    game: &'static str,
    /// Seats: the person in P1, bots in the others.
    pub players: usize,
    /// The rules options besides the defaults: the shortest game that
    /// still shows every rule the coach speaks of.
    pub options: &'static [(&'static str, &'static str)],
    /// The fixed deal: a 64-bit seed, published.
    pub seed: u64,
    /// The bot in every other seat (a ladder level).
    pub bot: &'static str,
}

/// The tutorials, one per game. Each seed was chosen for what its deal
/// shows a newcomer who follows the coach:
/// - The Big Cheese, 3 players to 20 points: a Big Cheese and a Veto are
///   the first cards up for bid after the first auction, so bidding,
///   projects, a Veto played, a payout and a re-roll all come within one
///   short game;
/// - The Great Dalmuti, 4 players, one hand: the person is dealt both
///   Jesters and is the Greater Peon, so they are offered the Great
///   Revolution, and taxes are paid whatever they decide (D7, D8).
const TUTORIALS: &[Tutorial] = &[
    Tutorial {
        game: "bigcheese",
        players: 3,
        options: &[("target", "20")],
        seed: 2549,
        bot: "heuristic",
    },
    Tutorial {
        game: "dalmuti",
        players: 4,
        options: &[("hands", "1")],
        seed: 348,
        bot: "heuristic",
    },
];

/// How long a tutorial's bots wait before acting unless asked otherwise:
/// a little longer than a table's default, for a newcomer to follow.
const BOT_DELAY_MS: u64 = 900;

/// The tutorial of `game`, if it has one.
pub(super) fn tutorial(game: &str) -> Option<&'static Tutorial> {
    TUTORIALS.iter().find(|t| t.game == game)
}

/// The body of `POST /api/tutorial`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TutorialRequest {
    /// `bigcheese` or `dalmuti`.
    pub game: String,
    /// Bot delay, in milliseconds, within the table setting's bounds
    /// (default: 900).
    #[serde(default)]
    pub bot_delay_ms: Option<u64>,
}

/// The table request a tutorial makes: its players and options, the
/// person in P1, its bot everywhere else, private, no turn timer.
fn request(t: &Tutorial, bot_delay_ms: Option<u64>) -> CreateRequest {
    let mut seats = vec![SeatRequest::Human];
    seats.extend((1..t.players).map(|_| SeatRequest::Bot {
        bot: Some(t.bot.to_string()),
    }));
    CreateRequest {
        game: t.game.to_string(),
        players: Some(t.players),
        options: t
            .options
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect::<BTreeMap<_, _>>(),
        seats: Some(seats),
        bot_delay_ms: Some(bot_delay_ms.unwrap_or(BOT_DELAY_MS)),
        turn_timer_ms: None,
        public: false,
        spectator_chat: false,
    }
}

/// `POST /api/tutorial`: a new tutorial table of a game, checked and
/// opened as `POST /api/tables` opens one (the same quota and caps); the
/// answer is the same, and the person joins P1 as at any table.
pub(super) async fn create_tutorial(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<TutorialRequest>,
) -> Result<(StatusCode, Json<Created>), Error> {
    let Some(t) = tutorial(&req.game) else {
        return Err(Error::BadInput(format!(
            "no tutorial for `{}` (choose from: {})",
            req.game,
            TUTORIALS
                .iter()
                .map(|t| t.game)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let limits = state.limits();
    let external = state.external_bots();
    let create = request(t, req.bot_delay_ms);
    let mut stored = registry::dispatch!(t.game, G => build::<G>(&create, &limits, &external),
        _ => Err(Error::BadInput(format!("unknown game `{}`", t.game))))?;
    // The published deal instead of a fair one: no secret, and the bare
    // hash of the seed as its commitment (what the verifier calls a bare
    // seed_hash: anyone can compute it).
    let seed = game::Seed::Legacy(t.seed);
    stored.fair = None;
    stored.seed = seed;
    stored.seed_hash = registry::fair::sha256_hex(&seed.to_string());
    stored.config.tutorial = true;
    let created = open(&state, addr, stored).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Every tutorial's request is one its game accepts (players, options,
/// bot), so "Learn to play" never fails on a setup error.
#[cfg(test)]
mod tests {
    use super::*;
    use game::Seat;

    #[test]
    fn every_tutorial_is_a_table_its_game_accepts() {
        let limits = crate::limits::Limits::default();
        let external = crate::extbots::ExternalBots::default();
        for name in registry::GAMES {
            let t = tutorial(name).unwrap();
            let req = request(t, None);
            let stored = registry::dispatch!(t.game, G => build::<G>(&req, &limits, &external),
                _ => panic!("unknown game"))
            .unwrap();
            assert_eq!(stored.players, t.players);
            assert!(!stored.access.public);
            assert_eq!(stored.config.turn_timer_ms, None);
        }
        assert!(tutorial("chess").is_none());
    }

    /// The situations each deal was chosen for are still what the engine
    /// deals (a change of the engine's deal fails here, not in a
    /// newcomer's first game): the Dalmuti tutorial's person is the
    /// Greater Peon, dealt both Jesters, and decides on a revolution first;
    /// the Big Cheese tutorial's first card up is a Big Cheese.
    #[test]
    fn the_deals_show_what_they_were_chosen_for() {
        use game::{Game, GameOptions};
        let dal = tutorial("dalmuti").unwrap();
        let options =
            <dalmuti::Dalmuti as Game>::Options::from_pairs(dal.options.iter().copied()).unwrap();
        let g = dalmuti::Dalmuti::new(&options, dal.players, dal.seed).unwrap();
        let view = serde_json::to_value(g.view(Seat::new(0))).unwrap();
        let hand = view["hand"].as_str().unwrap_or_default();
        let jesters = hand.split_whitespace().filter(|c| *c == "J").count();
        assert_eq!(jesters, 2, "{view}");
        assert_eq!(view["public"]["roles"][0], "greater-peon", "{view}");
        assert_eq!(g.to_move(), Some(Seat::new(0)));
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert!(
            legal.iter().any(|a| a.to_string() == "revolution"),
            "{legal:?}"
        );

        let bc = tutorial("bigcheese").unwrap();
        let options =
            <bigcheese::BigCheese as Game>::Options::from_pairs(bc.options.iter().copied())
                .unwrap();
        let g = bigcheese::BigCheese::new(&options, bc.players, bc.seed).unwrap();
        let view = serde_json::to_value(g.public_view()).unwrap();
        assert_eq!(view["top"], "BC", "{view}");
        assert_eq!(view["target"], 20, "{view}");
    }

    #[test]
    fn bots_are_seeded_by_seat() {
        use crate::table::tutorial_bot_seed;
        assert_eq!(tutorial_bot_seed(Seat::new(1)), 1001);
        assert_ne!(
            tutorial_bot_seed(Seat::new(1)),
            tutorial_bot_seed(Seat::new(2))
        );
    }
}
