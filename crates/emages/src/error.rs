//! [`Error`]: what can stop a run of the recommended strategy or its construction.

use constraint_handling::ProblemError;
use emages_solver::SolverError;
use local_phase::sqp::SqpError;
use ma_es::MaEsError;

/// What can stop a run or its construction.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A setting that cannot run, named.
    #[error("{0}")]
    Settings(String),
    /// The problem failed or does not fit.
    #[error("problem: {0}")]
    Problem(#[from] ProblemError),
    /// An ES round's error.
    #[error(transparent)]
    Es(#[from] MaEsError),
    /// The local phase's error.
    #[error(transparent)]
    LocalPhase(#[from] SqpError),
    /// The solver contract's errors: ask and tell out of order, values that do not fit,
    /// a problem of another shape.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

impl From<Error> for SolverError {
    fn from(e: Error) -> Self {
        match e {
            Error::Solver(e) => e,
            Error::Problem(e) => Self::Problem(e),
            Error::Es(e) => e.into(),
            Error::LocalPhase(e) => e.into(),
            Error::Settings(text) => Self::Invalid(text),
        }
    }
}
