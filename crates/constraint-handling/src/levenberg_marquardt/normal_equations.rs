//! The two ways of solving the Levenberg–Marquardt normal equations ([`Solve`]): the
//! whole slack system ([`FullSystem`]) and the slacks eliminated ([`ReducedSystem`]).
//!
//! Both return the step `δx` in the step's units (the caller multiplies by `w_i`), or
//! why it cannot be taken.
//!
//! [`Solve`]: super::Solve

use super::Scaling;
use crate::linalg::{gemm, CholeskyFactors, LinalgError, LuFactors};
use crate::repair::{RepairError, RepairStatus};
use ndarray::linalg::{general_mat_mul, general_mat_vec_mul};
use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut1, ShapeBuilder};

/// A step, or why none was taken.
pub(super) type Step<'a> = Result<&'a [f64], RepairStatus>;

/// Where a step starts: the point `x` in the box `[lower, upper]`, its constraint
/// values (the first `inequalities` are the `g`) and their Jacobian.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub(super) inequalities: usize,
    pub(super) lower: &'a [f64],
    pub(super) upper: &'a [f64],
    pub(super) x: &'a [f64],
    pub(super) constraints: &'a [f64],
    pub(super) jacobian: ArrayView2<'a, f64>,
}

/// The slack of a constraint row: `s = √max(0, −g)` for an inequality (`r = g + s²`,
/// `a = 2s`), none for an equality (`r = h`, `a = 0`). Returns `(r, a)`.
fn constraint_row(row: usize, inequalities: usize, c: f64) -> (f64, f64) {
    if row < inequalities {
        let s = (-c).max(0.0).sqrt();
        (c + s * s, 2.0 * s)
    } else {
        (c, 0.0)
    }
}

/// The row `x − s_lo² − lo` (`sign = −1`, `b = lo`) or `x + s_hi² − hi` (`sign = 1`,
/// `b = hi`), divided by `w` under [`Scaling::Box`], with the slack where the row
/// vanishes as far as it can. Returns `(r_b, c_b)`, `c_b = ±2 s`.
fn bound_row(scaling: Scaling, w: f64, sign: f64, b: f64, x: f64) -> (f64, f64) {
    let s = (sign * (b - x) / w).max(0.0).sqrt();
    let r = if scaling == Scaling::Box {
        (x - b) / w + sign * s * s
    } else {
        x + sign * s * s - b
    };
    (r, sign * 2.0 * s)
}

/// The finite bounds of variable `i` as rows `(r_b, c_b)` ([`bound_row`]).
fn bound_rows(
    scaling: Scaling,
    lower: &[f64],
    upper: &[f64],
    x: &[f64],
    i: usize,
) -> impl Iterator<Item = (f64, f64)> {
    let w = scaling.width(lower, upper, i);
    let xi = x[i];
    [(-1.0, lower[i]), (1.0, upper[i])]
        .into_iter()
        .filter(|(_, b)| b.is_finite())
        .map(move |(sign, b)| bound_row(scaling, w, sign, b, xi))
}

/// The slacks eliminated (see [`Solve::Reduced`](super::Solve::Reduced)).
#[derive(Clone, Debug)]
pub(super) struct ReducedSystem {
    n: usize,
    k: usize,
    /// `G = Λ^½ J W` (`k × N`).
    g: Array2<f64>,
    /// `G D^{-½}` (`k × N`; the dual form only).
    h: Array2<f64>,
    /// `r_C`, then `Λ^½ r_C` (`k`); `a_j` (`k`).
    r: Vec<f64>,
    a: Vec<f64>,
    /// `D` and `q` (`N`), the right-hand side `b` and then the step (`N`).
    d: Vec<f64>,
    q: Vec<f64>,
    b: Vec<f64>,
    /// The dual form's right-hand side and solution (`k`).
    t: Vec<f64>,
    /// The system solved: `N × N` (`N ≤ k`) or `k × k`.
    normal: Array2<f64>,
    chol: CholeskyFactors,
}

impl ReducedSystem {
    pub(super) fn new(n: usize, k: usize) -> Result<Self, LinalgError> {
        let m = n.min(k);
        Ok(Self {
            n,
            k,
            g: Array2::zeros((k, n)),
            h: Array2::zeros((if k < n { k } else { 0 }, n)),
            r: vec![0.0; k],
            a: vec![0.0; k],
            d: vec![0.0; n],
            q: vec![0.0; n],
            b: vec![0.0; n],
            t: vec![0.0; k],
            normal: Array2::zeros((m, m).f()),
            chol: CholeskyFactors::new(m)?,
        })
    }

    pub(super) fn fits(&self, n: usize, k: usize) -> bool {
        self.n == n && self.k == k
    }

