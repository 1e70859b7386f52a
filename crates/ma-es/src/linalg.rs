//! Solving `M z = d` for the back-calculation, without allocating per generation.
//!
//! `z = M⁺ d` with the pseudo-inverse of docs/algorithm.md §5 step 1 (SVD, absolute cutoff
//! `τ`). When `M` is well conditioned, `M⁺ = M⁻¹` and an LU factorisation (LAPACK
//! `getrf`/`getrs`, a third of the SVD's cost) gives the same `z` up to rounding; the
//! [`BackCalculationSolver::Lu`] method uses it when the estimated reciprocal
//! condition number (`gecon`) is at least `min_rcond` and the smallest singular value
//! is safely above `τ` (bounded below by `rcond₁ ‖M‖₁ / √N`), and falls back to the
//! pseudo-inverse otherwise.

use crate::config::BackCalculationSolver;
use constraint_handling::linalg::{gemm, LinalgError, LuFactors, PseudoInverse};
use ndarray::{s, Array2, ArrayView2, ArrayViewMut2, ShapeBuilder};

/// Which factorisation the last [`SquareSolver::prepare`] produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// LU factors of `M`.
    Lu,
    /// The pseudo-inverse `M⁺`.
    PseudoInverse,
    /// `M` had a non-finite entry or LAPACK failed: no solve is possible.
    Failed,
}

/// Counts of the factorisations made, for diagnostics and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SolverStats {
    /// LU factorisations used.
    pub lu: usize,
    /// Pseudo-inverses computed.
    pub pseudo_inverse: usize,
    /// Failures (non-finite `M`, LAPACK errors).
    pub failed: usize,
}

/// Solves `M z = d` (in the pseudo-inverse sense) for blocks of right-hand sides.
pub struct SquareSolver {
    n: usize,
    method: BackCalculationSolver,
    tolerance: f64,
    lu: LuFactors,
    pinv: PseudoInverse,
    /// `M⁺ B` before it is copied back into `B`.
    product: Array2<f64>,
    prepared: Prepared,
    stats: SolverStats,
}

impl std::fmt::Debug for SquareSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SquareSolver")
            .field("n", &self.n)
            .field("method", &self.method)
            .field("stats", &self.stats)
            .finish()
    }
}

impl SquareSolver {
    /// A solver for `n × n` matrices and up to `max_rhs` right-hand sides per solve.
    ///
    /// # Errors
    /// [`LinalgError::Lapack`] if LAPACK's workspace query fails.
    pub fn new(
        n: usize,
        max_rhs: usize,
        method: BackCalculationSolver,
        tolerance: f64,
    ) -> Result<Self, LinalgError> {
        Ok(Self {
            n,
            method,
            tolerance,
            lu: LuFactors::new(n)?,
            pinv: PseudoInverse::new(n, n, tolerance)?,
            product: Array2::zeros((n, max_rhs).f()),
            prepared: Prepared::Failed,
            stats: SolverStats::default(),
        })
    }

    /// The factorisations made so far.
    #[must_use]
    pub fn stats(&self) -> SolverStats {
        self.stats
    }

    /// The method and the pseudo-inverse cutoff.
    #[must_use]
    pub fn method(&self) -> (BackCalculationSolver, f64) {
        (self.method, self.tolerance)
    }

    /// Sets the statistics (a restored run continues its counts).
    pub fn set_stats(&mut self, stats: SolverStats) {
        self.stats = stats;
    }

    /// Factorises `M` for the following [`SquareSolver::solve_in_place`] calls.
    pub fn prepare(&mut self, m: ArrayView2<'_, f64>) -> Prepared {
        self.prepared = if m.iter().any(|x| !x.is_finite()) {
            Prepared::Failed
        } else {
            let method = self.method;
            match method {
                BackCalculationSolver::Lu { min_rcond } if self.try_lu(m, min_rcond) => {
                    Prepared::Lu
                }
                _ => match self.pinv.compute(m) {
                    Ok(_) => Prepared::PseudoInverse,
                    Err(_) => Prepared::Failed,
                },
            }
        };
        match self.prepared {
            Prepared::Lu => self.stats.lu += 1,
            Prepared::PseudoInverse => self.stats.pseudo_inverse += 1,
            Prepared::Failed => self.stats.failed += 1,
        }
        self.prepared
    }

