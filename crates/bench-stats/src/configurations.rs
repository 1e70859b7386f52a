//! Ranking many configurations (the population-size and `θ_r` studies, Figs. 9–12 of
//! the paper; docs/algorithm.md §6). No significance test takes part.
//!
//! Per problem, at the final checkpoint:
//! 1. mean rank: order the configurations by FR (higher first), then mean `ν̄`, then
//!    mean `f`;
//! 2. median rank: order them by their median run's `ν̄`, then its `f` (`f` decides
//!    between equal `ν̄` even when both are infeasible);
//! 3. ties get the smallest position of their group (competition ranking 1, 2, 2, 4);
//! 4. score = mean rank + median rank; the problem's rank of each configuration is the
//!    competition rank of its score (lower is better) — the heat-map tiles.
//!
//! Overall: the average of a configuration's per-problem ranks (lower is better; equal
//! averages share the competition rank), and the number of problems on which it has
//! rank 1 (shared first places count).
//!
//! [`rank_on_problem_with_significance`] is the significance-aware reading of the
//! paper's Section 6 ("ranked with respect to the median and mean value comparison
//! mentioned above", "similar" scores sharing a rank): configuration `k`'s median
//! (mean) rank is one plus the number of other configurations that beat it in the
//! pairwise median (mean) comparison of [`crate::pairwise::compare`] — the
//! significance-tested rules of Section 4 — so configurations that do not differ
//! significantly share a rank. The score and the problem rank follow as above.

use crate::cec::{mean, median_run};
use crate::error::StatsError;
use crate::pairwise::{compare, Significance, Verdict};
use constraint_handling::Snapshot;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Compares two numbers ascending, NaN last.
fn asc(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// Competition ranks (1, 2, 2, 4) of `n` items under `cmp` (`Less` = better).
///
/// ```
/// use bench_stats::configurations::competition_ranks;
/// let scores = [3.0f64, 1.0, 3.0, 2.0];
/// assert_eq!(competition_ranks(4, |a, b| scores[a].total_cmp(&scores[b])), vec![3, 1, 3, 2]);
/// ```
pub fn competition_ranks(n: usize, cmp: impl Fn(usize, usize) -> Ordering) -> Vec<usize> {
    (0..n)
        .map(|i| 1 + (0..n).filter(|&j| cmp(j, i) == Ordering::Less).count())
        .collect()
}

/// The ranks of the configurations on one problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemRanking {
    /// Mean rank of each configuration.
    pub mean_rank: Vec<usize>,
    /// Median rank of each configuration.
    pub median_rank: Vec<usize>,
    /// `mean_rank + median_rank`.
    pub score: Vec<usize>,
    /// The competition rank of the score: the heat-map tile.
    pub rank: Vec<usize>,
}

impl ProblemRanking {
    /// Score (`mean_rank + median_rank`) and its competition rank.
    fn from_ranks(mean_rank: Vec<usize>, median_rank: Vec<usize>) -> Self {
        let score: Vec<usize> = mean_rank
            .iter()
            .zip(&median_rank)
            .map(|(a, b)| a + b)
            .collect();
        let rank = competition_ranks(score.len(), |a, b| score[a].cmp(&score[b]));
        Self {
            mean_rank,
            median_rank,
            score,
            rank,
        }
    }
}

