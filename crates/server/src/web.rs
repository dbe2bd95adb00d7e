//! The browser client: the `web/` folder's pages, style and scripts,
//! embedded in the binary with `include_str!` (no build step, no files to
//! ship beside it), and the security headers every answer carries.
//!
//! The client has no inline script or style, so the content security
//! policy allows only the server's own files; pages may not be framed, and
//! no referrer leaves (an invite link holds a secret).

use crate::AppState;
use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("../web/index.html");
const TABLE: &str = include_str!("../web/table.html");
const REPLAY: &str = include_str!("../web/replay.html");
const VERIFY: &str = include_str!("../web/verify.html");
const FAVICON: &str = include_str!("../web/favicon.svg");

/// The content security policy: the client's own scripts, styles and
/// WebSocket only.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer.
pub async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    response
}

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
        "i18n-en.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/i18n-en.js"),
    ),
    (
        "i18n-it.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/i18n-it.js"),
    ),
    (
        "i18n-fr.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/i18n-fr.js"),
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
        "social.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/social.js"),
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
        .route("/favicon.ico", get(favicon))
        .route("/favicon.svg", get(favicon))
}

async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "max-age=86400"),
        ],
        FAVICON,
    )
        .into_response()
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
