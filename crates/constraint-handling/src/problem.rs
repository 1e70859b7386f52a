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
//! the layout the Jacobian-based repair (REFERENCE.md §4) differentiates.

use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
    /// (REFERENCE.md §1; the CEC2017 value `10⁻⁴` by default). The problem owns it, so
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

/// A problem built around another one, its [`inner`](ProblemWrapper::inner) problem:
/// the wrapper has the inner problem's dimension, box, constraint counts, equality
/// margin `δ`, `ν̄` and counts, and — unless it says otherwise through the `wrap_…`
/// methods — its evaluations, its Jacobian and its [`as_expensive`] answer.
///
/// Every `ProblemWrapper` is a [`ConstrainedProblem`] (one blanket implementation
/// forwards the trait's methods), so a wrapper states only what it changes: a wrapper
/// that spreads batches over threads overrides the two batch evaluations
/// ([`crate::parallel::Parallel`]), one that logs the evaluations overrides all three
/// and hides the inner problem's Jacobian and `as_expensive`, through which
/// evaluations would bypass it. `&P`, `Box<P>` and `Arc<P>` are wrappers of `P` that
/// change nothing.
///
/// The three evaluations forward to the inner problem's own each: a wrapper that
/// changes how a point is evaluated overrides all three, the batches with
/// [`evaluate_columns`]`(self, …)` (point by point through the wrapper) unless it has a
/// batch evaluation of its own — the drivers evaluate by batches.
///
/// [`as_expensive`]: ConstrainedProblem::as_expensive
///
/// ```
/// use constraint_handling::problem::{
///     evaluate_columns, ConstrainedProblem, FnProblem, ProblemError, ProblemWrapper,
/// };
/// use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2};
/// use std::cell::Cell;
///
/// /// Counts the points evaluated one at a time.
/// struct Counted<P> { inner: P, count: Cell<usize> }
///
/// impl<P: ConstrainedProblem> ProblemWrapper for Counted<P> {
///     type Inner = P;
///     fn inner(&self) -> &P { &self.inner }
///     fn wrap_evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
///         self.count.set(self.count.get() + 1);
///         self.inner.evaluate(x, c)
///     }
///     // The batches point by point, through `wrap_evaluate`.
///     fn wrap_evaluate_batch(
///         &self,
///         points: ArrayView2<'_, f64>,
///         f: ArrayViewMut1<'_, f64>,
///         c: ArrayViewMut2<'_, f64>,
///     ) -> Result<(), ProblemError> {
///         evaluate_columns(self, points, f, c)
///     }
///     fn wrap_evaluate_constraints_batch(
///         &self,
///         points: ArrayView2<'_, f64>,
///         f: ArrayViewMut1<'_, f64>,
///         c: ArrayViewMut2<'_, f64>,
///     ) -> Result<(), ProblemError> {
///         evaluate_columns(self, points, f, c)
///     }
/// }
///
/// let p = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 1, 0, |x, g| {
///     g[0] = x[0] + x[1];
///     Ok(x[0] * x[1])
/// })
/// .unwrap();
/// let counted = Counted { inner: p, count: Cell::new(0) };
/// let mut g = [0.0];
/// assert_eq!(counted.evaluate(&[0.5, 0.5], &mut g).unwrap(), 0.25);
/// assert_eq!((counted.count.get(), g[0], counted.dim()), (1, 1.0, 2));
/// let points = Array2::from_elem((2, 3), 0.25);
/// let (mut f, mut c) = (Array1::zeros(3), Array2::zeros((1, 3)));
/// counted.evaluate_batch(points.view(), f.view_mut(), c.view_mut()).unwrap();
/// assert_eq!(counted.count.get(), 4);
/// ```
pub trait ProblemWrapper {
    /// The wrapped problem's type.
    type Inner: ConstrainedProblem + ?Sized;

    /// The wrapped problem.
    fn inner(&self) -> &Self::Inner;

