//! Small classic constrained problems with known optima, for training and tests: the
//! Rosen–Suzuki problem, the tension/compression spring and the pressure vessel (both
//! with their variables scaled to `[0, 1]`), and a circle with one equality.
//!
//! ```
//! use local_phase::classic;
//! let all = classic::all();
//! assert_eq!(all.iter().map(|c| c.name).collect::<Vec<_>>(),
//!            ["rosen-suzuki", "spring", "pressure-vessel", "circle"]);
//! ```

use crate::sqp::{Sqp, SqpError, SqpSettings};
use constraint_handling::problem::ProblemShape;
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use std::f64::consts::PI;

/// The closure type of a classic problem.
pub type Formula = Box<dyn Fn(&[f64], &mut [f64]) -> Result<f64, ProblemError> + Send + Sync>;

/// A classic problem's type.
pub type Formulated = FnProblem<Formula>;

/// A classic problem, its optimum and a start.
pub struct Classic {
    /// Its name.
    pub name: &'static str,
    /// The problem.
    pub problem: FnProblem<Formula>,
    /// The best value known (from the literature, or exact).
    pub f_star: f64,
    /// The usual start.
    pub start: Vec<f64>,
}

impl Classic {
    /// A run of the local phase on this problem from `start` with `settings`, its
    /// equalities held to `|h| ≤ 10⁻⁸` (the margin of [`Hits`]' measure;
    /// [`Sqp::for_problem`] takes the problem's own).
    ///
    /// # Errors
    /// As [`Sqp::new`].
    ///
    /// ```
    /// use emages_solver::Solver;
    /// use local_phase::{classic, sqp::SqpSettings};
    /// let rs = classic::rosen_suzuki();
    /// let mut sqp = rs.sqp_from(&rs.start, SqpSettings::default())?;
    /// sqp.run(&rs.problem, 1000)?;
    /// assert!((sqp.best().unwrap().objective() - rs.f_star).abs() < 1e-4);
    /// # Ok::<(), local_phase::sqp::SqpError>(())
    /// ```
    pub fn sqp_from(&self, start: &[f64], settings: SqpSettings) -> Result<Sqp, SqpError> {
        let mut shape = ProblemShape::of(&self.problem)?;
        shape.equality_margin = 1e-8;
        Sqp::new(shape, start, settings)
    }
}

impl std::fmt::Debug for Classic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classic")
            .field("name", &self.name)
            .field("dim", &self.problem.dim())
            .field("f_star", &self.f_star)
            .finish_non_exhaustive()
    }
}

#[allow(clippy::too_many_arguments)]
fn classic(
    name: &'static str,
    lower: Vec<f64>,
    upper: Vec<f64>,
    inequalities: usize,
    equalities: usize,
    f_star: f64,
    start: Vec<f64>,
    formula: Formula,
) -> Classic {
    Classic {
        name,
        problem: FnProblem::new(lower, upper, inequalities, equalities, formula)
            .expect("the classic problems' boxes are valid"),
        f_star,
        start,
    }
}

/// Rosen and Suzuki (1965): 4 variables in `[−10, 10]⁴`, 3 inequalities; `f* = −44` at
/// `(0, 1, 2, −1)`; the start 0.
#[must_use]
pub fn rosen_suzuki() -> Classic {
    classic(
        "rosen-suzuki",
        vec![-10.0; 4],
        vec![10.0; 4],
        3,
        0,
        -44.0,
        vec![0.0; 4],
        Box::new(|x, g| {
            let sq = |i: usize| x[i] * x[i];
            g[0] = sq(0) + sq(1) + sq(2) + sq(3) + x[0] - x[1] + x[2] - x[3] - 8.0;
            g[1] = sq(0) + 2.0 * sq(1) + sq(2) + 2.0 * sq(3) - x[0] - x[3] - 10.0;
            g[2] = 2.0 * sq(0) + sq(1) + sq(2) + 2.0 * x[0] - x[1] - x[3] - 5.0;
            Ok(
                sq(0) + sq(1) + 2.0 * sq(2) + sq(3) - 5.0 * x[0] - 5.0 * x[1] - 21.0 * x[2]
                    + 7.0 * x[3],
            )
        }),
    )
}

