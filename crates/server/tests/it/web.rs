//! The web client served like a real site (src/web.rs): gzip chosen by
//! `Accept-Encoding`, strong ETags and `304 Not Modified`, versioned files
//! cached as `immutable`, the development folder (`RATRACE_WEB_DIR`), and
//! the web client's weight budget: every asset under `web/` at most 250 KB
//! gzipped in all, a table page's first load at most 90 KB on the wire, a
//! repeat visit at most 5 KB.
//!
//! The weights are measured through a real HTTP client (hyper) on a
//! connection that counts every byte both ways, sending the headers a
//! desktop Chromium sends, so the figures are what a browser would pay.
//! `cargo test -p server --test tests web -- --nocapture` prints them;
//! docs/server.md ("What the client weighs") quotes them.

use super::util::start;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request};
use flate2::read::GzDecoder;
use hyper_util::rt::TokioIo;
use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The budgets, in bytes (1 KB = 1,000 bytes).
const ALL_ASSETS_GZIP: usize = 250_000;
const TABLE_FIRST_LOAD: usize = 90_000;
const REPEAT_VISIT: usize = 5_000;

/// The modules the table page's script is linked from, in the order the
/// link puts them (`table-page.js`: `table.js` and what it imports, each
/// after what it imports; `BUNDLES` and `link` in web.rs).
const TABLE_PAGE: [&str; 24] = [
    "dom.js",
    "i18n.js",
    "store.js",
    "connection.js",
    "page.js",
    "names.js",
    "words-bigcheese.js",
    "words-dalmuti.js",
    "words.js",
    "patch.js",
    "table-state.js",
    "card-art.js",
    "table-bigcheese.js",
    "table-dalmuti.js",
    "table-view.js",
    "friends.js",
    "table-panels.js",
    "table-alerts.js",
    "social.js",
    "motion.js",
    "tutorial.js",
    "local.js",
    "replay-analysis.js",
    "table.js",
];

/// The client's folder in the source tree.
fn web_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// Every file under `web/`, by name, sorted.
fn web_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(web_dir())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The URL a file of `web/` is served at.
fn url_of(name: &str) -> String {
    match name {
        "index.html" => "/".into(),
        "table.html" => "/t/abc".into(),
        "replay.html" => "/replay/abc".into(),
        "verify.html" => "/verify".into(),
        "profile.html" => "/p/0123abcd".into(),
        "tournament.html" => "/tournament/abc".into(),
        "bench.html" => "/bench".into(),
        "favicon.svg" => "/favicon.svg".into(),
        n if n.ends_with(".html") => panic!("{n}: a new page; give it a route here"),
        n => format!("/static/{n}"),
    }
}

/// A TCP stream that counts the bytes it reads and writes.
struct Counted {
    inner: TcpStream,
    bytes: Arc<AtomicUsize>,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = r {
            this.bytes
                .fetch_add(buf.filled().len() - before, Ordering::Relaxed);
        }
        r
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            this.bytes.fetch_add(n, Ordering::Relaxed);
        }
        r
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// What a request got.
struct Got {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
    /// Bytes on the wire both ways: request and response, headers and body.
    wire: usize,
}

impl Got {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

/// One keep-alive HTTP/1.1 connection through hyper's client, counting
/// bytes, like one of a browser's connections.
struct Client {
    send: hyper::client::conn::http1::SendRequest<Body>,
    host: String,
    bytes: Arc<AtomicUsize>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let bytes = Arc::new(AtomicUsize::new(0));
        let stream = Counted {
            inner: TcpStream::connect(addr).await.unwrap(),
            bytes: bytes.clone(),
        };
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(conn);
        Client {
            send,
            host: addr.to_string(),
            bytes,
        }
    }

