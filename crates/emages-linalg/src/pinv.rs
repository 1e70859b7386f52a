//! The Moore–Penrose pseudo-inverse with an absolute singular-value cutoff, computed
//! in a reusable workspace (no allocation after construction).
//!
//! With the singular value decomposition `A = U diag(s) Vᵀ` (LAPACK `gesvd`, as the
//! reference) and the cutoff `τ`,
//!
//! ```text
//! A⁺ = Σ_{k : s_k > τ} v_k (1/s_k) u_kᵀ
//! ```
//!
//! Singular values `≤ τ` are discarded (docs/algorithm.md §4: `τ = 1e-12`, absolute).

use super::{copy_column_major, gemm, lapack_int, lapack_status, LinalgError};
use ndarray::{s, Array2, ArrayView2, ShapeBuilder};
use std::os::raw::{c_char, c_int};

/// The default absolute singular-value cutoff of the reference, `1e-12`.
pub const DEFAULT_PINV_TOLERANCE: f64 = 1e-12;

/// A workspace computing pseudo-inverses of `rows × cols` matrices.
///
/// The computation follows the reference (Octave's `pinv`): the economy SVD from LAPACK
/// `gesvd`, then `A⁺ = (V_r diag(1/s_r)) U_rᵀ` as one BLAS product, where `r` counts
/// the singular values above the cutoff.
///
/// ```
/// use emages_linalg::PseudoInverse;
/// use ndarray::array;
/// let mut ws = PseudoInverse::new(2, 3, 1e-12).unwrap();
/// let a = array![[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]];
/// let p = ws.compute(a.view()).unwrap();
/// let expected = array![[1.0, 0.0], [0.0, 0.5], [0.0, 0.0]];
/// assert!(p.iter().zip(expected.iter()).all(|(x, y)| (x - y).abs() < 1e-15));
/// ```
pub struct PseudoInverse {
    rows: usize,
    cols: usize,
    tolerance: f64,
    /// Column-major copy of the input (`gesvd` overwrites it).
    a: Vec<f64>,
    s: Vec<f64>,
    /// `U`, `rows × k`, column-major.
    u: Vec<f64>,
    /// `Vᵀ`, `k × cols`, column-major.
    vt: Vec<f64>,
    work: Vec<f64>,
    /// `V_r diag(1/s_r)`, `cols × k`, column-major.
    scaled_v: Array2<f64>,
    /// The result, `cols × rows`.
    pinv: Array2<f64>,
    rank: usize,
}

impl std::fmt::Debug for PseudoInverse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PseudoInverse")
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("tolerance", &self.tolerance)
            .field("rank", &self.rank)
            .finish()
    }
}

impl PseudoInverse {
    /// A workspace for `rows × cols` matrices with the absolute cutoff `tolerance`.
    ///
    /// # Errors
    /// [`LinalgError::Lapack`] if LAPACK's workspace query fails.
    pub fn new(rows: usize, cols: usize, tolerance: f64) -> Result<Self, LinalgError> {
        let k = rows.min(cols);
        let mut ws = Self {
            rows,
            cols,
            tolerance,
            a: vec![0.0; rows * cols],
            s: vec![0.0; k],
            u: vec![0.0; rows * k],
            vt: vec![0.0; k * cols],
            work: Vec::new(),
            scaled_v: Array2::zeros((cols, k).f()),
            pinv: Array2::zeros((cols, rows)),
            rank: 0,
        };
        if k > 0 {
            let mut query = 0.0;
            ws.gesvd(&mut query, -1)?;
            // LAPACK returns the optimal size as a float.
            ws.work = vec![0.0; (query as usize).max(1)];
        }
        Ok(ws)
    }

    /// Calls `dgesvd` with `JOBU = JOBVT = 'S'` (economy SVD) on `self.a`.
    fn gesvd(&mut self, work: *mut f64, lwork: c_int) -> Result<(), LinalgError> {
        let (m, n) = (lapack_int(self.rows)?, lapack_int(self.cols)?);
        let k = lapack_int(self.rows.min(self.cols))?;
        let job = b'S' as c_char;
        let mut info: c_int = 0;
        // SAFETY: a is m×n (lda = m), s has k, u m×k (ldu = m), vt k×n (ldvt = k)
        // entries; `work` has `lwork` entries (or is the one-element query buffer).
        unsafe {
            lapack_sys::dgesvd_(
                &job,
                &job,
                &m,
                &n,
                self.a.as_mut_ptr(),
                &m,
                self.s.as_mut_ptr(),
                self.u.as_mut_ptr(),
                &m,
                self.vt.as_mut_ptr(),
                &k.max(1),
                work,
                &lwork,
                &mut info,
            );
        }
        lapack_status("dgesvd", info, |i| {
            format!("did not converge ({i} superdiagonals)")
        })
    }

