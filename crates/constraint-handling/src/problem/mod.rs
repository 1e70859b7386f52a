//! The constrained-problem interface shared by the benchmark suite and the strategies.
//!
//! A problem is
//!
//! ```text
//! minimise f(x)   subject to   g_i(x) ≤ 0 (i = 1..l),   h_j(x) = 0 (j = 1..m),   lb ≤ x ≤ ub,
//! ```
//!
//! with `x ∈ ℝᴺ`. Evaluating a point yields `f(x)` and the *constraint vector*
//! `C(x) = (g_1(x), …, g_l(x), h_1(x), …, h_m(x))` — inequalities first, then equalities,
//! the layout the Jacobian-based repair (docs/algorithm.md §4) differentiates.

mod differentiable;
mod function;
mod gradient;
mod jacobian;
mod shape;
mod wrapper;

pub use differentiable::{Differentiable, Formula};
pub use function::FnProblem;
pub use gradient::ObjectiveGradient;
pub use jacobian::{prepare_jacobian, ConstraintJacobian, JacobianSource};
pub use shape::ProblemShape;
pub use wrapper::{ProblemWrapper, WithEqualityMargin};

use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};

/// Errors reported by a problem or by the checks on its inputs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// A point does not have the problem's dimension.
    #[error("point has {found} components, but the problem has dimension {expected}")]
    DimensionMismatch {
        /// The problem's dimension `N`.
        expected: usize,
        /// The length of the point that was passed.
        found: usize,
    },
    /// The output buffer for the constraint values has the wrong length.
    #[error("constraint buffer has {found} entries, but the problem has {expected} constraints")]
    ConstraintCountMismatch {
        /// `l + m`.
        expected: usize,
        /// The length of the buffer that was passed.
        found: usize,
    },
    /// The arrays of a batch evaluation do not fit together.
    #[error("batch evaluation: {what} has shape {found:?}, expected {expected:?}")]
    BatchShape {
        /// Which array is wrong.
        what: &'static str,
        /// The expected shape.
        expected: Vec<usize>,
        /// The shape that was passed.
        found: Vec<usize>,
    },
    /// Box bounds with `lb > ub`, a NaN bound, or bounds of different lengths.
    #[error("invalid bounds: {0}")]
    InvalidBounds(String),
    /// Any other failure of a user-defined problem.
    #[error("evaluation failed: {0}")]
    Evaluation(String),
}

/// A box-constrained problem with inequality and equality constraints.
///
/// Implement this for your own problem to use it with the orderings, the repair and the
/// strategies of this workspace; nothing here knows the CEC suite.
///
/// Non-finite values are allowed in the output: a NaN objective or constraint value
/// makes the mean violation NaN, and such candidates rank last in every ordering of
/// [`crate::ordering`].
///
/// # Example
///
/// ```
/// use constraint_handling::{ConstrainedProblem, ProblemError};
///
/// /// minimise x₁ + x₂  s.t.  1 − x₁² − x₂² ≤ 0,  x ∈ [−2, 2]².
/// struct OutsideDisc { lb: [f64; 2], ub: [f64; 2] }
///
/// impl ConstrainedProblem for OutsideDisc {
///     fn dim(&self) -> usize { 2 }
///     fn num_inequalities(&self) -> usize { 1 }
///     fn num_equalities(&self) -> usize { 0 }
///     fn lower_bounds(&self) -> &[f64] { &self.lb }
///     fn upper_bounds(&self) -> &[f64] { &self.ub }
///     fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
///         self.check_buffers(x, c)?;
///         c[0] = 1.0 - x[0] * x[0] - x[1] * x[1];
///         Ok(x[0] + x[1])
///     }
/// }
///
/// let p = OutsideDisc { lb: [-2.0; 2], ub: [2.0; 2] };
/// let mut c = [0.0];
/// assert_eq!(p.evaluate(&[0.5, 0.0], &mut c).unwrap(), 0.5);
/// assert_eq!(c[0], 0.75);
/// assert!(p.evaluate(&[0.5], &mut c).is_err());
/// ```
pub trait ConstrainedProblem {
    /// The search-space dimension `N`.
    fn dim(&self) -> usize;

    /// The number `l` of inequality constraints `g_i(x) ≤ 0`.
    fn num_inequalities(&self) -> usize;

    /// The number `m` of equality constraints `h_j(x) = 0`.
    fn num_equalities(&self) -> usize;

    /// `l + m`, the length of the constraint vector `C(x)`.
    fn num_constraints(&self) -> usize {
        self.num_inequalities() + self.num_equalities()
    }

