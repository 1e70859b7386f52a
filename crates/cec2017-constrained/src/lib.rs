//! The CEC2017 constrained real-parameter benchmark, exactly as the εMAg-ES authors
//! evaluated it (docs/algorithm.md §1).
//!
//! Each problem `k ∈ 1..=28` minimises `f(x)` subject to `l_k` inequalities
//! `g_i(x) ≤ 0`, `m_k` equalities `h_j(x) = 0` and the box `[−b_k, b_k]^N`, on the
//! shifted coordinates `y = x − o` and, where the problem is transformed, `z = M y`.
//! Problems implement [`constraint_handling::ConstrainedProblem`], so any optimizer
//! written against that trait can use them.
//!
//! | k | f | g (l) | h (m) | box b | transform | separable f / constraints |
//! |---|---|---|---|---|---|---|
//! | C01 | prefix-sum squares `P(y)` | 1 | 0 | 100 | – | no / yes |
//! | C02 | `P(y)` | 1 (on `z`) | 0 | 100 | `M` | no / no |
//! | C03 | `P(y)` | 1 | 1 | 100 | – | no / yes |
//! | C04 | Rastrigin | 2 | 0 | 10 | – | yes / yes |
//! | C05 | Rosenbrock | 2 (on `M1 y`, `M2 y`) | 0 | 10 | `M1`, `M2` | no / no |
//! | C06 | Rastrigin | 0 | 6 | 20 | – | yes / yes |
//! | C07 | `Σ y sin y` | 0 | 2 | 50 | – | yes / yes |
//! | C08 | `max y` | 0 | 2 | 100 | – | yes / no |
//! | C09 | `max y` | 1 | 1 | 10 | – | yes / no |
//! | C10 | `max y` | 0 | 2 | 100 | – | yes / no |
//! | C11 | `Σ y` | 1 | 1 | 100 | – | yes / no |
//! | C12 | Rastrigin | 2 | 0 | 100 | – | yes / yes |
//! | C13 | Rosenbrock | 3 | 0 | 100 | – | no / yes |
//! | C14 | Ackley | 1 | 1 | 100 | – | no / yes |
//! | C15 | `max |y|` | 1 | 1 | 100 | – | yes / no |
//! | C16 | `Σ |y|` | 1 | 1 | 100 | – | yes / no |
//! | C17 | Griewank | 1 | 1 | 100 | – | no / no |
//! | C18 | discretised Rastrigin | 2 | 1 | 100 | – | yes / no |
//! | C19 | `Σ √|y| + 2 sin y³` | 2 | 0 | 50 | – | yes / no |
//! | C20 | expanded Schaffer F6 | 2 | 0 | 100 | – | no / no |
//! | C21–C28 | C12–C19 on `z = M y` | as C12–C19 | | as C12–C19 | `M` (shared) | no / no |
//!
//! ("Separable": a sum of one-coordinate terms, or `max`; the exact formulas are in
//! docs/algorithm.md §1 and in the source of `functions.rs`.) Problems without a
//! transformation accept any `N ≤ 100` (C08/C09: even `N`); transformed ones need
//! instance data for their `N` (officially `N ∈ {10, 30, 50, 100}`).
//!
//! The violation of a candidate is the mean violation `ν̄` of
//! [`constraint_handling::violation`], with the equality margin `δ = 1e-4` by default
//! ([`Cec2017Problem::with_equality_margin`]); CEC tables also report the counts
//! [`ConstraintCounts`].
//!
//! # Instance data
//!
//! The official numbers are read at run time from a directory in the layout of the
//! official C distribution ([`InstanceSource::Text`]) or the MATLAB `.mat` files
//! ([`InstanceSource::Matlab`], feature `matlab`); [`InstanceSource::Synthetic`]
//! generates fresh instances of the same 28 problems from a seed. This crate does not
//! ship the official data.
//!
//! # Example
//!
//! ```
//! use cec2017_constrained::Suite;
//! use constraint_handling::ConstrainedProblem;
//! use ndarray::{Array1, Array2, ShapeBuilder};
//!
//! let suite = Suite::synthetic(2017); // or Suite::official("path/to/cec2017/text")?
//! let problem = suite.problem(21, 10).unwrap();
//! // One point:
//! let x = vec![1.0; 10];
//! let mut c = vec![0.0; problem.num_constraints()];
//! let f = problem.evaluate(&x, &mut c).unwrap();
//! let nu = problem.mean_violation(&c);
//! assert!(f.is_finite() && nu >= 0.0);
//! // A population of 400 points, one per column, rotated with one matrix product:
//! let points = Array2::<f64>::zeros((10, 400).f());
//! let mut f = Array1::zeros(400);
//! let mut c = Array2::zeros((problem.num_constraints(), 400).f());
//! problem.evaluate_batch(points.view(), f.view_mut(), c.view_mut()).unwrap();
//! // Bad input is an error, not a panic:
//! assert!(problem.evaluate(&[0.0; 3], &mut [0.0; 2]).is_err());
//! ```
//!
//! A point with a NaN component evaluates to NaN values (no panic); its mean violation
//! is NaN, and the orderings of `constraint-handling` rank it last.
//!
//! # Batch evaluation
//!
//! [`ConstrainedProblem::evaluate_batch`](constraint_handling::ConstrainedProblem::evaluate_batch)
//! evaluates 8 points at a time with vector instructions (AVX-512, or AVX2 + FMA,
//! chosen at run time; [`BatchKernel`]) and returns **the same bits** as evaluating the
//! points one by one: each definition is written once and performs the same IEEE
//! operations in the same order for one point and for 8 (the sums stay left to right
//! within a point), and `sin`/`cos` return a vectorised value only where it is certainly
//! the value the system libm returns (a correctly-rounding test with a margin that
//! covers glibc's own deviations from correct rounding), calling the libm for the
//! others (about 6 %). On CPUs without AVX2 the scalar path runs. The 2–3.5× faster
//! batch does not change a study's results.
//!
//! [`Fidelity::Fast`] ([`Cec2017Problem::with_fidelity`]) gives up those bits for
//! another 1.5–3×: a plain double `sin`/`cos` within 2 ulps that never calls the libm
//! (1e-12 of the exact values on the reference vectors; a switch for throughput, off
//! by default).
//!
//! ```
//! use cec2017_constrained::{BatchKernel, Suite};
//! use constraint_handling::ConstrainedProblem;
//! use ndarray::{Array1, Array2, ShapeBuilder};
//!
//! let fast = Suite::synthetic(5).problem(6, 30).unwrap();
//! let scalar = fast.clone().with_batch_kernel(BatchKernel::Scalar);
//! let x = Array2::from_shape_fn((30, 13).f(), |(i, j)| (i as f64 - 7.0) * 0.3 + j as f64);
//! let run = |p: &cec2017_constrained::Cec2017Problem| {
//!     let (mut f, mut c) = (Array1::zeros(13), Array2::zeros((6, 13).f()));
//!     p.evaluate_batch(x.view(), f.view_mut(), c.view_mut()).unwrap();
//!     (f, c)
//! };
//! let ((fa, ca), (fs, cs)) = (run(&fast), run(&scalar));
//! assert!(fa.iter().zip(&fs).all(|(a, b)| a.to_bits() == b.to_bits()));
//! assert!(ca.iter().zip(&cs).all(|(a, b)| a.to_bits() == b.to_bits()));
//! ```
#![deny(missing_docs)]

#[cfg(feature = "openblas-system")]
extern crate blas_src as _;
#[cfg(feature = "openblas-system")]
extern crate openblas_src as _;

pub mod catalog;
mod error;
mod functions;
pub mod instance;
mod lanes;
#[cfg(feature = "embedded")]
mod mat5;
mod problem;
mod sincos;
mod suite;

pub use catalog::{problem_spec, ProblemSpec, Transform, MAX_DIM, OFFICIAL_DIMS, PROBLEMS};
pub use constraint_handling::violation::{
    mean_violation, ConstraintCounts, DEFAULT_EQUALITY_MARGIN,
};
pub use error::CecError;
pub use instance::{InstanceData, InstanceSource};
pub use problem::{BatchKernel, Cec2017Problem, Evaluation, Fidelity};
pub use suite::Suite;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
