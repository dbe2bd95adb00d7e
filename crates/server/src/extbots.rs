//! External bots at the server: bot programs the operator offers as
//! extra levels in the lobby (`ratrace serve --bot NAME=CMD`), each run
//! as a child process speaking `ratrace-bot/1` through
//! [`extbot::External`].
//!
//! A client only ever names a level; the command is the operator's. The
//! processes alive at once are capped server-wide (`--bot-processes`),
//! per client address that made their tables (`--bot-processes-per-ip`)
//! and per network of those addresses (an IPv4 /24, an IPv6 /48:
//! `--bot-share-per-net`, a share of the server-wide cap). Slots are
//! taken when the table's game starts (every human seat taken, or the
//! table loaded under way), all of its programs together, never at its
//! creation, and only while a person is connected at the table; they are
//! given back when the game ends, the table leaves memory, or the last
//! person leaves (a few seconds later), so tables nobody plays hold
//! none. A seat that finds no free slot
//! is played by the heuristic bot and tries again at its decisions (never
//! during a hidden one: when a program starts must not tell whose decision
//! it is). A table
//! that could never run its programs (more than an address may run, or
//! more than are free now) is refused as `busy` when it is made. A bot
//! process is ended by [`extbot::External`]'s `Drop` (`quit`, up to a
//! second, then its process group killed), which blocks: the table drops
//! its external bots on the blocking pool (`drop_off_runtime`).

use crate::error::Error;
use crate::metrics::{Gauge, Held, Metrics, Refusal};
use bots::{Bot, Roster};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The default time limit of one decision, milliseconds (`--bot-time`).
pub const DEFAULT_MOVE_MS: u64 = 2000;
/// The default cap on bot processes alive at once (`--bot-processes`).
pub const DEFAULT_PROCESSES: usize = 32;
/// The default cap on bot processes alive at once for the tables one
/// client address made (`--bot-processes-per-ip`).
pub const DEFAULT_PROCESSES_PER_IP: usize = 8;
/// The default share, in percent, of the server-wide cap that the tables
/// made from one network (an IPv4 /24, an IPv6 /48) may hold at once
/// (`--bot-share-per-net`).
pub const DEFAULT_SHARE_PER_NET: usize = 25;
/// The longest level name.
pub const MAX_NAME: usize = 24;

/// One level the operator offers: its name in the lobby and its command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The level's name (`[a-z0-9_-]`, at most [`MAX_NAME`]).
    pub name: String,
    /// The one game it plays (`GAME:NAME=COMMAND`), or `None` for both.
    pub game: Option<String>,
    /// The command, run by `/bin/sh -c`.
    pub command: String,
}

/// The external bots a server offers, their limits and the process caps.
#[derive(Debug)]
pub struct ExternalBots {
    programs: Vec<Program>,
    limits: extbot::Limits,
    cap: usize,
    per_owner: usize,
    per_net: usize,
    slots: Arc<Semaphore>,
    /// Slots held, by the address that made their tables, and by its
    /// network.
    owners: Arc<Mutex<HashMap<String, usize>>>,
}

/// The network an owner (a client address, as a table keeps it) belongs
/// to, as the per-network share counts it: an IPv4 /24, an IPv6 /48 (a
/// site's usual allocation; one address already counts as its /56).
fn network(owner: &str) -> String {
    match owner.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => {
            let o = v4.octets();
            format!("net:{}.{}.{}.0/24", o[0], o[1], o[2])
        }
        Ok(std::net::IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("net:{:x}:{:x}:{:x}::/48", s[0], s[1], s[2])
        }
        Err(_) => format!("net:{owner}"),
    }
}

impl Default for ExternalBots {
    fn default() -> ExternalBots {
        ExternalBots::new(Vec::new(), DEFAULT_MOVE_MS, DEFAULT_PROCESSES)
            .expect("no programs is valid")
    }
}