    async fn request(&mut self, method: &str, path: &str, headers: &[(&str, &str)]) -> Got {
        // The previous answer is read to its end; wait until hyper has
        // made the connection ready for the next request.
        self.send.ready().await.unwrap();
        let before = self.bytes.load(Ordering::Relaxed);
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("host", &self.host);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let response = self
            .send
            .send_request(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let (parts, incoming) = response.into_parts();
        let body = axum::body::to_bytes(Body::new(incoming), usize::MAX)
            .await
            .unwrap();
        Got {
            status: parts.status.as_u16(),
            headers: parts.headers,
            body,
            wire: self.bytes.load(Ordering::Relaxed) - before,
        }
    }

    async fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> Got {
        self.request("GET", path, headers).await
    }
}

/// The headers a desktop Chromium sends for a resource of `kind`
/// (`document`, `script`, `style`, `image` or `font`) on a same-origin
/// page.
fn browser_headers(kind: &str) -> Vec<(&'static str, &'static str)> {
    let mut h = vec![
        ("connection", "keep-alive"),
        (
            "sec-ch-ua",
            "\"Chromium\";v=\"128\", \"Not;A=Brand\";v=\"24\", \"Google Chrome\";v=\"128\"",
        ),
        ("sec-ch-ua-mobile", "?0"),
        ("sec-ch-ua-platform", "\"Linux\""),
        (
            "user-agent",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
             Chrome/128.0.0.0 Safari/537.36",
        ),
        ("accept-encoding", "gzip, deflate, br, zstd"),
        ("accept-language", "en-US,en;q=0.9"),
    ];
    match kind {
        "document" => h.extend([
            ("upgrade-insecure-requests", "1"),
            (
                "accept",
                "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,\
                 image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
            ),
            ("sec-fetch-site", "none"),
            ("sec-fetch-mode", "navigate"),
            ("sec-fetch-user", "?1"),
            ("sec-fetch-dest", "document"),
        ]),
        "style" => h.extend([
            ("accept", "text/css,*/*;q=0.1"),
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "no-cors"),
            ("sec-fetch-dest", "style"),
        ]),
        "image" => h.extend([
            (
                "accept",
                "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
            ),
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "no-cors"),
            ("sec-fetch-dest", "image"),
        ]),
        "font" => h.extend([
            ("accept", "*/*"),
            ("origin", "http://127.0.0.1"),
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "cors"),
            ("sec-fetch-dest", "font"),
        ]),
        // every script is a module (the page's, and the language file it
        // imports): fetched in cors mode, with the page's origin
        _ => h.extend([
            ("accept", "*/*"),
            ("origin", "http://127.0.0.1"),
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "cors"),
            ("sec-fetch-dest", "script"),
        ]),
    }
    h
}

/// The URLs a page loads by itself: every `<script src>` and
/// `<link href>` (style sheet, icon) in it, in order.
fn references(page: &str) -> Vec<String> {
    let mut urls = Vec::new();
    for tag in page.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or("");
        let attr = if tag.starts_with("script") {
            "src=\""
        } else if tag.starts_with("link") {
            "href=\""
        } else {
            continue;
        };
        if let Some((_, rest)) = tag.split_once(attr) {
            let url = rest.split('"').next().unwrap();
            // a `data:` URL (the favicon) is in the page itself
            if !url.starts_with("data:") {
                urls.push(url.to_string());
            }
        }
    }
    urls
}

fn kind_of(url: &str) -> &'static str {
    let path = url.split('?').next().unwrap();
    if path.ends_with(".css") {
        "style"
    } else if path.ends_with(".svg") || path.ends_with(".ico") || path.ends_with(".png") {
        "image"
    } else if path.ends_with(".woff2") {
        "font"
    } else {
        "script"
    }
}

fn gunzip(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    GzDecoder::new(body).read_to_end(&mut out).unwrap();
    out
}