    /// What [`ConstrainedProblem::evaluate`] of the wrapper does; by default the inner
    /// problem's.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate`].
    fn wrap_evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.inner().evaluate(x, constraints)
    }

    /// What [`ConstrainedProblem::evaluate_batch`] of the wrapper does; by default the
    /// inner problem's.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate_batch`].
    fn wrap_evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.inner().evaluate_batch(points, objectives, constraints)
    }

    /// What [`ConstrainedProblem::evaluate_constraints_batch`] of the wrapper does; by
    /// default the inner problem's.
    ///
    /// # Errors
    /// As [`ConstrainedProblem::evaluate_constraints_batch`].
    fn wrap_evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.inner()
            .evaluate_constraints_batch(points, objectives, constraints)
    }

    /// What [`ConstrainedProblem::as_expensive`] of the wrapper answers; by default
    /// the inner problem's answer. A wrapper that changes the evaluations answers
    /// `None` (or `Some(self)`), or the drivers would evaluate the inner problem
    /// directly.
    fn wrap_as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        self.inner().as_expensive()
    }

    /// What [`ConstrainedProblem::constraint_jacobian`] of the wrapper answers; by
    /// default the inner problem's Jacobian. A wrapper that must see every evaluation
    /// answers `None`: the repairs then take forward differences through it.
    fn wrap_constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        self.inner().constraint_jacobian()
    }
}

/// The one forwarding of [`ConstrainedProblem`]: a wrapper is its inner problem, but for
/// the `wrap_…` methods it overrides.
impl<W: ProblemWrapper + ?Sized> ConstrainedProblem for W {
    fn dim(&self) -> usize {
        self.inner().dim()
    }
    fn num_inequalities(&self) -> usize {
        self.inner().num_inequalities()
    }
    fn num_equalities(&self) -> usize {
        self.inner().num_equalities()
    }
    fn num_constraints(&self) -> usize {
        self.inner().num_constraints()
    }
    fn lower_bounds(&self) -> &[f64] {
        self.inner().lower_bounds()
    }
    fn upper_bounds(&self) -> &[f64] {
        self.inner().upper_bounds()
    }
    fn equality_margin(&self) -> f64 {
        self.inner().equality_margin()
    }
    fn mean_violation(&self, constraints: &[f64]) -> f64 {
        self.inner().mean_violation(constraints)
    }
    fn constraint_counts(&self, constraints: &[f64]) -> crate::violation::ConstraintCounts {
        self.inner().constraint_counts(constraints)
    }
    fn split_constraints<'c>(&self, constraints: &'c [f64]) -> (&'c [f64], &'c [f64]) {
        self.inner().split_constraints(constraints)
    }
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.wrap_evaluate(x, constraints)
    }
    fn evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.wrap_evaluate_batch(points, objectives, constraints)
    }
    fn evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.wrap_evaluate_constraints_batch(points, objectives, constraints)
    }
    fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        self.wrap_as_expensive()
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        self.wrap_constraint_jacobian()
    }
}

macro_rules! pointer_wrappers {
    ($($ptr:ty),*) => {$(
        /// A pointer to a problem is that problem.
        impl<P: ConstrainedProblem + ?Sized> ProblemWrapper for $ptr {
            type Inner = P;
            fn inner(&self) -> &P {
                self
            }
        }
    )*};
}
pointer_wrappers!(&P, Box<P>, Arc<P>);

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

/// What an optimizer needs to know of a problem without evaluating it: the box, the
/// numbers `l` of inequalities and `m` of equalities, and the equality margin `δ` — so
/// that a run driven by ask and tell computes `ν̄` and the CEC counts of the values it
/// is told exactly as [`ConstrainedProblem::mean_violation`] and
/// [`ConstrainedProblem::constraint_counts`] do by default.
///
/// ```
/// use constraint_handling::problem::ProblemShape;
/// let shape = ProblemShape::new(vec![-1.0; 2], vec![1.0; 2], 1, 1).unwrap();
/// assert_eq!((shape.dim(), shape.num_constraints()), (2, 2));
/// // ν̄ = (max(0, g) + |h| counted beyond δ = 10⁻⁴) / (l + m)
/// assert_eq!(shape.mean_violation(&[0.5, 0.00005]), 0.25);
/// assert!(ProblemShape::new(vec![1.0], vec![0.0], 0, 0).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemShape {
    /// The lower bounds `lb`.
    pub lower: Vec<f64>,
    /// The upper bounds `ub`.
    pub upper: Vec<f64>,
    /// `l`.
    pub inequalities: usize,
    /// `m`.
    pub equalities: usize,
    /// `δ`.
    pub equality_margin: f64,
    /// Where the repairs get the constraint Jacobian from: the problem's own
    /// ([`ConstraintJacobian`]) or forward differences (the default).
    #[serde(default)]
    pub jacobian: JacobianSource,
}

