//! Creating a table (options, seats and bots checked against the engine
//! before anything is stored) and asking for a rematch.

use super::body::{meter, JsonBody};
use crate::addr::ClientAddr;
use crate::error::Error;
use crate::extbots::ExternalBots;
use crate::limits::Limits;
use crate::quota::Kind;
use crate::state::AppState;
use crate::store::{Access, SeatKind, Social, StoredFair, StoredSeat, StoredTable, TableConfig};
use crate::table::{self, Command};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use bots::Roster;
use game::OptionInfo;
use game::{GameOptions, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tokio::sync::oneshot;

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
    /// Bot delay, in milliseconds (the lobby's settings give its bounds).
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
pub(super) struct Created {
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

pub(super) fn option_text(key: &str, v: &serde_json::Value) -> Result<String, Error> {
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
pub(crate) fn build<G: Roster>(
    req: &CreateRequest,
    limits: &Limits,
    external: &ExternalBots,
) -> Result<StoredTable, Error> {
    let players = player_count::<G>(req)?;
    let options = game_options::<G>(req, limits, players)?;
    let seats = requested_seats::<G>(req, players, external)?;
    let config = table_config(req, limits, &seats)?;
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
        config,
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

/// The number of players asked for (or the game's default), if `G` is
/// played by that many.
fn player_count<G: Roster>(req: &CreateRequest) -> Result<usize, Error> {
    let players = req.players.unwrap_or(G::DEFAULT_PLAYERS);
    if !G::PLAYERS.contains(&players) {
        return Err(Error::BadInput(format!(
            "{} is played by {} to {} players, not {players}",
            G::NAME,
            G::PLAYERS.start(),
            G::PLAYERS.end()
        )));
    }
    Ok(players)
}

/// The game's options as asked for: each one the game's to set, no more
/// hands than the server plays, and a setup the game accepts for
/// `players`.
fn game_options<G: Roster>(
    req: &CreateRequest,
    limits: &Limits,
    players: usize,
) -> Result<G::Options, Error> {
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
    Ok(options)
}

/// The seats as asked for (one human seat if none are), the rest up to
/// `players` filled with the game's first bot; every bot one this server
/// offers.
fn requested_seats<G: Roster>(
    req: &CreateRequest,
    players: usize,
    external: &ExternalBots,
) -> Result<Vec<StoredSeat>, Error> {
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
    // A bot program plays only while a person is at its table: a table of
    // bots alone would never move its seats.
    let programs = table::external_seats(G::NAME, &seats, external);
    let person = seats
        .iter()
        .any(|s| matches!(s.kind, SeatKind::Human { .. }));
    if programs > 0 && !person {
        return Err(Error::BadInput(
            "bot programs play only at a table with a person's seat: keep one seat for a person"
                .to_string(),
        ));
    }
    Ok(seats)
}

/// The table's settings besides its rules options, declared as options
/// are (key, default, allowed values, help): `/api/games` serves them
/// (`settings`) and the lobby draws them with the code that draws the
/// rules options; [`table_config`] checks a request against the same
/// allowed values.
pub(super) const SETTINGS: &[OptionInfo] = &[
    OptionInfo {
        key: "public",
        default: "off",
        values: "on|off",
        help: "Listed in the lobby: anyone may take a free seat (otherwise only people with \
               the invite link can)",
    },
    OptionInfo {
        key: "turn_timer_ms",
        default: "auto",
        values: "auto|1000..=3600000",
        help: "How long a person may take for a turn, then a bot plays it (auto: the \
               server's timer at a public table, none at a private one)",
    },
    OptionInfo {
        key: "bot_delay_ms",
        default: "600",
        values: "0..=10000",
        help: "How long a bot waits before acting, so people can follow",
    },
    OptionInfo {
        key: "spectator_chat",
        default: "off",
        values: "on|off",
        help: "Spectators may read and write the chat too (otherwise only the seated \
               players chat)",
    },
];

/// `value` of the setting `key`, if [`SETTINGS`]' allowed values allow it.
fn setting<T: game::OptionValue>(key: &str, value: u64) -> Result<T, Error> {
    let values = SETTINGS
        .iter()
        .find(|s| s.key == key)
        .map_or("", |s| s.values);
    T::read(key, &value.to_string(), values).map_err(|e| Error::BadInput(e.to_string()))
}

/// The table's timing and chat settings as asked for, within the
/// server's limits: a table of bots only plays no faster than the
/// server's minimum bot delay.
fn table_config(
    req: &CreateRequest,
    limits: &Limits,
    seats: &[StoredSeat],
) -> Result<TableConfig, Error> {
    let bot_delay_ms: u64 = match req.bot_delay_ms {
        Some(ms) => setting("bot_delay_ms", ms)?,
        None => TableConfig::default().bot_delay_ms,
    };
    let humans = seats
        .iter()
        .any(|s| matches!(s.kind, SeatKind::Human { .. }));
    if !humans && bot_delay_ms < limits.min_bot_delay_ms {
        return Err(Error::BadInput(format!(
            "a table of bots only plays at most one action every {} ms (bot_delay_ms)",
            limits.min_bot_delay_ms
        )));
    }
    let turn_timer_ms: Option<u64> = match req.turn_timer_ms {
        Some(ms) => setting("turn_timer_ms", ms)?,
        None => None,
    };
    Ok(TableConfig {
        bot_delay_ms,
        // An idle stranger must not stall a public table: a public table
        // always has a turn timer.
        turn_timer_ms: turn_timer_ms.or(req.public.then_some(limits.public_turn_timer_ms)),
        spectator_chat: req.spectator_chat,
        tutorial: false,
        unattended: false,
    })
}

pub(super) async fn create_table(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), Error> {
    let limits = state.limits();
    let external = state.external_bots();
    let stored = registry::dispatch!(req.game.as_str(), G => build::<G>(&req, &limits, &external),
        _ => Err(Error::BadInput(format!(
            "unknown game `{}` (choose from: {})", req.game, registry::GAMES.join(", ")))))?;
    // A table whose bot programs could not run (more than its address
    // may run at once, or than are free now) is refused before it
    // exists; their process slots are taken when they start.
    external.check(
        table::external_seats(&stored.game, &stored.seats, &external),
        &addr.0.to_string(),
        &state.metrics(),
    )?;
    let created = open(&state, addr, stored).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Opens the table `stored` for `addr`: metered and capped
/// ([`may_create`]), its invite key (a private table) and creator token
/// made, stored, and its task started.
pub(super) async fn open(
    state: &AppState,
    addr: ClientAddr,
    mut stored: StoredTable,
) -> Result<Created, Error> {
    let owner = may_create(state, addr).await?;
    let key = (!stored.access.public).then(crate::ids::new_token);
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
    let handle = table::spawn(stored, state.ctx(), epoch)?;
    state.insert(id, handle);
    state.metrics().table_created();
    Ok(created)
}

/// Meters a new table for `addr` (the creation quota) and checks the
/// live-table caps; the owner to record.
pub(super) async fn may_create(state: &AppState, addr: ClientAddr) -> Result<String, Error> {
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
pub(super) struct RematchAnswer {
    id: String,
    seat: Seat,
    token: String,
}

/// `POST /api/tables/{id}/rematch`: a rematch of a finished table for
/// every player of it, so that they can play on together. Metered and
/// capped like a new table; only a seated player may ask; asking again
/// gives the same table.
pub(super) async fn rematch(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings' declared defaults are a table's defaults, and their
    /// allowed values are what a request is checked against.
    #[test]
    fn the_settings_declare_what_a_table_gets() {
        let default = TableConfig::default();
        let declared = |key: &str| SETTINGS.iter().find(|s| s.key == key).unwrap().default;
        assert_eq!(declared("bot_delay_ms"), default.bot_delay_ms.to_string());
        assert_eq!(
            declared("spectator_chat"),
            game::bool_text(default.spectator_chat)
        );
        assert_eq!(declared("public"), "off");
        assert_eq!(declared("turn_timer_ms"), "auto");
        assert_eq!(setting::<u64>("bot_delay_ms", 10_000).unwrap(), 10_000);
        assert!(setting::<u64>("bot_delay_ms", 10_001).is_err());
        assert_eq!(
            setting::<Option<u64>>("turn_timer_ms", 1000).unwrap(),
            Some(1000)
        );
        for bad in [999, 3_600_001] {
            let e = setting::<Option<u64>>("turn_timer_ms", bad).unwrap_err();
            assert!(e.to_string().contains("1000 to 3600000"), "{e}");
        }
    }
}
