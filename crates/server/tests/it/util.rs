//! Test helpers: start a server, a tiny HTTP/1.1 client, a WebSocket client.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::store::{SqliteStore, Store};
use server::{AppState, Limits};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;

pub(crate) const TIMEOUT: Duration = Duration::from_secs(20);

/// A server running in the test's runtime; stops when dropped.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub(crate) fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-server-{name}-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ratrace.db")
}

pub(crate) async fn start_on(store: Arc<dyn Store>, limits: Limits) -> Server {
    start_state(store, limits).await.0
}

/// A server and its state (to look at the tables in memory, or sweep).
pub(crate) async fn start_state(store: Arc<dyn Store>, limits: Limits) -> (Server, AppState) {
    let state = AppState::open_with(store, limits).await.unwrap();
    let shared = state.clone();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server::run(listener, state, async {
        let _ = stopped.await;
    }));
    (
        Server {
            addr,
            stop: Some(stop),
        },
        shared,
    )
}

/// A private store for one test server: an in-memory SQLite database,
/// or, with `RATRACE_IT_BACKEND=postgres` and `RATRACE_TEST_PG` set (see
/// scripts/pg.sh), a fresh database on that PostgreSQL server (left for
/// the throwaway server to take away).
pub(crate) async fn fresh_store() -> Arc<dyn Store> {
    let server = std::env::var("RATRACE_TEST_PG").unwrap_or_default();
    if std::env::var("RATRACE_IT_BACKEND").as_deref() != Ok("postgres") || server.is_empty() {
        return Arc::new(SqliteStore::in_memory().unwrap());
    }
    server::store::open(&fresh_pg_database(&server).await)
        .await
        .unwrap()
}

/// Makes a fresh database on the PostgreSQL server at `server` (a URL);
/// its URL.
pub(crate) async fn fresh_pg_database(server: &str) -> String {
    let name = format!("ratrace_it_{:016x}", rand::random::<u64>());
    let (client, connection) = tokio_postgres::connect(server, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    let base = server.split('?').next().unwrap_or_default();
    let base = &base[..base.rfind('/').unwrap_or(base.len())];
    format!("{base}/{name}")
}

/// A server on a private database with the default limits.
pub(crate) async fn start() -> Server {
    start_on(fresh_store().await, Limits::default()).await
}

/// A server for games against bots with no delay: the client answers
/// faster than any person, so the rate limit is lifted.
pub(crate) async fn start_fast() -> Server {
    let limits = Limits::unlimited();
    start_on(fresh_store().await, limits).await
}

/// One HTTP/1.1 request (Connection: close); the status and JSON body
/// (Null if the body is not JSON).
pub(crate) async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, Value) {
    let (status, _, v) = request(addr, method, path, body.unwrap_or("")).await;
    (status, v)
}

/// One HTTP/1.1 request; the status, the head in lower case and the JSON
/// body (Null if the body is not JSON; axum sends Content-Length, never
/// chunks, for JSON).
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String, Value) {
    request_with(addr, method, path, body, "").await
}

/// [`request`] with extra header lines (each ending in `\r\n`).
pub(crate) async fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    headers: &str,
) -> (u16, String, Value) {
    request_from(addr, None, method, path, body, headers).await
}

/// [`http`] from the loopback address `from` (127.x.y.z: another client
/// to the server's budgets).
pub(crate) async fn http_from(
    addr: SocketAddr,
    from: [u8; 4],
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, Value) {
    let (status, _, v) = request_from(addr, Some(from), method, path, body.unwrap_or(""), "").await;
    (status, v)
}

/// [`request_with`] from the loopback address `from`, if given.
pub(crate) async fn request_from(
    addr: SocketAddr,
    from: Option<[u8; 4]>,
    method: &str,
    path: &str,
    body: &str,
    headers: &str,
) -> (u16, String, Value) {
    let mut s = match from {
        None => TcpStream::connect(addr).await.unwrap(),
        Some(from) => {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket
                .bind(SocketAddr::from((std::net::Ipv4Addr::from(from), 0)))
                .unwrap();
            socket.connect(addr).await.unwrap()
        }
    };
    let path = with_key(path);
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(TIMEOUT, s.read_to_end(&mut raw))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, payload) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (
        status,
        head.to_ascii_lowercase(),
        serde_json::from_str(payload).unwrap_or(Value::Null),
    )
}

