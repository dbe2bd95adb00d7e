//! The requests the web client's worker makes ([`Request`]) and what each
//! answers ([`handle`]): a new game's record, what one seat may know, an
//! action taken, a bot's decision, a hint, an analysis, a network given.
//!
//! Each request that concerns a game carries its whole record and is
//! answered from a replay of it (see the crate's docs); a request that
//! changes the game answers with the new record. Every refusal is an
//! [`Answer::Error`] with a code and the rule or reason in words, and
//! changes nothing: the worker still holds the record it sent.

use analysis::analyze::{self as judge, seed_number, Judge};
use analysis::derive_seed;
use bots::{Bot, Roster};
use game::{Game, Outcome, Record, Seat, Seed};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// A request, as JSON tagged by `cmd`.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game: its record with no action yet, the options checked and
    /// written out whole (every default included).
    New {
        /// `bigcheese` or `dalmuti`.
        game: String,
        /// Seats at the table.
        players: usize,
        /// Rules options, `key` → value text; the rest are the defaults.
        #[serde(default)]
        options: BTreeMap<String, String>,
        /// The seed: 64 hex digits, drawn by the browser's
        /// `crypto.getRandomValues`.
        seed: Seed,
    },
    /// What `seat` may know now (`null`: a spectator, the public view),
    /// as the server's `state` message carries it, with the events after
    /// the first `seen` of those the seat may see.
    State {
        /// The game.
        record: Record,
        /// Whose eyes.
        seat: Option<Seat>,
        /// How many of the seat's events it already has.
        #[serde(default)]
        seen: usize,
    },
    /// `seat` takes `action` (text notation); answered with the new
    /// record, or refused with the rule it breaks.
    Act {
        /// The game.
        record: Record,
        /// Who acts.
        seat: Seat,
        /// The action, as the `legal` list writes it.
        action: String,
    },
    /// The seat to move is a bot's: it decides from its own view, and the
    /// answer is the new record.
    Bot {
        /// The game.
        record: Record,
        /// Each seat's ladder level, `null` for a person's seat.
        levels: Vec<Option<String>>,
    },
    /// What the ladder's strongest level would play for `seat`, from its
    /// own view, with its values for the best actions.
    Hint {
        /// The game.
        record: Record,
        /// The seat asking (it must be its decision).
        seat: Seat,
    },
    /// The post-game analysis of a finished game, with the defaults of
    /// `ratrace analyze` (the same numbers for the same record).
    Analyze {
        /// The game.
        record: Record,
    },
    /// A game of random legal actions drawn from `seed`, to its end or
    /// `cap` actions: its record, and a SHA-256 chained over what every
    /// seat and a spectator are told after each action (each a
    /// [`Request::State`] answer). Two builds of the engine that give the
    /// same trace play the same game the same way (tests/it/engine.rs
    /// checks the WebAssembly one against the native one).
    Trace {
        /// `bigcheese` or `dalmuti`.
        game: String,
        /// Seats at the table.
        players: usize,
        /// Rules options, `key` → value text.
        #[serde(default)]
        options: BTreeMap<String, String>,
        /// The seed of the deal and of the random choices.
        seed: Seed,
        /// The most actions played.
        cap: usize,
    },
    /// `games` games of random legal actions from `seed`, each to its end
    /// (or 10,000 actions), with no log and no record: how fast the rules
    /// run here (the bench page compares it with the native engine).
    /// Answers the actions played.
    Random {
        /// `bigcheese` or `dalmuti`.
        game: String,
        /// Seats at the table.
        players: usize,
        /// Rules options, `key` → value text.
        #[serde(default)]
        options: BTreeMap<String, String>,
        /// The seed of the first game; game `i` is dealt from it and `i`.
        seed: u64,
        /// How many games.
        games: usize,
    },
    /// The learned level's network for `game`: the request's bytes are
    /// its weights file (`crates/bots/weights/GAME.safetensors`).
    Weights {
        /// `bigcheese` or `dalmuti`.
        game: String,
    },
}

