//! [`SolverError`]: what can go wrong between a run and whoever drives it.

use constraint_handling::ProblemError;

/// What can go wrong between a run and whoever drives it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The problem failed to evaluate a point, or does not fit the run.
    #[error("problem: {0}")]
    Problem(#[from] ProblemError),
    /// Ask and tell out of order: a tell without an ask, values for a finished run,
    /// Jacobians for a request that does not welcome them.
    #[error("ask and tell: {0}")]
    Protocol(String),
    /// Told values that do not fit the request: `what` has shape `found`, the request
    /// wanted `expected`.
    #[error("told {what} of shape {found:?}, the request wants {expected:?}")]
    TellShape {
        /// Which array.
        what: &'static str,
        /// The shape told.
        found: Vec<usize>,
        /// The shape the request wants.
        expected: Vec<usize>,
    },
    /// The run ended before it evaluated anything: its first request did not fit into
    /// the budget.
    #[error("the run ended before any evaluation: its first request ({0} evaluations) does not fit into the budget")]
    NothingEvaluated(usize),
    /// Settings or a start that cannot run, named.
    #[error("{0}")]
    Invalid(String),
    /// The solver's own error.
    #[error(transparent)]
    Solver(Box<dyn std::error::Error + Send + Sync>),
}

impl SolverError {
    /// A solver's own error.
    pub fn solver(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Solver(Box::new(e))
    }
}
