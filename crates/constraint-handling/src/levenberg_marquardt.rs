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
//! (one `s_lo`, `s_hi` per finite bound). The slacks start where they make their rows
//! vanish as far as they can: `s_g = √max(0, −g)`, `s_lo = √max(0, x − lo)`,
//! `s_hi = √max(0, hi − x)`. Each iteration takes the Levenberg–Marquardt step
//!
//! ```text
//! δ = −(AᵀA + μ I)⁻¹ Aᵀ r,   μ = ‖r‖²,   A = ∂r/∂z
//! ```
//!
//! (Yamashita & Fukushima's `μ = ‖r‖²`, which converges quadratically on a solvable
//! system even where `A` loses rank, as at a tangency or a degenerate vertex; at least
//! `10⁻¹²` of `AᵀA`'s largest diagonal entry, so that the system stays solvable), moves
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

use crate::linalg::{LinalgError, LuFactors};
use crate::problem::{ConstrainedProblem, JacobianSource, ProblemError};
use crate::repair::RepairError;
use ndarray::linalg::{general_mat_mul, general_mat_vec_mul};
use ndarray::{Array2, ArrayView1, ArrayViewMut1, ShapeBuilder};
use serde::{Deserialize, Serialize};

/// Parameters of the Levenberg–Marquardt repair.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevenbergMarquardtParams {
    /// The most iterations (SASS: 4).
    pub iterations: usize,
    /// The forward-difference step `η` when the problem offers no Jacobian (1e-4).
    pub eta: f64,
}

impl Default for LevenbergMarquardtParams {
    fn default() -> Self {
        Self {
            iterations: 4,
            eta: 1e-4,
        }
    }
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
    ws: Option<Workspace>,
}

#[derive(Clone, Debug)]
struct Workspace {
    n: usize,
    k: usize,
    /// `C`'s Jacobian, `k × N` (and the probes' constraint values' scratch).
    jacobian: Array2<f64>,
    probe: Vec<f64>,
    probe_c: Vec<f64>,
    /// The slacks: `s_g` (`l`), then one per finite lower and upper bound.
    slacks: Vec<f64>,
    /// `A = ∂r/∂z`, rows × unknowns, and `r`.
    a: Array2<f64>,
    r: Vec<f64>,
    /// `AᵀA + μ I` and `−Aᵀ r` (then `δ`).
    normal: Array2<f64>,
    step: Vec<f64>,
    lu: LuFactors,
    /// The current iterate and its values.
    x: Vec<f64>,
    c: Vec<f64>,
}

