//! Friends and presence (docs/server.md, "Friends and presence"): follow
//! and block people by their short id, see where the people one follows
//! are, and invite them to a table. Plain HTTP with the identity key in a
//! header, as "my games": the pages ask `GET /api/me/friends` every few
//! seconds, which is both the list and the asker's own presence
//! (`state/friends.rs` keeps both in memory); follows and blocks are
//! stored (`store/relations.rs`).
//!
//! Nothing here reaches anyone unasked. A follow is silent. An
//! invitation goes only to someone the sender follows, who is online and
//! does not block them; it is shown to nobody else, replaces the
//! sender's earlier one to the same person, expires, and is metered per
//! address ([`crate::quota::Kind::Invite`]). Where a person is is never
//! said to someone they block, and a private table is said as "a private
//! table", never which.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::lobby::{blocking, identity, meter, JsonBody};
use crate::protocol::{Friend, FriendsView, InviteOut, InviteRequest, Place};
use crate::quota::Kind;
use crate::state::friends::{Invite, Refused, INVITE_TTL_S};
use crate::state::AppState;
use crate::store::relations::{Person, Relation, RelationChange, RelationRow, SetOutcome};
use crate::store::short_id;
use crate::table::Command;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::Serialize;
use std::time::Instant;
use tokio::sync::oneshot;

/// The most people one may follow.
pub const FOLLOW_CAP: usize = 200;
/// The most people one may block.
pub const BLOCK_CAP: usize = 500;
/// Largest body of `POST /api/me/invites`.
pub const BODY_LIMIT: usize = 1024;

/// The friends routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/me/friends", get(friends))
        .route(
            "/api/me/follows/{player}",
            put(change::<true, true>).delete(change::<true, false>),
        )
        .route(
            "/api/me/blocks/{player}",
            put(change::<false, true>).delete(change::<false, false>),
        )
        .route("/api/me/invites", post(invite))
        .route("/api/me/invites/{id}", delete(dismiss))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// Where the asking page is: `?at=lobby` (the default) or
/// `?at=table&table=ID`.
struct At {
    at: Option<String>,
    table: Option<String>,
}

impl At {
    /// Read from a query string (its values are plain ids: no escapes).
    fn parse(query: Option<&str>) -> At {
        let mut at = At {
            at: None,
            table: None,
        };
        for pair in query.unwrap_or_default().split('&') {
            match pair.split_once('=') {
                Some(("at", v)) => at.at = Some(v.to_string()),
                Some(("table", v)) => at.table = Some(v.to_string()),
                _ => {}
            }
        }
        at
    }
}

/// The place a page reports, checked: a table is asked whether it is
/// public (once per table a person reports; then the book's answer is
/// reused). A table this process cannot tell about is said as private,
/// which says nothing.
async fn place_of(state: &AppState, addr: ClientAddr, me: &str, at: At) -> Result<Place, Error> {
    match (at.at.as_deref(), at.table) {
        (None | Some("lobby"), None) => Ok(Place::Lobby),
        (Some("table"), Some(id)) if crate::ids::valid_id(&id) => {
            if let Some(Place::Table { table, game }) = state.friends().last_place(me) {
                if table == id {
                    return Ok(Place::Table { table, game });
                }
            }
            let (reply, answer) = oneshot::channel();
            if state
                .send(&id, addr, Command::Info { reply })
                .await
                .is_err()
            {
                return Ok(Place::Private);
            }
            Ok(match answer.await {
                Ok(info) if info.public => Place::Table {
                    table: id,
                    game: info.game.to_string(),
                },
                _ => Place::Private,
            })
        }
        _ => Err(Error::BadInput(
            "at is `lobby`, or `table` with the table's id in `table`".into(),
        )),
    }
}

/// A person as the lists show them.
fn friend(row: &RelationRow, place: Option<Place>) -> Friend {
    Friend {
        player: short_id(&row.player),
        name: row.name.clone(),
        place,
    }
}

