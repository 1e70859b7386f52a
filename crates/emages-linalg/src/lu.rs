//! The LU factorisation `M = P L U` of a square matrix with its reciprocal condition
//! number, in a reusable workspace (no allocation after construction).
//!
//! [`LuFactors::factor`] runs LAPACK `dgetrf` and then `dgecon` on the 1-norm, so the
//! caller can decide whether `M⁻¹` is trustworthy before [`LuFactors::solve_in_place`]
//! (`dgetrs`) uses the factors.

use super::{check_right_hand_sides, copy_column_major, lapack_int, lapack_status, LinalgError};
use ndarray::ArrayView2;
use std::os::raw::{c_char, c_int};

/// What [`LuFactors::factor`] found out about `M`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conditioning {
    /// `‖M‖₁`, the largest absolute column sum.
    pub norm_one: f64,
    /// The estimate of `1 / (‖M‖₁ ‖M⁻¹‖₁)` (`dgecon`).
    pub rcond: f64,
}

/// A workspace for LU factorisations of `n × n` matrices.
///
/// ```
/// use emages_linalg::LuFactors;
/// use ndarray::array;
/// let mut lu = LuFactors::new(2).unwrap();
/// let c = lu.factor(array![[4.0, 1.0], [2.0, 3.0]].view()).unwrap();
/// assert!(c.rcond > 0.3 && c.norm_one == 6.0);
/// let mut b = [5.0, 5.0]; // one right-hand side, column-major
/// lu.solve_in_place(&mut b, 1).unwrap();
/// assert!((b[0] - 1.0).abs() < 1e-15 && (b[1] - 1.0).abs() < 1e-15);
/// ```
#[derive(Clone)]
pub struct LuFactors {
    n: usize,
    n_int: c_int,
    lu: Vec<f64>,
    ipiv: Vec<c_int>,
    work: Vec<f64>,
    iwork: Vec<c_int>,
    factored: bool,
}

impl std::fmt::Debug for LuFactors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuFactors")
            .field("n", &self.n)
            .field("factored", &self.factored)
            .finish()
    }
}

impl LuFactors {
    /// A workspace for `n × n` matrices.
    ///
    /// # Errors
    /// [`LinalgError::TooLarge`] if `n` exceeds LAPACK's index range.
    pub fn new(n: usize) -> Result<Self, LinalgError> {
        Ok(Self {
            n,
            n_int: lapack_int(n)?,
            lu: vec![0.0; n * n],
            ipiv: vec![0; n],
            work: vec![0.0; 4 * n.max(1)],
            iwork: vec![0; n.max(1)],
            factored: false,
        })
    }

    /// Factorises `m` and estimates its reciprocal condition number.
    ///
    /// # Errors
    /// [`LinalgError::Shape`] for a matrix of another size, [`LinalgError::NonFinite`],
    /// [`LinalgError::Lapack`] if `U` is exactly singular or LAPACK fails; the factors
    /// are then unusable until the next successful call.
    pub fn factor(&mut self, m: ArrayView2<'_, f64>) -> Result<Conditioning, LinalgError> {
        self.factored = false;
        let n = self.n;
        if m.dim() != (n, n) {
            return Err(LinalgError::Shape {
                expected: (n, n),
                found: m.dim(),
            });
        }
        if m.iter().any(|x| !x.is_finite()) {
            return Err(LinalgError::NonFinite);
        }
        if n == 0 {
            return Err(LinalgError::Lapack {
                routine: "dgetrf",
                message: "empty matrix".into(),
            });
        }
        copy_column_major(m, &mut self.lu);
        let norm_one = m
            .columns()
            .into_iter()
            .map(|col| col.iter().map(|x| x.abs()).sum::<f64>())
            .fold(0.0, f64::max);
        let nn = self.n_int;
        let mut info: c_int = 0;
        // SAFETY: `lu` holds n·n entries (lda = n), `ipiv` n; LAPACK reads/writes within.
        unsafe {
            lapack_sys::dgetrf_(
                &nn,
                &nn,
                self.lu.as_mut_ptr(),
                &nn,
                self.ipiv.as_mut_ptr(),
                &mut info,
            );
        }
        lapack_status("dgetrf", info, |i| format!("U({i},{i}) is exactly zero"))?;
        let mut rcond = 0.0;
        let norm = b'1' as c_char;
        // SAFETY: `work` holds 4n, `iwork` n entries as dgecon requires.
        unsafe {
            lapack_sys::dgecon_(
                &norm,
                &nn,
                self.lu.as_ptr(),
                &nn,
                &norm_one,
                &mut rcond,
                self.work.as_mut_ptr(),
                self.iwork.as_mut_ptr(),
                &mut info,
            );
        }
        lapack_status("dgecon", info, |i| format!("info {i}"))?;
        self.factored = true;
        Ok(Conditioning { norm_one, rcond })
    }

    /// Replaces the `k` right-hand sides in `b` (an `n × k` column-major block) by
    /// `M⁻¹ b`, for the `M` of the last successful [`LuFactors::factor`].
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
        let trans = b'N' as c_char;
        let mut info: c_int = 0;
        // SAFETY: `b` is an n × k column-major block (ldb = n); `lu`/`ipiv` are the
        // factors of the last successful `factor`.
        unsafe {
            lapack_sys::dgetrs_(
                &trans,
                &nn,
                &nrhs,
                self.lu.as_ptr(),
                &nn,
                self.ipiv.as_ptr(),
                b.as_mut_ptr(),
                &nn,
                &mut info,
            );
        }
        lapack_status("dgetrs", info, |i| format!("info {i}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn solves_and_reports_bad_input() {
        let m = array![[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, -1.0, 4.0]];
        let mut lu = LuFactors::new(3).unwrap();
        let mut b = [1.0, 2.0, -1.0, 0.0, 1.0, 3.0];
        assert!(
            lu.solve_in_place(&mut b, 2).is_err(),
            "nothing factorised yet"
        );
        let c = lu.factor(m.view()).unwrap();
        assert!(c.rcond > 0.1 && c.rcond <= 1.0);
        let orig = b;
        lu.solve_in_place(&mut b, 2).unwrap();
        for j in 0..2 {
            for i in 0..3 {
                let back: f64 = (0..3).map(|l| m[[i, l]] * b[j * 3 + l]).sum();
                assert!((back - orig[j * 3 + i]).abs() < 1e-14);
            }
        }
        assert!(lu.solve_in_place(&mut b[..5], 2).is_err());
        let singular = array![[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        assert!(matches!(
            lu.factor(singular.view()),
            Err(LinalgError::Lapack {
                routine: "dgetrf",
                ..
            })
        ));
        assert!(
            lu.solve_in_place(&mut b, 2).is_err(),
            "factors unusable after a failure"
        );
        let nan = array![[f64::NAN, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        assert_eq!(lu.factor(nan.view()), Err(LinalgError::NonFinite));
        assert!(matches!(
            lu.factor(array![[1.0]].view()),
            Err(LinalgError::Shape { .. })
        ));
    }
}