/// Ranks configurations on one problem; `runs[k]` are configuration `k`'s runs.
///
/// # Errors
/// [`StatsError::Empty`] if there is no configuration or one has no runs.
///
/// ```
/// use bench_stats::Snapshot;
/// use bench_stats::configurations::rank_on_problem;
/// let good: Vec<_> = (0..5).map(|i| Snapshot::new(i as f64, 0.0)).collect();
/// let bad: Vec<_> = (0..5).map(|i| Snapshot::new(i as f64, 0.1)).collect();
/// let r = rank_on_problem(&[&bad, &good]).unwrap();
/// assert_eq!(r.rank, vec![2, 1]);
/// ```
pub fn rank_on_problem(runs: &[&[Snapshot]]) -> Result<ProblemRanking, StatsError> {
    if runs.is_empty() {
        return Err(StatsError::Empty("no configurations"));
    }
    if runs.iter().any(|r| r.is_empty()) {
        return Err(StatsError::Empty("a configuration has no runs"));
    }
    let fr: Vec<f64> = runs
        .iter()
        .map(|r| r.iter().filter(|x| x.is_feasible()).count() as f64 / r.len() as f64)
        .collect();
    let mv: Vec<f64> = runs
        .iter()
        .map(|r| mean(r.iter().map(|x| x.violation())))
        .collect();
    let mf: Vec<f64> = runs
        .iter()
        .map(|r| mean(r.iter().map(|x| x.objective())))
        .collect();
    let medians: Vec<Snapshot> = runs
        .iter()
        .map(|r| median_run(r).copied())
        .collect::<Result<_, _>>()?;
    let n = runs.len();
    let mean_rank = competition_ranks(n, |a, b| {
        asc(fr[b], fr[a])
            .then(asc(mv[a], mv[b]))
            .then(asc(mf[a], mf[b]))
    });
    let median_rank = competition_ranks(n, |a, b| {
        asc(medians[a].violation(), medians[b].violation())
            .then(asc(medians[a].objective(), medians[b].objective()))
    });
    Ok(ProblemRanking::from_ranks(mean_rank, median_rank))
}

/// Ranks configurations on one problem by significance-tested pairwise comparisons
/// (see the module documentation): `runs[k]` are configuration `k`'s runs.
///
/// # Errors
/// [`StatsError::Empty`] if there is no configuration or one has no runs;
/// [`StatsError::LengthMismatch`] for unequal run counts under the signed-rank test.
///
/// ```
/// use bench_stats::Snapshot;
/// use bench_stats::configurations::rank_on_problem_with_significance;
/// use bench_stats::pairwise::Significance;
/// let a: Vec<_> = (0..25).map(|i| Snapshot::new(1.0 + i as f64 * 1e-3, 0.0)).collect();
/// let b: Vec<_> = a.iter().rev().copied().collect(); // the same values, paired otherwise
/// let c: Vec<_> = (0..25).map(|i| Snapshot::new(5.0 + i as f64, 0.0)).collect();
/// let r = rank_on_problem_with_significance(&[&a, &b, &c], Significance::default()).unwrap();
/// assert_eq!(r.rank, vec![1, 1, 3]); // a and b do not differ significantly: they share rank 1
/// ```
pub fn rank_on_problem_with_significance(
    runs: &[&[Snapshot]],
    significance: Significance,
) -> Result<ProblemRanking, StatsError> {
    if runs.is_empty() {
        return Err(StatsError::Empty("no configurations"));
    }
    let n = runs.len();
    let (mut median_rank, mut mean_rank) = (vec![1; n], vec![1; n]);
    for k in 0..n {
        for j in (0..n).filter(|&j| j != k) {
            // Baseline j against variant k: Plus means j is better.
            let c = compare(runs[j], runs[k], significance)?;
            median_rank[k] += usize::from(c.median == Verdict::Plus);
            mean_rank[k] += usize::from(c.mean == Verdict::Plus);
        }
    }
    Ok(ProblemRanking::from_ranks(mean_rank, median_rank))
}

/// The overall ranking of configurations over the problems of a study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OverallRanking {
    /// The average per-problem rank of each configuration.
    pub average_rank: Vec<f64>,
    /// The competition rank of the averages.
    pub rank: Vec<usize>,
    /// The number of problems on which each configuration has rank 1.
    pub first_places: Vec<usize>,
}

