//! Sequential quadratic programming on forward-difference models, in ask-and-tell form.
//!
//! At the iterate `x` (in the box), with `f`, `C = (g, h)` and their forward-difference
//! gradients `∇f`, `J = ∂C/∂x` (one batch of `N` probes), the step `d` solves
//!
//! ```text
//! minimise ½ dᵀ B d + ∇fᵀ d   s.t.   g + ∇g d ≤ −τ,   h + ∇h d = 0,
//!                                    max(lb − x, −Δ) ≤ d ≤ min(ub − x, Δ)
//! ```
//!
//! ([`crate::qp`]), `B` Powell's damped BFGS approximation of the Lagrangian's Hessian,
//! `Δ` a bound on the step's largest component and `τ` a small back-off that makes the
//! limit strictly feasible (`τᵢ = margin · ‖∇gᵢ‖ · max(1, ‖x‖∞)`). When the linearised
//! constraints have no common point, the constant terms of those violated at `d = 0`
//! are relaxed by a factor `1 − δ`, `δ ∈ [0, 1]` penalised by `½ ρ δ²` (as SLSQP does),
//! so that `d = 0, δ = 1` is always feasible. The step is searched along (one point
//! per trial) on the L1 merit `φ(x) = f + Σ μᵢ max(0, gᵢ) + Σ μⱼ |hⱼ|` with Powell's
//! weights `μ ← max(|λ|, ½ (μ + |λ|))`, Armijo's condition on the directional
//! derivative `D = ∇fᵀd − (1 − δ) Σ μ · violation`, and quadratic interpolation.
//! Optionally ([`SqpSettings::second_order_correction`]) a rejected full step is tried
//! once more with Fletcher's second-order correction: the same program with the
//! constant terms `C(x + d) − J d`, one evaluation, before the search backtracks.
//!
//! A run asks for one batch of points at a time ([`Sqp::ask`]: the start, `N` probes, a
//! trial point) and is told their values ([`Sqp::tell`]); it keeps the best point seen
//! by the lexicographic order on `(ν̄, f)` and stops by itself ([`SqpStop`]). Its
//! state serialises with serde: a run saved between a tell and the next ask continues
//! bit for bit.

use crate::qp::{Qp, QpError};
use constraint_handling::problem::{ConstrainedProblem, ProblemError, ProblemShape};
use ndarray::{Array1, Array2, ArrayView2, ShapeBuilder};
use serde::{Deserialize, Serialize};

/// The settings of an [`Sqp`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SqpSettings {
    /// The first bound `Δ` on the step's largest component; `None`: a quarter of the
    /// box's narrowest finite side, 1 in an unbounded box.
    pub initial_step: Option<f64>,
    /// The forward-difference step, relative: `hᵢ = difference_step · max(|xᵢ|, 1)`.
    pub difference_step: f64,
    /// The back-off `margin` of the inequalities (see the module documentation).
    pub margin: f64,
    /// The run has converged when a step's largest component is at most
    /// `step_tolerance · max(1, ‖x‖∞)`.
    pub step_tolerance: f64,
    /// The weight `ρ` of the relaxation, relative to the model's scale.
    pub relaxation_weight: f64,
    /// Whether the steering of the merit's weights counts the model's curvature
    /// (Nocedal and Wright, eq. 18.36): where the iterate violates constraints, the
    /// weights are raised until `∇fᵀd + ½ dᵀBd − (1 − δ) Σ μ v < 0`, not only
    /// `∇fᵀd − (1 − δ) Σ μ v`. Without it (`false`, as frozen in `portfolio-share0`) an
    /// infeasible iterate where `∇f = 0` (`Σ xᵢ²` from 0 under `Σ xᵢ ≥ 5`) keeps zero
    /// weights: every step towards feasibility raises the merit, the line search takes
    /// steps of `10⁻⁸` and the bound halves each iteration. On by default; a saved run
    /// of an earlier version (without the field) reads as `false`.
    #[serde(default = "frozen_steering")]
    pub curvature_steering: bool,
    /// Whether a full step (`α = 1`) that the merit rejects is tried once more with
    /// Fletcher's second-order correction before the line search backtracks: the same
    /// program with the constraints' constant terms `C(x + d) − J d` in place of
    /// `C(x)`, so that the corrected step `d̃` also accounts for the constraints'
    /// curvature along `d` (Nocedal and Wright, §15.6 and §18.3), at one evaluation,
    /// no new gradient. Without it a step along a curved active boundary leaves the
    /// boundary to second order and is rejected whenever that costs more than the step
    /// gains (the Maratos effect), and the bound `Δ` stays at the break-even length.
    /// Off by default (as in every version before it; a saved run without the field
    /// reads as `false`).
    #[serde(default)]
    pub second_order_correction: bool,
}

