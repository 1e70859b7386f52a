//! One problem of the suite: COCO's construction (`suite_cons_bbob_problems.c`), step
//! by step.
//!
//! 1. The objective of the function's type ([`Objective`]) and its gradient at the
//!    origin, the feasible direction `p`, scaled so that `x_opt + p` stays inside
//!    `[−5, 5]^n` (by `(0.75 + 0.25 U) / max_i max(p_i/(5 − x_opt,i), p_i/(−5 − x_opt,i))`).
//! 2. The linear constraints ([`crate::constraints`]); `p` is the initial solution.
//! 3. The non-linear transformation of the whole problem, objective and constraints
//!    alike, by type: oscillation `T_osz` (ellipsoid, rotated ellipsoid, discus),
//!    asymmetry `T_asy^{0.2}` (bent cigar), both (`T_asy(T_osz(x))`, Rastrigin); the
//!    initial solution is mapped back through the inverse, halved until it lies in the
//!    box.
//! 4. The shift of the whole problem by `x_opt` (for the linear slope: of the
//!    constraints only), so that the constrained optimum is at `x_opt`.
//! 5. The objective scaled (×10, ×10⁻⁴ or ×10²) to put the initial solution's `Δf`
//!    between 10² and 10⁴.

use crate::batch::{ConstraintMatrix, LANES};
use crate::constraints::linear_constraints;
use crate::objectives::Objective;
use crate::random::{bbob2009_unif, bbob2009_xopt};
use crate::transforms::{asymmetric, inverse, oscillate};
use crate::BbobError;
use constraint_handling::problem::check_batch_shapes;
use constraint_handling::{ConstrainedProblem, ProblemError};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};
use std::sync::atomic::{AtomicU64, Ordering};

/// The non-linear transformation of a whole problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Disguise {
    None,
    Oscillate,
    Asymmetric,
    /// `T_asy(T_osz(x))`.
    Composed,
}

const ASYMMETRY: f64 = 0.2;
const LOWER: [f64; 40] = [-5.0; 40];
const UPPER: [f64; 40] = [5.0; 40];
/// The most constraints a function has: 6 + 3n active ones at n = 40
/// ([`active_constraints`]) and half as many inactive ones.
const MAX_CONSTRAINTS: usize = (6 + 3 * 40) * 3 / 2;

/// A problem of the bbob-constrained suite: `min f(x)` subject to `g_i(x) ≤ 0`,
/// `x ∈ [−5, 5]^n` (the box is the region of interest; COCO does not enforce it).
///
/// It counts the evaluations of `f` and of `g` apart, as COCO's runtime does
/// ([`BbobProblem::evaluations`]); the [`ConstrainedProblem`] interface evaluates both
/// at once and counts one of each.
///
/// ```
/// use bbob_constrained::BbobProblem;
/// let p = BbobProblem::new(1, 2, 1).unwrap(); // f1 (sphere, 1 constraint), N = 2, instance 1
/// assert_eq!(p.id(), "bbob-constrained_f001_i01_d02");
/// let x0 = p.initial_solution();
/// let mut g = vec![0.0; p.number_of_constraints()];
/// p.constraints(x0, &mut g);
/// assert!(g.iter().all(|&v| v <= 0.0)); // the initial solution is feasible
/// assert!(p.objective(x0) > p.best_value());
/// assert_eq!(p.evaluations(), (1, 1));
/// ```
#[derive(Debug)]
pub struct BbobProblem {
    function: usize,
    instance: usize,
    dim: usize,
    objective: Objective,
    constraints: ConstraintMatrix,
    disguise: Disguise,
    /// The shift of the whole problem.
    xopt: Vec<f64>,
    /// Linear slope: only the constraints are shifted.
    shift_objective: bool,
    scale: f64,
    initial: Vec<f64>,
    best_value: f64,
    f_evaluations: AtomicU64,
    g_evaluations: AtomicU64,
}

impl Clone for BbobProblem {
    fn clone(&self) -> Self {
        Self {
            function: self.function,
            instance: self.instance,
            dim: self.dim,
            objective: self.objective.clone(),
            constraints: self.constraints.clone(),
            disguise: self.disguise,
            xopt: self.xopt.clone(),
            shift_objective: self.shift_objective,
            scale: self.scale,
            initial: self.initial.clone(),
            best_value: self.best_value,
            f_evaluations: AtomicU64::new(0),
            g_evaluations: AtomicU64::new(0),
        }
    }
}