/// Aggregates per-problem rankings (all over the same configurations).
///
/// # Errors
/// [`StatsError::Empty`] for no problems, [`StatsError::Inconsistent`] if the rankings
/// have different numbers of configurations.
pub fn overall(per_problem: &[ProblemRanking]) -> Result<OverallRanking, StatsError> {
    let first = per_problem
        .first()
        .ok_or(StatsError::Empty("no problems"))?;
    let n = first.rank.len();
    if per_problem.iter().any(|p| p.rank.len() != n) {
        return Err(StatsError::Inconsistent(
            "rankings over different configurations".into(),
        ));
    }
    let average_rank: Vec<f64> = (0..n)
        .map(|k| mean(per_problem.iter().map(|p| p.rank[k] as f64)))
        .collect();
    let rank = competition_ranks(n, |a, b| asc(average_rank[a], average_rank[b]));
    let first_places = (0..n)
        .map(|k| per_problem.iter().filter(|p| p.rank[k] == 1).count())
        .collect();
    Ok(OverallRanking {
        average_rank,
        rank,
        first_places,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(values: &[(f64, f64)]) -> Vec<Snapshot> {
        values.iter().map(|&(f, v)| Snapshot::new(f, v)).collect()
    }

    #[test]
    fn hand_made_problem() {
        // Three configurations, three runs each.
        // A: all feasible, f = 1, 2, 3      → FR 1, mean f 2,   median (0, 2)
        // B: all feasible, f = 0, 2, 10     → FR 1, mean f 4,   median (0, 2)
        // C: one infeasible run          → FR 2/3, sorted (f=0), (f=5), (ν̄=1): median (0, 5)
        let a = runs(&[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)]);
        let b = runs(&[(0.0, 0.0), (2.0, 0.0), (10.0, 0.0)]);
        let c = runs(&[(5.0, 0.0), (-1.0, 1.0), (0.0, 0.0)]);
        let r = rank_on_problem(&[&a, &b, &c]).unwrap();
        // mean rank: FR 1, 1, 2/3 → C last; A (mean f 2) before B (mean f 4).
        assert_eq!(r.mean_rank, vec![1, 2, 3]);
        // medians: A (0, 2), B (0, 2), C: sorted (0,0), (0,5), (1,·) → median (0, 5).
        assert_eq!(r.median_rank, vec![1, 1, 3]);
        assert_eq!(r.score, vec![2, 3, 6]);
        assert_eq!(r.rank, vec![1, 2, 3]);
    }

    #[test]
    fn ties_share_the_smallest_position_and_overall() {
        let a = runs(&[(1.0, 0.0)]);
        let b = runs(&[(1.0, 0.0)]);
        let c = runs(&[(0.5, 0.0)]);
        let p1 = rank_on_problem(&[&a, &b, &c]).unwrap();
        assert_eq!(p1.rank, vec![2, 2, 1]);
        let p2 = rank_on_problem(&[&c, &a, &b]).unwrap(); // a problem where A is best
        assert_eq!(p2.rank, vec![1, 2, 2]);
        let o = overall(&[p1, p2]).unwrap();
        assert_eq!(o.average_rank, vec![1.5, 2.0, 1.5]);
        assert_eq!(o.rank, vec![1, 3, 1]);
        assert_eq!(o.first_places, vec![1, 0, 1]);
        assert!(overall(&[]).is_err());
    }

    #[test]
    fn significance_aware_ranks_share_places_between_equals() {
        // Four configurations, 25 runs: A and B indistinguishable (same values in
        // another order), C clearly worse in f, D infeasible in every run.
        let base: Vec<f64> = (0..25).map(|i| 1.0 + f64::from(i) * 0.01).collect();
        let a: Vec<Snapshot> = base.iter().map(|&f| Snapshot::new(f, 0.0)).collect();
        let b: Vec<Snapshot> = base.iter().rev().map(|&f| Snapshot::new(f, 0.0)).collect();
        let c: Vec<Snapshot> = base.iter().map(|&f| Snapshot::new(f + 10.0, 0.0)).collect();
        let d: Vec<Snapshot> = base
            .iter()
            .map(|&f| Snapshot::new(f - 0.5, 1.0 + f))
            .collect();
        let r =
            rank_on_problem_with_significance(&[&a, &b, &c, &d], Significance::default()).unwrap();
        assert_eq!(r.median_rank, vec![1, 1, 3, 4]);
        assert_eq!(r.mean_rank, vec![1, 1, 3, 4]);
        assert_eq!(r.rank, vec![1, 1, 3, 4]);
        // The exact ranking separates A and B by their means' rounding; both see C, D.
        let exact = rank_on_problem(&[&a, &b, &c, &d]).unwrap();
        assert_eq!(&exact.rank[2..], &[3, 4]);
        assert!(rank_on_problem_with_significance(&[], Significance::default()).is_err());
    }

    #[test]
    fn infeasible_medians_compare_f_at_equal_violation() {
        let a = runs(&[(3.0, 0.5)]);
        let b = runs(&[(2.0, 0.5)]);
        let r = rank_on_problem(&[&a, &b]).unwrap();
        assert_eq!(r.median_rank, vec![2, 1]);
        assert_eq!(r.mean_rank, vec![2, 1]);
    }
}
