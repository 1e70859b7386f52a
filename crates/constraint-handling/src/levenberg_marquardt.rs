//! A Levenberg–Marquardt repair on the constraint system with squared slacks (the
//! repair of the CEC2020 entries SASS and sCMAgES, there `QNrepair.m`).
//!
//! The inequalities and the finite box bounds become equalities with squared slack
//! variables, so that the whole constraint set is one system of equations in
//! `z = (x, s_g, s_lo, s_hi)`:
//!
//! ```text
//! r(z) = ( g(x) + s_g²,   h(x),   x − s_lo² − lo,   x + s_hi² − hi ) = 0
//! ```
//!
//! (one `s_lo`, `s_hi` per finite bound). Each iteration sets the slacks where they make
//! their rows vanish as far as they can, `s_g = √max(0, −g)`, `s_lo = √max(0, x − lo)`,
//! `s_hi = √max(0, hi − x)` — so `r = (max(0, g), h, 0, 0)` for a point in the box, and
//! an iteration needs nothing from the one before but its point — and takes the
//! Levenberg–Marquardt step
//!
//! ```text
//! δ = −(AᵀA + μ I)⁻¹ Aᵀ r,   μ = ‖r‖²,   A = ∂r/∂z
//! ```
//!
//! (Yamashita & Fukushima's `μ = ‖r‖²`, which converges quadratically on a solvable
//! system even where `A` loses rank, as at a tangency or a degenerate vertex; at least
//! `10⁻¹²` of `AᵀA`'s largest diagonal entry, so that the system stays solvable;
//! solved with the slacks eliminated, in `min(N, k)` unknowns: [`Solve`]), moves
//! `z ← z + δ`, clamps `x` into the box, and evaluates the constraints there. The
//! repair ends after `iterations` iterations or once `ν̄ = 0`, with the iterate of
//! least `ν̄` (the latest among equals).
//!
//! **Cost.** Each iteration needs the Jacobian at its point and evaluates the new
//! point. With the problem's exact Jacobian
//! ([`ConstrainedProblem::constraint_jacobian`]) the Jacobian comes with the values (the
//! CEC2020 rule: one evaluation), so `t` iterations cost `t + 1` evaluations (the
//! first Jacobian, at the starting point whose values are known, and one per new
//! point); with forward differences (`η` as the gradient repair's) `N + 1` each.

mod normal_equations;

use crate::problem::{ConstrainedProblem, JacobianSource, ProblemError};
use crate::repair::{RepairError, RepairStatus};
use ndarray::{Array2, ArrayView2};
use normal_equations::{At, FullSystem, ReducedSystem};
use serde::{Deserialize, Serialize};

/// Parameters of the Levenberg–Marquardt repair.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevenbergMarquardtParams {
    /// The most iterations (SASS: 4).
    pub iterations: usize,
    /// The forward-difference step `η` when the problem offers no Jacobian (1e-4).
    pub eta: f64,
    /// The units the step is taken in ([`Scaling`]).
    #[serde(default)]
    pub scaling: Scaling,
    /// How the step's linear system is solved ([`Solve`]).
    #[serde(default)]
    pub solve: Solve,
}

impl Default for LevenbergMarquardtParams {
    fn default() -> Self {
        Self {
            iterations: 4,
            eta: 1e-4,
            scaling: Scaling::None,
            solve: Solve::Reduced,
        }
    }
}

/// The units of the Levenberg–Marquardt step.
///
/// The damping `μ = ‖r‖²` is in the constraints' units while the step is in the
/// variables': a variable whose range is `10⁶` (RC01's) needs steps of that size, which
/// `μ` cuts to nothing. With [`Scaling::Box`] the step is taken in the box-normalised
/// variables `u_i = x_i / w_i`, `w_i = hi_i − lo_i` (1 where a bound is infinite): the
/// columns of `J` are multiplied by `w_i`, the bound rows and their slacks divided by
/// it, and `δx_i = w_i δu_i`. The same step for any choice of the variables' units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scaling {
    /// In the variables' own units (SASS's).
    #[default]
    None,
    /// In units of the box's widths.
    Box,
}

