//! The Big Cheese's bots, weakest first as measured: `random`,
//! `heuristic` (rule-based), `strong` (rule-based with a model of the
//! table), `learned` (a network trained on the search's choices),
//! `search` (Monte Carlo tree search over sampled hidden information).
//! Each lives in its own module; this one only names them for [`Levels`]
//! (and so [`crate::Roster`]).
//! [`model`] is the opponent model `strong` and `search` share: how much
//! each rival pays for a card, learnt from its bids during the game.

use crate::net::Mlp;
use crate::{
    ladder, level_names, Bot, Budget, Level, Levels, HEURISTIC, LEARNED, RANDOM, SEARCH, STRONG,
};
use bigcheese::BigCheese;
use std::sync::Arc;
#[cfg(feature = "weights")]
use std::sync::OnceLock;

pub mod heuristic;
pub mod model;
pub mod panel;
mod reroll;
pub mod search;
pub mod strong;

/// The ladder, weakest first, as measured for this game.
const LEVELS: [Level; 5] = ladder([RANDOM, HEURISTIC, STRONG, LEARNED, SEARCH]);

/// [`LEVELS`]' names.
const LADDER: [&str; 5] = level_names(&LEVELS);

impl Levels for BigCheese {
    /// Measured (docs/lab/claims/README.md, "The order of the ladders"):
    /// each level alone beats three of the level below.
    const LEVELS: &'static [Level] = &LEVELS;
    const LADDER: &'static [&'static str] = &LADDER;
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

    fn guided(budget: Option<Budget>, seed: u64) -> Box<dyn Bot<Self>> {
        Box::new(crate::learned::guide(
            search::new(budget, seed),
            Self::network(),
            crate::learned::GUIDE_WEIGHT,
            seed,
        ))
    }

    #[cfg(feature = "weights")]
    fn network() -> Option<Arc<Mlp>> {
        static NET: OnceLock<Option<Arc<Mlp>>> = OnceLock::new();
        NET.get_or_init(|| crate::learned::load(WEIGHTS)).clone()
    }

    #[cfg(not(feature = "weights"))]
    fn network() -> Option<Arc<Mlp>> {
        crate::learned::given(<Self as game::Game>::NAME)
    }
}

/// The `learned` level's network (training/train.py; see crate::learned).
#[cfg(feature = "weights")]
pub const WEIGHTS: &[u8] = include_bytes!("../../weights/bigcheese.safetensors");
