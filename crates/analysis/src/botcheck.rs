//! `ratrace bot-check`: the conformance checker of bot programs
//! (docs/bot-protocol.md). It plays the bot through both games, every
//! player count and a spread of rules options, the other seats played by
//! the `heuristic` bot, and reports what a bot author can act on: the
//! handshake, legality (every strike, with its reason), time use per
//! decision against the limit, and a clean exit after `quit`.
//!
//! Each configuration (game, players, options) gets one [`External`],
//! reused across its games as a tournament reuses it (a `start` per game),
//! and shut down at the end with `quit`, so that the exit is checked once
//! per process. The checker drives the bot's hooks itself (start, the
//! events its seat may see, end), the same way the bot loop of
//! [`crate::playout`] does.

use crate::Error;
use bots::{Bot, Roster};
use extbot::{External, Limits};
use game::{Game, GameOptions, Seat};
use serde::Serialize;
use std::time::Instant;

/// What to check.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot's command (run by `/bin/sh -c`).
    pub command: String,
    /// Games per configuration.
    pub games: u64,
    /// Seed of the run.
    pub seed: u64,
    /// The limits the bot plays under.
    pub limits: Limits,
    /// Worker threads (configurations run in parallel).
    pub threads: usize,
    /// Only this game's configurations (`bigcheese`, `dalmuti`); `None`
    /// for both.
    pub game: Option<String>,
}

/// One configuration: a game, a player count, options.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigReport {
    /// Game name.
    pub game: String,
    /// Seats at the start.
    pub players: usize,
    /// The options set (`key=value`); empty for the defaults.
    pub options: Vec<String>,
    /// Games played.
    pub games: u64,
    /// The bot's decisions (answered, or played by the stand-in).
    pub decisions: u64,
    /// Decisions it answered in time with a legal action.
    pub answered: u64,
    /// Median answer time, milliseconds.
    pub median_ms: f64,
    /// Longest answer time, milliseconds.
    pub max_ms: f64,
    /// Decisions it did not answer within the limit (not in the times
    /// above, which are of answers).
    pub timeouts: u64,
    /// Every strike, in order.
    pub strikes: Vec<String>,
    /// Processes started.
    pub processes: u64,
    /// Processes that exited with status 0 after `quit`.
    pub clean_exits: u64,
    /// How the others ended.
    pub unclean_exits: Vec<String>,
    /// The name the bot gave in `ready`.
    pub name: Option<String>,
    /// The protocol it gave in `ready`.
    pub protocol: Option<u32>,
    /// Wall-clock seconds of the configuration (the other bots' time and
    /// the bot's start-up and exit included).
    pub seconds: f64,
}

impl ConfigReport {
    /// `dalmuti 5p hands=1`: the configuration in a few words.
    pub fn label(&self) -> String {
        let options = if self.options.is_empty() {
            "defaults".to_string()
        } else {
            self.options.join(",")
        };
        format!("{} {}p {options}", self.game, self.players)
    }
}

/// Something to fix, with the first configuration where it happened.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    /// What happened (a strike's reason, an unclean exit).
    pub problem: String,
    /// How often.
    pub count: u64,
    /// The first configuration where it happened ([`ConfigReport::label`]).
    pub first_seen: String,
    /// What to change in the bot.
    pub fix: String,
}

/// The checker's report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The bot's command.
    pub command: String,
    /// The name it gave (the last `ready`).
    pub name: Option<String>,
    /// The protocol it gave.
    pub protocol: Option<u32>,
    /// The limit per decision, milliseconds.
    pub move_ms: u64,
    /// Games per configuration.
    pub games_per_config: u64,
    /// The run's seed.
    pub seed: u64,
    /// Per configuration.
    pub configs: Vec<ConfigReport>,
    /// Decisions over every configuration.
    pub decisions: u64,
    /// Median answer time over every configuration, milliseconds.
    pub median_ms: f64,
    /// Longest answer time, milliseconds.
    pub max_ms: f64,
    /// Strikes over every configuration.
    pub strikes: u64,
    /// What to fix; empty when the bot conforms.
    pub problems: Vec<Problem>,
    /// Remarks that do not fail the check (an answer time close to the limit).
    pub warnings: Vec<String>,
    /// No strikes, and every process exited cleanly after `quit`.
    pub conforms: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A spread of options for one game: (options, which player counts).
