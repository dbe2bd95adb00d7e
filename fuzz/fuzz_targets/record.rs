//! Game records (JSON): deserialize, serialize, deserialize; then a bounded replay as both games.
//! Only calls the check in `crates/fuzzing`, so that `cargo test` runs the
//! same check on the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::record(data));
