//! Constrained optimisation with the recommended strategy of the emages workspace.
//!
//! ```text
//! minimise f(x)   subject to   g(x) ≤ 0,   h(x) = 0,   lb ≤ x ≤ ub
//! ```
//!
//! The **recommended strategy** ([`recommended`], [`Options::recommended`]) is the
//! portfolio ([`portfolio`]): an SQP local phase on forward-difference models and the
//! εMAg-ES of Hellwig & Beyer with restarts (εMAg-ES-R) in rounds. On smooth problems
//! it needs evaluations in the hundreds where an ES needs thousands; on multimodal
//! ones its ES rounds search globally. It stops by itself once its local phase keeps
//! ending at the best point, holds equalities to `|h| ≤ 10⁻⁸`, and is the same run,
//! seed for seed, as Python's `emages.minimize` default.
//!
//! ```
//! use emages::FnProblem;
//!
//! // min (x₁ − 1)² + (x₂ − 2)² subject to x₁ + x₂ ≤ 2 on [−5, 5]²: f* = ½ at (½, 3⁄2)
//! let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
//!     c[0] = x[0] + x[1] - 2.0;
//!     Ok((x[0] - 1.0).powi(2) + (x[1] - 2.0).powi(2))
//! })?;
//! let outcome = emages::recommended().budget(10_000).seed(1).run(&problem)?;
//! assert!(outcome.best.is_feasible() && (outcome.best.objective() - 0.5).abs() < 1e-8);
//! println!("{:?} after {} evaluations ({})", outcome.best.x, outcome.evaluations, outcome.termination);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every strategy here is a **solver** of one contract ([`solver`], the
//! `emages-solver` crate): it hands out the points it wants evaluated and takes their
//! values back ([`Solver::ask`], [`Solver::tell`]), so you evaluate them where you
//! like; one [`Driver`] runs any of them on a problem with a budget, observers
//! ([`Progress`] lines, a [`History`], your stopping rule) and a target; a run in
//! progress saves to JSON and resumes bit for bit ([`save`]).
//!
//! | crate, re-exported as | what |
//! |---|---|
//! | [`portfolio`] (here) | the recommended strategy: [`Options`] → [`Plan`] → [`Plan::run`] or [`Plan::ask_tell`] ([`Portfolio`]) |
//! | [`es`] (`ma-es`) | the εMAg-ES and the paper's seven variants by name (`es::Options::new(es::Variant::EpsMagEs)`), εMAg-ES-R |
//! | [`local`] (`local-phase`) | the SQP local phase on its own |
//! | [`solver`] (`emages-solver`) | the contract: [`Solver`], [`Run`] (the owner of a run's limits, counts and end), [`Driver`], [`Outcome`], [`Best`], [`Termination`], [`save`] |
//! | [`ndarray`] | the arrays of requests and tells, the version this crate was built with |
//! | [`constraint_handling`] | the problem trait ([`ConstrainedProblem`]), [`FnProblem`], [`WithEqualityMargin`], orderings, repairs |
//!
//! # The BLAS kernel
//!
//! The ES multiplies matrices with OpenBLAS, whose kernel decides the last bits of
//! every product. For runs that repeat the workspace's committed results bit for bit
//! (and run 1.5–2× faster where OpenBLAS does not know the CPU), make
//! [`use_canonical_kernel`] the first line of `main`: it restarts the program with
//! OpenBLAS's AVX2/FMA kernels when OpenBLAS fell back to older ones (the warning a
//! program prints otherwise names this line).
#![deny(missing_docs)]

mod error;
pub mod portfolio;

pub use canonical_kernel::use_canonical_kernel;
pub use constraint_handling;
pub use constraint_handling::problem::WithEqualityMargin;
pub use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
pub use emages_solver as solver;
pub use emages_solver::{
    save, Best, Counts, Driver, History, Limits, NoObserver, Observer, Outcome, Progress, Run,
    Solver, SolverError, Status, Termination,
};
pub use error::Error;
pub use local_phase as local;
pub use ma_es as es;
/// The `ndarray` this crate speaks (requests' points, told values): use `emages::ndarray`
/// rather than a version of your own, which may be another major version.
pub use ndarray;
pub use portfolio::{Options, Plan, Portfolio, PortfolioSettings};

/// The recommended strategy's options: [`Options::recommended`].
#[must_use]
pub fn recommended() -> Options {
    Options::recommended()
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
