//! Jacobian-based (gradient) repair (docs/algorithm.md §4).
//!
//! Given `x` with known constraint vector `C(x) = (g_1..g_l, h_1..h_m)`:
//!
//! 1. forward differences with step `η`: `J[:, i] = (C(x + η e_i) − C(x)) / η`
//!    (`N` evaluations; the probes are not reflected into the box; rows of satisfied
//!    inequalities stay in `J`);
//! 2. `ΔC = (max(0, g_1), …, max(0, g_l), h_1, …, h_m)` (equalities keep their sign);
//! 3. `Δx = −J⁺ ΔC` with the pseudo-inverse discarding singular values `≤ τ`
//!    ([`crate::linalg::PseudoInverse`]); if `J` or `ΔC` has a NaN or infinite entry, or the SVD fails,
//!    `Δx = 0`;
//! 4. the repaired point is `x + Δx`.
//!
//! One repair step is charged `N + 1` evaluations: the `N` probes made here plus the
//! evaluation of the repaired point, which the caller makes after reflecting it into the
//! box.
//!
//! A problem that offers its constraint Jacobian
//! ([`ConstrainedProblem::constraint_jacobian`]) replaces step 1 by its exact `J`
//! ([`GradientRepair::step_from_jacobian`]): one evaluation (the constraints with their
//! Jacobian, as the CEC2020 rules count it) instead of `N`, so a step costs 2
//! ([`GradientRepair::cost`]).
//!
//! A problem without constraints has nothing to repair: the step returns `x` unchanged
//! without evaluating anything.

use crate::linalg::{LinalgError, PseudoInverse, DEFAULT_PINV_TOLERANCE};
use crate::problem::{ConstrainedProblem, JacobianSource, ProblemError};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut2, ShapeBuilder};
use serde::{Deserialize, Serialize};

/// Parameters of the gradient repair.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepairParams {
    /// The forward-difference step `η` (1e-4).
    pub eta: f64,
    /// The absolute singular-value cutoff `τ` of the pseudo-inverse (1e-12).
    pub pinv_tolerance: f64,
}

impl Default for RepairParams {
    fn default() -> Self {
        Self {
            eta: 1e-4,
            pinv_tolerance: DEFAULT_PINV_TOLERANCE,
        }
    }
}

/// How a repair step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepairStatus {
    /// `Δx = −J⁺ ΔC` was applied.
    Applied,
    /// `J` or `ΔC` had a NaN or infinite entry: `Δx = 0`.
    NonFinite,
    /// The singular value decomposition failed: `Δx = 0`.
    DecompositionFailed,
    /// The problem has no constraints: `Δx = 0`, no evaluations.
    NoConstraints,
}

/// The result of one repair step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairOutcome {
    /// Problem evaluations made by the step itself (the `N` probes).
    pub evaluations: usize,
    /// How the step ended.
    pub status: RepairStatus,
}

/// Errors of the repair.
#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    /// `η` or `τ` is not a finite positive (`τ`: non-negative) number.
    #[error("invalid repair parameter: {0}")]
    InvalidParameter(String),
    /// An evaluation or a buffer length failed.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// LAPACK's workspace could not be set up.
    #[error("repair workspace: {0}")]
    Workspace(#[from] LinalgError),
}

struct Workspace {
    dim: usize,
    constraints: usize,
    probes: Array2<f64>,
    probe_objectives: Array1<f64>,
    probe_constraints: Array2<f64>,
    jacobian: Array2<f64>,
    /// A problem's exact Jacobian (scratch).
    exact: Array2<f64>,
    delta_c: Vec<f64>,
    step: Array1<f64>,
    pinv: PseudoInverse,
}

impl Workspace {
    fn new(dim: usize, constraints: usize, tolerance: f64) -> Result<Self, LinalgError> {
        Ok(Self {
            dim,
            constraints,
            probes: Array2::zeros((dim, dim).f()),
            probe_objectives: Array1::zeros(dim),
            probe_constraints: Array2::zeros((constraints, dim).f()),
            jacobian: Array2::zeros((constraints, dim)),
            exact: Array2::zeros((constraints, dim)),
            delta_c: vec![0.0; constraints],
            step: Array1::zeros(dim),
            pinv: PseudoInverse::new(constraints, dim, tolerance)?,
        })
    }
}

