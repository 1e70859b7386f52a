//! How much a `+/=/−` tally would move with other runs: the nonparametric bootstrap
//! over runs.
//!
//! Each replicate draws, per problem, `n` run indices with replacement (the same indices
//! for both algorithms, keeping the index pairing of the signed-rank test), compares
//! the resampled runs with [`compare`] and tallies the verdicts over the problems. The
//! spread of the replicates' tallies estimates the sampling noise of a tally computed
//! from one set of runs — e.g. whether a published count differs from a measured one
//! by more than that noise.

use crate::error::StatsError;
use crate::pairwise::{compare, Significance, Summary};
use constraint_handling::Snapshot;
use rand::Rng;

/// The tallies of `replicates` bootstrap replicates of the comparisons of `pairs`
/// (per problem: the baseline's runs and the variant's, of equal length).
///
/// ```
/// use bench_stats::bootstrap::{quantile_range, resampled_summaries};
/// use bench_stats::Snapshot;
/// use bench_stats::pairwise::Significance;
/// use rand::SeedableRng;
///
/// let runs = |shift: f64| (0..25).map(|i| Snapshot::new(shift + (i as f64 * 0.37).sin(), 0.0)).collect::<Vec<_>>();
/// let pairs = vec![(runs(0.0), runs(1.0)), (runs(0.0), runs(0.05))];
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// let reps = resampled_summaries(&pairs, Significance::default(), 200, &mut rng).unwrap();
/// let plus: Vec<usize> = reps.iter().map(|s| s.total.plus).collect();
/// let (lo, hi) = quantile_range(&plus, 0.05);
/// assert!(lo >= 1 && hi <= 2); // the clear difference always counts
/// ```
///
/// # Errors
/// [`StatsError::LengthMismatch`] for pairs of different run counts, [`StatsError::Empty`]
/// for no runs, and the errors of [`compare`].
pub fn resampled_summaries<R: Rng + ?Sized>(
    pairs: &[(Vec<Snapshot>, Vec<Snapshot>)],
    significance: Significance,
    replicates: usize,
    rng: &mut R,
) -> Result<Vec<Summary>, StatsError> {
    for (b, s) in pairs {
        if b.len() != s.len() {
            return Err(StatsError::LengthMismatch(b.len(), s.len()));
        }
        if b.is_empty() {
            return Err(StatsError::Empty("a problem without runs"));
        }
    }
    let mut out = Vec::with_capacity(replicates);
    let (mut rb, mut rs) = (Vec::new(), Vec::new());
    for _ in 0..replicates {
        let mut comparisons = Vec::with_capacity(pairs.len());
        for (b, s) in pairs {
            rb.clear();
            rs.clear();
            for _ in 0..b.len() {
                let i = rng.random_range(0..b.len());
                rb.push(b[i]);
                rs.push(s[i]);
            }
            comparisons.push(compare(&rb, &rs, significance)?);
        }
        out.push(Summary::of(&comparisons));
    }
    Ok(out)
}

/// The central `1 − alpha` range of `values` (counts, or signed differences): the
/// order statistics at `alpha/2` and `1 − alpha/2` (nearest rank). `(0, 0)` for no
/// values.
#[must_use]
pub fn quantile_range<T: Copy + Ord + Default>(values: &[T], alpha: f64) -> (T, T) {
    if values.is_empty() {
        return (T::default(), T::default());
    }
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    let rank = |q: f64| {
        let r = (q * n as f64).ceil() as usize;
        v[r.clamp(1, n) - 1]
    };
    (rank(alpha / 2.0), rank(1.0 - alpha / 2.0))
}

/// How far two independent studies' values of one statistic lie apart: the central
/// `1 − alpha` range of `x_i − x_{i+h}`, `h = ⌊n/2⌋`, over the bootstrap replicates
/// `x` (the first half against the second, `h` independent pairs).
///
/// A published figure minus the measured one lies in this range if the two differ
/// by no more than two independent studies of the same setting do — the sampling
/// noise of both sides, about √2 that of one study.
///
/// ```
/// use bench_stats::bootstrap::two_study_range;
/// // Replicates 3, 5 | 4, 4: the differences −1 and +1.
/// assert_eq!(two_study_range(&[3, 5, 4, 4], 0.05), (-1, 1));
/// assert_eq!(two_study_range(&[7], 0.05), (0, 0));
/// ```
#[must_use]
pub fn two_study_range(values: &[usize], alpha: f64) -> (i64, i64) {
    let h = values.len() / 2;
    let d: Vec<i64> = (0..h)
        .map(|i| values[i] as i64 - values[i + h] as i64)
        .collect();
    quantile_range(&d, alpha)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn quantiles_by_nearest_rank() {
        let v: Vec<usize> = (1..=100).collect();
        assert_eq!(quantile_range(&v, 0.05), (3, 98));
        assert_eq!(quantile_range(&[7], 0.05), (7, 7));
        assert_eq!(quantile_range(&[], 0.05), (0, 0));
    }

    #[test]
    fn replicates_are_reproducible_and_check_their_input() {
        let runs = |shift: f64| {
            (0..20)
                .map(|i| Snapshot::new(shift + f64::from(i % 7), 0.0))
                .collect::<Vec<_>>()
        };
        let pairs = vec![(runs(0.0), runs(0.5)), (runs(0.0), runs(0.0))];
        let draw = |seed| {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            resampled_summaries(&pairs, Significance::default(), 50, &mut rng).unwrap()
        };
        assert_eq!(draw(3), draw(3));
        assert_eq!(draw(3).len(), 50);
        // The identical pair never differs significantly: always "=".
        for s in draw(3) {
            assert!(s.total.equal >= 1);
        }
        let bad = vec![(runs(0.0), runs(0.0)[..5].to_vec())];
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        assert!(resampled_summaries(&bad, Significance::default(), 1, &mut rng).is_err());
    }
}
