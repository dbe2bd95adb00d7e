//! Integration tests for the Dalmuti engine: property tests over every
//! option and player count, and scenario checks through the `Scenario` impl.

mod properties;
mod scenarios;