/// The Jacobian-based repair operator with its reusable workspace.
///
/// ```
/// use constraint_handling::{ConstrainedProblem, ProblemError};
/// use constraint_handling::repair::{GradientRepair, RepairParams};
///
/// /// h(x) = x₁ + 2 x₂ − 4 = 0 on [−10, 10]².
/// struct Line;
/// impl ConstrainedProblem for Line {
///     fn dim(&self) -> usize { 2 }
///     fn num_inequalities(&self) -> usize { 0 }
///     fn num_equalities(&self) -> usize { 1 }
///     fn lower_bounds(&self) -> &[f64] { &[-10.0, -10.0] }
///     fn upper_bounds(&self) -> &[f64] { &[10.0, 10.0] }
///     fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
///         self.check_buffers(x, c)?;
///         c[0] = x[0] + 2.0 * x[1] - 4.0;
///         Ok(0.0)
///     }
/// }
///
/// let mut repair = GradientRepair::new(RepairParams::default()).unwrap();
/// let x = [0.0, 0.0];
/// let mut c = [0.0];
/// Line.evaluate(&x, &mut c).unwrap();
/// let mut y = [0.0; 2];
/// let outcome = repair.step(&Line, &x, &c, &mut y).unwrap();
/// assert_eq!(outcome.evaluations, 2);
/// Line.evaluate(&y, &mut c).unwrap();
/// assert!(c[0].abs() < 1e-9); // one step solves a linear equality
/// ```
pub struct GradientRepair {
    params: RepairParams,
    workspace: Option<Workspace>,
}

impl std::fmt::Debug for GradientRepair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GradientRepair")
            .field("params", &self.params)
            .finish()
    }
}

impl Clone for GradientRepair {
    fn clone(&self) -> Self {
        Self {
            params: self.params,
            workspace: None,
        }
    }
}

impl GradientRepair {
    /// A repair operator with validated parameters.
    ///
    /// # Errors
    /// [`RepairError::InvalidParameter`] if `η` is not finite and positive or `τ` is
    /// not finite and non-negative.
    pub fn new(params: RepairParams) -> Result<Self, RepairError> {
        if !(params.eta.is_finite() && params.eta > 0.0) {
            return Err(RepairError::InvalidParameter(format!(
                "eta = {} must be finite and positive",
                params.eta
            )));
        }
        if !(params.pinv_tolerance.is_finite() && params.pinv_tolerance >= 0.0) {
            return Err(RepairError::InvalidParameter(format!(
                "pinv_tolerance = {} must be finite and non-negative",
                params.pinv_tolerance
            )));
        }
        Ok(Self {
            params,
            workspace: None,
        })
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &RepairParams {
        &self.params
    }

    /// The evaluations charged for one repair step in dimension `dim` from a point
    /// evaluated without its Jacobian: `N + 1` with forward differences, 2 with the
    /// problem's exact Jacobian (the Jacobian, then the repaired point).
    #[must_use]
    pub const fn cost(dim: usize, source: JacobianSource) -> usize {
        match source {
            JacobianSource::Differences => dim + 1,
            JacobianSource::Exact => 2,
        }
    }

    /// The evaluations charged for a further step from the repaired point of the step
    /// before: `N + 1` with forward differences, 1 with the exact Jacobian, which the
    /// CEC2020 rule counts with the constraints at that point as one evaluation (so `t`
    /// steps cost `t + 1`).
    #[must_use]
    pub const fn cost_of_further_step(dim: usize, source: JacobianSource) -> usize {
        match source {
            JacobianSource::Differences => dim + 1,
            JacobianSource::Exact => 1,
        }
    }

    /// One repair step: writes `x − J⁺ ΔC` into `repaired` (see the
    /// [module documentation](self)). `constraints` is `C(x)`, already known.
    ///
    /// The workspace is allocated on the first call (and again only if the problem's
    /// size changes).
    ///
    /// # Errors
    /// [`RepairError::Problem`] for buffers of the wrong length or a failed evaluation;
    /// [`RepairError::Workspace`] if LAPACK cannot set up the decomposition.
    pub fn step<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        x: &[f64],
        constraints: &[f64],
        repaired: &mut [f64],
    ) -> Result<RepairOutcome, RepairError> {
        problem.check_buffers(x, constraints)?;
        let n = problem.dim();
        if repaired.len() != n {
            return Err(ProblemError::DimensionMismatch {
                expected: n,
                found: repaired.len(),
            }
            .into());
        }
        repaired.copy_from_slice(x);
        let k = problem.num_constraints();
        if k == 0 {
            return Ok(RepairOutcome {
                evaluations: 0,
                status: RepairStatus::NoConstraints,
            });
        }
        if let Some(exact) = problem.constraint_jacobian() {
            let ws = self.workspace(n, k)?;
            let mut jacobian = std::mem::take(&mut ws.exact);
            let status = exact
                .evaluate_jacobian(x, None, jacobian.view_mut())
                .map_err(RepairError::from)
                .and_then(|()| {
                    self.step_from_jacobian(
                        problem.num_inequalities(),
                        x,
                        constraints,
                        jacobian.view(),
                        repaired,
                    )
                });
            let ws = self
                .workspace
                .as_mut()
                .expect("the workspace was just set up");
            ws.exact = jacobian;
            return Ok(RepairOutcome {
                evaluations: 1,
                status: status?,
            });
        }
        let ws = self.workspace(n, k)?;
        // 1. Forward-difference Jacobian from the N probes x + η e_i (one batch).
        let mut probes = std::mem::take(&mut ws.probes);
        let mut probe_objectives = std::mem::take(&mut ws.probe_objectives);
        let mut probe_constraints = std::mem::take(&mut ws.probe_constraints);
        self.probe_points(x, probes.view_mut());
        let evaluated = problem.evaluate_constraints_batch(
            probes.view(),
            probe_objectives.view_mut(),
            probe_constraints.view_mut(),
        );
        let status = evaluated.map_err(RepairError::from).and_then(|()| {
            self.step_from_probes(
                problem.num_inequalities(),
                x,
                constraints,
                probe_constraints.view(),
                repaired,
            )
        });
        let ws = self
            .workspace
            .as_mut()
            .expect("the workspace was just set up");
        ws.probes = probes;
        ws.probe_objectives = probe_objectives;
        ws.probe_constraints = probe_constraints;
        Ok(RepairOutcome {
            evaluations: n,
            status: status?,
        })
    }

