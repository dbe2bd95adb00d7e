//! `analysis`: bot games in bulk and what is measured from them: the
//! post-game analysis ([`analyze`]), the simulator ([`simulate`]),
//! duplicate play ([`duplicate`]), tournaments ([`tournament`]), the rules
//! lab ([`lab`]), the study of duplicate against plain tournaments
//! ([`spread`]), their statistics ([`stats`]) and the records they save
//! ([`records`]).
//!
//! A library, not part of the CLI, so that the `ratrace` command line, the
//! server and language bindings run the same code. It draws nothing and
//! parses no flags: a long run reports how far it got through
//! [`Progress`], which the CLI turns into a progress bar. Every run is
//! generic over [`game::Game`] (with the bots' [`bots::Roster`]) and is a
//! function of its seed: games are played on a worker pool and their
//! results handed back in a fixed order, so no figure depends on the
//! thread count.

pub mod analyze;
#[cfg(feature = "programs")]
pub mod botcheck;
#[cfg(feature = "programs")]
pub mod duplicate;
pub mod error;
#[cfg(feature = "programs")]
pub mod lab;
#[cfg(feature = "programs")]
pub mod playout;
pub mod pool;
#[cfg(feature = "programs")]
pub mod records;
#[cfg(feature = "programs")]
pub mod simulate;
#[cfg(feature = "programs")]
pub mod spread;
pub mod stats;
#[cfg(feature = "programs")]
pub mod strikes;
#[cfg(feature = "programs")]
pub mod tournament;

pub use error::{Error, Result};

/// Worker threads: `requested`, or one per core (at least 1).
pub fn all_cores_unless(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The seats at a table of `G`: `players`, or the game's default, checked
/// against the counts the game allows.
pub fn players<G: game::Game>(players: Option<usize>) -> Result<usize> {
    let p = players.unwrap_or(G::DEFAULT_PLAYERS);
    if G::PLAYERS.contains(&p) {
        Ok(p)
    } else {
        Err(Error::Config(format!(
            "{} is played by {} to {} players, not {p}",
            G::NAME,
            G::PLAYERS.start(),
            G::PLAYERS.end()
        )))
    }
}

/// Mixes a base seed and an index into an independent 64-bit seed
/// (SplitMix64), so game `i` of a run does not depend on the thread count.
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How far a long run (simulate, tournament, lab) has got, for a progress
/// bar or a log. Every call comes on the thread that called the run, in
/// order; the default methods do nothing.
pub trait Progress {
    /// Games are about to be played: `games` in all.
    fn start(&self, games: u64) {
        let _ = games;
    }

    /// What is being played now (the lab: the variant's name).
    fn stage(&self, name: &str) {
        let _ = name;
    }

    /// One more game is finished.
    fn game_done(&self) {}

    /// The games are all played.
    fn finish(&self) {}
}

/// A run that reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {}
