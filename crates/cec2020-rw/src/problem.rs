//! One problem of the suite as a [`ConstrainedProblem`].

use crate::catalog::{self, ProblemInfo};
use crate::problems::{formula, Formula};
use crate::Cec2020Error;
use constraint_handling::{ConstrainedProblem, ProblemError};

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
#[derive(Clone, Debug)]
pub struct Cec2020Problem {
    info: &'static ProblemInfo,
    lower: Vec<f64>,
    upper: Vec<f64>,
    formula: Formula,
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
        })
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
        (self.formula)(x, g, h)
    }
}
