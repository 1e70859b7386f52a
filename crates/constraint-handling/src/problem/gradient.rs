//! The gradient of a problem's objective, for solvers that use derivatives.

use super::ProblemError;

/// The gradient of a problem's objective, `∇f(x)` (`N` components), offered by
/// [`super::ConstrainedProblem::objective_gradient`].
///
/// A problem that offers it and the constraint Jacobian ([`super::ConstraintJacobian`],
/// or no constraints at all) lets the local phase take its models from derivatives
/// instead of `N` forward-difference probes per step: one evaluation of `∇f` and
/// `∂C/∂x` together counts as one evaluation (the CEC2020 rule for derivatives).
///
/// ```
/// use constraint_handling::problem::{ObjectiveGradient, ProblemShape};
/// use constraint_handling::{ConstrainedProblem, ProblemError};
///
/// /// min (x₁ − 1)² + x₂² on [−3, 3]², with ∇f = (2 (x₁ − 1), 2 x₂).
/// struct Bowl;
/// impl ConstrainedProblem for Bowl {
///     fn dim(&self) -> usize { 2 }
///     fn num_inequalities(&self) -> usize { 0 }
///     fn num_equalities(&self) -> usize { 0 }
///     fn lower_bounds(&self) -> &[f64] { &[-3.0; 2] }
///     fn upper_bounds(&self) -> &[f64] { &[3.0; 2] }
///     fn evaluate(&self, x: &[f64], _c: &mut [f64]) -> Result<f64, ProblemError> {
///         Ok((x[0] - 1.0).powi(2) + x[1] * x[1])
///     }
///     fn objective_gradient(&self) -> Option<&dyn ObjectiveGradient> { Some(self) }
/// }
/// impl ObjectiveGradient for Bowl {
///     fn evaluate_gradient(&self, x: &[f64], gradient: &mut [f64]) -> Result<(), ProblemError> {
///         gradient[0] = 2.0 * (x[0] - 1.0);
///         gradient[1] = 2.0 * x[1];
///         Ok(())
///     }
/// }
/// assert!(ProblemShape::of(&Bowl).unwrap().gradient);
/// let mut g = [0.0; 2];
/// Bowl.evaluate_gradient(&[2.0, 1.0], &mut g).unwrap();
/// assert_eq!(g, [2.0, 2.0]);
/// ```
pub trait ObjectiveGradient {
    /// Writes `∇f(x)` into `gradient` (`N` entries).
    ///
    /// # Errors
    /// As [`super::ConstrainedProblem::evaluate`].
    fn evaluate_gradient(&self, x: &[f64], gradient: &mut [f64]) -> Result<(), ProblemError>;
}
