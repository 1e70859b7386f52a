//! Per-problem CEC statistics (docs/algorithm.md §6).
//!
//! The runs are sorted by the reference lexicographic order on `(f, ν̄)` — a stable sort
//! on the key `(ν̄, f if ν̄ = 0 else 0)`, NaN last — and
//!
//! - best = `f` of the first, worst = `f` of the last;
//! - median = `f` of run `(runs + 1)/2` in that order (for an even number of runs the
//!   lower median, run `runs/2`), with its `c` and `ν̄`;
//! - mean and standard deviation (divisor `runs − 1`) of `f` over **all** runs;
//! - FR = fraction of runs with `ν̄ = 0`, vio = mean `ν̄`;
//! - mRTgb = mean over runs of the evaluation count at which the run's final best was
//!   found.
//!
//! Sums run left to right and are divided by the count.

use crate::error::StatsError;
use constraint_handling::ordering::{CandidateOrder, ReferenceLexicographic};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

pub use constraint_handling::Snapshot;

/// The reference lexicographic comparison of two runs (`Less` = better): feasible runs
/// by `f`, all others by `ν̄` alone; a NaN `f` or `ν̄` ranks last
/// ([`ReferenceLexicographic`], the order the strategy's ε0 subset uses too).
#[must_use]
pub fn compare_runs(a: &Snapshot, b: &Snapshot) -> Ordering {
    ReferenceLexicographic.compare(&a.fitness, &b.fitness)
}

/// The indices of `runs` from best to worst (stable reference lexicographic sort).
#[must_use]
pub fn reference_order(runs: &[Snapshot]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&i, &j| compare_runs(&runs[i], &runs[j]));
    order
}

/// The median run: run `(runs + 1)/2` (1-based) of the reference order; for an even
/// number of runs the lower median, run `runs/2`.
///
/// # Errors
/// [`StatsError::Empty`] for no runs.
pub fn median_run(runs: &[Snapshot]) -> Result<&Snapshot, StatsError> {
    if runs.is_empty() {
        return Err(StatsError::Empty("no runs"));
    }
    let order = reference_order(runs);
    Ok(&runs[order[median_position(runs.len())]])
}

/// The 0-based position of the median in the reference order of `n ≥ 1` runs: run
/// `(n + 1)/2` (1-based) for odd `n`, the lower median `n/2` for even `n`.
#[must_use]
pub fn median_position(n: usize) -> usize {
    n.div_ceil(2).saturating_sub(1)
}

/// Order-statistic positions `(lo, hi)` (0-based, in the reference order) of the
/// distribution-free confidence interval for the median of `n` runs at level
/// `1 − alpha`: `[x₍ₖ₎, x₍ₙ₋ₖ₊₁₎]` (1-based) with the largest `k ≥ 1` such that
/// `P(B ≤ k − 1) ≤ alpha/2` for `B ~ Binomial(n, ½)`. Its coverage is at least
/// `1 − alpha` for any continuous distribution (e.g. `n = 25`, `alpha = 0.05`: runs 8
/// and 18, coverage 95.7 %). `None` when `n` is too small for that level (the whole
/// sample would not cover it).
///
/// ```
/// use bench_stats::cec::median_interval_positions;
/// assert_eq!(median_interval_positions(25, 0.05), Some((7, 17)));
/// assert_eq!(median_interval_positions(5, 0.05), None);
/// ```
#[must_use]
pub fn median_interval_positions(n: usize, alpha: f64) -> Option<(usize, usize)> {
    if n == 0 || !(alpha > 0.0 && alpha < 1.0) {
        return None;
    }
    // P(B ≤ j) accumulated in log space-free form: C(n, j)/2ⁿ by the recurrence
    // C(n, j+1) = C(n, j)·(n − j)/(j + 1), starting from 2⁻ⁿ.
    let mut term = 0.5f64.powi(i32::try_from(n).ok()?);
    let mut cdf = 0.0;
    let mut k = 0; // the largest k with P(B ≤ k − 1) ≤ alpha/2
    for j in 0..n {
        cdf += term;
        if cdf <= alpha / 2.0 {
            k = j + 1;
        } else {
            break;
        }
        term *= (n - j) as f64 / (j + 1) as f64;
    }
    if k == 0 {
        return None;
    }
    // 1-based k → 0-based k − 1; the upper bound n − k + 1 (1-based) → n − k.
    Some((k - 1, n - k))
}