/// An answer: `{"ok": ...}` or `{"error": {"code", "message"}}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// What was asked.
    Ok(Value),
    /// Why not.
    Error {
        /// For programs: `bad_request`, `unknown_game`, `bad_record`,
        /// `illegal`, `not_your_turn`, `unknown_bot`, `unfinished`,
        /// `weights`.
        code: &'static str,
        /// For people: the rule or the reason.
        message: String,
    },
}

impl Answer {
    fn error(code: &'static str, message: impl ToString) -> Answer {
        Answer::Error {
            code,
            message: message.to_string(),
        }
    }

    /// The JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"error":{"code":"internal","message":"encoding failed"}}"#.to_string()
        })
    }
}

/// What one seat may know now ([`Request::State`]): the fields of the
/// server's `state` message that come from the game (the worker adds the
/// table's id, its revision and the seats).
#[derive(Debug, Serialize)]
pub struct Seen {
    /// Whose eyes.
    pub seat: Option<Seat>,
    /// The seat's view (a spectator's: the public view).
    pub view: Value,
    /// Actions applied so far.
    pub seq: u64,
    /// The legal actions, only when it is this seat's decision.
    pub legal: Vec<String>,
    /// Whose decision it is, as far as this seat may know.
    pub to_move: Option<Seat>,
    /// Index of `log`'s first event among those the seat may see.
    pub log_from: usize,
    /// The events the seat may see, from `log_from`.
    pub log: Vec<Value>,
    /// Whether the game is over.
    pub over: bool,
    /// Always true: a local game is dealt at once.
    pub started: bool,
    /// The result, once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The seed, only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Hex SHA-256 of the seed's text: the commitment, as a server's.
    pub seed_hash: String,
}

/// Answers one request (`blob`: the bytes that go with it, a weights
/// file). `progress(done, total)` hears how far an analysis has got.
pub fn handle(request: &str, blob: &[u8], progress: &mut dyn FnMut(usize, usize)) -> String {
    let answer = match serde_json::from_str::<Request>(request) {
        Ok(r) => answer(r, blob, progress),
        Err(e) => Answer::error("bad_request", e),
    };
    answer.to_text()
}

/// Runs `$body` with `$G` bound to the game called `$name`.
macro_rules! by_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            "bigcheese" => {
                type $G = bigcheese::BigCheese;
                $body
            }
            "dalmuti" => {
                type $G = dalmuti::Dalmuti;
                $body
            }
            other => Answer::error(
                "unknown_game",
                format!("unknown game `{other}` (choose from: bigcheese, dalmuti)"),
            ),
        }
    };
}

fn answer(request: Request, blob: &[u8], progress: &mut dyn FnMut(usize, usize)) -> Answer {
    match request {
        Request::New {
            game,
            players,
            options,
            seed,
        } => by_game!(game.as_str(), G => new::<G>(players, options, seed)),
        Request::State { record, seat, seen } => {
            by_game!(record.game.as_str(), G => state::<G>(&record, seat, seen))
        }
        Request::Act {
            record,
            seat,
            action,
        } => by_game!(record.game.as_str(), G => act::<G>(record, seat, &action)),
        Request::Bot { record, levels } => {
            by_game!(record.game.as_str(), G => bot::<G>(record, &levels))
        }
        Request::Hint { record, seat } => {
            by_game!(record.game.as_str(), G => hint::<G>(&record, seat))
        }
        Request::Analyze { record } => {
            by_game!(record.game.as_str(), G => analyze::<G>(&record, progress))
        }
        Request::Weights { game } => by_game!(game.as_str(), G => weights::<G>(blob)),
        Request::Random {
            game,
            players,
            options,
            seed,
            games,
        } => by_game!(game.as_str(), G => random::<G>(players, options, seed, games)),
        Request::Trace {
            game,
            players,
            options,
            seed,
            cap,
        } => by_game!(game.as_str(), G => trace::<G>(players, options, seed, cap)),
    }
}

