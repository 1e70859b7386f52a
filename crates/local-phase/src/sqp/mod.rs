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
//! trial point) and is told their values ([`Sqp::tell`]); where the problem gives its
//! derivatives ([`ProblemShape::has_derivatives`]), the iterate's `∇f` and `J` are asked
//! for instead of the probes ([`Sqp::asked_kind`]: one evaluation in place of `N`); it keeps the best point seen
//! by the lexicographic order on `(ν̄, f)` and stops by itself ([`Sqp::stopped`]). It
//! is a solver of the contract ([`emages_solver::Solver`]; [`Sqp::run`] drives it with
//! [`emages_solver::Driver`]). Its state serialises with serde: a run saved between a
//! tell and the next ask continues bit for bit.

mod step;
pub use step::INFEASIBLE_STEP_TOLERANCE;

use crate::qp::{Qp, QpError};
use constraint_handling::problem::{ConstrainedProblem, ProblemError, ProblemShape};
use constraint_handling::Snapshot;
use emages_solver::{
    Best, Driver, Phase as Running, Request, RequestKind, Solver, SolverError, Status, Termination,
    Told,
};
use ndarray::{ArrayView2, ShapeBuilder};
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
    /// `step_tolerance · max(1, ‖x‖∞)` at an iterate that satisfies the constraints;
    /// where it does not, at most `min(step_tolerance, 10⁻¹⁰) · max(1, ‖x‖∞)`
    /// ([`INFEASIBLE_STEP_TOLERANCE`]): a coarse tolerance does not end a run on its
    /// way into the feasible set.
    pub step_tolerance: f64,
    /// The weight `ρ` of the relaxation, relative to the model's scale.
    pub relaxation_weight: f64,
    /// The accuracy asked for (scipy's `tol`): where the run would end, it goes on with
    /// the back-off scaled down while the back-off costs more than
    /// `accuracy · max(1, |f|)` by the model (`Σ λᵢ τᵢ`). `None`, the default: the
    /// back-off holds to the end — it buys a best point strictly inside the
    /// inequalities despite the models' errors, at a cost of about `Σ λᵢ τᵢ` in `f`
    /// (a saved run without the field reads as `None`).
    #[serde(default)]
    pub accuracy: Option<f64>,
    /// The run has also converged when, at an iterate that satisfies its constraints,
    /// the model's step promises a decrease `−∇fᵀd` of at most
    /// `decrease_tolerance · max(1, |f|)`: below the accuracy of the difference
    /// gradients no step can gain more (0: off; a saved run without the field reads
    /// as 0).
    #[serde(default)]
    pub decrease_tolerance: f64,
    /// Whether the steering of the merit's weights counts the model's curvature
    /// (Nocedal and Wright, eq. 18.36): where the iterate violates constraints, the
    /// weights are raised until `∇fᵀd + ½ dᵀBd − (1 − δ) Σ μ v < 0`, not only
    /// `∇fᵀd − (1 − δ) Σ μ v`. Without it (`false`, [`SqpSettings::linear_steering`]) an
    /// infeasible iterate where `∇f = 0` (`Σ xᵢ²` from 0 under `Σ xᵢ ≥ 5`) keeps zero
    /// weights: every step towards feasibility raises the merit, the line search takes
    /// steps of `10⁻⁸` and the bound halves each iteration. On by default; a saved run
    /// without the field reads as `false`.
    #[serde(default = "linear")]
    pub curvature_steering: bool,
    /// Whether a full step (`α = 1`) that the merit rejects is tried once more with
    /// Fletcher's second-order correction before the line search backtracks: the same
    /// program with the constraints' constant terms `C(x + d) − J d` in place of
    /// `C(x)`, so that the corrected step `d̃` also accounts for the constraints'
    /// curvature along `d` (Nocedal and Wright, §15.6 and §18.3), at one evaluation,
    /// no new gradient. Without it a step along a curved active boundary leaves the
    /// boundary to second order and is rejected whenever that costs more than the step
    /// gains (the Maratos effect), and the bound `Δ` stays at the break-even length.
    /// Off by default (a saved run without the field reads as `false`).
    #[serde(default)]
    pub second_order_correction: bool,
    /// Whether the start and the full steps (`α = 1`) are asked for together with the
    /// `N` difference probes around them, in one request of `N + 1` points, for
    /// workers that evaluate a request's points at once: the probes are the next
    /// model's if the step is taken, and wasted (but charged) if the line search
    /// backtracks. A full step is asked with its probes when the last line search
    /// took its full step, alone otherwise (where steps are cut back, the probes
    /// would mostly be wasted), and only until [`SPECULATION_MISSES`] such full steps
    /// were rejected in the run: a run whose steps keep being cut back (a long crawl
    /// along a curved boundary) wastes at most that many times `N` evaluations. The
    /// run visits the same iterates as without; it spends more evaluations by the
    /// rejected full steps' probes and asks for about half as many requests (a saved
    /// run without the field reads as `false`).
    #[serde(default)]
    pub speculative_probes: bool,
    /// Whether the first curvature update scales `B₀ = yᵀy / sᵀy · I` only downwards
    /// (`min(1, yᵀy / sᵀy)`) when the line search cut the first step back by more than
    /// its first backtrack's floor (`α < 0.1`): the scale is then the curvature along
    /// the stiffest axis, which made the cut, and would leave every softer axis's steps
    /// that many times too short. A first step taken whole or cut back once is scaled
    /// in full (off: always the full scale; a saved run without the field reads as
    /// `false`).
    #[serde(default)]
    pub capped_first_scale: bool,
}

