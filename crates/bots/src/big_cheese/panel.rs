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
//! ## Measured
//!
//! First-place rate of the first-named bot, 4 players, default rules,
//! 100 duplicate deals in every seat rotation (400 games, 95% Wilson
//! interval; fair share 25%):
//! `ratrace tournament bigcheese --players 4 --candidate A --field B
//! --deals 100 --threads 1`.
//!
//! | panel bot P | P vs 3 random | P vs 3 heuristic | heuristic vs 3 P | P vs 3 strong | strong vs 3 P |
//! |---|---:|---:|---:|---:|---:|
//! | `flat` | 47.5% (42.7–52.4) | 16.3% (13.0–20.2) | 59.8% (54.9–64.4) | 25.0% (21.0–29.5) | 67.3% (62.5–71.7) |
//! | `greedy` | 61.3% (56.4–65.9) | 11.0% (8.3–14.5) | 71.5% (66.9–75.7) | 18.0% (14.6–22.1) | 64.0% (59.2–68.6) |
//! | `patient` | 51.8% (46.9–56.6) | 6.0% (4.1–8.8) | 98.0% (96.1–99.0) | 11.0% (8.3–14.5) | 75.0% (70.5–79.0) |
//! | `chaser` | 68.0% (63.3–72.4) | 12.5% (9.6–16.1) | 82.3% (78.2–85.7) | 35.0% (30.5–39.8) | 24.3% (20.3–28.7) |
//! | `jumper` | 61.0% (56.1–65.7) | 15.0% (11.8–18.8) | 79.8% (75.5–83.4) | 20.0% (16.4–24.2) | 60.0% (55.1–64.7) |
//! | `vetoer` | 59.3% (54.4–64.0) | 6.5% (4.5–9.4) | 96.8% (94.5–98.1) | 55.0% (50.1–59.8) | 66.0% (61.2–70.5) |
//!
//! The `strong` columns were measured against the `strong` bot of the
//! time, which priced every rival like the heuristic; what they showed is
//! why `strong` now learns each rival's prices from its bids (see
//! `model.rs`). Against the learning `strong` every panel bot is far below
//! a fair share and `strong` beats each of them (2,000 games a matchup in
//! `docs/lab/claims/bigcheese-panel`).
//!
//! What it showed: `strong` did worse than `heuristic` against `chaser`
//! (24% against three of them, below a fair share, where `heuristic` takes
//! 82%), and a lone `chaser` or `vetoer` among three `strong` bots wins
//! 35% and 55%, while both are weak against three `heuristic` bots.
//! The `vetoer`'s edge is not its Vetos: with `specials=off` it wins 75.8%
//! (71.3–79.7) against three `strong` bots, as a plain bidder climbing one
//! chip at a time to about 4 chips per typical card. With
//! `exact=on` the panel is only near a fair share against random play
//! (flat 29.5%, greedy 27.4%, patient 28.5%, jumper 23.5%, vetoer 18.5%;
//! chaser 58.8%): their prices follow expected points, and the exact game
//! is won by buying small cards dearly near the target, which only
//! `chaser` does.
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
