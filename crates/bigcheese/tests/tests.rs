//! Integration tests of the bigcheese engine (one test binary): property
//! tests over every option combination and the scenario files in
//! `scenarios/bigcheese`.

#[path = "it/props.rs"]
mod props;
#[path = "it/scenarios.rs"]
mod scenarios;
