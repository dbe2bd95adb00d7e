//! `ratrace replay`: a record's play-by-play (`cli::records`).

use crate::args::ReplayArgs;
use cli::{records, Error};

/// Runs `ratrace replay`.
pub(crate) fn run(args: ReplayArgs) -> Result<bool, Error> {
    let record = records::read(&args.file)?;
    let text = records::play_by_play(&record, args.reveal).map_err(Error::in_file(&args.file))?;
    out!("{text}");
    Ok(true)
}