/// The back-off's scale of a saved run without it.
fn one() -> f64 {
    1.0
}

/// How many full steps asked for with their probes a run may see rejected before it
/// stops speculating ([`SqpSettings::speculative_probes`]): the probes it wastes are at
/// most this many times `N`, however long the run.
pub const SPECULATION_MISSES: u32 = 2;

/// [`Sqp`]'s `full_steps` of a saved run without it.
fn yes() -> bool {
    true
}

/// The steering of a saved run without [`SqpSettings::curvature_steering`].
fn linear() -> bool {
    false
}

impl SqpSettings {
    /// The default settings with the merit's weights steered by the linear model alone
    /// (`curvature_steering` off), as the harness's `sqp-restarts`, its training
    /// `rounds` and the `portfolio-share0` family run.
    #[must_use]
    pub fn linear_steering() -> Self {
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
            accuracy: None,
            decrease_tolerance: 0.0,
            curvature_steering: true,
            second_order_correction: false,
            speculative_probes: false,
            capped_first_scale: false,
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

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Phase {
    Start,
    Gradient,
    LineSearch,
    Done(Termination),
}

/// A run of sequential quadratic programming (see the [module](self) documentation).
///
/// ```
/// use constraint_handling::{problem::ProblemShape, FnProblem};
/// use emages_solver::{Solver, Termination};
/// use local_phase::sqp::{Sqp, SqpSettings};
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
/// assert_eq!(sqp.stopped(), Some(Termination::Converged));
/// assert!((best.objective() + 2.0).abs() < 1e-7 && best.constraints[0].abs() < 1e-8);
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
    /// The last `B` that was updated before a reset to the identity (empty: none).
    #[serde(default)]
    learned: Vec<f64>,
    /// The back-off's scale ([`SqpSettings::accuracy`]; 1 until it refines).
    #[serde(default = "one")]
    back_off_scale: f64,
    /// The back-off was just scaled down: the next step is taken however short (it
    /// moves the iterate by about the back-off given up, which may be below the step
    /// tolerance).
    #[serde(default)]
    back_off_refined: bool,
    /// The last line search took its full step (`α = 1`; true at the start): the next
    /// full step is asked for with its probes ([`SqpSettings::speculative_probes`]).
    #[serde(default = "yes")]
    full_steps: bool,
    /// How many full steps asked for with their probes were rejected (the probes
    /// wasted); the run stops speculating at [`SPECULATION_MISSES`].
    #[serde(default)]
    speculation_misses: u32,
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
    best: Option<Best>,
    /// The tells so far (the run's iterations as the solver contract counts them).
    #[serde(default)]
    tells: usize,
    evaluations: usize,
    /// The quadratic programs solved (the word of earlier saves read too).
    #[serde(alias = "iterations")]
    steps: usize,
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
            && settings.decrease_tolerance.is_finite()
            && settings.decrease_tolerance >= 0.0
            && settings.accuracy.is_none_or(|a| a.is_finite() && a > 0.0)
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
        let mut sqp = Self {
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
            learned: Vec::new(),
            back_off_scale: 1.0,
            back_off_refined: false,
            full_steps: true,
            speculation_misses: 0,
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
            tells: 0,
            evaluations: 0,
            steps: 0,
            qp: Qp::new(n + 1, k + 2 * n + 2),
            program: Program::default(),
            shape,
        };
        if sqp.speculates() {
            // The start with the probes around it.
            sqp.asked.resize(n * (n + 1), 0.0);
            let x = sqp.x.clone();
            sqp.write_probes(&x, 1);
            sqp.asked_count = n + 1;
        }
        Ok(sqp)
    }