impl Scaling {
    /// The unit `w_i` of variable `i`: the box's width `hi_i − lo_i` under
    /// [`Scaling::Box`] where it is finite and positive, else 1.
    #[must_use]
    pub fn width(self, lower: &[f64], upper: &[f64], i: usize) -> f64 {
        let w = upper[i] - lower[i];
        if self == Self::Box && w.is_finite() && w > 0.0 {
            w
        } else {
            1.0
        }
    }
}

/// How the step `δ = −(AᵀA + μ I)⁻¹ Aᵀ r` is computed. Both give the same `δx` in
/// exact arithmetic; they round differently.
///
/// With `N` variables, `l` inequalities, `k` constraints and `p` finite bounds, `A`
/// has `k + p` rows and `N + l + p` columns — about `3N` for a boxed problem. The
/// slacks enter `A` only on the diagonal of their own rows, so they can be eliminated
/// in closed form (the slacks themselves are reset from `x` every iteration and their
/// step is not needed):
///
/// ```text
/// (Jᵀ Λ J + D) δx = −(Jᵀ Λ r_C + q),   Λ = diag(μ / (a_j² + μ)),  a_j = 2 s_j (0 for h),
/// D_ii = μ + Σ_b β_b,  q_i = Σ_b β_b r_b,  β_b = μ / (c_b² + μ),  c_b = ±2 s_b,
/// ```
///
/// the sums over the bound rows `b` of variable `i` (`J` in the step's units). That is
/// an `N × N` system, or, by the Woodbury identity when `k < N`, a `k × k` one:
/// `(I + G D⁻¹ Gᵀ) v = G D⁻¹ b`, `δx = −D⁻¹ (b − Gᵀ v)`, `G = Λ^½ J`. Both are
/// symmetric positive definite (Cholesky).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solve {
    /// The slacks eliminated: a Cholesky factorisation of `min(N, k)` unknowns (the
    /// default). On RC41 (N = 74, k = 74, 148 bounds) that is 74 unknowns instead of
    /// 222.
    #[default]
    Reduced,
    /// The normal equations of the whole slack system, `N + l + p` unknowns, by LU (as
    /// SASS's `QNrepair.m` writes them; the path of the studies run before the reduced
    /// solve, which replay bit for bit with it).
    Full,
}

/// What a repair did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevenbergMarquardtOutcome {
    /// Evaluations spent (the Jacobians counted as [`JacobianSource`] says).
    pub evaluations: usize,
    /// Iterations taken.
    pub iterations: usize,
    /// `ν̄` before and after.
    pub violation: (f64, f64),
    /// Where the Jacobians came from.
    pub source: JacobianSource,
}

/// The repair with its workspace (see the [module](self) documentation).
///
/// ```
/// use constraint_handling::levenberg_marquardt::{LevenbergMarquardt, LevenbergMarquardtParams};
/// use constraint_handling::{ConstrainedProblem, FnProblem};
/// // h(x) = x₁² + x₂² − 2 = 0 in [−3, 3]², from (0.3, −0.2), by differences.
/// let circle = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
///     c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///     Ok(x[0] + x[1])
/// })
/// .unwrap();
/// let mut x = vec![0.3, -0.2];
/// let mut c = vec![0.0];
/// let mut f = circle.evaluate(&x, &mut c).unwrap();
/// let mut repair = LevenbergMarquardt::new(LevenbergMarquardtParams { iterations: 8, ..Default::default() });
/// let outcome = repair.repair(&circle, &mut x, &mut f, &mut c).unwrap();
/// // It stops once feasible: |h| within the problem's equality margin (10⁻⁴ here).
/// assert!(c[0].abs() <= 1e-4 && circle.mean_violation(&c) == 0.0, "{c:?}");
/// assert_eq!(outcome.evaluations, 3 * outcome.iterations); // N + 1 per iteration
/// ```
#[derive(Clone, Debug)]
pub struct LevenbergMarquardt {
    params: LevenbergMarquardtParams,
    reduced: Option<ReducedSystem>,
    full: Option<FullSystem>,
    iterate: Option<Iterate>,
}

