//! The matrix adaptation component (docs/algorithm.md §5, steps 7–8); step 9, the step size,
//! is [`crate::step_size`].
//!
//! MA-ES update, with the **new** `p_σ` and the (possibly back-calculated) selected
//! `d`, `z`:
//!
//! ```text
//! M ← (1 − c_1/2 − c_μ/2) M + (c_1/2) (M p_σ) p_σᵀ + Σ_{m=1}^{μ} (c_μ/2) w_m d_{m;λ} z_{m;λ}ᵀ
//! ```
//!
//! then the reset: if more than one entry of `M` is `> 1e12` or NaN or `±∞`, or more
//! than one entry is `< −1e12` or NaN or `±∞`, then `M ← I` and `p_σ ← (1, …, 1)`.

use constraint_handling::linalg::gemm;
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder, Zip};

/// The inputs of one matrix update.
pub struct UpdateInput<'a> {
    /// The selected `d` vectors (`N × μ`, rank order).
    pub d: ArrayView2<'a, f64>,
    /// The selected `z` vectors (`N × μ`).
    pub z: ArrayView2<'a, f64>,
    /// The weights `w_1..w_μ`.
    pub weights: &'a [f64],
    /// `c_1`.
    pub c1: f64,
    /// `c_μ`.
    pub c_mu: f64,
}

/// A matrix adaptation component.
pub trait MatrixAdaptation: std::any::Any + Send {
    /// Updates `M` (and resets `M`, `p_σ` when needed); returns whether a reset happened.
    fn adapt(
        &mut self,
        m: ArrayViewMut2<'_, f64>,
        p_sigma: ArrayViewMut1<'_, f64>,
        input: UpdateInput<'_>,
    ) -> bool;
}

/// No adaptation (εSAg-ES): `M` stays `I`, no reset check.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FrozenMatrix;

impl MatrixAdaptation for FrozenMatrix {
    fn adapt(
        &mut self,
        _m: ArrayViewMut2<'_, f64>,
        _p: ArrayViewMut1<'_, f64>,
        _input: UpdateInput<'_>,
    ) -> bool {
        false
    }
}

/// The MA-ES rank-one and rank-μ update with the reset rule.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MaUpdate {
    q: Array1<f64>,
    weighted_d: Array2<f64>,
}

impl MaUpdate {
    /// Workspace for dimension `n` and `mu` selected offspring.
    #[must_use]
    pub fn new(n: usize, mu: usize) -> Self {
        Self {
            q: Array1::zeros(n),
            weighted_d: Array2::zeros((n, mu).f()),
        }
    }
}

/// Whether the reset rule of step 8 fires for `m`.
#[must_use]
pub fn needs_reset(m: ArrayView2<'_, f64>) -> bool {
    let (mut high, mut low) = (0usize, 0usize);
    let mut count = |x: f64| {
        let bad = !x.is_finite();
        high += usize::from(x > 1e12 || bad);
        low += usize::from(x < -1e12 || bad);
    };
    // A contiguous M (the strategy's) as one slice: ndarray's element iterator does not
    // vectorise, and this runs on N² entries every generation.
    match m.as_slice_memory_order() {
        Some(all) => {
            // Almost always every entry is finite and within ±1e12: one pass without
            // branches says so (NaN fails `≤`), and only then are the entries counted.
            if all
                .iter()
                .fold(true, |within, &x| within & (x.abs() <= 1e12))
            {
                return false;
            }
            all.iter().for_each(|&x| count(x));
        }
        None => m.iter().for_each(|&x| count(x)),
    }
    high > 1 || low > 1
}

