//! The scenario runner: reads the small line format of `scenarios/*.scen`,
//! sets up a position through [`Scenario`], plays actions and checks
//! expectations, reporting every failure with its line.
//!
//! One runner serves both games and every caller (`ratrace scenario`, the
//! rules crates' own tests, the fuzzer): it owns the line format, actions,
//! illegal checks and the generic expectations (turn, over, winners, legal
//! actions, log, events, setup errors); anything else is handed to the game's own
//! [`Scenario::expect`]. It does no IO: callers read the files.
//!
//! ```text
//! game bigcheese
//! players 4
//! seed 7
//! option dice=d6
//! deck 20 4 V            # game-specific setup
//! P1 bid 3               # must be P1's turn and legal
//! illegal P2 bid 11: exceeds    # must be rejected, error contains "exceeds"
//! expect turn P2
//! expect legal-actions pass, bid 4, veto   # exact list, separated by ", "
//! expect log P1 bids 3   # some event's English text contains this
//! expect event bid seat=P1 amount=3   # some event of this kind has these fields
//! expect free P1 7       # game-specific expectation
//! ```
//!
//! `expect event KIND FIELD=VALUE ...` matches the typed events (the kinds
//! are [`GameEvent::KINDS`]; the fields are those of the event's JSON
//! form): a value is the field's text, a list comma-joined
//! (`winners=P1,P2`), and `a.b` reaches inside a field (`roll.payout=60`).
//!
//! A scenario about a refused setup (a bad option, player count or
//! position) ends with `expect setup-error TEXT`: the option line or the
//! setup must be refused with a message containing TEXT, and nothing may
//! follow.

use super::{Scenario, ScenarioError};
use crate::{Game, GameEvent, GameOptions, Seat};
use std::fmt;

/// One expectation that did not hold, or a line that could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The scenario file (or name).
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// The result of running one scenario.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Expectations and actions that passed.
    pub checks: usize,
    /// Everything that failed.
    pub failures: Vec<Failure>,
}

/// Strips a comment and surrounding space from a line.
fn content(line: &str) -> &str {
    match line.find('#') {
        Some(i) => line[..i].trim(),
        None => line.trim(),
    }
}

/// Runs scenario text for game `G`; `name` is used in failure messages.
pub fn run<G: Scenario>(name: &str, text: &str) -> Report {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, content(l)))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let fail = |line, message: String| Report {
        checks: 0,
        failures: vec![Failure {
            file: name.to_string(),
            line,
            message,
        }],
    };
    let Some(&(first_line, first)) = lines.first() else {
        return fail(
            0,
            "empty scenario: the first line must be `game NAME`".into(),
        );
    };
    let Some(game_name) = first.strip_prefix("game ").map(str::trim) else {
        return fail(first_line, "the first line must be `game NAME`".into());
    };
    if game_name != G::NAME {
        return fail(
            first_line,
            format!("this is a `{game_name}` scenario, not `{}`", G::NAME),
        );
    }
    Runner::<G>::new(name).run(&lines[1..])
}

/// The game a scenario is for: the name on its first line (`game NAME`),
/// or the failure that says why there is none.
pub fn game_of(name: &str, text: &str) -> Result<String, Failure> {
    let first = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, content(l)))
        .find(|(_, l)| !l.is_empty());
    let fail = |line, message: &str| Failure {
        file: name.to_string(),
        line,
        message: message.to_string(),
    };
    match first {
        None => Err(fail(
            0,
            "empty scenario: the first line must be `game NAME`",
        )),
        Some((n, l)) => match l.strip_prefix("game ") {
            Some(g) => Ok(g.trim().to_string()),
            None => Err(fail(n, "the first line must be `game NAME`")),
        },
    }
}

struct Runner<G: Scenario> {
    file: String,
    players: usize,
    seed: u64,
    options: G::Options,
    setup: Option<G::Setup>,
    game: Option<G>,
    report: Report,
    /// An `option` line that was refused (line, message), kept for
    /// `expect setup-error`; any other line after it fails.
    refused: Option<(usize, String)>,
    /// `expect setup-error` held: the scenario is over.
    setup_failed: bool,
}

/// Splits `key rest` at the first space.
fn split_key(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((k, rest)) => (k, rest.trim()),
        None => (line, ""),
    }
}

