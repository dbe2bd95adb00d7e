//! [`External`]: a bot program, spoken to with `ratrace-bot/1`, that sits
//! at a table like any [`Bot`], and whose failures never reach the game.
//!
//! Every failure (a missed deadline, garbage, an illegal action, a crash, a
//! flood) is a strike with a reason, and that decision is played by a
//! stand-in, the `heuristic` bot, from the same view. After
//! [`Limits::strikes`] strikes in a game, or at once for a failure that
//! leaves the process unusable, the process is killed and the stand-in
//! plays the seat to the end of the game; the next game starts a new
//! process. So [`Bot::choose`] always returns a legal action in bounded
//! time, and the loops that run bots need nothing special.

use crate::process::{Line, Process, Wait};
use crate::protocol::{FromBot, Match, Time, ToBot, PROTOCOL};
use bots::{Bot, Roster};
use game::{Game, GameOptions, Outcome, Seat};
use std::time::{Duration, Instant};

/// The limits a bot process plays under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most one decision may take.
    pub move_time: Duration,
    /// The bank for the whole game, if any.
    pub game_time: Option<Duration>,
    /// How long the first `start` of a process may take to get `ready`
    /// (the program starting up); later ones get `move_time`.
    pub start_time: Duration,
    /// Strikes in one game before the process is replaced.
    pub strikes: u32,
    /// Bytes of stderr in one game before it counts as a flood.
    pub stderr_bytes: u64,
    /// How long the bot has to exit by itself after `quit`.
    pub quit_time: Duration,
    /// Stray lines (not the answer awaited) in one decision before it
    /// counts as a flood.
    pub stray_lines: u32,
    /// A folder where each game's stderr is kept, one file per seat and
    /// game ([`crate::stderr_log`]); `None` (the default) keeps none.
    pub stderr_log: Option<std::path::PathBuf>,
    /// How the process is confined: `None` for a program the user runs
    /// themselves (`bot-check`, tournaments), a [`crate::Sandbox`] for one
    /// a server runs for strangers.
    pub sandbox: Option<crate::Sandbox>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            move_time: Duration::from_millis(1000),
            game_time: None,
            start_time: Duration::from_secs(5),
            strikes: 3,
            stderr_bytes: 1 << 20,
            quit_time: Duration::from_secs(1),
            stray_lines: 16,
            stderr_log: None,
            sandbox: None,
        }
    }
}

/// One decision the process answered, for reports (`bot-check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// How long the answer took, microseconds.
    pub micros: u64,
    /// The time it had, microseconds.
    pub allowed_micros: u64,
}

/// What an external bot did, for reports: answers, strikes, its name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The name the bot gave in its last `ready`.
    pub name: Option<String>,
    /// The protocol version it gave.
    pub protocol: Option<u32>,
    /// Every decision it answered in time with a legal action.
    pub answers: Vec<Answer>,
    /// Every strike, in order.
    pub strikes: Vec<String>,
    /// Decisions the stand-in played (a strike's, or after a replacement).
    pub stand_in: u64,
    /// Processes started.
    pub spawned: u64,
    /// Processes that exited by themselves, with status 0, after `quit`.
    pub clean_exits: u64,
    /// How each process that did not exit cleanly after `quit` ended.
    pub unclean_exits: Vec<String>,
}

/// A bot program at a table (see the module doc).
pub struct External<G: Roster> {
    command: String,
    limits: Limits,
    process: Option<Process>,
    stand_in: Box<dyn Bot<G>>,
    /// Seated for this game and not replaced: decisions go to the process.
    live: bool,
    strikes_this_game: u32,
    /// Decision ids, per process.
    next_id: u64,
    /// Games this process has started.
    games: u64,
    bank: Option<Duration>,
    /// Strikes not yet taken by [`Bot::take_strikes`].
    pending: Vec<String>,
    /// Stand-in decisions not yet taken by [`Bot::take_stand_in`].
    pending_stand_in: u64,
    /// Some process of this bot said `ready` once.
    was_ready: bool,
    /// Why the bot cannot play at all ([`Bot::unusable`]).
    unusable: Option<String>,
    record: Record,
    /// Keep each answer's timing in [`Record::answers`] (bot-check).
    keep_answers: bool,
    line: Vec<u8>,
    /// The id of the game being started ([`Bot::game_id`]), for the
    /// stderr log's file name.
    game_id: Option<String>,
}

