//! Box handling by reflection at the bounds (`keep_range`, docs/algorithm.md §2).
//!
//! For each component with width `w = ub − lb`:
//!
//! ```text
//! y < lb:  e = lb − y;  if e ≥ w: e ← e − ⌊e/w⌋·w;  y ← lb + e
//! y > ub:  e = y − ub;  if e ≥ w: e ← e − ⌊e/w⌋·w;  y ← ub − e
//! ```
//!
//! Components inside the box are untouched, so reflection is the identity inside.
//! A point several box widths away is folded back by the modulo step.
//!
//! Three guards make the map total for finite input without changing it elsewhere:
//! - a zero-width component (`lb = ub`) is set to `lb` (the formula would divide by 0);
//! - when `e/w` overflows or the formula's result leaves `[0, w]` (huge `e`), the exact
//!   remainder `e mod w` is used instead;
//! - the result is clamped into `[lb, ub]`: the modulo step can leave the box by one
//!   rounding error when `e/w` rounds up to an integer; the reference would return
//!   that point just outside the box.
//!
//! Non-finite input follows the formula: `±∞` becomes NaN (`∞ − ⌊∞/w⌋·w`), NaN stays NaN;
//! both count as a change (as in the reference, where `NaN ≠ NaN`).

use crate::problem::ProblemError;

/// Reflects one component into `[lb, ub]`; see the [module documentation](self).
///
/// ```
/// use constraint_handling::reflection::reflect_component;
/// assert_eq!(reflect_component(-1.5, -1.0, 1.0), -0.5);
/// assert_eq!(reflect_component(4.5, -1.0, 1.0), -0.5); // e = 3.5 → 1.5, y = 1 − 1.5
/// assert_eq!(reflect_component(0.3, -1.0, 1.0), 0.3);
/// assert_eq!(reflect_component(7.0, 2.0, 2.0), 2.0);  // zero width
/// ```
#[inline]
#[must_use]
pub fn reflect_component(y: f64, lb: f64, ub: f64) -> f64 {
    if y >= lb && y <= ub {
        return y;
    }
    let w = ub - lb;
    if w == 0.0 && !y.is_nan() {
        return lb;
    }
    if y.is_infinite() {
        // The reference's formula gives ∞ − ⌊∞/w⌋·w = NaN.
        return f64::NAN;
    }
    let fold = |e: f64| {
        if e < w {
            return e;
        }
        let r = e - (e / w).floor() * w;
        if r.is_finite() && (0.0..=w).contains(&r) {
            r
        } else {
            // e/w overflowed or lost all precision: the exact remainder (or the bound).
            let m = e % w;
            if m.is_finite() {
                m
            } else {
                0.0
            }
        }
    };
    let reflected = if y < lb {
        lb + fold(lb - y)
    } else if y > ub {
        ub - fold(y - ub)
    } else {
        // NaN: no comparison holds, the value passes through (and is reported as a change).
        return y;
    };
    if reflected.is_finite() {
        reflected.clamp(lb, ub)
    } else {
        reflected
    }
}

/// Reflects `y` into the box `[lower, upper]` in place (`keep_range` of the reference)
/// and returns whether any component changed.
///
/// # Errors
/// [`ProblemError::DimensionMismatch`] when the lengths differ.
///
/// ```
/// use constraint_handling::reflection::keep_range;
/// let mut y = [0.5, 12.0, -30.0];
/// let changed = keep_range(&mut y, &[-10.0; 3], &[10.0; 3]).unwrap();
/// assert!(changed);
/// assert_eq!(y, [0.5, 8.0, -10.0]); // −30: e = 20 = w folds to 0
/// ```
pub fn keep_range(y: &mut [f64], lower: &[f64], upper: &[f64]) -> Result<bool, ProblemError> {
    if y.len() != lower.len() || y.len() != upper.len() {
        return Err(ProblemError::DimensionMismatch {
            expected: lower.len().min(upper.len()),
            found: y.len(),
        });
    }
    // The common case, checked without branches: every component inside (NaN is not).
    let inside = y
        .iter()
        .zip(lower)
        .zip(upper)
        .fold(true, |all, ((&yi, &lb), &ub)| all & (yi >= lb) & (yi <= ub));
    if inside {
        return Ok(false);
    }
    let mut changed = false;
    for ((yi, &lb), &ub) in y.iter_mut().zip(lower).zip(upper) {
        let r = reflect_component(*yi, lb, ub);
        // `ŷ ≠ y` as the reference compares: NaN ≠ NaN, so a NaN component is a change.
        changed |= r != *yi;
        *yi = r;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_cases() {
        // Box [-100, 100], w = 200.
        assert_eq!(reflect_component(-150.0, -100.0, 100.0), -50.0);
        assert_eq!(reflect_component(250.0, -100.0, 100.0), -50.0);
        // Several widths away: e = 650 ≥ 200 → 650 − 3·200 = 50 → y = 100 − 50.
        assert_eq!(reflect_component(750.0, -100.0, 100.0), 50.0);
        // e = w exactly: ⌊e/w⌋ = 1 → e = 0 → y stays on the bound.
        assert_eq!(reflect_component(300.0, -100.0, 100.0), 100.0);
        assert_eq!(reflect_component(-300.0, -100.0, 100.0), -100.0);
        // The bounds themselves are inside.
        assert_eq!(reflect_component(100.0, -100.0, 100.0), 100.0);
    }

    #[test]
    fn non_finite_input() {
        assert!(reflect_component(f64::INFINITY, -1.0, 1.0).is_nan());
        assert!(reflect_component(f64::NEG_INFINITY, -1.0, 1.0).is_nan());
        assert!(reflect_component(f64::NAN, -1.0, 1.0).is_nan());
        let mut y = [f64::INFINITY, 0.0];
        assert!(keep_range(&mut y, &[-1.0; 2], &[1.0; 2]).unwrap());
        let mut y = [0.0, 0.5];
        assert!(!keep_range(&mut y, &[-1.0; 2], &[1.0; 2]).unwrap());
    }

    #[test]
    fn length_mismatch_is_an_error() {
        let mut y = [0.0; 3];
        assert!(keep_range(&mut y, &[0.0; 2], &[1.0; 2]).is_err());
    }
}
