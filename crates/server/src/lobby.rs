//! The JSON HTTP API of the lobby: games, tables, joining, records, and the
//! fairness check (docs/server.md, "HTTP API").
//!
//! Handlers validate everything against the engine before anything is
//! stored (options, player count, bot names), and talk to a live table
//! only through its task. Bodies are read by [`JsonBody`], so malformed or
//! oversized input gets the same `{error:{code, message}}` answer as every
//! other refusal.

use crate::error::Error;
use crate::store::{SeatKind, StoredSeat, StoredTable, TableConfig};
use crate::table::{self, Command};
use crate::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use bots::Roster;
use game::{Game, GameOptions, Seat};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Largest body of an ordinary API request.
const BODY_LIMIT: usize = 16 * 1024;
/// Largest record accepted by `POST /api/verify`.
const RECORD_LIMIT: usize = 4 * 1024 * 1024;
/// Largest bot delay a table may ask for.
const MAX_BOT_DELAY_MS: u64 = 10_000;

/// The API routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/record", get(record))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .merge(
            Router::new()
                .route("/api/verify", post(verify))
                .layer(DefaultBodyLimit::max(RECORD_LIMIT)),
        )
}

/// A JSON body whose rejections are answered as [`Error`]s.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(JsonBody(v)),
            Err(r) => Err(rejection(r)),
        }
    }
}

fn rejection(r: JsonRejection) -> Error {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge
    } else {
        Error::BadInput(r.body_text())
    }
}

/// Whether `id` could be a table id (cheap check before any lookup).
pub fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A new table id: 10 url-safe random characters.
fn new_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..10)
        .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
        .collect()
}

#[derive(Serialize)]
struct OptionDesc {
    key: &'static str,
    default: &'static str,
    values: &'static str,
    help: &'static str,
}

#[derive(Serialize)]
struct GameDesc {
    name: &'static str,
    players: [usize; 2],
    default_players: usize,
    options: Vec<OptionDesc>,
    bots: &'static [&'static str],
}

fn describe<G: Roster>() -> GameDesc {
    GameDesc {
        name: G::NAME,
        players: [*G::PLAYERS.start(), *G::PLAYERS.end()],
        default_players: G::DEFAULT_PLAYERS,
        options: <G::Options as GameOptions>::info()
            .iter()
            .map(|o| OptionDesc {
                key: o.key,
                default: o.default,
                values: o.values,
                help: o.help,
            })
            .collect(),
        bots: G::LADDER,
    }
}

async fn games() -> Json<Vec<GameDesc>> {
    Json(vec![
        describe::<bigcheese::BigCheese>(),
        describe::<dalmuti::Dalmuti>(),
    ])
}

/// One seat of a new table.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatRequest {
    /// A person joins it later.
    Human,
    /// A bot plays it.
    Bot {
        /// The bot's name (default: the game's first bot, `heuristic`).
        #[serde(default)]
        bot: Option<String>,
    },
}

/// The body of `POST /api/tables`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// `bigcheese` or `dalmuti`.
    pub game: String,
    /// Seats at the start (default: the game's default).
    #[serde(default)]
    pub players: Option<usize>,
    /// Rules options; values may be strings, numbers or booleans.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Who sits where (default: P1 human, bots elsewhere). May be longer
    /// than `players`, for Dalmuti seats that join later; seats not listed
    /// are heuristic bots.
    #[serde(default)]
    pub seats: Option<Vec<SeatRequest>>,
    /// Bot delay (default 600, at most 10000).
    #[serde(default)]
    pub bot_delay_ms: Option<u64>,
    /// Turn timer for humans (default off).
    #[serde(default)]
    pub turn_timer_ms: Option<u64>,
}

#[derive(Serialize)]
struct Created {
    id: String,
    invite: String,
    seed_hash: String,
}

fn option_text(key: &str, v: &serde_json::Value) -> Result<String, Error> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(game::bool_text(*b)),
        _ => Err(Error::BadInput(format!(
            "option `{key}`: give a string, number or boolean"
        ))),
    }
}