    pub(super) fn step(&mut self, scaling: Scaling, at: &At<'_>) -> Result<Step<'_>, RepairError> {
        let At {
            inequalities,
            lower,
            upper,
            x,
            constraints,
            jacobian,
        } = *at;
        let (n, k) = (self.n, self.k);
        self.g.assign(&jacobian);
        // The largest diagonal entry of AᵀA and ‖r‖², for μ.
        let mut largest = 0.0f64;
        let mut norm2 = 0.0;
        for (i, mut col) in self.g.columns_mut().into_iter().enumerate() {
            let w = scaling.width(lower, upper, i);
            if w != 1.0 {
                col.mapv_inplace(|v| v * w);
            }
            let bounds = bound_rows(scaling, lower, upper, x, i).count() as f64;
            largest = largest.max(col.iter().map(|v| v * v).sum::<f64>() + bounds);
        }
        for (row, &c) in constraints.iter().enumerate() {
            let (r, a) = constraint_row(row, inequalities, c);
            self.r[row] = r;
            self.a[row] = a;
            norm2 += r * r;
            largest = largest.max(a * a);
        }
        for i in 0..n {
            for (r, c) in bound_rows(scaling, lower, upper, x, i) {
                norm2 += r * r;
                largest = largest.max(c * c);
            }
        }
        let mu = norm2.max(1e-12 * largest);
        if !(mu > 0.0 && mu.is_finite()) {
            return Ok(Err(RepairStatus::DecompositionFailed));
        }
        // Λ^½ into G's rows and r; D, q and b = Gᵀ (Λ^½ r) + q.
        for (row, mut g) in self.g.rows_mut().into_iter().enumerate() {
            let a = self.a[row];
            let root = (mu / (a * a + mu)).sqrt();
            if root != 1.0 {
                g.mapv_inplace(|v| v * root);
                self.r[row] *= root;
            }
        }
        for i in 0..n {
            let (mut d, mut q) = (mu, 0.0);
            for (r, c) in bound_rows(scaling, lower, upper, x, i) {
                let beta = mu / (c * c + mu);
                d += beta;
                q += beta * r;
            }
            self.d[i] = d;
            self.q[i] = q;
        }
        self.b.copy_from_slice(&self.q);
        general_mat_vec_mul(
            1.0,
            &self.g.t(),
            &ArrayView1::from(&self.r[..]),
            1.0,
            &mut ArrayViewMut1::from(&mut self.b[..]),
        );
        if n <= k {
            // (GᵀG + D) δ = b.
            gemm(
                1.0,
                &self.g.t(),
                &self.g.view(),
                0.0,
                &mut self.normal.view_mut(),
            );
            for (i, d) in self.d.iter().enumerate() {
                self.normal[[i, i]] += d;
            }
            if !self.factor()? {
                return Ok(Err(RepairStatus::DecompositionFailed));
            }
            self.chol.solve_in_place(&mut self.b, 1)?;
        } else {
            // Woodbury: (I + G D⁻¹ Gᵀ) v = G D⁻¹ b, δ = D⁻¹ (b − Gᵀ v).
            for ((mut h, g), d) in self
                .h
                .columns_mut()
                .into_iter()
                .zip(self.g.columns())
                .zip(&self.d)
            {
                let scale = d.sqrt().recip();
                h.zip_mut_with(&g, |h, g| *h = g * scale);
            }
            gemm(
                1.0,
                &self.h.view(),
                &self.h.t(),
                0.0,
                &mut self.normal.view_mut(),
            );
            for j in 0..k {
                self.normal[[j, j]] += 1.0;
            }
            for (b, d) in self.b.iter_mut().zip(&self.d) {
                *b /= d;
            }
            general_mat_vec_mul(
                1.0,
                &self.g,
                &ArrayView1::from(&self.b[..]),
                0.0,
                &mut ArrayViewMut1::from(&mut self.t[..]),
            );
            if !self.factor()? {
                return Ok(Err(RepairStatus::DecompositionFailed));
            }
            self.chol.solve_in_place(&mut self.t, 1)?;
            // δ = D⁻¹ b − D⁻¹ Gᵀ v: b holds D⁻¹ b; q takes Gᵀ v.
            general_mat_vec_mul(
                1.0,
                &self.g.t(),
                &ArrayView1::from(&self.t[..]),
                0.0,
                &mut ArrayViewMut1::from(&mut self.q[..]),
            );
            for ((b, q), d) in self.b.iter_mut().zip(&self.q).zip(&self.d) {
                *b -= q / d;
            }
        }
        for b in &mut self.b {
            *b = -*b;
        }
        Ok(Ok(&self.b))
    }

    /// Factorises `normal`; whether it is safe to solve with (`rcond > ε`).
    fn factor(&mut self) -> Result<bool, LinalgError> {
        match self.chol.factor(self.normal.view()) {
            Ok(c) => Ok(c.rcond > f64::EPSILON),
            Err(LinalgError::NonFinite | LinalgError::Lapack { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// The normal equations of the whole slack system in `z = (x, s_g, s_lo, s_hi)` (see
/// [`Solve::Full`](super::Solve::Full)).
#[derive(Clone, Debug)]
pub(super) struct FullSystem {
    n: usize,
    k: usize,
    unknowns: usize,
    a: Array2<f64>,
    r: Vec<f64>,
    normal: Array2<f64>,
    step: Vec<f64>,
    lu: LuFactors,
}

/// The finite bounds of a box.
fn finite_bounds(lower: &[f64], upper: &[f64]) -> usize {
    lower.iter().chain(upper).filter(|b| b.is_finite()).count()
}

impl FullSystem {
    pub(super) fn new(
        n: usize,
        k: usize,
        inequalities: usize,
        lower: &[f64],
        upper: &[f64],
    ) -> Result<Self, LinalgError> {
        let bounds = finite_bounds(lower, upper);
        let unknowns = n + inequalities + bounds;
        Ok(Self {
            n,
            k,
            unknowns,
            a: Array2::zeros((k + bounds, unknowns)),
            r: vec![0.0; k + bounds],
            normal: Array2::zeros((unknowns, unknowns).f()),
            step: vec![0.0; unknowns],
            lu: LuFactors::new(unknowns)?,
        })
    }

    pub(super) fn fits(
        &self,
        n: usize,
        k: usize,
        inequalities: usize,
        lower: &[f64],
        upper: &[f64],
    ) -> bool {
        let bounds = finite_bounds(lower, upper);
        self.n == n && self.k == k && self.unknowns == n + inequalities + bounds
    }

    pub(super) fn step(&mut self, scaling: Scaling, at: &At<'_>) -> Result<Step<'_>, RepairError> {
        let At {
            inequalities,
            lower,
            upper,
            x,
            constraints,
            jacobian,
        } = *at;
        let (n, k, l) = (self.n, self.k, inequalities);
        self.a.fill(0.0);
        // The rows of C: r = C + (s_g², 0), A = [J W, 2 diag(s_g), 0].
        self.a.slice_mut(ndarray::s![..k, ..n]).assign(&jacobian);
        if scaling == Scaling::Box {
            for i in 0..n {
                let w = scaling.width(lower, upper, i);
                self.a.column_mut(i).mapv_inplace(|v| v * w);
            }
        }
        for (row, &c) in constraints.iter().enumerate() {
            let (r, a) = constraint_row(row, l, c);
            self.r[row] = r;
            if row < l {
                self.a[[row, n + row]] = a;
            }
        }
        // The bounds: x − s_lo² − lo, x + s_hi² − hi (divided by w: (x − lo)/w − s_lo²),
        // the lower bounds' rows first, then the upper bounds'.
        let (mut row, mut col) = (k, n + l);
        for (sign, bounds) in [(-1.0, lower), (1.0, upper)] {
            for (i, &b) in bounds.iter().enumerate().filter(|(_, b)| b.is_finite()) {
                let w = scaling.width(lower, upper, i);
                let (r, c) = bound_row(scaling, w, sign, b, x[i]);
                self.r[row] = r;
                self.a[[row, i]] = 1.0;
                self.a[[row, col]] = c;
                row += 1;
                col += 1;
            }
        }
        // (AᵀA + μ I) δ = −Aᵀ r, μ = max(‖r‖², 10⁻¹² max diag AᵀA).
        general_mat_mul(1.0, &self.a.t(), &self.a, 0.0, &mut self.normal);
        let largest = (0..self.unknowns).fold(0.0f64, |m, d| m.max(self.normal[[d, d]]));
        let mu = self
            .r
            .iter()
            .map(|v| v * v)
            .sum::<f64>()
            .max(1e-12 * largest);
        for d in 0..self.unknowns {
            self.normal[[d, d]] += mu;
        }
        general_mat_vec_mul(
            -1.0,
            &self.a.t(),
            &ArrayView1::from(&self.r[..]),
            0.0,
            &mut ArrayViewMut1::from(&mut self.step[..]),
        );
        match self.lu.factor(self.normal.view()) {
            Ok(c) if c.rcond > f64::EPSILON => {}
            Ok(_) | Err(LinalgError::NonFinite | LinalgError::Lapack { .. }) => {
                return Ok(Err(RepairStatus::DecompositionFailed))
            }
            Err(e) => return Err(e.into()),
        }
        self.lu.solve_in_place(&mut self.step, 1)?;
        Ok(Ok(&self.step[..n]))
    }
}