impl<G: Scenario> Runner<G> {
    fn new(file: &str) -> Self {
        Runner {
            file: file.to_string(),
            players: G::DEFAULT_PLAYERS,
            seed: 0,
            options: G::Options::default(),
            setup: Some(G::Setup::default()),
            game: None,
            report: Report::default(),
            refused: None,
            setup_failed: false,
        }
    }

    fn fail(&mut self, line: usize, message: impl Into<String>) {
        self.report.failures.push(Failure {
            file: self.file.clone(),
            line,
            message: message.into(),
        });
    }

    fn run(mut self, lines: &[(usize, &str)]) -> Report {
        for &(n, line) in lines {
            if let Err(stop) = self.line(n, line) {
                if stop {
                    self.fail(n, "scenario stopped here: later lines were not run");
                    break;
                }
            }
        }
        if let Some((at, e)) = self.refused.take() {
            // A refused option that no `expect setup-error` expected.
            self.fail(at, e);
        }
        if self.game.is_none() && self.report.failures.is_empty() && !self.setup_failed {
            self.fail(0, "the scenario plays no action and checks nothing");
        }
        self.report
    }

    /// Builds the game on first use (after the setup lines).
    fn game(&mut self, line: usize) -> Result<&mut G, bool> {
        if self.game.is_none() {
            let setup = self.setup.take().unwrap_or_default();
            match G::from_setup(&self.options, self.players, self.seed, setup) {
                Ok(mut g) => {
                    g.set_logging(true);
                    self.game = Some(g);
                }
                Err(e) => {
                    self.fail(line, format!("cannot set up the position: {e}"));
                    return Err(true);
                }
            }
        }
        Ok(self.game.as_mut().expect("built above"))
    }