/// One bot process's place under the caps, server-wide and for the
/// address that made its table; given back when dropped.
#[derive(Debug)]
pub struct ProcessSlot {
    _permit: OwnedSemaphorePermit,
    owner: String,
    owners: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for ProcessSlot {
    fn drop(&mut self) {
        let mut owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        for key in [self.owner.clone(), network(&self.owner)] {
            if let Some(n) = owners.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    owners.remove(&key);
                }
            }
        }
    }
}

/// The sandbox of the bot programs of a server on the store `db` (a
/// spec: a SQLite path, or a PostgreSQL URL): the SQLite database's folder
/// is denied to them; memory, CPU time and tasks as given.
pub fn sandbox_for(db: &str, memory: u64, cpu_seconds: u64) -> extbot::Sandbox {
    extbot::Sandbox {
        deny: crate::store::folder_of(db).into_iter().collect(),
        memory,
        cpu_seconds,
        ..extbot::Sandbox::default()
    }
}

/// The absolute paths in `command` (its words that start with `/`) that
/// lie in `folder`: a program there cannot be read by its sandbox.
pub fn paths_within(command: &str, folder: &std::path::Path) -> Vec<String> {
    command
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == '=')
        .filter(|w| w.starts_with('/'))
        .filter(|w| {
            let p = std::path::Path::new(w);
            let p = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            p.starts_with(folder)
        })
        .map(str::to_string)
        .collect()
}

/// Whether `name` is a ladder or named bot of either game, or a word the
/// client reads specially (`external` is its text for a bot program).
fn builtin(name: &str) -> bool {
    ["external", "human", "cmd"].contains(&name)
        || <bigcheese::BigCheese as Roster>::LADDER.contains(&name)
        || <bigcheese::BigCheese as Roster>::BOTS.contains(&name)
        || <dalmuti::Dalmuti as Roster>::LADDER.contains(&name)
        || <dalmuti::Dalmuti as Roster>::BOTS.contains(&name)
}

/// Why the operator's bot programs (`ratrace serve --bot`, `--bot-time`)
/// are refused. The text is the message `ratrace serve` prints.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// A `--bot` spec without `=` (the spec).
    #[error("--bot `{0}`: write NAME=COMMAND, or GAME:NAME=COMMAND for one game")]
    NoCommand(String),
    /// A `GAME:` that is no game (the game).
    #[error("--bot: unknown game `{0}` (choose from: bigcheese, dalmuti)")]
    UnknownGame(String),
    /// A `--bot` spec with nothing after `=` (the name).
    #[error("--bot {0}: the command is empty")]
    EmptyCommand(String),
    /// A level name of other characters, or too long (the name).
    #[error("bot name `{0}`: 1 to {max} characters of a-z, 0-9, _ and -", max = MAX_NAME)]
    BadName(String),
    /// A level name that a built-in bot has (the name).
    #[error("bot name `{0}` is a built-in bot's: choose another")]
    BuiltIn(String),
    /// Two programs of one name (the name).
    #[error("--bot {0}: given twice")]
    Twice(String),
    /// No time at all for a decision.
    #[error("--bot-time: at least 1 ms")]
    NoTime,
}

/// Why a table's bot program could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MakeError {
    /// No program of this level is offered (the name).
    #[error("unknown bot `{0}`")]
    Unknown(String),
    /// Its process could not be started: why.
    #[error(transparent)]
    Start(bots::BotError),
}

impl Program {
    /// Reads `NAME=CMD` or `GAME:NAME=CMD` (the `--bot` flag) and checks
    /// the name and the game.
    pub fn parse(spec: &str) -> Result<Program, ProgramError> {
        let Some((name, command)) = spec.split_once('=') else {
            return Err(ProgramError::NoCommand(spec.to_string()));
        };
        let (name, command) = (name.trim(), command.trim());
        let (game, name) = match name.split_once(':') {
            Some((game, name)) => {
                let game = game.trim();
                if !registry::GAMES.contains(&game) {
                    return Err(ProgramError::UnknownGame(game.to_string()));
                }
                (Some(game.to_string()), name.trim())
            }
            None => (None, name),
        };
        check_name(name)?;
        if command.is_empty() {
            return Err(ProgramError::EmptyCommand(name.to_string()));
        }
        Ok(Program {
            name: name.to_string(),
            game,
            command: command.to_string(),
        })
    }