/// The record replayed to its last action (with its events when
/// `logging`), or the reason it does not.
fn replay<G: Game>(record: &Record, logging: bool) -> Result<G, Answer> {
    record
        .replay::<G>(logging, |_, _, _| {})
        .map_err(|e| Answer::error("bad_record", e))
}

fn ok(value: impl Serialize) -> Answer {
    match serde_json::to_value(value) {
        Ok(v) => Answer::Ok(v),
        Err(e) => Answer::error("internal", e),
    }
}

/// The rules options named by `options` (`key` → value text) over the
/// game's defaults, read as a record's are, or the reason they are not.
fn options<G: Game>(
    players: usize,
    options: BTreeMap<String, String>,
) -> Result<G::Options, Answer> {
    let mut draft = Record::new::<G>(&G::Options::default(), players, 0);
    draft.options.extend(options);
    draft
        .options::<G>()
        .map_err(|e| Answer::error("bad_record", e))
}

fn new<G: Game>(players: usize, options: BTreeMap<String, String>, seed: Seed) -> Answer {
    let options = match self::options::<G>(players, options) {
        Ok(o) => o,
        Err(a) => return a,
    };
    if let Err(e) = G::new_seeded(&options, players, &seed) {
        return Answer::error("bad_record", e);
    }
    ok(Record::new::<G>(&options, players, seed))
}

fn state<G: Game>(record: &Record, seat: Option<Seat>, seen: usize) -> Answer {
    let game: G = match replay(record, true) {
        Ok(g) => g,
        Err(a) => return a,
    };
    if seat.is_some_and(|s| s.index() >= game.players()) {
        return Answer::error("bad_request", "no such seat at this table");
    }
    match told(&game, record, seat, seen) {
        Ok(s) => ok(s),
        Err(e) => Answer::error("internal", e),
    }
}

/// What `seat` is told of `game` (played as `record` says): its view,
/// its own legal actions, the events it may see after the first `seen`.
fn told<G: Game>(
    game: &G,
    record: &Record,
    seat: Option<Seat>,
    seen: usize,
) -> Result<Seen, serde_json::Error> {
    let over = game.outcome().is_some();
    let mover = game.to_move();
    let mine = seat.is_some() && mover == seat;
    let to_move = if mine { mover } else { game.public_to_move() };
    let mut legal = Vec::new();
    if mine {
        let mut list = Vec::new();
        game.legal_actions(&mut list);
        legal = list.iter().map(ToString::to_string).collect();
    }
    let log: Vec<Value> = game
        .events()
        .iter()
        .filter(|e| e.visible_to(seat))
        .skip(seen)
        .filter_map(|e| serde_json::to_value(&e.event).ok())
        .collect();
    let view = match seat {
        Some(s) => serde_json::to_value(game.view(s))?,
        None => serde_json::to_value(game.public_view())?,
    };
    let seed = record.seed.to_string();
    Ok(Seen {
        seat,
        view,
        seq: record.actions.len() as u64,
        legal,
        to_move,
        log_from: seen,
        log,
        over,
        started: true,
        outcome: game.outcome(),
        seed: over.then(|| seed.clone()),
        seed_hash: hex(&Sha256::digest(seed.as_bytes())),
    })
}

/// A trace: the game's record and the chained hash of what each seat
/// was told ([`Request::Trace`]).
#[derive(Debug, Serialize)]
pub struct Trace {
    /// The game played.
    pub record: Record,
    /// Hex SHA-256, chained over every action.
    pub digest: String,
}