    /// This run with the curvature model `B` of `previous` (a run of the same problem;
    /// the model it learned last, if it ended with `B` reset to the identity) instead of
    /// the identity: a restart from another point then takes the curvature
    /// learned so far, and on a problem whose Hessian varies little (a quadratic) it
    /// converges in a few steps instead of relearning `B` from scratch. A `previous`
    /// whose `B` was never updated, or of another dimension, changes nothing.
    #[must_use]
    pub fn with_curvature_of(mut self, previous: &Sqp) -> Self {
        // The model in use, or the one learned before a reset to the identity.
        let learned = if previous.hess_fresh {
            &previous.learned
        } else {
            &previous.hess
        };
        if learned.len() == self.hess.len() {
            self.hess.copy_from_slice(learned);
            self.hess_fresh = false;
        }
        self
    }

    /// What the back-off costs in `f` by the model at the iterate: `Σ λᵢ τᵢ` over the
    /// inequalities, `τᵢ` the distance the linearised constraint `i` is held inside
    /// (the margin, scaled by `‖∇gᵢ‖` and the iterate's scale) and `λᵢ` its last
    /// multiplier — about how far above the constrained optimum a run that holds the
    /// back-off ends (0 before the first step, or without inequalities).
    #[must_use]
    pub fn back_off_cost(&self) -> f64 {
        let (n, l) = (self.shape.dim(), self.shape.inequalities);
        let x_norm = step::scale_of(&self.x);
        (0..l)
            .map(|r| {
                let norm = self.jac[r * n..(r + 1) * n]
                    .iter()
                    .map(|v| v * v)
                    .sum::<f64>()
                    .sqrt();
                self.lambda[r].max(0.0) * self.back_off_scale * self.settings.margin * norm * x_norm
            })
            .sum()
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

    /// The points of the pending request, one per column (`N × k`), or `None` once the
    /// run has stopped ([`Solver::ask`] hands them out).
    #[must_use]
    pub fn points(&self) -> Option<ArrayView2<'_, f64>> {
        if matches!(self.phase, Phase::Done(_)) {
            return None;
        }
        let n = self.shape.dim();
        Some(
            ArrayView2::from_shape((n, self.asked_count).f(), &self.asked)
                .expect("asked holds N × k numbers"),
        )
    }