    /// The `(rows, cols)` this workspace accepts.
    #[must_use]
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The number of singular values kept by the last [`PseudoInverse::compute`].
    #[must_use]
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The result of the last successful [`PseudoInverse::compute`] (zeros before).
    #[must_use]
    pub fn result(&self) -> ArrayView2<'_, f64> {
        self.pinv.view()
    }

    /// Computes `A⁺` (`cols × rows`); the view borrows the workspace.
    ///
    /// # Errors
    /// [`LinalgError::Shape`], [`LinalgError::NonFinite`] or [`LinalgError::Lapack`].
    pub fn compute(&mut self, a: ArrayView2<'_, f64>) -> Result<ArrayView2<'_, f64>, LinalgError> {
        if a.dim() != (self.rows, self.cols) {
            return Err(LinalgError::Shape {
                expected: (self.rows, self.cols),
                found: a.dim(),
            });
        }
        if a.iter().any(|x| !x.is_finite()) {
            return Err(LinalgError::NonFinite);
        }
        let (m, n) = (self.rows, self.cols);
        if m == 0 || n == 0 {
            self.rank = 0;
            return Ok(self.pinv.view());
        }
        copy_column_major(a, &mut self.a);
        let mut work = std::mem::take(&mut self.work);
        let lwork = lapack_int(work.len())?;
        let status = self.gesvd(work.as_mut_ptr(), lwork);
        self.work = work;
        status?;
        let k = m.min(n);
        // Singular values come in descending order; keep those above the cutoff.
        let rank = self.s.iter().take_while(|&&s| s > self.tolerance).count();
        self.rank = rank;
        if rank == 0 {
            self.pinv.fill(0.0);
            return Ok(self.pinv.view());
        }
        let u = ArrayView2::from_shape((m, k).f(), &self.u).map_err(|e| LinalgError::Lapack {
            routine: "dgesvd",
            message: e.to_string(),
        })?;
        let vt = ArrayView2::from_shape((k, n).f(), &self.vt).map_err(|e| LinalgError::Lapack {
            routine: "dgesvd",
            message: e.to_string(),
        })?;
        // V_r diag(1/s_r): column j of V is row j of Vᵀ.
        for j in 0..rank {
            let inv = 1.0 / self.s[j];
            self.scaled_v
                .column_mut(j)
                .iter_mut()
                .zip(vt.row(j))
                .for_each(|(d, &v)| *d = v * inv);
        }
        gemm(
            1.0,
            &self.scaled_v.slice(s![.., 0..rank]),
            &u.slice(s![.., 0..rank]).t(),
            0.0,
            &mut self.pinv.view_mut(),
        );
        Ok(self.pinv.view())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn inverse_of_a_regular_matrix() {
        let a = array![[2.0, 1.0], [1.0, 3.0]];
        let mut ws = PseudoInverse::new(2, 2, 1e-12).unwrap();
        let p = ws.compute(a.view()).unwrap().to_owned();
        let prod = a.dot(&p);
        for ((i, j), &x) in prod.indexed_iter() {
            let e = if i == j { 1.0 } else { 0.0 };
            assert!((x - e).abs() < 1e-14, "{prod}");
        }
        assert_eq!(ws.rank(), 2);
    }

    #[test]
    fn singular_values_at_the_cutoff_are_dropped() {
        let a = array![[1.0, 0.0], [0.0, 1e-12]];
        let mut ws = PseudoInverse::new(2, 2, 1e-12).unwrap();
        let p = ws.compute(a.view()).unwrap().to_owned();
        assert_eq!(ws.rank(), 1);
        assert!((p[[0, 0]] - 1.0).abs() < 1e-15 && p[[1, 1]] == 0.0);
        // a zero matrix has the zero pseudo-inverse
        let z = Array2::<f64>::zeros((2, 2));
        assert!(ws.compute(z.view()).unwrap().iter().all(|&x| x == 0.0));
    }

    #[test]
    fn wide_and_tall_shapes_and_errors() {
        let a = array![[1.0, 1.0, 0.0]];
        let mut ws = PseudoInverse::new(1, 3, 1e-12).unwrap();
        let p = ws.compute(a.view()).unwrap().to_owned();
        assert!((p[[0, 0]] - 0.5).abs() < 1e-15 && (p[[1, 0]] - 0.5).abs() < 1e-15);
        assert!(matches!(ws.compute(a.t()), Err(LinalgError::Shape { .. })));
        let bad = array![[f64::NAN, 1.0, 0.0]];
        assert_eq!(ws.compute(bad.view()).unwrap_err(), LinalgError::NonFinite);
    }
}
