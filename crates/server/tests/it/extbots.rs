//! Bot programs at the server: levels the operator offers with
//! `ratrace serve --bot NAME=CMD`, played by child processes over
//! `ratrace-bot/1`; misbehaving programs, the process cap, names a client
//! may not give; and `examples/bots/remote_client.py` and `.mjs` playing
//! seats as WebSocket clients.

use super::play::play_to_end;
use super::util::*;
use crate::protocol_doc;
use serde_json::{json, Value};
use server::extbots::{ExternalBots, Program};
use server::{AppState, Limits};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn random_bot() -> String {
    format!(
        "python3 {}",
        root().join("examples/bots/random_bot.py").display()
    )
}

/// A fast server offering `programs` (name, command), each decision
/// limited to `move_ms`, at most `cap` processes.
pub(crate) async fn start_with(
    programs: &[(&str, String)],
    move_ms: u64,
    cap: usize,
) -> (Server, AppState) {
    start_limited(programs, move_ms, cap, Limits::unlimited()).await
}

/// [`start_with`] under these limits.
pub(crate) async fn start_limited(
    programs: &[(&str, String)],
    move_ms: u64,
    cap: usize,
    limits: Limits,
) -> (Server, AppState) {
    let (server, state) = start_state(fresh_store().await, limits).await;
    let programs = programs
        .iter()
        .map(|(n, c)| Program {
            game: None,
            name: n.to_string(),
            command: c.clone(),
        })
        .collect();
    let bots = ExternalBots::new(programs, move_ms, cap)
        .unwrap()
        .with_sandbox(logs_allowed());
    assert!(state.offer_bots(bots));
    (server, state)
}

/// The sandbox of these tests' programs: the default one, but for writing
/// in the temporary folder (their logs of what they were sent).
pub(crate) fn logs_allowed() -> extbot::Sandbox {
    extbot::Sandbox {
        writable: vec![std::env::temp_dir()],
        ..extbot::Sandbox::default()
    }
}

