//! The Great Dalmuti's bots, weakest first as measured: `random`,
//! `heuristic` (rule-based), `learned` (a network that imitates `strong`
//! and the search), `strong` (counting), `search` (information-set Monte
//! Carlo tree search). Each lives in its own module; this
//! one only names them for [`Levels`] (and so [`crate::Roster`]).

use crate::net::Mlp;
use crate::{
    ladder, level_names, Bot, Budget, Level, Levels, HEURISTIC, LEARNED, RANDOM, SEARCH, STRONG,
};
use dalmuti::Dalmuti;
use std::sync::Arc;
#[cfg(feature = "weights")]
use std::sync::OnceLock;

pub mod evidence;
pub mod heuristic;
pub mod panel;
pub mod search;
pub mod strong;

/// The ladder, weakest first, as measured for this game.
const LEVELS: [Level; 5] = ladder([RANDOM, HEURISTIC, LEARNED, STRONG, SEARCH]);

/// [`LEVELS`]' names.
const LADDER: [&str; 5] = level_names(&LEVELS);

impl Levels for Dalmuti {
    /// Measured (docs/lab/claims/README.md, "The order of the ladders"):
    /// `learned` alone beats four `heuristic`, `strong` alone beats four
    /// `learned` (by little: its network imitates `strong`), `search`
    /// alone beats four `strong`.
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

    /// Not guided: the Dalmuti network plays no better than `strong`
    /// (19.8% first places alone against four of it), and as the prior of
    /// the search it did not help: against four `strong` over the same
    /// 150 deals (750 games) the search won 23.3% unguided, 22.7% with a
    /// progressive bias, 23.3% with the root narrowed to the network's top
    /// 4 actions, 22.0% with the PUCT prior at weight 8 (docs/lab/learned.md).
    fn guided(budget: Option<Budget>, seed: u64) -> Box<dyn Bot<Self>> {
        Self::search(budget, seed)
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
pub const WEIGHTS: &[u8] = include_bytes!("../../weights/dalmuti.safetensors");
