//! The Great Dalmuti action notation and its parts: parse, display, parse again.
//! Only calls the check in `crates/fuzzing`, so that `cargo test` runs the
//! same check on the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::dalmuti_action(data));
