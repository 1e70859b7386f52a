//! Rust errors as Python exceptions: `ValueError` with the Rust message (every error of
//! the workspace's libraries is about the input: a bad point, shape, parameter or file).

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// The Rust error `e` as a `ValueError` carrying its message.
pub fn to_py(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}