struct Variant {
    options: &'static [&'static str],
    players: fn(usize) -> bool,
}

fn all(_: usize) -> bool {
    true
}

/// The options each game is checked under, and at which player counts:
/// every count with one rich setting (Big Cheese's defaults; Dalmuti's
/// three-hand session with the market, so taxes and the market come up),
/// and variants that reach the other kinds of decision (Big Cheese dice
/// modes, the re-rolls that name dice, no specials, exact scoring, veto
/// timing; Dalmuti single hands,
/// the 20-hand default session, the black market, joins) at a few counts
/// each, so the whole check stays a few seconds for a quick bot (each
/// configuration starts one process).
fn variants(game: &str) -> Vec<Variant> {
    match game {
        "bigcheese" => vec![
            Variant {
                options: &[],
                players: all,
            },
            Variant {
                options: &["dice=d6"],
                players: |p| matches!(p, 3 | 5),
            },
            Variant {
                options: &["dice=no-dice", "specials=off"],
                players: |p| matches!(p, 4 | 6),
            },
            // The two modes whose re-rolls name dice (`reroll 2`,
            // `reroll 1,1,2`).
            Variant {
                options: &["dice=best-of-two"],
                players: |p| p == 4,
            },
            Variant {
                options: &["dice=half-of-n"],
                players: |p| p == 5,
            },
            Variant {
                options: &["exact=on", "veto=before-bid", "final_tie=chance"],
                players: |p| matches!(p, 3 | 6),
            },
        ],
        _ => vec![
            Variant {
                options: &["hands=3", "market=on"],
                players: all,
            },
            // The default session (20 hands) is long: the default table only.
            Variant {
                options: &[],
                players: |p| p == 5,
            },
            Variant {
                options: &["hands=1"],
                players: |p| matches!(p, 3 | 8 | 13),
            },
            Variant {
                options: &[
                    "hands=3",
                    "black_market=on",
                    "settling_hand=on",
                    "benevolent_rulers=on",
                    "the_elected=on",
                ],
                players: |p| matches!(p, 4 | 9),
            },
            Variant {
                options: &["hands=3", "joins=2"],
                players: |p| matches!(p, 6 | 12),
            },
        ],
    }
}

/// One configuration to play: players, the options set (as text), the
/// options.
type Setup<G> = (usize, Vec<String>, <G as Game>::Options);

/// The configurations of game `G`.
fn configs<G: Roster>() -> Result<Vec<Setup<G>>, Error> {
    let mut out = Vec::new();
    for v in variants(G::NAME) {
        let mut options = G::Options::default();
        for pair in v.options {
            options
                .set_pair(pair)
                .map_err(|e| Error::Config(format!("bot-check option {pair}: {e}")))?;
        }
        for players in G::PLAYERS.filter(|&p| (v.players)(p)) {
            let names = v.options.iter().map(ToString::to_string).collect();
            out.push((players, names, options.clone()));
        }
    }
    Ok(out)
}

/// The median of `xs` (sorted here), or 0.
fn median(xs: &mut [u64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_unstable();
    let n = xs.len();
    let m = if n % 2 == 1 {
        xs[n / 2] as f64
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) as f64 / 2.0
    };
    m / 1000.0
}

