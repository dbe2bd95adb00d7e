//! Tournaments: bots rated against each other over duplicate deals, with
//! paired differences, a sequential test and Plackett–Luce ratings, on every
//! core and resumable after an interrupt.
//!
//! Three modes share one engine. *Candidate vs field* plays one lineup, the
//! candidate in one seat and the field bot in the others. *Round robin*
//! plays, for every ordered pair of entrants (A, B), the lineup of one A
//! against `players - 1` B: every entrant meets every other one from both
//! sides, which is what a rating of the whole ladder needs, and each lineup
//! is a plain "one vs the rest" table like the candidate mode's. The one
//! sits in the last seat of rotation 0, so that seats joining mid-session
//! (Dalmuti's joins, which take the lineup from its first seat on) are the
//! rest's. *Panel* rates a ladder against a sparring panel: each level
//! alone against the level below and against each panel bot, and each
//! panel bot alone against chosen levels, with every level's worst case
//! ([`panel`]).
//!
//! A *deal* is one seed (see [`crate::duplicate`]): it is played by every
//! lineup in every seat rotation, so within a deal everyone met the same
//! cards and dice from every seat. That is why the *paired* difference (a
//! bot's per-seat win share minus another's, per deal, then averaged over
//! deals) is far tighter than the unpaired one: the luck of the deal cancels
//! out. Deals are handed back in deal order whatever the thread count, so
//! every figure, and the point where the SPRT stops, depends only on the
//! seed.
//!
//! With an output folder every finished deal is appended to a JSON-lines
//! checkpoint (a header line with the configuration, then one line per deal,
//! flushed), and a rerun skips the deals already there: the report of an
//! interrupted and resumed run is the report of an uninterrupted one,
//! because the report is a pure function of the deals ([`analyse`]).
//!
//! The code is split by concern, each module saying why it is shaped so:
//! [`config`] (what to play: modes, lineups), [`worker`] (the deals on the
//! worker pool), [`checkpoint`] (the JSON-lines file and its resumption),
//! [`sprt`] (the sequential test, whose observations are deals, not
//! games), [`figures`] (everything measured, a pure function of the
//! deals), [`plackett_luce`] (the ratings: Hunter's MM fit of the
//! finishing orders, Breslow ties, a weak prior, a bootstrap over deals),
//! [`report`] (JSON and Markdown) and [`games`] (every game's id and
//! seed, and one game played again alone). This file runs them in order. The
//! interval arithmetic (Wilson, Student t) is shared with the simulator
//! and the lab in [`crate::stats`]; nothing needs a new dependency.

pub mod checkpoint;
pub mod config;
pub mod figures;
pub mod games;
pub mod ids;
pub mod panel;
pub mod plackett_luce;
pub mod report;
pub mod sprt;
pub mod worker;

pub use checkpoint::{checkpoint_path, parse_checkpoint, Fingerprint};
pub use config::{Config, Length, Mode, Resume};
pub use figures::{analyse, EntrantStats, Figures, Paired, SeatStats};
pub use games::{rerun, GameEntry, Rerun};
pub use ids::{game_id, parse_game_id};
pub use panel::{panel_figures, LevelFigures, Matchup, PanelFigures};
pub use plackett_luce::PlData;
pub use plackett_luce::{Rating, Ratings};
pub use report::{Report, Speed, ThinkStats};
pub use sprt::{BadSprt, Sprt, SprtSpec, SPRT_MIN_DEALS};
pub use worker::{run_deals, Deal, Played};

use crate::duplicate::Match;
use crate::Error;
use bots::Roster;
use checkpoint::open_checkpoint;
use config::{lineup_name, plan};
use game::GameOptions;
use report::{stand_in_stats, strike_stats, think_stats};
use std::io::Write;
use std::time::Instant;

