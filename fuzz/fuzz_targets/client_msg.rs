//! WebSocket client messages (JSON): parse, re-encode by hand, parse again.
//! Only calls the check in `crates/fuzzing`, so that `cargo test` runs the
//! same check on the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::client_msg(data));
