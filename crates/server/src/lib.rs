//! `server`: the ratrace game server (design in `docs/server.md`): a lobby
//! over JSON HTTP, live tables over WebSocket, durable storage (SQLite, or
//! PostgreSQL for several processes), bots in empty seats, and the
//! embedded browser client, built to face the open internet.
//!
//! It is a library so tests drive the same code the `ratrace serve`
//! binary runs: [`app`] builds the router over an [`AppState`], [`run`]
//! accepts connections on a listener (connection caps, header timeout)
//! until a shutdown future resolves. Each table is one task ([`table`])
//! reached through a channel; the state only maps ids to those channels
//! (a std mutex, never held across `.await`). Tables are loaded on demand
//! and leave memory when nobody has touched them for a while, so start-up
//! loads nothing and memory is bounded by what is in use.
//!
//! The files are in floors, top first; a file imports only from its own
//! floor or the floors below, and no files import each other in a circle
//! (docs/server.md, "Shape"; the `layers` test reads the sources and
//! checks it):
//!
//! 1. the crate root: this file (the router, the accept loops);
//! 2. faces: [`lobby`], [`pairing`] (quick pairing, "Play now"), [`ws`],
//!    [`analysis`], [`ops`], [`web`], [`cluster`] (forwarding to another
//!    process);
//! 3. connections: [`net`];
//! 4. the shared state: [`state`], with what it holds (the lobby's cache,
//!    the analyses queue, the site's membership) and its life (opening it,
//!    the cluster's heartbeats and take-overs);
//! 5. tables: [`table`];
//! 6. the wire, the people and the bots: [`protocol`], [`patch`],
//!    [`social`], [`extbots`], [`names`];
//! 7. accounting: [`metrics`], [`quota`], [`error`];
//! 8. the store: [`store`] (it imports nothing above it);
//! 9. ground: [`limits`], [`clock`], [`ids`], [`addr`].

pub mod addr;
pub mod analysis;
pub mod clock;
pub mod cluster;
pub mod error;
pub mod extbots;
pub mod friends;
pub mod ids;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod names;
pub mod net;
pub mod ops;
pub mod pairing;
pub mod passkeys;
pub mod patch;
pub mod protocol;
pub mod quota;
pub mod rooms;
pub mod social;
pub mod state;
pub mod store;
pub mod table;
pub mod tournament_wire;
pub mod tournaments;
pub mod web;
pub mod ws;

pub use registry::GAMES;

pub use limits::{Limits, WsCompression};
pub use state::AppState;

use axum::Router;
use std::future::Future;
use tokio::net::TcpListener;

/// The router: pages, static files, the JSON API and the WebSocket, with
/// the security headers on every answer.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(web::routes())
        .merge(lobby::routes(state.clone()))
        .merge(pairing::routes())
        .merge(tournaments::routes())
        .merge(friends::routes())
        .merge(rooms::routes())
        .merge(passkeys::routes())
        .merge(crate::analysis::routes())
        .merge(ops::routes())
        .merge(
            Router::new()
                .route("/ws/{id}", axum::routing::get(ws::upgrade))
                .route_layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    cluster::forward::to_owner,
                )),
        )
        .layer(axum::middleware::map_response(web::security_headers))
        .with_state(state)
}

/// Accepts connections on `listener` and serves `app(state)` on each
/// (with `TCP_NODELAY`) until `shutdown` resolves or the state is closed
/// (by [`AppState::drain`] or [`AppState::close`]), then stops accepting,
/// asks HTTP connections to finish, and drains the state
/// ([`AppState::drain`]: WebSockets closed with 1012, in-flight commits
/// finished, bounded in time). A connection over a cap is closed at once.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone());
    let per_addr = state.limits().max_connections_per_ip;
    // the pools as a crashed predecessor left them
    pairing::resume(&state);
    tournaments::resume(&state);
    net::accept(listener, state, router, per_addr, shutdown).await
}

/// Accepts the other processes of the site on their own listener (several
/// processes serving one site): the same routes, but only requests carrying
/// the site's secret, whose client address is the one the forwarding
/// process saw. There is no per-address cap (every connection comes from a
/// peer process; the real clients were counted where they connected), only
/// the cap in all.
pub async fn run_cluster(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone()).layer(axum::middleware::from_fn_with_state(
        state.clone(),
        crate::cluster::forward::trusted,
    ));
    net::accept(listener, state, router, 0, shutdown).await
}
