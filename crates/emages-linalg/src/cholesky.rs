//! The Cholesky factorisation `M = L Lᵀ` of a symmetric positive definite matrix with
//! its reciprocal condition number, in a reusable workspace (no allocation after
//! construction).
//!
//! [`CholeskyFactors::factor`] runs LAPACK `dpotrf` on the lower triangle and then
//! `dpocon` on the 1-norm, so the caller can decide whether `M⁻¹` is trustworthy before
//! [`CholeskyFactors::solve_in_place`] (`dpotrs`) uses the factors. Half the work of
//! [`LuFactors`](super::LuFactors) for the matrices that allow it (normal equations).

use super::{
    check_right_hand_sides, copy_column_major, lapack_int, lapack_status, Conditioning, LinalgError,
};
use ndarray::ArrayView2;
use std::os::raw::{c_char, c_int};

/// A workspace for Cholesky factorisations of `n × n` symmetric positive definite
/// matrices.
///
/// ```
/// use emages_linalg::CholeskyFactors;
/// use ndarray::array;
/// let mut chol = CholeskyFactors::new(2).unwrap();
/// let c = chol.factor(array![[4.0, 2.0], [2.0, 3.0]].view()).unwrap();
/// assert!(c.rcond > 0.2 && c.norm_one == 6.0);
/// let mut b = [6.0, 5.0]; // one right-hand side
/// chol.solve_in_place(&mut b, 1).unwrap();
/// assert!((b[0] - 1.0).abs() < 1e-15 && (b[1] - 1.0).abs() < 1e-15);
/// // Not positive definite: an error, not a wrong answer.
/// assert!(chol.factor(array![[1.0, 2.0], [2.0, 1.0]].view()).is_err());
/// ```
#[derive(Clone)]
pub struct CholeskyFactors {
    n: usize,
    n_int: c_int,
    factors: Vec<f64>,
    work: Vec<f64>,
    iwork: Vec<c_int>,
    factored: bool,
}

impl std::fmt::Debug for CholeskyFactors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CholeskyFactors")
            .field("n", &self.n)
            .field("factored", &self.factored)
            .finish()
    }
}

impl CholeskyFactors {
    /// A workspace for `n × n` matrices.
    ///
    /// # Errors
    /// [`LinalgError::TooLarge`] if `n` exceeds LAPACK's index range.
    pub fn new(n: usize) -> Result<Self, LinalgError> {
        Ok(Self {
            n,
            n_int: lapack_int(n)?,
            factors: vec![0.0; n * n],
            work: vec![0.0; 3 * n.max(1)],
            iwork: vec![0; n.max(1)],
            factored: false,
        })
    }

    /// The matrices' size `n`.
    #[must_use]
    pub fn size(&self) -> usize {
        self.n
    }

