//! The documented heuristic bot for dalmuti (to be written; placeholder plays the
//! first legal action so the workspace builds).

use crate::Bot;
use dalmuti::{Action, Dalmuti, View};

/// Heuristic player for dalmuti.
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

impl Bot<Dalmuti> for Heuristic {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&mut self, _view: &View, legal: &[Action]) -> Action {
        legal[0]
    }
}
