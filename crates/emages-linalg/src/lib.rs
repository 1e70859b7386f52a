//! Dense linear algebra: the one place of the workspace that calls BLAS and LAPACK.
//!
//! | item | what | backend | allocates |
//! |---|---|---|---|
//! | [`gemm`] | `C ← α A B + β C` for any row- or column-major operands | CBLAS `dgemm` | no |
//! | [`PseudoInverse`] | `A⁺` by the SVD with an absolute cutoff (docs/algorithm.md §4) | LAPACK `dgesvd` | no (workspace) |
//! | [`CholeskyFactors`] | `M = L Lᵀ` of a symmetric positive definite `M` with the reciprocal condition number, solves `M Z = B` | LAPACK `dpotrf`, `dpocon`, `dpotrs` | no (workspace) |
//! | [`LuFactors`] | `M = P L U` with the reciprocal condition number, solves `M Z = B` | LAPACK `dgetrf`, `dgecon`, `dgetrs` | no (workspace) |
//! | [`orthogonal_from_gaussian`] | a Haar-distributed orthogonal matrix (QR of a Gaussian matrix) | `ndarray-linalg` QR | yes (set-up only) |
//! | [`kernel`] | which OpenBLAS kernel family rounds the products; the fallback warning (the restart with the canonical kernel is the programs' `canonical-kernel` crate) | `openblas_get_corename` | — |
//!
//! The hot paths (the strategy's generation loop, the repair, the batch evaluation)
//! work in preallocated workspaces and never allocate; sizes reach LAPACK's and BLAS's
//! `int` through [`lapack_int`], a checked conversion, so a dimension they cannot index
//! is an error ([`LinalgError::TooLarge`]), never a silent truncation.
//!
//! The strategy (`ma-es`) and the benchmark (`cec2017-constrained`) use these items
//! rather than calling BLAS/LAPACK themselves.

#![deny(missing_docs)]

#[cfg(feature = "openblas-system")]
extern crate blas_src as _;
#[cfg(feature = "openblas-system")]
extern crate openblas_src as _;

mod cholesky;
mod gemm;
pub mod kernel;
mod lu;
mod pinv;
mod qr;

pub use cholesky::CholeskyFactors;
pub use gemm::gemm;
pub use lu::{Conditioning, LuFactors};
pub use pinv::{PseudoInverse, DEFAULT_PINV_TOLERANCE};
pub use qr::orthogonal_from_gaussian;

use std::os::raw::c_int;

/// Why a linear-algebra routine could not deliver.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinalgError {
    /// The matrix does not have the workspace's shape.
    #[error("workspace is for {expected:?} matrices, got {found:?}")]
    Shape {
        /// The workspace's `(rows, cols)`.
        expected: (usize, usize),
        /// The matrix's `(rows, cols)`.
        found: (usize, usize),
    },
    /// The matrix has a NaN or infinite entry (LAPACK's factorisations are not defined
    /// there).
    #[error("matrix has a non-finite entry")]
    NonFinite,
    /// A dimension exceeds the range of LAPACK's `int`.
    #[error("dimension {0} exceeds LAPACK's index range")]
    TooLarge(usize),
    /// LAPACK reported a failure (e.g. the SVD did not converge, `U` is singular).
    #[error("LAPACK {routine}: {message}")]
    Lapack {
        /// The routine (`dgesvd`, …).
        routine: &'static str,
        /// What it reported.
        message: String,
    },
}

/// `n` as LAPACK's and CBLAS's `int`.
///
/// # Errors
/// [`LinalgError::TooLarge`] if `n` does not fit.
///
/// ```
/// use emages_linalg::{lapack_int, LinalgError};
/// assert_eq!(lapack_int(100).unwrap(), 100);
/// assert_eq!(lapack_int(usize::MAX), Err(LinalgError::TooLarge(usize::MAX)));
/// ```
pub fn lapack_int(n: usize) -> Result<c_int, LinalgError> {
    c_int::try_from(n).map_err(|_| LinalgError::TooLarge(n))
}

/// Checks that `b` holds `k` right-hand sides of length `n` for a factorisation that
/// exists (`factored`), as the workspaces' `solve_in_place` need.
fn check_right_hand_sides(
    n: usize,
    factored: bool,
    b: &[f64],
    k: usize,
) -> Result<(), LinalgError> {
    if !factored || b.len() != n * k {
        return Err(LinalgError::Shape {
            expected: (n, k),
            found: (if factored { b.len() / k.max(1) } else { 0 }, k),
        });
    }
    Ok(())
}

/// Maps LAPACK's `info` to a result: `0` is success, a negative value a bad argument,
/// a positive one the routine's own failure, described by `failure`.
fn lapack_status(
    routine: &'static str,
    info: c_int,
    failure: impl FnOnce(c_int) -> String,
) -> Result<(), LinalgError> {
    match info {
        0 => Ok(()),
        i if i < 0 => Err(LinalgError::Lapack {
            routine,
            message: format!("invalid argument {}", -i),
        }),
        i => Err(LinalgError::Lapack {
            routine,
            message: failure(i),
        }),
    }
}

/// Copies `a` into the column-major buffer `out` (`rows · cols` entries).
fn copy_column_major(a: ndarray::ArrayView2<'_, f64>, out: &mut [f64]) {
    let rows = a.nrows();
    for (j, col) in a.columns().into_iter().enumerate() {
        for (i, &x) in col.iter().enumerate() {
            out[j * rows + i] = x;
        }
    }
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
