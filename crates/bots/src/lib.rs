//! `bots`: players that decide from their own seat's view only.
//!
//! A bot is handed exactly what its seat may know (the view) and the legal
//! actions (which depend only on what the seat to move knows), never the
//! full state, so a bot cannot peek even by accident. Each bot owns its
//! seeded RNG, so a simulation is reproducible from its seed.

use game::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod bigcheese_heuristic;
pub mod dalmuti_heuristic;

/// The games this build knows, by command-line name.
pub const GAMES: &[&str] = &["bigcheese", "dalmuti"];

/// The error for a game name that is not one of [`GAMES`].
pub fn unknown_game(name: &str) -> String {
    format!("unknown game `{name}` (choose from: {})", GAMES.join(", "))
}

/// The game types, for [`dispatch!`] (which must name them from any crate).
#[doc(hidden)]
pub mod __games {
    pub use bigcheese::BigCheese;
    pub use dalmuti::Dalmuti;
}

/// Runs `$body` with the type alias `$G` bound to the game called `$name`,
/// or evaluates `$unknown` when no game has that name. The one place above
/// the rules crates that names the concrete games; the CLI and the server
/// use it.
#[macro_export]
macro_rules! dispatch {
    ($name:expr, $G:ident => $body:expr, _ => $unknown:expr) => {
        match $name {
            "bigcheese" => {
                type $G = $crate::__games::BigCheese;
                $body
            }
            "dalmuti" => {
                type $G = $crate::__games::Dalmuti;
                $body
            }
            _ => $unknown,
        }
    };
}

/// A player program.
pub trait Bot<G: Game>: Send {
    /// The bot's name, as given on the command line.
    fn name(&self) -> &'static str;

    /// Picks one of `legal` (never empty) from what `view` shows.
    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action;
}

/// Plays a uniformly random legal action.
#[derive(Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _view: &G::View, legal: &[G::Action]) -> G::Action {
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// Games that have a roster of bots by name.
pub trait Roster: Game {
    /// The bot names this game offers, first the default opponent.
    const BOTS: &'static [&'static str];

    /// Makes the bot called `name`, seeded with `seed`.
    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String>;
}

fn unknown<G: Roster>(name: &str) -> String {
    format!(
        "unknown bot `{name}` for {} (choose from: {})",
        G::NAME,
        G::BOTS.join(", ")
    )
}

impl Roster for bigcheese::BigCheese {
    const BOTS: &'static [&'static str] = &["heuristic", "random"];

    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        match name {
            "random" => Ok(Box::new(RandomBot::new(seed))),
            "heuristic" => Ok(Box::new(bigcheese_heuristic::Heuristic::new(seed))),
            _ => Err(unknown::<Self>(name)),
        }
    }
}

impl Roster for dalmuti::Dalmuti {
    const BOTS: &'static [&'static str] = &["heuristic", "random"];

    fn bot(name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, String> {
        match name {
            "random" => Ok(Box::new(RandomBot::new(seed))),
            "heuristic" => Ok(Box::new(dalmuti_heuristic::Heuristic::new(seed))),
            _ => Err(unknown::<Self>(name)),
        }
    }
}