/// Runs the tournament (resuming a checkpoint when there is one) and
/// writes the reports when an output folder is given; `progress` hears of
/// every game played (not of those read back from the checkpoint).
pub fn run<G: Roster>(cfg: &Config<G>, progress: &dyn crate::Progress) -> Result<Report, Error> {
    let start = Instant::now();
    let (entrants, labels, lineups) = plan(&cfg.mode, cfg.players)?;
    let matches = matches_of(cfg, &entrants, &lineups)?;
    let per_deal = (lineups.len() * cfg.players) as u64;
    let planned = planned_deals(cfg.length, per_deal)?;
    let options: Vec<String> = cfg
        .options
        .pairs()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let (resumed, mut writer) = checkpoint_of(cfg, &options, &entrants, &lineups, per_deal)?;
    prepare_save(cfg)?;

    let mut sprt = cfg.sprt.map(Sprt::new);
    let mut deals: Vec<Deal> = Vec::new();
    // Feeds one deal to the SPRT; returns false once the run should stop.
    let accept = |deal: Deal, deals: &mut Vec<Deal>, sprt: &mut Option<Sprt>| -> bool {
        if let Some(t) = sprt.as_mut() {
            observe_deal(t, &deal);
        }
        deals.push(deal);
        deals.len() < planned as usize && !sprt.as_ref().is_some_and(Sprt::decided)
    };
    let mut go_on = true;
    for d in resumed {
        if !go_on {
            break;
        }
        go_on = accept(d, &mut deals, &mut sprt);
    }
    let deals_resumed = deals.len() as u64;
    let mut games_played = 0u64;
    let play_start = Instant::now();
    if go_on && (deals.len() as u64) < planned {
        let todo = deals.len() as u64..planned;
        progress.start((todo.end - todo.start) * per_deal);
        run_deals(
            &matches,
            todo,
            cfg.threads,
            cfg.save.as_ref(),
            || {
                games_played += 1;
                progress.game_done();
            },
            |deal| {
                append_deal(writer.as_mut(), &deal)?;
                Ok(accept(deal, &mut deals, &mut sprt))
            },
        )?;
        progress.finish();
    }
    let play_seconds = play_start.elapsed().as_secs_f64();
    let figures = analyse(&deals, &labels, cfg.seed);
    let panel = match &cfg.mode {
        Mode::Panel { levels, .. } => Some(panel_figures(&deals, &lineups, &labels, levels.len())),
        _ => None,
    };
    let seconds = start.elapsed().as_secs_f64();
    let report = Report {
        game: G::NAME.to_string(),
        mode: mode_name(&cfg.mode).into(),
        command: cfg.command.clone(),
        options,
        players: cfg.players,
        entrants: labels.clone(),
        lineups: lineups.iter().map(|l| lineup_name(&labels, l)).collect(),
        seed: cfg.seed,
        max_actions: cfg.max_actions,
        games_per_deal: per_deal,
        deals_planned: planned,
        deals_resumed,
        sprt,
        figures,
        panel,
        strikes: strike_stats(&deals, &labels),
        stand_in: stand_in_stats(&deals, &labels),
        speed: Speed {
            threads: cfg.threads.max(1),
            games_played,
            play_seconds,
            seconds,
            games_per_second: games_played as f64 / play_seconds.max(1e-9),
            think: think_stats(&deals, &labels),
        },
        games: games::games_list(&deals, &lineups, &labels),
    };
    if let Some(dir) = &cfg.out {
        write_reports(dir, &report)?;
        games::write_games_list(dir, &report.games)?;
    }
    Ok(report)
}

/// Appends one finished deal to the checkpoint, if there is one, flushed
/// so that an interrupted run resumes after it.
fn append_deal(writer: Option<&mut Appending>, deal: &Deal) -> Result<(), Error> {
    if let Some((path, file)) = writer {
        let mut line = serde_json::to_string(deal)?;
        line.push('\n');
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(Error::io(&*path))?;
    }
    Ok(())
}

/// Checks `--save-games` before anything is played: the folder takes
/// files, and the losses sample has a candidate.
fn prepare_save<G: Roster>(cfg: &Config<G>) -> Result<(), Error> {
    let Some(save) = &cfg.save else {
        return Ok(());
    };
    if save.sample == crate::records::Sample::Losses && !matches!(cfg.mode, Mode::Candidate { .. })
    {
        return Err(Error::Config(
            "--save-losses saves the candidate's losses: use it with --candidate".into(),
        ));
    }
    save.prepare()
}

