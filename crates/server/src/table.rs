//! One task per live table: it owns the game, the seats, the bots and the
//! connections' outboxes, and is the only writer of its table.
//!
//! The task is generic over the game (`G: Hosted`); the rest of the server
//! talks to it only through [`TableHandle`], a channel of game-agnostic
//! [`Command`]s, so the registry holds tables of both games without a trait
//! object. Every action is checked by the engine, appended to the store
//! (transaction committed, through `spawn_blocking`) and only then applied
//! and broadcast. Each connection is sent what its seat may know: its own
//! view and the log lines visible to it; a spectator the public view. No
//! lock exists here at all: the task's state is its own.

use crate::error::Error;
use crate::protocol::{ErrorCode, SeatStatus, ServerMsg, StateMsg};
use crate::store::{SeatKind, Store, StoredAction, StoredSeat, StoredTable, TableConfig};
use bots::{Bot, Roster};
use game::{ActError, Game, Record, Seat};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// A game the server can host: a bot roster, plus what the whole table may
/// know about whose turn it is.
pub trait Hosted: Roster {
    /// Whose decision it is, as everybody may know it. Dalmuti hides the
    /// holder of both Jesters during the revolution decision (D7).
    fn public_to_move(&self) -> Option<Seat> {
        self.to_move()
    }
}

impl Hosted for bigcheese::BigCheese {}

impl Hosted for dalmuti::Dalmuti {
    fn public_to_move(&self) -> Option<Seat> {
        if self.phase() == dalmuti::Phase::Revolution {
            None
        } else {
            self.to_move()
        }
    }
}

/// A message for a connection: JSON text.
pub type Outbox = mpsc::Sender<String>;

/// What the rest of the server may ask of a table.
#[derive(Debug)]
pub enum Command {
    /// A connection says hello (with a seat token, or none to spectate).
    /// The answer is its seat; on a bad token the error has already been
    /// sent to `out`.
    Hello {
        /// The connection id.
        conn: u64,
        /// The seat token, if any.
        token: Option<String>,
        /// Where the connection's messages go.
        out: Outbox,
        /// The seat (`None` = spectator), or `Err` for a bad token.
        reply: oneshot::Sender<Result<Option<Seat>, ()>>,
    },
    /// A connection acts for its seat. Errors and new states go to its
    /// outbox.
    Act {
        /// The connection id.
        conn: u64,
        /// The actions the client has seen.
        seq: u64,
        /// The action text.
        action: String,
    },
    /// A connection went away.
    Leave {
        /// The connection id.
        conn: u64,
    },
    /// A person joins a free human seat.
    Join {
        /// The seat asked for, or the first free one.
        seat: Option<Seat>,
        /// The display name.
        name: String,
        /// The seat and its token.
        reply: oneshot::Sender<Result<(Seat, String), Error>>,
    },
    /// The table's public description (lobby `GET /api/tables/{id}`).
    Info {
        /// The JSON answer.
        reply: oneshot::Sender<serde_json::Value>,
    },
}

/// The way to reach a table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    tx: mpsc::Sender<Command>,
}

impl TableHandle {
    /// Sends a command; `Err` if the task has stopped.
    pub async fn send(&self, cmd: Command) -> Result<(), Error> {
        self.tx
            .send(cmd)
            .await
            .map_err(|_| Error::Internal("table task stopped".to_string()))
    }
}

/// Hex SHA-256 of a text.
pub fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The stored table as a game record (actions as `SEAT ACTION`).
pub fn record_of(t: &StoredTable) -> Record {
    Record {
        game: t.game.clone(),
        rules_version: t.rules_version.clone(),
        players: t.players,
        options: t.options.clone(),
        seed: t.seed.into(),
        actions: t
            .actions
            .iter()
            .map(|a| format!("{} {}", a.seat, a.action))
            .collect(),
        outcome: None,
        seed_hash: Some(t.seed_hash.clone()),
        fairness: None,
    }
}

/// Starts the task of a stored table (new, or resumed by replaying its
/// actions). `closing` stops it when the server shuts down.
pub fn spawn(
    stored: StoredTable,
    store: Arc<dyn Store>,
    closing: watch::Receiver<bool>,
) -> Result<TableHandle, String> {
    crate::with_game!(stored.game.as_str(), G => spawn_game::<G>(stored, store, closing),
        _ => Err(format!("unknown game `{}`", stored.game)))
}

