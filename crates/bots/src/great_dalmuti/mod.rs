//! The Great Dalmuti's bots, weakest first: `random`, `heuristic`
//! (rule-based), `strong` (counting), `search` (information-set Monte
//! Carlo tree search). Each lives in its own module; this
//! one only names them for [`Levels`] (and so [`crate::Roster`]).

use crate::{Bot, Budget, Levels};
use dalmuti::Dalmuti;

pub mod evidence;
pub mod heuristic;
pub mod panel;
pub mod search;
pub mod strong;

impl Levels for Dalmuti {
    const PANEL: &'static [&'static str] = panel::NAMES;

    fn heuristic(seed: u64) -> Box<dyn Bot<Self>> {
        Box::new(heuristic::Heuristic::new(seed))
    }

    fn strong(seed: u64) -> Box<dyn Bot<Self>> {
        Box::new(strong::Strong::new(seed))
    }

    fn search(budget: Option<Budget>, seed: u64) -> Box<dyn Bot<Self>> {
        Box::new(search::new(budget, seed))
    }

    fn panel(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        panel::bot(name, seed)
    }
}