/// `uᵢ ∈ [0, 1]` mapped onto `[lo, hi]`.
fn unscale<const N: usize>(u: &[f64], lo: [f64; N], hi: [f64; N]) -> [f64; N] {
    std::array::from_fn(|i| lo[i] + u[i] * (hi[i] - lo[i]))
}

/// The tension/compression spring (Belegundu 1982; Coello's form): wire diameter
/// `d ∈ [0.05, 2]`, coil diameter `D ∈ [0.25, 1.3]`, active coils `n ∈ [2, 15]`, each
/// scaled to `[0, 1]`; 4 inequalities; `f* ≈ 0.012665232788`; the start the centre.
#[must_use]
pub fn spring() -> Classic {
    classic(
        "spring",
        vec![0.0; 3],
        vec![1.0; 3],
        4,
        0,
        0.012_665_232_788,
        vec![0.5; 3],
        Box::new(|u, g| {
            let [d, dd, n] = unscale(u, [0.05, 0.25, 2.0], [2.0, 1.3, 15.0]);
            g[0] = 1.0 - dd.powi(3) * n / (71_785.0 * d.powi(4));
            g[1] = (4.0 * dd * dd - d * dd) / (12_566.0 * (dd * d.powi(3) - d.powi(4)))
                + 1.0 / (5108.0 * d * d)
                - 1.0;
            g[2] = 1.0 - 140.45 * d / (dd * dd * n);
            g[3] = (d + dd) / 1.5 - 1.0;
            Ok((n + 2.0) * dd * d * d)
        }),
    )
}

/// The pressure vessel (Sandgren 1990), continuous: shell and head thickness
/// `T_s, T_h ∈ [0, 99]`, radius and length `R, L ∈ [10, 200]`, each scaled to `[0, 1]`;
/// 4 inequalities; `f* ≈ 5885.3327736`; the start the centre.
#[must_use]
pub fn pressure_vessel() -> Classic {
    classic(
        "pressure-vessel",
        vec![0.0; 4],
        vec![1.0; 4],
        4,
        0,
        5_885.332_773_6,
        vec![0.5; 4],
        Box::new(|u, g| {
            let [ts, th, r, l] = unscale(u, [0.0, 0.0, 10.0, 10.0], [99.0, 99.0, 200.0, 200.0]);
            g[0] = -ts + 0.0193 * r;
            g[1] = -th + 0.00954 * r;
            g[2] = -PI * r * r * l - 4.0 / 3.0 * PI * r.powi(3) + 1_296_000.0;
            g[3] = l - 240.0;
            Ok(0.6224 * ts * r * l
                + 1.7781 * th * r * r
                + 3.1661 * ts * ts * l
                + 19.84 * ts * ts * r)
        }),
    )
}

/// `min x₁ + x₂` on the circle `x₁² + x₂² = 2` in `[−3, 3]²`: `f* = −2` at `(−1, −1)`;
/// the start `(0.5, 0)`.
#[must_use]
pub fn circle() -> Classic {
    classic(
        "circle",
        vec![-3.0; 2],
        vec![3.0; 2],
        0,
        1,
        -2.0,
        vec![0.5, 0.0],
        Box::new(|x, c| {
            c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
            Ok(x[0] + x[1])
        }),
    )
}