/// The steering of the versions before [`SqpSettings::curvature_steering`].
fn frozen_steering() -> bool {
    false
}

impl SqpSettings {
    /// The settings of the frozen `portfolio-share0` (`curvature_steering` off).
    #[must_use]
    pub fn frozen() -> Self {
        Self {
            curvature_steering: false,
            ..Self::default()
        }
    }
}

impl Default for SqpSettings {
    fn default() -> Self {
        Self {
            initial_step: None,
            difference_step: f64::EPSILON.sqrt(),
            margin: 1e-9,
            step_tolerance: 1e-10,
            relaxation_weight: 1e6,
            curvature_steering: true,
            second_order_correction: false,
        }
    }
}

/// Errors of an [`Sqp`] run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SqpError {
    /// The start or the settings do not fit the problem.
    #[error("sqp: {0}")]
    Invalid(String),
    /// Told values do not fit the points asked for.
    #[error("sqp: told {what} of shape {found:?}, asked for {expected:?}")]
    TellShape {
        /// Which array.
        what: &'static str,
        /// The shape told.
        found: Vec<usize>,
        /// The shape expected.
        expected: Vec<usize>,
    },
    /// A tell without a pending ask.
    #[error("sqp: told values, but no points were asked for (the run has stopped)")]
    NothingAsked,
    /// The problem failed to evaluate a point.
    #[error("sqp: problem: {0}")]
    Problem(#[from] ProblemError),
}

/// Why an [`Sqp`] run stopped by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SqpStop {
    /// The step became negligible (a KKT point of the model, to the difference
    /// gradients' accuracy).
    Converged,
    /// The step became negligible while the linearised constraints still had no
    /// common point: a local minimum of the violation.
    Infeasible,
    /// No step along the search direction lowered the merit, twice, the second time
    /// after resetting `B`.
    LineSearchFailed,
    /// The quadratic program could not be solved (rounding), even with `B` reset.
    QpFailed,
    /// A value told was not finite at the start or in a gradient's probes.
    NotFinite,
}

/// A point evaluated by the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluated {
    /// `x`.
    pub x: Vec<f64>,
    /// `f(x)`.
    pub f: f64,
    /// `C(x) = (g, h)`.
    pub constraints: Vec<f64>,
    /// `ν̄(x)`, with the problem's equality margin.
    pub violation: f64,
}

