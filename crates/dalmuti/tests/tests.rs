//! Integration tests for the Dalmuti engine (one test binary, modules in
//! `it/`): property tests over every option and player count, scenario
//! checks through the `Scenario` impl, and the scenario files.

mod it {
    mod properties;
    mod scenarios;
    mod tensor;
}
