//! The error type.

/// Bad input to a statistic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StatsError {
    /// Paired samples of different lengths.
    #[error("paired samples have different lengths: {0} and {1}")]
    LengthMismatch(usize, usize),
    /// A sample (or the list of runs) is empty.
    #[error("empty sample: {0}")]
    Empty(&'static str),
    /// A significance level outside `(0, 1)`.
    #[error("significance level α = {0} must lie in (0, 1)")]
    Alpha(String),
    /// Inputs that do not fit together (e.g. different problem sets).
    #[error("inconsistent input: {0}")]
    Inconsistent(String),
    /// Writing a table failed.
    #[error("table output: {0}")]
    Output(String),
    /// Reading or writing a results file failed, or it is malformed (the message names
    /// the file).
    #[error("{0}")]
    File(String),
}
