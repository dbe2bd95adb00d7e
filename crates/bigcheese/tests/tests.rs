//! Integration tests of the bigcheese engine (one test binary, modules in `it/`): property
//! tests over every option combination, the scenario files in
//! `scenarios/bigcheese`, and older records.

mod it {
    mod props;
    mod records;
    mod scenarios;
    mod tensor;
}