/// Checks a table request against game `G` and builds the stored table.
fn build<G: Roster>(req: &CreateRequest) -> Result<StoredTable, Error> {
    let players = req.players.unwrap_or(G::DEFAULT_PLAYERS);
    if !G::PLAYERS.contains(&players) {
        return Err(Error::BadInput(format!(
            "{} is played by {} to {} players, not {players}",
            G::NAME,
            G::PLAYERS.start(),
            G::PLAYERS.end()
        )));
    }
    let mut options = G::Options::default();
    for (k, v) in &req.options {
        options
            .set(k, &option_text(k, v)?)
            .map_err(|e| Error::BadInput(e.to_string()))?;
    }
    let seed: u64 = rand::random();
    G::new(&options, players, seed).map_err(|e| Error::BadInput(e.to_string()))?;
    let requested = match &req.seats {
        Some(s) => s.as_slice(),
        None => &[SeatRequest::Human],
    };
    if requested.len() > Seat::MAX {
        return Err(Error::BadInput(format!("at most {} seats", Seat::MAX)));
    }
    let count = requested.len().max(players);
    let mut seats = Vec::with_capacity(count);
    for i in 0..count {
        let kind = match requested.get(i) {
            Some(SeatRequest::Human) => SeatKind::Human {
                name: None,
                token_hash: None,
            },
            Some(SeatRequest::Bot { bot }) => {
                let name = bot.clone().unwrap_or_else(|| G::BOTS[0].to_string());
                G::bot(&name, 0).map_err(Error::BadInput)?;
                SeatKind::Bot(name)
            }
            None => SeatKind::Bot(G::BOTS[0].to_string()),
        };
        seats.push(StoredSeat {
            seat: Seat::new(i),
            kind,
        });
    }
    let bot_delay_ms = req.bot_delay_ms.unwrap_or(600);
    if bot_delay_ms > MAX_BOT_DELAY_MS {
        return Err(Error::BadInput(format!(
            "bot_delay_ms is at most {MAX_BOT_DELAY_MS}"
        )));
    }
    if req
        .turn_timer_ms
        .is_some_and(|t| !(1000..=3_600_000).contains(&t))
    {
        return Err(Error::BadInput(
            "turn_timer_ms is between 1000 and 3600000".to_string(),
        ));
    }
    Ok(StoredTable {
        id: new_id(),
        game: G::NAME.to_string(),
        rules_version: G::RULES_VERSION.to_string(),
        players,
        options: options.pairs().into_iter().collect(),
        seed,
        seed_hash: table::sha256_hex(&seed.to_string()),
        config: TableConfig {
            bot_delay_ms,
            turn_timer_ms: req.turn_timer_ms,
        },
        created_at: table::unix_now(),
        finished_at: None,
        seats,
        actions: Vec::new(),
    })
}

async fn create_table(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), Error> {
    let stored = crate::with_game!(req.game.as_str(), G => build::<G>(&req),
        _ => Err(Error::BadInput(format!(
            "unknown game `{}` (choose from: {})", req.game, crate::GAMES.join(", ")))))?;
    let store = state.store();
    let copy = stored.clone();
    tokio::task::spawn_blocking(move || store.create_table(&copy))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    let created = Created {
        invite: format!("/t/{}", stored.id),
        id: stored.id.clone(),
        seed_hash: stored.seed_hash.clone(),
    };
    let id = stored.id.clone();
    let handle = table::spawn(stored, state.store(), state.closing()).map_err(Error::Internal)?;
    state.insert(id, handle);
    Ok((StatusCode::CREATED, Json(created)))
}

async fn list_tables(
    State(state): State<AppState>,
) -> Result<Json<Vec<crate::store::TableSummary>>, Error> {
    let store = state.store();
    let list = tokio::task::spawn_blocking(move || store.list(100))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(list))
}

async fn table_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, Error> {
    let table = state.table(&id).await?;
    let (reply, answer) = oneshot::channel();
    table.send(Command::Info { reply }).await?;
    answer
        .await
        .map(Json)
        .map_err(|_| Error::Internal("table task stopped".to_string()))
}

/// The body of `POST /api/tables/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The seat wanted (default: the first free human seat).
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The display name.
    pub name: String,
}

#[derive(Serialize)]
struct Joined {
    seat: Seat,
    token: String,
}

async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let table = state.table(&id).await?;
    let (reply, answer) = oneshot::channel();
    table
        .send(Command::Join {
            seat: req.seat,
            name: req.name,
            reply,
        })
        .await?;
    let (seat, token) = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(Json(Joined { seat, token }))
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<game::Record>, Error> {
    if !valid_id(&id) {
        return Err(Error::UnknownTable);
    }
    let store = state.store();
    let stored = tokio::task::spawn_blocking(move || store.load(&id))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??
        .ok_or(Error::UnknownTable)?;
    if stored.finished_at.is_none() {
        return Err(Error::NotOver);
    }
    let mut record = table::record_of(&stored);
    let outcome = crate::with_game!(record.game.as_str(), G => record
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome())
            .map_err(|e| Error::Internal(e.to_string()))?,
        _ => None);
    record.outcome = outcome;
    Ok(Json(record))
}

async fn verify(JsonBody(record): JsonBody<game::Record>) -> Json<crate::verify::Report> {
    // Replaying is CPU work proportional to the record: off the reactor.
    let record = Arc::new(record);
    let report = tokio::task::spawn_blocking(move || crate::verify::verify(&record))
        .await
        .unwrap_or_else(|_| crate::verify::Report::failed("the check failed"));
    Json(report)
}