    /// Runs one line. `Err(true)` means the scenario cannot go on.
    fn line(&mut self, n: usize, line: &str) -> Result<(), bool> {
        let (key, rest) = split_key(line);
        if self.setup_failed {
            self.fail(n, "the setup failed as expected: nothing can follow");
            return Err(true);
        }
        if key == "expect" && split_key(rest).0 == "setup-error" {
            return self.setup_error(n, split_key(rest).1);
        }
        if self.refused.is_some()
            && (key.parse::<Seat>().is_ok() || matches!(key, "illegal" | "expect"))
        {
            if let Some((at, e)) = self.refused.take() {
                self.fail(at, e);
            }
            return Err(true);
        }
        if let Ok(seat) = key.parse::<Seat>() {
            return self.action(n, seat, rest);
        }
        match key {
            "illegal" => self.illegal(n, rest),
            "expect" => self.expect(n, rest),
            _ if self.game.is_some() => {
                self.fail(n, format!("setup line `{key}` after the first action"));
                Err(true)
            }
            "players" => match rest.parse::<usize>() {
                Ok(p) => {
                    self.players = p;
                    Ok(())
                }
                Err(_) => {
                    self.fail(n, format!("`{rest}` is not a player count"));
                    Err(true)
                }
            },
            "seed" => match rest.parse::<u64>() {
                Ok(s) => {
                    self.seed = s;
                    Ok(())
                }
                Err(_) => {
                    self.fail(n, format!("`{rest}` is not a seed"));
                    Err(true)
                }
            },
            "option" => {
                if let Err(e) = self.options.set_pair(rest) {
                    // A failure unless `expect setup-error` expects it.
                    self.refused.get_or_insert((n, e.to_string()));
                }
                Ok(())
            }
            _ => {
                let setup = self.setup.as_mut().expect("setup until the game starts");
                match G::setup_line(setup, key, rest) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        self.fail(n, format!("setup `{key}`: {e}"));
                        Err(true)
                    }
                }
            }
        }
    }

    fn parse_action(&mut self, n: usize, text: &str) -> Result<G::Action, bool> {
        text.parse::<G::Action>().map_err(|e| {
            self.fail(n, format!("cannot read action `{text}`: {e}"));
            true
        })
    }

    fn action(&mut self, n: usize, seat: Seat, text: &str) -> Result<(), bool> {
        let action = self.parse_action(n, text)?;
        let game = self.game(n)?;
        match game.act(seat, action) {
            Ok(()) => {
                self.report.checks += 1;
                Ok(())
            }
            Err(e) => {
                self.fail(n, format!("{seat} {action} was refused: {e}"));
                Err(true)
            }
        }
    }

    fn illegal(&mut self, n: usize, rest: &str) -> Result<(), bool> {
        let (act, reason) = match rest.split_once(':') {
            Some((a, r)) => (a.trim(), r.trim()),
            None => (rest, ""),
        };
        let (seat, text) = split_key(act);
        let Ok(seat) = seat.parse::<Seat>() else {
            self.fail(
                n,
                format!("expected `illegal SEAT ACTION[: reason]`, got `{rest}`"),
            );
            return Err(true);
        };
        let action = self.parse_action(n, text)?;
        let game = self.game(n)?;
        let before = format!("{game:?}");
        let result = game.act(seat, action);
        let unchanged = format!("{game:?}") == before;
        match result {
            Ok(()) => {
                self.fail(
                    n,
                    format!("{seat} {action} was accepted, expected it to be illegal"),
                );
                Err(true)
            }
            Err(e) => {
                let msg = e.to_string();
                if !unchanged {
                    self.fail(
                        n,
                        format!("refused {seat} {action} ({msg}) but changed the state"),
                    );
                } else if !msg.contains(reason) {
                    self.fail(
                        n,
                        format!("{seat} {action} refused with \"{msg}\", expected it to mention \"{reason}\""),
                    );
                } else {
                    self.report.checks += 1;
                }
                Ok(())
            }
        }
    }

    /// `expect setup-error TEXT`: a refused option line, or the setup
    /// itself, must be refused with a message containing TEXT.
    fn setup_error(&mut self, n: usize, want: &str) -> Result<(), bool> {
        if self.game.is_some() {
            self.fail(n, "expect setup-error comes before the first action");
            return Err(true);
        }
        self.setup_failed = true;
        let refused = match self.refused.take() {
            Some((_, e)) => Some(e),
            None => {
                let setup = self.setup.take().unwrap_or_default();
                G::from_setup(&self.options, self.players, self.seed, setup)
                    .err()
                    .map(|e| e.to_string())
            }
        };
        match refused {
            Some(e) if e.contains(want) => self.report.checks += 1,
            Some(e) => self.fail(
                n,
                format!("the setup was refused with \"{e}\", expected it to mention \"{want}\""),
            ),
            None => self.fail(
                n,
                format!("expected the setup to be refused (\"{want}\"), it was accepted"),
            ),
        }
        Ok(())
    }

    fn expect(&mut self, n: usize, rest: &str) -> Result<(), bool> {
        let (key, args) = split_key(rest);
        let game = self.game(n)?;
        let result = generic_expect(game, key, args).unwrap_or_else(|| game.expect(key, args));
        match result {
            Ok(()) => self.report.checks += 1,
            Err(ScenarioError::Failed(m)) => self.fail(n, format!("expect {rest}: {m}")),
            Err(e) => {
                self.fail(n, format!("expect {rest}: {e}"));
                return Err(true);
            }
        }
        Ok(())
    }
}