/// How many actions table `id` has applied.
pub(crate) async fn seq_of(addr: SocketAddr, id: &str) -> u64 {
    let (_, info) = http(addr, "GET", &format!("/api/tables/{id}"), None).await;
    info["seq"].as_u64().unwrap()
}

/// The invite keys of the private tables the tests made, by table id.
static KEYS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// `path` as the web client asks it: a private table's record, replay
/// and analysis with the invite key this test client was given when it
/// created the table (`?k=`), unless the path has a query already.
pub(crate) fn with_key(path: &str) -> String {
    let shown = ["/record", "/replay/", "/analysis"];
    let id = path
        .strip_prefix("/api/tables/")
        .and_then(|rest| rest.split('/').next());
    match id.and_then(key_of) {
        Some(k) if !path.contains('?') && shown.iter().any(|s| path.contains(s)) => {
            format!("{path}?k={k}")
        }
        _ => path.to_string(),
    }
}

pub(crate) fn key_of(id: &str) -> Option<String> {
    let keys = KEYS.lock().unwrap();
    keys.iter().find(|(t, _)| t == id).map(|(_, k)| k.clone())
}

/// Creates a table; remembers its invite key for [`join`].
pub(crate) async fn create(addr: SocketAddr, body: Value) -> String {
    let v = create_full(addr, body).await;
    v["id"].as_str().unwrap().to_string()
}

/// Creates a table; the whole answer (id, invite, key, creator).
pub(crate) async fn create_full(addr: SocketAddr, body: Value) -> Value {
    let (status, v) = http(addr, "POST", "/api/tables", Some(&body.to_string())).await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["seed_hash"].as_str().unwrap().len(), 64);
    let id = v["id"].as_str().unwrap().to_string();
    if let Some(k) = v["key"].as_str() {
        KEYS.lock().unwrap().push((id, k.to_string()));
    }
    v
}

/// The fair-deal contribution every test player sends.
pub(crate) const CONTRIBUTION: &str =
    "abababababababababababababababababababababababababababababababab";

pub(crate) async fn join(addr: SocketAddr, id: &str, seat: &str) -> String {
    let body = json!({"seat": seat, "name": format!("player {seat}"), "key": key_of(id),
                      "contribution": CONTRIBUTION})
    .to_string();
    let (status, v) = http(addr, "POST", &format!("/api/tables/{id}/join"), Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["seat"], seat);
    v["token"].as_str().unwrap().to_string()
}

pub(crate) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub(crate) struct Ws {
    pub(crate) socket: Socket,
    /// The table it is connected to (a spectator shows a private table's
    /// key, remembered by [`create`]).
    table: String,
    /// The last whole state, kept up to date by the `update`s.
    state: Option<Value>,
}

/// Applies an `update` message to the whole `state` it follows, as a
/// client does: checks the revision, patches the view with an independent
/// RFC 6902 implementation, and takes the other fields as they come.
pub(crate) fn apply_update(state: &mut Value, update: &Value) {
    assert_eq!(
        update["rev"].as_u64(),
        state["rev"].as_u64().map(|r| r + 1),
        "an update was skipped: {update}"
    );
    let patch: json_patch::Patch = serde_json::from_value(update["patch"].clone()).unwrap();
    json_patch::patch(&mut state["view"], &patch)
        .unwrap_or_else(|e| panic!("the patch does not apply: {e}: {update}"));
    for k in [
        "rev", "seq", "legal", "to_move", "log_from", "log", "over", "started",
    ] {
        state[k] = update[k].clone();
    }
    for k in ["outcome", "seed", "secret", "abandoned", "seats"] {
        match update.get(k) {
            Some(v) => state[k] = v.clone(),
            None if k == "seats" => {}
            None if k == "outcome" || k == "seed" => state[k] = Value::Null,
            None => {
                state.as_object_mut().unwrap().remove(k);
            }
        }
    }
}

