//! Scenario checks through the `Scenario` impl (the file runner lives in the
//! CLI crate).