    /// The workspace for `n` variables and `k` constraints (allocated on the first call
    /// and again only when the sizes change).
    fn workspace(&mut self, n: usize, k: usize) -> Result<&mut Workspace, LinalgError> {
        if !matches!(&self.workspace, Some(ws) if ws.dim == n && ws.constraints == k) {
            self.workspace = Some(Workspace::new(n, k, self.params.pinv_tolerance)?);
        }
        Ok(self.workspace.as_mut().expect("set up above"))
    }

    /// Writes the `N` probes `x + η e_i` of the forward differences into the columns of
    /// `probes` (`N × N`); their constraint values go to
    /// [`GradientRepair::step_from_probes`]. For callers that evaluate the probes
    /// themselves (a run driven by ask and tell).
    ///
    /// # Panics
    /// If `probes` is not `x.len() × x.len()`.
    pub fn probe_points(&self, x: &[f64], mut probes: ndarray::ArrayViewMut2<'_, f64>) {
        forward_difference_probes(x, self.params.eta, probes.view_mut());
    }

    /// Steps 1–4 given the probes' constraint values (`probe_constraints`, `(l + m) × N`,
    /// column `i` is `C(x + η e_i)`): writes `x − J⁺ ΔC` into `repaired` (`x` when the
    /// step does not apply) and says how it ended. `constraints` is `C(x)` and the first
    /// `inequalities` of its entries are the `g`.
    ///
    /// # Errors
    /// [`RepairError::Problem`] for buffers of inconsistent sizes;
    /// [`RepairError::Workspace`] if LAPACK cannot set up the decomposition.
    pub fn step_from_probes(
        &mut self,
        inequalities: usize,
        x: &[f64],
        constraints: &[f64],
        probe_constraints: ndarray::ArrayView2<'_, f64>,
        repaired: &mut [f64],
    ) -> Result<RepairStatus, RepairError> {
        let (n, k) = (x.len(), constraints.len());
        if repaired.len() != n {
            return Err(ProblemError::DimensionMismatch {
                expected: n,
                found: repaired.len(),
            }
            .into());
        }
        if probe_constraints.dim() != (k, n) || inequalities > k {
            return Err(ProblemError::BatchShape {
                what: "the probes' constraint values",
                expected: vec![k, n],
                found: probe_constraints.shape().to_vec(),
            }
            .into());
        }
        repaired.copy_from_slice(x);
        if k == 0 {
            return Ok(RepairStatus::NoConstraints);
        }
        let eta = self.params.eta;
        let ws = self.workspace(n, k)?;
        forward_difference_jacobian(constraints, probe_constraints, eta, ws.jacobian.view_mut());
        self.apply(inequalities, constraints, repaired)
    }