    /// Takes the values at the points of the last ask ([`Solver::tell`]): `objectives[j]` and
    /// column `j` of `constraints` (`(l + m) × k`) are `f` and `C` at point `j`; for a
    /// [`RequestKind::Gradients`] request ([`Sqp::asked_kind`]), `objectives` is `∇f`
    /// (`N` numbers) and `constraints` `∂C/∂x` (`(l + m) × N`) at the iterate.
    ///
    /// # Errors
    /// [`SqpError::NothingAsked`] after the run stopped, [`SqpError::TellShape`] for
    /// values that do not fit.
    fn take_values(
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
        // Derivatives come as N numbers (N columns) per point.
        let width = if self.asked_kind() == RequestKind::Gradients {
            n
        } else {
            1
        };
        if objectives.len() != count * width {
            return Err(SqpError::TellShape {
                what: if width == 1 {
                    "objectives"
                } else {
                    "gradients"
                },
                found: vec![objectives.len()],
                expected: vec![count * width],
            });
        }
        if constraints.dim() != (k, count * width) {
            return Err(SqpError::TellShape {
                what: if width == 1 {
                    "constraints"
                } else {
                    "Jacobians (N columns per point)"
                },
                found: constraints.shape().to_vec(),
                expected: vec![k, count * width],
            });
        }
        for j in (0..count).filter(|_| width == 1) {
            let c: Vec<f64> = constraints.column(j).to_vec();
            let (f, violation) = (objectives[j], self.shape.mean_violation(&c));
            // Points with values that are not finite are never the best (and a saved
            // run holds finite numbers only: JSON has no NaN).
            let finite = f.is_finite() && violation.is_finite();
            let better = |b: &Best| (violation, f) < (b.violation(), b.objective());
            if finite && self.best.as_ref().is_none_or(better) {
                self.best = Some(Best::new(
                    self.asked[j * n..(j + 1) * n].to_vec(),
                    c,
                    Snapshot::new(f, violation).found_at(self.evaluations + j + 1),
                ));
            }
        }
        self.evaluations += count;
        self.tells += 1;
        match self.phase {
            Phase::Start => {
                let f = objectives[0];
                let c = constraints.column(0);
                if !f.is_finite() || c.iter().any(|v| !v.is_finite()) {
                    self.phase = Phase::Done(Termination::NotFinite);
                    return Ok(());
                }
                self.f = f;
                self.c.iter_mut().zip(c).for_each(|(d, s)| *d = *s);
                if count == n + 1 {
                    // The probes around the start came with it.
                    self.phase = Phase::Gradient;
                    self.told_probes(objectives, constraints, 1);
                } else {
                    self.ask_probes();
                }
            }
            Phase::Gradient if width > 1 => self.told_derivatives(objectives, constraints),
            Phase::Gradient => self.told_probes(objectives, constraints, 0),
            Phase::LineSearch => self.told_trial(objectives, constraints),
            Phase::Done(_) => unreachable!("checked above"),
        }
        Ok(())
    }

