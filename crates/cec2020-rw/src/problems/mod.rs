//! The 57 problems' formulas, one module per application area, transcribed from the
//! organisers' `cec20_func.m` (and checked against it: `tests/reference_vectors.rs`).
//!
//! Each function takes a point `x` of the problem's dimension and writes the
//! inequality values `g` and the equality values `h` (slices of exactly the problem's
//! counts), returning `f(x)`.

use constraint_handling::ProblemError;

mod chemical;
mod electronics;
mod livestock;
mod mechanical;
mod power;
mod process;

/// What a problem's formula returns: `f(x)`, or why the point has no value.
pub(crate) type Out = Result<f64, ProblemError>;

/// A problem's formula.
pub(crate) type Formula = fn(&[f64], &mut [f64], &mut [f64]) -> Out;

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

/// The formula of problem `k` (1–57).
pub(crate) fn formula(k: usize) -> Option<Formula> {
    use chemical::*;
    use electronics::*;
    use livestock::*;
    use mechanical::*;
    use power::*;
    use process::*;
    const ALL: [Formula; 57] = [
        rc01, rc02, rc03, rc04, rc05, rc06, rc07, rc08, rc09, rc10, rc11, rc12, rc13, rc14, rc15,
        rc16, rc17, rc18, rc19, rc20, rc21, rc22, rc23, rc24, rc25, rc26, rc27, rc28, rc29, rc30,
        rc31, rc32, rc33, rc34, rc35, rc36, rc37, rc38, rc39, rc40, rc41, rc42, rc43, rc44, rc45,
        rc46, rc47, rc48, rc49, rc50, rc51, rc52, rc53, rc54, rc55, rc56, rc57,
    ];
    k.checked_sub(1).and_then(|i| ALL.get(i).copied())
}
