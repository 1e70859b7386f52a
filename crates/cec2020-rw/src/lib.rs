//! The CEC2020 real-world constrained optimisation suite in Rust: 57 problems from
//! industry (RC01–RC57) — chemical processes, process synthesis, mechanical design,
//! power systems, power electronics and livestock feed rations — in 2 to 158
//! dimensions, with up to 148 equality constraints, as set for the CEC 2020 and
//! GECCO 2020 competitions on real-world constrained optimisation.
//!
//! ```
//! use cec2020_rw::{catalog, Cec2020Problem};
//! use constraint_handling::ConstrainedProblem;
//!
//! assert_eq!(catalog::all().len(), 57);
//! let p = Cec2020Problem::new(15).unwrap(); // speed reducer
//! assert_eq!(p.info().max_fes(), 100_000);   // the competition's budget for D = 7
//! let centre: Vec<f64> = p.lower_bounds().iter().zip(p.upper_bounds())
//!     .map(|(l, u)| 0.5 * (l + u)).collect();
//! let mut c = vec![0.0; p.num_constraints()];
//! let f = p.evaluate(&centre, &mut c).unwrap();
//! assert!(f > p.info().best_known);
//! ```
//!
//! - [`catalog`]: names, classes, dimensions, constraint counts, boxes, budgets
//!   (`MaxFEs`) and the guidelines' best-known values;
//! - [`Cec2020Problem`]: a problem as a
//!   [`ConstrainedProblem`](constraint_handling::ConstrainedProblem), with the
//!   competition's mean violation (equality margin 10⁻⁴).
//!
//! # Faithful to the organisers' code
//!
//! The formulas are the organisers' MATLAB code (`cec20_func.m`, `Cal_par.m` of the
//! repository `P-N-Suganthan/2020-RW-Constrained-Optimisation`; A. Kumar et al., "A
//! test-suite of non-convex constrained optimization problems from the real-world and
//! some baseline results", Swarm and Evolutionary Computation 56, 2020), written anew
//! in Rust and checked against that code run under GNU Octave
//! (`tests/reference_vectors.rs`). Where the code and its documentation disagree, the
//! code is followed, since the competition's entries were run against it:
//!
//! - **Constraint counts.** RC17 returns 4 inequalities (`Cal_par.m` declares 3), RC21
//!   8 (declares 7), RC44 91 (declares 105; the guidelines' table says 91); RC31's one
//!   inequality and one equality are identically 0, as in the code. The counts here are the returned
//!   ones, so ν divides by the number of constraints evaluated.
//! - **Discrete variables** are rounded inside the evaluation (MATLAB's `round`, half
//!   away from zero), and table indices (RC22, RC26, RC30) that round outside their
//!   tables — only possible outside the box — give a
//!   [`ProblemError::Evaluation`](constraint_handling::ProblemError::Evaluation), where the
//!   organisers' code stops with an index error.
//! - **Complex values.** MATLAB turns some expressions complex outside their domain.
//!   RC22 (the planets' angle) and RC24 (the gripper's linkage) handle that in the code
//!   itself (10⁶ and 10⁴); RC24's objective follows Octave's `fminbnd` through complex
//!   values, with Octave's ordering of complex numbers, so the two agree where the
//!   linkage cannot close. Elsewhere one rule: **a value the code returns complex is
//!   `+∞` here**, objective or constraint, since such a design cannot exist and an
//!   ordering must see it as the worst. This happens only outside the box: RC27's
//!   natural frequencies at negative bar areas (a constraint), RC02's and RC29's
//!   fractional powers of negative numbers (the objective).
//! - **Non-finite values** (a division by zero at a corner, a logarithm of a
//!   non-positive number outside the box) are returned as they arise.
//!
//! # Exact Jacobians by automatic differentiation
//!
//! The formulas are written once, over a number type, and compiled twice: over `f64`
//! for the values and over dual numbers
//! ([`constraint_handling::autodiff::Dual`]) for the derivatives. A problem made with
//! [`Cec2020Problem::with_jacobian`]`(JacobianSource::Exact)` offers its constraints'
//! Jacobian, which the competition's rules count as one evaluation; the values are the
//! same bits either way. `tests/reference_jacobians.rs` holds the derivatives against
//! fourth-order differences of the organisers' code at 171 points.
//!
//! The problems' numeric tables (bus admittances, loads, line data, feed compositions)
//! are embedded from the organisers' input files (`data/README.md`).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod catalog;
mod data;
mod numerics;
mod problem;
mod problems;

pub use catalog::{Class, ProblemInfo};
pub use problem::Cec2020Problem;

/// Why a problem cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Cec2020Error {
    /// Not one of the problems 1–57.
    #[error("the CEC2020 real-world suite has problems RC01 to RC57, not {0}")]
    UnknownProblem(usize),
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
