//! Integration tests of the fuzzing checks (one test binary, modules in
//! `it/`).

mod it {
    mod corpus;
}