fn spawn_game<G: Hosted>(
    stored: StoredTable,
    store: Arc<dyn Store>,
    closing: watch::Receiver<bool>,
) -> Result<TableHandle, String> {
    for (i, a) in stored.actions.iter().enumerate() {
        if a.seq != i as u64 + 1 {
            return Err(format!(
                "table {}: action seq {} out of order",
                stored.id, a.seq
            ));
        }
    }
    let game: G = record_of(&stored)
        .replay(true, |_, _, _| {})
        .map_err(|e| format!("table {}: {e}", stored.id))?;
    let now = Instant::now();
    let mut bots: Vec<Option<Box<dyn Bot<G>>>> = Vec::new();
    for s in &stored.seats {
        bots.push(match &s.kind {
            SeatKind::Bot(name) => Some(G::bot(name, rand::random())?),
            SeatKind::Human { .. } => None,
        });
    }
    let finished = game.outcome().is_some();
    let table = Table {
        id: stored.id,
        seq: stored.actions.len() as u64,
        options: stored.options,
        players: stored.players,
        seed: stored.seed,
        seed_hash: stored.seed_hash,
        config: stored.config,
        created_at: stored.created_at,
        seats: stored.seats,
        bots,
        stand_ins: Vec::new(),
        game,
        subs: Vec::new(),
        absent_since: [Some(now); Seat::MAX],
        turn_started: now,
        finished,
        store,
        legal: Vec::new(),
    };
    let (tx, rx) = mpsc::channel(256);
    tokio::spawn(table.run(rx, closing));
    Ok(TableHandle { tx })
}

struct Sub {
    conn: u64,
    seat: Option<Seat>,
    out: Outbox,
    /// Raw log entries already looked at.
    log_pos: usize,
    /// Visible log lines already sent.
    log_sent: usize,
}

struct Table<G: Hosted> {
    id: String,
    seq: u64,
    options: BTreeMap<String, String>,
    players: usize,
    seed: u64,
    seed_hash: String,
    config: TableConfig,
    created_at: i64,
    seats: Vec<StoredSeat>,
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    /// Heuristic bots playing for absent humans (and unconfigured seats
    /// that join a Dalmuti session), made on first use.
    stand_ins: Vec<Option<Box<dyn Bot<G>>>>,
    game: G,
    subs: Vec<Sub>,
    /// Per seat: since when no client is connected for it.
    absent_since: [Option<Instant>; Seat::MAX],
    /// When the current decision became due.
    turn_started: Instant,
    finished: bool,
    store: Arc<dyn Store>,
    legal: Vec<G::Action>,
}

/// How a seat is played right now.
enum Player {
    Bot,
    Human,
}

