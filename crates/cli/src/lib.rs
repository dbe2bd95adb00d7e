//! `cli`: the ratrace command line as a library (scenario files, record
//! files, terminal play, the progress bar), so integration tests drive
//! the same code the `ratrace` binary runs. The binary itself
//! (`src/main.rs`) is glue: its flags are in `src/args/`, each command a
//! module of `src/cmd/`.
//!
//! The bulk bot runs (simulate, tournament, lab) are in the `analysis`
//! crate; the record check, the records' play-by-play and the scenario
//! runner by game in `registry`; the CLI parses flags, draws progress
//! bars and prints. Everything here is generic over
//! [`game::Game`]; the only place that names the concrete games is the
//! `registry::dispatch!` macro.

pub mod analyze;
pub mod botcheck;
pub mod error;
pub mod play;
pub mod prompt;
pub mod records;
pub mod scenario;

pub use analysis::derive_seed;
pub use error::Error;
pub use registry::{dispatch, unknown_game, GAMES};

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

/// An [`analysis::Progress`] drawn as [`games_bar`] once games start,
/// cleared when they are done (after an error it stays, as the error is
/// printed below it).
#[derive(Debug, Default)]
pub struct Bar(std::cell::RefCell<Option<indicatif::ProgressBar>>);

impl analysis::Progress for Bar {
    fn start(&self, games: u64) {
        *self.0.borrow_mut() = Some(games_bar(games));
    }

    fn stage(&self, name: &str) {
        if let Some(b) = &*self.0.borrow() {
            b.set_message(name.to_string());
        }
    }

    fn game_done(&self) {
        if let Some(b) = &*self.0.borrow() {
            b.inc(1);
        }
    }

    fn finish(&self) {
        if let Some(b) = self.0.borrow_mut().take() {
            b.finish_and_clear();
        }
    }
}

/// A progress bar when `show`, else nothing.
pub fn progress(show: bool) -> Box<dyn analysis::Progress> {
    if show {
        Box::new(Bar::default())
    } else {
        Box::new(analysis::Quiet)
    }
}