    /// Runs on `problem` until the run stops or the next batch would take it past
    /// `budget` evaluations in all ([`Driver`] with that budget).
    ///
    /// # Errors
    /// [`SqpError::Problem`] when the problem fails; as [`Solver::tell`].
    pub fn run<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        budget: usize,
    ) -> Result<(), SqpError> {
        match Driver::new(self).budget(budget).run(problem) {
            Ok(_) | Err(SolverError::NothingEvaluated(_)) => Ok(()),
            Err(SolverError::Problem(e)) => Err(SqpError::Problem(e)),
            Err(e) => Err(SqpError::Invalid(e.to_string())),
        }
    }

    /// Why the run stopped by itself, if it did: [`Termination::Converged`] (a
    /// negligible step at a KKT point of the model, to the difference gradients'
    /// accuracy), [`Termination::Infeasible`] (a negligible step while the linearised
    /// constraints had no common point: a local minimum of the violation),
    /// [`Termination::Stalled`] (no step lowered the merit, twice, the second time
    /// after resetting `B`, while the model still predicted a decrease; or the
    /// quadratic program could not be solved) or [`Termination::NotFinite`] (a value
    /// that was not finite at the start or in a gradient's probes).
    #[must_use]
    pub fn stopped(&self) -> Option<Termination> {
        match self.phase {
            Phase::Done(reason) => Some(reason),
            _ => None,
        }
    }

    /// The best point evaluated so far (lexicographic on `(ν̄, f)`), among those with
    /// finite values, borrowed ([`Solver::best`] gives a copy).
    #[must_use]
    pub fn best_ref(&self) -> Option<&Best> {
        self.best.as_ref()
    }

    /// The current iterate `x`.
    #[must_use]
    pub fn iterate(&self) -> &[f64] {
        &self.x
    }

    /// The steps taken (quadratic programs solved); [`Solver::iterations`] counts the
    /// tells.
    #[must_use]
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The current bound `Δ` on the step.
    #[must_use]
    pub fn step_bound(&self) -> f64 {
        self.bound
    }

    /// What the points of the pending request are wanted for: their values `f`, `C`
    /// ([`RequestKind::Population`]: the start, difference probes, trial steps), or,
    /// where the problem gives its derivatives ([`ProblemShape::has_derivatives`]),
    /// `∇f` and `∂C/∂x` at the iterate ([`RequestKind::Gradients`]) in place of the
    /// `N` probes.
    #[must_use]
    pub fn asked_kind(&self) -> RequestKind {
        if self.phase == Phase::Gradient && self.shape.has_derivatives() {
            RequestKind::Gradients
        } else {
            RequestKind::Population
        }
    }

    /// The pending request ([`Sqp::points`] with their kind; one evaluation per point).
    #[must_use]
    pub fn request(&self) -> Option<Request<'_>> {
        let kind = self.asked_kind();
        self.points().map(|points| Request {
            evaluations: points.ncols(),
            points,
            kind,
            jacobians: false,
        })
    }

    /// How many steps were taken with the second-order correction
    /// ([`SqpSettings::second_order_correction`]).
    #[must_use]
    pub fn corrected_steps(&self) -> usize {
        self.corrected_steps
    }
}

impl Solver for Sqp {
    fn shape(&self) -> &ProblemShape {
        &self.shape
    }

    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        Ok(self.request())
    }

    /// Every tell is an iteration of the local phase (its start, a gradient's probes,
    /// a trial step).
    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        self.take_values(objectives, constraints)
            .map_err(SolverError::from)?;
        Ok(Told::Iteration(self.stopped()))
    }

    fn best(&self) -> Option<Best> {
        self.best.clone()
    }

    fn evaluations(&self) -> usize {
        self.evaluations
    }

    fn iterations(&self) -> usize {
        self.tells
    }

    fn termination(&self) -> Option<Termination> {
        self.stopped()
    }

    fn stop(&mut self) {
        if !matches!(self.phase, Phase::Done(_)) {
            self.phase = Phase::Done(Termination::Stopped);
        }
    }

    fn status(&self) -> Status {
        let (objective, violation) = self
            .best
            .as_ref()
            .map_or((f64::NAN, f64::NAN), |b| (b.objective(), b.violation()));
        Status {
            iterations: self.tells,
            evaluations: self.evaluations,
            objective,
            violation,
            step_size: self.bound,
            epsilon: f64::NAN,
            phase: Running::Local,
            run: 1,
        }
    }
}

impl From<SqpError> for SolverError {
    fn from(e: SqpError) -> Self {
        match e {
            SqpError::TellShape {
                what,
                found,
                expected,
            } => Self::TellShape {
                what,
                found,
                expected,
            },
            SqpError::NothingAsked => Self::Protocol(e.to_string()),
            SqpError::Problem(e) => Self::Problem(e),
            e => Self::Invalid(e.to_string()),
        }
    }
}
