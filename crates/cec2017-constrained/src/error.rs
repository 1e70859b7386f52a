//! The error type of the suite.

use constraint_handling::ProblemError;
use std::path::PathBuf;

/// Everything that can go wrong when building or evaluating a problem of the suite.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CecError {
    /// The problem number is not in `1..=28`.
    #[error("problem {0} does not exist: the CEC2017 constrained suite has problems 1 to 28")]
    UnknownProblem(usize),
    /// The dimension is not supported for this problem.
    #[error("problem C{id:02} is not available for N = {dim}: {reason}")]
    UnsupportedDimension {
        /// The problem number.
        id: usize,
        /// The requested dimension.
        dim: usize,
        /// Why.
        reason: String,
    },
    /// The instance data directory does not exist.
    #[error("instance data directory {0} does not exist")]
    MissingDirectory(PathBuf),
    /// A data file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A token of a data file is not a number.
    #[error("{path}: line {line}: {token:?} is not a number")]
    NotANumber {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// The offending token.
        token: String,
    },
    /// A data file has fewer or more numbers than its layout requires.
    #[error("{path}: {detail}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, e.g. "truncated: 37 numbers, expected 100".
        detail: String,
    },
    /// The equality margin δ is not a finite non-negative number.
    #[error("equality margin δ = {0} must be finite and non-negative")]
    InvalidMargin(f64),
    /// A point or buffer does not fit the problem.
    #[error(transparent)]
    Problem(#[from] ProblemError),
}
