//! The browser client: the `web/` folder's pages, style and scripts,
//! embedded in the binary with `include_bytes!` (no build step, no files to
//! ship beside it), served compressed and cached like a real site, and the
//! security headers every answer carries.
//!
//! The client has no inline script or style, so the content security
//! policy allows only the server's own files; pages may not be framed, and
//! no referrer leaves (an invite link holds a secret).
//!
//! How the files are served (docs/server.md, "What the client weighs"):
//!
//! - **Compressed.** Every file is gzipped once, at the best level, the
//!   first time any of them is asked for. A client whose `Accept-Encoding`
//!   takes gzip gets it; any other gets the file as it is. Every answer
//!   says `Vary: Accept-Encoding`.
//! - **Validated.** Each file has a strong ETag per encoding (a SHA-256 of
//!   the bytes sent, so gzip and identity differ). An `If-None-Match` that
//!   names it gets `304 Not Modified` with no body.
//! - **Versioned.** The pages name their static files with `?v=` and the
//!   start of the file's hash, and so do the pages' scripts (the card
//!   art's sprite, which `<use>` references name). A request with the current version may be
//!   cached for a year as `immutable`, because a new build changes the
//!   version. A page is `no-cache`, so the browser revalidates it on every
//!   visit and never runs an old script beside a new page. Any other request
//!   for a file is also `no-cache`: the language file that `i18n.js` imports
//!   by its plain name (`/static/i18n-LANG.js`), an old page's version, or a
//!   hand-typed URL. A repeat visit to a table costs two small 304s: the
//!   page and its language file.
//! - **Linked.** The client is ES modules, one per concern, with no build
//!   step. Loaded one by one, a table page would make about twenty
//!   requests (about 800 bytes of headers each: over the first-load goal
//!   alone), in a chain; `modulepreload` would not make them fewer. So a
//!   page loads one script: its entry module linked with what it imports
//!   by a fixed rule that reads lines (`link`, in `web/link.rs`), the
//!   comments left out. Each module is still served alone too, as it is.
//! - **Read from disk when developing.** With `RATRACE_WEB_DIR` set to a
//!   folder (normally `crates/server/web`), pages and files are read from it
//!   on every request, uncompressed and `no-store`, so the client can be
//!   edited without rebuilding. Only the names below are served from it,
//!   so no request can reach any other path.

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use axum::Router;
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

mod link;
pub mod site;
use link::{link, LinkError};

/// The environment variable naming a folder to read the client from on
/// every request (development only).
pub const WEB_DIR_VAR: &str = "RATRACE_WEB_DIR";

/// The content security policy: the client's own scripts, styles and
/// WebSocket only.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers: `nosniff` to every answer; the policies
/// that only a document obeys (content security, framing, referrer,
/// opener) to the answers a browser may show as a document: pages, SVG,
/// and anything without a type. A script, a style sheet, a font or JSON
/// goes without them, which keeps every request of a page's first load
/// about 300 bytes lighter.
pub async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let kind = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let document = ![
        "text/javascript",
        "text/css",
        "font/",
        "application/json",
        "application/wasm",
        "application/octet-stream",
    ]
    .iter()
    .any(|k| kind.starts_with(k));
    if !document {
        return response;
    }
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
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

