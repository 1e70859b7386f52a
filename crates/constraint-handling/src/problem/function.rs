//! A problem given by a closure: [`FnProblem`].

use super::{ConstrainedProblem, ProblemError, ProblemShape};

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
    /// [`ProblemError::InvalidBounds`] as [`super::validate_bounds`].
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

impl<F> FnProblem<F> {
    /// The same problem with the equality margin `δ = margin` (an equality `h` is
    /// satisfied where `|h| ≤ δ`; the default is the CEC's 10⁻⁴,
    /// [`crate::violation::DEFAULT_EQUALITY_MARGIN`]).
    ///
    /// ```
    /// use constraint_handling::problem::{ConstrainedProblem, FnProblem};
    /// let p = FnProblem::new(vec![-1.0], vec![1.0], 0, 1, |x, c| { c[0] = x[0]; Ok(0.0) })?
    ///     .with_equality_margin(1e-8)?;
    /// assert_eq!(p.equality_margin(), 1e-8);
    /// assert!(p.clone().with_equality_margin(f64::NAN).is_err());
    /// # Ok::<(), constraint_handling::ProblemError>(())
    /// ```
    ///
    /// # Errors
    /// [`ProblemError::Evaluation`] for a margin that is not a finite number `≥ 0`.
    pub fn with_equality_margin(mut self, margin: f64) -> Result<Self, ProblemError> {
        super::wrapper::check_margin(margin)?;
        self.shape.equality_margin = margin;
        Ok(self)
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
    fn equality_margin(&self) -> f64 {
        self.shape.equality_margin
    }
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        (self.evaluate)(x, constraints)
    }
}