    /// The lower box bounds `lb` (length `N`).
    fn lower_bounds(&self) -> &[f64];

    /// The upper box bounds `ub` (length `N`).
    fn upper_bounds(&self) -> &[f64];

    /// The equality margin `δ` of the mean violation: `|h_j| ≤ δ` counts as satisfied
    /// (docs/algorithm.md §1; the CEC2017 value `10⁻⁴` by default). The problem owns it, so
    /// that every algorithm and every statistic measures `ν̄` alike.
    fn equality_margin(&self) -> f64 {
        crate::violation::DEFAULT_EQUALITY_MARGIN
    }

    /// The mean violation `ν̄` of a constraint vector `C = (g, h)` of this problem, with
    /// its [`equality_margin`](Self::equality_margin)
    /// ([`crate::violation::mean_violation`]).
    fn mean_violation(&self, constraints: &[f64]) -> f64 {
        let (g, h) = self.split_constraints(constraints);
        crate::violation::mean_violation(g, h, self.equality_margin())
    }

    /// The CEC counts `c = (c1, c2, c3)` of a constraint vector `C = (g, h)` of this
    /// problem ([`crate::violation::ConstraintCounts::from_constraints`]).
    fn constraint_counts(&self, constraints: &[f64]) -> crate::violation::ConstraintCounts {
        let (g, h) = self.split_constraints(constraints);
        crate::violation::ConstraintCounts::from_constraints(g, h)
    }

    /// `C = (g, h)` split after the `l` inequalities (a shorter `C` is all `g`).
    fn split_constraints<'c>(&self, constraints: &'c [f64]) -> (&'c [f64], &'c [f64]) {
        constraints.split_at(self.num_inequalities().min(constraints.len()))
    }

    /// Evaluates `x`: returns `f(x)` and writes `C(x) = (g(x), h(x))` into `constraints`.
    ///
    /// # Errors
    /// [`ProblemError::DimensionMismatch`] if `x.len() != N`,
    /// [`ProblemError::ConstraintCountMismatch`] if `constraints.len() != l + m`.
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError>;

    /// Evaluates a population given as an `N × n` matrix with one point per column:
    /// writes `f` of column `k` into `objectives[k]` and `C` into column `k` of the
    /// `(l + m) × n` matrix `constraints`.
    ///
    /// The default evaluates column by column; implementations override it when a whole
    /// population can be handled at once (the CEC suite rotates it with one matrix
    /// product). Columns that are contiguous in memory (column-major arrays) are
    /// evaluated without copying.
    ///
    /// # Errors
    /// [`ProblemError::BatchShape`] when the shapes do not fit; any error of
    /// [`ConstrainedProblem::evaluate`].
    fn evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        evaluate_columns(self, points, objectives, constraints)
    }

    /// Evaluates the constraints of a population only, as
    /// [`ConstrainedProblem::evaluate_batch`] does, for callers that do not need `f`
    /// (the gradient repair's Jacobian probes). `objectives` is scratch space: its values
    /// afterwards are unspecified.
    ///
    /// The default evaluates `f` too ([`ConstrainedProblem::evaluate_batch`]); a problem
    /// whose constraints are cheaper alone, or that counts evaluations of `f` and of the
    /// constraints apart (COCO's suites), overrides it.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate_batch`].
    fn evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.evaluate_batch(points, objectives, constraints)
    }

    /// The problem as one that may be evaluated from several threads at once, if its
    /// evaluation is expensive enough for that to pay (a simulation: a millisecond or
    /// more per point). An expensive problem that is `Sync` declares itself by
    /// returning `Some(self)`; the drivers (`ma_es::Plan::run`, the harness, Python's
    /// `minimize` on a Rust problem) then evaluate each request's points on all cores
    /// ([`crate::parallel::Parallel`]), with the same values, so the same run. The
    /// default, `None`: one thread, in the caller's.
    fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        None
    }

    /// The problem's constraint Jacobian, if it offers one ([`ConstraintJacobian`]):
    /// a problem that computes `∂C/∂x` (by hand, or by automatic differentiation of the
    /// same code as its values) returns `Some(self)`. The repairs then use it instead
    /// of forward differences, and an evaluation of the constraints with their
    /// Jacobian counts as one evaluation (the CEC2020 competition's rule). The default,
    /// `None`: the repairs take forward differences, `N` evaluations per Jacobian.
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        None
    }

    /// The gradient of the objective, if the problem offers it ([`ObjectiveGradient`]):
    /// with it and the constraint Jacobian ([`ConstrainedProblem::constraint_jacobian`],
    /// unless there are no constraints) the local phase builds its models from
    /// derivatives, one evaluation per model instead of `N` difference probes. The
    /// default, `None`: forward differences.
    fn objective_gradient(&self) -> Option<&dyn ObjectiveGradient> {
        None
    }

    /// Checks the lengths of a point and a constraint buffer against the problem.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate`].
    fn check_buffers(&self, x: &[f64], constraints: &[f64]) -> Result<(), ProblemError> {
        if x.len() != self.dim() {
            return Err(ProblemError::DimensionMismatch {
                expected: self.dim(),
                found: x.len(),
            });
        }
        if constraints.len() != self.num_constraints() {
            return Err(ProblemError::ConstraintCountMismatch {
                expected: self.num_constraints(),
                found: constraints.len(),
            });
        }
        Ok(())
    }
}