impl MatrixAdaptation for MaUpdate {
    fn adapt(
        &mut self,
        mut m: ArrayViewMut2<'_, f64>,
        mut p_sigma: ArrayViewMut1<'_, f64>,
        input: UpdateInput<'_>,
    ) -> bool {
        let UpdateInput {
            d,
            z,
            weights,
            c1,
            c_mu,
        } = input;
        // q = M p_σ (before M is scaled)
        general_mat_vec_mul(1.0, &m, &p_sigma, 0.0, &mut self.q);
        // (c_μ/2) w_m d_m as columns
        for (mut col, (dm, &w)) in self
            .weighted_d
            .columns_mut()
            .into_iter()
            .zip(d.columns().into_iter().zip(weights))
        {
            let f = 0.5 * c_mu * w;
            Zip::from(&mut col).and(&dm).for_each(|a, &b| *a = f * b);
        }
        let decay = 1.0 - 0.5 * c1 - 0.5 * c_mu;
        let half_c1 = 0.5 * c1;
        // m_ij ← decay · m_ij + (c_1/2) q_i p_j, element by element: walked in M's memory
        // order (rows of the strategy's row-major M, columns of a column-major one), the
        // same operations on every element either way.
        let q = self.q.as_slice().expect("contiguous q");
        if let (true, Some(p)) = (m.is_standard_layout(), p_sigma.as_slice()) {
            for (row, &qi) in m.rows_mut().into_iter().zip(q) {
                let row = row.into_slice().expect("row of a row-major matrix");
                for (x, &pj) in row.iter_mut().zip(p) {
                    *x = decay * *x + half_c1 * qi * pj;
                }
            }
        } else {
            for (mut col, &pj) in m.columns_mut().into_iter().zip(p_sigma.iter()) {
                let update = |(x, &qi): (&mut f64, &f64)| *x = decay * *x + half_c1 * qi * pj;
                match col.as_slice_mut() {
                    Some(col) => col.iter_mut().zip(q).for_each(update),
                    None => col.iter_mut().zip(q).for_each(update),
                }
            }
        }
        // + Σ (c_μ/2) w_m d_m z_mᵀ as one product
        gemm(1.0, &self.weighted_d.view(), &z.t(), 1.0, &mut m);
        if needs_reset(m.view()) {
            m.fill(0.0);
            m.diag_mut().fill(1.0);
            p_sigma.fill(1.0);
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array2};

    #[test]
    fn reset_needs_more_than_one_bad_entry() {
        let mut m = Array2::<f64>::eye(3);
        m[[0, 1]] = 2e12;
        assert!(!needs_reset(m.view()));
        m[[1, 2]] = 3e12;
        assert!(needs_reset(m.view()));
        let mut m = Array2::<f64>::eye(3);
        m[[0, 0]] = f64::NAN;
        assert!(!needs_reset(m.view()));
        m[[2, 2]] = f64::NEG_INFINITY;
        assert!(needs_reset(m.view()));
        let mut m = Array2::<f64>::eye(3);
        m[[0, 0]] = 2e12;
        m[[1, 1]] = -2e12;
        assert!(!needs_reset(m.view()));
    }

    /// One `MaUpdate` step on `m` and `p` with the selected `d`, `z` (columns) and
    /// `(c_1, c_μ)`; whether M was reset.
    fn adapt(
        m: ndarray::ArrayViewMut2<'_, f64>,
        p: ndarray::ArrayViewMut1<'_, f64>,
        d: &Array2<f64>,
        z: &Array2<f64>,
        weights: &[f64],
        (c1, c_mu): (f64, f64),
    ) -> bool {
        MaUpdate::new(m.nrows(), d.ncols()).adapt(
            m,
            p,
            UpdateInput {
                d: d.view(),
                z: z.view(),
                weights,
                c1,
                c_mu,
            },
        )
    }

    #[test]
    fn update_matches_the_formula() {
        let mut m = array![[1.0, 0.5], [0.0, 2.0]];
        let mut p = array![0.3, -1.2];
        let d = array![[1.0, 0.2], [-0.5, 0.7]];
        let z = array![[0.4, -0.1], [0.9, 0.3]];
        let w = [0.7, 0.3];
        let (c1, cmu) = (0.1, 0.2);
        let q = m.dot(&p);
        let mut expected = m.clone() * (1.0 - 0.05 - 0.1);
        for i in 0..2 {
            for j in 0..2 {
                expected[[i, j]] += 0.05 * q[i] * p[j];
                for k in 0..2 {
                    expected[[i, j]] += 0.1 * w[k] * d[[i, k]] * z[[j, k]];
                }
            }
        }
        let reset = adapt(m.view_mut(), p.view_mut(), &d, &z, &w, (c1, cmu));
        assert!(!reset);
        for (a, b) in m.iter().zip(expected.iter()) {
            assert!((a - b).abs() < 1e-15);
        }
    }

    /// The decay and rank-one terms walk M in its memory order: a row-major and a
    /// column-major M (and a strided view) give the same bits. (`c_μ = 0`: the rank-μ
    /// product is BLAS's, whose kernels may round differently per layout.)
    #[test]
    fn every_layout_of_m_gives_the_same_bits() {
        use ndarray::ShapeBuilder;
        let n = 7;
        let f = |i: usize, j: usize| ((i * 13 + j * 7) % 11) as f64 / 3.0 - 1.5;
        let d = Array2::from_shape_fn((n, 3), |(i, j)| f(i, j) * 0.3);
        let z = Array2::from_shape_fn((n, 3), |(i, j)| f(j, i) * 0.7);
        let w = [0.5, 0.3, 0.2];
        let run = |mut m: ndarray::ArrayViewMut2<'_, f64>| {
            let mut p = ndarray::Array1::from_shape_fn(n, |i| f(i, 2) * 0.4);
            adapt(m.view_mut(), p.view_mut(), &d, &z, &w, (0.013, 0.0));
            m.to_owned()
        };
        let mut row_major = Array2::from_shape_fn((n, n), |(i, j)| f(i, j));
        let mut col_major = Array2::zeros((n, n).f());
        col_major.assign(&row_major);
        let mut wide = Array2::zeros((n, 2 * n));
        wide.slice_mut(ndarray::s![.., ..;2]).assign(&row_major);
        let a = run(row_major.view_mut());
        let b = run(col_major.view_mut());
        let c = run(wide.slice_mut(ndarray::s![.., ..;2]));
        for ((x, y), v) in a.iter().zip(b.iter()).zip(c.iter()) {
            assert_eq!(x.to_bits(), y.to_bits());
            assert_eq!(x.to_bits(), v.to_bits());
        }
    }
}
