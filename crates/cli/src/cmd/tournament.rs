//! `ratrace tournament`: bots rated over duplicate deals
//! (`analysis::tournament`). The flags name one of three modes (a
//! candidate against a field, a round robin, the ladder against the
//! sparring panel); [`mode`] turns them into the one the run takes.

use crate::args::TournamentArgs;
use crate::cmd::{bar_on_terminal, parse_options, players, print_result, stand_in_ok};
use analysis::tournament;
use bots::Roster;
use cli::{dispatch, Error};

/// Runs `ratrace tournament`.
pub(crate) fn run(args: TournamentArgs) -> Result<bool, Error> {
    dispatch!(args.game.as_str(), G => rate::<G>(args),
        _ => Err(Error::unknown_game(&args.game)))
}

fn rate<G: Roster>(args: TournamentArgs) -> Result<bool, Error> {
    let length = match (args.deals, args.games) {
        (_, Some(g)) => tournament::Length::Games(g),
        (d, None) => tournament::Length::Deals(d.unwrap_or(100)),
    };
    let resume = if args.resume {
        tournament::Resume::Require
    } else if args.fresh {
        tournament::Resume::Fresh
    } else {
        tournament::Resume::Auto
    };
    let cfg = tournament::Config::<G> {
        mode: mode::<G>(
            args.candidate,
            args.field,
            extbot::split_names::<G>(&args.bots),
            args.panel,
            args.panel_bots,
            args.panel_against,
        )?,
        players: players::<G>(args.players)?,
        options: parse_options::<G>(&args.options)?,
        length,
        seed: args.seed,
        threads: analysis::all_cores_unless(args.threads),
        max_actions: args.max_actions,
        sprt: args.sprt.map(|s| s.parse()).transpose()?,
        out: args.out,
        resume,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        limits: args.programs.limits()?,
        save: args.save.sample(args.save_losses)?,
    };
    if let Some(id) = &args.rerun {
        return rerun(&cfg, id, args.output.json);
    }
    let bar = cli::progress(bar_on_terminal(args.quiet));
    let report = tournament::run(&cfg, &*bar)?;
    print_result(&report, args.output.json)?;
    if let Some(dir) = &args.save.save_games {
        eprintln!(
            "records saved in {} (GAME-ID.json, ids as in the games list)",
            dir.display()
        );
    }
    Ok(stand_in_ok(&report.stand_in, args.allow_stand_in))
}

/// `--rerun ID`: plays that game alone and prints its record (as JSON;
/// with `--json` the result too), then where it was saved on stderr.
fn rerun<G: Roster>(cfg: &tournament::Config<G>, id: &str, json: bool) -> Result<bool, Error> {
    let r = tournament::rerun(cfg, id)?;
    if json {
        let out = serde_json::json!({
            "id": r.id,
            "lineup": r.lineup,
            "result": r.result,
            "record": r.record,
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(Error::Json)?
        );
    } else {
        outln!(
            "{}",
            serde_json::to_string_pretty(&r.record).map_err(Error::Json)?
        );
    }
    let winners: Vec<String> = r
        .result
        .winners
        .iter()
        .map(|&w| game::Seat::new(w).to_string())
        .collect();
    eprintln!(
        "game {} ({}, rotation {}): {} actions, won by {}",
        r.id,
        r.lineup,
        r.result.rotation,
        r.result.actions,
        if winners.is_empty() {
            "nobody (capped)".to_string()
        } else {
            winners.join(", ")
        }
    );
    if let Some(path) = &r.saved {
        eprintln!("record saved to {}", path.display());
    }
    Ok(true)
}

/// Who plays: `--candidate` (against `--field`, by default the game's
/// first bot), `--panel` (the ladder's levels, by default the game's
/// ladder, against the sparring panel; the panel bots are tried alone
/// against `strong` when it is a level), else a round robin of `--bots`.
fn mode<G: Roster>(
    candidate: Option<String>,
    field: Option<String>,
    bots: Vec<String>,
    panel: bool,
    panel_bots: Vec<String>,
    panel_against: Vec<String>,
) -> Result<tournament::Mode, Error> {
    Ok(match candidate {
        None if panel => {
            let levels: Vec<String> = if bots.is_empty() {
                G::LADDER.iter().map(|s| s.to_string()).collect()
            } else {
                bots
            };
            let against = if !panel_against.is_empty() {
                panel_against
            } else if levels.iter().any(|l| l == "strong") {
                vec!["strong".to_string()]
            } else {
                Vec::new()
            };
            tournament::Mode::Panel {
                levels,
                panel: if panel_bots.is_empty() {
                    G::PANEL.iter().map(|s| s.to_string()).collect()
                } else {
                    panel_bots
                },
                against,
            }
        }
        Some(candidate) => tournament::Mode::Candidate {
            candidate,
            field: field.unwrap_or_else(|| G::BOTS[0].to_string()),
        },
        None if !bots.is_empty() => tournament::Mode::RoundRobin { bots },
        None => {
            return Err(Error::Usage(
                "give --candidate BOT (against --field BOT), --bots A,B,... for a round robin, or --panel"
                    .into(),
            ))
        }
    })
}
