//! Arguments read from Python with clear errors: counts, ids and seeds
//! ([`Nat`]) are non-negative integers, and a negative one is a
//! `ValueError` saying so, not the raw `OverflowError` of a conversion to
//! an unsigned Rust integer (PyO3 adds a note naming the argument).

use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

/// A non-negative integer argument of Rust type `T` (`usize` or `u64`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nat<T>(pub(crate) T);

impl<'a, 'py, T: TryFrom<u64>> FromPyObject<'a, 'py> for Nat<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let py = obj.py();
        match obj.extract::<u64>() {
            Ok(v) => T::try_from(v)
                .map(Nat)
                .map_err(|_| PyValueError::new_err(format!("{v} is too large here"))),
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                let negative = obj.lt(0).unwrap_or(false);
                let obj = obj.to_owned();
                Err(PyValueError::new_err(if negative {
                    format!("expected a non-negative integer, got {obj}")
                } else {
                    format!("expected an integer below 2**64, got {obj}")
                }))
            }
            Err(e) => Err(e),
        }
    }
}

/// The value of an optional [`Nat`].
pub(crate) fn opt<T>(n: Option<Nat<T>>) -> Option<T> {
    n.map(|Nat(v)| v)
}