/// `GET /api/me/friends?at=…` with the header `X-Ratrace-Key`: the
/// people followed and where each is, the people blocked, the
/// invitations waiting; and the asker is online, where `at` says.
async fn friends(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Json<FriendsView>, Error> {
    let me = identity(&headers)?;
    let at = At::parse(uri.query());
    meter(&state, Kind::Friends, addr, "friends lists")?;
    let place = place_of(&state, addr, &me, at).await?;
    let now = Instant::now();
    state.friends().seen(&me, place, now);
    let store = state.store();
    let id = me.clone();
    let rows = blocking(move || store.relations_of(&id, FOLLOW_CAP.max(BLOCK_CAP))).await?;
    let book = state.friends();
    let mut view = FriendsView {
        player: short_id(&me),
        follows: Vec::new(),
        blocks: Vec::new(),
        invites: Vec::new(),
    };
    for row in &rows {
        match row.kind {
            Relation::Follow => {
                let place = if row.blocks_owner {
                    None
                } else {
                    book.place_of(&row.player, now)
                };
                view.follows.push(friend(row, place));
            }
            Relation::Block => view.blocks.push(friend(row, None)),
        }
    }
    let blocked = |from: &str| {
        rows.iter()
            .any(|r| r.kind == Relation::Block && r.player == from)
    };
    view.invites = book
        .invites_for(&me, now)
        .into_iter()
        .filter(|i| !blocked(&i.from))
        .map(|i| InviteOut {
            expires_in_s: INVITE_TTL_S
                .saturating_sub(now.saturating_duration_since(i.at).as_secs()),
            id: i.id,
            from: short_id(&i.from),
            from_name: i.from_name,
            game: i.game,
            link: i.link,
        })
        .collect();
    Ok(Json(view))
}

/// The person a short id in a path names (never the asker).
async fn person(state: &AppState, me: &str, short: &str) -> Result<(String, String), Error> {
    if !crate::store::profile::is_short_id(short) {
        return Err(Error::BadInput(format!(
            "a person's id is {} lowercase hex digits",
            crate::store::profile::SHORT_ID
        )));
    }
    let store = state.store();
    let short = short.to_string();
    match blocking(move || store.find_person(&short)).await? {
        Person::Unknown => Err(Error::UnknownPerson),
        Person::Ambiguous => Err(Error::AmbiguousPlayer),
        Person::Found { player, .. } if player == me => {
            Err(Error::BadInput("that is your own id".into()))
        }
        Person::Found { player, name } => Ok((player, name)),
    }
}

/// What a follow or block change answers.
#[derive(Serialize)]
struct Changed {
    /// The person's short id.
    player: String,
    /// Their name.
    name: String,
    /// Whether anything changed (it may already have been so).
    changed: bool,
}

/// Sets or clears a follow or block of the person `short`.
async fn relation(
    state: AppState,
    addr: ClientAddr,
    headers: HeaderMap,
    short: String,
    kind: Relation,
    on: bool,
) -> Result<Json<Changed>, Error> {
    let me = identity(&headers)?;
    meter(&state, Kind::Friends, addr, "follows and blocks")?;
    let (other, name) = person(&state, &me, &short).await?;
    let cap = match kind {
        Relation::Follow => FOLLOW_CAP,
        Relation::Block => BLOCK_CAP,
    };
    let change = RelationChange {
        kind,
        owner: me.clone(),
        other: other.clone(),
        on,
        cap,
        at: crate::clock::unix_now(),
    };
    let store = state.store();
    let outcome = blocking(move || store.set_relation(change)).await?;
    if outcome == SetOutcome::Full {
        return Err(Error::Refused(format!(
            "you {} {cap} people already, the most one may",
            match kind {
                Relation::Follow => "follow",
                Relation::Block => "block",
            }
        )));
    }
    if kind == Relation::Block && on {
        // their invitations already waiting go too
        state.friends().drop_invites(&me, |i| i.from != other);
    }
    Ok(Json(Changed {
        player: short_id(&other),
        name,
        changed: outcome == SetOutcome::Changed,
    }))
}

/// `PUT` (`ON`) or `DELETE` `/api/me/follows/{player}` (`FOLLOW`) or
/// `/api/me/blocks/{player}`.
async fn change<const FOLLOW: bool, const ON: bool>(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    Path(player): Path<String>,
) -> Result<Json<Changed>, Error> {
    let kind = if FOLLOW {
        Relation::Follow
    } else {
        Relation::Block
    };
    relation(state, addr, headers, player, kind, ON).await
}

/// Whether `key` may be a table's invite key (it is sent on in a link).
fn key_shape(key: &str) -> bool {
    (1..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `POST /api/me/invites`: invites a person one follows, online and not
/// blocking the sender, to a live table (201), or says why not.
async fn invite(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<InviteRequest>,
) -> Result<(StatusCode, Json<InviteOut>), Error> {
    let me = identity(&headers)?;
    let name = crate::names::clean_name(&req.name)?;
    if !crate::ids::valid_id(&req.table) {
        return Err(Error::BadInput("no such table id".into()));
    }
    if req.key.as_deref().is_some_and(|k| !key_shape(k)) {
        return Err(Error::BadInput("that is no table key".into()));
    }
    meter(&state, Kind::Invite, addr, "invitations")?;
    let (to, _) = person(&state, &me, &req.to).await?;
    let store = state.store();
    let (owner, other) = (me.clone(), to.clone());
    let (follows, blocked) = blocking(move || {
        let follows = store
            .relations_of(&owner, FOLLOW_CAP)?
            .into_iter()
            .any(|r| r.kind == Relation::Follow && r.player == other);
        Ok((follows, store.blocks(&other, &owner)?))
    })
    .await?;
    if !follows {
        return Err(Error::Refused(
            "you may invite only people you follow".into(),
        ));
    }
    if blocked {
        return Err(Error::Forbidden(
            "they do not take invitations from you".into(),
        ));
    }
    let now = Instant::now();
    if state.friends().place_of(&to, now).is_none() {
        return Err(Error::Refused("they are not online now".into()));
    }
    let (reply, answer) = oneshot::channel();
    state
        .send(&req.table, addr, Command::Info { reply })
        .await?;
    let info = answer
        .await
        .map_err(|_| Error::Internal("table task stopped".into()))?;
    if matches!(info.status, "finished" | "abandoned") {
        return Err(Error::Refused("that table's game is over".into()));
    }
    let link = match (&req.key, info.public) {
        (_, true) => format!("/t/{}", req.table),
        (Some(k), false) => format!("/t/{}?k={k}", req.table),
        (None, false) => {
            return Err(Error::BadInput(
                "a private table's invitation needs its key".into(),
            ))
        }
    };
    let sent = Invite {
        id: crate::ids::new_id(),
        from: me.clone(),
        from_name: name,
        game: info.game.to_string(),
        link,
        at: now,
    };
    let out = InviteOut {
        id: sent.id.clone(),
        from: short_id(&me),
        from_name: sent.from_name.clone(),
        game: sent.game.clone(),
        link: sent.link.clone(),
        expires_in_s: INVITE_TTL_S,
    };
    state
        .friends()
        .invite(&to, sent, now)
        .map_err(|Refused::Full| {
            Error::Busy("too many invitations are waiting: try again later".into())
        })?;
    Ok((StatusCode::CREATED, Json(out)))
}

/// `DELETE /api/me/invites/{id}`: dismisses one's own invitation.
async fn dismiss(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, Error> {
    let me = identity(&headers)?;
    meter(&state, Kind::Friends, addr, "friends lists")?;
    let gone = state.friends().drop_invites(&me, |i| i.id != id);
    Ok(if gone > 0 {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::NOT_FOUND
    })
}
