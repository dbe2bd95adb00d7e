//! The Big Cheese's bots, weakest first: `random`, `heuristic` (rule-based).
//! Each lives in its own module; this one only names them for [`Roster`].

use crate::{no_budget, unknown, Bot, BotSpec, RandomBot, Roster};
use bigcheese::BigCheese;

pub mod heuristic;
pub mod search;

impl Roster for BigCheese {
    const BOTS: &'static [&'static str] = &["heuristic", "random", "search"];
    const LADDER: &'static [&'static str] = &["random", "heuristic", "search"];

    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        let spec: BotSpec = spec.parse()?;
        match (spec.name.as_str(), spec.budget) {
            ("random", None) => Ok(Box::new(RandomBot::new(seed))),
            ("heuristic", None) => Ok(Box::new(heuristic::Heuristic::new(seed))),
            ("search", budget) => Ok(Box::new(search::new(budget, seed))),
            ("random" | "heuristic", Some(_)) => Err(no_budget(&spec)),
            (name, _) => Err(unknown::<Self>(name)),
        }
    }
}