/// `nosniff` on every answer; the document policies (content security,
/// framing, referrer) on whatever a browser may show as a document, and
/// not on scripts, styles, fonts and JSON.
fn assert_security_headers(got: &Got, what: &str) {
    assert_eq!(
        got.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    let kind = got.header("content-type").unwrap_or("");
    let document = !["text/javascript", "text/css", "font/", "application/json"]
        .iter()
        .any(|k| kind.starts_with(k));
    let csp = got.header("content-security-policy");
    if !document {
        assert_eq!(csp, None, "{what} ({kind}) is no document");
        return;
    }
    let csp = csp.unwrap_or("");
    assert!(csp.starts_with("default-src 'self'"), "{what}: {csp}");
    assert_eq!(got.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(got.header("referrer-policy"), Some("no-referrer"), "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzip_is_sent_when_accepted_and_decodes_to_the_exact_file() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;
    for name in web_files().iter().filter(|n| !n.ends_with(".html")) {
        let url = url_of(name);
        let got = client.get(&url, &[("accept-encoding", "gzip")]).await;
        assert_eq!(got.status, 200, "{url}");
        assert_eq!(got.header("vary"), Some("Accept-Encoding"), "{url}");
        let file = std::fs::read(web_dir().join(name)).unwrap();
        if name.ends_with(".woff2") {
            // compressed already: gzip would only add to it
            assert_eq!(got.header("content-encoding"), None, "{url}");
            assert_eq!(got.body.as_ref(), file.as_slice(), "{url}");
            continue;
        }
        assert_eq!(got.header("content-encoding"), Some("gzip"), "{url}");
        let mut sent = gunzip(&got.body);
        if name.ends_with(".css")
            || ["engine.js", "sw.js", "manifest.webmanifest"].contains(&name.as_str())
        {
            // a style sheet names the font with its version, as pages do,
            // and the local table's worker the engine and the networks
            let text = String::from_utf8(sent).unwrap();
            let plain: String = text
                .split("?v=")
                .enumerate()
                .map(|(i, part)| if i == 0 { part } else { &part[16..] })
                .collect();
            assert_ne!(text, plain, "{url}: the font's URL is versioned");
            sent = plain.into_bytes();
        }
        assert_eq!(sent, file, "{url}");
        assert!(got.body.len() < file.len(), "{url}");
    }
    // A page decodes to itself with its files' URLs versioned.
    let got = client.get("/t/abc", &[("accept-encoding", "gzip")]).await;
    assert_eq!(got.header("content-encoding"), Some("gzip"));
    assert_eq!(got.header("content-type"), Some("text/html; charset=utf-8"));
    let page = String::from_utf8(gunzip(&got.body)).unwrap();
    assert!(
        page.contains("<script type=\"module\" src=\"/static/table-page.js?v="),
        "{page}"
    );
    // and the linked script is the table page's modules, each once, after
    // what it imports, without their comments
    let got = client.get("/static/table-page.js", &[]).await;
    let text = String::from_utf8(got.body.to_vec()).unwrap();
    let linked: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("// ")).collect();
    assert_eq!(linked, TABLE_PAGE);
    for part in TABLE_PAGE {
        let file = std::fs::read_to_string(web_dir().join(part)).unwrap();
        let opening = file.split("*/").next().unwrap();
        assert!(
            opening.starts_with("/*") && !text.contains(opening),
            "{part}"
        );
    }
    assert!(
        text.contains("\nfunction morphKids(a, b) {\n"),
        "a module's code, as it is"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_file_as_it_is_when_gzip_is_not_accepted() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;
    let file = std::fs::read(web_dir().join("dom.js")).unwrap();
    for accept in [
        None,
        Some("gzip;q=0"),
        Some("br, deflate"),
        Some("identity"),
        Some("*;q=0"),
    ] {
        let headers: Vec<(&str, &str)> =
            accept.map(|a| ("accept-encoding", a)).into_iter().collect();
        let got = client.get("/static/dom.js", &headers).await;
        assert_eq!(got.status, 200, "{accept:?}");
        assert_eq!(got.header("content-encoding"), None, "{accept:?}");
        assert_eq!(got.header("vary"), Some("Accept-Encoding"), "{accept:?}");
        assert_eq!(got.body.as_ref(), file.as_slice(), "{accept:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matching_etag_gets_304_with_no_body_and_each_encoding_has_its_own() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;
    for url in ["/static/table.js", "/t/abc", "/", "/favicon.svg"] {
        let gz = client.get(url, &[("accept-encoding", "gzip")]).await;
        let plain = client.get(url, &[]).await;
        let gz_tag = gz.header("etag").unwrap().to_string();
        let plain_tag = plain.header("etag").unwrap().to_string();
        assert!(
            gz_tag.starts_with('"') && gz_tag.ends_with('"'),
            "strong: {gz_tag}"
        );
        assert_ne!(gz_tag, plain_tag, "{url}");

        let again = client
            .get(
                url,
                &[("accept-encoding", "gzip"), ("if-none-match", &gz_tag)],
            )
            .await;
        assert_eq!(again.status, 304, "{url}");
        assert!(again.body.is_empty(), "{url}");
        assert_eq!(again.header("etag"), Some(gz_tag.as_str()), "{url}");
        assert_eq!(again.header("vary"), Some("Accept-Encoding"), "{url}");
        assert!(again.header("cache-control").is_some(), "{url}");
        assert_security_headers(&again, url);

        let again = client.get(url, &[("if-none-match", &plain_tag)]).await;
        assert_eq!(again.status, 304, "{url}");
        // The gzip tag does not validate the identity body, nor a stale tag.
        let other = client.get(url, &[("if-none-match", &gz_tag)]).await;
        assert_eq!(other.status, 200, "{url}");
        assert_eq!(other.body, plain.body, "{url}");
        let stale = client
            .get(
                url,
                &[("accept-encoding", "gzip"), ("if-none-match", "\"0000\"")],
            )
            .await;
        assert_eq!(stale.status, 200, "{url}");
        // A list and a weak form of the tag match too (If-None-Match
        // compares weakly).
        let weak = format!("\"x\", W/{gz_tag}");
        let listed = client
            .get(
                url,
                &[("accept-encoding", "gzip"), ("if-none-match", &weak)],
            )
            .await;
        assert_eq!(listed.status, 304, "{url}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versioned_files_are_immutable_and_everything_else_revalidates() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;
    let page = client.get("/t/abc", &[]).await;
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    // the style sheet and the joined scripts (the favicon is in the page)
    let refs = references(std::str::from_utf8(&page.body).unwrap());
    assert!(refs.len() >= 2, "{refs:?}");
    for url in &refs {
        assert!(url.contains("?v="), "{url}");
        let got = client.get(url, &[]).await;
        assert_eq!(got.status, 200, "{url}");
        let cache = got.header("cache-control").unwrap();
        assert!(
            cache.contains("immutable") && cache.contains("max-age=31536000"),
            "{url}: {cache}"
        );
        let plain = url.split('?').next().unwrap();
        let got = client.get(plain, &[]).await;
        assert_eq!(got.header("cache-control"), Some("no-cache"), "{plain}");
        let stale = client
            .get(&format!("{plain}?v=0123456789abcdef"), &[])
            .await;
        assert_eq!(stale.status, 200, "{plain}");
        assert_eq!(stale.header("cache-control"), Some("no-cache"), "{plain}");
    }
    // The language file i18n.js imports by its plain name.
    for lang in ["en", "it", "fr"] {
        let got = client.get(&format!("/static/i18n-{lang}.js"), &[]).await;
        assert_eq!(got.status, 200, "{lang}");
        assert_eq!(got.header("cache-control"), Some("no-cache"), "{lang}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn head_works_and_unknown_files_are_404() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;
    let head = client
        .request("HEAD", "/static/dom.js", &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(head.header("content-encoding"), Some("gzip"));
    assert!(head.header("etag").is_some());
    for url in [
        "/static/nope.js",
        "/static/app.js.map",
        "/static/..%2fCargo.toml",
        "/static/%2e%2e%2fsrc%2fweb.rs",
        "/static/index.html",
        "/static/",
        "/web/app.js",
        "/app.js",
    ] {
        for method in ["GET", "HEAD"] {
            let got = client
                .request(method, url, &[("accept-encoding", "gzip")])
                .await;
            assert_eq!(got.status, 404, "{method} {url}");
            assert_security_headers(&got, url);
        }
    }
}

/// Every file under `web/` is served, and the budget holds: all of them
/// gzipped, a table page's first load and a repeat visit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_weighs_within_its_budget() {
    let server = start().await;
    let mut client = Client::connect(server.addr).await;

    println!("\nWhat the client weighs (gzip, best level; 1 KB = 1,000 bytes)\n");
    println!("| file | bytes | gzip |");
    println!("|---|---:|---:|");
    let (mut raw_total, mut gz_total) = (0, 0);
    for name in web_files() {
        let url = url_of(&name);
        let got = client.get(&url, &[("accept-encoding", "gzip")]).await;
        assert_eq!(got.status, 200, "{name} is in web/ but not served at {url}");
        let raw = std::fs::metadata(web_dir().join(&name)).unwrap().len() as usize;
        println!("| {name} | {raw} | {} |", got.body.len());
        raw_total += raw;
        gz_total += got.body.len();
    }
    println!("| **all** | {raw_total} | **{gz_total}** |");
    assert!(
        gz_total <= ALL_ASSETS_GZIP,
        "all assets weigh {gz_total} bytes gzipped, over {ALL_ASSETS_GZIP}"
    );

    // A table page's first load: the page, everything it names, and the
    // language file i18n.js imports (the heaviest of the three), on a fresh
    // connection as a browser with an empty cache sends them.
    let mut heaviest = 0;
    let mut lang_url = String::new();
    for lang in ["en", "it", "fr"] {
        let url = format!("/static/i18n-{lang}.js");
        let got = client.get(&url, &[("accept-encoding", "gzip")]).await;
        if got.body.len() > heaviest {
            heaviest = got.body.len();
            lang_url = url;
        }
    }
    let mut browser = Client::connect(server.addr).await;
    let page = browser.get("/t/abc", &browser_headers("document")).await;
    assert_eq!(page.status, 200);
    let html = String::from_utf8(gunzip(&page.body)).unwrap();
    let mut urls = references(&html);
    urls.push(lang_url);
    // what the style sheets load in turn: the icons font (every table
    // page draws some icon)
    for css in urls.clone().iter().filter(|u| u.contains(".css")) {
        let got = browser.get(css, &[]).await;
        let text = String::from_utf8(got.body.to_vec()).unwrap();
        for part in text.split("url(\"").skip(1) {
            let url = part.split('"').next().unwrap();
            // the emotes' font loads only once an emote is shown in the chat
            if !url.contains("emotes.woff2") {
                urls.push(url.to_string());
            }
        }
    }
    // and the card art the page's script draws with (every table shows
    // cards or dice)
    for script in urls.clone().iter().filter(|u| u.contains("-page.js")) {
        let got = browser.get(script, &[]).await;
        let text = String::from_utf8(got.body.to_vec()).unwrap();
        let sprite = text
            .split("\"/static/cards.svg?v=")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(|v| format!("/static/cards.svg?v={v}"));
        urls.push(sprite.expect("the table page's script names the card art"));
    }
    let mut cache = vec![(
        "/t/abc".to_string(),
        "document",
        page.header("etag").unwrap().to_string(),
        page.header("cache-control").unwrap().to_string(),
    )];
    let (mut first_wire, mut first_bodies) = (page.wire, page.body.len());
    println!("\nA table page's first load (bytes on the wire both ways, headers included)\n");
    println!("| request | body | on the wire |");
    println!("|---|---:|---:|");
    println!("| /t/abc | {} | {} |", page.body.len(), page.wire);
    for url in &urls {
        let kind = kind_of(url);
        let got = browser.get(url, &browser_headers(kind)).await;
        assert_eq!(got.status, 200, "{url}");
        println!("| {url} | {} | {} |", got.body.len(), got.wire);
        first_wire += got.wire;
        first_bodies += got.body.len();
        cache.push((
            url.clone(),
            kind,
            got.header("etag").unwrap().to_string(),
            got.header("cache-control").unwrap().to_string(),
        ));
    }
    println!("| **all** | {first_bodies} | **{first_wire}** |");
    assert!(
        first_wire <= TABLE_FIRST_LOAD,
        "a table page's first load is {first_wire} bytes on the wire, over {TABLE_FIRST_LOAD}"
    );

    // A repeat visit: a browser with all of that cached asks again only
    // for what may not be reused without asking (not `immutable`), with
    // its ETag, and gets 304s.
    let mut browser = Client::connect(server.addr).await;
    let mut repeat = 0;
    println!("\nA repeat visit (revalidations only)\n");
    println!("| request | status | on the wire |");
    println!("|---|---:|---:|");
    for (url, kind, etag, cache_control) in &cache {
        if cache_control.contains("immutable") {
            println!("| {url} | from cache | 0 |");
            continue;
        }
        let mut headers = browser_headers(kind);
        headers.push(("if-none-match", etag));
        if *kind == "document" {
            headers.push(("cache-control", "max-age=0"));
        }
        let got = browser.get(url, &headers).await;
        assert_eq!(got.status, 304, "{url}");
        println!("| {url} | 304 | {} |", got.wire);
        repeat += got.wire;
    }
    println!("| **all** | | **{repeat}** |");
    assert!(
        repeat <= REPEAT_VISIT,
        "a repeat visit is {repeat} bytes on the wire, over {REPEAT_VISIT}"
    );
}

/// With `RATRACE_WEB_DIR`, the known names are read from the folder on
/// every request, uncached; nothing else in it is reachable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_folder_is_read_on_every_request() {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-web-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dom.js"), "// one\n").unwrap();
    std::fs::write(dir.join("table.html"), "<p>edited</p>").unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    let outside = dir.with_extension("outside");
    std::fs::write(&outside, "outside").unwrap();

    let app = server::web::routes_from::<()>(Some(dir.clone())).layer(
        axum::middleware::map_response(server::web::security_headers),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut client = Client::connect(addr).await;

    let got = client
        .get("/static/dom.js", &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body.as_ref(), b"// one\n");
    assert_eq!(got.header("content-encoding"), None);
    assert_eq!(got.header("cache-control"), Some("no-store"));
    assert_eq!(
        got.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_security_headers(&got, "dom.js");
    std::fs::write(dir.join("dom.js"), "export const two = 2;\n").unwrap();
    let got = client.get("/static/dom.js?v=whatever", &[]).await;
    assert_eq!(got.body.as_ref(), b"export const two = 2;\n");
    // the page's script is linked from the folder too: 404 while a module
    // is missing, 500 saying why when the modules do not link
    let got = client.get("/static/table-page.js", &[]).await;
    assert_eq!(got.status, 404, "table.js is not in the folder yet");
    std::fs::write(dir.join("table.js"), "import { one } from './dom.js';\n").unwrap();
    let got = client.get("/static/table-page.js", &[]).await;
    assert_eq!(got.status, 500);
    let why = String::from_utf8(got.body.to_vec()).unwrap();
    assert_eq!(why, "table.js imports `one`, which dom.js does not export");
    std::fs::write(
        dir.join("table.js"),
        "/* the page */\nimport { two } from './dom.js';\nuse(two);\n",
    )
    .unwrap();
    let got = client.get("/static/table-page.js", &[]).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.header("cache-control"), Some("no-store"));
    let text = String::from_utf8(got.body.to_vec()).unwrap();
    let want = "// dom.js\nconst $0 = (() => {\nconst two = 2;\nreturn { two };\n})();\n\
        // table.js\nconst $1 = (({ two }) => {\nuse(two);\nreturn {  };\n})($0);\n";
    assert_eq!(text, want);
    std::fs::remove_file(dir.join("table.js")).unwrap();

    let got = client.get("/t/xyz", &[]).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body.as_ref(), b"<p>edited</p>");
    // Known names missing from the folder, unknown names in it, and paths
    // out of it are all 404.
    let name = outside.file_name().unwrap().to_string_lossy().into_owned();
    for url in [
        "/static/table.js".to_string(),
        "/".to_string(),
        "/static/secret.txt".to_string(),
        format!("/static/..%2f{name}"),
        format!("/static/%2e%2e%2f{name}"),
    ] {
        let got = client.get(&url, &[]).await;
        assert_eq!(got.status, 404, "{url}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&outside);
}
