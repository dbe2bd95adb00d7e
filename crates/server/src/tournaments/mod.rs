//! Tournaments for people (docs/server.md, "Tournaments"): the HTTP API
//! that makes, lists, shows, enters, leaves and starts them, over the
//! stored document (`store/tournaments.rs`) and its rules
//! (`state/tournaments.rs`), and the director task that makes their
//! tables and reads their results (`director.rs`).
//!
//! Every change is a read, the rules applied, and a save compared on the
//! document's version, tried again if another writer (the director, or a
//! process of the same site) saved first: a join is never lost, and any
//! process may serve any tournament. Every input is checked first: the
//! body at most [`BODY_LIMIT`] bytes, names cleaned, the preset, kind,
//! rounds, minutes, start and bot levels from declared ranges; a new
//! tournament is metered per address (`quota::Kind::Tournament`) and an
//! address or a person holds at most [`LIVE_PER_OWNER`] unfinished ones,
//! the site [`LIVE_IN_ALL`]. The operator (the `Authorization: Bearer`
//! metrics token) makes them past those caps.

mod director;

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::lobby::{blocking, build, meter, CreateRequest, JsonBody, SeatRequest};
use crate::quota::Kind;
use crate::state::pairing::{Preset, PRESETS};
use crate::state::tournaments::{
    Entrant, Tournament, MAX_BOT_ENTRANTS, MAX_START_IN_S, MINUTES, ROUNDS,
};
use crate::state::AppState;
use crate::store::tournaments::TournamentRow;
use crate::tournament_wire::{
    TournamentJoin, TournamentKind, TournamentList, TournamentMade, TournamentRequest,
    TournamentStatus, TournamentView,
};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use bots::Roster;

/// Largest body of a tournament request.
pub const BODY_LIMIT: usize = 4096;
/// Unfinished tournaments one address, or one person, may have made.
pub const LIVE_PER_OWNER: usize = 2;
/// Unfinished tournaments on the site.
pub const LIVE_IN_ALL: usize = 50;
/// Tournaments `GET /api/tournaments` lists.
const LISTED: usize = 50;
/// Tries of a change that met another writer's save.
const TRIES: usize = 8;

/// Starts the director, which first takes over the tournaments of a
/// process that is gone: called once the server serves.
pub fn resume(state: &AppState) {
    director::ensure_running(state);
}

/// The tournament routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", get(list).post(make))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/leave", post(leave))
        .route("/api/tournaments/{id}/start", post(start))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// Unix milliseconds now.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Saves `t` over `row` if nobody saved since it was read.
pub(crate) async fn save(
    state: &AppState,
    row: &TournamentRow,
    t: &Tournament,
) -> Result<bool, Error> {
    let doc = serde_json::to_string(t).map_err(|e| Error::Internal(e.to_string()))?;
    let (store, id, version, status) = (
        state.store(),
        row.id.clone(),
        row.version,
        t.status_text().to_string(),
    );
    blocking(move || store.save_tournament(&id, version, &doc, &status)).await
}

/// The preset `id` names.
pub(crate) fn preset(id: &str) -> Result<&'static Preset, Error> {
    PRESETS.iter().find(|p| p.id == id).ok_or_else(|| {
        let ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        Error::BadInput(format!("unknown preset (choose from: {})", ids.join(", ")))
    })
}

/// The stored table a tournament's table with `seats` is built as (its
/// id and deal are the caller's to set).
pub(crate) fn table_request(
    t: &Tournament,
    seats: &[Option<usize>],
    external: &crate::extbots::ExternalBots,
    limits: &crate::limits::Limits,
) -> Result<crate::store::StoredTable, Error> {
    let preset = preset(&t.preset)?;
    let seats = seats
        .iter()
        .map(|s| match s.map(|e| &t.entrants[e]) {
            Some(e) if e.player.is_some() => SeatRequest::Human,
            Some(e) => SeatRequest::Bot {
                bot: e.bot.clone().or_else(|| Some(t.bot.clone())),
            },
            None => SeatRequest::Bot {
                bot: Some(t.bot.clone()),
            },
        })
        .collect();
    let req = CreateRequest {
        game: t.game.clone(),
        players: Some(t.players),
        options: preset
            .options
            .iter()
            .map(|(k, v)| {
                (
                    (*k).to_string(),
                    serde_json::Value::String((*v).to_string()),
                )
            })
            .collect(),
        seats: Some(seats),
        bot_delay_ms: t.bot_delay_ms,
        // a tournament's tables are public: nobody may stall them
        turn_timer_ms: None,
        public: true,
        spectator_chat: false,
    };
    registry::dispatch!(t.game.as_str(), G => build::<G>(&req, limits, external),
        _ => Err(Error::BadInput("unknown game".to_string())))
}