impl Evaluated {
    /// Whether `self` precedes `other` in the lexicographic order on `(ν̄, f)` (NaN
    /// last).
    #[must_use]
    pub fn better_than(&self, other: &Self) -> bool {
        let key = |e: &Self| {
            (
                if e.violation.is_nan() {
                    f64::INFINITY
                } else {
                    e.violation
                },
                if e.f.is_nan() { f64::INFINITY } else { e.f },
            )
        };
        key(self) < key(other)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Phase {
    Start,
    Gradient,
    LineSearch,
    Done(SqpStop),
}

/// A run of sequential quadratic programming (see the [module](self) documentation).
///
/// ```
/// use constraint_handling::{problem::ProblemShape, FnProblem};
/// use local_phase::sqp::{Sqp, SqpSettings, SqpStop};
/// // min x₁ + x₂  s.t.  x₁² + x₂² = 2  in [−3, 3]²: the optimum (−1, −1)
/// let p = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
///     c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///     Ok(x[0] + x[1])
/// })
/// .unwrap();
/// // Equalities held to 10⁻⁸ (the problem's margin δ = 10⁻⁴ would let the best point
/// // trade |h| ≤ 10⁻⁴ for f).
/// let mut shape = ProblemShape::of(&p).unwrap();
/// shape.equality_margin = 1e-8;
/// let mut sqp = Sqp::new(shape, &[0.5, 0.0], SqpSettings::default()).unwrap();
/// sqp.run(&p, 500).unwrap();
/// let best = sqp.best().unwrap();
/// assert_eq!(sqp.stopped(), Some(SqpStop::Converged));
/// assert!((best.f + 2.0).abs() < 1e-7 && best.constraints[0].abs() < 1e-8);
/// assert!(sqp.evaluations() < 100);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sqp {
    settings: SqpSettings,
    shape: ProblemShape,
    phase: Phase,
    /// The iterate and its values.
    x: Vec<f64>,
    f: f64,
    c: Vec<f64>,
    /// `∇f` and `J` (`(l + m) × N`, row-major) at `x`.
    grad: Vec<f64>,
    jac: Vec<f64>,
    /// `B` (`N × N`, row-major).
    hess: Vec<f64>,
    hess_fresh: bool,
    /// The multipliers of the last step (`λ_g ≥ 0`, `λ_h`) and the merit's weights.
    lambda: Vec<f64>,
    weights: Vec<f64>,
    /// `Δ`.
    bound: f64,
    /// The step `d`, the trial's `α`, the merit at `x`, `D`.
    step: Vec<f64>,
    alpha: f64,
    merit: f64,
    slope: f64,
    /// The relaxation `δ` of the last step (0 when the linearised constraints were
    /// consistent).
    qp_relaxation: f64,
    /// Whether the step is a correction (`D ≥ 0`), and how many came in a row.
    correction: bool,
    corrections: usize,
    /// `s` and `∇L(x, λ)` of the last accepted step, for the BFGS update.
    pending: Option<(Vec<f64>, Vec<f64>)>,
    /// Whether the trial asked for is the second-order correction of a rejected full
    /// step, and that step's merit (for the backtracking that follows if the
    /// correction is rejected too).
    #[serde(default)]
    correcting: bool,
    #[serde(default)]
    full_step_merit: f64,
    /// How many corrected steps were taken.
    #[serde(default)]
    corrected_steps: usize,
    /// The probes' steps `hᵢ`.
    probe_steps: Vec<f64>,
    failures: usize,
    /// The points asked for, column-major `N × k`.
    asked: Vec<f64>,
    asked_count: usize,
    best: Option<Evaluated>,
    evaluations: usize,
    iterations: usize,
    #[serde(skip)]
    qp: Qp,
    #[serde(skip)]
    program: Program,
}

/// The arrays of the step's quadratic program (`G`, `a`, the normals `C`, `b`; see
/// [`Qp::solve`]), reused from step to step.
#[derive(Clone, Debug, Default)]
struct Program {
    g: Vec<f64>,
    a: Vec<f64>,
    c: Vec<f64>,
    b: Vec<f64>,
}

impl Sqp {
    /// A run of a problem of `shape` from `x0` (moved into the box).
    ///
    /// # Errors
    /// [`SqpError::Invalid`] if `x0` does not have `N` finite components or a setting
    /// is not positive.
    pub fn new(shape: ProblemShape, x0: &[f64], settings: SqpSettings) -> Result<Self, SqpError> {
        let n = shape.dim();
        if x0.len() != n || x0.iter().any(|v| !v.is_finite()) {
            return Err(SqpError::Invalid(format!(
                "the start needs {n} finite components, got {x0:?}"
            )));
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !(positive(settings.difference_step)
            && positive(settings.step_tolerance)
            && positive(settings.relaxation_weight)
            && settings.margin.is_finite()
            && settings.margin >= 0.0
            && settings.initial_step.is_none_or(positive))
        {
            return Err(SqpError::Invalid(format!(
                "settings must be positive and finite (margin ≥ 0): {settings:?}"
            )));
        }
        let bound = settings.initial_step.unwrap_or_else(|| {
            let narrowest = shape
                .lower
                .iter()
                .zip(&shape.upper)
                .map(|(l, u)| u - l)
                .filter(|w| w.is_finite() && *w > 0.0)
                .fold(f64::INFINITY, f64::min);
            if narrowest.is_finite() {
                0.25 * narrowest
            } else {
                1.0
            }
        });
        let k = shape.num_constraints();
        let x: Vec<f64> = x0
            .iter()
            .zip(shape.lower.iter().zip(&shape.upper))
            .map(|(v, (l, u))| v.clamp(*l, *u))
            .collect();
        let mut hess = vec![0.0; n * n];
        for i in 0..n {
            hess[i * n + i] = 1.0;
        }
        Ok(Self {
            settings,
            phase: Phase::Start,
            asked: x.clone(),
            asked_count: 1,
            x,
            f: 0.0,
            c: vec![0.0; k],
            grad: vec![0.0; n],
            jac: vec![0.0; k * n],
            hess,
            hess_fresh: true,
            lambda: vec![0.0; k],
            weights: vec![0.0; k],
            bound,
            step: vec![0.0; n],
            alpha: 1.0,
            merit: 0.0,
            slope: 0.0,
            qp_relaxation: 0.0,
            correction: false,
            corrections: 0,
            pending: None,
            correcting: false,
            full_step_merit: 0.0,
            corrected_steps: 0,
            probe_steps: vec![0.0; n],
            failures: 0,
            best: None,
            evaluations: 0,
            iterations: 0,
            qp: Qp::new(n + 1, k + 2 * n + 2),
            program: Program::default(),
            shape,
        })
    }

    /// A run of `problem` from `x0` ([`Sqp::new`] with the problem's shape).
    ///
    /// # Errors
    /// As [`Sqp::new`]; [`SqpError::Problem`] for a problem whose bounds are invalid.
    pub fn for_problem<P: ConstrainedProblem + ?Sized>(
        problem: &P,
        x0: &[f64],
        settings: SqpSettings,
    ) -> Result<Self, SqpError> {
        Self::new(ProblemShape::of(problem)?, x0, settings)
    }

    /// The points to evaluate next, one per column (`N × k`), or `None` once the run
    /// has stopped. Asking again before telling gives the same points.
    #[must_use]
    pub fn ask(&self) -> Option<ArrayView2<'_, f64>> {
        if matches!(self.phase, Phase::Done(_)) {
            return None;
        }
        let n = self.shape.dim();
        Some(
            ArrayView2::from_shape((n, self.asked_count).f(), &self.asked)
                .expect("asked holds N × k numbers"),
        )
    }

