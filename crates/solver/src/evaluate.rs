//! Who evaluates a request's points: an [`Evaluator`] writes their values into the
//! [`Slots`] the driver hands it. [`ProblemEvaluator`] evaluates with a
//! [`ConstrainedProblem`] in this thread, in the reference's grouping; any closure
//! `FnMut(Slots) -> Result<bool, SolverError>` is an evaluator too (a tracker that
//! counts and records, a pool of workers, another process).

use crate::error::SolverError;
use crate::request::{RequestKind, Slots};
use constraint_handling::problem::{
    ConstrainedProblem, ConstraintJacobian, ObjectiveGradient, ProblemError,
};

/// Evaluates a request's points into its slots.
pub trait Evaluator {
    /// Writes the values at the points of `slots.request` into its buffers: `f` and
    /// `C` per point, or for a [`RequestKind::Jacobians`] request the Jacobians into
    /// `slots.constraints` (`N` columns per point), and for a
    /// [`RequestKind::Gradients`] request `∇f` into `slots.objectives` (`N` numbers per
    /// point) besides. Returns whether it wrote the
    /// Jacobians too, where [`Slots::jacobians`] offers their place (a problem that
    /// computes `f`, `C` and `∂C/∂x` in one pass).
    ///
    /// # Errors
    /// The problem's failures.
    fn evaluate(&mut self, slots: Slots<'_>) -> Result<bool, SolverError>;
}

impl<F: FnMut(Slots<'_>) -> Result<bool, SolverError>> Evaluator for F {
    fn evaluate(&mut self, slots: Slots<'_>) -> Result<bool, SolverError> {
        self(slots)
    }
}

/// A problem evaluating requests in this thread, in the reference's grouping: a
/// population as one batch ([`ConstrainedProblem::evaluate_batch`]), each offspring's
/// difference probes as one batch of constraints
/// ([`ConstrainedProblem::evaluate_constraints_batch`]), each repaired point alone (so
/// that a problem whose batches round differently gives the reference's numbers), the
/// Jacobians point by point from [`ConstrainedProblem::constraint_jacobian`], the
/// gradients from [`ConstrainedProblem::objective_gradient`].
#[derive(Clone, Copy, Debug)]
pub struct ProblemEvaluator<'a, P: ?Sized> {
    problem: &'a P,
}

impl<'a, P: ConstrainedProblem + ?Sized> ProblemEvaluator<'a, P> {
    /// Requests evaluated with `problem`.
    #[must_use]
    pub fn new(problem: &'a P) -> Self {
        Self { problem }
    }
}

impl<P: ConstrainedProblem + ?Sized> Evaluator for ProblemEvaluator<'_, P> {
    fn evaluate(&mut self, slots: Slots<'_>) -> Result<bool, SolverError> {
        evaluate(self.problem, slots).map_err(SolverError::from)
    }
}

/// Evaluates `slots.request` with `problem` (see [`ProblemEvaluator`]).
fn evaluate<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    slots: Slots<'_>,
) -> Result<bool, ProblemError> {
    let n = problem.dim();
    let Slots {
        request,
        objectives: mut f,
        constraints: mut c,
        jacobians,
    } = slots;
    match request.kind {
        RequestKind::Population => {
            problem.evaluate_batch(request.points, f, c)?;
        }
        RequestKind::JacobianProbes => {
            for j in 0..request.points.ncols() / n.max(1) {
                let cols = ndarray::s![.., j * n..(j + 1) * n];
                problem.evaluate_constraints_batch(
                    request.points.slice(cols),
                    f.slice_mut(ndarray::s![j * n..(j + 1) * n]),
                    c.slice_mut(cols),
                )?;
            }
        }
        RequestKind::Jacobians => {
            let jacobian = offered_jacobian(problem)?;
            for (j, x) in request.points.columns().into_iter().enumerate() {
                jacobian.evaluate_jacobian(
                    x.as_slice().expect("column-major request"),
                    None,
                    c.slice_mut(ndarray::s![.., j * n..(j + 1) * n]),
                )?;
            }
        }
        RequestKind::Gradients => {
            let gradient = offered_gradient(problem)?;
            let jacobian = (c.nrows() > 0)
                .then(|| offered_jacobian(problem))
                .transpose()?;
            for (j, x) in request.points.columns().into_iter().enumerate() {
                let x = x.as_slice().expect("column-major request");
                let mut g = f.slice_mut(ndarray::s![j * n..(j + 1) * n]);
                gradient.evaluate_gradient(x, g.as_slice_mut().expect("contiguous objectives"))?;
                if let Some(jacobian) = jacobian {
                    jacobian.evaluate_jacobian(
                        x,
                        None,
                        c.slice_mut(ndarray::s![.., j * n..(j + 1) * n]),
                    )?;
                }
            }
        }
        RequestKind::Repaired => {
            // Where the problem computes f, C and ∂C/∂x in one pass, ask for all three
            // at once: the next repair step needs no call of its own then.
            if let (Some(mut jac), Some(source)) = (jacobians, problem.constraint_jacobian()) {
                let mut together = true;
                for (j, x) in request.points.columns().into_iter().enumerate() {
                    let x = x.as_slice().expect("column-major request");
                    let mut cj = c.column_mut(j);
                    let cj = cj.as_slice_mut().expect("column-major values");
                    let jj = jac.slice_mut(ndarray::s![.., j * n..(j + 1) * n]);
                    f[j] = match source.evaluate_with_jacobian(x, cj, jj) {
                        Some(value) => value?,
                        None => {
                            together = false;
                            problem.evaluate(x, cj)?
                        }
                    };
                }
                return Ok(together);
            }
            for (j, x) in request.points.columns().into_iter().enumerate() {
                let mut cj = c.column_mut(j);
                f[j] = problem.evaluate(
                    x.as_slice().expect("column-major request"),
                    cj.as_slice_mut().expect("column-major values"),
                )?;
            }
        }
    }
    Ok(false)
}

/// The problem's constraint Jacobian, which a run with exact Jacobians asks for.
fn offered_jacobian<P: ConstrainedProblem + ?Sized>(
    problem: &P,
) -> Result<&dyn ConstraintJacobian, ProblemError> {
    problem.constraint_jacobian().ok_or_else(|| {
        ProblemError::Evaluation(
            "the run asks for exact Jacobians, but the problem offers none (ConstrainedProblem::constraint_jacobian)".into(),
        )
    })
}

/// The problem's objective gradient, which a run with derivatives asks for.
fn offered_gradient<P: ConstrainedProblem + ?Sized>(
    problem: &P,
) -> Result<&dyn ObjectiveGradient, ProblemError> {
    problem.objective_gradient().ok_or_else(|| {
        ProblemError::Evaluation(
            "the run asks for the objective's gradient, but the problem offers none (ConstrainedProblem::objective_gradient)".into(),
        )
    })
}
