//! `ratrace`: play The Big Cheese and The Great Dalmuti in the terminal or
//! the browser (`serve`), simulate bot games, replay and verify records and
//! run scenario files.
//!
//! This file is glue: the flags are parsed in [`args`], each command is a
//! module of [`cmd`], and the work is in the `cli` library (and the crates
//! below it) so tests run the same code.

/// `print!` that ends the program quietly when standard output is closed
/// (`ratrace replay FILE | head`) instead of panicking like `print!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

/// `println!` that ends the program quietly when standard output is closed.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

mod alloc;
mod args;
mod cmd;

use args::{Cli, Command, DbCommand};
use clap::Parser;
use cli::Error;
use std::process::ExitCode;

/// Runs the command given: true for exit status 0, false for 1.
fn run(cli: Cli) -> Result<bool, Error> {
    match cli.command {
        Command::Play(a) => cmd::play::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Lab(a) => cmd::lab::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::BotCheck(a) => cmd::bot_check::run(a),
        Command::Scenario(a) => cmd::scenario::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Db {
            command: DbCommand::Copy { from, to },
        } => cmd::db::copy(&from, &to),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Options(a) => cmd::options::run(a),
        Command::Site(a) => cmd::site::run(a),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Error::Unverifiable(why)) => {
            eprintln!("{why}");
            ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
