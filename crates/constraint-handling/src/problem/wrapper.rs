//! Problems built around other problems: [`ProblemWrapper`].

#[cfg(doc)]
use super::evaluate_columns;
use super::{ConstrainedProblem, ConstraintJacobian, ObjectiveGradient, ProblemError};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2};
use std::sync::Arc;

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

    /// What [`ConstrainedProblem::equality_margin`] of the wrapper is (`ν̄` follows
    /// it); by default the inner problem's. [`WithEqualityMargin`] sets it.
    fn wrap_equality_margin(&self) -> f64 {
        self.inner().equality_margin()
    }

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

    /// What [`ConstrainedProblem::objective_gradient`] of the wrapper answers; by
    /// default the inner problem's gradient. A wrapper that must see every evaluation
    /// answers `None`: the local phase then takes forward differences through it.
    fn wrap_objective_gradient(&self) -> Option<&dyn ObjectiveGradient> {
        self.inner().objective_gradient()
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
        self.wrap_equality_margin()
    }
    fn mean_violation(&self, constraints: &[f64]) -> f64 {
        let margin = self.wrap_equality_margin();
        if margin.to_bits() == self.inner().equality_margin().to_bits() {
            return self.inner().mean_violation(constraints);
        }
        let (g, h) = self.split_constraints(constraints);
        crate::violation::mean_violation(g, h, margin)
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
    fn objective_gradient(&self) -> Option<&dyn ObjectiveGradient> {
        self.wrap_objective_gradient()
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

/// A problem with another equality margin `δ`: an equality `h` is satisfied where
/// `|h| ≤ δ`, and `ν̄` counts `|h|` beyond it. Everything else is the inner problem's.
///
/// ```
/// use constraint_handling::problem::{ConstrainedProblem, FnProblem, WithEqualityMargin};
/// // min x₁ + x₂  s.t.  x₁² + x₂² − 2 = 0  in [−3, 3]²
/// let p = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
///     c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///     Ok(x[0] + x[1])
/// })?;
/// let strict = WithEqualityMargin::new(&p, 1e-8)?;
/// assert_eq!((p.equality_margin(), strict.equality_margin()), (1e-4, 1e-8));
/// assert_eq!(p.mean_violation(&[5e-5]), 0.0);
/// assert_eq!(strict.mean_violation(&[5e-5]), 5e-5);
/// # Ok::<(), constraint_handling::ProblemError>(())
/// ```
#[derive(Clone, Debug)]
pub struct WithEqualityMargin<P> {
    problem: P,
    margin: f64,
}

impl<P: ConstrainedProblem> WithEqualityMargin<P> {
    /// `problem` with the equality margin `margin`.
    ///
    /// # Errors
    /// [`ProblemError::Evaluation`] for a margin that is not a finite number `≥ 0`.
    pub fn new(problem: P, margin: f64) -> Result<Self, ProblemError> {
        check_margin(margin)?;
        Ok(Self { problem, margin })
    }
}

impl<P: ConstrainedProblem> ProblemWrapper for WithEqualityMargin<P> {
    type Inner = P;
    fn inner(&self) -> &P {
        &self.problem
    }
    fn wrap_equality_margin(&self) -> f64 {
        self.margin
    }
}

/// An equality margin must be a finite number `≥ 0`.
pub(super) fn check_margin(margin: f64) -> Result<(), ProblemError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(ProblemError::Evaluation(format!(
            "the equality margin must be a finite number >= 0, not {margin}"
        )))
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
