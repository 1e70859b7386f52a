//! The 57 problems' formulas, one module per application area, transcribed from the
//! organisers' `cec20_func.m` (and checked against it: `tests/reference_vectors.rs`).
//!
//! Each function takes a point `x` of the problem's dimension and writes the
//! inequality values `g` and the equality values `h` (slices of exactly the problem's
//! counts), returning `f(x)`.
//!
//! # Written once, compiled twice
//!
//! The formulas are written over a number type `R` and compiled twice by
//! [`formulas!`]: in `values` with `R = f64` (the organisers' arithmetic, operation by
//! operation) and in `derivatives` with `R =` [`Lanes`], a dual number that carries the
//! derivatives along [`LANES`] directions (forward-mode automatic differentiation,
//! [`constraint_handling::autodiff`]). The constraints' Jacobian is then the same code
//! as their values, with no second, hand-written copy to drift from it.

use constraint_handling::autodiff::{Dual, Scalar};
use constraint_handling::ProblemError;

/// How many Jacobian columns one pass over dual numbers computes.
pub(crate) const LANES: usize = 8;

/// The dual number the formulas are differentiated with.
pub(crate) type Lanes = Dual<LANES>;

/// Compiles the items given twice: in a module `values` with `R = f64`, and in a module
/// `derivatives` with `R = Lanes`. Both see everything the enclosing module sees.
macro_rules! formulas {
    ($($item:item)*) => {
        /// The formulas over `f64`: the values.
        pub(crate) mod values {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use constraint_handling::autodiff::Scalar as _;
            /// The number type of this instantiation.
            pub(crate) type R = f64;
            $($item)*
        }
        /// The same formulas over dual numbers: the derivatives.
        pub(crate) mod derivatives {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use constraint_handling::autodiff::Scalar as _;
            /// The number type of this instantiation.
            pub(crate) type R = crate::problems::Lanes;
            $($item)*
        }
    };
}
pub(crate) use formulas;

mod chemical;
mod electronics;
mod livestock;
mod mechanical;
mod power;
mod process;

/// What a problem's formula returns: `f(x)`, or why the point has no value.
pub(crate) type Out<R> = Result<R, ProblemError>;

/// A problem's formula over the number type `R`.
pub(crate) type Formula<R> = fn(&[R], &mut [R], &mut [R]) -> Out<R>;

/// A formula all of whose variables are rounded before use (RC22, RC26): its outputs
/// are piecewise constant in `x`, so over any number type they are the `f64` formula's
/// values with derivative 0 (between the jumps, where the derivative exists).
pub(crate) fn piecewise_constant<R: Scalar>(
    formula: Formula<f64>,
    x: &[R],
    g: &mut [R],
    h: &mut [R],
) -> Out<R> {
    const MAX: usize = 128;
    let (mut xv, mut gv, mut hv) = ([0.0; MAX], [0.0; MAX], [0.0; MAX]);
    let (xv, gv, hv) = (&mut xv[..x.len()], &mut gv[..g.len()], &mut hv[..h.len()]);
    for (v, xi) in xv.iter_mut().zip(x) {
        *v = xi.re();
    }
    let f = formula(xv, gv, hv)?;
    for (out, &v) in g
        .iter_mut()
        .zip(gv.iter())
        .chain(h.iter_mut().zip(hv.iter()))
    {
        *out = R::from(v);
    }
    Ok(R::from(f))
}

/// The 0-based index of a 1-based table position `v` (already rounded) into a table of
/// `len` entries, or the error that says the point is outside the problem's domain.
pub(crate) fn index(problem: usize, v: f64, len: usize) -> Result<usize, ProblemError> {
    if v >= 1.0 && v <= len as f64 {
        Ok(v as usize - 1)
    } else {
        Err(ProblemError::Evaluation(format!(
            "RC{problem:02}: a discrete variable selects entry {v} of a table of {len} (outside the box)"
        )))
    }
}

/// A problem's formula over `f64` (its values) and over [`Lanes`] (its derivatives).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Formulas {
    /// The values.
    pub(crate) values: Formula<f64>,
    /// The same code over dual numbers.
    pub(crate) derivatives: Formula<Lanes>,
}

macro_rules! table {
    ($($module:ident: $($rc:ident)*;)*) => {
        [$($(Formulas {
            values: $module::values::$rc,
            derivatives: $module::derivatives::$rc,
        },)*)*]
    };
}

/// The formulas of problem `k` (1–57).
pub(crate) fn formula(k: usize) -> Option<Formulas> {
    const ALL: [Formulas; 57] = table! {
        chemical: rc01 rc02 rc03 rc04 rc05 rc06 rc07;
        process: rc08 rc09 rc10 rc11 rc12 rc13 rc14;
        mechanical: rc15 rc16 rc17 rc18 rc19 rc20 rc21 rc22 rc23 rc24 rc25 rc26 rc27 rc28
            rc29 rc30 rc31 rc32 rc33;
        power: rc34 rc35 rc36 rc37 rc38 rc39 rc40 rc41 rc42 rc43 rc44;
        electronics: rc45 rc46 rc47 rc48 rc49 rc50;
        livestock: rc51 rc52 rc53 rc54 rc55 rc56 rc57;
    };
    k.checked_sub(1).and_then(|i| ALL.get(i).copied())
}
