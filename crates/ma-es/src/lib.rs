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
//! `eps-mag-es:step-size=median-success`), and [`Components`] takes
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
//! A run in progress is a value: [`strategy::Strategy`] (one run) and [`ask_tell::AskTell`]
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
//! [`MaEs`] and [`strategy::Strategy`] run the paper's loop within their limits; the
//! convergence criteria and restarts are [`ask_tell::AskTell`]'s; checkpoints and
//! dynamics are observers that `AskTell` and `MaEs` feed ([`record`]).
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
mod config;
pub mod control;
pub mod driver;
pub mod linalg;
pub mod noise;
pub mod observer;
pub mod ranking;
pub mod record;
pub mod repair;
pub mod restarts;
mod result;
mod runner;
mod saved;
mod spec;
pub mod step_size;
pub mod strategy;

// One path per item: the headline types at the root, the rest in their modules.
pub use config::{log_weights, BackCalculationSolver, Config, ConfigError, Parameters};
pub use constraint_handling::ConstrainedProblem;
pub use constraint_handling::{Checkpoint, Fitness, Snapshot};
pub use result::{BestSoFar, DynamicsRecord, RunResult, Termination};
pub use runner::MaEs;
pub use spec::{ComponentSpec, Components, Variant};

pub mod variant {
    //! The components of a strategy and the paper's seven variants as presets.
    //!
    //! | preset | label | repair | back-calculation | σ cap | `M` adaptation | ordering |
    //! |---|---|---|---|---|---|---|
    //! | `eps-mag-es` | εMAg-ES | yes | `M⁺` | yes | yes | ε-level |
    //! | `eps-ma-es` | εMA-ES | no | `M⁺` | yes | yes | ε-level |
    //! | `eps-mag-es-wo` | εMAg-ES w/o | yes | no | yes | yes | ε-level |
    //! | `eps-mag-es-nl` | εMAg-ES nl | yes | `M⁺` | **no** | yes | ε-level |
    //! | `eps-sag-es` | εSAg-ES | yes | `M⁺ = I` | yes | **no** | ε-level |
    //! | `lex-mag-es` | lexMAg-ES | yes | `M⁺` | yes | yes | lexicographic |
    //! | `lex-ma-es` | lexMA-ES | no | `M⁺` | yes | yes | lexicographic |
    //!
    //! Every preset adapts σ by CSA and ranks by the ε-level order with its schedule's
    //! threshold. A [`crate::ComponentSpec`] is data (serde, and the text form
    //! `PRESET[:KEY=VALUE]…`, e.g. `eps-mag-es:step-size=median-success`), so a study can
    //! select any combination by name and record it; [`crate::Components`] holds the objects,
    //! built from a spec or by hand.
    pub use crate::spec::{
        spec_keys_markdown, BackCalculationKind, ConvergenceOverrides, EpsilonEnd, JacobianUse,
        OrderingKind, Polish, PopulationKind, RankingKind, RepairMethod, RestartKind, SpecError,
        SpecKey, SpecNumber, StallKind, StepSizeKind, UnknownVariant, SPEC_KEYS, STRATEGIES,
    };
}

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
