//! [`MaEsError`]: everything that can stop a run or its construction.

use constraint_handling::epsilon::ScheduleError;
use constraint_handling::ordering::RankingError;
use constraint_handling::repair::RepairError;
use constraint_handling::ProblemError;
use emages_solver::SolverError;

use crate::config::ConfigError;

/// Everything that can stop a run or its construction.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MaEsError {
    /// An impossible configuration.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The problem failed or does not fit.
    #[error("problem: {0}")]
    Problem(#[from] ProblemError),
    /// The repair could not be set up or failed.
    #[error("repair: {0}")]
    Repair(#[from] RepairError),
    /// The ε schedule could not be set up.
    #[error("ε schedule: {0}")]
    Schedule(#[from] ScheduleError),
    /// Ranking buffers did not fit.
    #[error("ranking: {0}")]
    Ranking(#[from] RankingError),
    /// LAPACK could not set up a workspace.
    #[error("linear algebra: {0}")]
    Linalg(String),
    /// Ask and tell out of order (a tell without an ask, values for a finished run),
    /// or a strategy whose components went to an earlier run.
    #[error("ask and tell: {0}")]
    Protocol(String),
    /// The solver contract's errors (a driver's, an evaluator's).
    #[error(transparent)]
    Contract(#[from] SolverError),
}

impl From<MaEsError> for SolverError {
    fn from(e: MaEsError) -> Self {
        match e {
            MaEsError::Problem(e) => Self::Problem(e),
            MaEsError::Protocol(text) => Self::Protocol(text),
            MaEsError::Contract(e) => e,
            e => Self::solver(e),
        }
    }
}