    /// Tells the values at the points of the last [`Sqp::ask`]: `objectives[j]` and
    /// column `j` of `constraints` (`(l + m) × k`) are `f` and `C` at point `j`.
    ///
    /// # Errors
    /// [`SqpError::NothingAsked`] after the run stopped, [`SqpError::TellShape`] for
    /// values that do not fit.
    pub fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<(), SqpError> {
        if matches!(self.phase, Phase::Done(_)) {
            return Err(SqpError::NothingAsked);
        }
        let (n, k, count) = (
            self.shape.dim(),
            self.shape.num_constraints(),
            self.asked_count,
        );
        if objectives.len() != count {
            return Err(SqpError::TellShape {
                what: "objectives",
                found: vec![objectives.len()],
                expected: vec![count],
            });
        }
        if constraints.dim() != (k, count) {
            return Err(SqpError::TellShape {
                what: "constraints",
                found: constraints.shape().to_vec(),
                expected: vec![k, count],
            });
        }
        self.evaluations += count;
        for j in 0..count {
            let c: Vec<f64> = constraints.column(j).to_vec();
            let candidate = Evaluated {
                x: self.asked[j * n..(j + 1) * n].to_vec(),
                f: objectives[j],
                violation: self.shape.mean_violation(&c),
                constraints: c,
            };
            // Points with values that are not finite are never the best (and a saved
            // run holds finite numbers only: JSON has no NaN).
            let finite = candidate.f.is_finite() && candidate.violation.is_finite();
            if finite && self.best.as_ref().is_none_or(|b| candidate.better_than(b)) {
                self.best = Some(candidate);
            }
        }
        match self.phase {
            Phase::Start => {
                let f = objectives[0];
                let c = constraints.column(0);
                if !f.is_finite() || c.iter().any(|v| !v.is_finite()) {
                    self.phase = Phase::Done(SqpStop::NotFinite);
                    return Ok(());
                }
                self.f = f;
                self.c.iter_mut().zip(c).for_each(|(d, s)| *d = *s);
                self.ask_probes();
            }
            Phase::Gradient => self.told_probes(objectives, constraints),
            Phase::LineSearch => self.told_trial(objectives[0], constraints),
            Phase::Done(_) => unreachable!("checked above"),
        }
        Ok(())
    }

    /// Runs on `problem` until the run stops or the next batch would take it past
    /// `budget` evaluations in all.
    ///
    /// # Errors
    /// [`SqpError::Problem`] when the problem fails; as [`Sqp::tell`].
    pub fn run<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        budget: usize,
    ) -> Result<(), SqpError> {
        let k = self.shape.num_constraints();
        while let Some(points) = self.ask() {
            let count = points.ncols();
            if self.evaluations + count > budget {
                break;
            }
            let points = points.to_owned();
            let mut f = Array1::zeros(count);
            let mut c = Array2::zeros((k, count).f());
            problem.evaluate_batch(points.view(), f.view_mut(), c.view_mut())?;
            self.tell(f.as_slice().expect("contiguous"), c.view())?;
        }
        Ok(())
    }

