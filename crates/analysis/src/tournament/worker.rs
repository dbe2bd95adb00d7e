//! The tournament's worker loop: every lineup of every deal in every seat
//! rotation, one game per task on the worker pool, handed back deal by
//! deal in deal order.
//!
//! A deal is the unit everything downstream works in (the checkpoint
//! line, the SPRT observation, the paired difference), so the loop
//! delivers whole deals, in order, whatever the thread count.

use super::ids::game_id;
use crate::duplicate::{GameResult, Match};
use crate::records::SaveGames;
use crate::Error;
use bots::Roster;
use serde::{Deserialize, Serialize};

/// One game of a deal, with the lineup that played it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// The game's id, `dDEAL-lLINEUP-rROTATION` ([`super::ids::game_id`]):
    /// what `tournament --rerun` takes and what its saved record is named
    /// after. Empty in checkpoints written before ids (filled on reading).
    #[serde(default)]
    pub id: String,
    /// The game's seed (the deal's), as decimal text: JSON readers lose
    /// digits of numbers above 2^53. Empty as `id` is.
    #[serde(default)]
    pub seed: String,
    /// Index of the lineup (see [`Report::lineups`](super::Report::lineups)).
    pub lineup: usize,
    /// The game.
    #[serde(flatten)]
    pub game: GameResult,
}

/// Every game of one deal, lineup by lineup, rotation by rotation: one
/// checkpoint line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deal {
    /// The deal's index.
    pub deal: u64,
    /// Its games.
    pub games: Vec<Played>,
}

/// Plays `deals` with every lineup in every rotation on `threads` threads
/// (one game per task, so a few long games still spread over the cores)
/// and hands each deal to `on_deal` in deal order on the calling thread.
/// `on_deal` returns false to stop early. `on_game` is called for every
/// finished game in completion order. With `save`, the games it samples
/// (numbered in deal order from the first deal, 0) are saved as records
/// by the worker that played them.
pub fn run_deals<G: Roster>(
    matches: &[Match<G>],
    deals: std::ops::Range<u64>,
    threads: usize,
    save: Option<&SaveGames>,
    on_game: impl FnMut(),
    mut on_deal: impl FnMut(Deal) -> Result<bool, Error>,
) -> Result<(), Error> {
    let Some(players) = matches.first().map(|m| m.rotations()) else {
        return Ok(());
    };
    let per_deal = matches.len() * players;
    let tasks = (deals.end.saturating_sub(deals.start)) as usize * per_deal;
    crate::pool::ordered_with(
        tasks,
        per_deal,
        threads,
        crate::playout::Table::new,
        |table, t| {
            let deal = deals.start + (t / per_deal) as u64;
            let j = t % per_deal;
            let (lineup, rotation) = (j / players, j % players);
            let number = deals.start * per_deal as u64 + t as u64;
            let save = save.filter(|s| s.records(number));
            let m = &matches[lineup];
            let id = game_id(deal, lineup, rotation);
            if m.limits.stderr_log.is_some() {
                table.name_game(Some(format!("{}-{id}", G::NAME)));
            }
            let (game, record) = m.play_recorded(table, deal, rotation, save.is_some())?;
            if let (Some(save), Some(record)) = (save, record) {
                if save.keeps(game.won_by(0)) {
                    save.write::<G>(&id, &record)?;
                }
            }
            Ok(Played {
                id,
                seed: m.deal_seed(deal).to_string(),
                lineup,
                game,
            })
        },
        on_game,
        |i, games| {
            on_deal(Deal {
                deal: deals.start + i as u64,
                games,
            })
        },
    )
}