impl ProblemShape {
    /// The shape of a problem with these bounds and constraint counts, and the default
    /// equality margin.
    ///
    /// # Errors
    /// [`ProblemError::InvalidBounds`] as [`validate_bounds`].
    pub fn new(
        lower: Vec<f64>,
        upper: Vec<f64>,
        inequalities: usize,
        equalities: usize,
    ) -> Result<Self, ProblemError> {
        validate_bounds(&lower, &upper)?;
        Ok(Self {
            lower,
            upper,
            inequalities,
            equalities,
            equality_margin: crate::violation::DEFAULT_EQUALITY_MARGIN,
            jacobian: JacobianSource::Differences,
        })
    }

    /// The same shape, the Jacobians coming from `source`.
    #[must_use]
    pub fn with_jacobian(self, source: JacobianSource) -> Self {
        Self {
            jacobian: source,
            ..self
        }
    }

    /// The shape of `problem`.
    ///
    /// # Errors
    /// [`ProblemError::InvalidBounds`] if its bounds do not have `N` entries each or
    /// are not ordered.
    pub fn of<P: ConstrainedProblem + ?Sized>(problem: &P) -> Result<Self, ProblemError> {
        let (lb, ub, n) = (
            problem.lower_bounds(),
            problem.upper_bounds(),
            problem.dim(),
        );
        if lb.len() != n || ub.len() != n {
            return Err(ProblemError::InvalidBounds(format!(
                "{} lower and {} upper bounds for dimension {n}",
                lb.len(),
                ub.len()
            )));
        }
        Ok(Self {
            equality_margin: problem.equality_margin(),
            jacobian: JacobianSource::of(problem),
            ..Self::new(
                lb.to_vec(),
                ub.to_vec(),
                problem.num_inequalities(),
                problem.num_equalities(),
            )?
        })
    }

    /// `N`.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.lower.len()
    }

    /// `l + m`.
    #[must_use]
    pub fn num_constraints(&self) -> usize {
        self.inequalities + self.equalities
    }

    /// `ν̄` of `C = (g, h)` ([`crate::violation::mean_violation`] with `δ`).
    #[must_use]
    pub fn mean_violation(&self, constraints: &[f64]) -> f64 {
        let (g, h) = constraints.split_at(self.inequalities.min(constraints.len()));
        crate::violation::mean_violation(g, h, self.equality_margin)
    }

    /// The CEC counts of `C = (g, h)`.
    #[must_use]
    pub fn constraint_counts(&self, constraints: &[f64]) -> crate::violation::ConstraintCounts {
        let (g, h) = constraints.split_at(self.inequalities.min(constraints.len()));
        crate::violation::ConstraintCounts::from_constraints(g, h)
    }
}

/// A problem given by a closure: `evaluate(x, c)` writes `C(x) = (g, h)` into `c`
/// (inequalities first) and returns `f(x)`. The lengths of `x` and `c` are checked
/// before the closure is called.
///
/// ```
/// use constraint_handling::problem::{ConstrainedProblem, FnProblem};
///
/// // min ‖x‖²  s.t.  x₁ + x₂ − 1 = 0  in [−3, 3]²
/// let p = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
///     c[0] = x[0] + x[1] - 1.0;
///     Ok(x.iter().map(|v| v * v).sum())
/// })
/// .unwrap();
/// let mut c = [0.0];
/// assert_eq!(p.evaluate(&[2.0, 0.5], &mut c).unwrap(), 4.25);
/// assert_eq!((p.num_equalities(), c[0]), (1, 1.5));
/// assert!(p.evaluate(&[0.5], &mut c).is_err());
/// assert!(FnProblem::new(vec![1.0], vec![0.0], 0, 0, |_, _| Ok(0.0)).is_err());
/// ```
#[derive(Clone)]
pub struct FnProblem<F> {
    shape: ProblemShape,
    evaluate: F,
}

impl<F> std::fmt::Debug for FnProblem<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnProblem")
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

impl<F> FnProblem<F>
where
    F: Fn(&[f64], &mut [f64]) -> Result<f64, ProblemError>,
{
    /// The problem in the box `[lower, upper]` with `inequalities` + `equalities`
    /// constraints, evaluated by `evaluate`.
    ///
    /// # Errors
    /// [`ProblemError::InvalidBounds`] as [`validate_bounds`].
    pub fn new(
        lower: Vec<f64>,
        upper: Vec<f64>,
        inequalities: usize,
        equalities: usize,
        evaluate: F,
    ) -> Result<Self, ProblemError> {
        Ok(Self {
            shape: ProblemShape::new(lower, upper, inequalities, equalities)?,
            evaluate,
        })
    }
}

