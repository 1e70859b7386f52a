//! The constraint violation `ν`, the mean violation `ν̄` and the CEC constraint counts
//! (docs/algorithm.md §1, "Violation").
//!
//! ```text
//! ν(x)  = Σ_i max(0, g_i(x)) + Σ_{j : |h_j(x)| > δ} |h_j(x)|
//! ν̄(x) = ν(x) / (l + m)
//! ```
//!
//! An equality within the margin `δ` contributes 0, one outside it its full `|h_j|`
//! (no subtraction of `δ`). All orderings, thresholds and statistics of the paper use
//! `ν̄`; a solution is feasible iff `ν̄ = 0`.
//!
//! **NaN policy.** The reference (MATLAB's `max(0, NaN) = 0`) would count a NaN
//! constraint value as satisfied. Here a NaN constraint value makes `ν` and `ν̄` NaN,
//! so that the candidate ranks last instead of passing as feasible. `+∞` values give
//! `ν = +∞`.

use serde::{Deserialize, Serialize};

/// The default equality margin `δ = 1e-4` of the CEC2017 rules.
pub const DEFAULT_EQUALITY_MARGIN: f64 = 1e-4;

/// The total violation `ν = Σ max(0, g_i) + Σ_{|h_j| > δ} |h_j|`.
///
/// The two sums are accumulated left to right and then added, as the reference does.
///
/// ```
/// use constraint_handling::violation::violation;
/// // g = (−1, 2), h = (5e-5, −3): the first equality is within δ = 1e-4.
/// assert_eq!(violation(&[-1.0, 2.0], &[5e-5, -3.0], 1e-4), 5.0);
/// ```
#[must_use]
pub fn violation(inequalities: &[f64], equalities: &[f64], delta: f64) -> f64 {
    let mut sum_g = 0.0;
    for &g in inequalities {
        sum_g += if g.is_nan() { f64::NAN } else { g.max(0.0) };
    }
    let mut sum_h = 0.0;
    for &h in equalities {
        let a = h.abs();
        if a.is_nan() {
            sum_h += f64::NAN;
        } else if a > delta {
            sum_h += a;
        }
    }
    sum_g + sum_h
}

/// The mean violation `ν̄ = ν / (l + m)`; 0 for a problem without constraints.
///
/// ```
/// use constraint_handling::violation::mean_violation;
/// assert_eq!(mean_violation(&[-1.0, 2.0], &[5e-5, -3.0], 1e-4), 5.0 / 4.0);
/// assert_eq!(mean_violation(&[], &[], 1e-4), 0.0);
/// ```
#[must_use]
pub fn mean_violation(inequalities: &[f64], equalities: &[f64], delta: f64) -> f64 {
    let count = inequalities.len() + equalities.len();
    if count == 0 {
        return 0.0;
    }
    violation(inequalities, equalities, delta) / count as f64
}

/// The constraint counts `c = (c1, c2, c3)` reported in CEC tables:
///
/// ```text
/// c1 = #{g_i > 1}           + #{|h_j| > 1}
/// c2 = #{0.01 < g_i < 1}    + #{0.01 < |h_j| < 1}
/// c3 = #{1e-4 < g_i < 0.01} + #{1e-4 < |h_j| < 0.01}
/// ```
///
/// The inequalities are strict as in the reference: values of exactly 1 or 0.01 are
/// counted nowhere. NaN values are counted nowhere.
///
/// ```
/// use constraint_handling::violation::ConstraintCounts;
/// let c = ConstraintCounts::from_constraints(&[2.0, 0.5, 1.0], &[-0.005, 1e-5]);
/// assert_eq!(c, ConstraintCounts { c1: 1, c2: 1, c3: 1 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConstraintCounts {
    /// Constraints violated by more than 1.
    pub c1: u32,
    /// Constraints violated by more than 0.01 and less than 1.
    pub c2: u32,
    /// Constraints violated by more than 1e-4 and less than 0.01.
    pub c3: u32,
}

impl ConstraintCounts {
    /// Counts the violated constraints of `C = (g, h)` by magnitude.
    #[must_use]
    pub fn from_constraints(inequalities: &[f64], equalities: &[f64]) -> Self {
        let mut counts = Self::default();
        let values = inequalities
            .iter()
            .copied()
            .chain(equalities.iter().map(|h| h.abs()));
        for v in values {
            if v > 1.0 {
                counts.c1 += 1;
            } else if v > 0.01 && v < 1.0 {
                counts.c2 += 1;
            } else if v > 1e-4 && v < 0.01 {
                counts.c3 += 1;
            }
        }
        counts
    }

    /// The counts as the array `[c1, c2, c3]`.
    #[must_use]
    pub fn as_array(&self) -> [u32; 3] {
        [self.c1, self.c2, self.c3]
    }
}

impl From<[u32; 3]> for ConstraintCounts {
    fn from(c: [u32; 3]) -> Self {
        Self {
            c1: c[0],
            c2: c[1],
            c3: c[2],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_margin_is_strict_and_uses_the_full_value() {
        // |h| = δ exactly is within the margin; just above counts fully.
        assert_eq!(violation(&[], &[1e-4], 1e-4), 0.0);
        let above = 1e-4 + 1e-12;
        assert_eq!(violation(&[], &[-above], 1e-4), above);
    }

    #[test]
    fn satisfied_inequalities_contribute_nothing() {
        assert_eq!(violation(&[-5.0, 0.0, -0.0], &[], 1e-4), 0.0);
    }

    #[test]
    fn nan_constraint_makes_the_violation_nan() {
        assert!(violation(&[f64::NAN], &[], 1e-4).is_nan());
        assert!(mean_violation(&[0.0], &[f64::NAN], 1e-4).is_nan());
        assert_eq!(violation(&[f64::INFINITY], &[], 1e-4), f64::INFINITY);
        assert_eq!(violation(&[], &[f64::NEG_INFINITY], 1e-4), f64::INFINITY);
    }

    #[test]
    fn counts_leave_the_exact_thresholds_out() {
        let c = ConstraintCounts::from_constraints(&[1.0, 0.01, 1e-4, -3.0], &[-1.0, 0.01]);
        assert_eq!(c.as_array(), [0, 0, 0]);
        let c = ConstraintCounts::from_constraints(&[1.5, 0.02, 0.002], &[-1.5, -0.02, -0.002]);
        assert_eq!(c.as_array(), [2, 2, 2]);
        let c = ConstraintCounts::from_constraints(&[f64::NAN], &[f64::NAN]);
        assert_eq!(c.as_array(), [0, 0, 0]);
    }
}
