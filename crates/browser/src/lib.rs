//! `browser`: the engine the web client runs in the browser, in
//! WebAssembly, so that a game against bots, a hint and an analysis need
//! no server. One call, [`handle`], takes a JSON request and gives a JSON
//! answer, as the server's protocol speaks JSON: the web client's worker
//! (`engine.js`) holds nothing but a game's record and asks this crate
//! everything about it.
//!
//! Shaped around the record, as every other part of the project is (a
//! game is its rules version, options, seed and actions): a request
//! carries the record, the engine replays it and answers, and keeps
//! nothing between calls but the learned level's networks once given
//! ([`Request::Weights`]). Replaying a whole game takes well under a
//! millisecond, and what is not kept cannot go stale or be lost: the
//! worker saves the record after every action and a reload asks the same
//! questions again.
//!
//! What a seat is told ([`Request::State`]) is built from its
//! [`game::Game::view`], its own legal actions and the events it may see,
//! exactly as the server's table builds a connection's messages
//! (`crates/server/src/table/views.rs`): the full state and the seed stay
//! in the worker until the game is over. Bots decide from their seat's
//! view only ([`Request::Bot`]), seeded from the record's seed and the
//! decision's number, so a game resumed after a reload plays on exactly
//! as it would have.
//!
//! No rules code is here: every answer comes from the rules crates, the
//! bots crate and the analysis crate, the same code the server, the CLI
//! and the Python package run (the server's tests play random games in both
//! builds, `Request::Trace`, and compare what every seat was told).

pub mod abi;
mod local;

pub use local::{handle, Answer, Hint, Request, ScoredAction, Seen, Trace};

#[cfg(test)]
mod tests;
