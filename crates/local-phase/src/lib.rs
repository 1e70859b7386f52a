//! A model-based local phase for constrained optimisation, in ask-and-tell form.
//!
//! | module | what |
//! |---|---|
//! | [`qp`] | strictly convex quadratic programs (Goldfarb–Idnani's dual active-set method) |
//! | [`sqp`] | sequential quadratic programming on forward-difference models, ask and tell |
//! | [`starts`] | where runs start: the box's centre, uniform points in the box |
//! | [`classic`] | small classic problems with known optima |
//!
//! The local phase of the fourth design round (docs/strategy-design.md): for smooth
//! problems at small budgets, where a model built from the points already paid for wins
//! by orders of magnitude over a population.
#![deny(missing_docs)]
// Dense index arithmetic on small matrices reads best with index loops.
#![allow(clippy::needless_range_loop)]

pub mod classic;
pub mod qp;
pub mod sqp;
pub mod starts;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