/// The runs bounding the distribution-free `1 − alpha` confidence interval of the median
/// run, in the reference order (see [`median_interval_positions`]).
///
/// # Errors
/// [`StatsError::Empty`] for too few runs to give an interval at that level.
pub fn median_interval(
    runs: &[Snapshot],
    alpha: f64,
) -> Result<(&Snapshot, &Snapshot), StatsError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(StatsError::Alpha(format!("{alpha}")));
    }
    let (lo, hi) = median_interval_positions(runs.len(), alpha).ok_or(StatsError::Empty(
        "too few runs for a confidence interval of the median",
    ))?;
    let order = reference_order(runs);
    Ok((&runs[order[lo]], &runs[order[hi]]))
}

/// Left-to-right mean.
pub(crate) fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for v in values {
        sum += v;
        count += 1;
    }
    sum / count as f64
}

/// The CEC statistics of one problem at one checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CecStatistics {
    /// Number of runs.
    pub runs: usize,
    /// `f` of the best run.
    pub best: f64,
    /// `f` of the median run.
    pub median: f64,
    /// `c` of the median run.
    pub median_counts: [u32; 3],
    /// `ν̄` of the median run.
    pub median_violation: f64,
    /// Mean `f` over all runs.
    pub mean: f64,
    /// Standard deviation of `f` (divisor `runs − 1`; 0 for one run).
    pub std: f64,
    /// `f` of the worst run.
    pub worst: f64,
    /// Feasibility rate: the fraction of runs with `ν̄ = 0`.
    pub feasibility_rate: f64,
    /// Mean `ν̄` over all runs.
    pub mean_violation: f64,
    /// meanRTgb: mean evaluation count at which the runs found their final best
    /// (`None` if a run does not record it).
    pub mean_rt_gb: Option<f64>,
}

impl CecStatistics {
    /// Computes the statistics of `runs`.
    ///
    /// # Errors
    /// [`StatsError::Empty`] for no runs.
    ///
    /// ```
    /// use bench_stats::cec::{CecStatistics, Snapshot};
    /// let runs = [Snapshot::new(3.0, 0.0), Snapshot::new(-1.0, 0.5), Snapshot::new(1.0, 0.0)];
    /// let s = CecStatistics::compute(&runs).unwrap();
    /// assert_eq!((s.best, s.median, s.worst), (1.0, 3.0, -1.0)); // feasible first
    /// assert_eq!(s.mean, 1.0);
    /// assert_eq!(s.feasibility_rate, 2.0 / 3.0);
    /// ```
    pub fn compute(runs: &[Snapshot]) -> Result<Self, StatsError> {
        if runs.is_empty() {
            return Err(StatsError::Empty("no runs"));
        }
        let order = reference_order(runs);
        let n = runs.len();
        let median = &runs[order[median_position(n)]];
        let mean_f = mean(runs.iter().map(|r| r.objective()));
        let std = if n > 1 {
            let mut ss = 0.0;
            for r in runs {
                let d = r.objective() - mean_f;
                ss += d * d;
            }
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let feasible = runs.iter().filter(|r| r.is_feasible()).count();
        let mean_rt_gb = runs
            .iter()
            .map(|r| r.found_at.map(|e| e as f64))
            .collect::<Option<Vec<f64>>>()
            .map(|v| mean(v.into_iter()));
        Ok(Self {
            runs: n,
            best: runs[order[0]].objective(),
            median: median.objective(),
            median_counts: median.counts.as_array(),
            median_violation: median.violation(),
            mean: mean_f,
            std,
            worst: runs[order[n - 1]].objective(),
            feasibility_rate: feasible as f64 / n as f64,
            mean_violation: mean(runs.iter().map(|r| r.violation())),
            mean_rt_gb,
        })
    }
}