impl<G: Hosted> Table<G> {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut closing: watch::Receiver<bool>) {
        loop {
            if *closing.borrow() {
                break;
            }
            let deadline = self.deadline();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = sleep_until(deadline), if deadline.is_some() => self.bot_turn().await,
                _ = closing.changed() => break,
            }
        }
    }

    fn player(&self, seat: Seat) -> Player {
        match self.seats.get(seat.index()).map(|s| &s.kind) {
            Some(SeatKind::Human { .. }) => Player::Human,
            Some(SeatKind::Bot(_)) | None => Player::Bot,
        }
    }

    /// A table waits for every human seat to be joined before anybody
    /// plays.
    fn waiting_for_players(&self) -> bool {
        self.seats.iter().any(|s| {
            matches!(
                &s.kind,
                SeatKind::Human {
                    token_hash: None,
                    ..
                }
            )
        })
    }

    /// When a bot should next act for the seat to move, if ever.
    fn deadline(&self) -> Option<Instant> {
        if self.finished || self.waiting_for_players() {
            return None;
        }
        let mover = self.game.to_move()?;
        let delay = Duration::from_millis(self.config.bot_delay_ms);
        match self.player(mover) {
            Player::Bot => Some(self.turn_started + delay),
            Player::Human => {
                let absent = self.absent_since[mover.index()]
                    .map(|since| (since + delay * 3).max(self.turn_started + delay));
                let timer = self
                    .config
                    .turn_timer_ms
                    .map(|t| self.turn_started + Duration::from_millis(t));
                match (absent, timer) {
                    (Some(a), Some(t)) => Some(a.min(t)),
                    (a, t) => a.or(t),
                }
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Hello {
                conn,
                token,
                out,
                reply,
            } => {
                let seat = match token {
                    None => None,
                    Some(token) => {
                        let hash = sha256_hex(&token);
                        let found = self.seats.iter().find(|s| {
                            matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash)
                        });
                        match found {
                            Some(s) => Some(s.seat),
                            None => {
                                let _ = out.try_send(
                                    ServerMsg::error(
                                        ErrorCode::BadToken,
                                        "this token does not belong to a seat of this table",
                                    )
                                    .to_text(),
                                );
                                let _ = reply.send(Err(()));
                                return;
                            }
                        }
                    }
                };
                self.subs.retain(|s| s.conn != conn);
                self.subs.push(Sub {
                    conn,
                    seat,
                    out,
                    log_pos: 0,
                    log_sent: 0,
                });
                if let Some(seat) = seat {
                    self.absent_since[seat.index()] = None;
                }
                let _ = reply.send(Ok(seat));
                // Everybody sees the seat as connected now.
                self.broadcast();
            }
            Command::Act { conn, seq, action } => self.act(conn, seq, &action).await,
            Command::Leave { conn } => {
                self.subs.retain(|s| s.conn != conn);
                self.refresh_presence();
                self.broadcast();
            }
            Command::Join { seat, name, reply } => {
                let answer = self.join(seat, name).await;
                let ok = answer.is_ok();
                let _ = reply.send(answer);
                if ok {
                    self.broadcast();
                }
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
        }
    }

    fn refresh_presence(&mut self) {
        let now = Instant::now();
        for i in 0..Seat::MAX {
            let connected = self.subs.iter().any(|s| s.seat == Some(Seat::new(i)));
            if connected {
                self.absent_since[i] = None;
            } else if self.absent_since[i].is_none() {
                self.absent_since[i] = Some(now);
            }
        }
    }

    fn send_to(&mut self, conn: u64, msg: ServerMsg) {
        if let Some(sub) = self.subs.iter().find(|s| s.conn == conn) {
            let _ = sub.out.try_send(msg.to_text());
        }
    }

    async fn act(&mut self, conn: u64, seq: u64, text: &str) {
        let Some(sub) = self.subs.iter().find(|s| s.conn == conn) else {
            return;
        };
        let Some(seat) = sub.seat else {
            return self.send_to(
                conn,
                ServerMsg::error(ErrorCode::NotSeated, "spectators cannot act"),
            );
        };
        if self.game.to_move().is_none() {
            return self.send_to(
                conn,
                ServerMsg::error(ErrorCode::GameOver, "the game is over"),
            );
        }
        if seq != self.seq {
            return self.send_to(
                conn,
                ServerMsg::error(
                    ErrorCode::Stale,
                    format!(
                        "you have seen {seq} actions, the table is at {}: nothing was applied",
                        self.seq
                    ),
                ),
            );
        }
        if self.waiting_for_players() {
            return self.send_to(
                conn,
                ServerMsg::error(
                    ErrorCode::NotYourTurn,
                    "the game starts when every human seat is taken",
                ),
            );
        }
        let action: G::Action = match text.trim().parse() {
            Ok(a) => a,
            Err(e) => {
                return self.send_to(conn, ServerMsg::error(ErrorCode::Illegal, e));
            }
        };
        match self.game.check_as(seat, action) {
            Ok(()) => {}
            Err(ActError::GameOver) => {
                return self.send_to(
                    conn,
                    ServerMsg::error(ErrorCode::GameOver, "the game is over"),
                )
            }
            Err(ActError::NotYourTurn { expected, .. }) => {
                // Name the mover only when the whole table may know it.
                let message = if self.game.public_to_move() == Some(expected) {
                    format!("it is {expected}'s turn")
                } else {
                    "it is not your turn".to_string()
                };
                return self.send_to(conn, ServerMsg::error(ErrorCode::NotYourTurn, message));
            }
            Err(ActError::Illegal(e)) => {
                return self.send_to(conn, ServerMsg::error(ErrorCode::Illegal, e.to_string()))
            }
        }
        if let Err(e) = self.commit(seat, action).await {
            tracing::error!(table = %self.id, "storing an action failed: {e}");
            self.send_to(
                conn,
                ServerMsg::error(ErrorCode::Internal, "the server could not store the action"),
            );
        }
    }

    /// Stores, then applies and broadcasts, a checked action.
    async fn commit(&mut self, seat: Seat, action: G::Action) -> Result<(), String> {
        let stored = StoredAction {
            seq: self.seq + 1,
            seat,
            action: action.to_string(),
        };
        // Committed (possibly in one transaction with other tables'
        // actions) before anything below happens.
        let (done, committed) = oneshot::channel();
        Arc::clone(&self.store).append_action_then(
            self.id.clone(),
            stored,
            unix_now(),
            Box::new(move |r| {
                let _ = done.send(r);
            }),
        );
        committed
            .await
            .map_err(|_| "the store dropped the write".to_string())?
            .map_err(|e| e.to_string())?;
        self.game.apply_unchecked(action);
        self.seq += 1;
        self.turn_started = Instant::now();
        if self.game.outcome().is_some() && !self.finished {
            self.finished = true;
            let store = Arc::clone(&self.store);
            let id = self.id.clone();
            let done = tokio::task::spawn_blocking(move || store.mark_finished(&id, unix_now()))
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()));
            if let Err(e) = done {
                // The actions are stored; a restart replays and sees the end.
                tracing::error!(table = %self.id, "marking finished failed: {e}");
            }
        }
        self.broadcast();
        Ok(())
    }

    async fn bot_turn(&mut self) {
        let Some(seat) = self.game.to_move() else {
            return;
        };
        let i = seat.index();
        let view = self.game.view(seat);
        self.game.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return;
        }
        // Take the bot out of its slot so it can think on a blocking thread:
        // a search bot spends up to a tenth of a second per decision, which
        // must not stall the runtime's worker threads.
        let (mut bot, stand_in) = match self.bots.get_mut(i).and_then(Option::take) {
            Some(b) => (b, false),
            None => {
                if self.stand_ins.len() <= i {
                    self.stand_ins.resize_with(i + 1, || None);
                }
                match self.stand_ins[i].take() {
                    Some(b) => (b, true),
                    None => match G::bot("heuristic", rand::random()) {
                        Ok(b) => (b, true),
                        Err(e) => {
                            tracing::error!("no heuristic bot: {e}");
                            return;
                        }
                    },
                }
            }
        };
        let legal = std::mem::take(&mut self.legal);
        let thought = tokio::task::spawn_blocking(move || {
            let action = bot.choose(&view, &legal);
            (bot, legal, action)
        })
        .await;
        let (bot, legal, action) = match thought {
            Ok(t) => t,
            Err(e) => {
                // The bot panicked: the seat falls back to a stand-in next time.
                tracing::error!(table = %self.id, "a bot failed: {e}");
                self.turn_started = Instant::now();
                return;
            }
        };
        self.legal = legal;
        if stand_in {
            self.stand_ins[i] = Some(bot);
        } else {
            self.bots[i] = Some(bot);
        }
        if let Err(e) = self.game.check_as(seat, action) {
            tracing::error!(table = %self.id, "bot chose an illegal action {action}: {e}");
            self.turn_started = Instant::now();
            return;
        }
        if let Err(e) = self.commit(seat, action).await {
            tracing::error!(table = %self.id, "storing a bot action failed: {e}");
            // Try again after another delay.
            self.turn_started = Instant::now();
        }
    }

    async fn join(&mut self, seat: Option<Seat>, name: String) -> Result<(Seat, String), Error> {
        let name = name.trim().to_string();
        if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
            return Err(Error::BadInput(
                "a name is 1 to 32 characters, no control characters".to_string(),
            ));
        }
        if self.finished {
            return Err(Error::SeatTaken("the game is over".to_string()));
        }
        let free = |s: &StoredSeat| {
            matches!(
                &s.kind,
                SeatKind::Human {
                    token_hash: None,
                    ..
                }
            )
        };
        let seat = match seat {
            Some(seat) => match self.seats.get(seat.index()) {
                None => return Err(Error::BadInput(format!("this table has no seat {seat}"))),
                Some(s) if free(s) => seat,
                Some(_) => return Err(Error::SeatTaken(format!("{seat} is not a free seat"))),
            },
            None => match self.seats.iter().find(|s| free(s)) {
                Some(s) => s.seat,
                None => return Err(Error::SeatTaken("no seat is free".to_string())),
            },
        };
        let token = new_token();
        let hash = sha256_hex(&token);
        let store = Arc::clone(&self.store);
        let (id, n, h) = (self.id.clone(), name.clone(), hash.clone());
        let taken = tokio::task::spawn_blocking(move || store.take_seat(&id, seat, &n, &h))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
        if !taken {
            return Err(Error::SeatTaken(format!("{seat} is not a free seat")));
        }
        self.seats[seat.index()].kind = SeatKind::Human {
            name: Some(name),
            token_hash: Some(hash),
        };
        if !self.waiting_for_players() {
            self.turn_started = Instant::now();
        }
        Ok((seat, token))
    }

    fn seat_statuses(&self) -> Vec<SeatStatus> {
        let n = self.seats.len().max(self.game.players());
        (0..n)
            .map(|i| {
                let seat = Seat::new(i);
                match self.seats.get(i).map(|s| &s.kind) {
                    Some(SeatKind::Human { name, token_hash }) => SeatStatus {
                        seat,
                        name: name.clone(),
                        kind: "human",
                        bot: None,
                        taken: token_hash.is_some(),
                        connected: self.subs.iter().any(|s| s.seat == Some(seat)),
                    },
                    Some(SeatKind::Bot(b)) => SeatStatus {
                        seat,
                        name: Some(b.clone()),
                        kind: "bot",
                        bot: Some(b.clone()),
                        taken: true,
                        connected: true,
                    },
                    None => SeatStatus {
                        seat,
                        name: Some("heuristic".to_string()),
                        kind: "bot",
                        bot: Some("heuristic".to_string()),
                        taken: true,
                        connected: true,
                    },
                }
            })
            .collect()
    }

    fn status(&self) -> &'static str {
        if self.finished {
            "finished"
        } else if self.waiting_for_players() {
            "open"
        } else {
            "playing"
        }
    }

    fn info(&self) -> serde_json::Value {
        let seats: Vec<serde_json::Value> = self
            .seat_statuses()
            .into_iter()
            .map(|s| {
                serde_json::json!({
                    "seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                    "taken": s.taken, "connected": s.connected,
                })
            })
            .collect();
        serde_json::json!({
            "id": self.id,
            "game": G::NAME,
            "players": self.players,
            "options": self.options,
            "seats": seats,
            "seq": self.seq,
            "status": self.status(),
            "seed_hash": self.seed_hash,
            "seed": self.finished.then(|| self.seed.to_string()),
            "bot_delay_ms": self.config.bot_delay_ms,
            "created_at": self.created_at,
        })
    }

    fn state_for(&self, sub: &mut Sub, seats: &[SeatStatus]) -> StateMsg {
        let (view, board) = match sub.seat {
            Some(seat) if seat.index() < self.game.players() => {
                let v = self.game.view(seat);
                (serde_json::value::to_raw_value(&v), v.to_string())
            }
            _ => {
                let v = self.game.public_view();
                (serde_json::value::to_raw_value(&v), v.to_string())
            }
        };
        let view = view.unwrap_or_else(|e| {
            tracing::error!("view does not serialize: {e}");
            serde_json::value::RawValue::NULL.to_owned()
        });
        let mover = self.game.to_move();
        let mine = sub.seat.is_some() && mover == sub.seat;
        let to_move = if mine {
            mover
        } else {
            self.game.public_to_move()
        };
        let mut legal = Vec::new();
        if mine && !self.waiting_for_players() {
            let mut list = Vec::new();
            self.game.legal_actions(&mut list);
            legal = list.iter().map(ToString::to_string).collect();
        }
        let log = self.game.log();
        if sub.log_pos > log.len() {
            sub.log_pos = 0;
            sub.log_sent = 0;
        }
        let log_from = sub.log_sent;
        let lines: Vec<String> = log[sub.log_pos..]
            .iter()
            .filter(|e| e.visible_to(sub.seat))
            .map(|e| e.text.clone())
            .collect();
        sub.log_pos = log.len();
        sub.log_sent += lines.len();
        StateMsg {
            table: self.id.clone(),
            seat: sub.seat,
            seq: self.seq,
            view,
            board,
            legal,
            to_move,
            log_from,
            log: lines,
            over: self.finished,
            outcome: self.game.outcome(),
            seed_hash: self.seed_hash.clone(),
            seed: self.finished.then(|| self.seed.to_string()),
            seats: seats.to_vec(),
        }
    }

    /// Sends every connection its new state; drops connections whose
    /// outbox is full (too slow) or closed.
    fn broadcast(&mut self) {
        let seats = self.seat_statuses();
        let mut subs = std::mem::take(&mut self.subs);
        let before = subs.len();
        subs.retain_mut(|sub| {
            let msg = ServerMsg::State(Box::new(self.state_for(sub, &seats)));
            sub.out.try_send(msg.to_text()).is_ok()
        });
        let dropped = subs.len() != before;
        self.subs = subs;
        if dropped {
            self.refresh_presence();
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// A new secret seat token: 32 random bytes, hex.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