/// Plays one game with the bot in `seat` and `heuristic` bots elsewhere.
fn play_game<G: Roster>(
    bot: &mut External<G>,
    game: &mut G,
    seat: usize,
    seed: u64,
) -> Result<(), Error> {
    const MAX_ACTIONS: u64 = 100_000;
    game.set_logging(true);
    let me = Seat::new(seat);
    // A seat that joins later (Dalmuti's joins) starts when it sits down,
    // and then hears what it missed.
    let mut started = false;
    let mut others: Vec<Option<Box<dyn Bot<G>>>> = Vec::new();
    let mut legal = Vec::new();
    let mut heard = 0usize;
    let mut actions = 0u64;
    let outcome = loop {
        if !started && game.players() > seat {
            bot.start(me, game.players(), game.options());
            started = true;
        }
        if started {
            for e in game.events()[heard..]
                .iter()
                .filter(|e| e.visible_to(Some(me)))
            {
                bot.observe(&e.event);
            }
            heard = game.events().len();
        }
        let Some(to) = game.to_move() else {
            break game.outcome().ok_or_else(|| {
                Error::Engine("the game has no one to move but no outcome".into())
            })?;
        };
        if actions >= MAX_ACTIONS {
            break game.capped_outcome();
        }
        game.legal_actions(&mut legal);
        let view = game.view(to);
        let action = if to == me {
            bot.choose(&view, &legal)
        } else {
            let s = to.index();
            if others.len() <= s {
                others.resize_with(s + 1, || None);
            }
            if others[s].is_none() {
                let b = G::bot("heuristic", crate::derive_seed(seed, 100 + s as u64))
                    .map_err(Error::from)?;
                others[s] = Some(b);
            }
            others[s]
                .as_mut()
                .expect("made above")
                .choose(&view, &legal)
        };
        game.act(to, action)
            .map_err(|e| Error::Engine(format!("{to} {action} refused: {e}")))?;
        actions += 1;
    };
    if !started {
        return Err(Error::Engine(format!(
            "bot-check: seat {me} never sat down in this configuration"
        )));
    }
    for e in game.events()[heard..]
        .iter()
        .filter(|e| e.visible_to(Some(me)))
    {
        bot.observe(&e.event);
    }
    bot.finish(&outcome);
    Ok(())
}

/// Plays one configuration: `games` games on one process, then `quit`.
fn run_config<G: Roster>(
    cfg: &Config,
    index: usize,
    players: usize,
    options: &[String],
    opts: &G::Options,
    on_game: &(dyn Fn() + Sync),
) -> Result<ConfigReport, Error> {
    let begun = Instant::now();
    let base = crate::derive_seed(cfg.seed, index as u64);
    let mut bot =
        External::<G>::new(&cfg.command, cfg.limits.clone(), base).map_err(Error::from)?;
    bot.keep_answers();
    for g in 0..cfg.games {
        let seed = crate::derive_seed(base, 1 + g);
        let mut game = G::new(opts, players, seed)?;
        // A spread of seats: game g of n sits at g * players / n; with
        // joins, the last game sits at the first seat that joins.
        let joins = options.iter().any(|o| o.starts_with("joins="));
        let seat = if joins && g + 1 == cfg.games {
            players
        } else {
            (g as usize * players / cfg.games.max(1) as usize) % players
        };
        bot.reseed(crate::derive_seed(seed, 99));
        if cfg.limits.stderr_log.is_some() {
            bot.game_id(&format!("{}-c{index}-g{g}", G::NAME));
        }
        play_game(&mut bot, &mut game, seat, seed)?;
        on_game();
        // A bot that never said ready fails every game the same way, each
        // after the start-up wait: the check stops here, with its stderr.
        if let Some(why) = bot.unusable() {
            return Err(Error::Unusable(why));
        }
    }
    bot.shutdown();
    let r = bot.record();
    let mut micros: Vec<u64> = r.answers.iter().map(|a| a.micros).collect();
    let max_ms = micros.iter().copied().max().unwrap_or(0) as f64 / 1000.0;
    Ok(ConfigReport {
        game: G::NAME.to_string(),
        players,
        options: options.to_vec(),
        games: cfg.games,
        decisions: r.answers.len() as u64 + r.stand_in,
        answered: r.answers.len() as u64,
        median_ms: median(&mut micros),
        max_ms,
        timeouts: r
            .strikes
            .iter()
            .filter(|s| s.starts_with("no answer"))
            .count() as u64,
        strikes: r.strikes.clone(),
        processes: r.spawned,
        clean_exits: r.clean_exits,
        unclean_exits: r.unclean_exits.clone(),
        name: r.name.clone(),
        protocol: r.protocol,
        seconds: begun.elapsed().as_secs_f64(),
    })
}