    /// Whether it plays `game`.
    pub fn plays(&self, game: &str) -> bool {
        self.game.as_deref().is_none_or(|g| g == game)
    }
}

/// A level name: 1 to [`MAX_NAME`] of `[a-z0-9_-]`, not a built-in bot's.
pub fn check_name(name: &str) -> Result<(), ProgramError> {
    let ok = (1..=MAX_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !ok {
        return Err(ProgramError::BadName(name.to_string()));
    }
    if builtin(name) {
        return Err(ProgramError::BuiltIn(name.to_string()));
    }
    Ok(())
}

impl ExternalBots {
    /// The levels `programs`, each decision limited to `move_ms`, at most
    /// `cap` processes at once (and [`DEFAULT_PROCESSES_PER_IP`] for one
    /// address's tables: [`ExternalBots::per_ip`]). Names are checked and
    /// must differ.
    pub fn new(
        programs: Vec<Program>,
        move_ms: u64,
        cap: usize,
    ) -> Result<ExternalBots, ProgramError> {
        for (i, p) in programs.iter().enumerate() {
            check_name(&p.name)?;
            let overlaps = |q: &Program| match (&q.game, &p.game) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if programs[..i]
                .iter()
                .any(|q| q.name == p.name && overlaps(q))
            {
                return Err(ProgramError::Twice(p.name.clone()));
            }
        }
        if move_ms == 0 {
            return Err(ProgramError::NoTime);
        }
        // Programs run for strangers are confined (`extbot::sandbox`);
        // the server names the database's folder with `with_sandbox`.
        let limits = extbot::Limits {
            move_time: Duration::from_millis(move_ms),
            sandbox: Some(extbot::Sandbox::default()),
            ..extbot::Limits::default()
        };
        Ok(ExternalBots {
            programs,
            limits,
            cap,
            per_owner: DEFAULT_PROCESSES_PER_IP.min(cap),
            per_net: share(cap, DEFAULT_SHARE_PER_NET),
            slots: Arc::new(Semaphore::new(cap)),
            owners: Arc::default(),
        })
    }

    /// At most `n` processes at once for the tables one address made
    /// (0: only the server-wide cap).
    pub fn per_ip(mut self, n: usize) -> ExternalBots {
        self.per_owner = if n == 0 { self.cap } else { n.min(self.cap) };
        self
    }

    /// At most `percent` of the server-wide cap (at least one process)
    /// for the tables made from one network (IPv4 /24, IPv6 /48); 100:
    /// no cap of its own.
    pub fn share_per_net(mut self, percent: usize) -> ExternalBots {
        self.per_net = share(self.cap, percent);
        self
    }

    /// Confines the programs by `sandbox` (`ratrace serve` denies them the
    /// database's folder: [`sandbox_for`]).
    pub fn with_sandbox(mut self, sandbox: extbot::Sandbox) -> ExternalBots {
        self.limits.sandbox = Some(sandbox);
        self
    }

    /// How the programs are confined.
    pub fn sandbox(&self) -> Option<&extbot::Sandbox> {
        self.limits.sandbox.as_ref()
    }

    /// The programs' commands, by level name.
    pub fn programs(&self) -> &[Program] {
        &self.programs
    }

    /// The level names, in the operator's order.
    pub fn names(&self) -> Vec<String> {
        self.programs.iter().map(|p| p.name.clone()).collect()
    }

    /// Whether `name` is one of the levels, of either game (a person may
    /// not take such a name).
    pub fn offers(&self, name: &str) -> bool {
        self.programs.iter().any(|p| p.name == name)
    }

    /// Whether `name` is one of the levels of `game`.
    pub fn offers_for(&self, game: &str, name: &str) -> bool {
        self.programs
            .iter()
            .any(|p| p.name == name && p.plays(game))
    }

    /// The level names of `game`, in the operator's order.
    pub fn names_for(&self, game: &str) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for p in self.programs.iter().filter(|p| p.plays(game)) {
            if !names.contains(&p.name) {
                names.push(p.name.clone());
            }
        }
        names
    }

    /// The cap on processes alive at once.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Process slots held now (processes alive or about to be).
    pub fn in_use(&self) -> usize {
        self.cap.saturating_sub(self.slots.available_permits())
    }

    /// Process slots held now for the tables `owner` made.
    pub fn held_by(&self, owner: &str) -> usize {
        let owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        owners.get(owner).copied().unwrap_or(0)
    }

    /// The cap of one network: its share, but never below one address's.
    fn net_cap(&self) -> usize {
        self.per_net.max(self.per_owner)
    }

    /// Process slots held now for the tables made from `owner`'s network.
    pub fn held_by_network_of(&self, owner: &str) -> usize {
        self.held_by(&network(owner))
    }

    /// How many of `names` are external levels.
    pub fn count<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> usize {
        names.into_iter().filter(|n| self.offers(n)).count()
    }

    /// Whether a table of `owner` with `n` bot programs could run them
    /// now; it takes nothing (slots are taken when the programs start).
    /// Refused as `busy`, and counted in `metrics`, if `n` is more than
    /// one address may run at once, or more than are free now.
    pub(crate) fn check(&self, n: usize, owner: &str, metrics: &Metrics) -> Result<(), Error> {
        if n == 0 {
            return Ok(());
        }
        if self.held_by(owner) + n > self.per_owner {
            metrics.refused(Refusal::BotProcessesPerIp);
            return Err(Error::Busy(format!(
                "the tables made from one address run at most {} bot programs at once: \
                 finish a game first, or choose a built-in level",
                self.per_owner
            )));
        }
        if self.held_by_network_of(owner) + n > self.net_cap() {
            metrics.refused(Refusal::BotProcessesPerIp);
            return Err(Error::Busy(format!(
                "the tables made from one network run at most {} bot programs at once: \
                 try again later, or choose a built-in level",
                self.net_cap()
            )));
        }
        if self.slots.available_permits() < n {
            metrics.refused(Refusal::BotProcesses);
            return Err(self.busy());
        }
        Ok(())
    }

    /// The refusal (no count of the programs running: how many run, and
    /// when they start, is other tables' business).
    fn busy(&self) -> Error {
        Error::Busy(format!(
            "this server runs at most {} bot programs at once, and too few are free: \
             try again later, or choose a built-in level",
            self.cap
        ))
    }

    /// Takes a process slot for a table `owner` made, if one is free
    /// under both caps; a refusal is counted in `metrics`.
    pub(crate) fn take(&self, owner: &str, metrics: &Metrics) -> Option<ProcessSlot> {
        let mut owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        let held = owners.get(owner).copied().unwrap_or(0);
        let net = network(owner);
        let held_net = owners.get(&net).copied().unwrap_or(0);
        if held >= self.per_owner || held_net >= self.net_cap() {
            metrics.refused(Refusal::BotProcessesPerIp);
            return None;
        }
        let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() else {
            metrics.refused(Refusal::BotProcesses);
            return None;
        };
        owners.insert(owner.to_string(), held + 1);
        owners.insert(net, held_net + 1);
        Some(ProcessSlot {
            _permit: permit,
            owner: owner.to_string(),
            owners: Arc::clone(&self.owners),
        })
    }

    /// The bot of level `name` holding `slot` (its process starts at its
    /// first `start`); its stand-in is seeded with `seed`.
    pub(crate) fn make<G: Roster>(
        &self,
        name: &str,
        slot: ProcessSlot,
        gauge: &Arc<Gauge>,
        seed: u64,
    ) -> Result<Box<dyn Bot<G>>, MakeError> {
        let program = self
            .programs
            .iter()
            .find(|p| p.name == name && p.plays(G::NAME))
            .ok_or_else(|| MakeError::Unknown(name.to_string()))?;
        let bot = extbot::External::<G>::new(&program.command, self.limits.clone(), seed)
            .map_err(MakeError::Start)?;
        Ok(Box::new(Hosted {
            bot,
            _held: gauge.hold(),
            _slot: slot,
        }))
    }
}

