//! Passkeys that keep an identity (docs/server.md, "Passkeys"): a person
//! adds a passkey to the identity their browser holds, and signs in with
//! it on another device, which then holds the same identity. The
//! WebAuthn ceremonies are webauthn-rs's; their states wait in memory
//! (`state/passkeys.rs`), the passkeys are stored (`store/passkeys.rs`).
//!
//! Sign-in is discoverable: the browser offers the passkeys it has for
//! this site, the one chosen names itself (its credential id and the
//! person's handle), and its signature is checked against the stored
//! credential before the identity key is handed over. Passkeys are off
//! unless the operator names the site's origin (`--passkey-origin`): a
//! passkey is bound to its host for good. Every start is metered per
//! address as joins are (`quota::Kind::Passkey`), a person holds at most
//! [`PASSKEYS_PER_PERSON`], a ceremony is answered once within five
//! minutes, and a body is at most [`BODY_LIMIT`] bytes.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::lobby::{blocking, identity, meter};
use crate::quota::Kind;
use crate::state::passkeys::Ceremony;
use crate::state::AppState;
use crate::store::passkeys::PasskeyRow;
use crate::store::short_id;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;
use webauthn_rs::prelude::{
    CreationChallengeResponse, DiscoverableKey, Passkey, PublicKeyCredential,
    RegisterPublicKeyCredential, RequestChallengeResponse, Uuid,
};
use webauthn_rs::Webauthn;
use webauthn_rs_proto::ResidentKeyRequirement;

/// The most passkeys one person keeps.
pub const PASSKEYS_PER_PERSON: usize = 10;
/// Largest body of a ceremony's answer (a credential: about 1 KB).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The passkeys' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/passkeys/register", post(register))
        .route("/api/passkeys/register/{ceremony}", post(registered))
        .route("/api/passkeys/login", post(login))
        .route("/api/passkeys/login/{ceremony}", post(logged_in))
        .route("/api/me/passkeys", get(mine))
        .route("/api/me/passkeys/{id}", axum::routing::delete(remove))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// The site, or a refusal when the operator has not set passkeys up.
fn site(state: &AppState) -> Result<Arc<Webauthn>, Error> {
    state.webauthn().ok_or_else(|| {
        Error::Refused("passkeys are not set up on this server (--passkey-origin)".into())
    })
}

/// The WebAuthn user handle of a person: the first 16 bytes of their id.
fn handle(player: &str) -> Result<Uuid, Error> {
    let hex = player
        .get(..32)
        .ok_or_else(|| Error::Internal("short id".into()))?;
    Uuid::parse_str(hex).map_err(|e| Error::Internal(e.to_string()))
}

/// A ceremony kept, or a refusal while too many are.
fn keep(state: &AppState, ceremony: Ceremony) -> Result<String, Error> {
    state
        .ceremonies()
        .put(ceremony, Instant::now())
        .ok_or_else(|| Error::Busy("too many passkey ceremonies at once: try again".into()))
}

/// A ceremony's start: its id and the options for the browser.
#[derive(Serialize)]
struct Started<T> {
    ceremony: String,
    options: T,
}