/// Every configuration of game `G`, on the worker pool, in order.
fn run_game<G: Roster>(
    cfg: &Config,
    first_index: usize,
    progress: &dyn crate::Progress,
    out: &mut Vec<ConfigReport>,
) -> Result<(), Error> {
    let list = configs::<G>()?;
    let done = std::sync::atomic::AtomicU64::new(0);
    let on_game = || {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let mut reported = 0u64;
    crate::pool::ordered(
        list.len(),
        1,
        cfg.threads,
        |i| {
            let (players, names, opts) = &list[i];
            run_config::<G>(cfg, first_index + i, *players, names, opts, &on_game)
        },
        || {
            let now = done.load(std::sync::atomic::Ordering::Relaxed);
            for _ in reported..now {
                progress.game_done();
            }
            reported = now;
        },
        |_, reports| {
            out.extend(reports);
            Ok(true)
        },
    )
}

/// What to fix for a strike's reason.
pub fn fix_for(reason: &str) -> &'static str {
    let r = reason;
    if r.starts_with("no ready") {
        "answer every `start` with one line {\"type\":\"ready\",\"name\":\"...\",\"protocol\":1} and flush stdout (the first start allows 5 s for start-up)"
    } else if r.starts_with("speaks protocol") {
        "answer `start` with \"protocol\":1 in `ready`"
    } else if r.starts_with("no answer") {
        "answer every `act` within its `time_ms` and flush stdout after each line; a bot that needs more time per decision can be run with --bot-time MS"
    } else if r.starts_with("garbage") {
        "answer `act` with exactly one line {\"type\":\"action\",\"id\":<the act's id>,\"action\":<one string of legal>}; write nothing else to stdout (logs go to stderr)"
    } else if r.starts_with("illegal action") || r.starts_with("unreadable action") {
        "answer with one of the strings of the act's `legal` list, copied exactly"
    } else if r.starts_with("flooded its output") {
        "write one line (under 64 KiB) per answer and nothing else on stdout"
    } else if r.starts_with("flooded stderr") {
        "write less to stderr: at most 1 MiB per game"
    } else if r.starts_with("could not be started") || r.starts_with("exited with status 127") {
        "check the command: it is run by /bin/sh -c from the current folder"
    } else if r.starts_with("exited")
        || r.starts_with("killed")
        || r.starts_with("stopped reading")
        || r.starts_with("has no process")
    {
        "the bot ended mid-game: read its stderr (the reason ends with its last line); it must keep reading until `quit` or the end of its input, and take another `start` after `end`"
    } else {
        "see docs/bot-protocol.md, \"Misbehaviour and strikes\""
    }
}

/// A reason without what varies from decision to decision (the decision
/// id, the text the bot wrote), to group problems.
fn kind(reason: &str) -> String {
    let cut = reason.find(", got ").or_else(|| reason.find(" (replaced"));
    let head = cut.map_or(reason, |i| &reason[..i]);
    head.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect::<String>()
        .split('#')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("N")
}

/// Problems: strikes grouped by their kind, unclean exits, a missing or
/// wrong handshake.
fn problems(configs: &[ConfigReport]) -> Vec<Problem> {
    let mut out: Vec<(String, Problem)> = Vec::new();
    let mut add = |key: String, problem: &str, at: &ConfigReport, fix: &str| match out
        .iter_mut()
        .find(|(k, _)| *k == key)
    {
        Some((_, p)) => p.count += 1,
        None => out.push((
            key,
            Problem {
                problem: problem.to_string(),
                count: 1,
                first_seen: at.label(),
                fix: fix.to_string(),
            },
        )),
    };
    for c in configs {
        for s in &c.strikes {
            add(
                format!("strike {}", kind(s)),
                &format!("strike: {s}"),
                c,
                fix_for(s),
            );
        }
        for e in &c.unclean_exits {
            add(
                format!("exit {e}"),
                &format!("after quit: {e}"),
                c,
                "exit with status 0 within 1 s of `quit` (and when stdin closes)",
            );
        }
        if c.strikes.is_empty() && c.protocol.is_some_and(|p| p != 1) {
            add(
                "protocol".into(),
                &format!("ready gave protocol {:?}", c.protocol),
                c,
                "answer `start` with \"protocol\":1",
            );
        }
    }
    out.into_iter().map(|(_, p)| p).collect()
}