impl Ws {
    pub(crate) async fn connect(addr: SocketAddr, id: &str) -> Ws {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}"))
            .await
            .unwrap();
        Ws {
            socket,
            table: id.to_string(),
            state: None,
        }
    }

    /// [`Ws::connect`] from the loopback address `from` (127.x.y.z: the
    /// whole 127/8 is this machine), another client address to the
    /// server's budgets.
    pub(crate) async fn connect_from(addr: SocketAddr, id: &str, from: [u8; 4]) -> Ws {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket
            .bind(SocketAddr::from((std::net::Ipv4Addr::from(from), 0)))
            .unwrap();
        let tcp = socket.connect(addr).await.unwrap();
        let (socket, _) = tokio_tungstenite::client_async(
            format!("ws://{addr}/ws/{id}"),
            tokio_tungstenite::MaybeTlsStream::Plain(tcp),
        )
        .await
        .unwrap();
        Ws {
            socket,
            table: id.to_string(),
            state: None,
        }
    }

    pub(crate) async fn send_text(&mut self, text: String) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends `v`; a spectator's hello (no token, no key) gets the
    /// table's invite key, as the web client's does.
    pub(crate) async fn send(&mut self, mut v: Value) {
        if v["type"] == "hello"
            && v.get("token").is_none_or(Value::is_null)
            && v.get("key").is_none()
        {
            if let Some(k) = key_of(&self.table) {
                v["key"] = json!(k);
            }
        }
        self.send_text(v.to_string()).await;
    }

    /// The next text message (raw), or None when the connection closes.
    pub(crate) async fn next_raw(&mut self) -> Option<String> {
        loop {
            let m = tokio::time::timeout(TIMEOUT, self.socket.next())
                .await
                .expect("no message in time");
            match m {
                Some(Ok(Message::Text(t))) => return Some(t.to_string()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next message; an `update` is applied to the last state and
    /// comes back as the whole new `state`, as a client would show it.
    pub(crate) async fn next(&mut self) -> Value {
        self.next_with_raw().await.1
    }

    /// [`Ws::next`], with the message as it came on the wire.
    pub(crate) async fn next_with_raw(&mut self) -> (String, Value) {
        let raw = self.next_raw().await.expect("connection closed");
        let v: Value = serde_json::from_str(&raw).unwrap();
        let v = match v["type"].as_str() {
            Some("state") => {
                self.state = Some(v.clone());
                v
            }
            Some("update") => {
                let state = self.state.as_mut().expect("an update before any state");
                apply_update(state, &v);
                state.clone()
            }
            Some("presence") => {
                // Who is connected changes between updates: a client takes
                // the seats from here as well (the table page does).
                if let Some(state) = self.state.as_mut() {
                    state["seats"] = v["seats"].clone();
                }
                v
            }
            _ => v,
        };
        (raw, v)
    }

    /// The next message of type `kind`, skipping others.
    pub(crate) async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// Says hello with `token`, or as a spectator (with the table's
    /// invite key if it is private); the first answer.
    pub(crate) async fn hello(&mut self, token: Option<&str>) -> Value {
        self.send(json!({"type": "hello", "token": token, "lang": "en"}))
            .await;
        self.next().await
    }
}

/// The server's side of its TCP connections on `port`, as the kernel
/// lists them (`/proc/net/tcp` and `tcp6`): sockets whose local port is
/// `port`, in any state but listening and `TIME_WAIT` (a closed
/// connection's memory of itself, with no buffer and no descriptor). What
/// a peer outside the process sees open, whatever the server's own gauges
/// say.
pub(crate) fn server_sockets(port: u16) -> usize {
    // The kernel writes the list while sockets come and go: one may be
    // listed twice, so each is counted once, by its addresses.
    let mut seen = std::collections::HashSet::new();
    for text in ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
    {
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(remote), Some(state)) = (f.get(1), f.get(2), f.get(3)) else {
                continue;
            };
            let local_port = local
                .rsplit(':')
                .next()
                .and_then(|h| u16::from_str_radix(h, 16).ok());
            if local_port == Some(port) && *state != "0A" && *state != "06" {
                seen.insert(format!("{local} {remote}"));
            }
        }
    }
    seen.len()
}

/// A long Dalmuti session of five bots at full speed (100 hands, no delay):
/// a stream of updates for whoever watches. Its id.
pub(crate) async fn bot_session(addr: SocketAddr) -> String {
    let seats = json!([{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    create(
        addr,
        json!({"game": "dalmuti", "players": 5, "options": {"hands": 100}, "seats": seats,
               "bot_delay_ms": 0}),
    )
    .await
}

/// A spectator of table `id` whose socket has a receive buffer of
/// `buffer` bytes, after its `hello`; whoever holds it decides whether it
/// reads.
pub(crate) async fn slow_spectator(addr: SocketAddr, id: &str, buffer: u32) -> Socket {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(buffer).unwrap();
    let tcp = socket.connect(addr).await.unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(
        format!("ws://{addr}/ws/{id}"),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .unwrap();
    let hello = json!({"type": "hello", "key": key_of(id)});
    slow.send(Message::Text(hello.to_string().into()))
        .await
        .unwrap();
    slow
}
