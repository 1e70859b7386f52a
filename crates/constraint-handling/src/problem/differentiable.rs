//! A problem written once over a number type ([`Formula`], over
//! [`emages_autodiff::Scalar`]) as a [`ConstrainedProblem`] with its exact constraint
//! Jacobian and objective gradient by forward-mode automatic differentiation
//! ([`Differentiable`]).

use super::{
    prepare_jacobian, validate_bounds, ConstrainedProblem, ConstraintJacobian, ObjectiveGradient,
    ProblemError,
};
use emages_autodiff::{Dual, Scalar};
use ndarray::ArrayViewMut2;

/// A problem written once over a [`Scalar`]: the objective returned, the constraints
/// `C = (g, h)` (rows `g` then `h`) written into `c`. [`Differentiable`] makes a
/// [`ConstrainedProblem`] of it, with its exact constraint Jacobian.
///
/// Inside, write constants on the right (`x * 2.0`) or as `T::from(2.0)`: Rust cannot
/// promise generic code that `f64 * T` exists, though it does for both number types.
pub trait Formula {
    /// `f(x)`, with `C(x)` written into `c`.
    fn evaluate<T: Scalar>(&self, x: &[T], c: &mut [T]) -> T;
}

/// A [`ConstrainedProblem`] from one generic [`Formula`]: its values with `f64`, the
/// Jacobian of its constraints by forward-mode differentiation over [`Dual<L>`] (`L`
/// columns per pass, `⌈N / L⌉` passes) — and `f`, `C` and `∂C/∂x` together in those
/// passes ([`ConstraintJacobian::evaluate_with_jacobian`]), so a strategy that needs the
/// Jacobian at a point it evaluates calls the formula once for both.
///
/// ```
/// use constraint_handling::autodiff::{Differentiable, Formula, Scalar};
/// use constraint_handling::problem::{ConstraintJacobian, JacobianSource, ProblemShape};
/// use constraint_handling::ConstrainedProblem;
///
/// /// min x₁ + x₂ s.t. h(x) = x₁² + x₂² − 2 = 0.
/// struct Circle;
/// impl Formula for Circle {
///     fn evaluate<T: Scalar>(&self, x: &[T], c: &mut [T]) -> T {
///         c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///         x[0] + x[1]
///     }
/// }
/// let p = Differentiable::<_, 2>::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, Circle).unwrap();
/// assert_eq!(ProblemShape::of(&p).unwrap().jacobian, JacobianSource::Exact);
/// let (mut c, mut j) = ([0.0], ndarray::Array2::zeros((1, 2)));
/// let f = p.evaluate_with_jacobian(&[1.0, 2.0], &mut c, j.view_mut()).unwrap().unwrap();
/// assert_eq!((f, c[0], j.row(0).to_vec()), (3.0, 3.0, vec![2.0, 4.0]));
/// assert_eq!(p.evaluate(&[1.0, 2.0], &mut c).unwrap(), 3.0);
/// ```
#[derive(Clone, Debug)]
pub struct Differentiable<F, const L: usize = 8> {
    lower: Vec<f64>,
    upper: Vec<f64>,
    inequalities: usize,
    equalities: usize,
    formula: F,
}

impl<F: Formula, const L: usize> Differentiable<F, L> {
    /// The problem of `formula` on the box `[lower, upper]` with `inequalities`
    /// constraints `g ≤ 0` followed by `equalities` constraints `h = 0`.
    ///
    /// # Errors
    /// [`ProblemError::InvalidBounds`] as [`validate_bounds`].
    pub fn new(
        lower: Vec<f64>,
        upper: Vec<f64>,
        inequalities: usize,
        equalities: usize,
        formula: F,
    ) -> Result<Self, ProblemError> {
        validate_bounds(&lower, &upper)?;
        Ok(Self {
            lower,
            upper,
            inequalities,
            equalities,
            formula,
        })
    }

    /// The formula.
    pub fn formula(&self) -> &F {
        &self.formula
    }

    /// The passes over [`Dual<L>`]: `∂C/∂x` into `jacobian`; returns `f` (and writes
    /// `C` into `values`) from the first pass's values.
    fn sweep(
        &self,
        x: &[f64],
        mut values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<f64, ProblemError> {
        let (n, k) = (self.dim(), self.num_constraints());
        // The checks every Jacobian makes (shape, dimension); the values come from the
        // dual pass, not from a separate evaluation.
        prepare_jacobian(self, x, None, jacobian.dim())?;
        if let Some(v) = values.as_deref() {
            if v.len() != k {
                return Err(ProblemError::ConstraintCountMismatch {
                    expected: k,
                    found: v.len(),
                });
            }
        }
        let mut xd = vec![Dual::<L>::constant(0.0); n];
        let mut cd = vec![Dual::<L>::constant(0.0); k];
        let mut f = f64::NAN;
        for start in (0..n).step_by(L) {
            Dual::seed(x, start, &mut xd);
            let fd = self.formula.evaluate(&xd, &mut cd);
            Dual::write_columns(&cd, start, jacobian.view_mut());
            if start == 0 {
                f = fd.re;
                if let Some(v) = values.as_deref_mut() {
                    for (v, c) in v.iter_mut().zip(&cd) {
                        *v = c.re;
                    }
                }
            }
        }
        Ok(f)
    }
}

impl<F: Formula, const L: usize> ConstrainedProblem for Differentiable<F, L> {
    fn dim(&self) -> usize {
        self.lower.len()
    }
    fn num_inequalities(&self) -> usize {
        self.inequalities
    }
    fn num_equalities(&self) -> usize {
        self.equalities
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.lower
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.upper
    }
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        Ok(self.formula.evaluate(x, constraints))
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        Some(self)
    }
    fn objective_gradient(&self) -> Option<&dyn ObjectiveGradient> {
        Some(self)
    }
}

impl<F: Formula, const L: usize> ObjectiveGradient for Differentiable<F, L> {
    /// `∇f` by the same passes over [`Dual<L>`] as the Jacobian.
    fn evaluate_gradient(&self, x: &[f64], gradient: &mut [f64]) -> Result<(), ProblemError> {
        let (n, k) = (self.dim(), self.num_constraints());
        if x.len() != n || gradient.len() != n {
            return Err(ProblemError::DimensionMismatch {
                expected: n,
                found: if x.len() == n {
                    gradient.len()
                } else {
                    x.len()
                },
            });
        }
        let mut xd = vec![Dual::<L>::constant(0.0); n];
        let mut cd = vec![Dual::<L>::constant(0.0); k];
        for start in (0..n).step_by(L) {
            Dual::seed(x, start, &mut xd);
            let fd = self.formula.evaluate(&xd, &mut cd);
            for (i, g) in gradient[start..(start + L).min(n)].iter_mut().enumerate() {
                *g = fd.eps[i];
            }
        }
        Ok(())
    }
}

impl<F: Formula, const L: usize> ConstraintJacobian for Differentiable<F, L> {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.sweep(x, values, jacobian).map(|_| ())
    }

    fn evaluate_with_jacobian(
        &self,
        x: &[f64],
        constraints: &mut [f64],
        jacobian: ArrayViewMut2<'_, f64>,
    ) -> Option<Result<f64, ProblemError>> {
        Some(self.sweep(x, Some(constraints), jacobian))
    }
}
