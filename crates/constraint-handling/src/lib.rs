//! Constraint-handling techniques for population-based optimizers.
//!
//! The techniques whose contribution Hellwig & Beyer measure in "Analyzing Design
//! Principles for Competitive Evolution Strategies in Constrained Search Spaces",
//! generic over any problem implementing [`ConstrainedProblem`]:
//!
//! | module | what | docs/algorithm.md |
//! |---|---|---|
//! | [`autodiff`] | the `emages-autodiff` crate's `Scalar` (f64 or `Dual<N>`) and `forward_jacobian`, and a problem written once over them (`Formula`, `Differentiable`) | — |
//! | [`problem`] | the constrained-problem trait `min f(x)` s.t. `g(x) ≤ 0`, `h(x) = 0`, `lb ≤ x ≤ ub` | §1 |
//! | [`violation`] | violation `ν`, mean violation `ν̄` with the equality margin `δ`, CEC counts `c` | §1 |
//! | [`reflection`] | box reflection (`keep_range`) | §2 |
//! | [`quality`] | the result vocabulary: `Fitness` (f, ν̄), `Snapshot` (+ counts c, when found), `Checkpoint` | §6 |
//! | [`incumbent`] | the best-so-far and checkpoint bookkeeping every optimizer shares | §5 (steps 10, 14) |
//! | [`ordering`] | ε-level, lexicographic and reference lexicographic orders; stable rankings | §3 |
//! | [`epsilon`] | the ε-level threshold schedule | §5 (init 2–3, step 12) |
//! | [`repair`] | Jacobian-based (gradient) repair | §4 |
//! | [`levenberg_marquardt`] | Levenberg–Marquardt repair on the system with squared slacks (SASS's) | — |
//! | [`linalg`] | the workspace's BLAS/LAPACK calls: products, pseudo-inverse (cutoff `τ`), LU with condition estimate, orthogonal matrices | §4, §5 step 1 |
//!
//! Nothing here depends on a benchmark suite or on a particular strategy.
//!
//! # Example
//!
//! Rank a small population with the ε-level order and reflect a point into its box:
//!
//! ```
//! use constraint_handling::ordering::{rank, EpsilonLevel};
//! use constraint_handling::reflection::keep_range;
//! use constraint_handling::violation::mean_violation;
//!
//! let v = [mean_violation(&[0.3], &[], 1e-4), 0.0, mean_violation(&[2.0], &[], 1e-4)];
//! let f = [1.0, 5.0, -3.0];
//! assert_eq!(rank(&EpsilonLevel::new(0.5), &f, &v).unwrap(), vec![0, 1, 2]);
//! assert_eq!(rank(&EpsilonLevel::LEXICOGRAPHIC, &f, &v).unwrap(), vec![1, 0, 2]);
//!
//! let mut y = [12.0, -1.0];
//! assert!(keep_range(&mut y, &[-10.0, -10.0], &[10.0, 10.0]).unwrap());
//! assert_eq!(y, [8.0, -1.0]);
//! ```
//!
//! # Features and the BLAS/LAPACK backend
//!
//! - `linalg` — the modules that need BLAS/LAPACK: [`linalg`] and [`repair`]. Without
//!   it (`default-features = false`) the crate is the pure-Rust vocabulary: problems,
//!   violation, orderings, the ε schedule, reflection, results (what `bench-stats`
//!   uses).
//! - `openblas-system` (default, implies `linalg`) links the system OpenBLAS
//!   (`apt-get install libopenblas-dev`). To link another provider of CBLAS and LAPACK
//!   (e.g. `openblas-src` with `static`, `intel-mkl-src`) in your own crate, use
//!   `default-features = false, features = ["linalg"]`.
#![deny(missing_docs)]

pub mod epsilon;

/// Forward-mode automatic differentiation (the `emages-autodiff` crate) and the problem
/// written once over its number type ([`problem::Formula`], [`problem::Differentiable`]).
pub mod autodiff {
    pub use crate::problem::{Differentiable, Formula};
    pub use emages_autodiff::{forward_jacobian, Dual, Scalar};
}
pub mod incumbent;
#[cfg(feature = "linalg")]
pub mod levenberg_marquardt;
/// The workspace's BLAS/LAPACK calls and the OpenBLAS kernel report: the
/// `emages-linalg` crate, re-exported.
#[cfg(feature = "linalg")]
pub use emages_linalg as linalg;
pub mod ordering;
pub mod parallel;
pub mod problem;
pub mod quality;
pub mod reflection;
#[cfg(feature = "linalg")]
pub mod repair;
pub mod violation;

pub use epsilon::{EpsilonDecay, EpsilonDecayParams, EpsilonSchedule, ZeroEpsilon};
pub use incumbent::Incumbent;
pub use ordering::{CandidateOrder, EpsilonLevel, ReferenceLexicographic};
pub use problem::{
    ConstrainedProblem, ConstraintJacobian, FnProblem, JacobianSource, ProblemError, ProblemWrapper,
};
pub use quality::{Checkpoint, Fitness, Snapshot};
pub use reflection::keep_range;
#[cfg(feature = "linalg")]
pub use repair::{GradientRepair, RepairParams};
pub use violation::{mean_violation, ConstraintCounts, DEFAULT_EQUALITY_MARGIN};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