    /// Steps 2–4 with the problem's exact Jacobian `jacobian` (`(l + m) × N`, rows `g`
    /// then `h`) at `x` instead of forward differences: writes `x − J⁺ ΔC` into
    /// `repaired` (`x` when the step does not apply) and says how it ended.
    ///
    /// # Errors
    /// As [`Self::step_from_probes`].
    pub fn step_from_jacobian(
        &mut self,
        inequalities: usize,
        x: &[f64],
        constraints: &[f64],
        jacobian: ndarray::ArrayView2<'_, f64>,
        repaired: &mut [f64],
    ) -> Result<RepairStatus, RepairError> {
        let (n, k) = (x.len(), constraints.len());
        if repaired.len() != n {
            return Err(ProblemError::DimensionMismatch {
                expected: n,
                found: repaired.len(),
            }
            .into());
        }
        if jacobian.dim() != (k, n) || inequalities > k {
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
        self.workspace(n, k)?.jacobian.assign(&jacobian);
        self.apply(inequalities, constraints, repaired)
    }

    /// Steps 2–4 with the Jacobian in the workspace; `repaired` holds `x`.
    fn apply(
        &mut self,
        inequalities: usize,
        constraints: &[f64],
        repaired: &mut [f64],
    ) -> Result<RepairStatus, RepairError> {
        let ws = self
            .workspace
            .as_mut()
            .expect("the workspace is set up before a step");
        // 2. ΔC: violated inequalities, equalities with their sign.
        for (r, d) in ws.delta_c.iter_mut().enumerate() {
            let c = constraints[r];
            // A NaN stays NaN (`f64::max` would drop it) and ends in the Δx = 0 fallback.
            *d = if r < inequalities && !c.is_nan() {
                c.max(0.0)
            } else {
                c
            };
        }
        if ws.delta_c.iter().any(|d| !d.is_finite()) {
            return Ok(RepairStatus::NonFinite);
        }
        // 3. Δx = −J⁺ ΔC.
        let pinv = match ws.pinv.compute(ws.jacobian.view()) {
            Ok(p) => p,
            Err(LinalgError::NonFinite) => return Ok(RepairStatus::NonFinite),
            Err(_) => return Ok(RepairStatus::DecompositionFailed),
        };
        // J⁺ ΔC as one BLAS product (as the reference's `pinv(J) * dC`), then x − J⁺ ΔC.
        let delta_c = ArrayView1::from(&ws.delta_c[..]);
        general_mat_vec_mul(1.0, &pinv, &delta_c, 0.0, &mut ws.step);
        for (y, dx) in repaired.iter_mut().zip(&ws.step) {
            *y -= dx;
        }
        Ok(RepairStatus::Applied)
    }
}

/// Writes the `N` probes `x + η e_i` of forward differences into the columns of
/// `probes` (`N × N`).
///
/// # Panics
/// If `probes` is not `x.len() × x.len()`.
pub fn forward_difference_probes(x: &[f64], eta: f64, mut probes: ArrayViewMut2<'_, f64>) {
    assert_eq!(probes.dim(), (x.len(), x.len()), "N × N probes");
    for (i, mut col) in probes.columns_mut().into_iter().enumerate() {
        col.iter_mut().zip(x).for_each(|(p, &xi)| *p = xi);
        col[i] = x[i] + eta;
    }
}

/// `J[:, i] = (C(x + η e_i) − C(x)) / η` from `C(x) = constraints` and the probes'
/// values (`(l + m) × N`, column `i` at `x + η e_i`), into `jacobian` (`(l + m) × N`).
pub fn forward_difference_jacobian(
    constraints: &[f64],
    probe_constraints: ArrayView2<'_, f64>,
    eta: f64,
    mut jacobian: ArrayViewMut2<'_, f64>,
) {
    for ((r, i), jac) in jacobian.indexed_iter_mut() {
        *jac = (probe_constraints[[r, i]] - constraints[r]) / eta;
    }
}