/// `min Σ dᵢ xᵢ²` on `Σ x = 1` in `[−5, 5]ᴺ`, the curvatures `dᵢ = 10^(6 i / (N − 1))`
/// spanning six decades: `f* = 1 / Σ 1/dᵢ` at `xᵢ ∝ 1/dᵢ`; the start 0. Not among
/// [`all`]: the first step of the local phase is cut back along the stiffest axis, the
/// case of [`SqpSettings::capped_first_scale`](crate::sqp::SqpSettings::capped_first_scale),
/// and its run crawls for over a hundred iterations.
///
/// ```
/// use local_phase::classic;
/// let e = classic::ill_conditioned_ellipsoid(20);
/// assert_eq!(e.start, vec![0.0; 20]);
/// assert!(e.f_star > 0.0 && e.f_star < 1.0);
/// ```
#[must_use]
pub fn ill_conditioned_ellipsoid(n: usize) -> Classic {
    let d: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(6.0 * i as f64 / (n.max(2) - 1) as f64))
        .collect();
    let f_star = 1.0 / d.iter().map(|v| 1.0 / v).sum::<f64>();
    classic(
        "ill-conditioned-ellipsoid",
        vec![-5.0; n],
        vec![5.0; n],
        0,
        1,
        f_star,
        vec![0.0; n],
        Box::new(move |x, c| {
            c[0] = x.iter().sum::<f64>() - 1.0;
            Ok(x.iter().zip(&d).map(|(x, d)| d * x * x).sum())
        }),
    )
}

/// Every classic problem, in the order above.
#[must_use]
pub fn all() -> Vec<Classic> {
    vec![rosen_suzuki(), spring(), pressure_vessel(), circle()]
}

/// A classic problem that counts its evaluations and notes the first "hit": the first
/// evaluation of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`
/// (the measure of the examples that compare solvers on these problems). Batches are
/// evaluated point by point through it.
///
/// ```
/// use constraint_handling::ConstrainedProblem;
/// use local_phase::classic::{self, Hits};
/// let rs = classic::rosen_suzuki();
/// let hits = Hits::new(&rs);
/// let mut g = [0.0; 3];
/// hits.evaluate(&[0.0, 1.0, 2.0, -1.0], &mut g).unwrap(); // the optimum: g₁ = g₃ = 0
/// assert_eq!((hits.evaluations(), hits.hit()), (1, Some(1)));
/// ```
#[derive(Debug)]
pub struct Hits<'a> {
    classic: &'a Classic,
    count: std::sync::atomic::AtomicUsize,
    hit: std::sync::atomic::AtomicUsize,
}

impl<'a> Hits<'a> {
    /// `classic`, no evaluation yet.
    #[must_use]
    pub fn new(classic: &'a Classic) -> Self {
        Self {
            classic,
            count: 0.into(),
            hit: 0.into(),
        }
    }

    /// The evaluations so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.count.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The evaluation that first hit, if one did.
    #[must_use]
    pub fn hit(&self) -> Option<usize> {
        Some(self.hit.load(std::sync::atomic::Ordering::Relaxed)).filter(|h| *h > 0)
    }
}

impl constraint_handling::ProblemWrapper for Hits<'_> {
    type Inner = Formulated;
    fn inner(&self) -> &Formulated {
        &self.classic.problem
    }
    fn wrap_evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        use std::sync::atomic::Ordering::Relaxed;
        let f = self.classic.problem.evaluate(x, c)?;
        let count = self.count.fetch_add(1, Relaxed) + 1;
        let l = self.classic.problem.num_inequalities();
        let feasible = c[..l].iter().all(|g| *g <= 0.0) && c[l..].iter().all(|h| h.abs() <= 1e-8);
        let close = f - self.classic.f_star <= 1e-6 * self.classic.f_star.abs().max(1.0);
        if feasible && close {
            let _ = self.hit.compare_exchange(0, count, Relaxed, Relaxed);
        }
        Ok(f)
    }
    fn wrap_evaluate_batch(
        &self,
        points: ndarray::ArrayView2<'_, f64>,
        f: ndarray::ArrayViewMut1<'_, f64>,
        c: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        constraint_handling::problem::evaluate_columns(self, points, f, c)
    }
    fn wrap_evaluate_constraints_batch(
        &self,
        points: ndarray::ArrayView2<'_, f64>,
        f: ndarray::ArrayViewMut1<'_, f64>,
        c: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        constraint_handling::problem::evaluate_columns(self, points, f, c)
    }
}
