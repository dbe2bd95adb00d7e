//! `ratrace options`: a game's rules options and their defaults.

use crate::args::OptionsArgs;
use cli::{dispatch, Error};
use game::{Game, GameOptions};

/// Runs `ratrace options`.
pub(crate) fn run(args: OptionsArgs) -> Result<bool, Error> {
    dispatch!(args.game.as_str(), G => {
        outln!("{} options (ratrace play {} --option KEY=VALUE):", G::NAME, G::NAME);
        for o in <<G as Game>::Options as GameOptions>::info() {
            outln!("  {:<18} default {:<10} values {:<28} {}", o.key, o.default, o.values, o.help);
        }
        Ok(true)
    }, _ => Err(Error::unknown_game(&args.game)))
}
