//! The documented heuristic bot for bigcheese (to be written; placeholder plays the
//! first legal action so the workspace builds).

use crate::Bot;
use bigcheese::*;

/// Heuristic player for bigcheese.
#[derive(Debug)]
pub struct Heuristic {
    _seed: u64,
}

impl Heuristic {
    /// A heuristic bot.
    pub fn new(seed: u64) -> Heuristic {
        Heuristic { _seed: seed }
    }
}