/// The number of active constraints of `function` (1–54) in dimension `dim`: 1, 2, 6,
/// 6 + ⌊n/2⌋, 6 + n, 6 + 3n by the function's position among the six of its type.
#[must_use]
pub fn active_constraints(function: usize, dim: usize) -> usize {
    match (function - 1) % 6 + 1 {
        1 => 1,
        2 => 2,
        3 => 6,
        4 => 6 + dim / 2,
        5 => 6 + dim,
        _ => 6 + 3 * dim,
    }
}

/// The objective type (1–9) of `function` (1–54).
#[must_use]
pub fn objective_type(function: usize) -> usize {
    function.div_ceil(6)
}

impl BbobProblem {
    /// Function `function` (1–54) in dimension `dim` (2, 3, 5, 10, 20 or 40, COCO's;
    /// any `dim` from 2 to 40 is built) for `instance` (≥ 1).
    ///
    /// # Errors
    /// [`BbobError`] for a function, dimension or instance outside those ranges.
    pub fn new(function: usize, dim: usize, instance: usize) -> Result<Self, BbobError> {
        if !(1..=54).contains(&function) {
            return Err(BbobError::UnknownFunction(function));
        }
        if !(2..=40).contains(&dim) {
            return Err(BbobError::UnsupportedDimension(dim));
        }
        if instance == 0 {
            return Err(BbobError::UnknownInstance(instance));
        }
        let kind = objective_type(function);
        let xopt = bbob2009_xopt((function + 10_000 * instance) as i64, dim);
        let rseed = (function + 20_000 * instance) as i64;
        let objective = Objective::new(kind, function, instance, dim);

        // 1. The feasible direction.
        let mut p = objective.gradient(&vec![0.0; dim]);
        let mut maxrel = 0f64;
        for (&pi, &xi) in p.iter().zip(&xopt) {
            maxrel = coco_max(maxrel, pi / (5.0 - xi));
            maxrel = coco_max(maxrel, pi / (-5.0 - xi));
        }
        let r = bbob2009_unif(1, rseed + 412)[0];
        let factor = if maxrel != 0.0 {
            (0.75 + r * (1.0 - 0.75)) / maxrel
        } else {
            0.75 + r * (1.0 - 0.75)
        };
        for v in &mut p {
            *v *= factor;
        }

        // 2. The constraints.
        let linear = linear_constraints(
            function,
            dim,
            instance,
            active_constraints(function, dim),
            &p,
        );
        let rows: Vec<(&[f64], f64, f64)> = linear
            .iter()
            .map(|c| (c.gradient.as_slice(), c.shift, c.norm))
            .collect();
        let constraints = ConstraintMatrix::new(dim, &rows);

        // 3.–5.
        let disguise = match kind {
            2 | 4 | 5 => Disguise::Oscillate,
            6 => Disguise::Asymmetric,
            8 | 9 => Disguise::Composed,
            _ => Disguise::None,
        };
        let scale = match kind {
            1 | 3 | 8 | 9 => 10.0,
            7 => 1e2,
            _ => 1e-4,
        };
        let initial = initial_solution(&p, &xopt, disguise);
        let mut problem = Self {
            function,
            instance,
            dim,
            objective,
            constraints,
            disguise,
            xopt,
            shift_objective: kind != 3,
            scale,
            initial,
            best_value: 0.0,
            f_evaluations: AtomicU64::new(0),
            g_evaluations: AtomicU64::new(0),
        };
        // The constrained optimum: x_opt (COCO evaluates the problem there).
        let at = problem.xopt.clone();
        problem.best_value = problem.value(&at);
        Ok(problem)
    }

    /// COCO's id, `bbob-constrained_f001_i01_d02`.
    #[must_use]
    pub fn id(&self) -> String {
        format!(
            "bbob-constrained_f{:03}_i{:02}_d{:02}",
            self.function, self.instance, self.dim
        )
    }

    /// The function number (1–54).
    #[must_use]
    pub fn function(&self) -> usize {
        self.function
    }

    /// The instance.
    #[must_use]
    pub fn instance(&self) -> usize {
        self.instance
    }

