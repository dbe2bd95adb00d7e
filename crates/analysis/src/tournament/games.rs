//! Every game of a tournament by its id ([`super::ids`]): the games list
//! of the report, and playing one game again alone (`tournament --rerun
//! ID`).
//!
//! A game is fixed by its deal (whose seed is derived from the
//! tournament's seed), its lineup and its seat rotation: every bot's seed
//! comes from those, and a worker's reused bots play as new ones
//! ([`crate::playout::Table`]). So the id and the command line are all it
//! takes to play a game again, alone, to the same record, and the
//! checkpoint, which holds every game's id and seed, is enough to find it.

use super::config::plan;
use super::ids::{game_id, parse_game_id};
use super::worker::Deal;
use super::Config;
use crate::duplicate::GameResult;
use crate::Error;
use bots::Roster;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Gives the games of a deal read from an older checkpoint their ids and
/// seeds (`seed` is the tournament's).
pub(crate) fn fill_ids(deal: &mut Deal, seed: u64) {
    for p in &mut deal.games {
        if p.id.is_empty() {
            p.id = game_id(deal.deal, p.lineup, p.game.rotation);
        }
        if p.seed.is_empty() {
            p.seed = crate::derive_seed(seed, deal.deal).to_string();
        }
    }
}

/// One line of the games list: which game, its seed, who won.
#[derive(Clone, Debug, Serialize)]
pub struct GameEntry {
    /// Its id (`--rerun` takes it; `--save-games` names its record after it).
    pub id: String,
    /// Its seed, decimal text (the deal's: every game of a deal shares it).
    pub seed: String,
    /// The lineup (index into the report's `lineups`).
    pub lineup: usize,
    /// The entrant in each seat, P1 first, by its name in the report's
    /// `entrants` (the rotation moves them round the table).
    pub seats: Vec<String>,
    /// The winning seats (`P1`...); empty when capped.
    pub winners: Vec<String>,
    /// Whether the lineup's lone bot (the candidate, in candidate mode)
    /// won, alone or sharing.
    pub lone_won: bool,
    /// Actions played.
    pub actions: u64,
}

/// Every game of `deals`, in deal order; `lineups` are the tournament's
/// (the lone bot of each sits last in rotation 0, as `one_vs_rest` puts
/// it), `labels` its entrants' names.
pub(crate) fn games_list(
    deals: &[Deal],
    lineups: &[Vec<usize>],
    labels: &[String],
) -> Vec<GameEntry> {
    deals
        .iter()
        .flat_map(|d| &d.games)
        .map(|p| GameEntry {
            id: p.id.clone(),
            seed: p.seed.clone(),
            lineup: p.lineup,
            seats: p
                .game
                .seating
                .iter()
                .map(|&e| labels.get(e).cloned().unwrap_or_default())
                .collect(),
            winners: p
                .game
                .winners
                .iter()
                .map(|&w| game::Seat::new(w).to_string())
                .collect(),
            lone_won: lineups
                .get(p.lineup)
                .and_then(|l| l.last())
                .is_some_and(|&e| p.game.won_by(e)),
            actions: p.game.actions,
        })
        .collect()
}

/// Writes the games list as `games.tsv` in `dir`: a header line, then one
/// tab-separated line per game, ending with a column per seat (`P1`...,
/// as many as the most seats a game had) naming its entrant.
pub(crate) fn write_games_list(dir: &Path, games: &[GameEntry]) -> Result<(), Error> {
    let seats = games.iter().map(|g| g.seats.len()).max().unwrap_or(0);
    let mut text = String::from("id\tseed\tlineup\twinners\tlone_won\tactions");
    for s in 0..seats {
        let _ = write!(text, "\t{}", game::Seat::new(s));
    }
    text.push('\n');
    for g in games {
        let _ = write!(
            text,
            "{}\t{}\t{}\t{}\t{}\t{}",
            g.id,
            g.seed,
            g.lineup,
            g.winners.join(","),
            g.lone_won,
            g.actions
        );
        for s in 0..seats {
            // a name is one cell: no tab or line break of its own
            let name = g
                .seats
                .get(s)
                .map_or(String::new(), |n| n.replace(['\t', '\n', '\r'], " "));
            let _ = write!(text, "\t{name}");
        }
        text.push('\n');
    }
    let path = dir.join("games.tsv");
    std::fs::write(&path, text).map_err(Error::io(&path))
}