    /// Why the run stopped by itself, if it did.
    #[must_use]
    pub fn stopped(&self) -> Option<SqpStop> {
        match self.phase {
            Phase::Done(reason) => Some(reason),
            _ => None,
        }
    }

    /// The best point evaluated so far (lexicographic on `(ν̄, f)`), among those with
    /// finite values.
    #[must_use]
    pub fn best(&self) -> Option<&Evaluated> {
        self.best.as_ref()
    }

    /// The current iterate `x`.
    #[must_use]
    pub fn iterate(&self) -> &[f64] {
        &self.x
    }

    /// The evaluations told so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// The steps taken (quadratic programs solved).
    #[must_use]
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// The current bound `Δ` on the step.
    #[must_use]
    pub fn step_bound(&self) -> f64 {
        self.bound
    }

    /// How many steps were taken with the second-order correction
    /// ([`SqpSettings::second_order_correction`]).
    #[must_use]
    pub fn corrected_steps(&self) -> usize {
        self.corrected_steps
    }

    fn ask_probes(&mut self) {
        let n = self.shape.dim();
        self.asked.resize(n * n, 0.0);
        for i in 0..n {
            let (lo, hi, xi) = (self.shape.lower[i], self.shape.upper[i], self.x[i]);
            let h = self.settings.difference_step * xi.abs().max(1.0);
            let h = if xi + h <= hi {
                h
            } else if xi - h >= lo {
                -h
            } else if hi - xi >= xi - lo {
                hi - xi
            } else {
                lo - xi
            };
            self.probe_steps[i] = h;
            let column = &mut self.asked[i * n..(i + 1) * n];
            column.copy_from_slice(&self.x);
            column[i] = xi + h;
        }
        self.asked_count = n;
        self.phase = Phase::Gradient;
    }

    fn told_probes(&mut self, objectives: &[f64], constraints: ArrayView2<'_, f64>) {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if objectives
            .iter()
            .chain(constraints.iter())
            .any(|v| !v.is_finite())
        {
            self.phase = Phase::Done(SqpStop::NotFinite);
            return;
        }
        for i in 0..n {
            let h = self.probe_steps[i];
            if h == 0.0 {
                self.grad[i] = 0.0;
                (0..k).for_each(|r| self.jac[r * n + i] = 0.0);
                continue;
            }
            // The actual step, as rounded in x + h.
            let h = self.asked[i * n + i] - self.x[i];
            self.grad[i] = (objectives[i] - self.f) / h;
            for r in 0..k {
                self.jac[r * n + i] = (constraints[[r, i]] - self.c[r]) / h;
            }
        }
        if let Some((s, old)) = self.pending.take() {
            let new = self.lagrangian_gradient();
            let y: Vec<f64> = new.iter().zip(&old).map(|(a, b)| a - b).collect();
            self.update_hessian(&s, &y);
        }
        self.next_step();
    }

    /// `∇L = ∇f + Jᵀ λ` at the iterate, with the current multipliers.
    fn lagrangian_gradient(&self) -> Vec<f64> {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        (0..n)
            .map(|i| {
                self.grad[i]
                    + (0..k)
                        .map(|r| self.jac[r * n + i] * self.lambda[r])
                        .sum::<f64>()
            })
            .collect()
    }