/// Checks the shapes of a batch evaluation: `points` is `N × n`, `objectives` has `n`
/// entries, `constraints` is `(l + m) × n`.
///
/// # Errors
/// [`ProblemError::BatchShape`] naming the first array that does not fit.
pub fn check_batch_shapes<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    points: &ArrayView2<'_, f64>,
    objectives: &ArrayViewMut1<'_, f64>,
    constraints: &ArrayViewMut2<'_, f64>,
) -> Result<(), ProblemError> {
    let n = points.ncols();
    let shape_error = |what, expected: Vec<usize>, found: &[usize]| ProblemError::BatchShape {
        what,
        expected,
        found: found.to_vec(),
    };
    if points.nrows() != problem.dim() {
        return Err(shape_error(
            "points",
            vec![problem.dim(), n],
            points.shape(),
        ));
    }
    if objectives.len() != n {
        return Err(shape_error("objectives", vec![n], objectives.shape()));
    }
    if constraints.dim() != (problem.num_constraints(), n) {
        return Err(shape_error(
            "constraints",
            vec![problem.num_constraints(), n],
            constraints.shape(),
        ));
    }
    Ok(())
}

/// The column-by-column batch evaluation behind the default
/// [`ConstrainedProblem::evaluate_batch`]; usable by implementations that override it
/// for some inputs only.
///
/// # Errors
/// As [`ConstrainedProblem::evaluate_batch`].
pub fn evaluate_columns<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    points: ArrayView2<'_, f64>,
    mut objectives: ArrayViewMut1<'_, f64>,
    mut constraints: ArrayViewMut2<'_, f64>,
) -> Result<(), ProblemError> {
    check_batch_shapes(problem, &points, &objectives, &constraints)?;
    // Copies are only made for columns that are not contiguous.
    let mut x_copy: Vec<f64> = Vec::new();
    let mut c_copy: Vec<f64> = Vec::new();
    for (k, x) in points.axis_iter(Axis(1)).enumerate() {
        let mut c_col = constraints.column_mut(k);
        let x_slice = match x.to_slice() {
            Some(s) => s,
            None => {
                x_copy.clear();
                x_copy.extend(x.iter());
                &x_copy
            }
        };
        objectives[k] = match c_col.as_slice_mut() {
            Some(c) => problem.evaluate(x_slice, c)?,
            None => {
                c_copy.resize(problem.num_constraints(), 0.0);
                let f = problem.evaluate(x_slice, &mut c_copy)?;
                c_col.iter_mut().zip(&c_copy).for_each(|(d, s)| *d = *s);
                f
            }
        };
    }
    Ok(())
}

/// Validates box bounds: equal lengths, no NaN, `lb ≤ ub` component-wise (`lb = ub` is
/// allowed and fixes the component).
///
/// # Errors
/// [`ProblemError::InvalidBounds`] naming the first offending component.
///
/// ```
/// use constraint_handling::problem::validate_bounds;
/// assert!(validate_bounds(&[0.0, 1.0], &[1.0, 1.0]).is_ok());
/// assert!(validate_bounds(&[2.0], &[1.0]).is_err());
/// ```
pub fn validate_bounds(lower: &[f64], upper: &[f64]) -> Result<(), ProblemError> {
    if lower.len() != upper.len() {
        return Err(ProblemError::InvalidBounds(format!(
            "{} lower bounds but {} upper bounds",
            lower.len(),
            upper.len()
        )));
    }
    for (i, (&l, &u)) in lower.iter().zip(upper).enumerate() {
        if l.is_nan() || u.is_nan() || l > u {
            return Err(ProblemError::InvalidBounds(format!(
                "component {i}: lower bound {l} and upper bound {u} (need lb ≤ ub)"
            )));
        }
    }
    Ok(())
}
