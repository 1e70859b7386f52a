//! A problem evaluating a run's requests in this thread, in the reference's grouping
//! ([`Strategy::step`]).

#![allow(clippy::wildcard_imports)]
use super::*;

/// Evaluates `request` with `problem` into `f`, `c`, in the reference's grouping (see
/// [`Strategy::step`]).
pub(super) fn evaluate<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    n: usize,
    slots: Slots<'_>,
) -> Result<bool, MaEsError> {
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
) -> Result<&dyn ConstraintJacobian, MaEsError> {
    problem.constraint_jacobian().ok_or_else(|| {
        MaEsError::Protocol(
            "the run asks for exact Jacobians, but the problem offers none (ConstrainedProblem::constraint_jacobian)".into(),
        )
    })
}