/// One embedded file: its name in `web/`, its content type, its bytes.
struct Asset {
    name: &'static str,
    kind: &'static str,
    body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $kind:expr) => {
        Asset {
            name: $name,
            kind: $kind,
            body: include_bytes!(concat!("../web/", $name)),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";
const WOFF2: &str = "font/woff2";
const WASM: &str = "application/wasm";
const MANIFEST: &str = "application/manifest+json";
const PNG: &str = "image/png";
const BINARY: &str = "application/octet-stream";

/// The pages, each served at its own routes (see [`routes`]).
const PAGES: &[Asset] = &[
    asset!("index.html", HTML),
    asset!("table.html", HTML),
    asset!("replay.html", HTML),
    asset!("verify.html", HTML),
    asset!("profile.html", HTML),
    asset!("tournament.html", HTML),
    asset!("bench.html", HTML),
];

/// The files under `/static/` (the favicon also at `/favicon.svg` and
/// `/favicon.ico`). A file added to `web/` is served once it is listed
/// here; the weight test (tests/it/web.rs) fails until it is.
const FILES: &[Asset] = &[
    asset!("app.css", CSS),
    asset!("i18n.js", JS),
    asset!("dom.js", JS),
    asset!("page.js", JS),
    asset!("patch.js", JS),
    asset!("store.js", JS),
    asset!("connection.js", JS),
    asset!("names.js", JS),
    asset!("words.js", JS),
    asset!("words-bigcheese.js", JS),
    asset!("words-dalmuti.js", JS),
    asset!("i18n-en.js", JS),
    asset!("i18n-it.js", JS),
    asset!("i18n-fr.js", JS),
    asset!("lobby.js", JS),
    asset!("lobby-players.js", JS),
    asset!("lobby-pairing.js", JS),
    asset!("lobby-tournaments.js", JS),
    asset!("tournament.js", JS),
    asset!("friends.js", JS),
    asset!("passkeys.js", JS),
    asset!("table.js", JS),
    asset!("table-state.js", JS),
    asset!("table-view.js", JS),
    asset!("table-panels.js", JS),
    asset!("table-alerts.js", JS),
    asset!("motion.js", JS),
    asset!("table-bigcheese.js", JS),
    asset!("table-dalmuti.js", JS),
    asset!("card-art.js", JS),
    asset!("social.js", JS),
    asset!("tutorial.js", JS),
    asset!("replay.js", JS),
    asset!("replay-analysis.js", JS),
    asset!("replay-room.js", JS),
    asset!("verify.js", JS),
    asset!("profile.js", JS),
    asset!("favicon.svg", SVG),
    asset!("cards.svg", SVG),
    asset!("icons.woff2", WOFF2),
    asset!("emotes.woff2", WOFF2),
    asset!("local.js", JS),
    asset!("engine.js", JS),
    asset!("sw.js", JS),
    asset!("bench.js", JS),
    asset!("manifest.webmanifest", MANIFEST),
    asset!("icon-192.png", PNG),
    asset!("icon-512.png", PNG),
    // Built, not written: the browser's engine (crates/browser, compiled
    // to WebAssembly by build.rs) and the learned level's networks, which
    // it fetches only when that level plays or advises.
    Asset {
        name: "engine.wasm",
        kind: WASM,
        body: include_bytes!(concat!(env!("OUT_DIR"), "/engine.wasm")),
    },
    Asset {
        name: "bigcheese.safetensors",
        kind: BINARY,
        body: bots::big_cheese::WEIGHTS,
    },
    Asset {
        name: "dalmuti.safetensors",
        kind: BINARY,
        body: bots::great_dalmuti::WEIGHTS,
    },
];

/// The scripts a page starts as workers: they name files, so they are
/// versioned like the pages' scripts, before them (the table page's script
/// names the local table's worker).
const WORKERS: [&str; 1] = ["engine.js"];

/// Files that name the pages' scripts and style sheets: versioned last.
/// The service worker keeps them for offline use, so a new build is a new
/// worker; the manifest names the icons.
const LAST: [&str; 2] = ["sw.js", "manifest.webmanifest"];

/// The files built rather than kept in `web/`: served from the binary
/// even when the client is read from a folder.
const BUILT: &[&str] = &[
    "engine.wasm",
    "bigcheese.safetensors",
    "dalmuti.safetensors",
];

/// The pages' scripts, each served as one file: its entry module of `web/`
/// linked with every module it imports (`web/link.rs`). A page loads only
/// its own, so its first load makes one request for its scripts (every
/// request costs about 800 bytes of headers both ways).
const BUNDLES: &[(&str, &str)] = &[
    ("table-page.js", "table.js"),
    ("lobby-page.js", "lobby.js"),
    ("replay-page.js", "replay.js"),
    ("verify-page.js", "verify.js"),
    ("profile-page.js", "profile.js"),
    ("tournament-page.js", "tournament.js"),
];

/// How long a versioned file may be kept: a year, never revalidated.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Pages and unversioned files: kept, but revalidated before each use.
const REVALIDATE: &str = "no-cache";
/// Files read from `RATRACE_WEB_DIR`: never kept.
const NO_STORE: &str = "no-store";

/// One encoding of a file, ready to send.
struct Encoded {
    body: Bytes,
    etag: HeaderValue,
}

impl Encoded {
    fn new(body: Vec<u8>) -> Encoded {
        let hash = Sha256::digest(&body);
        let etag = format!("\"{}\"", hex(&hash[..16]));
        Encoded {
            body: Bytes::from(body),
            etag: HeaderValue::from_str(&etag).expect("hex is a valid header"),
        }
    }
}

/// A file as served: both encodings (gzip only when it is smaller) and the
/// version the pages name it by.
struct Prepared {
    kind: &'static str,
    identity: Encoded,
    gzip: Option<Encoded>,
    version: String,
}

impl Prepared {
    fn new(kind: &'static str, body: Vec<u8>) -> Prepared {
        let version = hex(&Sha256::digest(&body)[..8]);
        let compressed = gzip(&body);
        let gzip = (compressed.len() < body.len()).then(|| Encoded::new(compressed));
        Prepared {
            kind,
            identity: Encoded::new(body),
            gzip,
            version,
        }
    }
}

/// Every page and file, prepared on first use.
struct Site {
    pages: HashMap<&'static str, Prepared>,
    files: HashMap<&'static str, Prepared>,
}

static SITE: LazyLock<Site> = LazyLock::new(|| {
    // Scripts and style sheets name files too (the card art, the icons
    // font): the pages' scripts are versioned after the other files, the
    // style sheets after them, and the pages last.
    let mut files: HashMap<_, _> = FILES
        .iter()
        .filter(|a| a.kind != CSS)
        .map(|a| (a.name, Prepared::new(a.kind, a.body.to_vec())))
        .collect();
    // The local table's worker names the engine and the networks it
    // fetches: versioned as a page's script is.
    for name in WORKERS {
        reversion(&mut files, name);
    }
    for (name, entry) in BUNDLES {
        let embedded = |file: &str| {
            FILES
                .iter()
                .find(|a| a.name == file)
                .map(|a| a.body.to_vec())
        };
        let body = link(entry, embedded).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = String::from_utf8(body).expect("the modules are UTF-8");
        let body = with_versions(&text, &files).into_bytes();
        files.insert(name, Prepared::new(JS, body));
    }
    for a in FILES.iter().filter(|a| a.kind == CSS) {
        let text = std::str::from_utf8(a.body).expect("the style sheets are UTF-8");
        let body = with_versions(text, &files).into_bytes();
        files.insert(a.name, Prepared::new(a.kind, body));
    }
    for name in LAST {
        reversion(&mut files, name);
    }
    let pages = PAGES
        .iter()
        .map(|a| {
            let text = std::str::from_utf8(a.body).expect("the pages are UTF-8");
            let body = with_versions(text, &files).into_bytes();
            (a.name, Prepared::new(a.kind, body))
        })
        .collect();
    Site { pages, files }
});

/// File `name` again, with the versions of the files prepared so far in
/// what it names (its version changes with theirs).
fn reversion(files: &mut HashMap<&'static str, Prepared>, name: &'static str) {
    let file = &files[name];
    let text = std::str::from_utf8(file.identity.body.as_ref())
        .expect("the client's text files are UTF-8");
    let (kind, body) = (file.kind, with_versions(text, files).into_bytes());
    files.insert(name, Prepared::new(kind, body));
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// A page (or style sheet, or page script) with every `"/static/NAME"` and
/// `"/favicon.svg"` it names turned into its versioned URL.
fn with_versions(page: &str, files: &HashMap<&'static str, Prepared>) -> String {
    let mut out = page.to_owned();
    for (name, file) in files {
        let v = &file.version;
        out = out.replace(
            &format!("\"/static/{name}\""),
            &format!("\"/static/{name}?v={v}\""),
        );
        if *name == "favicon.svg" {
            out = out.replace("\"/favicon.svg\"", &format!("\"/favicon.svg?v={v}\""));
        }
    }
    out
}

/// Whether the client takes gzip (RFC 9110, 12.5.3): `gzip` (or `x-gzip`)
/// with a q above 0, else `*` with a q above 0, unless `identity` is
/// listed with a higher q. A q that cannot be read counts as 0.
fn takes_gzip(headers: &HeaderMap) -> bool {
    let (mut gzip, mut star, mut identity) = (None::<f32>, None::<f32>, None::<f32>);
    let values = headers.get_all(header::ACCEPT_ENCODING);
    for item in values
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut q = 1.0;
        for p in parts {
            let p = p.trim();
            if let Some(x) = p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")) {
                q = x.trim().parse().unwrap_or(0.0);
            }
        }
        let slot = match coding.as_str() {
            "gzip" | "x-gzip" => &mut gzip,
            "*" => &mut star,
            "identity" => &mut identity,
            _ => continue,
        };
        *slot = Some(slot.map_or(q, |old: f32| old.max(q)));
    }
    let g = gzip.or(star).unwrap_or(0.0);
    g > 0.0 && identity.is_none_or(|i| g >= i)
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110
/// asks for this header) or is `*`.
pub(crate) fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.to_str().unwrap_or("");
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

/// The answer for a prepared file: 304 when the client has this encoding
/// already, else the file in the encoding it takes.
fn answer(file: &Prepared, headers: &HeaderMap, cache: &'static str) -> Response {
    let (encoded, gzipped) = match &file.gzip {
        Some(g) if takes_gzip(headers) => (g, true),
        _ => (&file.identity, false),
    };
    let builder = Response::builder()
        .header(header::ETAG, encoded.etag.clone())
        .header(header::CACHE_CONTROL, cache)
        .header(header::VARY, "Accept-Encoding");
    let response = if not_modified(headers, &encoded.etag) {
        builder.status(StatusCode::NOT_MODIFIED).body(Body::empty())
    } else {
        let builder = builder.header(header::CONTENT_TYPE, file.kind);
        let builder = if gzipped {
            builder.header(header::CONTENT_ENCODING, "gzip")
        } else {
            builder
        };
        builder.body(Body::from(encoded.body.clone()))
    };
    response.expect("the headers are valid")
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// Where the client comes from: the binary, or a folder read on every
/// request.
#[derive(Clone)]
struct Source(Option<Arc<PathBuf>>);

impl Source {
    /// Reads `asset` from the folder, uncached.
    fn from_dir(dir: &std::path::Path, asset: &Asset) -> Response {
        // `asset.name` is one of the fixed names above, never the request's
        // text, so nothing outside the folder can be named.
        match std::fs::read(dir.join(asset.name)) {
            Ok(body) => Self::uncached(asset.kind, body),
            Err(_) => not_found(),
        }
    }

    /// A file read from the folder, as it is: never kept.
    fn uncached(kind: &'static str, body: Vec<u8>) -> Response {
        (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, NO_STORE),
            ],
            body,
        )
            .into_response()
    }

    /// A page's script linked from the folder: 404 while a module is
    /// missing, 500 with the reason when the modules do not link.
    fn linked(dir: &std::path::Path, entry: &str) -> Response {
        // only the names of files listed in FILES are read, never the request's text
        let listed = |name: &str| {
            let asset = FILES.iter().find(|a| a.name == name)?;
            std::fs::read(dir.join(asset.name)).ok()
        };
        match link(entry, listed) {
            Ok(body) => Self::uncached(JS, body),
            Err(LinkError::Missing(_)) => not_found(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        }
    }

    fn page(&self, name: &str, headers: &HeaderMap) -> Response {
        let Some(asset) = PAGES.iter().find(|a| a.name == name) else {
            return not_found();
        };
        match &self.0 {
            Some(dir) => Self::from_dir(dir, asset),
            None => answer(&SITE.pages[asset.name], headers, REVALIDATE),
        }
    }

    fn file(&self, name: &str, query: Option<&str>, headers: &HeaderMap) -> Response {
        let name = match (
            FILES.iter().find(|a| a.name == name),
            BUNDLES.iter().find(|b| b.0 == name),
        ) {
            (Some(asset), _) => {
                if let Some(dir) = self.0.as_ref().filter(|_| !BUILT.contains(&asset.name)) {
                    return Self::from_dir(dir, asset);
                }
                asset.name
            }
            (None, Some((bundled, entry))) => {
                if let Some(dir) = &self.0 {
                    return Self::linked(dir, entry);
                }
                bundled
            }
            (None, None) => return not_found(),
        };
        let file = &SITE.files[name];
        let current = query.is_some_and(|q| {
            q.split('&')
                .any(|kv| kv.strip_prefix("v=") == Some(&file.version))
        });
        answer(file, headers, if current { IMMUTABLE } else { REVALIDATE })
    }
}

/// The page and static-file routes; the client is read from
/// `RATRACE_WEB_DIR` on every request when that is set (and not empty).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let dir = std::env::var_os(WEB_DIR_VAR).filter(|d| !d.is_empty());
    if let Some(d) = &dir {
        tracing::info!(dir = %d.to_string_lossy(), "serving the web client from a folder, uncached");
    }
    routes_from(dir.map(PathBuf::from))
}

/// The page and static-file routes, reading the client from `dir` on every
/// request when it is given, else from the binary.
pub fn routes_from<S: Clone + Send + Sync + 'static>(dir: Option<PathBuf>) -> Router<S> {
    let source = Source(dir.map(Arc::new));
    let page = |name: &'static str| -> MethodRouter<S> {
        let source = source.clone();
        get(move |headers: HeaderMap| async move { source.page(name, &headers) })
    };
    let favicon = {
        let source = source.clone();
        get(
            move |RawQuery(q): RawQuery, headers: HeaderMap| async move {
                source.file("favicon.svg", q.as_deref(), &headers)
            },
        )
    };
    let files = {
        let source = source.clone();
        get(
            move |Path(name): Path<String>, RawQuery(q): RawQuery, headers: HeaderMap| async move {
                source.file(&name, q.as_deref(), &headers)
            },
        )
    };
    Router::new()
        .route("/", page("index.html"))
        .route("/t/{id}", page("table.html"))
        // a game in this browser (local.js): the table page, its game
        // named by `?id=`
        .route("/local/", page("table.html"))
        .route("/replay/{id}", page("replay.html"))
        .route("/verify", page("verify.html"))
        .route("/p/{player}", page("profile.html"))
        .route("/tournament/{id}", page("tournament.html"))
        // the browser engine's bench (e2e/bench-engine.mjs)
        .route("/bench", page("bench.html"))
        .route("/static/{name}", files)
        // the service worker at the root, so that its scope is the whole
        // site, and the web app manifest beside it
        .route("/sw.js", root_file(&source, "sw.js"))
        .route(
            "/manifest.webmanifest",
            root_file(&source, "manifest.webmanifest"),
        )
        .route("/favicon.ico", favicon.clone())
        .route("/favicon.svg", favicon)
}