    /// Powell's damped BFGS update with `s`, `y` (the first one scaled `B₀ = yᵀy / sᵀy · I`).
    fn update_hessian(&mut self, s: &[f64], y: &[f64]) {
        let n = s.len();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
        let sy = dot(s, y);
        if self.hess_fresh && sy > 0.0 {
            let scale = dot(y, y) / sy;
            if scale.is_finite() && scale > 0.0 {
                self.hess.iter_mut().for_each(|v| *v *= scale);
            }
        }
        let bs: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|p| self.hess[i * n + p] * s[p]).sum())
            .collect();
        let sbs = dot(s, &bs);
        if !(sbs > 0.0 && sbs.is_finite()) {
            return;
        }
        let (y, sy) = if sy >= 0.2 * sbs {
            (y.to_vec(), sy)
        } else {
            let theta = 0.8 * sbs / (sbs - sy);
            let y: Vec<f64> = y
                .iter()
                .zip(&bs)
                .map(|(yi, bi)| theta * yi + (1.0 - theta) * bi)
                .collect();
            let sy = dot(s, &y);
            (y, sy)
        };
        if !(sy > 0.0 && sy.is_finite()) {
            return;
        }
        for i in 0..n {
            for p in 0..n {
                self.hess[i * n + p] += y[i] * y[p] / sy - bs[i] * bs[p] / sbs;
            }
        }
        self.hess_fresh = false;
    }

    /// `dᵀBd` of the step.
    fn step_curvature(&self) -> f64 {
        let n = self.shape.dim();
        (0..n)
            .map(|i| {
                let row = &self.hess[i * n..(i + 1) * n];
                self.step[i] * row.iter().zip(&self.step).map(|(b, d)| b * d).sum::<f64>()
            })
            .sum()
    }

    fn reset_hessian(&mut self) {
        let n = self.shape.dim();
        self.hess.fill(0.0);
        for i in 0..n {
            self.hess[i * n + i] = 1.0;
        }
        self.hess_fresh = true;
    }

    /// The merit's penalty `Σ μᵢ max(0, gᵢ) + Σ μⱼ |hⱼ|` at `c`.
    fn penalty(&self, c: &[f64]) -> f64 {
        self.penalty_with(c, |r| self.weights[r])
    }

    /// `Σ wᵣ · violationᵣ` at `c`.
    fn penalty_with(&self, c: &[f64], weight: impl Fn(usize) -> f64) -> f64 {
        let l = self.shape.inequalities;
        c.iter()
            .enumerate()
            .map(|(r, v)| weight(r) * if r < l { v.max(0.0) } else { v.abs() })
            .sum()
    }

    /// Solves the step's quadratic program at the iterate and asks for the first trial.
    fn next_step(&mut self) {
        let k = self.shape.num_constraints();
        let x_norm = scale_of(&self.x);
        let relaxed = match self.solve_step() {
            Ok(relaxed) => relaxed,
            Err(_) if !self.hess_fresh => {
                // B may have lost its definiteness to rounding: once more from B = I.
                self.reset_hessian();
                match self.solve_step() {
                    Ok(relaxed) => relaxed,
                    Err(_) => {
                        self.phase = Phase::Done(SqpStop::QpFailed);
                        return;
                    }
                }
            }
            Err(_) => {
                self.phase = Phase::Done(SqpStop::QpFailed);
                return;
            }
        };
        self.iterations += 1;
        let delta = if relaxed { self.qp_relaxation } else { 0.0 };
        // Powell's weights, from the multipliers of a consistent program (those of a
        // relaxed one measure the relaxation's weight ρ, not the constraints).
        if !relaxed {
            for r in 0..k {
                let a = self.lambda[r].abs();
                self.weights[r] = a.max(0.5 * (self.weights[r] + a));
            }
        }
        // Steering: where the iterate violates constraints, weights large enough that
        // the step lowers the merit, D ≤ −(∇fᵀd (+ ½ dᵀBd) − (1 − δ) Σ μ v) when that is
        // positive (the curvature term with `curvature_steering`).
        let linear: f64 = self.grad.iter().zip(&self.step).map(|(g, d)| g * d).sum();
        let violated = self.penalty_with(&self.c, |_| 1.0);
        let mut penalty = self.penalty(&self.c);
        let curvature = if self.settings.curvature_steering {
            0.5 * self.step_curvature().max(0.0)
        } else {
            0.0
        };
        let excess = linear + curvature - (1.0 - delta) * penalty;
        if excess >= 0.0 && violated > 0.0 && delta < 1.0 {
            let kappa = 2.0 * excess / ((1.0 - delta) * violated) * (1.0 + 1e-12);
            self.weights.iter_mut().for_each(|w| *w += kappa);
            penalty = self.penalty(&self.c);
        }
        self.merit = self.f + penalty;
        self.slope = linear - (1.0 - delta) * penalty;
        let step_norm = max_norm(&self.step);
        if step_norm <= self.settings.step_tolerance * x_norm {
            self.phase = Phase::Done(if relaxed && delta > 0.5 {
                SqpStop::Infeasible
            } else {
                SqpStop::Converged
            });
            return;
        }
        // A step the model says does not lower the merit (D ≥ 0) only restores the
        // linearised constraints (or their back-off): it is taken whole, once; a second
        // one in a row means there is nothing left to gain.
        self.correction = self.slope >= 0.0;
        if self.correction {
            self.corrections += 1;
            if self.corrections >= 2 {
                self.phase = Phase::Done(SqpStop::Converged);
                return;
            }
        } else {
            self.corrections = 0;
        }
        self.alpha = 1.0;
        self.ask_trial();
    }

    /// The step's program, relaxed when the linearised constraints are inconsistent;
    /// whether it was relaxed.
    fn solve_step(&mut self) -> Result<bool, QpError> {
        match self.solve_qp(false, None) {
            Ok(()) => Ok(false),
            Err(QpError::Infeasible { .. } | QpError::IterationLimit(_)) => {
                self.solve_qp(true, None).map(|()| true)
            }
            Err(e) => Err(e),
        }
    }

    /// Fills the step (and `λ`, and the relaxation `δ`) from the quadratic program.
    ///
    /// `shifted`: the constraints' constant terms in place of `C(x)` (the second-order
    /// correction's `C(x + d) − J d`).
    fn solve_qp(&mut self, relax: bool, shifted: Option<&[f64]>) -> Result<(), QpError> {
        let (n, k, l) = (
            self.shape.dim(),
            self.shape.num_constraints(),
            self.shape.inequalities,
        );
        let nv = if relax { n + 1 } else { n };
        let x_norm = scale_of(&self.x);
        let constants = shifted.unwrap_or(&self.c);
        let Program { g, a, c, b } = &mut self.program;
        for (v, len) in [(&mut *g, nv * nv), (&mut *a, nv)] {
            v.clear();
            v.resize(len, 0.0);
        }
        for i in 0..n {
            for p in 0..n {
                g[i * nv + p] = self.hess[i * n + p];
            }
        }
        a[..n].copy_from_slice(&self.grad);
        if relax {
            let grad_scale = max_norm(&self.grad);
            let hess_scale = (0..n).fold(0.0f64, |m, i| m.max(self.hess[i * n + i].abs()));
            g[n * nv + n] = self.settings.relaxation_weight
                * (1.0 + grad_scale * self.bound + hess_scale * self.bound * self.bound);
        }
        let rows = k + 2 * n + if relax { 2 } else { 0 };
        for (v, len) in [(&mut *c, rows * nv), (&mut *b, rows)] {
            v.clear();
            v.resize(len, 0.0);
        }
        let mut row = 0;
        // Equalities first: ∇h d (− h δ) = −h.
        for r in l..k {
            c[row * nv..row * nv + n].copy_from_slice(&self.jac[r * n..(r + 1) * n]);
            if relax {
                c[row * nv + n] = -constants[r];
            }
            b[row] = -constants[r];
            row += 1;
        }
        // Inequalities: −∇g d (+ (g + τ) δ) ≥ g + τ.
        for r in 0..l {
            let grad_r = &self.jac[r * n..(r + 1) * n];
            let norm = grad_r.iter().map(|v| v * v).sum::<f64>().sqrt();
            let rhs = constants[r] + self.settings.margin * norm * x_norm;
            for (dst, v) in c[row * nv..row * nv + n].iter_mut().zip(grad_r) {
                *dst = -v;
            }
            if relax && rhs > 0.0 {
                c[row * nv + n] = rhs;
            }
            b[row] = rhs;
            row += 1;
        }
        // The box and the bound Δ: lo ≤ d ≤ hi.
        for i in 0..n {
            let lo = (self.shape.lower[i] - self.x[i]).max(-self.bound);
            let hi = (self.shape.upper[i] - self.x[i]).min(self.bound);
            c[row * nv + i] = 1.0;
            b[row] = lo;
            row += 1;
            c[row * nv + i] = -1.0;
            b[row] = -hi;
            row += 1;
        }
        if relax {
            c[row * nv + n] = 1.0;
            b[row] = 0.0;
            row += 1;
            c[row * nv + n] = -1.0;
            b[row] = -1.0;
            row += 1;
        }
        debug_assert_eq!(row, rows);
        let meq = k - l;
        let solution = self.qp.solve(g, a, c, b, meq)?;
        self.step.copy_from_slice(&solution[..n]);
        self.qp_relaxation = if relax {
            solution[n].clamp(0.0, 1.0)
        } else {
            0.0
        };
        if relax {
            return Ok(());
        }
        let u = self.qp.multipliers();
        for (j, r) in (l..k).enumerate() {
            self.lambda[r] = -u[j];
        }
        self.lambda[..l].copy_from_slice(&u[meq..meq + l]);
        Ok(())
    }

    /// Asks for the second-order correction `x + d̃` of the rejected full step `d`
    /// (its constraint values `c_trial`): `d̃` solves the step's program with the
    /// constant terms `C(x + d) − J d`. Whether it asked (not when the program has no
    /// solution or `d̃ = d`).
    fn ask_corrected_step(&mut self, c_trial: &[f64]) -> bool {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if k == 0 {
            return false;
        }
        let shifted: Vec<f64> = (0..k)
            .map(|r| {
                let jd: f64 = (0..n).map(|i| self.jac[r * n + i] * self.step[i]).sum();
                c_trial[r] - jd
            })
            .collect();
        let (step, lambda, relaxation) =
            (self.step.clone(), self.lambda.clone(), self.qp_relaxation);
        let solved = self.solve_qp(false, Some(&shifted));
        let corrected = std::mem::replace(&mut self.step, step);
        self.lambda = lambda;
        self.qp_relaxation = relaxation;
        if solved.is_err() || corrected == self.step {
            return false;
        }
        self.asked.resize(n, 0.0);
        for i in 0..n {
            self.asked[i] =
                (self.x[i] + corrected[i]).clamp(self.shape.lower[i], self.shape.upper[i]);
        }
        self.asked_count = 1;
        self.correcting = true;
        true
    }

    fn ask_trial(&mut self) {
        let n = self.shape.dim();
        self.asked.resize(n, 0.0);
        for i in 0..n {
            self.asked[i] = (self.x[i] + self.alpha * self.step[i])
                .clamp(self.shape.lower[i], self.shape.upper[i]);
        }
        self.asked_count = 1;
        self.phase = Phase::LineSearch;
    }

    fn told_trial(&mut self, f: f64, constraints: ArrayView2<'_, f64>) {
        let n = self.shape.dim();
        let c: Vec<f64> = constraints.column(0).to_vec();
        let merit = f + self.penalty(&c);
        let armijo = if self.correction {
            self.merit + 2.0 * self.slope + 1e-12 * (1.0 + self.merit.abs())
        } else {
            self.merit + 1e-4 * self.alpha * self.slope
        };
        if merit.is_finite() && merit <= armijo {
            if std::mem::take(&mut self.correcting) {
                self.corrected_steps += 1;
            }
            // Accept: keep ∇L at the old iterate for the update, move, and adapt Δ.
            let old = self.lagrangian_gradient();
            let s: Vec<f64> = (0..n).map(|i| self.asked[i] - self.x[i]).collect();
            let s_norm = max_norm(&s);
            let d_norm = max_norm(&self.step);
            if self.alpha == 1.0 && d_norm >= 0.9 * self.bound {
                self.bound *= 2.0;
            } else if self.alpha < 0.5 {
                self.bound = (0.5 * self.bound).max(2.0 * s_norm);
            }
            self.x.copy_from_slice(&self.asked[..n]);
            self.f = f;
            self.c = c;
            self.failures = 0;
            let x_norm = scale_of(&self.x);
            if s_norm <= self.settings.step_tolerance * x_norm {
                self.phase = Phase::Done(SqpStop::Converged);
                return;
            }
            self.pending = Some((s, old));
            self.ask_probes();
            return;
        }
        let corrected = std::mem::take(&mut self.correcting);
        let merit = if corrected {
            // The correction was rejected too: backtrack along d from the full step.
            self.full_step_merit
        } else {
            if self.settings.second_order_correction
                && self.alpha == 1.0
                && !self.correction
                && merit.is_finite()
                && c.iter().all(|v| v.is_finite())
                && self.ask_corrected_step(&c)
            {
                self.full_step_merit = merit;
                return;
            }
            merit
        };
        // Backtrack by quadratic interpolation, within [0.1 α, 0.5 α].
        let alpha = if merit.is_finite() {
            let denom = merit - self.merit - self.alpha * self.slope;
            let quad = if denom > 0.0 {
                -0.5 * self.slope * self.alpha * self.alpha / denom
            } else {
                0.5 * self.alpha
            };
            quad.clamp(0.1 * self.alpha, 0.5 * self.alpha)
        } else {
            0.1 * self.alpha
        };
        let d_norm = max_norm(&self.step);
        let x_norm = scale_of(&self.x);
        if alpha * d_norm > self.settings.step_tolerance * x_norm {
            self.alpha = alpha;
            self.ask_trial();
            return;
        }
        // The search failed: once more with B reset and a smaller Δ, then give up.
        self.failures += 1;
        if self.failures >= 2 {
            self.phase = Phase::Done(SqpStop::LineSearchFailed);
            return;
        }
        self.reset_hessian();
        self.bound = (0.25 * self.bound).max(d_norm * 0.01);
        self.next_step();
    }
}

/// `‖v‖∞`.
fn max_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// `max(1, ‖x‖∞)`, the scale of the tolerances at `x`.
fn scale_of(x: &[f64]) -> f64 {
    max_norm(x).max(1.0)
}
