//! One problem of the suite as a [`ConstrainedProblem`].

use crate::catalog::{self, ProblemInfo};
use crate::problems::{formula, Formulas, Lanes, LANES};
use crate::Cec2020Error;
use constraint_handling::autodiff::Dual;
use constraint_handling::problem::prepare_jacobian;
use constraint_handling::{ConstrainedProblem, ConstraintJacobian, JacobianSource, ProblemError};
use ndarray::ArrayViewMut2;

/// The largest dimension in the suite (RC36), and the most constraints (RC35, RC36):
/// the sizes of the Jacobian's scratch space on the stack.
const MAX_DIM: usize = 158;
const MAX_CONSTRAINTS: usize = 148;

/// Problem RC`k` of the CEC2020 real-world suite.
///
/// The constraint vector is `C = (g, h)`: the inequalities `g_i ≤ 0` first, then the
/// equalities `h_j = 0`, counted as in [`ProblemInfo`]. The mean violation is the
/// competition's `ν = (Σ max(0, g_i) + Σ_{|h_j| > 10⁻⁴} |h_j|) / (p + m)` (the workspace's
/// [`ConstrainedProblem::mean_violation`] with the default equality margin 10⁻⁴).
///
/// Every finite point, in or out of the box, gets a value or a
/// [`ProblemError::Evaluation`] that says why not (RC22, RC26 and RC30 select table
/// entries by rounded variables, which run off their tables outside the box).
/// Non-finite values are possible and are part of the problems as posed (for example
/// RC02's `(x₁ / (120 x₄))^0.6` at `x₄ = 0`, a corner of its box).
///
/// ```
/// use cec2020_rw::Cec2020Problem;
/// use constraint_handling::ConstrainedProblem;
///
/// let p = Cec2020Problem::new(18).unwrap(); // pressure vessel design
/// assert_eq!((p.dim(), p.num_inequalities(), p.num_equalities()), (4, 4, 0));
/// // the classic discrete design: thicknesses 13 · 0.0625 and 7 · 0.0625 (the problem
/// // rounds x₁, x₂ to multiples of 0.0625 itself), f ≈ 6059.71
/// let x = [13.0, 7.0, 42.0984456, 176.6365958];
/// let mut c = vec![0.0; 4];
/// let f = p.evaluate(&x, &mut c).unwrap();
/// assert!((f - 6059.7143).abs() < 1e-3);
/// assert!(p.mean_violation(&c) < 1e-9);
/// assert!(f > p.info().best_known); // Table 4's value, 5885.33
/// ```
///
/// # Exact Jacobians
///
/// [`Cec2020Problem::with_jacobian`]`(JacobianSource::Exact)` offers the constraints'
/// Jacobian ([`ConstraintJacobian`]), computed by forward-mode automatic
/// differentiation of the same formulas as the values (`constraint_handling::autodiff`):
/// an evaluation of the constraints with their derivatives, which the competition's
/// rules count as one evaluation. A new problem is a black box (the repairs take
/// forward differences), as in every study before the Jacobians existed.
///
/// Where a constraint is not differentiable, the derivative is the one of the branch
/// the values take: rounded variables (the integer and table-index variables of
/// RC08–RC14, RC15, RC22, RC26, RC28, RC30) contribute 0; `|v|` has derivative 0 at 0;
/// `max`/`min` that of the argument they return; a constraint the code sets to a
/// constant (RC24's 10⁴ where the linkage cannot close, RC26's 10⁶ for ±∞, RC27's +∞)
/// has derivative 0.
///
/// ```
/// use cec2020_rw::Cec2020Problem;
/// use constraint_handling::{ConstrainedProblem, JacobianSource};
/// use ndarray::Array2;
///
/// let p = Cec2020Problem::new(4).unwrap().with_jacobian(JacobianSource::Exact);
/// let x = [0.77, 0.52, 0.2, 0.38, 4.0, 9.0];
/// let mut jac = Array2::zeros((p.num_constraints(), p.dim()));
/// let mut c = vec![0.0; p.num_constraints()];
/// p.constraint_jacobian().unwrap().evaluate_jacobian(&x, Some(&mut c), jac.view_mut()).unwrap();
/// // g₁ = √x₅ + √x₆ − 4: ∂/∂x₅ = 1 / (2√x₅)
/// assert!((jac[[0, 4]] - 0.25).abs() < 1e-15);
/// ```
#[derive(Clone, Debug)]
pub struct Cec2020Problem {
    info: &'static ProblemInfo,
    lower: Vec<f64>,
    upper: Vec<f64>,
    formula: Formulas,
    jacobian: JacobianSource,
}

impl Cec2020Problem {
    /// Problem RC`k`, `k` in 1–57.
    ///
    /// # Errors
    /// [`Cec2020Error::UnknownProblem`] for any other `k`.
    pub fn new(k: usize) -> Result<Self, Cec2020Error> {
        let info = catalog::info(k).ok_or(Cec2020Error::UnknownProblem(k))?;
        let (lower, upper) = catalog::bounds(k).ok_or(Cec2020Error::UnknownProblem(k))?;
        let formula = formula(k).ok_or(Cec2020Error::UnknownProblem(k))?;
        Ok(Self {
            info,
            lower,
            upper,
            formula,
            jacobian: JacobianSource::Differences,
        })
    }

    /// The problem offering its exact constraint Jacobian
    /// ([`JacobianSource::Exact`]), or as a black box ([`JacobianSource::Differences`],
    /// the default).
    #[must_use]
    pub fn with_jacobian(mut self, source: JacobianSource) -> Self {
        self.jacobian = source;
        self
    }

    /// The problem's number, name, class, counts, budget and best-known value.
    #[must_use]
    pub fn info(&self) -> &'static ProblemInfo {
        self.info
    }
}

impl ConstrainedProblem for Cec2020Problem {
    fn dim(&self) -> usize {
        self.info.dim
    }

    fn num_inequalities(&self) -> usize {
        self.info.inequalities
    }

    fn num_equalities(&self) -> usize {
        self.info.equalities
    }

    fn lower_bounds(&self) -> &[f64] {
        &self.lower
    }

    fn upper_bounds(&self) -> &[f64] {
        &self.upper
    }

    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        let (g, h) = constraints.split_at_mut(self.info.inequalities);
        (self.formula.values)(x, g, h)
    }

    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        match self.jacobian {
            JacobianSource::Exact => Some(self),
            JacobianSource::Differences => None,
        }
    }
}

impl ConstraintJacobian for Cec2020Problem {
    /// `⌈D / 8⌉` passes of the formulas over dual numbers (8 columns each), and, if
    /// `values` is given, one over `f64` for the values exactly as
    /// [`ConstrainedProblem::evaluate`] computes them. No allocation.
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        prepare_jacobian(self, x, values, jacobian.dim())?;
        let (d, k) = (self.dim(), self.num_constraints());
        let mut xd = [Lanes::constant(0.0); MAX_DIM];
        let mut cd = [Lanes::constant(0.0); MAX_CONSTRAINTS];
        let (xd, cd) = (&mut xd[..d], &mut cd[..k]);
        for start in (0..d).step_by(LANES) {
            Dual::seed(x, start, xd);
            let (g, h) = cd.split_at_mut(self.info.inequalities);
            (self.formula.derivatives)(xd, g, h)?;
            Dual::write_columns(cd, start, jacobian.view_mut());
        }
        Ok(())
    }
}
