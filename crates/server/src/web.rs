//! The browser client: the `web/` folder's pages, style and scripts,
//! embedded in the binary with `include_str!` (no build step, no files to
//! ship beside it).

use crate::AppState;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("../web/index.html");
const TABLE: &str = include_str!("../web/table.html");
const REPLAY: &str = include_str!("../web/replay.html");
const VERIFY: &str = include_str!("../web/verify.html");

/// The static files under `/static/`, with their content types.
const STATIC: &[(&str, &str, &str)] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../web/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/i18n.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/lobby.js"),
    ),
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/table.js"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/replay.js"),
    ),
    (
        "verify.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/verify.js"),
    ),
];

fn html(body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The page and static-file routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { html(INDEX) }))
        .route("/t/{id}", get(|| async { html(TABLE) }))
        .route("/replay/{id}", get(|| async { html(REPLAY) }))
        .route("/verify", get(|| async { html(VERIFY) }))
        .route("/static/{name}", get(static_file))
}

async fn static_file(Path(name): Path<String>) -> Response {
    match STATIC.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
