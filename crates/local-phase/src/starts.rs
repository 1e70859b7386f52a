//! Where runs of the local phase start: the box's centre, or a point drawn uniformly in
//! the box. A coordinate with an infinite side takes `[max(l, −1), min(u, 1)]` instead.
//!
//! ```
//! use local_phase::starts::{centre, uniform_in_box};
//! use rand::SeedableRng;
//! let (lower, upper) = ([-5.0, 0.0], [5.0, f64::INFINITY]);
//! assert_eq!(centre(&lower, &upper), vec![0.0, 0.5]);
//! let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
//! let mut x = [0.0; 2];
//! uniform_in_box(&lower, &upper, &mut rng, &mut x);
//! assert!((-5.0..=5.0).contains(&x[0]) && (0.0..=1.0).contains(&x[1]));
//! ```

use rand::Rng;

/// `[l, u]` with an infinite side replaced by `±1` around the other.
fn finite(l: f64, u: f64) -> (f64, f64) {
    if l.is_finite() && u.is_finite() {
        (l, u)
    } else {
        (l.max(-1.0), u.min(1.0))
    }
}

/// The box's centre.
#[must_use]
pub fn centre(lower: &[f64], upper: &[f64]) -> Vec<f64> {
    lower
        .iter()
        .zip(upper)
        .map(|(&l, &u)| {
            let (l, u) = finite(l, u);
            0.5 * (l + u)
        })
        .collect()
}

/// A point drawn uniformly in the box, into `x` (one draw per coordinate whose side is
/// not a single point).
pub fn uniform_in_box(lower: &[f64], upper: &[f64], rng: &mut impl Rng, x: &mut [f64]) {
    for (x, (&l, &u)) in x.iter_mut().zip(lower.iter().zip(upper)) {
        let (l, u) = finite(l, u);
        *x = if u > l { rng.random_range(l..=u) } else { l };
    }
}