/// [`LevenbergMarquardt::repair`]'s iterate: the point, its values, the Jacobian there
/// and the difference probes' scratch.
#[derive(Clone, Debug)]
struct Iterate {
    x: Vec<f64>,
    c: Vec<f64>,
    jacobian: Array2<f64>,
    probe: Vec<f64>,
    probe_c: Vec<f64>,
}

impl LevenbergMarquardt {
    /// The repair with these parameters.
    #[must_use]
    pub fn new(params: LevenbergMarquardtParams) -> Self {
        Self {
            params,
            reduced: None,
            full: None,
            iterate: None,
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &LevenbergMarquardtParams {
        &self.params
    }

    /// One iteration from `x` with `C(x) = constraints` (the first `inequalities` are
    /// the `g`) and the Jacobian `jacobian` (`(l + m) × N`) in the box
    /// `[lower, upper]`: writes the new point, clamped into the box, into `repaired`
    /// (`x` when the step cannot be taken: non-finite values, or a system too
    /// ill-conditioned to solve).
    ///
    /// # Errors
    /// [`RepairError::Problem`] for inconsistent sizes; [`RepairError::Workspace`] if
    /// LAPACK cannot set up.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        inequalities: usize,
        lower: &[f64],
        upper: &[f64],
        x: &[f64],
        constraints: &[f64],
        jacobian: ArrayView2<'_, f64>,
        repaired: &mut [f64],
    ) -> Result<RepairStatus, RepairError> {
        let (n, k, l) = (x.len(), constraints.len(), inequalities);
        if repaired.len() != n || lower.len() != n || upper.len() != n {
            return Err(ProblemError::DimensionMismatch {
                expected: n,
                found: repaired.len().min(lower.len()).min(upper.len()),
            }
            .into());
        }
        if jacobian.dim() != (k, n) || l > k {
            return Err(ProblemError::BatchShape {
                what: "the constraint Jacobian",
                expected: vec![k, n],
                found: jacobian.shape().to_vec(),
            }
            .into());
        }
        repaired.copy_from_slice(x);
        if k == 0 {
            return Ok(RepairStatus::NoConstraints);
        }
        if !constraints
            .iter()
            .chain(x)
            .chain(jacobian.iter())
            .all(|v| v.is_finite())
        {
            return Ok(RepairStatus::NonFinite);
        }
        let scaling = self.params.scaling;
        let at = At {
            inequalities: l,
            lower,
            upper,
            x,
            constraints,
            jacobian: jacobian.reborrow(),
        };
        let status = match self.params.solve {
            Solve::Reduced => {
                let ws = match &mut self.reduced {
                    Some(ws) if ws.fits(n, k) => ws,
                    slot => slot.insert(ReducedSystem::new(n, k)?),
                };
                ws.step(scaling, &at)?
            }
            Solve::Full => {
                let ws = match &mut self.full {
                    Some(ws) if ws.fits(n, k, l, lower, upper) => ws,
                    slot => slot.insert(FullSystem::new(n, k, l, lower, upper)?),
                };
                ws.step(scaling, &at)?
            }
        };
        if let Ok(step) = status {
            for (i, ((y, d), (&lo, &hi))) in repaired
                .iter_mut()
                .zip(step)
                .zip(lower.iter().zip(upper))
                .enumerate()
            {
                *y = (*y + scaling.width(lower, upper, i) * d).clamp(lo, hi);
            }
        }
        Ok(status.map_or_else(|failed| failed, |_| RepairStatus::Applied))
    }

    /// Repairs `x` (with its `f` and `C(x)`, which it updates) in place: up to
    /// `iterations` iterations, each evaluating its new point, while `ν̄ > 0`; the
    /// iterate of least `ν̄` (the latest among equals) replaces `x`.
    ///
    /// # Errors
    /// [`RepairError::InvalidParameter`] for a bad `η`; [`RepairError::Problem`] for
    /// buffers of the wrong length or a failed evaluation (`x` is unchanged then);
    /// [`RepairError::Workspace`] if LAPACK cannot set up.
    pub fn repair<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        x: &mut [f64],
        f: &mut f64,
        constraints: &mut [f64],
    ) -> Result<LevenbergMarquardtOutcome, RepairError> {
        problem.check_buffers(x, constraints)?;
        let eta = self.params.eta;
        if !(eta.is_finite() && eta > 0.0) {
            return Err(RepairError::InvalidParameter(format!("η = {eta}")));
        }
        let (n, k) = (problem.dim(), problem.num_constraints());
        let source = JacobianSource::of(problem);
        let start = problem.mean_violation(constraints);
        let mut outcome = LevenbergMarquardtOutcome {
            evaluations: 0,
            iterations: 0,
            violation: (start, start),
            source,
        };
        if k == 0 || start.is_nan() || start <= 0.0 {
            return Ok(outcome);
        }
        let mut it = match self.iterate.take() {
            Some(it) if it.x.len() == n && it.c.len() == k => it,
            _ => Iterate {
                x: vec![0.0; n],
                c: vec![0.0; k],
                jacobian: Array2::zeros((k, n)),
                probe: vec![0.0; n],
                probe_c: vec![0.0; k],
            },
        };
        let result = self.iterate_from(problem, &mut it, x, f, constraints, &mut outcome);
        self.iterate = Some(it);
        result.map(|()| outcome)
    }