    /// Factorises `m` (its lower triangle is read; the matrix is taken to be
    /// symmetric) and estimates its reciprocal condition number.
    ///
    /// # Errors
    /// [`LinalgError::Shape`] for a matrix of another size, [`LinalgError::NonFinite`],
    /// [`LinalgError::Lapack`] if `m` is not (numerically) positive definite or LAPACK
    /// fails; the factors are then unusable until the next successful call.
    pub fn factor(&mut self, m: ArrayView2<'_, f64>) -> Result<Conditioning, LinalgError> {
        self.factored = false;
        let n = self.n;
        if m.dim() != (n, n) {
            return Err(LinalgError::Shape {
                expected: (n, n),
                found: m.dim(),
            });
        }
        if n == 0 {
            return Err(LinalgError::Lapack {
                routine: "dpotrf",
                message: "empty matrix".into(),
            });
        }
        // The 1-norm of the symmetric matrix from its lower triangle.
        let mut norm_one = 0.0f64;
        for j in 0..n {
            let mut sum = 0.0;
            for i in 0..n {
                let v = if i >= j { m[[i, j]] } else { m[[j, i]] };
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite);
                }
                sum += v.abs();
            }
            norm_one = norm_one.max(sum);
        }
        copy_column_major(m, &mut self.factors);
        let nn = self.n_int;
        let lower = b'L' as c_char;
        let mut info: c_int = 0;
        // SAFETY: `factors` holds n·n entries (lda = n); LAPACK reads/writes within.
        unsafe {
            lapack_sys::dpotrf_(&lower, &nn, self.factors.as_mut_ptr(), &nn, &mut info);
        }
        lapack_status("dpotrf", info, |i| {
            format!("the leading minor of order {i} is not positive definite")
        })?;
        let mut rcond = 0.0;
        // SAFETY: `work` holds 3n, `iwork` n entries as dpocon requires.
        unsafe {
            lapack_sys::dpocon_(
                &lower,
                &nn,
                self.factors.as_ptr(),
                &nn,
                &norm_one,
                &mut rcond,
                self.work.as_mut_ptr(),
                self.iwork.as_mut_ptr(),
                &mut info,
            );
        }
        lapack_status("dpocon", info, |i| format!("info {i}"))?;
        self.factored = true;
        Ok(Conditioning { norm_one, rcond })
    }

    /// Replaces the `k` right-hand sides in `b` (an `n × k` column-major block) by
    /// `M⁻¹ b`, for the `M` of the last successful [`CholeskyFactors::factor`].
    ///
    /// # Errors
    /// [`LinalgError::Shape`] if `b` does not hold `n · k` values or nothing is
    /// factorised; [`LinalgError::TooLarge`]; [`LinalgError::Lapack`].
    pub fn solve_in_place(&mut self, b: &mut [f64], k: usize) -> Result<(), LinalgError> {
        check_right_hand_sides(self.n, self.factored, b, k)?;
        if k == 0 {
            return Ok(());
        }
        let (nn, nrhs) = (self.n_int, lapack_int(k)?);
        let lower = b'L' as c_char;
        let mut info: c_int = 0;
        // SAFETY: `b` is an n × k column-major block (ldb = n); `factors` holds the
        // factor of the last successful `factor`.
        unsafe {
            lapack_sys::dpotrs_(
                &lower,
                &nn,
                &nrhs,
                self.factors.as_ptr(),
                &nn,
                b.as_mut_ptr(),
                &nn,
                &mut info,
            );
        }
        lapack_status("dpotrs", info, |i| format!("info {i}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn solves_and_reports_bad_input() {
        let m = array![[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 5.0]];
        let mut chol = CholeskyFactors::new(3).unwrap();
        let mut b = [1.0, 2.0, -1.0, 0.0, 1.0, 3.0];
        assert!(
            chol.solve_in_place(&mut b, 2).is_err(),
            "nothing factorised"
        );
        let c = chol.factor(m.view()).unwrap();
        assert!(c.rcond > 0.1 && c.rcond <= 1.0 && c.norm_one == 6.5);
        let orig = b;
        chol.solve_in_place(&mut b, 2).unwrap();
        for j in 0..2 {
            for i in 0..3 {
                let back: f64 = (0..3).map(|l| m[[i, l]] * b[j * 3 + l]).sum();
                assert!((back - orig[j * 3 + i]).abs() < 1e-14);
            }
        }
        assert!(chol.solve_in_place(&mut b[..5], 2).is_err());
        let semidefinite = array![[1.0, 1.0], [1.0, 1.0]];
        let mut two = CholeskyFactors::new(2).unwrap();
        assert!(matches!(
            two.factor(semidefinite.view()),
            Err(LinalgError::Lapack {
                routine: "dpotrf",
                ..
            })
        ));
        assert!(matches!(
            two.factor(array![[f64::NAN, 0.0], [0.0, 1.0]].view()),
            Err(LinalgError::NonFinite)
        ));
        assert!(matches!(
            two.factor(m.view()),
            Err(LinalgError::Shape { .. })
        ));
    }
}