impl<G: Roster> External<G> {
    /// A bot that runs `command` (under `/bin/sh -c`) when its first game
    /// starts; `seed` seeds the stand-in.
    pub fn new(command: &str, limits: Limits, seed: u64) -> Result<External<G>, bots::BotError> {
        Ok(External {
            command: command.to_string(),
            limits,
            process: None,
            stand_in: G::bot("heuristic", seed)?,
            live: false,
            strikes_this_game: 0,
            next_id: 0,
            games: 0,
            bank: None,
            pending: Vec::new(),
            pending_stand_in: 0,
            was_ready: false,
            unusable: None,
            record: Record::default(),
            keep_answers: false,
            line: Vec::with_capacity(4096),
            game_id: None,
        })
    }

    /// Keeps the timing of every answer in [`External::record`].
    pub fn keep_answers(&mut self) {
        self.keep_answers = true;
    }

    /// What the bot did so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Ends the process, if one runs: `quit`, up to [`Limits::quit_time`]
    /// to exit, then its process group is killed. Records whether it
    /// exited cleanly.
    pub fn shutdown(&mut self) {
        if let Some(mut p) = self.process.take() {
            let quit = line_of::<G>(&ToBot::Quit);
            match p.shutdown(Some(quit), self.limits.quit_time) {
                Some(status) if status.success() => self.record.clean_exits += 1,
                Some(status) => self
                    .record
                    .unclean_exits
                    .push(crate::process::describe(status)),
                None => self.record.unclean_exits.push(format!(
                    "still running {} ms after quit (killed)",
                    self.limits.quit_time.as_millis()
                )),
            }
        }
        self.live = false;
    }

    /// A strike: counted, reported, and the process replaced for the rest
    /// of the game when `fatal` or when the game's strikes reach the limit.
    fn strike(&mut self, reason: String, fatal: bool) {
        self.strikes_this_game += 1;
        let replace = fatal || self.strikes_this_game >= self.limits.strikes;
        let reason = if replace && self.live {
            let tail = self
                .process
                .as_ref()
                .map(Process::stderr_last_line)
                .unwrap_or_default();
            let tail = if tail.is_empty() {
                String::new()
            } else {
                format!("; its stderr ends: {tail}")
            };
            format!("{reason} (replaced by the heuristic bot for the rest of the game{tail})")
        } else {
            reason
        };
        self.pending.push(reason.clone());
        self.record.strikes.push(reason);
        if replace {
            self.live = false;
            if let Some(mut p) = self.process.take() {
                p.kill();
            }
        }
    }

    /// Marks the bot unusable when no process of it has said `ready` yet:
    /// `why` its first start failed, with the end of its stderr (where an
    /// interpreter says the file is missing).
    fn note_unusable(&mut self, why: &str) {
        if self.was_ready || self.unusable.is_some() {
            return;
        }
        let stderr = self
            .process
            .as_ref()
            .map(|p| p.stderr_last_lines(10))
            .unwrap_or_default();
        let stderr = if stderr.is_empty() {
            "it wrote nothing to stderr".to_string()
        } else {
            format!("its stderr ends:\n{stderr}")
        };
        self.unusable = Some(format!(
            "the bot program `{}` never said ready ({why}), so it cannot play; {stderr}",
            self.command
        ));
    }

    /// Sends one message; a strike (fatal) if the bot is not reading.
    fn send(&mut self, msg: &ToBot<'_, G::View, G::Event, G::Action>) -> bool {
        self.line.clear();
        if serde_json::to_writer(&mut self.line, msg).is_err() {
            return false;
        }
        self.line.push(b'\n');
        let line = self.line.clone();
        let sent = self.process.as_mut().is_some_and(|p| p.send(line));
        if !sent {
            let why = match self.process.as_mut() {
                Some(p) => match p.wait_exit(Duration::ZERO) {
                    Some(status) => crate::process::describe(status),
                    None => "stopped reading its input".to_string(),
                },
                None => "has no process".to_string(),
            };
            self.note_unusable(&why);
            self.strike(why, true);
        }
        sent
    }

