//! A problem's shape: what an optimizer knows of it without evaluating it.

use super::{validate_bounds, ConstrainedProblem, JacobianSource, ProblemError};
use serde::{Deserialize, Serialize};

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
    /// ([`super::ConstraintJacobian`]) or forward differences (the default).
    #[serde(default)]
    pub jacobian: JacobianSource,
    /// Whether the problem gives the gradient of its objective
    /// ([`super::ObjectiveGradient`]); a saved shape without the field reads as `false`.
    #[serde(default)]
    pub gradient: bool,
}

impl ProblemShape {
    /// The shape of a problem with these bounds and constraint counts, and the default
    /// equality margin.
    ///
    /// # Errors
    /// [`ProblemError::InvalidBounds`] as [`super::validate_bounds`].
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
            gradient: false,
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

    /// The same shape, with the objective's gradient given (`true`) or not.
    #[must_use]
    pub fn with_gradient(self, gradient: bool) -> Self {
        Self { gradient, ..self }
    }

    /// Whether the local phase can build its models from derivatives: the objective's
    /// gradient is given, and the constraint Jacobian too where there are constraints.
    #[must_use]
    pub fn has_derivatives(&self) -> bool {
        self.gradient && (self.num_constraints() == 0 || self.jacobian == JacobianSource::Exact)
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
            gradient: problem.objective_gradient().is_some(),
            ..Self::new(
                lb.to_vec(),
                ub.to_vec(),
                problem.num_inequalities(),
                problem.num_equalities(),
            )?
        })
    }

    /// What differs between this shape and `other`, named (the dimension, a bound,
    /// a constraint count, the equality margin), or `None` where they agree; the
    /// derivatives given (the Jacobian source, the gradient) are not compared.
    ///
    /// ```
    /// use constraint_handling::problem::ProblemShape;
    /// let a = ProblemShape::new(vec![0.0; 2], vec![1.0; 2], 1, 0).unwrap();
    /// let mut b = a.clone();
    /// assert_eq!(a.difference(&b), None);
    /// b.equality_margin = 1e-8;
    /// assert_eq!(a.difference(&b).unwrap(), "the equality margin is 0.0001 here, 0.00000001 there");
    /// ```
    #[must_use]
    pub fn difference(&self, other: &Self) -> Option<String> {
        if self.dim() != other.dim() {
            return Some(format!(
                "the dimension is {} here, {} there",
                self.dim(),
                other.dim()
            ));
        }
        for (side, a, b) in [
            ("lower", &self.lower, &other.lower),
            ("upper", &self.upper, &other.upper),
        ] {
            if let Some(i) = (0..a.len()).find(|&i| a[i].to_bits() != b[i].to_bits()) {
                return Some(format!(
                    "the {side} bound of x[{i}] is {} here, {} there",
                    a[i], b[i]
                ));
            }
        }
        if self.inequalities != other.inequalities {
            return Some(format!(
                "the inequalities number {} here, {} there",
                self.inequalities, other.inequalities
            ));
        }
        if self.equalities != other.equalities {
            return Some(format!(
                "the equalities number {} here, {} there",
                self.equalities, other.equalities
            ));
        }
        if self.equality_margin.to_bits() != other.equality_margin.to_bits() {
            return Some(format!(
                "the equality margin is {} here, {} there",
                decimal(self.equality_margin),
                decimal(other.equality_margin)
            ));
        }
        None
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

/// A margin as a plain decimal (`0.0001`, `0.00000001`), as users write it.
fn decimal(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || x.abs() >= 1e-3 {
        return format!("{x}");
    }
    let digits = (-x.abs().log10()).ceil() as usize + 15;
    let text = format!("{x:.digits$}");
    text.trim_end_matches('0').to_string()
}