/// Runs the check over both games; `progress` hears of every game.
pub fn run(cfg: &Config, progress: &dyn crate::Progress) -> Result<Report, Error> {
    if cfg.command.trim().is_empty() {
        return Err(Error::Config("bot-check needs a command".into()));
    }
    if cfg.games == 0 {
        return Err(Error::Config("--games must be at least 1".into()));
    }
    let wanted = |name: &str| cfg.game.as_deref().is_none_or(|g| g == name);
    let games = [bigcheese::BigCheese::NAME, dalmuti::Dalmuti::NAME];
    if let Some(g) = cfg.game.as_deref().filter(|g| !games.contains(g)) {
        return Err(Error::Config(format!(
            "unknown game `{g}` for --game (choose from: {})",
            games.join(", ")
        )));
    }
    let start = Instant::now();
    let mut n = 0;
    if wanted(bigcheese::BigCheese::NAME) {
        n += configs::<bigcheese::BigCheese>()?.len();
    }
    if wanted(dalmuti::Dalmuti::NAME) {
        n += configs::<dalmuti::Dalmuti>()?.len();
    }
    progress.start(n as u64 * cfg.games);
    let mut reports = Vec::new();
    // Configuration indices (and so seeds) are the same with or without
    // --game.
    if wanted(bigcheese::BigCheese::NAME) {
        run_game::<bigcheese::BigCheese>(cfg, 0, progress, &mut reports)?;
    }
    if wanted(dalmuti::Dalmuti::NAME) {
        let first = configs::<bigcheese::BigCheese>()?.len();
        run_game::<dalmuti::Dalmuti>(cfg, first, progress, &mut reports)?;
    }
    progress.finish();
    Ok(summarise(cfg, reports, start.elapsed().as_secs_f64()))
}

/// The report of the configurations' results.
fn summarise(cfg: &Config, configs: Vec<ConfigReport>, seconds: f64) -> Report {
    let problems = problems(&configs);
    let move_ms = cfg.limits.move_time.as_millis() as u64;
    let max_ms = configs.iter().map(|c| c.max_ms).fold(0.0, f64::max);
    // The overall median: of the configurations' medians, weighted by
    // their answers (close enough for a report, and keeps no timings).
    let mut weighted: Vec<(f64, u64)> = configs
        .iter()
        .filter(|c| c.answered > 0)
        .map(|c| (c.median_ms, c.answered))
        .collect();
    weighted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: u64 = weighted.iter().map(|w| w.1).sum();
    let mut acc = 0;
    let mut median_ms = 0.0;
    for (m, w) in &weighted {
        acc += w;
        if 2 * acc >= total {
            median_ms = *m;
            break;
        }
    }
    let mut warnings = Vec::new();
    if max_ms * 2.0 > move_ms as f64 {
        let at = configs
            .iter()
            .find(|c| c.max_ms == max_ms)
            .map(ConfigReport::label)
            .unwrap_or_default();
        warnings.push(format!(
            "slow: the longest answer took {max_ms:.1} ms ({at}), over half the {move_ms} ms limit; a busier machine may turn that into strikes"
        ));
    }
    if configs.iter().any(|c| c.decisions > 0 && c.answered == 0) {
        warnings.push("some configurations had no decision answered by the bot".into());
    }
    let strikes = configs.iter().map(|c| c.strikes.len() as u64).sum();
    let last = configs.iter().rev().find(|c| c.name.is_some());
    Report {
        command: cfg.command.clone(),
        name: last.and_then(|c| c.name.clone()),
        protocol: last.and_then(|c| c.protocol),
        move_ms,
        games_per_config: cfg.games,
        seed: cfg.seed,
        decisions: configs.iter().map(|c| c.decisions).sum(),
        median_ms,
        max_ms,
        strikes,
        conforms: problems.is_empty(),
        problems,
        warnings,
        configs,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_a_valid_game() {
        for (p, _, o) in configs::<bigcheese::BigCheese>().unwrap() {
            bigcheese::BigCheese::new(&o, p, 1).unwrap();
        }
        for (p, _, o) in configs::<dalmuti::Dalmuti>().unwrap() {
            dalmuti::Dalmuti::new(&o, p, 1).unwrap();
        }
    }

    #[test]
    fn problems_group_by_kind() {
        assert_eq!(
            kind(r#"garbage: expected {"type":"action","id":7,"action":...}, got `x`"#),
            kind(r#"garbage: expected {"type":"action","id":12,"action":...}, got `y`"#)
        );
        assert_ne!(kind("no answer in 1000 ms"), kind("garbage: x"));
        assert!(fix_for("illegal action `bid 99`").contains("legal"));
        // sh's "command not found".
        assert!(fix_for("exited with status 127 (replaced ...)").contains("check the command"));
    }
}