impl<F> ConstrainedProblem for FnProblem<F>
where
    F: Fn(&[f64], &mut [f64]) -> Result<f64, ProblemError>,
{
    fn dim(&self) -> usize {
        self.shape.dim()
    }
    fn num_inequalities(&self) -> usize {
        self.shape.inequalities
    }
    fn num_equalities(&self) -> usize {
        self.shape.equalities
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.shape.lower
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.shape.upper
    }
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        (self.evaluate)(x, constraints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2};

    /// A problem with a margin, a Jacobian and an `as_expensive` of its own, so that
    /// a wrapper that forwarded the defaults instead would show.
    struct Own;

    impl ConstrainedProblem for Own {
        fn dim(&self) -> usize {
            2
        }
        fn num_inequalities(&self) -> usize {
            1
        }
        fn num_equalities(&self) -> usize {
            1
        }
        fn lower_bounds(&self) -> &[f64] {
            &[-1.0, -2.0]
        }
        fn upper_bounds(&self) -> &[f64] {
            &[1.0, 2.0]
        }
        fn equality_margin(&self) -> f64 {
            0.5
        }
        fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
            self.check_buffers(x, c)?;
            c[0] = x[0];
            c[1] = x[1];
            Ok(x[0] + 10.0 * x[1])
        }
        fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
            Some(self)
        }
        fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
            Some(self)
        }
    }

    impl ConstraintJacobian for Own {
        fn evaluate_jacobian(
            &self,
            _x: &[f64],
            _values: Option<&mut [f64]>,
            mut jacobian: ArrayViewMut2<'_, f64>,
        ) -> Result<(), ProblemError> {
            jacobian.fill(0.0);
            jacobian[[0, 0]] = 1.0;
            jacobian[[1, 1]] = 1.0;
            Ok(())
        }
    }

    /// Negates `f` in the batches only, and hides the Jacobian.
    struct Negated<P>(P);

    impl<P: ConstrainedProblem> ProblemWrapper for Negated<P> {
        type Inner = P;
        fn inner(&self) -> &P {
            &self.0
        }
        fn wrap_evaluate_batch(
            &self,
            points: ArrayView2<'_, f64>,
            mut objectives: ArrayViewMut1<'_, f64>,
            constraints: ArrayViewMut2<'_, f64>,
        ) -> Result<(), ProblemError> {
            self.0
                .evaluate_batch(points, objectives.view_mut(), constraints)?;
            objectives.mapv_inplace(|f| -f);
            Ok(())
        }
        fn wrap_constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
            None
        }
    }

    fn shape_of(p: &dyn ConstrainedProblem) -> (usize, usize, usize, Vec<f64>, Vec<f64>, f64) {
        (
            p.dim(),
            p.num_inequalities(),
            p.num_equalities(),
            p.lower_bounds().to_vec(),
            p.upper_bounds().to_vec(),
            p.equality_margin(),
        )
    }

    /// The pointers and a wrapper are their inner problem in everything they do not
    /// override: the shape, the margin, `ν̄`, the evaluations, the Jacobian and
    /// `as_expensive`; what a wrapper overrides is its own.
    #[test]
    fn wrappers_are_their_inner_problem_but_for_what_they_override() {
        let expected = shape_of(&Own);
        let boxed: Box<dyn ConstrainedProblem> = Box::new(Own);
        let shared = Arc::new(Own);
        let pointers: [&dyn ConstrainedProblem; 3] = [&&Own, &boxed, &shared];
        for p in pointers {
            assert_eq!(shape_of(p), expected);
            assert_eq!(p.mean_violation(&[0.25, 0.75]), (0.25 + 0.75) / 2.0);
            assert!(p.constraint_jacobian().is_some());
            assert!(p.as_expensive().is_some());
            let mut c = [0.0; 2];
            assert_eq!(p.evaluate(&[0.5, 1.0], &mut c).unwrap(), 10.5);
            assert!(p.evaluate(&[0.5], &mut c).is_err());
        }
        let negated = Negated(&Own);
        assert_eq!(shape_of(&negated), expected);
        assert!(negated.constraint_jacobian().is_none());
        assert!(negated.as_expensive().is_some());
        let mut c = [0.0; 2];
        assert_eq!(negated.evaluate(&[0.5, 1.0], &mut c).unwrap(), 10.5);
        let points = Array2::from_shape_vec((2, 2), vec![0.5, -0.5, 1.0, 2.0]).unwrap();
        let (mut f, mut cs) = (Array1::zeros(2), Array2::zeros((2, 2)));
        negated
            .evaluate_batch(points.view(), f.view_mut(), cs.view_mut())
            .unwrap();
        assert_eq!(f.to_vec(), vec![-10.5, -19.5]);
        assert_eq!(cs, points);
    }
}
