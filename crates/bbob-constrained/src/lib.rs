//! COCO's `bbob-constrained` suite in Rust: 54 constrained problems — 9 objective
//! functions × 6 numbers of linear constraints (1, 2, 6, 6 + ⌊n/2⌋, 6 + n, 6 + 3n, plus
//! ⌊m/2⌋ inactive ones) — in dimensions 2, 3, 5, 10, 20 and 40, with any number of
//! instances, built exactly as COCO 2.8.2 builds them, so that instance `i` here is
//! cocoex's instance `i`.
//!
//! The construction (Dufossé, Hansen, Brockhoff, Atamna, Varelas: "Building scalable
//! test problems for benchmarking constrained black-box optimizers", 2022): a
//! pseudo-convex objective; linear constraints through the origin, one of them along
//! the objective's gradient there (then disguised), so that the origin satisfies the
//! KKT conditions and a known feasible direction exists; the objective's non-linear
//! transformations applied to the whole problem; the whole problem shifted to a random
//! optimum `x_opt`. See [`problem`] for the steps, [`objectives`] for the nine
//! functions, [`constraints`] for the constraints and [`random`] for COCO's generators.
//!
//! ```
//! use bbob_constrained::{BbobProblem, Suite};
//! use constraint_handling::ConstrainedProblem;
//!
//! let suite = Suite::default();
//! assert_eq!(suite.functions().count(), 54);
//! // f38: different powers, 2 active + 1 inactive constraints; N = 10, instance 3.
//! let p = BbobProblem::new(38, 10, 3).unwrap();
//! assert_eq!(p.number_of_constraints(), 3);
//! let mut g = vec![0.0; 3];
//! let f = p.evaluate(p.initial_solution(), &mut g).unwrap();
//! assert!(f > p.best_value() && g.iter().all(|&v| v <= 0.0));
//! assert_eq!(p.evaluations(), (1, 1)); // f and g counted apart, as COCO does
//! ```
//!
//! # Credit and license
//!
//! A port of the definitions in the BSD-3-licensed `numbbo/coco-experiment`, version
//! 2.8.2 (`src/suite_cons_bbob*.c`, `src/c_linear.c`, `src/coco_random.c`,
//! `src/suite_bbob_legacy_code.c`, the `f_*.c` objectives and `transform_*.c`
//! transformations), written anew in Rust; the root finder follows COCO's `brentq.c`,
//! itself from SciPy (BSD-3). COCO's license terms are in `LICENSE-COCO`; this crate's
//! own code is MIT or Apache-2.0. Checked against cocoex 2.8.2: `tests/reference_vectors.rs`.
#![deny(missing_docs)]

pub mod batch;
pub mod constraints;
pub mod objectives;
pub mod problem;
pub mod random;
pub mod transforms;

pub use problem::{active_constraints, objective_type, BbobProblem};

/// Why a problem cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BbobError {
    /// Not one of the functions 1–54.
    #[error("bbob-constrained has functions 1 to 54, not {0}")]
    UnknownFunction(usize),
    /// A dimension outside 2–40.
    #[error("bbob-constrained problems are built for dimensions 2 to 40 (COCO's: 2, 3, 5, 10, 20, 40), not {0}")]
    UnsupportedDimension(usize),
    /// Instance 0.
    #[error("bbob-constrained instances are numbered from 1, not {0}")]
    UnknownInstance(usize),
}

/// The suite's index: functions 1–54, COCO's dimensions and instances (1–15, the
/// instances of COCO's "year: 2022").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    /// The dimensions.
    pub dimensions: Vec<usize>,
    /// The instances.
    pub instances: Vec<usize>,
}

impl Default for Suite {
    /// COCO's dimensions 2, 3, 5, 10, 20, 40 and instances 1–15.
    fn default() -> Self {
        Self {
            dimensions: vec![2, 3, 5, 10, 20, 40],
            instances: (1..=15).collect(),
        }
    }
}

impl Suite {
    /// The function numbers, 1–54.
    pub fn functions(&self) -> impl Iterator<Item = usize> {
        1..=54
    }

    /// Problem `function` in dimension `dim` for `instance`.
    ///
    /// # Errors
    /// As [`BbobProblem::new`].
    pub fn problem(
        &self,
        function: usize,
        dim: usize,
        instance: usize,
    ) -> Result<BbobProblem, BbobError> {
        BbobProblem::new(function, dim, instance)
    }
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