fn seats_text(seats: &[Seat]) -> String {
    if seats.is_empty() {
        return "none".to_string();
    }
    seats
        .iter()
        .map(Seat::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The expectations every game shares; `None` for a key this does not know.
fn generic_expect<G: Game>(game: &G, key: &str, args: &str) -> Option<Result<(), ScenarioError>> {
    let failed = |m: String| Err(ScenarioError::Failed(m));
    Some(match key {
        "turn" => match args.parse::<Seat>() {
            Err(e) => Err(ScenarioError::BadArgs(e.to_string())),
            Ok(s) => match game.to_move() {
                Some(t) if t == s => Ok(()),
                Some(t) => failed(format!("expected {s} to move, found {t}")),
                None => failed(format!("expected {s} to move, the game is over")),
            },
        },
        "over" => match game.outcome() {
            Some(_) => Ok(()),
            None => failed("expected the game to be over, it is not".into()),
        },
        "not-over" => match game.outcome() {
            None => Ok(()),
            Some(o) => failed(format!("expected the game to go on, it is over: {o:?}")),
        },
        "winners" => {
            let mut want: Vec<Seat> = Vec::new();
            if args != "none" {
                for w in args.split_whitespace() {
                    match w.parse() {
                        Ok(s) => want.push(s),
                        Err(e) => return Some(Err(ScenarioError::BadArgs(format!("{e}")))),
                    }
                }
            }
            want.sort();
            match game.outcome() {
                None => failed(format!(
                    "expected winners {}, the game is not over",
                    seats_text(&want)
                )),
                Some(o) => {
                    let mut got = o.winners.clone();
                    got.sort();
                    if got == want {
                        Ok(())
                    } else {
                        failed(format!(
                            "expected winners {}, found {}",
                            seats_text(&want),
                            seats_text(&got)
                        ))
                    }
                }
            }
        }
        "legal-actions" => {
            let mut legal = Vec::new();
            game.legal_actions(&mut legal);
            let got: Vec<String> = legal.iter().map(ToString::to_string).collect();
            let want: Vec<String> = args
                .split(", ")
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if got == want {
                Ok(())
            } else {
                failed(format!(
                    "expected [{}], found [{}]",
                    want.join(", "),
                    got.join(", ")
                ))
            }
        }
        "legal" | "not-legal" => match args.parse::<G::Action>() {
            Err(e) => Err(ScenarioError::BadArgs(e.to_string())),
            Ok(a) => match (key == "legal", game.check(a)) {
                (true, Ok(())) | (false, Err(_)) => Ok(()),
                (true, Err(e)) => failed(format!("expected `{a}` to be legal: {e}")),
                (false, Ok(())) => failed(format!("expected `{a}` to be illegal, it is legal")),
            },
        },
        "log" => {
            let lines: Vec<String> = game.events().iter().map(|e| e.event.to_string()).collect();
            if lines.iter().any(|l| l.contains(args)) {
                Ok(())
            } else {
                let tail: Vec<&String> = lines.iter().rev().take(5).collect();
                failed(format!(
                    "no log line contains \"{args}\" (last lines: {tail:?})"
                ))
            }
        }
        "event" => expect_event(game, args),
        _ => return None,
    })
}

/// `expect event KIND [FIELD=VALUE ...]`: some event of the log has this
/// kind and these fields. A value is compared with the field's text: a
/// string as is, a number or `true`/`false` as written, a list as its
/// items joined by commas (`winners=P1,P2`, `dice=2,3`); `a.b` names a
/// field inside a field (`roll.payout=60`).
fn expect_event<G: Game>(game: &G, args: &str) -> Result<(), ScenarioError> {
    let mut words = args.split_whitespace();
    let kind = words.next().unwrap_or_default();
    if !<G::Event as GameEvent>::KINDS.contains(&kind) {
        return Err(ScenarioError::BadArgs(format!(
            "`{kind}` is not an event kind of {} (one of {})",
            G::NAME,
            <G::Event as GameEvent>::KINDS.join(", ")
        )));
    }
    let mut want = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some(pair) => want.push(pair),
            None => return Err(ScenarioError::BadArgs(format!("`{w}` is not FIELD=VALUE"))),
        }
    }
    let same_kind: Vec<serde_json::Value> = game
        .events()
        .iter()
        .filter(|e| e.event.kind() == kind)
        .filter_map(|e| serde_json::to_value(&e.event).ok())
        .collect();
    let fits = |json: &serde_json::Value| {
        want.iter().all(|(field, value)| {
            field
                .split('.')
                .try_fold(json, |v, f| v.get(f))
                .is_some_and(|v| field_text(v) == *value)
        })
    };
    if same_kind.iter().any(fits) {
        return Ok(());
    }
    let seen: Vec<String> = same_kind
        .iter()
        .rev()
        .take(3)
        .map(ToString::to_string)
        .collect();
    Err(ScenarioError::Failed(format!(
        "no `{kind}` event has {} (last of that kind: {})",
        want.iter()
            .map(|(f, v)| format!("{f}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
        seen.join(", ")
    )))
}

/// A JSON field as a scenario writes it: strings bare, lists comma-joined.
fn field_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            items.iter().map(field_text).collect::<Vec<_>>().join(",")
        }
        other => other.to_string(),
    }
}