    /// The number of constraints (active and inactive).
    #[must_use]
    pub fn number_of_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The suite's initial solution (feasible, inside the box).
    #[must_use]
    pub fn initial_solution(&self) -> &[f64] {
        &self.initial
    }

    /// The optimal value `f(x_opt)`, for Δf and COCO's targets.
    #[must_use]
    pub fn best_value(&self) -> f64 {
        self.best_value
    }

    /// The constrained optimum `x_opt`.
    #[must_use]
    pub fn best_parameter(&self) -> &[f64] {
        &self.xopt
    }

    /// `(f evaluations, g evaluations)` so far (COCO's `evaluations` and
    /// `evaluations_constraints`).
    #[must_use]
    pub fn evaluations(&self) -> (u64, u64) {
        (
            self.f_evaluations.load(Ordering::Relaxed),
            self.g_evaluations.load(Ordering::Relaxed),
        )
    }

    /// The point the inner problem sees: `x` shifted by `x_opt` (if `shift`) and
    /// transformed.
    fn inner(&self, x: &[f64], shift: bool, out: &mut [f64]) {
        let n = self.dim;
        for i in 0..n {
            let v = if shift { x[i] - self.xopt[i] } else { x[i] };
            out[i] = match self.disguise {
                Disguise::None => v,
                Disguise::Oscillate => oscillate(v),
                Disguise::Asymmetric => asymmetric(v, ASYMMETRY, i, n),
                Disguise::Composed => asymmetric(oscillate(v), ASYMMETRY, i, n),
            };
        }
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (mut y, mut work) = ([0.0; 40], [0.0; 40]);
        let n = self.dim;
        self.inner(x, self.shift_objective, &mut y[..n]);
        self.scale * self.objective.value(&y[..n], &mut work[..n])
    }

    /// `f(x)` (one f evaluation); NaN for a point with a NaN, `|x_i|` for one with an
    /// infinite coordinate (as COCO).
    ///
    /// # Panics
    /// If `x` does not have the problem's dimension.
    #[must_use]
    pub fn objective(&self, x: &[f64]) -> f64 {
        assert_eq!(x.len(), self.dim, "x has the problem's dimension");
        self.f_evaluations.fetch_add(1, Ordering::Relaxed);
        if let Some(v) = x.iter().find(|v| v.is_infinite()) {
            return v.abs();
        }
        if x.iter().any(|v| v.is_nan()) {
            return f64::NAN;
        }
        self.value(x)
    }

    /// `g(x)` into `g` (one g evaluation, all constraints).
    ///
    /// # Panics
    /// If `x` or `g` do not have the problem's sizes.
    pub fn constraints(&self, x: &[f64], g: &mut [f64]) {
        assert_eq!(x.len(), self.dim, "x has the problem's dimension");
        assert_eq!(
            g.len(),
            self.constraints.len(),
            "g has one entry per constraint"
        );
        self.g_evaluations.fetch_add(1, Ordering::Relaxed);
        if let Some(v) = x.iter().find(|v| v.is_infinite()) {
            g.fill(v.abs());
            return;
        }
        if x.iter().any(|v| v.is_nan()) {
            g.fill(f64::NAN);
            return;
        }
        let mut y = [0.0; 40];
        let y = &mut y[..self.dim];
        self.inner(x, true, y);
        self.constraints.values(y, g);
    }

