//! Scenario files: run the text; it may fail, it must not panic (no display, no round trip).
//! Only calls the check in `crates/fuzzing`, so that `cargo test` runs the
//! same check on the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::scenario(data));
