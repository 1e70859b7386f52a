//! The matrix adaptation evolution strategy for constrained problems — the εMAg-ES of
//! Hellwig & Beyer — with every component switchable through a trait.
//!
//! The strategy ([`MaEs`]) runs one loop (REFERENCE.md §5); what differs between the
//! paper's seven variants are the components it is built from:
//!
//! | seam | trait | implementations |
//! |---|---|---|
//! | repair (step 3.3) | [`repair::Repair`] | [`repair::PeriodicRepair`], [`repair::NoRepair`] |
//! | back-calculation (3.4) | [`back_calculation::BackCalculation`] | pseudo-inverse (or LU), identity, none |
//! | ranking (4) | [`ranking::PopulationRanking`] | [`ranking::EpsilonLevelRanking`], [`ranking::ObjectiveRanking`] |
//! | threshold schedule (4, 12) | [`constraint_handling::EpsilonSchedule`] | ε-level schedule, lexicographic (ε ≡ 0) |
//! | matrix adaptation (7–8) | [`adaptation::MatrixAdaptation`] | [`adaptation::MaUpdate`], [`adaptation::FrozenMatrix`] |
//! | step-size rule (9) | [`step_size::StepSizeRule`] | [`step_size::Csa`], [`step_size::MedianSuccessRule`], [`step_size::ConstantSigma`] |
//! | σ cap (9) | [`step_size::SigmaCap`] | [`step_size::CappedSigma`], [`step_size::UncappedSigma`] |
//! | randomness | [`noise::NoiseSource`] | [`noise::RngNoise`] (default), [`noise::FastNoise`], [`noise::ReplayNoise`] |
//!
//! [`Variant`] names the seven presets (`eps-mag-es`, `eps-ma-es`, `eps-mag-es-wo`,
//! `eps-mag-es-nl`, `eps-sag-es`, `lex-mag-es`, `lex-ma-es`); a [`ComponentSpec`]
//! composes any other combination as data (serde, or the text form
//! `eps-mag-es:step-size=median-success`), and [`variant::Components`] takes
//! hand-written implementations of the traits.
//!
//! The strategy works for any [`ConstrainedProblem`]; it does not depend on the CEC
//! suite.
//!
//! # Example
//!
//! ```
//! use constraint_handling::{ConstrainedProblem, ProblemError};
//! use ma_es::{control::Limits, noise::RngNoise, Config, MaEs, Variant};
//!
//! /// minimise Σ x_i² subject to x_1 + x_2 ≥ 1 on [−5, 5]².
//! struct HalfPlane;
//! impl ConstrainedProblem for HalfPlane {
//!     fn dim(&self) -> usize { 2 }
//!     fn num_inequalities(&self) -> usize { 1 }
//!     fn num_equalities(&self) -> usize { 0 }
//!     fn lower_bounds(&self) -> &[f64] { &[-5.0, -5.0] }
//!     fn upper_bounds(&self) -> &[f64] { &[5.0, 5.0] }
//!     fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
//!         self.check_buffers(x, c)?;
//!         c[0] = 1.0 - x[0] - x[1];
//!         Ok(x[0] * x[0] + x[1] * x[1])
//!     }
//! }
//!
//! let limits = Limits::budget(6_000);
//! let mut es = MaEs::new(HalfPlane, &Config::default(), &limits, Variant::EpsMagEs).unwrap();
//! let result = es.run(&mut RngNoise::seed_from_u64(1)).unwrap();
//! assert!(result.best.is_feasible());
//! assert!((result.best.objective() - 0.5).abs() < 1e-3); // x* = (½, ½)
//! ```
//!
//! # Ask and tell
//!
//! A run in progress is a value: [`Strategy`] (one run) and [`ask_tell::AskTell`]
//! (everything a [`ComponentSpec`] runs, restarts included) hand out the points they
//! want evaluated with `ask()` and take the values with `tell()`, so the caller
//! evaluates them where it likes — a thread pool, other processes, a cluster — and can
//! save the run (serde) after any tell. [`MaEs::run`] and [`driver::run`] drive them
//! with a [`ConstrainedProblem`].
//!
//! # Run control
//!
//! [`Config`] holds the strategy's constants (λ, μ, c_σ, …) and nothing else. How far
//! a run goes and what it records ([`control::Limits`]: budget, generation limit,
//! checkpoints, dynamics) and when it has converged ([`control::Convergence`]:
//! `tol_fun`, `tol_x`, `stagnation`, `target`) are the driver's: [`control::Control`].
//! [`MaEs`] and [`Strategy`] run the paper's loop within their limits; the
//! convergence criteria and restarts are [`ask_tell::AskTell`]'s.
//!
//! # Reproducibility
//!
//! A run is determined by its problem, configuration, components and noise source:
//! the same seed gives the same result, bit for bit. With OpenBLAS, pin it to one
//! thread (`OPENBLAS_NUM_THREADS=1`) when runs execute in parallel.
#![deny(missing_docs)]

#[cfg(feature = "openblas-system")]
extern crate blas_src as _;
#[cfg(feature = "openblas-system")]
extern crate openblas_src as _;

pub mod adaptation;
pub mod ask_tell;
pub mod back_calculation;
pub mod config;
pub mod control;
pub mod driver;
pub mod linalg;
pub mod noise;
pub mod observer;
pub mod ranking;
pub mod repair;
pub mod restarts;
pub mod result;
mod saved;
pub mod step_size;
pub mod strategy;
pub mod variant;

pub use config::{BackCalculationSolver, Config, ConfigError, Parameters};
pub use constraint_handling::ConstrainedProblem;
pub use constraint_handling::{Checkpoint, Fitness, Snapshot};
pub use result::{BestSoFar, DynamicsRecord, RunResult, Termination};
pub use strategy::{MaEs, Strategy};
pub use variant::{ComponentSpec, Components, Variant};

use constraint_handling::epsilon::ScheduleError;
use constraint_handling::ordering::RankingError;
use constraint_handling::repair::RepairError;
use constraint_handling::ProblemError;

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
}
