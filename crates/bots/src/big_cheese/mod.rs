//! The Big Cheese's bots, weakest first: `random`, `heuristic` (rule-based),
//! `strong` (rule-based with a model of the table), `search` (Monte Carlo
//! tree search over sampled hidden information).
//! Each lives in its own module; this one only names them for [`Roster`].
//! [`model`] is the opponent model `strong` and `search` share: how much
//! each rival pays for a card, learnt from its bids during the game.

use crate::{no_budget, unknown, Bot, BotError, BotSpec, RandomBot, Roster};
use bigcheese::BigCheese;

pub mod heuristic;
pub mod model;
pub mod panel;
pub mod search;
pub mod strong;

impl Roster for BigCheese {
    const BOTS: &'static [&'static str] = &["heuristic", "strong", "search", "random"];
    const LADDER: &'static [&'static str] = &["random", "heuristic", "strong", "search"];
    const PANEL: &'static [&'static str] = panel::NAMES;

    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, BotError> {
        let spec: BotSpec = spec.parse()?;
        match (spec.name.as_str(), spec.budget) {
            ("random", None) => Ok(Box::new(RandomBot::new(seed))),
            ("heuristic", None) => Ok(Box::new(heuristic::Heuristic::new(seed))),
            ("strong", None) => Ok(Box::new(strong::Strong::new(seed))),
            ("search", budget) => Ok(Box::new(search::new(budget, seed))),
            ("random" | "heuristic" | "strong", Some(_)) => Err(no_budget(&spec)),
            (name, None) if panel::NAMES.contains(&name) => {
                panel::bot(name, seed).ok_or_else(|| unknown::<Self>(name))
            }
            (name, Some(_)) if panel::NAMES.contains(&name) => Err(no_budget(&spec)),
            (name, _) => Err(unknown::<Self>(name)),
        }
    }
}