/// Tournament `id`, read.
async fn load(state: &AppState, id: &str) -> Result<(TournamentRow, Tournament), Error> {
    if !crate::ids::valid_id(id) {
        return Err(Error::UnknownTournament);
    }
    let (store, key) = (state.store(), id.to_string());
    let row = blocking(move || store.tournament(&key))
        .await?
        .ok_or(Error::UnknownTournament)?;
    let t = serde_json::from_str(&row.doc)
        .map_err(|e| Error::Internal(format!("a stored tournament does not read: {e}")))?;
    Ok((row, t))
}

/// Applies `change` to tournament `id` and saves it, again from a fresh
/// read if another writer saved first; wakes the director.
async fn update(
    state: &AppState,
    id: &str,
    change: impl Fn(&mut Tournament) -> Result<(), Error>,
) -> Result<Tournament, Error> {
    for _ in 0..TRIES {
        let (row, mut t) = load(state, id).await?;
        change(&mut t)?;
        if save(state, &row, &t).await? {
            state.tournaments().wake.notify_one();
            return Ok(t);
        }
    }
    Err(Error::Busy(
        "the tournament is changing fast: try again".to_string(),
    ))
}

/// `GET /api/tournaments`: the newest, unfinished first.
async fn list(State(state): State<AppState>) -> Result<Json<TournamentList>, Error> {
    let store = state.store();
    let rows = blocking(move || store.tournaments(LISTED)).await?;
    let tournaments = rows
        .iter()
        .filter_map(|r| serde_json::from_str::<Tournament>(&r.doc).ok())
        .map(|t| t.summary())
        .collect();
    Ok(Json(TournamentList { tournaments }))
}

/// `GET /api/tournaments/{id}`, with `X-Ratrace-Key` optionally: the
/// asker's part too.
async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<TournamentView>, Error> {
    let me = match headers.get("x-ratrace-key") {
        Some(_) => Some(crate::lobby::identity(&headers)?),
        None => None,
    };
    let (_, t) = load(&state, &id).await?;
    Ok(Json(t.view(me.as_deref())))
}

/// `POST /api/tournaments/{id}/join` with `X-Ratrace-Key`.
async fn join(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<TournamentJoin>,
) -> Result<Json<TournamentView>, Error> {
    let me = crate::lobby::identity(&headers)?;
    let name = crate::names::clean_name_among(&req.name, &state.external_bots().names())?;
    meter(&state, Kind::Join, addr, "joins")?;
    let now = now_ms();
    let origin = state.origin(addr);
    let t = update(&state, &id, |t| {
        t.join(&me, name.clone(), Some(origin.clone()), now)
    })
    .await?;
    let (store, key, player) = (state.store(), id.clone(), me.clone());
    blocking(move || store.enter_tournament(&key, &player, now)).await?;
    Ok(Json(t.view(Some(&me))))
}