fn trace<G: Game>(
    players: usize,
    options: BTreeMap<String, String>,
    seed: Seed,
    cap: usize,
) -> Answer {
    let record = match new::<G>(players, options, seed) {
        Answer::Ok(v) => v,
        refused => return refused,
    };
    let Ok(mut record) = serde_json::from_value::<Record>(record) else {
        return Answer::error("internal", "a new record does not read back");
    };
    let mut game: G = match replay(&record, true) {
        Ok(g) => g,
        Err(a) => return a,
    };
    let mut rng: rand_chacha::ChaCha8Rng = record.seed.rng();
    let (mut digest, mut scratch) = (Sha256::new(), Vec::new());
    // each seat's events are told once, as to a connection
    let mut seen = vec![0; players + 1];
    loop {
        let seats = game::Seat::all(players).map(Some).chain([None]);
        for (k, seat) in seats.enumerate() {
            let s = match told(&game, &record, seat, seen[k]) {
                Ok(s) => s,
                Err(e) => return Answer::error("internal", e),
            };
            seen[k] += s.log.len();
            match serde_json::to_vec(&s) {
                Ok(bytes) => digest.update(&bytes),
                Err(e) => return Answer::error("internal", e),
            }
        }
        let Some(seat) = game.to_move() else { break };
        if record.actions.len() >= cap {
            break;
        }
        let action = game.pick_uniform(&mut rng, &mut scratch);
        if let Err(e) = game.act(seat, action) {
            return Answer::error("internal", e);
        }
        record.push::<G>(seat, action);
    }
    record.outcome = game.outcome();
    ok(Trace {
        record,
        digest: hex(&digest.finalize()),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `record` with `seat`'s `action` applied, its outcome written once over.
fn applied<G: Game>(mut record: Record, mut game: G, seat: Seat, action: G::Action) -> Answer {
    if let Err(e) = game.act(seat, action) {
        return Answer::error("illegal", e);
    }
    record.push::<G>(seat, action);
    record.outcome = game.outcome();
    ok(record)
}

fn act<G: Game>(record: Record, seat: Seat, text: &str) -> Answer {
    let game: G = match replay(&record, false) {
        Ok(g) => g,
        Err(a) => return a,
    };
    if game.to_move() != Some(seat) {
        return Answer::error("not_your_turn", format!("it is not {seat}'s decision"));
    }
    match text.parse::<G::Action>() {
        Ok(action) => applied(record, game, seat, action),
        Err(e) => Answer::error("illegal", e),
    }
}

/// The seed of decision number `index` of a game with `seed`, for
/// whoever decides it (a bot, the hint's adviser): the same decision
/// gets the same seed after a reload.
fn decision_seed(seed: &Seed, index: usize, salt: u64) -> u64 {
    derive_seed(seed_number(seed) ^ salt, index as u64)
}

/// A decision about to be taken at a record's position: the game
/// replayed to it, the seat to move, and its legal actions.
struct Decision<G: Game> {
    game: G,
    seat: Seat,
    legal: Vec<G::Action>,
}

/// The decision at `record`'s position, or why there is none (a bad
/// record, a game over).
fn decision<G: Game>(record: &Record) -> Result<Decision<G>, Answer> {
    let game: G = replay(record, false)?;
    let Some(seat) = game.to_move() else {
        return Err(Answer::error("not_your_turn", "the game is over"));
    };
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    Ok(Decision { game, seat, legal })
}

/// Ladder level `level` seeded for decision number `index` of a game with
/// `seed` (`salt` tells the deciders apart). Only the ladder's own levels:
/// a time budget would need a clock, which the browser's engine has not.
fn seeded<G: Roster>(
    level: &str,
    seed: &Seed,
    index: usize,
    salt: u64,
) -> Result<Box<dyn Bot<G>>, Answer> {
    if !G::LADDER.contains(&level) {
        return Err(Answer::error(
            "unknown_bot",
            format!(
                "unknown level `{level}` (choose from: {})",
                G::LADDER.join(", ")
            ),
        ));
    }
    G::bot(level, decision_seed(seed, index, salt)).map_err(|e| Answer::error("unknown_bot", e))
}

fn bot<G: Roster>(record: Record, levels: &[Option<String>]) -> Answer {
    let d = match decision::<G>(&record) {
        Ok(d) => d,
        Err(a) => return a,
    };
    let Some(Some(level)) = levels.get(d.seat.index()) else {
        return Answer::error("not_your_turn", format!("{} is a person's seat", d.seat));
    };
    let mut player = match seeded::<G>(level, &record.seed, record.actions.len(), 0) {
        Ok(b) => b,
        Err(a) => return a,
    };
    let action = player.choose(&d.game.view(d.seat), &d.legal);
    applied(record, d.game, d.seat, action)
}

/// A hint: the adviser's pick and its values for the best five actions.
#[derive(Debug, Serialize)]
pub struct Hint {
    /// The level that advises: the ladder's strongest.
    pub bot: &'static str,
    /// What it would play.
    pub best: String,
    /// Its values, best first (empty for a bot that does not score).
    pub scored: Vec<ScoredAction>,
}

/// One action and the adviser's value for it.
#[derive(Debug, Serialize)]
pub struct ScoredAction {
    /// The action.
    pub action: String,
    /// The bot's value (search: the mean reward of the seat, 0 to 1).
    pub value: f64,
    /// Search iterations through it (0 for a heuristic).
    pub visits: u64,
}

fn hint<G: Roster>(record: &Record, seat: Seat) -> Answer {
    let d = match decision::<G>(record) {
        Ok(d) if d.seat == seat => d,
        Ok(_) => return Answer::error("not_your_turn", format!("it is not {seat}'s decision")),
        Err(a) => return a,
    };
    let Some(name) = G::LADDER.last().copied() else {
        return Answer::error("unknown_bot", "this game has no bots");
    };
    let mut adviser = match seeded::<G>(name, &record.seed, record.actions.len(), 999) {
        Ok(b) => b,
        Err(a) => return a,
    };
    let (legal, view) = (d.legal, d.game.view(seat));
    let scored = adviser.evaluate(&view, &legal).unwrap_or_default();
    let best = match scored.first() {
        Some(s) => s.action,
        None => adviser.choose(&view, &legal),
    };
    ok(Hint {
        bot: name,
        best: best.to_string(),
        scored: scored
            .iter()
            .take(5)
            .map(|s| ScoredAction {
                action: s.action.to_string(),
                value: s.value,
                visits: s.visits,
            })
            .collect(),
    })
}

fn analyze<G: Judge>(record: &Record, progress: &mut dyn FnMut(usize, usize)) -> Answer {
    match judge::analyze::<G>(record, &judge::Config::for_game::<G>(), progress) {
        Ok(a) => ok(a),
        Err(analysis::Error::Unfinished { actions }) => Answer::error(
            "unfinished",
            format!("the game is not over ({actions} actions): only a finished game is analysed"),
        ),
        Err(e) => Answer::error("bad_record", e),
    }
}

fn random<G: Game>(
    players: usize,
    options: BTreeMap<String, String>,
    seed: u64,
    games: usize,
) -> Answer {
    let options = match self::options::<G>(players, options) {
        Ok(o) => o,
        Err(a) => return a,
    };
    let (mut actions, mut scratch) = (0u64, Vec::new());
    for i in 0..games {
        let game_seed = derive_seed(seed, i as u64);
        let mut game = match G::new(&options, players, game_seed) {
            Ok(g) => g,
            Err(e) => return Answer::error("bad_record", e),
        };
        game.set_logging(false);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(game_seed);
        for _ in 0..10_000 {
            if game.to_move().is_none() {
                break;
            }
            let action = game.pick_uniform(&mut rng, &mut scratch);
            game.apply_unchecked(action);
            actions += 1;
        }
    }
    ok(actions)
}

fn weights<G: Game>(bytes: &[u8]) -> Answer {
    match bots::learned::give(G::NAME, bytes) {
        Ok(()) => ok(G::NAME),
        Err(e) => Answer::error("weights", e),
    }
}