    /// LU with a condition estimate; `true` if `M` qualifies for the LU path.
    fn try_lu(&mut self, m: ArrayView2<'_, f64>, min_rcond: f64) -> bool {
        let Ok(c) = self.lu.factor(m) else {
            return false;
        };
        // σ_min ≥ 1/‖M⁻¹‖₂ ≥ 1/(√N ‖M⁻¹‖₁) ≈ rcond ‖M‖₁ / √N; keep a margin of 10³
        // above the cutoff τ (the estimate may be optimistic by a small factor).
        let sigma_min_bound = c.rcond * c.norm_one / (self.n as f64).sqrt();
        c.rcond.is_finite() && c.rcond >= min_rcond && sigma_min_bound > 1e3 * self.tolerance
    }

    /// Replaces each column `d` of `block` (`n × k`, column-major, `k ≤ max_rhs`) by
    /// `M⁺ d` for the `M` of the last [`SquareSolver::prepare`]. Returns `false` (and
    /// leaves `block` unchanged) if the preparation failed.
    pub fn solve_in_place(&mut self, mut block: ArrayViewMut2<'_, f64>) -> bool {
        let (n, k) = block.dim();
        if k == 0 || n != self.n {
            return k == 0;
        }
        match self.prepared {
            Prepared::Failed => false,
            Prepared::Lu => {
                // Solve in the column-major scratch block, whatever `block`'s layout.
                let mut scratch = self.product.slice_mut(s![.., 0..k]);
                scratch.assign(&block);
                let Some(b) = scratch.as_slice_memory_order_mut() else {
                    return false;
                };
                let solved = self.lu.solve_in_place(b, k).is_ok();
                if solved {
                    block.assign(&scratch);
                }
                solved
            }
            Prepared::PseudoInverse => {
                let pinv = self.pinv.result();
                let mut out = self.product.slice_mut(s![.., 0..k]);
                gemm(1.0, &pinv, &block.view(), 0.0, &mut out);
                block.assign(&out);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array2};

    fn solve(
        method: BackCalculationSolver,
        m: &Array2<f64>,
        d: &Array2<f64>,
    ) -> (Prepared, Array2<f64>) {
        let mut s = SquareSolver::new(m.nrows(), d.ncols(), method, 1e-12).unwrap();
        let p = s.prepare(m.view());
        let mut b = d.clone();
        assert!(s.solve_in_place(b.view_mut()) || p == Prepared::Failed);
        (p, b)
    }

    #[test]
    fn lu_agrees_with_the_pseudo_inverse_on_regular_matrices() {
        let m = array![[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, -1.0, 4.0]];
        let d = array![[1.0, 0.0], [2.0, 1.0], [-1.0, 3.0]];
        let (p1, z1) = solve(BackCalculationSolver::Lu { min_rcond: 1e-8 }, &m, &d);
        let (p2, z2) = solve(BackCalculationSolver::PseudoInverse, &m, &d);
        assert_eq!((p1, p2), (Prepared::Lu, Prepared::PseudoInverse));
        for (a, b) in z1.iter().zip(z2.iter()) {
            assert!((a - b).abs() < 1e-14, "{z1} vs {z2}");
        }
        let back = m.dot(&z1);
        assert!(back
            .iter()
            .zip(d.iter())
            .all(|(a, b)| (a - b).abs() < 1e-14));
    }

    #[test]
    fn singular_matrices_use_the_pseudo_inverse() {
        // rank 1: M⁺ d is the least-squares solution of minimal norm
        let m = array![[1.0, 1.0], [1.0, 1.0]];
        let d = array![[2.0], [2.0]];
        let (p, z) = solve(BackCalculationSolver::default(), &m, &d);
        assert_eq!(p, Prepared::PseudoInverse);
        assert!(
            (z[[0, 0]] - 1.0).abs() < 1e-14 && (z[[1, 0]] - 1.0).abs() < 1e-14,
            "{z}"
        );
        // the zero matrix: M⁺ = 0
        let (p, z) = solve(BackCalculationSolver::default(), &Array2::zeros((2, 2)), &d);
        assert_eq!(p, Prepared::PseudoInverse);
        assert!(z.iter().all(|&x| x == 0.0));
        // a non-finite entry: nothing is solved, the block is unchanged
        let bad = array![[f64::NAN, 0.0], [0.0, 1.0]];
        let (p, z) = solve(BackCalculationSolver::default(), &bad, &d);
        assert_eq!(p, Prepared::Failed);
        assert_eq!(z, d);
    }
}
