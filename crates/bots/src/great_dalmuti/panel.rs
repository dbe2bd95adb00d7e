//! The sparring panel for Dalmuti: bots unlike each other and unlike the
//! ladder, for measuring the ladder against strangers (`ratrace tournament
//! --panel`). Not server levels.

use crate::Bot;
use dalmuti::Dalmuti;

/// The panel's bot names.
pub const NAMES: &[&str] = &[];

/// The panel bot named `name`, seeded with `seed`; `None` for a name not
/// in [`NAMES`].
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Dalmuti>>> {
    let _ = (name, seed);
    None
}