    /// With a stderr log folder, hands the process this game's file: named
    /// after the game's id, or after the process's game count when no id
    /// was told.
    fn open_stderr_log(&mut self, seat: Seat) {
        let (Some(dir), Some(p)) = (&self.limits.stderr_log, &self.process) else {
            return;
        };
        let id = self
            .game_id
            .take()
            .unwrap_or_else(|| format!("{}-game{}", G::NAME, self.games));
        let path = crate::stderr_log::log_path(dir, &id, seat);
        p.log_stderr(crate::stderr_log::StderrLog::create(&path).ok());
    }

    /// Checks the stderr budget: a flood is a fatal strike.
    fn check_stderr(&mut self) -> bool {
        let over = self
            .process
            .as_ref()
            .is_some_and(|p| p.stderr_bytes() > self.limits.stderr_bytes);
        if over {
            let mib = self.limits.stderr_bytes as f64 / f64::from(1u32 << 20);
            self.strike(format!("flooded stderr (over {mib} MiB in one game)"), true);
        }
        !over
    }

    /// Waits for the answer to decision `id` (or for `ready` when `id` is
    /// 0) until `deadline`. `Err` is the strike's reason and whether it is
    /// fatal.
    fn wait_for(
        &mut self,
        id: u64,
        begun: Instant,
        allowed: Duration,
    ) -> Result<FromBot, (String, bool)> {
        let deadline = begun + allowed;
        let mut stray = 0u32;
        // Answers to decisions already played are late, not garbage.
        let late_below = if id == 0 { self.next_id + 1 } else { id };
        let stray_limit = self.limits.stray_lines;
        let Some(p) = self.process.as_mut() else {
            return Err(("has no process".into(), true));
        };
        loop {
            let line = match p.recv(deadline) {
                Ok(Line::Text(t)) => t,
                Ok(Line::TooLong) => {
                    return Err((
                        format!(
                            "flooded its output (a line over {} KiB)",
                            crate::protocol::MAX_LINE / 1024
                        ),
                        true,
                    ))
                }
                Ok(Line::Binary) => String::from("<bytes that are not UTF-8>"),
                Ok(Line::Closed) | Err(Wait::Closed) => {
                    return Err((p.ended(Duration::from_millis(200)), true))
                }
                Err(Wait::Timeout) => {
                    let what = if id == 0 { "no ready" } else { "no answer" };
                    return Err((format!("{what} in {} ms", allowed.as_millis()), false));
                }
            };
            let want = if id == 0 {
                r#"{"type":"ready","name":...,"protocol":1}"#.to_string()
            } else {
                format!(r#"{{"type":"action","id":{id},"action":...}}"#)
            };
            match serde_json::from_str::<FromBot>(&line) {
                // A late answer to a decision already played: ignored.
                Ok(FromBot::Action { id: got, .. }) if got < late_below => {}
                Ok(msg @ FromBot::Action { id: got, .. }) if id > 0 && got == id => return Ok(msg),
                Ok(msg @ FromBot::Ready { .. }) if id == 0 => return Ok(msg),
                _ => {
                    return Err((
                        format!("garbage: expected {want}, got {}", cut(&line)),
                        false,
                    ));
                }
            }
            stray += 1;
            if stray > stray_limit {
                return Err(("flooded its output (stray lines)".into(), true));
            }
        }
    }

    /// Starts the process if none runs; false (with a fatal strike) if it
    /// cannot be started.
    fn ensure_process(&mut self) -> bool {
        if self.process.is_some() {
            return true;
        }
        match Process::spawn_in(&self.command, self.limits.sandbox.as_ref()) {
            Ok(p) => {
                self.process = Some(p);
                self.record.spawned += 1;
                self.games = 0;
                self.next_id = 0;
                true
            }
            Err(e) => {
                self.live = true;
                let why = format!("could not be started: {e}");
                self.note_unusable(&why);
                self.strike(why, true);
                false
            }
        }
    }
}

/// One message as a line, newline included.
fn line_of<G: Game>(msg: &ToBot<'_, G::View, G::Event, G::Action>) -> Vec<u8> {
    let mut line = serde_json::to_vec(msg).unwrap_or_default();
    line.push(b'\n');
    line
}

/// A bot's line, cut for a report.
fn cut(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    format!("`{s}`")
}

impl<G: Roster> Drop for External<G> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl<G: Roster> Bot<G> for External<G> {
    fn name(&self) -> &'static str {
        "external"
    }

    fn listens(&self) -> bool {
        true
    }