impl LevenbergMarquardt {
    /// The repair with these parameters.
    #[must_use]
    pub fn new(params: LevenbergMarquardtParams) -> Self {
        Self { params, ws: None }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &LevenbergMarquardtParams {
        &self.params
    }

    /// Repairs `x` (with its `f` and `C(x)`, which it updates) in place: the iterate
    /// of least `ν̄` replaces it.
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
        let (n, k, l) = (
            problem.dim(),
            problem.num_constraints(),
            problem.num_inequalities(),
        );
        let (lo, hi) = (problem.lower_bounds(), problem.upper_bounds());
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
        let lows: Vec<usize> = (0..n).filter(|&i| lo[i].is_finite()).collect();
        let highs: Vec<usize> = (0..n).filter(|&i| hi[i].is_finite()).collect();
        let unknowns = n + l + lows.len() + highs.len();
        let rows = k + lows.len() + highs.len();
        let ws = self.workspace(n, k, unknowns, rows)?;
        ws.x.copy_from_slice(x);
        ws.c.copy_from_slice(constraints);
        // The slacks where their rows vanish as far as they can.
        for (s, &g) in ws.slacks.iter_mut().zip(&constraints[..l]) {
            *s = (-g).max(0.0).sqrt();
        }
        for (j, &i) in lows.iter().enumerate() {
            ws.slacks[l + j] = (x[i] - lo[i]).max(0.0).sqrt();
        }
        for (j, &i) in highs.iter().enumerate() {
            ws.slacks[l + lows.len() + j] = (hi[i] - x[i]).max(0.0).sqrt();
        }
        let mut best = start;
        // Whether ws.c holds C at ws.x and the Jacobian there is still to be taken.
        let mut jacobian_known = false;
        while outcome.iterations < self.params.iterations && best > 0.0 {
            let ws = self.ws.as_mut().expect("set up above");
            if !jacobian_known {
                jacobian(problem, ws, eta)?;
                outcome.evaluations += match source {
                    JacobianSource::Exact => 1,
                    JacobianSource::Differences => n,
                };
            }
            if !ws.c.iter().all(|v| v.is_finite()) || !ws.jacobian.iter().all(|v| v.is_finite()) {
                break;
            }
            // r and A.
            ws.a.fill(0.0);
            for row in 0..k {
                for i in 0..n {
                    ws.a[[row, i]] = ws.jacobian[[row, i]];
                }
                ws.r[row] = ws.c[row];
            }
            for row in 0..l {
                let s = ws.slacks[row];
                ws.r[row] += s * s;
                ws.a[[row, n + row]] = 2.0 * s;
            }
            for (j, &i) in lows.iter().enumerate() {
                let (row, col) = (k + j, n + l + j);
                let s = ws.slacks[l + j];
                ws.r[row] = ws.x[i] - s * s - lo[i];
                ws.a[[row, i]] = 1.0;
                ws.a[[row, col]] = -2.0 * s;
            }
            for (j, &i) in highs.iter().enumerate() {
                let (row, col) = (k + lows.len() + j, n + l + lows.len() + j);
                let s = ws.slacks[l + lows.len() + j];
                ws.r[row] = ws.x[i] + s * s - hi[i];
                ws.a[[row, i]] = 1.0;
                ws.a[[row, col]] = 2.0 * s;
            }
            // (AᵀA + μ I) δ = −Aᵀ r.
            general_mat_mul(1.0, &ws.a.t(), &ws.a, 0.0, &mut ws.normal);
            let largest = (0..unknowns).fold(0.0f64, |m, d| m.max(ws.normal[[d, d]]));
            let mu = ws.r.iter().map(|v| v * v).sum::<f64>().max(1e-12 * largest);
            for d in 0..unknowns {
                ws.normal[[d, d]] += mu;
            }
            let mut step = ArrayViewMut1::from(&mut ws.step[..]);
            general_mat_vec_mul(
                -1.0,
                &ws.a.t(),
                &ArrayView1::from(&ws.r[..]),
                0.0,
                &mut step,
            );
            // A system too ill-conditioned to solve ends the repair where it is.
            match ws.lu.factor(ws.normal.view()) {
                Ok(c) if c.rcond > f64::EPSILON => {}
                Ok(_) | Err(LinalgError::NonFinite | LinalgError::Lapack { .. }) => break,
                Err(e) => return Err(e.into()),
            }
            ws.lu.solve_in_place(&mut ws.step, 1)?;
            for i in 0..n {
                ws.x[i] = (ws.x[i] + ws.step[i]).clamp(lo[i], hi[i]);
            }
            for (s, d) in ws.slacks.iter_mut().zip(&ws.step[n..]) {
                *s += d;
            }
            outcome.iterations += 1;
            // The values at the new point, with the Jacobian if it comes with them.
            let more = outcome.iterations < self.params.iterations;
            let current_f = match (source, problem.constraint_jacobian()) {
                (JacobianSource::Exact, Some(j)) if more => {
                    let f = problem.evaluate(&ws.x, &mut ws.c)?;
                    j.evaluate_jacobian(&ws.x, None, ws.jacobian.view_mut())?;
                    jacobian_known = true;
                    f
                }
                _ => {
                    jacobian_known = false;
                    problem.evaluate(&ws.x, &mut ws.c)?
                }
            };
            outcome.evaluations += 1;
            let v = problem.mean_violation(&ws.c);
            if v <= best || best.is_nan() {
                best = v;
                x.copy_from_slice(&ws.x);
                constraints.copy_from_slice(&ws.c);
                *f = current_f;
            }
        }
        outcome.violation.1 = best;
        Ok(outcome)
    }

    fn workspace(
        &mut self,
        n: usize,
        k: usize,
        unknowns: usize,
        rows: usize,
    ) -> Result<&mut Workspace, LinalgError> {
        let fits = matches!(&self.ws, Some(ws) if ws.n == n && ws.k == k && ws.r.len() == rows && ws.step.len() == unknowns);
        if !fits {
            self.ws = Some(Workspace {
                n,
                k,
                jacobian: Array2::zeros((k, n)),
                probe: vec![0.0; n],
                probe_c: vec![0.0; k],
                slacks: vec![0.0; unknowns - n],
                a: Array2::zeros((rows, unknowns)),
                r: vec![0.0; rows],
                normal: Array2::zeros((unknowns, unknowns).f()),
                step: vec![0.0; unknowns],
                lu: LuFactors::new(unknowns)?,
                x: vec![0.0; n],
                c: vec![0.0; k],
            });
        }
        Ok(self.ws.as_mut().expect("set up above"))
    }
}

/// The Jacobian of `C` at `ws.x` (whose values `ws.c` are known): the problem's, or
/// forward differences.
fn jacobian<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    ws: &mut Workspace,
    eta: f64,
) -> Result<(), ProblemError> {
    if let Some(j) = problem.constraint_jacobian() {
        return j.evaluate_jacobian(&ws.x, None, ws.jacobian.view_mut());
    }
    for i in 0..ws.n {
        ws.probe.copy_from_slice(&ws.x);
        ws.probe[i] += eta;
        problem.evaluate(&ws.probe, &mut ws.probe_c)?;
        for row in 0..ws.k {
            ws.jacobian[[row, i]] = (ws.probe_c[row] - ws.c[row]) / eta;
        }
    }
    Ok(())
}
