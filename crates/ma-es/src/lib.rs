//! The matrix adaptation evolution strategy for constrained problems — the εMAg-ES of
//! Hellwig & Beyer — with every component switchable through a trait.
//!
//! The strategy ([`strategy::Strategy`]) runs one loop (docs/algorithm.md §5); what differs between the
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
//! # One way in
//!
//! [`Options`] say what a run is — the strategy (a [`ComponentSpec`] or a [`Variant`];
//! [`Options::recommended`] is εMAg-ES-R, `eps-mag-es-r`), the constants
//! ([`Config`]), the limits ([`control::Limits`]), the convergence criteria
//! ([`control::Convergence`]) and the seed. [`Options::build`] checks and resolves
//! them once for a problem's shape into a [`Plan`], which runs with a problem
//! ([`Plan::run`]) or by ask and tell ([`Plan::ask_tell`]), restarts included;
//! [`Options::run`] does both in one call.
//!
//! ```
//! use constraint_handling::{ConstrainedProblem, ProblemError};
//! use ma_es::Options;
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
//! let outcome = Options::recommended().budget(20_000).seed(1).run(&HalfPlane)?;
//! let best = &outcome.best;
//! assert!(best.is_feasible());
//! assert!((best.objective() - 0.5).abs() < 1e-6); // x* = (½, ½)
//! # Ok::<(), ma_es::MaEsError>(())
//! ```
//!
//! # Ask and tell
//!
//! A run in progress is a value: [`ask_tell::AskTell`] ([`Plan::ask_tell`]: everything a
//! spec runs, restarts included) hands out the points it wants evaluated with `ask()`
//! and takes the values with `tell()`, so the caller evaluates them where it likes — a
//! thread pool, other processes, a cluster — and can save the run (serde: JSON or
//! MessagePack) after any tell. [`strategy::Strategy`] ([`Plan::strategy`]) is one
//! run of the loop without the driver around it. [`Plan::run`] drives an `AskTell` with
//! a [`ConstrainedProblem`].
//!
//! # Run control
//!
//! [`Config`] holds the strategy's constants (λ, μ, c_σ, …) and nothing else. How far
//! a run goes and what it records ([`control::Limits`]: budget, generation limit,
//! checkpoints, dynamics) and when it has converged ([`control::Convergence`]:
//! `tol_fun`, `tol_x`, `stagnation`, `target`) are the driver's. The criteria are on by
//! default; [`Options::to_the_end`] switches them off, as the suites' protocols (and the
//! paper's study) run to the budget.

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
mod error;
pub mod linalg;
pub mod noise;
pub mod observer;
pub mod plan;
pub mod ranking;
pub mod record;
pub mod repair;
pub mod request;
pub mod restarts;
mod result;
mod run;
mod saved;
mod solver;
mod spec;
pub mod step_size;
pub mod strategy;

// One path per item: the headline types at the root, the rest in their modules.
pub use config::{log_weights, BackCalculationSolver, Config, ConfigError, Parameters};
pub use constraint_handling::ConstrainedProblem;
pub use constraint_handling::{Checkpoint, Fitness, Snapshot};
pub use error::MaEsError;
pub use plan::{Options, Plan};
pub use result::{Best, DynamicsRecord, RunResult, Termination};
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
        spec_keys_markdown, BackCalculationKind, ComponentChoice, ConvergenceOverrides, EpsilonEnd,
        JacobianUse, OrderingKind, Polish, PopulationKind, RankingKind, RepairMethod, RestartKind,
        RestartPlan, SpecError, SpecKey, SpecNumber, StallKind, StepSizeKind, UnknownVariant,
        SPEC_KEYS, STRATEGIES,
    };
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