/// A file of `web/` served at the site's root, unversioned (`no-cache`).
fn root_file<S: Clone + Send + Sync + 'static>(
    source: &Source,
    name: &'static str,
) -> MethodRouter<S> {
    let source = source.clone();
    get(move |headers: HeaderMap| async move { source.file(name, None, &headers) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        h
    }

    #[test]
    fn accept_encoding_is_read_with_its_q_values() {
        assert!(takes_gzip(&accept("gzip, deflate, br, zstd")));
        assert!(takes_gzip(&accept("br;q=1.0, gzip;q=0.8, *;q=0.1")));
        assert!(takes_gzip(&accept("*")));
        assert!(takes_gzip(&accept("x-gzip")));
        assert!(takes_gzip(&accept("GZIP")));
        assert!(!takes_gzip(&HeaderMap::new()));
        assert!(!takes_gzip(&accept("identity")));
        assert!(!takes_gzip(&accept("br, deflate")));
        assert!(!takes_gzip(&accept("gzip;q=0")));
        assert!(!takes_gzip(&accept("gzip; q=0.000")));
        assert!(!takes_gzip(&accept("*, gzip;q=0")));
        assert!(!takes_gzip(&accept("*;q=0")));
        assert!(!takes_gzip(&accept("gzip;q=0.5, identity;q=1")));
        assert!(!takes_gzip(&accept("gzip;q=nonsense")));
    }

    #[test]
    fn if_none_match_takes_lists_weak_tags_and_star() {
        let tag = HeaderValue::from_static("\"abc\"");
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
            h
        };
        assert!(not_modified(&with("\"abc\""), &tag));
        assert!(not_modified(&with("\"x\", W/\"abc\""), &tag));
        assert!(not_modified(&with("*"), &tag));
        assert!(!not_modified(&with("\"abcd\""), &tag));
        assert!(!not_modified(&HeaderMap::new(), &tag));
    }

    #[test]
    fn every_page_script_links_from_the_embedded_modules() {
        for (name, _) in BUNDLES {
            let text = std::str::from_utf8(SITE.files[name].identity.body.as_ref()).unwrap();
            // every module in it is served alone too, and none opens with its comment
            for module in text
                .lines()
                .filter_map(|l| l.strip_prefix("// "))
                .filter(|l| l.ends_with(".js"))
            {
                assert!(FILES.iter().any(|a| a.name == module), "{name}: {module}");
            }
            assert!(
                !text.contains("\nimport {") && !text.contains("\nexport "),
                "{name}"
            );
        }
    }

    #[test]
    fn page_scripts_name_their_files_by_version() {
        // card-art.js names its sprite "/static/cards.svg", and `<use>` takes
        // the versioned URL only from the linked script
        for (name, _) in BUNDLES {
            let text = std::str::from_utf8(SITE.files[name].identity.body.as_ref()).unwrap();
            for (i, _) in text.match_indices("\"/static/") {
                let rest = &text[i + 9..];
                let url = &rest[..rest.find('"').unwrap()];
                let (file, v) = url
                    .split_once("?v=")
                    .unwrap_or_else(|| panic!("{name}: /static/{url} has no version"));
                assert_eq!(SITE.files[file].version, v, "{name}: {url}");
            }
        }
    }

    #[test]
    fn pages_name_their_files_by_version_and_every_name_is_known() {
        for page in PAGES {
            let text = std::str::from_utf8(SITE.pages[page.name].identity.body.as_ref()).unwrap();
            for (attr, url) in text
                .split(['<', '>', ' '])
                .filter_map(|t| t.split_once("=\""))
                .filter(|(a, _)| *a == "src" || *a == "href")
                .map(|(a, rest)| (a, rest.split('"').next().unwrap_or("")))
                .filter(|(_, u)| u.starts_with("/static/") || u.starts_with("/favicon"))
            {
                let (path, v) = url
                    .split_once("?v=")
                    .unwrap_or_else(|| panic!("{}: {attr}={url} has no version", page.name));
                let name = path.rsplit('/').next().unwrap();
                assert_eq!(SITE.files[name].version, v, "{}: {url}", page.name);
            }
        }
    }
}
