//! Where a problem's constraint Jacobian comes from.

use super::{ConstrainedProblem, ProblemError};
use ndarray::ArrayViewMut2;
use serde::{Deserialize, Serialize};

/// The Jacobian of a problem's constraints, `J = ∂C/∂x`: `(l + m) × N`, rows `g` then
/// `h` as in `C`, one column per variable ([`ConstrainedProblem::constraint_jacobian`]).
///
/// ```
/// use constraint_handling::problem::{ConstraintJacobian, JacobianSource, ProblemShape};
/// use constraint_handling::{ConstrainedProblem, ProblemError};
/// use ndarray::{Array2, ArrayViewMut2};
///
/// /// min x₁ + x₂ s.t. h(x) = x₁² + x₂² − 2 = 0 on [−3, 3]², with ∂h/∂x = 2x.
/// struct Circle;
/// impl ConstrainedProblem for Circle {
///     fn dim(&self) -> usize { 2 }
///     fn num_inequalities(&self) -> usize { 0 }
///     fn num_equalities(&self) -> usize { 1 }
///     fn lower_bounds(&self) -> &[f64] { &[-3.0; 2] }
///     fn upper_bounds(&self) -> &[f64] { &[3.0; 2] }
///     fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
///         c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///         Ok(x[0] + x[1])
///     }
///     fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> { Some(self) }
/// }
/// impl ConstraintJacobian for Circle {
///     fn evaluate_jacobian(
///         &self, x: &[f64], values: Option<&mut [f64]>, mut jacobian: ArrayViewMut2<'_, f64>,
///     ) -> Result<(), ProblemError> {
///         if let Some(c) = values {
///             self.evaluate(x, c)?;
///         }
///         jacobian[[0, 0]] = 2.0 * x[0];
///         jacobian[[0, 1]] = 2.0 * x[1];
///         Ok(())
///     }
/// }
/// let shape = ProblemShape::of(&Circle).unwrap();
/// assert_eq!(shape.jacobian, JacobianSource::Exact);
/// let (mut c, mut j) = (vec![0.0], Array2::zeros((1, 2)));
/// Circle.evaluate_jacobian(&[1.0, 2.0], Some(&mut c), j.view_mut()).unwrap();
/// assert_eq!((c[0], j.row(0).to_vec()), (3.0, vec![2.0, 4.0]));
/// ```
///
/// One call counts as one evaluation, the constraint values included when they are
/// asked for (the CEC2020 rule: "an evaluation of the constraints or of their
/// derivatives counts as one evaluation").
pub trait ConstraintJacobian {
    /// Writes `∂C/∂x` at `x` into `jacobian` (`(l + m) × N`), and `C(x)` into `values`
    /// if given (a caller that knows them already passes `None`; automatic
    /// differentiation gets both in one pass).
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate`].
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError>;

    /// `f(x)`, `C(x)` (into `constraints`) and `∂C/∂x` (into `jacobian`) in one call:
    /// one evaluation. A strategy asks for the three together at points whose
    /// Jacobian it may need next (a repair's repaired points), so that a problem whose
    /// evaluation yields them in one pass — automatic differentiation
    /// ([`crate::autodiff::Differentiable`]), a simulation with its adjoint — is called
    /// once per evaluation charged. `None`, the default: no such pass; the caller asks
    /// for `f` and `C` by [`ConstrainedProblem::evaluate`], and for the Jacobian apart
    /// when it needs it.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate`], inside the `Some`.
    fn evaluate_with_jacobian(
        &self,
        x: &[f64],
        constraints: &mut [f64],
        jacobian: ArrayViewMut2<'_, f64>,
    ) -> Option<Result<f64, ProblemError>> {
        let _ = (x, constraints, jacobian);
        None
    }
}

/// What every [`ConstraintJacobian`] checks before it differentiates: `x` has the
/// problem's dimension and the Jacobian the shape `(l + m) × N`; with `values`, it
/// writes them by [`ConstrainedProblem::evaluate`] (which checks their length): the
/// values and the Jacobian are one evaluation.
///
/// # Errors
/// [`ProblemError::DimensionMismatch`], [`ProblemError::ConstraintCountMismatch`], an
/// [`ProblemError::Evaluation`] naming a Jacobian of the wrong shape, or the
/// evaluation's own error.
pub fn prepare_jacobian<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    x: &[f64],
    values: Option<&mut [f64]>,
    jacobian_shape: (usize, usize),
) -> Result<(), ProblemError> {
    let (n, k) = (problem.dim(), problem.num_constraints());
    if jacobian_shape != (k, n) {
        return Err(ProblemError::Evaluation(format!(
            "the constraint Jacobian is {k} × {n}, not {} × {}",
            jacobian_shape.0, jacobian_shape.1
        )));
    }
    match values {
        Some(values) => problem.evaluate(x, values).map(|_| ()),
        None if x.len() != n => Err(ProblemError::DimensionMismatch {
            expected: n,
            found: x.len(),
        }),
        None => Ok(()),
    }
}

/// Where a constraint Jacobian comes from: what records, entries and tables name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JacobianSource {
    /// Forward differences of the constraint values: `N` evaluations per Jacobian
    /// (the black-box case, and the paper's).
    #[default]
    Differences,
    /// The problem's own ([`ConstraintJacobian`]): one evaluation per Jacobian.
    Exact,
}

impl JacobianSource {
    /// The source a problem offers.
    pub fn of<P: ConstrainedProblem + ?Sized>(problem: &P) -> Self {
        if problem.constraint_jacobian().is_some() {
            Self::Exact
        } else {
            Self::Differences
        }
    }

    /// `"differences"` or `"exact"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Differences => "differences",
            Self::Exact => "exact",
        }
    }
}

impl std::fmt::Display for JacobianSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
