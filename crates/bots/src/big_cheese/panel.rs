//! The sparring panel for The Big Cheese: bots unlike each other and
//! unlike the ladder, for measuring the ladder against strangers
//! (`ratrace tournament --panel`). Not server levels.
//!
//! Why a panel: the ladder's `strong` bot models every rival with the
//! `heuristic` bot's price for a card, so ladder-against-ladder results
//! flatter it. Each panel bot prices cards its own way, from the rules
//! (`docs/rules/bigcheese.md`) and not from the ladder's value tables or
//! models, and each is a sensible player in its own style (each beats
//! three random bots clearly; see `tests/it/bigcheese_panel.rs`). None
//! was tuned against a ladder bot.
//!
//! | name | style |
//! |---|---|
//! | `flat` | one price for every card, 2 or 20 or special (6 of 10 starting chips) |
//! | `greedy` | steep linear price (about 5 chips per typical card, 10 for a 20); bids the outright-winning price whenever its price allows |
//! | `patient` | raises only to a low price (about 2 chips per typical card); pays more only for a bargain, a bid that wins at once because rivals are short of chips; keeps a chip in ten back |
//! | `chaser` | prices a card by the share of its remaining gap to the target it closes: cheap early, dear late, specials worthless |
//! | `jumper` | jumps straight to its price (never creeps), bluffs one above it on a quarter of its opening bids (seeded) |
//! | `vetoer` | buys Vetos (about 3 chips) and plays them whenever a rival is about to take a good card it will not outbid |
//!
//! "Typical card": the mean payout of a number card drawn from a full
//! deck in the game's dice mode (4.9 points with polyhedral dice).
//!
//! Every bot sees only its seat's view and the legal actions; only
//! `jumper` uses randomness, from its own seeded [`crate::BotRng`]. The
//! rules arithmetic they share (payouts per dice mode, exact-target
//! values, who is still in an auction, Big Cheese re-roll forms) is in
//! `common`; each price is in the bot's own module.

use crate::Bot;
use bigcheese::BigCheese;

mod chaser;
mod common;
mod flat;
mod greedy;
mod jumper;
mod patient;
mod vetoer;

pub use chaser::Chaser;
pub use flat::Flat;
pub use greedy::Greedy;
pub use jumper::Jumper;
pub use patient::Patient;
pub use vetoer::Vetoer;

/// The panel's bot names.
pub const NAMES: &[&str] = &["flat", "greedy", "patient", "chaser", "jumper", "vetoer"];

/// The panel bot named `name`, seeded with `seed`; `None` for a name not
/// in [`NAMES`].
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<BigCheese>>> {
    Some(match name {
        "flat" => Box::new(Flat::new(seed)),
        "greedy" => Box::new(Greedy::new(seed)),
        "patient" => Box::new(Patient::new(seed)),
        "chaser" => Box::new(Chaser::new(seed)),
        "jumper" => Box::new(Jumper::new(seed)),
        "vetoer" => Box::new(Vetoer::new(seed)),
        _ => return None,
    })
}