/// Waits until no bot process slot is held (every process ended).
pub(crate) async fn slots_given_back(state: &AppState) {
    let bots = state.external_bots();
    let until = Instant::now() + Duration::from_secs(10);
    while bots.in_use() > 0 {
        assert!(Instant::now() < until, "{} slots still held", bots.in_use());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A figure of `/metrics`.
pub(crate) async fn metric(server: &Server, name: &str) -> f64 {
    let raw = raw_get(server, "/metrics").await;
    raw.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in\n{raw}"))
}

pub(crate) async fn raw_get(server: &Server, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    String::from_utf8_lossy(&raw).to_string()
}

/// Creates a table; P1 human (this test) joins, says hello and plays it
/// to the end. The last state.
pub(crate) async fn play_table(server: &Server, body: Value) -> (String, Value) {
    let id = create(server.addr, body).await;
    let token = join(server.addr, &id, "P1").await;
    let mut ws = Ws::connect(server.addr, &id).await;
    let first = ws.hello(Some(&token)).await;
    assert_eq!(first["type"], "state", "{first}");
    (id, play_to_end(&mut ws, "P1", first).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_program_is_a_level_and_plays_whole_games() {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-extbots-in-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // Everything each process is sent is kept, one file per process.
    // (a name of its own from mktemp: in its PID namespace every program
    // is process 1)
    let tee = format!(
        "tee -a \"$(mktemp -p '{}' in-XXXXXX.log)\" | {}",
        dir.display(),
        random_bot()
    );
    let (server, state) = start_with(&[("pyrandom", tee)], 2000, 8).await;
    // The lobby offers it after the ladder.
    let (_, games) = http(server.addr, "GET", "/api/games", None).await;
    for g in games.as_array().unwrap() {
        assert_eq!(g["external"], json!(["pyrandom"]), "{g}");
        assert!(g["bots"].as_array().unwrap().contains(&json!("heuristic")));
    }
    for (game, players) in [("dalmuti", 4), ("bigcheese", 3)] {
        let mut seats = vec![json!({"kind": "human"})];
        seats.extend((1..players).map(|_| json!({"kind": "bot", "bot": "pyrandom"})));
        let (id, last) = play_table(
            &server,
            json!({"game": game, "players": players, "seats": seats, "bot_delay_ms": 1}),
        )
        .await;
        assert!(last["outcome"].is_object(), "{last}");
        let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
        assert_eq!(info["status"], "finished");
        assert_eq!(info["seats"][1]["bot"], "pyrandom");
        // The processes end with the game, and give their slots back.
        slots_given_back(&state).await;
    }
    // A well-behaved bot earns no strike: it got its start, its seat's
    // events and every decision right.
    assert_eq!(metric(&server, "ratrace_bot_strikes_total").await, 0.0);
    assert_eq!(metric(&server, "ratrace_stand_in_seats_total").await, 0.0);
    assert_eq!(metric(&server, "ratrace_bot_processes").await, 0.0);
    // The processes really played: one per bot seat and game, each told
    // `start` for its seat, its seat's events only (a deal is private),
    // every decision, and the end; never the seed.
    let mut files = 0;
    for f in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        files += 1;
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["type"], "start", "{text}");
        let seat = lines[0]["seat"].clone();
        assert_ne!(seat, "P1");
        let kinds = |k: &str| lines.iter().filter(|l| l["type"] == k).count();
        assert!(kinds("act") > 0 && kinds("event") > 0, "{text}");
        assert_eq!(kinds("end"), 1, "{text}");
        assert!(!text.contains("\"seed\""), "{text}");
        for l in &lines {
            if l["event"]["kind"] == "dealt" {
                assert_eq!(l["event"]["seat"], seat, "another seat's deal: {l}");
            }
            if l["type"] == "act" {
                // Its own view (Dalmuti names the seat `seat`, Big Cheese `me`).
                let me = match &l["view"]["seat"] {
                    Value::Null => &l["view"]["me"],
                    s => s,
                };
                assert_eq!(*me, seat, "{l}");
            }
        }
    }
    assert_eq!(files, 3 + 2, "one process per bot seat and game");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live processes (zombies left out) whose command line holds
/// `marker`, from the kernel's list: a sandboxed program sees only its
/// own PID namespace, so what it says of its PIDs means nothing here.
pub(crate) fn processes_with(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            out.push(pid);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misbehaving_bot_programs_never_hurt_the_game_and_leave_no_process() {
    let dir = std::env::temp_dir().join(format!(
        "ratrace-extbots-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // Every process of these programs names the test's folder on its
    // command line.
    let marker = dir.display().to_string();
    // Exits at once.
    let crash = dir.join("crash.sh");
    std::fs::write(&crash, "exit 3\n").unwrap();
    // Says ready, starts a child of its own (which leaves its session),
    // then never answers a decision.
    let hang = dir.join("hang.sh");
    std::fs::write(
        &hang,
        format!(
            "setsid python3 -c 'import time; time.sleep(1000)' '{marker}' &\n\
             while read -r line; do\n  case \"$line\" in\n\
             *'\"type\":\"start\"'*) echo '{{\"type\":\"ready\",\"name\":\"hang\",\"protocol\":1}}' ;;\n\
             *'\"type\":\"act\"'*) sleep 1000 ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    let (server, state) = start_with(
        &[
            ("crash", format!("sh '{}'", crash.display())),
            ("hang", format!("sh '{}'", hang.display())),
        ],
        300,
        8,
    )
    .await;
    let (id, last) = play_table(
        &server,
        json!({"game": "dalmuti", "players": 4, "bot_delay_ms": 1, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "crash"},
            {"kind": "bot", "bot": "hang"}, {"kind": "bot", "bot": "heuristic"}]}),
    )
    .await;
    // The game finished, both programs' seats played by the stand-in.
    assert!(last["outcome"].is_object(), "{last}");
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["status"], "finished");
    // The crash is one strike; the hang three (then it is replaced).
    assert!(metric(&server, "ratrace_bot_strikes_total").await >= 4.0);
    // Neither program made its own decisions: the result credits both
    // seats to the stand-in, not to the programs.
    let until = Instant::now() + Duration::from_secs(5);
    while metric(&server, "ratrace_stand_in_seats_total").await < 2.0 {
        assert!(
            Instant::now() < until,
            "the seats were credited to the programs"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(metric(&server, "ratrace_stand_in_seats_total").await, 2.0);
    slots_given_back(&state).await;
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_with(&marker);
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < until, "left behind: {left:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table whose programs could never all run at once is refused with a
/// clear error; making a table takes no process slot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_process_cap_refuses_a_table_with_a_clear_error() {
    let (server, state) = start_with(&[("pyrandom", random_bot())], 2000, 2).await;
    let body = |n: usize| {
        let mut seats = vec![json!({"kind": "human"})];
        seats.extend((0..n).map(|_| json!({"kind": "bot", "bot": "pyrandom"})));
        seats.extend((n..3).map(|_| json!({"kind": "bot", "bot": "heuristic"})));
        json!({"game": "dalmuti", "players": 4, "seats": seats}).to_string()
    };
    let (status, v) = http(server.addr, "POST", "/api/tables", Some(&body(3))).await;
    assert_eq!(status, 503, "{v}");
    assert_eq!(v["error"]["code"], "busy", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 2 bot programs"), "{message}");
    assert_eq!(state.external_bots().in_use(), 0, "a refusal holds nothing");
    // Tables nobody plays hold no slot, however many.
    for _ in 0..3 {
        create(server.addr, serde_json::from_str(&body(2)).unwrap()).await;
    }
    assert_eq!(state.external_bots().in_use(), 0);
    let metrics = state.metrics().render(0);
    assert!(
        metrics.contains("ratrace_refusals_total{kind=\"bot_processes_per_ip\"} 1"),
        "{metrics}"
    );
    // Built-in levels still work.
    create(server.addr, serde_json::from_str(&body(0)).unwrap()).await;
}

/// Seats nobody came to, with a bot program: the creator gives a seat whose
/// human never came to an offered program, which takes a process slot when it
/// first decides and plays to the end; a fill while no slot is free is refused
/// as `busy` and the seat stays open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_filled_with_a_bot_program_takes_a_slot_and_plays() {
    let limits = Limits {
        fill_after: Duration::ZERO,
        ..Limits::unlimited()
    };
    let (server, state) = start_limited(&[("pyrandom", random_bot())], 2000, 1, limits).await;
    let body = json!({"game": "bigcheese", "players": 3, "bot_delay_ms": 1,
                      "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]});
    let fill = |id: &str, creator: &str| {
        (
            format!("/api/tables/{id}/fill"),
            json!({"seat": "P2", "creator": creator, "bot": "pyrandom"}).to_string(),
        )
    };
    let a = create_full(server.addr, body.clone()).await;
    let b = create_full(server.addr, body).await;
    let (a_id, b_id) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let token = join(server.addr, a_id, "P1").await;
    join(server.addr, b_id, "P1").await;
    let (path, req) = fill(a_id, a["creator"].as_str().unwrap());
    let (status, _, v) = request(server.addr, "POST", &path, &req).await;
    assert_eq!(status, 204, "{v}");
    // The fill completes the table: its game starts, and the program
    // takes its slot with it.
    assert_eq!(state.external_bots().in_use(), 1);
    let mut ws = Ws::connect(server.addr, a_id).await;
    let m = ws.hello(Some(&token)).await;
    // The cap is 1, held: the other table's fill is refused and changes
    // nothing.
    let (path, req) = fill(b_id, b["creator"].as_str().unwrap());
    let (status, _, v) = request(server.addr, "POST", &path, &req).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (503, Some("busy")),
        "{v}"
    );
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{b_id}"), None).await;
    assert_eq!(info["seats"][1]["kind"], "human", "{info}");
    assert!(state
        .metrics()
        .render(0)
        .contains("ratrace_refusals_total{kind=\"bot_processes"));

    // The program plays its seat to the end, then gives its slot back.
    let last = play_to_end(&mut ws, "P1", m).await;
    assert!(last["outcome"].is_object(), "{last}");
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{a_id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(info["seats"][1]["bot"], "pyrandom");
    slots_given_back(&state).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_names_only_offered_bots_and_never_a_command() {
    let (server, _state) = start_with(&[("pyrandom", random_bot())], 2000, 4).await;
    for bot in ["nosuch", "cmd:python3 x.py", "python3 x.py", "pyrandom2"] {
        let body = json!({"game": "dalmuti", "players": 4,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]});
        let (status, v) = http(server.addr, "POST", "/api/tables", Some(&body.to_string())).await;
        assert_eq!(status, 400, "{bot}: {v}");
        assert_eq!(v["error"]["code"], "bad_input");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("unknown bot"), "{message}");
        assert!(
            message.contains("pyrandom"),
            "names the offered levels: {message}"
        );
    }
    // A server that offers none knows no such level.
    let plain = start_fast().await;
    let body = json!({"game": "dalmuti", "players": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "pyrandom"}]});
    let (status, _) = http(plain.addr, "POST", "/api/tables", Some(&body.to_string())).await;
    assert_eq!(status, 400);
    // Names are checked when offered.
    assert!(Program::parse("heuristic=true").is_err());
    assert!(Program::parse("Bad Name=true").is_err());

    // A program offered for one game is a level of that game only.
    let (server, state) = start_state(fresh_store().await, Limits::unlimited()).await;
    let bots = ExternalBots::new(
        vec![Program::parse(&format!("dalmuti:pyrandom={}", random_bot())).unwrap()],
        2000,
        4,
    )
    .unwrap();
    assert!(state.offer_bots(bots));
    let (_, games) = http(server.addr, "GET", "/api/games", None).await;
    let external = |g: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == g)
            .map(|d| d["external"].clone())
            .unwrap()
    };
    assert_eq!(external("dalmuti"), json!(["pyrandom"]));
    assert_eq!(external("bigcheese"), json!([]));
    let body = json!({"game": "bigcheese", "players": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "pyrandom"}]});
    let (status, v) = http(server.addr, "POST", "/api/tables", Some(&body.to_string())).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown bot `pyrandom`"));
}

/// Table ids, tokens and keys are URL-safe base64, so one in 64 starts
/// with "-"; the example client must take it as the option's value, not as
/// an option (this once failed the test below by chance).
#[test]
fn remote_clients_take_values_that_start_with_a_dash() {
    for (program, script) in [
        ("python3", "remote_client.py"),
        ("node", "remote_client.mjs"),
    ] {
        let out = std::process::Command::new(program)
            .arg(root().join("examples/bots").join(script))
            .args([
                "--url",
                "http://127.0.0.1:1",
                "--table",
                "-Ab",
                "--token",
                "-t",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        // It got past its arguments and tried the (closed) port.
        assert!(
            stderr.contains("cannot reach http://127.0.0.1:1"),
            "{script}: {stderr}"
        );
    }
}

/// `examples/bots/remote_client.py` and its Node twin `remote_client.mjs`
/// play the four seats of one game over real WebSockets: each client once
/// with a token handed over, once joining a seat itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_clients_in_python_and_node_play_their_seats_to_the_end() {
    let server = start_fast().await;
    let id = create(
        server.addr,
        json!({"game": "dalmuti", "players": 4, "options": {"hands": "2"}, "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let url = format!("http://{}", server.addr);
    let key = key_of(&id).unwrap();
    // the four command lines docs/bot-protocol.md gives, as written but
    // for the placeholders: P1's and P3's tokens are joined here and
    // handed over; the other two clients join P2 and P4 themselves
    let lines = doc_client_lines();
    assert_eq!(lines.len(), 4, "{lines:?}");
    let mut tokens = vec![
        join(server.addr, &id, "P1").await,
        join(server.addr, &id, "P3").await,
    ]
    .into_iter();
    let clients: Vec<_> = lines
        .into_iter()
        .map(|line| {
            let mut line = line
                .replace("http://HOST:8080", &url)
                .replace(" ID ", &format!(" {id} "))
                .replace(" KEY", &format!(" {key}"));
            if line.contains("TOKEN") {
                line = line.replace("TOKEN", &tokens.next().unwrap());
            }
            tokio::task::spawn_blocking(move || run_line(&line, Duration::from_secs(120)))
        })
        .collect();
    for client in clients {
        let (line, out) = client.await.unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{line}\n{stdout}\n{stderr}");
        let last: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert!(last["outcome"]["places"].is_array(), "{stdout}");
    }
    let (_, info) = http(server.addr, "GET", &format!("/api/tables/{id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(info["seats"][1]["name"], "Ann");
    assert_eq!(info["seats"][3]["name"], "Bea");
}

/// The remote clients' command lines in docs/bot-protocol.md: the lines
/// of its shell blocks that run `examples/bots/remote_client.*`.
fn doc_client_lines() -> Vec<String> {
    protocol_doc::shell_lines(&root())
        .into_iter()
        .filter(|l| l.contains("examples/bots/remote_client."))
        // a trailing `# comment` is for the reader
        .map(|l| l.split(" # ").next().unwrap_or_default().trim().to_string())
        .collect()
}

/// Runs `line` with `sh -c` from the repository's root, killed after
/// `limit`; the line and what it printed.
fn run_line(line: &str, limit: Duration) -> (String, std::process::Output) {
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (line.to_string(), child.wait_with_output().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloaded_table_starts_a_fresh_process_that_hears_the_game_so_far() {
    let db = temp_db("extbots-reload");
    let dir = db.parent().unwrap().to_path_buf();
    let tee = format!(
        "tee -a \"$(mktemp -p '{}' in-XXXXXX.log)\" | {}",
        dir.display(),
        random_bot()
    );
    let offered = |state: &AppState| {
        let p = Program {
            game: None,
            name: "pyrandom".into(),
            command: tee.clone(),
        };
        let bots = ExternalBots::new(vec![p], 2000, 4)
            .unwrap()
            .with_sandbox(logs_allowed());
        assert!(state.offer_bots(bots));
    };
    let store = || -> std::sync::Arc<dyn server::store::Store> {
        std::sync::Arc::new(server::store::SqliteStore::open(&db).unwrap())
    };
    let (first, state) = start_state(store(), Limits::unlimited()).await;
    offered(&state);
    let id = create(
        first.addr,
        json!({"game": "dalmuti", "players": 4, "bot_delay_ms": 1, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "pyrandom"},
            {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]}),
    )
    .await;
    let token = join(first.addr, &id, "P1").await;
    let mut ws = Ws::connect(first.addr, &id).await;
    let mut m = ws.hello(Some(&token)).await;
    // Play until the program has decided at least once.
    let logs = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "log"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        v.sort_by_key(String::len);
        v
    };
    let mut acted_at = None;
    while !logs().iter().any(|l| l.contains("\"type\":\"act\"")) {
        assert_ne!(m["over"], true, "the game ended too soon for this test");
        let seq = m["seq"].as_u64().unwrap_or(0);
        let legal = m["legal"].as_array().cloned().unwrap_or_default();
        if m["type"] == "state"
            && m["to_move"] == "P1"
            && !legal.is_empty()
            && acted_at != Some(seq)
        {
            acted_at = Some(seq);
            ws.send(json!({"type": "act", "seq": seq, "action": legal[0]}))
                .await;
        }
        m = ws.next().await;
    }
    drop(ws);
    state.drain().await;
    drop(first);
    slots_given_back(&state).await;
    // A new server on the same database loads the table again.
    let (second, state2) = start_state(store(), Limits::unlimited()).await;
    offered(&state2);
    let mut ws = Ws::connect(second.addr, &id).await;
    let first_state = ws.hello(Some(&token)).await;
    let last = play_to_end(&mut ws, "P1", first_state).await;
    assert!(last["outcome"].is_object(), "{last}");
    slots_given_back(&state2).await;
    let logs = logs();
    assert_eq!(logs.len(), 2, "a fresh process after the reload");
    for text in &logs {
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["type"], "start");
        assert_eq!(lines[0]["seat"], "P2");
        // Before its first decision each process hears its own deal.
        let first_act = lines.iter().position(|l| l["type"] == "act").unwrap();
        assert!(
            lines[..first_act]
                .iter()
                .any(|l| l["event"]["kind"] == "dealt" && l["event"]["seat"] == "P2"),
            "{text}"
        );
    }
    // The second process heard the whole game so far before deciding.
    assert!(logs[1].contains("\"type\":\"end\""), "{}", logs[1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_bot_program_is_no_longer_offered_still_plays() {
    let db = temp_db("extbots-gone");
    let store = || -> std::sync::Arc<dyn server::store::Store> {
        std::sync::Arc::new(server::store::SqliteStore::open(&db).unwrap())
    };
    let (first, state) = start_state(store(), Limits::unlimited()).await;
    let p = Program {
        game: None,
        name: "pyrandom".into(),
        command: random_bot(),
    };
    assert!(state.offer_bots(ExternalBots::new(vec![p], 2000, 4).unwrap()));
    let id = create(
        first.addr,
        json!({"game": "bigcheese", "players": 3, "bot_delay_ms": 1, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "pyrandom"}, {"kind": "bot"}]}),
    )
    .await;
    let token = join(first.addr, &id, "P1").await;
    state.drain().await;
    drop(first);
    slots_given_back(&state).await;
    // The operator restarts without --bot: the seat's level is gone, the
    // table still loads and the heuristic bot plays the seat.
    let second = start_on(store(), Limits::unlimited()).await;
    let mut ws = Ws::connect(second.addr, &id).await;
    let first_state = ws.hello(Some(&token)).await;
    assert_eq!(first_state["type"], "state", "{first_state}");
    let last = play_to_end(&mut ws, "P1", first_state).await;
    assert!(last["outcome"].is_object(), "{last}");
}