/// The mode's name in the report.
fn mode_name(mode: &Mode) -> &'static str {
    match mode {
        Mode::Candidate { .. } => "candidate",
        Mode::RoundRobin { .. } => "round-robin",
        Mode::Panel { .. } => "panel",
    }
}

/// One match per lineup, each checked before anything is played (and
/// `--sprt` only for a candidate).
pub(crate) fn matches_of<G: Roster>(
    cfg: &Config<G>,
    entrants: &[String],
    lineups: &[Vec<usize>],
) -> Result<Vec<Match<G>>, Error> {
    if cfg.sprt.is_some() && !matches!(cfg.mode, Mode::Candidate { .. }) {
        return Err(Error::Config(
            "--sprt tests a candidate: use it with --candidate and --field".into(),
        ));
    }
    let matches: Vec<Match<G>> = lineups
        .iter()
        .map(|l| Match {
            options: cfg.options.clone(),
            players: cfg.players,
            entrants: entrants.to_vec(),
            lineup: l.clone(),
            seed: cfg.seed,
            max_actions: cfg.max_actions,
            limits: cfg.limits.clone(),
        })
        .collect();
    for m in &matches {
        m.validate()?;
    }
    Ok(matches)
}

/// The deals to play: `--deals`, or `--games` rounded up to whole deals
/// of `per_deal` games; at least one.
fn planned_deals(length: Length, per_deal: u64) -> Result<u64, Error> {
    let planned = match length {
        Length::Deals(n) => n,
        Length::Games(n) => n.div_ceil(per_deal),
    };
    if planned == 0 {
        return Err(Error::Config(
            "nothing to play: --deals (or --games) must be at least 1".into(),
        ));
    }
    Ok(planned)
}

/// A checkpoint being appended to: its path and the open file.
type Appending = (std::path::PathBuf, std::fs::File);

/// The deals already in the checkpoint of `--out` and the checkpoint to
/// append to (none without `--out`); the checkpoint must be of this very
/// tournament (its [`Fingerprint`]).
fn checkpoint_of<G: Roster>(
    cfg: &Config<G>,
    options: &[String],
    entrants: &[String],
    lineups: &[Vec<usize>],
    per_deal: u64,
) -> Result<(Vec<Deal>, Option<Appending>), Error> {
    let fingerprint = Fingerprint {
        game: G::NAME.to_string(),
        players: cfg.players,
        options: options.to_vec(),
        entrants: entrants.to_vec(),
        lineups: lineups.to_vec(),
        seed: cfg.seed,
        max_actions: cfg.max_actions,
    };
    Ok(match &cfg.out {
        Some(dir) => {
            let (deals, file) = open_checkpoint(dir, &fingerprint, per_deal, cfg.resume)?;
            (deals, Some(file))
        }
        None => (Vec::new(), None),
    })
}

/// Feeds one deal to the SPRT: each game's mean win share of the
/// candidate's seats (entrant 0).
fn observe_deal(t: &mut Sprt, deal: &Deal) {
    for p in &deal.games {
        let seats: Vec<usize> = (0..p.game.seating.len())
            .filter(|&s| p.game.seating[s] == 0)
            .collect();
        let share: f64 = seats.iter().map(|&s| p.game.win_share(s)).sum();
        t.observe(share / seats.len().max(1) as f64);
    }
    t.end_deal();
}

/// Writes the report into `dir`: tournament.json and tournament.md.
fn write_reports(dir: &std::path::Path, report: &Report) -> Result<(), Error> {
    let json = serde_json::to_string_pretty(report)?;
    let path = dir.join("tournament.json");
    std::fs::write(&path, json + "\n").map_err(Error::io(&path))?;
    let path = dir.join("tournament.md");
    std::fs::write(&path, format!("{report}\n")).map_err(Error::io(&path))?;
    Ok(())
}