/// An external bot holding its process slot: the slot (and the gauge's
/// unit) is given back when the bot is dropped, after its process ended
/// (fields drop in order).
struct Hosted<G: Roster> {
    bot: extbot::External<G>,
    _held: Held,
    _slot: ProcessSlot,
}

impl<G: Roster> Bot<G> for Hosted<G> {
    fn name(&self) -> &'static str {
        self.bot.name()
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action {
        self.bot.choose(view, legal)
    }

    fn listens(&self) -> bool {
        true
    }

    fn start(&mut self, seat: game::Seat, players: usize, options: &G::Options) {
        self.bot.start(seat, players, options);
    }

    fn observe(&mut self, event: &G::Event) {
        self.bot.observe(event);
    }

    fn finish(&mut self, outcome: &game::Outcome) {
        self.bot.finish(outcome);
    }

    fn take_strikes(&mut self) -> Vec<String> {
        self.bot.take_strikes()
    }

    fn take_stand_in(&mut self) -> u64 {
        self.bot.take_stand_in()
    }
}

/// `percent` of `cap`, at least one (when `cap` is not 0).
fn share(cap: usize, percent: usize) -> usize {
    (cap * percent.min(100) / 100).max(cap.min(1))
}

/// Drops `value` on the blocking pool (an external bot's `Drop` waits up
/// to a second for its process), or on a thread of its own outside a
/// runtime. Never blocks the caller.
pub(crate) fn drop_off_runtime<T: Send + 'static>(value: T) {
    match tokio::runtime::Handle::try_current() {
        Ok(rt) => {
            rt.spawn_blocking(move || drop(value));
        }
        Err(_) => {
            let _ = std::thread::Builder::new()
                .name("bot-drop".into())
                .spawn(move || drop(value));
        }
    }
}

