//! The Great Dalmuti's bots, weakest first: `random`, `heuristic`
//! (rule-based), `strong` (counting), `search` (information-set Monte
//! Carlo tree search). Each lives in its own module; this
//! one only names them for [`Roster`].

use crate::{no_budget, unknown, Bot, BotError, BotSpec, RandomBot, Roster};
use dalmuti::Dalmuti;

pub mod evidence;
pub mod heuristic;
pub mod panel;
pub mod search;
pub mod strong;

impl Roster for Dalmuti {
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
