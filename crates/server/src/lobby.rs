//! The JSON HTTP API of the lobby: games, tables, joining, records, and the
//! fairness check (docs/server.md, "HTTP API").
//!
//! Handlers validate everything against the engine before anything is
//! stored (options, player count, bot names), and talk to a live table
//! only through its task. Bodies are read by [`JsonBody`], so malformed,
//! oversized or too slow input gets the same `{error:{code, message}}`
//! answer as every other refusal. Whatever costs the server something
//! lasting (a table, a seat, a record check) is metered per client address
//! ([`crate::quota`]) and capped (issue 8).

use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::limits::Limits;
use crate::net::ClientAddr;
use crate::quota::Kind;
use crate::state::AppState;
use crate::store::{Access, SeatKind, Social, StoredFair, StoredSeat, StoredTable, TableConfig};
use crate::table::{self, Command};
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
/// The routes about one live table go to the process that owns it
/// (`cluster::to_owner`).
pub fn routes(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/fill", post(fill))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route_layer(axum::middleware::from_fn_with_state(
            state,
            crate::cluster::to_owner,
        ))
        .route("/api/games", get(games))
        .route("/api/me/games", get(my_games))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay/{from}", get(replay))
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

impl<T: DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Error> {
        let read = Json::<T>::from_request(req, state);
        match tokio::time::timeout(state.limits().body_timeout, read).await {
            Ok(Ok(Json(v))) => Ok(JsonBody(v)),
            Ok(Err(r)) => Err(rejection(r)),
            Err(_) => Err(Error::Timeout),
        }
    }
}

/// Takes a token of `kind` for `addr`, or refuses with `Retry-After`.
pub(crate) fn meter(
    state: &AppState,
    kind: Kind,
    addr: ClientAddr,
    what: &str,
) -> Result<(), Error> {
    state
        .take_quota(kind, addr)
        .map_err(|wait| Error::quota(what, wait))
}

fn rejection(r: JsonRejection) -> Error {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge
    } else {
        Error::BadInput(r.body_text())
    }
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
    /// The ladder, weakest first.
    bots: &'static [&'static str],
    /// The bot programs the operator offers (`ratrace serve --bot`),
    /// levels after the ladder.
    external: Vec<String>,
}

fn describe<G: Roster>(external: &ExternalBots) -> GameDesc {
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
        external: external.names(),
    }
}