/// A bot a table may have: one of the game's named bots at its default
/// budget. A budget (`search:600000ms`, `search:10000000`) is the
/// command line's, never a client's: it would let one table hold the
/// server's bot threads for minutes. Or one of the bot programs the
/// operator offers, by name: a client never gives a command.
pub(crate) fn server_bot<G: Roster>(name: &str, external: &ExternalBots) -> Result<(), Error> {
    if G::LADDER.contains(&name) || G::BOTS.contains(&name) || external.offers_for(G::NAME, name) {
        Ok(())
    } else {
        let offered = external.names_for(G::NAME);
        let mut names: Vec<&str> = G::LADDER.to_vec();
        names.extend(G::BOTS.iter().filter(|b| !G::LADDER.contains(b)));
        names.extend(offered.iter().map(String::as_str));
        Err(Error::BadInput(format!(
            "unknown bot `{name}` (choose from: {})",
            names.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(
            Program::parse("mybot=python3 b.py").unwrap(),
            Program {
                name: "mybot".into(),
                game: None,
                command: "python3 b.py".into()
            }
        );
        assert!(Program::parse("mybot").is_err());
        assert!(Program::parse("mybot=").is_err());
        assert!(Program::parse("My Bot=x").is_err());
        assert!(Program::parse("heuristic=x").is_err());
        assert!(Program::parse("random=x").is_err());
        assert!(Program::parse("external=x").is_err());
        assert!(Program::parse(&format!("{}=x", "a".repeat(MAX_NAME + 1))).is_err());
        let p = |n: &str| Program::parse(&format!("{n}=true")).unwrap();
        assert!(ExternalBots::new(vec![p("a"), p("a")], 100, 2).is_err());
    }

    #[test]
    fn a_program_may_play_one_game() {
        let d = Program::parse("dalmuti:mybot=python3 d.py").unwrap();
        assert_eq!(d.game.as_deref(), Some("dalmuti"));
        assert_eq!(d.name, "mybot");
        assert!(d.plays("dalmuti") && !d.plays("bigcheese"));
        assert_eq!(
            Program::parse("chess:mybot=x"),
            Err(ProgramError::UnknownGame("chess".into()))
        );
        assert!(Program::parse("dalmuti:Bad=x").is_err());
        let b = Program::parse("bigcheese:mybot=python3 b.py").unwrap();
        // One name, a program per game.
        let bots = ExternalBots::new(vec![d.clone(), b], 100, 2).unwrap();
        assert_eq!(bots.names_for("dalmuti"), ["mybot"]);
        assert!(bots.offers_for("bigcheese", "mybot"));
        let both = Program::parse("mybot=x").unwrap();
        assert!(ExternalBots::new(vec![d.clone(), both], 100, 2).is_err());
        let other = Program::parse("dalmuti:only=x").unwrap();
        let bots = ExternalBots::new(vec![d, other], 100, 2).unwrap();
        assert!(bots.names_for("bigcheese").is_empty());
        assert!(!bots.offers_for("bigcheese", "only"));
        assert!(bots.offers("only"), "a person still may not take its name");
    }

    /// One network's addresses share one cap: its share of the
    /// server-wide one.
    #[test]
    fn a_network_holds_at_most_its_share() {
        let p = Program::parse("a=true").unwrap();
        let bots = ExternalBots::new(vec![p], 100, 8)
            .unwrap()
            .per_ip(2)
            .share_per_net(50);
        let metrics = Metrics::new();
        let mut held = Vec::new();
        for owner in ["10.0.0.1", "10.0.0.2"] {
            held.push(bots.take(owner, &metrics).unwrap());
            held.push(bots.take(owner, &metrics).unwrap());
        }
        assert_eq!(bots.held_by_network_of("10.0.0.200"), 4);
        // A third address of the same /24: its network is full.
        assert!(bots.take("10.0.0.3", &metrics).is_none());
        assert!(matches!(
            bots.check(1, "10.0.0.3", &metrics),
            Err(Error::Busy(_))
        ));
        // Another /24 is another network.
        held.push(bots.take("10.0.1.1", &metrics).unwrap());
        // IPv6: by /48.
        assert_eq!(network("2001:db8:1:200::"), network("2001:db8:1:ff00::"));
        assert_ne!(network("2001:db8:1::"), network("2001:db8:2::"));
        drop(held);
        assert_eq!(bots.held_by_network_of("10.0.0.1"), 0);
        assert_eq!(bots.in_use(), 0);
    }

    #[test]
    fn slots_are_capped_and_given_back() {
        let p = Program::parse("a=true").unwrap();
        let bots = ExternalBots::new(vec![p], 100, 3).unwrap().per_ip(2);
        let metrics = Metrics::new();
        let count = |kind: &str| {
            let text = metrics.render(0);
            let key = format!("ratrace_refusals_total{{kind=\"{kind}\"}} ");
            text.lines()
                .find_map(|l| l.strip_prefix(key.as_str()))
                .and_then(|v| v.parse::<u64>().ok())
        };
        // Checking takes nothing.
        assert!(bots.check(2, "x", &metrics).is_ok());
        assert_eq!(bots.in_use(), 0);
        let x1 = bots.take("x", &metrics).unwrap();
        let x2 = bots.take("x", &metrics).unwrap();
        assert_eq!((bots.in_use(), bots.held_by("x")), (2, 2));
        // One address's tables run at most two.
        assert!(bots.take("x", &metrics).is_none());
        assert!(matches!(bots.check(1, "x", &metrics), Err(Error::Busy(_))));
        assert_eq!(count("bot_processes_per_ip"), Some(2));
        // The server runs at most three.
        let y1 = bots.take("y", &metrics).unwrap();
        assert!(bots.take("y", &metrics).is_none());
        assert!(matches!(bots.check(1, "z", &metrics), Err(Error::Busy(_))));
        assert_eq!(count("bot_processes"), Some(2));
        drop(x1);
        assert_eq!((bots.in_use(), bots.held_by("x")), (2, 1));
        let y2 = bots.take("y", &metrics).unwrap();
        drop((x2, y1, y2));
        assert_eq!(
            (bots.in_use(), bots.held_by("x"), bots.held_by("y")),
            (0, 0, 0)
        );
        assert!(bots.check(0, "x", &metrics).is_ok());
        // A table that needs more than one address may run is refused.
        assert!(matches!(bots.check(3, "w", &metrics), Err(Error::Busy(_))));
    }
}