/// `POST /api/tournaments/{id}/leave` with `X-Ratrace-Key`.
async fn leave(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<TournamentView>, Error> {
    let me = crate::lobby::identity(&headers)?;
    meter(&state, Kind::Join, addr, "joins")?;
    let t = update(&state, &id, |t| t.leave(&me)).await?;
    Ok(Json(t.view(Some(&me))))
}

/// `POST /api/tournaments/{id}/start` with `X-Ratrace-Key`: its creator
/// starts it now.
async fn start(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<TournamentView>, Error> {
    let me = crate::lobby::identity(&headers)?;
    meter(&state, Kind::Join, addr, "joins")?;
    let now = now_ms();
    let t = update(&state, &id, |t| t.start_now(Some(&me), now)).await?;
    Ok(Json(t.view(Some(&me))))
}

/// `POST /api/tournaments`: a new tournament (201), or a refusal that
/// changes nothing.
async fn make(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<TournamentRequest>,
) -> Result<(StatusCode, Json<TournamentMade>), Error> {
    let operator = crate::ops::operator(&state, &headers);
    let creator = if operator && headers.get("x-ratrace-key").is_none() {
        None
    } else {
        Some(crate::lobby::identity(&headers)?)
    };
    let now = now_ms();
    let t = check(&state, &req, creator, addr, now)?;
    if !operator {
        meter(&state, Kind::Tournament, addr, "new tournaments")?;
        caps(&state, &t).await?;
    }
    let row = TournamentRow {
        id: t.id.clone(),
        doc: serde_json::to_string(&t).map_err(|e| Error::Internal(e.to_string()))?,
        version: 0,
        status: t.status_text().to_string(),
        node: state.node().id.clone(),
        created_ms: now,
    };
    let store = state.store();
    blocking(move || store.put_tournament(&row)).await?;
    director::ensure_running(&state);
    state.tournaments().wake.notify_one();
    Ok((StatusCode::CREATED, Json(TournamentMade { id: t.id })))
}

/// Refuses a tournament past the caps on unfinished ones: the site's,
/// its address's and its creator's.
async fn caps(state: &AppState, t: &Tournament) -> Result<(), Error> {
    let store = state.store();
    let rows = blocking(move || store.tournaments(LIVE_IN_ALL + 1)).await?;
    let live: Vec<Tournament> = rows
        .iter()
        .filter(|r| r.status != "finished")
        .filter_map(|r| serde_json::from_str(&r.doc).ok())
        .collect();
    if live.len() >= LIVE_IN_ALL {
        return Err(Error::Refused(format!(
            "the site runs {LIVE_IN_ALL} tournaments, its most: join one, or try later"
        )));
    }
    let mine = live
        .iter()
        .filter(|o| o.owner == t.owner || (t.creator.is_some() && o.creator == t.creator))
        .count();
    if mine >= LIVE_PER_OWNER {
        return Err(Error::Refused(format!(
            "you have {mine} unfinished tournaments, the most you may: wait for one to end"
        )));
    }
    Ok(())
}

/// The rounds, minutes and seconds to the start asked for (or their
/// defaults), each within its declared range.
fn ranges(req: &TournamentRequest) -> Result<(u32, u32, u32), Error> {
    let rounds = req.rounds.unwrap_or(3);
    if !ROUNDS.contains(&rounds) {
        return Err(Error::BadInput(format!(
            "rounds is from {} to {}",
            ROUNDS.start(),
            ROUNDS.end()
        )));
    }
    let minutes = req.minutes.unwrap_or(20);
    if !MINUTES.contains(&minutes) {
        return Err(Error::BadInput(format!(
            "minutes is from {} to {}",
            MINUTES.start(),
            MINUTES.end()
        )));
    }
    let start_in_s = req.start_in_s.unwrap_or(120);
    if start_in_s > MAX_START_IN_S {
        return Err(Error::BadInput(format!(
            "start_in_s is at most {MAX_START_IN_S} (a day)"
        )));
    }
    Ok((rounds, minutes, start_in_s))
}

/// A request checked against the declared ranges: the new tournament.
fn check(
    state: &AppState,
    req: &TournamentRequest,
    creator: Option<String>,
    addr: ClientAddr,
    now: i64,
) -> Result<Tournament, Error> {
    let external = state.external_bots();
    let name = crate::names::clean_name(&req.name)?;
    let preset = preset(&req.preset)?;
    let (rounds, minutes, start_in_s) = ranges(req)?;
    let ladder = registry::dispatch!(preset.game, G => <G as Roster>::LADDER, _ => &[][..]);
    let level = |b: &String| -> Result<(), Error> {
        if ladder.contains(&b.as_str()) {
            Ok(())
        } else {
            Err(Error::BadInput(format!(
                "a bot is one of the game's levels: {}",
                ladder.join(", ")
            )))
        }
    };
    let bot = req.bot.clone().unwrap_or_else(|| "heuristic".to_string());
    level(&bot)?;
    if req.bots.len() > MAX_BOT_ENTRANTS {
        return Err(Error::BadInput(format!(
            "at most {MAX_BOT_ENTRANTS} bots enter a tournament"
        )));
    }
    req.bots.iter().try_for_each(level)?;
    let entrants: Vec<Entrant> = req
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| Entrant {
            player: None,
            bot: Some(b.clone()),
            name: format!("{b} bot {}", i + 1),
            origin: None,
            left: false,
            free_since_ms: now,
        })
        .collect();
    let t = Tournament {
        id: crate::ids::new_id(),
        name,
        kind: req.kind,
        preset: preset.id.to_string(),
        game: preset.game.to_string(),
        players: preset.players,
        bot,
        bot_delay_ms: req.bot_delay_ms,
        rounds,
        minutes,
        creator,
        owner: addr.0.to_string(),
        seed: crate::ids::new_token(),
        created_ms: now,
        starts_ms: now + i64::from(start_in_s) * 1000,
        ends_ms: None,
        status: TournamentStatus::Open,
        round: 0,
        note: None,
        entrants,
        tables: Vec::new(),
    };
    // its tables must be ones the server makes: tried now (the delay,
    // the levels, the options), on a table of bots if bots entered (it
    // may make some), else on one a person shares with bots
    let mut probe = t.clone();
    probe.kind = TournamentKind::Swiss;
    let mut seats: Vec<Option<usize>> = vec![None; t.players];
    if probe.entrants.is_empty() {
        probe.entrants.push(Entrant {
            player: Some(String::new()),
            bot: None,
            name: String::new(),
            origin: None,
            left: false,
            free_since_ms: now,
        });
        seats[0] = Some(0);
    }
    table_request(&probe, &seats, &external, &state.limits())?;
    Ok(t)
}