    fn reseed(&mut self, seed: u64) -> bool {
        // The process stays (reused from game to game); the stand-in
        // plays as a new one would.
        if !self.stand_in.reseed(seed) {
            match G::bot("heuristic", seed) {
                Ok(b) => self.stand_in = b,
                Err(_) => return false,
            }
        }
        true
    }

    fn game_id(&mut self, id: &str) {
        self.game_id = Some(id.to_string());
    }

    fn start(&mut self, seat: Seat, players: usize, options: &G::Options) {
        self.live = false;
        self.strikes_this_game = 0;
        self.bank = self.limits.game_time;
        if !self.ensure_process() {
            return;
        }
        self.live = true;
        if let Some(p) = &self.process {
            p.reset_stderr();
        }
        self.games += 1;
        self.open_stderr_log(seat);
        let pairs = options.pairs();
        let msg = ToBot::Start {
            protocol: PROTOCOL,
            game: G::NAME,
            rules_version: G::RULES_VERSION,
            options: &pairs,
            players,
            seat,
            time: Time {
                move_ms: self.limits.move_time.as_millis() as u64,
                game_ms: self.limits.game_time.map(|t| t.as_millis() as u64),
            },
            match_: Match { game: self.games },
        };
        if !self.send(&msg) {
            return;
        }
        let wait = if self.games == 1 {
            self.limits.start_time.max(self.limits.move_time)
        } else {
            self.limits.move_time
        };
        match self.wait_for(0, Instant::now(), wait) {
            Ok(FromBot::Ready { name, protocol }) => {
                self.record.name = Some(name.chars().take(64).collect());
                self.record.protocol = Some(protocol);
                if protocol != PROTOCOL {
                    let why = format!("speaks protocol {protocol}, not {PROTOCOL}");
                    self.note_unusable(&why);
                    self.strike(why, true);
                } else {
                    self.was_ready = true;
                }
            }
            Ok(FromBot::Action { .. }) => unreachable!("wait_for(0) gives only ready"),
            // No ready: the bot cannot be trusted with this game.
            Err((why, _)) => {
                self.note_unusable(&why);
                self.strike(why, true);
            }
        }
    }

    fn observe(&mut self, event: &G::Event) {
        if self.live {
            self.send(&ToBot::Event { event });
        }
    }

    fn finish(&mut self, outcome: &Outcome) {
        if self.live && self.check_stderr() {
            self.send(&ToBot::End { outcome });
        }
        self.live = false;
    }

    fn take_strikes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending)
    }

    fn take_stand_in(&mut self) -> u64 {
        std::mem::take(&mut self.pending_stand_in)
    }

    fn unusable(&self) -> Option<String> {
        self.unusable.clone()
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action {
        if self.live && self.check_stderr() {
            self.next_id += 1;
            let id = self.next_id;
            let mut time = self.limits.move_time;
            if let Some(bank) = self.bank {
                time = time.min(bank);
            }
            let msg = ToBot::Act {
                id,
                view,
                legal,
                time_ms: time.as_millis() as u64,
            };
            let begun = Instant::now();
            if self.send(&msg) {
                let answer = self.wait_for(id, begun, time);
                let took = begun.elapsed();
                if let Some(bank) = &mut self.bank {
                    *bank = bank.saturating_sub(took);
                }
                match answer {
                    Ok(FromBot::Action { action, .. }) => match action.parse::<G::Action>() {
                        Ok(a) if legal.contains(&a) => {
                            if self.keep_answers {
                                self.record.answers.push(Answer {
                                    micros: took.as_micros() as u64,
                                    allowed_micros: time.as_micros() as u64,
                                });
                            }
                            return a;
                        }
                        Ok(_) => self.strike(
                            format!(
                                "illegal action {} (not among the {} legal actions)",
                                cut(&action),
                                legal.len()
                            ),
                            false,
                        ),
                        Err(e) => {
                            self.strike(format!("unreadable action {}: {e}", cut(&action)), false)
                        }
                    },
                    Ok(FromBot::Ready { .. }) => {
                        self.strike("garbage: a ready in answer to act".into(), false)
                    }
                    Err((why, fatal)) => self.strike(why, fatal),
                }
            }
        }
        self.record.stand_in += 1;
        self.pending_stand_in += 1;
        self.stand_in.choose(view, legal)
    }
}
