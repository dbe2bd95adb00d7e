//! The JSON HTTP API of the lobby: games, tables, joining, records, and the
//! fairness check (docs/server.md, "HTTP API").
//!
//! Handlers validate everything against the engine before anything is
//! stored (options, player count, bot names), and talk to a live table only
//! through its task. Bodies are read by [`JsonBody`], so malformed,
//! oversized or too slow input gets the same `{error:{code, message}}`
//! answer as every other refusal. Whatever costs the server something
//! lasting (a table, a seat, a record check) is metered per client address
//! ([`crate::quota`]) and capped, so no client can exhaust the server.

mod body;
mod create;
mod players;
mod profile;
pub(crate) mod records;
mod seats;
mod tutorial;

pub use body::JsonBody;
pub(crate) use body::{blocking, meter};
pub(crate) use create::build;
pub use create::{CreateRequest, RematchRequest, SeatRequest};
pub(crate) use players::identity;
pub use records::REPLAY_BATCH;
pub(crate) use records::{finished_record, Proof};
pub use seats::{FillRequest, JoinRequest};
pub use tutorial::TutorialRequest;

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::state::pairing::{DEFAULT_WAIT_S, PRESETS, WAITS_S};
use crate::state::AppState;
use crate::table::Command;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use body::{BODY_LIMIT, RECORD_LIMIT};
use bots::Roster;
use create::{create_table, rematch};
use game::GameOptions;
use players::{leaderboard, my_games};
use records::{key, record, replay, verify};
use seats::{fill, join};
use serde::Serialize;
use tokio::sync::oneshot;

/// The API routes.
/// The routes about one live table go to the process that owns it
/// (`cluster::to_owner`).
pub fn routes(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/reclaim", post(seats::reclaim))
        .route("/api/tables/{id}/fill", post(fill))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route_layer(axum::middleware::from_fn_with_state(
            state,
            crate::cluster::forward::to_owner,
        ))
        .route("/api/games", get(games))
        .route("/api/key", get(key))
        .route("/api/me/games", get(my_games))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/players/{player}", get(profile::profile))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tutorial", post(tutorial::create_tutorial))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay/{from}", get(replay))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .merge(
            Router::new()
                .route("/api/verify", post(verify))
                .layer(DefaultBodyLimit::max(RECORD_LIMIT)),
        )
}

#[derive(Serialize)]
struct OptionDesc {
    key: &'static str,
    default: &'static str,
    values: &'static str,
    help: &'static str,
}

impl From<&game::OptionInfo> for OptionDesc {
    fn from(o: &game::OptionInfo) -> OptionDesc {
        OptionDesc {
            key: o.key,
            default: o.default,
            values: o.values,
            help: o.help,
        }
    }
}

#[derive(Serialize)]
struct GameDesc {
    name: &'static str,
    players: [usize; 2],
    default_players: usize,
    options: Vec<OptionDesc>,
    /// The table's other settings (public, turn timer, bot delay,
    /// spectators' chat), described as options are.
    settings: Vec<OptionDesc>,
    /// The ladder's names, weakest first.
    bots: &'static [&'static str],
    /// The ladder's levels, described: number, whether each plays every
    /// table size as itself, whether it decides at once.
    levels: &'static [bots::Level],
    /// The bot programs the operator offers (`ratrace serve --bot`),
    /// levels after the ladder.
    external: Vec<String>,
    /// "Learn to play": the tutorial's players, options, bot and its
    /// fixed, published deal (`POST /api/tutorial` opens one).
    tutorial: Option<&'static tutorial::Tutorial>,
    /// Quick pairing's presets of this game ("Play now").
    pairing: Vec<PresetDesc>,
    /// The waits a person may choose before bots fill the free seats, in
    /// seconds.
    pairing_waits_s: &'static [u64],
    /// The wait when none is chosen.
    pairing_wait_s: u64,
}

/// A quick-pairing preset, as `/api/games` describes it.
#[derive(Serialize)]
struct PresetDesc {
    id: &'static str,
    players: usize,
    /// Rules options besides the game's defaults, `key=value`.
    options: Vec<String>,
    /// A public table: people there are rated for each other (the usual
    /// rules); a private one rates people against the bots only.
    public: bool,
}

fn describe<G: Roster>(external: &ExternalBots) -> GameDesc {
    GameDesc {
        name: G::NAME,
        players: [*G::PLAYERS.start(), *G::PLAYERS.end()],
        default_players: G::DEFAULT_PLAYERS,
        options: <G::Options as GameOptions>::info()
            .iter()
            .map(OptionDesc::from)
            .collect(),
        settings: create::SETTINGS.iter().map(OptionDesc::from).collect(),
        bots: G::LADDER,
        levels: G::LEVELS,
        external: external.names_for(G::NAME),
        tutorial: tutorial::tutorial(G::NAME),
        pairing: PRESETS
            .iter()
            .filter(|p| p.game == G::NAME)
            .map(|p| PresetDesc {
                id: p.id,
                players: p.players,
                options: p.options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
                public: p.public,
            })
            .collect(),
        pairing_waits_s: WAITS_S,
        pairing_wait_s: DEFAULT_WAIT_S,
    }
}

/// `GET /api/games` as a static site serves it (`ratrace site`): the
/// games as a server with no bot programs describes them.
pub fn games_json() -> Vec<u8> {
    let external = ExternalBots::default();
    let games = vec![
        describe::<bigcheese::BigCheese>(&external),
        describe::<dalmuti::Dalmuti>(&external),
    ];
    serde_json::to_vec(&games).unwrap_or_default()
}

async fn games(State(state): State<AppState>) -> Json<Vec<GameDesc>> {
    let external = state.external_bots();
    Json(vec![
        describe::<bigcheese::BigCheese>(&external),
        describe::<dalmuti::Dalmuti>(&external),
    ])
}

async fn list_tables(
    State(state): State<AppState>,
) -> Result<Json<Vec<crate::store::TableSummary>>, Error> {
    let cache = state.lobby_cache();
    if let Some(list) = cache.get() {
        return Ok(Json(list.as_ref().clone()));
    }
    let generation = cache.generation();
    let store = state.store();
    let list = tokio::task::spawn_blocking(move || store.list(100))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(cache.put(generation, list).as_ref().clone()))
}

async fn table_info(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<crate::protocol::TableInfo>, Error> {
    let (reply, answer) = oneshot::channel();
    state.send(&id, addr, Command::Info { reply }).await?;
    answer
        .await
        .map(Json)
        .map_err(|_| Error::Internal("table task stopped".to_string()))
}
