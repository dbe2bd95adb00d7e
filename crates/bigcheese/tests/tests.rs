//! Integration tests of the bigcheese engine (one test binary): property
//! tests over every option combination, the scenario files in
//! `scenarios/bigcheese`, and older records.

#[path = "it/props.rs"]
mod props;
#[path = "it/records.rs"]
mod records;
#[path = "it/scenarios.rs"]
mod scenarios;