    /// `g` of every column of `points` into the columns of `constraints`, [`LANES`]
    /// points at a time ([`ConstraintMatrix::values_lanes`]: the bits of
    /// [`BbobProblem::constraints`], one g evaluation per point). Shapes are checked by
    /// the caller.
    fn constraints_batch(&self, points: ArrayView2<'_, f64>, mut out: ArrayViewMut2<'_, f64>) {
        let (n, k, count) = (self.dim, self.constraints.len(), points.ncols());
        let mut x = [0.0; 40];
        let mut y = [0.0; 40];
        let mut lanes = [[0.0; LANES]; 40];
        let mut g = [[0.0; LANES]; MAX_CONSTRAINTS];
        let mut start = 0;
        while start < count {
            let width = LANES.min(count - start);
            // Points with a NaN or infinite coordinate take COCO's special values, one
            // at a time; the others go side by side (unused lanes repeat the first).
            let mut special = [false; LANES];
            for l in 0..LANES {
                let column = points.column(start + l.min(width - 1));
                x[..n].iter_mut().zip(column).for_each(|(d, s)| *d = *s);
                if l < width && x[..n].iter().any(|v| !v.is_finite()) {
                    special[l] = true;
                    continue;
                }
                self.inner(&x[..n], true, &mut y[..n]);
                for i in 0..n {
                    lanes[i][l] = y[i];
                }
            }
            self.constraints.values_lanes(&lanes[..n], &mut g[..k]);
            for l in 0..width {
                let mut column = out.column_mut(start + l);
                if special[l] {
                    points
                        .column(start + l)
                        .iter()
                        .zip(&mut x[..n])
                        .for_each(|(s, d)| *d = *s);
                    let mut gl = [0.0; MAX_CONSTRAINTS];
                    self.constraints(&x[..n], &mut gl[..k]);
                    column.iter_mut().zip(&gl[..k]).for_each(|(d, s)| *d = *s);
                } else {
                    self.g_evaluations.fetch_add(1, Ordering::Relaxed);
                    column.iter_mut().zip(&g[..k]).for_each(|(d, s)| *d = s[l]);
                }
            }
            start += width;
        }
    }
}

/// COCO's `coco_double_max` (the first argument on ties and NaN in the second).
fn coco_max(a: f64, b: f64) -> f64 {
    if a >= b {
        a
    } else {
        b
    }
}

/// The initial solution: `p` mapped back through the transformation (halved until
/// `x_opt +` it lies inside the open box), then shifted by `x_opt`.
fn initial_solution(p: &[f64], xopt: &[f64], disguise: Disguise) -> Vec<f64> {
    let n = p.len();
    let inverse_of = |y: f64, i: usize| -> f64 {
        match disguise {
            Disguise::None => y,
            Disguise::Oscillate => inverse(oscillate, y),
            Disguise::Asymmetric => inverse(|v| asymmetric(v, ASYMMETRY, i, n), y),
            Disguise::Composed => {
                let a = inverse(|v| asymmetric(v, ASYMMETRY, i, n), y);
                inverse(oscillate, a)
            }
        }
    };
    let mut sol = p.to_vec();
    if disguise != Disguise::None {
        let mut j = 0i32;
        'search: loop {
            for i in 0..n {
                let d = inverse_of(p[i] * 0.5f64.powf(f64::from(j)), i);
                let x = d + xopt[i];
                if !(-5.0 < x && x < 5.0) {
                    if d.is_nan() {
                        break 'search;
                    }
                    j += 1;
                    continue 'search;
                }
                sol[i] = d;
            }
            break;
        }
        if sol.iter().any(|v| v.is_nan()) {
            sol = p.to_vec();
        }
    }
    sol.iter().zip(xopt).map(|(s, x)| s + x).collect()
}

impl ConstrainedProblem for BbobProblem {
    fn dim(&self) -> usize {
        self.dim
    }

    fn num_inequalities(&self) -> usize {
        self.constraints.len()
    }

    fn num_equalities(&self) -> usize {
        0
    }

    fn lower_bounds(&self) -> &[f64] {
        &LOWER[..self.dim]
    }

    fn upper_bounds(&self) -> &[f64] {
        &UPPER[..self.dim]
    }

    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        self.constraints(x, constraints);
        Ok(self.objective(x))
    }

    /// `f` and `g` of every column; `g` [`LANES`] points at a time (the same bits as
    /// one at a time, several times faster where there are many constraints).
    fn evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(self, &points, &objectives, &constraints)?;
        self.constraints_batch(points, constraints.view_mut());
        let mut x = [0.0; 40];
        for (k, column) in points.axis_iter(Axis(1)).enumerate() {
            let x = &mut x[..self.dim];
            x.iter_mut().zip(column).for_each(|(d, s)| *d = *s);
            objectives[k] = self.objective(x);
        }
        Ok(())
    }

    /// `g` alone for every column (one g evaluation each, no f evaluation): COCO
    /// charges the gradient repair's probes as constraint evaluations only. The
    /// objectives are set to NaN.
    fn evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(self, &points, &objectives, &constraints)?;
        self.constraints_batch(points, constraints);
        objectives.fill(f64::NAN);
        Ok(())
    }
}