    fn iterate_from<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        it: &mut Iterate,
        x: &mut [f64],
        f: &mut f64,
        constraints: &mut [f64],
        outcome: &mut LevenbergMarquardtOutcome,
    ) -> Result<(), RepairError> {
        let n = problem.dim();
        it.x.copy_from_slice(x);
        it.c.copy_from_slice(constraints);
        let mut best = outcome.violation.0;
        // Whether the Jacobian at it.x came with its values.
        let mut jacobian_known = false;
        while outcome.iterations < self.params.iterations && best > 0.0 {
            if !jacobian_known {
                jacobian_at(problem, it, self.params.eta)?;
                outcome.evaluations += match outcome.source {
                    JacobianSource::Exact => 1,
                    JacobianSource::Differences => n,
                };
            }
            let mut next = std::mem::take(&mut it.probe);
            let status = self.step(
                problem.num_inequalities(),
                problem.lower_bounds(),
                problem.upper_bounds(),
                &it.x,
                &it.c,
                it.jacobian.view(),
                &mut next,
            );
            it.x.copy_from_slice(&next);
            it.probe = next;
            if status? != RepairStatus::Applied {
                break;
            }
            outcome.iterations += 1;
            // The values at the new point, with the Jacobian if it comes with them.
            let more = outcome.iterations < self.params.iterations;
            let value = match problem.constraint_jacobian() {
                Some(j) if more => {
                    let value = problem.evaluate(&it.x, &mut it.c)?;
                    j.evaluate_jacobian(&it.x, None, it.jacobian.view_mut())?;
                    jacobian_known = true;
                    value
                }
                _ => {
                    jacobian_known = false;
                    problem.evaluate(&it.x, &mut it.c)?
                }
            };
            outcome.evaluations += 1;
            let v = problem.mean_violation(&it.c);
            if v <= best || best.is_nan() {
                best = v;
                x.copy_from_slice(&it.x);
                constraints.copy_from_slice(&it.c);
                *f = value;
            }
        }
        outcome.violation.1 = best;
        Ok(())
    }
}

/// The Jacobian of `C` at `it.x` (whose values `it.c` are known): the problem's, or
/// forward differences.
fn jacobian_at<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    it: &mut Iterate,
    eta: f64,
) -> Result<(), ProblemError> {
    if let Some(j) = problem.constraint_jacobian() {
        return j.evaluate_jacobian(&it.x, None, it.jacobian.view_mut());
    }
    let k = it.c.len();
    for i in 0..it.x.len() {
        it.probe.copy_from_slice(&it.x);
        it.probe[i] += eta;
        problem.evaluate(&it.probe, &mut it.probe_c)?;
        for row in 0..k {
            it.jacobian[[row, i]] = (it.probe_c[row] - it.c[row]) / eta;
        }
    }
    Ok(())
}