async fn games(State(state): State<AppState>) -> Json<Vec<GameDesc>> {
    let external = state.external_bots();
    Json(vec![
        describe::<bigcheese::BigCheese>(&external),
        describe::<dalmuti::Dalmuti>(&external),
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
    /// Turn timer for humans (default: off at private tables, the
    /// server's public timer at public ones).
    #[serde(default)]
    pub turn_timer_ms: Option<u64>,
    /// Listed in the lobby and joined without the invite key (default:
    /// private).
    #[serde(default)]
    pub public: bool,
    /// Spectators may read and write the chat too (default: only the
    /// seated players chat).
    #[serde(default)]
    pub spectator_chat: bool,
}

#[derive(Serialize)]
struct Created {
    id: String,
    /// The link that lets people join (it holds the invite key of a
    /// private table).
    invite: String,
    /// The invite key alone (private tables).
    key: Option<String>,
    /// The creator's token: it lets the creator give a seat whose human
    /// never came to a bot.
    creator: String,
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

/// Checks a table request against game `G` and the server's limits, and
/// builds the stored table.
fn build<G: Roster>(
    req: &CreateRequest,
    limits: &Limits,
    external: &ExternalBots,
) -> Result<StoredTable, Error> {
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
    if let Some(hands) = options
        .pairs()
        .into_iter()
        .find(|(k, _)| k == "hands")
        .and_then(|(_, v)| v.parse::<u32>().ok())
    {
        if hands > limits.max_hands {
            return Err(Error::BadInput(format!(
                "this server plays at most {} hands in a session",
                limits.max_hands
            )));
        }
    }
    G::new(&options, players, 0).map_err(|e| Error::BadInput(e.to_string()))?;
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
                crate::extbots::server_bot::<G>(&name, external)?;
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
    let humans = seats
        .iter()
        .any(|s| matches!(s.kind, SeatKind::Human { .. }));
    if !humans && bot_delay_ms < limits.min_bot_delay_ms {
        return Err(Error::BadInput(format!(
            "a table of bots only plays at most one action every {} ms (bot_delay_ms)",
            limits.min_bot_delay_ms
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
    // The fair deal: the server commits to its secret now; each person who
    // joins adds a contribution, and the seed is derived once the last one
    // is in (docs/server.md, "Fairness: commit, contribute, reveal").
    let id = crate::ids::new_id();
    let fair = StoredFair::new(&id);
    Ok(StoredTable {
        id,
        game: G::NAME.to_string(),
        rules_version: G::RULES_VERSION.to_string(),
        players,
        options: options.pairs().into_iter().collect(),
        seed: fair.seed(),
        seed_hash: registry::fair::commitment(&fair.secret),
        fair: Some(fair),
        config: TableConfig {
            bot_delay_ms,
            // An idle stranger must not stall a public table (F11).
            turn_timer_ms: req
                .turn_timer_ms
                .or(req.public.then_some(limits.public_turn_timer_ms)),
            spectator_chat: req.spectator_chat,
        },
        created_at: crate::clock::unix_now(),
        finished_at: None,
        seats,
        actions: Vec::new(),
        access: Access {
            public: req.public,
            ..Access::default()
        },
        social: Social::default(),
    })
}

async fn create_table(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), Error> {
    let limits = state.limits();
    let external = state.external_bots();
    let mut stored = registry::dispatch!(req.game.as_str(), G => build::<G>(&req, &limits, &external),
        _ => Err(Error::BadInput(format!(
            "unknown game `{}` (choose from: {})", req.game, registry::GAMES.join(", ")))))?;
    // A table whose bot programs could not run (more than its address
    // may run at once, or than are free now) is refused before it
    // exists; their process slots are taken when they start.
    external.check(
        table::external_seats(&stored.seats, &external),
        &addr.0.to_string(),
        &state.metrics(),
    )?;
    let owner = may_create(&state, addr).await?;
    let key = (!req.public).then(crate::ids::new_token);
    let creator = crate::ids::new_token();
    stored.access.invite_hash = key.as_deref().map(crate::ids::sha256_hex);
    stored.access.creator_hash = Some(crate::ids::sha256_hex(&creator));
    stored.access.owner = Some(owner);
    let store = state.store();
    let copy = stored.clone();
    let node = state.node().id.clone();
    let epoch = tokio::task::spawn_blocking(move || store.create_table(&copy, &node))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    let created = Created {
        invite: match &key {
            Some(k) => format!("/t/{}?k={k}", stored.id),
            None => format!("/t/{}", stored.id),
        },
        key,
        creator,
        id: stored.id.clone(),
        seed_hash: stored.seed_hash.clone(),
    };
    let id = stored.id.clone();
    let handle = table::spawn(stored, state.ctx(), epoch).map_err(Error::Internal)?;
    state.insert(id, handle);
    state.metrics().table_created();
    Ok((StatusCode::CREATED, Json(created)))
}

/// Meters a new table for `addr` (the creation quota) and checks the
/// live-table caps; the owner to record.
async fn may_create(state: &AppState, addr: ClientAddr) -> Result<String, Error> {
    let limits = state.limits();
    meter(state, Kind::Create, addr, "new tables")?;
    let owner = addr.0.to_string();
    let store = state.store();
    let key = owner.clone();
    let (all, mine) = tokio::task::spawn_blocking(move || store.count_live(&key))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    if all >= limits.max_live_tables || mine >= limits.max_live_tables_per_ip {
        state.metrics().refused(crate::metrics::Refusal::LiveTables);
    }
    if all >= limits.max_live_tables {
        return Err(Error::RateLimited {
            retry_after: 60,
            message: format!("the server has {all} unfinished tables, its most: try again later"),
        });
    }
    if mine >= limits.max_live_tables_per_ip {
        return Err(Error::RateLimited {
            retry_after: 60,
            message: format!(
                "your address has {mine} unfinished tables, the most it may have: finish one first"
            ),
        });
    }
    Ok(owner)
}

/// The body of `POST /api/tables/{id}/rematch`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    /// The asker's seat token at the finished table.
    pub token: String,
}

#[derive(Serialize)]
struct RematchAnswer {
    id: String,
    seat: Seat,
    token: String,
}

/// `POST /api/tables/{id}/rematch`: a rematch of a finished table for
/// every player of it (issue 11). Metered and capped like a new table;
/// only a seated player may ask; asking again gives the same table.
async fn rematch(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<RematchRequest>,
) -> Result<Json<RematchAnswer>, Error> {
    if req.token.len() > 128 {
        return Err(Error::BadInput("that is not a seat token".to_string()));
    }
    let owner = may_create(&state, addr).await?;
    let (reply, answer) = oneshot::channel();
    state
        .send(
            &id,
            addr,
            Command::Rematch {
                token: req.token,
                owner,
                reply,
            },
        )
        .await?;
    let made = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(Json(RematchAnswer {
        id: made.id,
        seat: made.seat,
        token: made.token,
    }))
}

/// The longest "my games" list.
const MY_GAMES: usize = 50;
/// The longest leaderboard.
const BOARD: usize = 50;

/// A person's id as the leaderboard shows it: its first 8 hex digits,
/// enough to tell two people of one name apart.
fn short_id(id: &str) -> String {
    id.chars().take(8).collect()
}

/// A rating as the API shows it (the person's id shortened).
#[derive(Serialize)]
struct RatingOut {
    game: String,
    player: String,
    name: String,
    rating: f64,
    uncertainty: f64,
    score: f64,
    games: u64,
}

impl From<crate::store::RatingRow> for RatingOut {
    fn from(r: crate::store::RatingRow) -> RatingOut {
        RatingOut {
            player: short_id(&r.player),
            game: r.game,
            name: r.name,
            rating: r.rating,
            uncertainty: r.uncertainty,
            score: r.score,
            games: r.games,
        }
    }
}

#[derive(Serialize)]
struct MyGames {
    /// The person's id, shortened as on the leaderboard.
    player: String,
    games: Vec<crate::store::PlayerGame>,
    ratings: Vec<RatingOut>,
}

/// `GET /api/me/games` with the header `X-Ratrace-Key`: the tables of the
/// person with that identity key (live and finished, newest first) and
/// their ratings. Metered like record downloads.
async fn my_games(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: axum::http::HeaderMap,
) -> Result<Json<MyGames>, Error> {
    let key = headers
        .get("x-ratrace-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Error::BadInput("send the X-Ratrace-Key header".to_string()))?;
    let player = crate::social::player_id(key)?;
    meter(&state, Kind::Record, addr, "game lists")?;
    let store = state.store();
    let id = player.clone();
    let (games, ratings) = tokio::task::spawn_blocking(move || {
        Ok::<_, crate::store::StoreError>((store.games_of(&id, MY_GAMES)?, store.ratings_of(&id)?))
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(MyGames {
        player: short_id(&player),
        games,
        ratings: ratings.into_iter().map(RatingOut::from).collect(),
    }))
}

#[derive(Serialize)]
struct BotRating {
    bot: &'static str,
    level: usize,
    rating: f64,
}

#[derive(Serialize)]
struct Leaderboard {
    game: &'static str,
    players: Vec<RatingOut>,
    /// The bots' fixed ratings, by level.
    bots: Vec<BotRating>,
}

/// `GET /api/leaderboard/{game}`: the best rated people of a game (by
/// rating less three uncertainties) and the bots' fixed ratings.
async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Leaderboard>, Error> {
    let (name, ladder) = registry::dispatch!(game.as_str(), G => (G::NAME, <G as Roster>::LADDER),
        _ => return Err(Error::BadInput(format!(
            "unknown game (choose from: {})", registry::GAMES.join(", ")))));
    let store = state.store();
    let rows = tokio::task::spawn_blocking(move || store.leaderboard(name, BOARD))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
    Ok(Json(Leaderboard {
        game: name,
        players: rows.into_iter().map(RatingOut::from).collect(),
        bots: ladder
            .iter()
            .enumerate()
            .map(|(i, b)| BotRating {
                bot: b,
                level: i + 1,
                rating: crate::social::bot_rating(name, b).rating,
            })
            .collect(),
    }))
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

/// How long a cached lobby list is served at most, even if no change was
/// heard (a bound on what a lost notification can cost).
const LOBBY_TTL: std::time::Duration = std::time::Duration::from_secs(2);

/// The lobby's list, cached between changes when the store tells every
/// process about changes (PostgreSQL's LISTEN/NOTIFY); not cached
/// otherwise. A flood of lobby requests then costs one database read per
/// change, whichever process they reach.
#[derive(Debug, Default)]
pub(crate) struct LobbyCache {
    enabled: std::sync::atomic::AtomicBool,
    generation: std::sync::atomic::AtomicU64,
    list: std::sync::Mutex<Option<(std::time::Instant, Arc<Vec<crate::store::TableSummary>>)>>,
}

impl LobbyCache {
    /// Caches from now on (the store reports changes).
    pub(crate) fn enable(&self) {
        self.enabled
            .store(true, std::sync::atomic::Ordering::Release);
    }

    /// Forgets the list: something changed.
    pub(crate) fn invalidate(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        *self.list.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Acquire)
    }

    fn get(&self) -> Option<Arc<Vec<crate::store::TableSummary>>> {
        let list = self.list.lock().unwrap_or_else(|p| p.into_inner());
        list.as_ref()
            .filter(|(at, _)| at.elapsed() < LOBBY_TTL)
            .map(|(_, l)| Arc::clone(l))
    }

    /// Keeps `list`, read when the generation was `generation`, unless a
    /// change came meanwhile (then it may be stale: not kept).
    fn put(
        &self,
        generation: u64,
        list: Vec<crate::store::TableSummary>,
    ) -> Arc<Vec<crate::store::TableSummary>> {
        let list = Arc::new(list);
        if self.enabled.load(std::sync::atomic::Ordering::Acquire) {
            let mut kept = self.list.lock().unwrap_or_else(|p| p.into_inner());
            if self.generation() == generation {
                *kept = Some((std::time::Instant::now(), Arc::clone(&list)));
            }
        }
        list
    }
}

async fn table_info(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, Error> {
    let (reply, answer) = oneshot::channel();
    state.send(&id, addr, Command::Info { reply }).await?;
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
    /// The invite key of a private table (from its invite link).
    #[serde(default)]
    pub key: Option<String>,
    /// The person's contribution to the fair deal: 32 random bytes as 64
    /// hex digits, made by their own browser (or program).
    #[serde(default)]
    pub contribution: Option<String>,
    /// The person's identity key (64 hex digits their browser made once
    /// and keeps): the seat is linked to its hash, for "my games" and
    /// ratings (issue 11).
    #[serde(default)]
    pub player: Option<String>,
}

/// The body of `POST /api/tables/{id}/fill`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillRequest {
    /// The human seat nobody joined.
    pub seat: Seat,
    /// The creator's token (from the answer to the table's creation).
    pub creator: String,
    /// The bot (default: the game's first bot).
    #[serde(default)]
    pub bot: Option<String>,
}

#[derive(Serialize)]
struct Joined {
    seat: Seat,
    token: String,
    /// The table's published commitment (`seed_hash`), as the player was
    /// shown it when they joined: their browser keeps it beside their
    /// contribution and compares the final record's with it.
    commitment: String,
}

async fn join(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let name = crate::names::clean_name_among(&req.name, &state.external_bots().names())?;
    let player = req
        .player
        .as_deref()
        .map(crate::social::player_id)
        .transpose()?;
    let contribution = req
        .contribution
        .as_deref()
        .map(registry::fair::parse_contribution)
        .transpose()
        .map_err(|e| Error::BadInput(e.to_string()))?;
    meter(&state, Kind::Join, addr, "joins")?;
    let (reply, answer) = oneshot::channel();
    state
        .send(
            &id,
            addr,
            Command::Join {
                seat: req.seat,
                name,
                key: req.key,
                contribution,
                player,
                origin: state.origin(addr),
                reply,
            },
        )
        .await?;
    let (seat, token, commitment) = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(Json(Joined {
        seat,
        token,
        commitment,
    }))
}

async fn fill(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<FillRequest>,
) -> Result<StatusCode, Error> {
    meter(&state, Kind::Join, addr, "seat changes")?;
    let (reply, answer) = oneshot::channel();
    let bot = req.bot.unwrap_or_else(|| "heuristic".to_string());
    state
        .send(
            &id,
            addr,
            Command::Fill {
                seat: req.seat,
                creator: req.creator,
                bot,
                reply,
            },
        )
        .await?;
    answer
        .await
        .map_err(|_| Error::Internal("table task stopped".to_string()))??;
    Ok(StatusCode::NO_CONTENT)
}

/// A finished table's record, for a download or a replay (`what`, in the
/// quota's refusal): metered per address, since each replays a game;
/// refused before the end (`not_over`).
pub(crate) async fn finished_record(
    state: &AppState,
    addr: ClientAddr,
    id: String,
    what: &str,
) -> Result<game::Record, Error> {
    if !crate::ids::valid_id(&id) {
        return Err(Error::UnknownTable);
    }
    meter(state, Kind::Record, addr, what)?;
    let store = state.store();
    let stored = tokio::task::spawn_blocking(move || store.load(&id))
        .await
        .map_err(|e| Error::Internal(e.to_string()))??
        .ok_or(Error::UnknownTable)?;
    if stored.finished_at.is_none() {
        return Err(Error::NotOver);
    }
    Ok(stored.record())
}

async fn record(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<game::Record>, Error> {
    let mut record = finished_record(&state, addr, id, "record downloads").await?;
    let outcome = registry::dispatch!(record.game.as_str(), G => record
            .replay::<G>(false, |_, _, _| {})
            .map(|g| g.outcome())
            .map_err(|e| Error::Internal(e.to_string()))?,
        _ => None);
    record.outcome = outcome;
    Ok(Json(record))
}

/// The most positions one replay request returns.
pub const REPLAY_BATCH: usize = 100;

/// One position of a finished game's replay: after `step` actions (0 is
/// the deal), the whole board. The game is over and its seed revealed, so
/// every hand may be shown, and every event, private ones included.
#[derive(Serialize)]
struct ReplayStep {
    /// Actions applied so far.
    step: usize,
    /// The action that led here (`P2 bid 3`); none at step 0.
    action: Option<String>,
    /// Who decides next (none at the end).
    to_move: Option<Seat>,
    /// The public view: what the table shows.
    public: serde_json::Value,
    /// The public view as a text board.
    board: String,
    /// Each seat's hidden cards (its view's `hand`; null where the game
    /// keeps none).
    hands: Vec<serde_json::Value>,
    /// What happened in this step, in order: the public typed events
    /// (`{"kind":"bid","seat":"P1","amount":3}`); a seat's private ones
    /// (its deal, its tax cards) are left out, the hands are shown whole.
    events: Vec<serde_json::Value>,
}

/// `GET /api/tables/{id}/replay/{from}`: a finished game's positions from
/// step `from`, at most [`REPLAY_BATCH`] of them, rebuilt by replaying its
/// record (`{"steps": total actions, "positions": [...]}`). Metered like a
/// record download; an unfinished game is refused (`not_over`).
async fn replay(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path((id, from)): Path<(String, usize)>,
) -> Result<Json<serde_json::Value>, Error> {
    let record = finished_record(&state, addr, id, "replays").await?;
    tokio::task::spawn_blocking(move || {
        registry::dispatch!(record.game.as_str(), G => replay_positions::<G>(&record, from),
            _ => Err(Error::UnknownTable))
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))?
    .map(Json)
}

/// Replays `record` and keeps the positions `from..from + REPLAY_BATCH`.
fn replay_positions<G: Game>(
    record: &game::Record,
    from: usize,
) -> Result<serde_json::Value, Error> {
    let total = record.actions.len();
    if from > total {
        return Err(Error::BadInput(format!(
            "the game has {total} actions: no step {from}"
        )));
    }
    let last = total.min(from + REPLAY_BATCH - 1);
    let broken = |e: String| Error::Internal(format!("a stored record does not replay: {e}"));
    let mut g: G = record.start().map_err(|e| broken(e.to_string()))?;
    g.set_logging(true);
    let mut positions = Vec::with_capacity(last + 1 - from);
    let mut seen = 0;
    for step in 0..=last {
        let mut action = None;
        if step > 0 {
            let (seat, a) = record
                .parse_action::<G>(step - 1)
                .map_err(|e| broken(e.to_string()))?;
            g.act(seat, a).map_err(|e| broken(e.to_string()))?;
            action = Some(format!("{seat} {a}"));
        }
        if step >= from {
            let hands = Seat::all(g.players())
                .map(|s| {
                    json_value(&g.view(s))
                        .get("hand")
                        .cloned()
                        .unwrap_or(serde_json::Value::Null)
                })
                .collect();
            let public = g.public_view();
            positions.push(ReplayStep {
                step,
                action,
                to_move: g.to_move(),
                public: json_value(&public),
                board: public.to_string(),
                hands,
                events: g.events()[seen..]
                    .iter()
                    .filter(|e| e.visible_to(None))
                    .map(|e| json_value(&e.event))
                    .collect(),
            });
        }
        seen = g.events().len();
    }
    Ok(serde_json::json!({ "steps": total, "positions": positions }))
}

/// Anything serializable as a JSON value (null if it cannot be).
fn json_value<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// A record check's token, taken before the (up to 4 MiB) body is read.
struct VerifyToken;

impl axum::extract::FromRequestParts<AppState> for VerifyToken {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Error> {
        let Ok(addr) = ClientAddr::from_request_parts(parts, state).await;
        meter(state, Kind::Verify, addr, "record checks").map(|()| VerifyToken)
    }
}

async fn verify(
    State(state): State<AppState>,
    _token: VerifyToken,
    JsonBody(record): JsonBody<game::Record>,
) -> Result<Json<registry::verify::Report>, Error> {
    let most = state.limits().max_actions;
    if record.actions.len() > most {
        return Err(Error::BadInput(format!(
            "this server checks records of at most {most} actions"
        )));
    }
    // One check at a time, server-wide: each replays a whole game.
    let _permit = match tokio::time::timeout(
        std::time::Duration::from_secs(10),
        state.verify_gate().acquire(),
    )
    .await
    {
        Ok(Ok(p)) => p,
        _ => {
            return Err(Error::RateLimited {
                retry_after: 5,
                message: "the server is checking other records: try again soon".to_string(),
            })
        }
    };
    // Replaying is CPU work proportional to the record: off the reactor.
    let record = Arc::new(record);
    let report = tokio::task::spawn_blocking(move || registry::verify::verify(&record))
        .await
        .unwrap_or_else(|_| registry::verify::Report::failed("the check failed"));
    Ok(Json(report))
}
