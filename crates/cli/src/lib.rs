//! `cli`: the ratrace command line as a library (scenario runner, records,
//! replay, simulator, terminal play), so integration tests drive the same
//! code the `ratrace` binary runs.
//!
//! Everything here is generic over [`game::Game`]; the only place that
//! names the concrete games is the `registry::dispatch!` macro.

pub mod duplicate;
pub mod lab;
pub mod play;
pub mod records;
pub mod scenario;
pub mod simulate;
pub mod stats;
pub mod tournament;

pub use registry::{dispatch, unknown_game, GAMES};

/// Mixes a base seed and an index into an independent 64-bit seed
/// (SplitMix64), so game `i` of a run does not depend on the thread count.
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The progress bar of every long run (simulate, tournament, lab), drawn
/// on standard error: games done, games per second, time left.
pub fn games_bar(games: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(games);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {per_sec}  eta {eta}  {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}