/// `POST /api/passkeys/register` (header `X-Ratrace-Key`): a challenge
/// to add a passkey to this identity.
async fn register(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Started<CreationChallengeResponse>>, Error> {
    let site = site(&state)?;
    let key = headers
        .get("x-ratrace-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let player = identity(&headers)?;
    meter(&state, Kind::Passkey, addr, "passkey ceremonies")?;
    let store = state.store();
    let id = player.clone();
    let have = blocking(move || store.passkeys_of(&id)).await?;
    if have.len() >= PASSKEYS_PER_PERSON {
        return Err(Error::Refused(format!(
            "this identity has {PASSKEYS_PER_PERSON} passkeys, the most it may"
        )));
    }
    let exclude = have
        .iter()
        .filter_map(|p| serde_json::from_str::<Passkey>(&p.passkey).ok())
        .map(|p| p.cred_id().clone())
        .collect();
    let name = format!("ratrace #{}", short_id(&player));
    let (mut options, reg) = site
        .start_passkey_registration(handle(&player)?, &name, &name, Some(exclude))
        .map_err(|e| Error::Internal(e.to_string()))?;
    // a passkey the browser can offer unasked (sign-in names no account)
    if let Some(sel) = options.public_key.authenticator_selection.as_mut() {
        sel.resident_key = Some(ResidentKeyRequirement::Required);
        sel.require_resident_key = true;
    }
    let ceremony = keep(
        &state,
        Ceremony::Register {
            player,
            key,
            state: Box::new(reg),
        },
    )?;
    Ok(Json(Started { ceremony, options }))
}

/// A credential as the browser sent it, or why it is none.
fn credential<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Error> {
    serde_json::from_slice(body).map_err(|e| Error::BadInput(format!("not a credential: {e}")))
}

/// `POST /api/passkeys/register/{ceremony}`: the new credential, checked
/// and stored (201).
async fn registered(
    State(state): State<AppState>,
    Path(ceremony): Path<String>,
    body: Bytes,
) -> Result<(StatusCode, Json<Added>), Error> {
    let site = site(&state)?;
    let cred: RegisterPublicKeyCredential = credential(&body)?;
    let Some(Ceremony::Register {
        player,
        key,
        state: reg,
    }) = state.ceremonies().take(&ceremony, Instant::now())
    else {
        return Err(Error::Refused(
            "no such passkey ceremony: it expired or was answered".into(),
        ));
    };
    let passkey = site
        .finish_passkey_registration(&cred, &reg)
        .map_err(|e| Error::BadInput(format!("the passkey was not made: {e}")))?;
    let row = PasskeyRow {
        id: registry::fair::hex(passkey.cred_id()),
        player,
        identity_key: key,
        passkey: serde_json::to_string(&passkey).map_err(|e| Error::Internal(e.to_string()))?,
        created_at: crate::clock::unix_now(),
        used_at: None,
    };
    let store = state.store();
    let added = blocking(move || store.add_passkey(&row, PASSKEYS_PER_PERSON)).await?;
    if !added {
        return Err(Error::Refused(format!(
            "this identity has {PASSKEYS_PER_PERSON} passkeys, the most it may"
        )));
    }
    Ok((StatusCode::CREATED, Json(Added { added: true })))
}

/// A passkey added.
#[derive(Serialize)]
struct Added {
    added: bool,
}

/// `POST /api/passkeys/login`: a challenge any passkey of the site answers.
async fn login(
    State(state): State<AppState>,
    addr: ClientAddr,
) -> Result<Json<Started<RequestChallengeResponse>>, Error> {
    let site = site(&state)?;
    meter(&state, Kind::Passkey, addr, "passkey ceremonies")?;
    let (options, auth) = site
        .start_discoverable_authentication()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let ceremony = keep(&state, Ceremony::Login(Box::new(auth)))?;
    Ok(Json(Started { ceremony, options }))
}

/// Who signed in: their identity key, for this browser to keep.
#[derive(Serialize)]
struct Signed {
    key: String,
    player: String,
}

/// `POST /api/passkeys/login/{ceremony}`: the assertion, checked against
/// the stored passkey it names; the identity it keeps.
async fn logged_in(
    State(state): State<AppState>,
    Path(ceremony): Path<String>,
    body: Bytes,
) -> Result<Json<Signed>, Error> {
    let site = site(&state)?;
    let cred: PublicKeyCredential = credential(&body)?;
    let Some(Ceremony::Login(auth)) = state.ceremonies().take(&ceremony, Instant::now()) else {
        return Err(Error::Refused(
            "no such passkey ceremony: it expired or was answered".into(),
        ));
    };
    let refused = || Error::Forbidden("this passkey keeps no identity here".into());
    let (user, cred_id) = site
        .identify_discoverable_authentication(&cred)
        .map_err(|_| refused())?;
    let id = registry::fair::hex(cred_id);
    let store = state.store();
    let row = blocking(move || store.passkey(&id))
        .await?
        .ok_or_else(refused)?;
    if handle(&row.player)? != user {
        return Err(refused());
    }
    let mut passkey: Passkey =
        serde_json::from_str(&row.passkey).map_err(|e| Error::Internal(e.to_string()))?;
    let result = site
        .finish_discoverable_authentication(&cred, *auth, &[DiscoverableKey::from(&passkey)])
        .map_err(|_| refused())?;
    passkey.update_credential(&result);
    let updated = serde_json::to_string(&passkey).map_err(|e| Error::Internal(e.to_string()))?;
    let store = state.store();
    let id = row.id.clone();
    blocking(move || store.passkey_used(&id, &updated, crate::clock::unix_now())).await?;
    Ok(Json(Signed {
        player: short_id(&row.player),
        key: row.identity_key,
    }))
}

/// One passkey as its person sees it.
#[derive(Serialize)]
struct Mine {
    /// Its credential id (base64url): what removing it names.
    id: String,
    created_at: i64,
    used_at: Option<i64>,
}

/// An identity's passkeys, and whether the server offers them.
#[derive(Serialize)]
struct MyPasskeys {
    offered: bool,
    passkeys: Vec<Mine>,
}

/// `GET /api/me/passkeys` (header `X-Ratrace-Key`): this identity's
/// passkeys, and whether the server offers them at all.
async fn mine(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
) -> Result<Json<MyPasskeys>, Error> {
    let player = identity(&headers)?;
    meter(&state, Kind::Record, addr, "game lists")?;
    let store = state.store();
    let rows = blocking(move || store.passkeys_of(&player)).await?;
    let mine: Vec<Mine> = rows
        .into_iter()
        .map(|r| Mine {
            id: r.id,
            created_at: r.created_at,
            used_at: r.used_at,
        })
        .collect();
    Ok(Json(MyPasskeys {
        offered: state.webauthn().is_some(),
        passkeys: mine,
    }))
}

/// `DELETE /api/me/passkeys/{id}` (header `X-Ratrace-Key`): removes one
/// of this identity's passkeys (it signs nobody in from then on); 204,
/// or 409 `refused` if the identity holds no passkey with that id.
/// Metered like passkey ceremonies.
async fn remove(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, Error> {
    let player = identity(&headers)?;
    meter(&state, Kind::Passkey, addr, "passkey requests")?;
    let none = || Error::Refused("this identity holds no such passkey".to_string());
    if id.is_empty() || id.len() > 1024 {
        return Err(none());
    }
    let store = state.store();
    if blocking(move || store.remove_passkey(&player, &id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(none())
    }
}