/// A game played again alone.
#[derive(Clone, Debug)]
pub struct Rerun {
    /// Its id.
    pub id: String,
    /// Its lineup, by name.
    pub lineup: String,
    /// The result.
    pub result: GameResult,
    /// Its record.
    pub record: game::Record,
    /// Where the record was saved, with `--save-games`.
    pub saved: Option<PathBuf>,
}

/// Plays game `id` of the tournament `cfg` again, alone, with the same
/// bots and seeds, and returns its record (saved in `cfg.save`'s folder
/// when there is one). Nothing else is played, read or written.
pub fn rerun<G: Roster>(cfg: &Config<G>, id: &str) -> Result<Rerun, Error> {
    let (deal, lineup, rotation) = parse_game_id(id)?;
    let (entrants, labels, lineups) = plan(&cfg.mode, cfg.players)?;
    let matches = super::matches_of(cfg, &entrants, &lineups)?;
    let m = matches.get(lineup).ok_or_else(|| {
        Error::Config(format!(
            "game {id}: this tournament has {} lineup(s), l0 to l{}",
            matches.len(),
            matches.len() - 1
        ))
    })?;
    if rotation >= m.rotations() {
        return Err(Error::Config(format!(
            "game {id}: there are {} seat rotations, r0 to r{}",
            m.rotations(),
            m.rotations() - 1
        )));
    }
    if let Some(save) = &cfg.save {
        save.prepare()?;
    }
    let id = game_id(deal, lineup, rotation);
    let mut table = crate::playout::Table::new();
    if m.limits.stderr_log.is_some() {
        table.name_game(Some(format!("{}-{id}", G::NAME)));
    }
    let (result, record) = m.play_recorded(&mut table, deal, rotation, true)?;
    let record = record.ok_or_else(|| Error::Engine("a recorded game gave no record".into()))?;
    let saved = match &cfg.save {
        Some(save) => Some(save.write::<G>(&id, &record)?),
        None => None,
    };
    Ok(Rerun {
        id,
        lineup: super::config::lineup_name(&labels, &lineups[lineup]),
        result,
        record,
        saved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_from_an_older_checkpoint_gets_ids_and_seeds() {
        let line = r#"{"deal":4,"games":[{"lineup":1,"deal":4,"rotation":2,"seating":[0,1,1],"places":[1,2,3],"scores":[3,2,1],"winners":[0],"actions":9,"capped":false}]}"#;
        let mut deal: Deal = serde_json::from_str(line).unwrap();
        assert!(deal.games[0].id.is_empty());
        fill_ids(&mut deal, 11);
        assert_eq!(deal.games[0].id, "d4-l1-r2");
        assert_eq!(deal.games[0].seed, crate::derive_seed(11, 4).to_string());
    }

    #[test]
    fn a_rerun_of_a_game_that_is_not_there_is_refused() {
        let mut options = dalmuti::Options::default();
        game::GameOptions::set(&mut options, "hands", "1").unwrap();
        let cfg = Config::<dalmuti::Dalmuti> {
            mode: super::super::Mode::Candidate {
                candidate: "heuristic".into(),
                field: "random".into(),
            },
            players: 3,
            options,
            length: super::super::Length::Deals(1),
            seed: 1,
            threads: 1,
            max_actions: 100_000,
            sprt: None,
            out: None,
            resume: super::super::Resume::Auto,
            command: String::new(),
            limits: extbot::Limits::default(),
            save: None,
        };
        let e = rerun(&cfg, "d0-l1-r0").unwrap_err().to_string();
        assert!(e.contains("1 lineup(s)"), "{e}");
        let e = rerun(&cfg, "d0-l0-r3").unwrap_err().to_string();
        assert!(e.contains("3 seat rotations"), "{e}");
        let r = rerun(&cfg, "d7-l0-r2").unwrap();
        assert_eq!(
            r.record.seed.to_string(),
            crate::derive_seed(1, 7).to_string()
        );
        assert_eq!(r.record.actions.len() as u64, r.result.actions);
        assert!(r.saved.is_none());
    }
}
