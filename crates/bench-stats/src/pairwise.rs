//! The pairwise comparison of a baseline `B` with a variant `S` on one problem
//! (docs/algorithm.md §6, Fig. 1 and Table 3 of the paper), and its aggregation over
//! problems (Tables 1, 2, 4, 5, A1).
//!
//! `h1` is the significance test on the final `f` values (run `i` of `B` paired with
//! run `i` of `S`), `h2` on the `ν̄` values; the original CEC ranking has
//! `h1 = h2 = 1`. A result of `+1` means "B better".
//!
//! - **Median rank.** Compare the median runs: if `h2 = 0`: `=` if `h1 = 0`, else the
//!   median `f`. Otherwise the median `ν̄`; if equal: `=` if `h1 = 0`, else the median `f`.
//! - **Mean rank.** With the feasibility rates: both 1: `=` if `h1 = 0`, else mean `f`.
//!   Equal and below 1: if `h2 = 0`, (`=` if `h1 = 0`, else mean `f`); else mean `ν̄`,
//!   and if equal (`=` if `h1 = 0`, else mean `f`). `FR_S < FR_B`: `+`; `FR_S > FR_B`: `−`.
//! - Comparing two numbers: the lower wins; equal numbers give `=`.
//! - **Total rank** `= sign(median + mean)`.

use crate::cec::{mean, median_run};
use crate::error::StatsError;
use crate::wilcoxon::{ranksum_with_alpha, signrank_with_alpha, DEFAULT_ALPHA};
use constraint_handling::Snapshot;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The significance test behind `h1`, `h2`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "test")]
pub enum Significance {
    /// No test: the original CEC ranking (`h1 = h2 = 1`).
    None,
    /// The Wilcoxon signed-rank test pairing runs by index (the paper's choice).
    SignedRank {
        /// Significance level.
        alpha: f64,
    },
    /// The Wilcoxon rank-sum test (independent samples, no pairing by index).
    RankSum {
        /// Significance level.
        alpha: f64,
    },
}

impl Default for Significance {
    fn default() -> Self {
        Self::SignedRank {
            alpha: DEFAULT_ALPHA,
        }
    }
}

impl Significance {
    /// `h` for the two samples.
    ///
    /// # Errors
    /// The test's errors (lengths, empty samples).
    pub fn differs(&self, a: &[f64], b: &[f64]) -> Result<bool, StatsError> {
        Ok(match *self {
            Self::None => true,
            Self::SignedRank { alpha } => signrank_with_alpha(a, b, alpha)?.h,
            Self::RankSum { alpha } => ranksum_with_alpha(a, b, alpha)?.h,
        })
    }
}

/// `+1` (baseline better), `0` (tie), `−1` (variant better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "i8", try_from = "i8")]
pub enum Verdict {
    /// The variant is better.
    Minus = -1,
    /// No difference.
    Equal = 0,
    /// The baseline is better.
    Plus = 1,
}

impl From<Verdict> for i8 {
    fn from(v: Verdict) -> i8 {
        v as i8
    }
}

impl TryFrom<i8> for Verdict {
    type Error = String;
    fn try_from(v: i8) -> Result<Self, String> {
        match v {
            -1 => Ok(Self::Minus),
            0 => Ok(Self::Equal),
            1 => Ok(Self::Plus),
            other => Err(format!("verdict {other} is not −1, 0 or 1")),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Plus => "+",
            Self::Equal => "=",
            Self::Minus => "−",
        })
    }
}

impl Verdict {
    /// Compares two numbers, the lower winning: `+` if the baseline's is lower.
    #[must_use]
    pub fn lower_wins(baseline: f64, variant: f64) -> Self {
        if baseline < variant {
            Self::Plus
        } else if baseline > variant {
            Self::Minus
        } else {
            Self::Equal
        }
    }

    /// `sign(a + b)`.
    #[must_use]
    pub fn total(a: Self, b: Self) -> Self {
        match (a as i8 + b as i8).signum() {
            1 => Self::Plus,
            -1 => Self::Minus,
            _ => Self::Equal,
        }
    }
}

/// The outcome of one baseline-vs-variant comparison.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Median rank.
    pub median: Verdict,
    /// Mean rank.
    pub mean: Verdict,
    /// Total rank `sign(median + mean)`.
    pub total: Verdict,
    /// `h1`: the final `f` values differ significantly.
    pub h_objective: bool,
    /// `h2`: the final `ν̄` values differ significantly.
    pub h_violation: bool,
}

/// Compares baseline `b` with variant `s` on one problem.
///
/// # Errors
/// [`StatsError::Empty`] for no runs; [`StatsError::LengthMismatch`] if the signed-rank
/// test is used and the run counts differ.
///
/// ```
/// use bench_stats::Snapshot;
/// use bench_stats::pairwise::{compare, Significance, Verdict};
/// let b: Vec<Snapshot> = (0..25).map(|i| Snapshot::new(1.0 + i as f64 * 1e-3, 0.0)).collect();
/// let s: Vec<Snapshot> = (0..25).map(|i| Snapshot::new(2.0 + i as f64 * 1e-3, 0.0)).collect();
/// let c = compare(&b, &s, Significance::default()).unwrap();
/// assert_eq!((c.median, c.mean, c.total), (Verdict::Plus, Verdict::Plus, Verdict::Plus));
/// ```
pub fn compare(
    b: &[Snapshot],
    s: &[Snapshot],
    significance: Significance,
) -> Result<Comparison, StatsError> {
    if b.is_empty() || s.is_empty() {
        return Err(StatsError::Empty(
            "a comparison needs runs of both algorithms",
        ));
    }
    let f = |r: &[Snapshot]| r.iter().map(|x| x.objective()).collect::<Vec<f64>>();
    let v = |r: &[Snapshot]| r.iter().map(|x| x.violation()).collect::<Vec<f64>>();
    let h1 = significance.differs(&f(b), &f(s))?;
    let h2 = significance.differs(&v(b), &v(s))?;
    let by_objective = |bf: f64, sf: f64| {
        if h1 {
            Verdict::lower_wins(bf, sf)
        } else {
            Verdict::Equal
        }
    };

    let (mb, ms) = (median_run(b)?, median_run(s)?);
    let median = if !h2 {
        by_objective(mb.objective(), ms.objective())
    } else {
        match Verdict::lower_wins(mb.violation(), ms.violation()) {
            Verdict::Equal => by_objective(mb.objective(), ms.objective()),
            other => other,
        }
    };

    let fr = |r: &[Snapshot]| r.iter().filter(|x| x.is_feasible()).count() as f64 / r.len() as f64;
    let (fr_b, fr_s) = (fr(b), fr(s));
    let mean_f = |r: &[Snapshot]| mean(r.iter().map(|x| x.objective()));
    let mean_v = |r: &[Snapshot]| mean(r.iter().map(|x| x.violation()));
    let mean_rank = if fr_s < fr_b {
        Verdict::Plus
    } else if fr_s > fr_b {
        Verdict::Minus
    } else if fr_b == 1.0 || !h2 {
        by_objective(mean_f(b), mean_f(s))
    } else {
        match Verdict::lower_wins(mean_v(b), mean_v(s)) {
            Verdict::Equal => by_objective(mean_f(b), mean_f(s)),
            other => other,
        }
    };
    Ok(Comparison {
        median,
        mean: mean_rank,
        total: Verdict::total(median, mean_rank),
        h_objective: h1,
        h_violation: h2,
    })
}

/// Counts of `+`, `=`, `−` over problems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Problems on which the baseline is better.
    pub plus: usize,
    /// Ties.
    pub equal: usize,
    /// Problems on which the variant is better.
    pub minus: usize,
}

impl Tally {
    /// Counts the verdicts.
    pub fn of(verdicts: impl IntoIterator<Item = Verdict>) -> Self {
        let mut t = Self::default();
        for v in verdicts {
            match v {
                Verdict::Plus => t.plus += 1,
                Verdict::Equal => t.equal += 1,
                Verdict::Minus => t.minus += 1,
            }
        }
        t
    }

    /// `plus + equal + minus`.
    #[must_use]
    pub fn total(&self) -> usize {
        self.plus + self.equal + self.minus
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.plus, self.equal, self.minus)
    }
}

/// Median, mean and total tallies of one variant over a set of problems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Median-rank tally.
    pub median: Tally,
    /// Mean-rank tally.
    pub mean: Tally,
    /// Total-rank tally.
    pub total: Tally,
}

impl Summary {
    /// Aggregates comparisons over problems.
    pub fn of<'a>(comparisons: impl IntoIterator<Item = &'a Comparison> + Clone) -> Self {
        Self {
            median: Tally::of(comparisons.clone().into_iter().map(|c| c.median)),
            mean: Tally::of(comparisons.clone().into_iter().map(|c| c.mean)),
            total: Tally::of(comparisons.into_iter().map(|c| c.total)),
        }
    }
}

/// The Table 2 cell: the total verdict, or on a total tie the ratio
/// `mRTgb(S)/mRTgb(B)` with four decimals (the reference's format; the paper prints two).
///
/// ```
/// use bench_stats::pairwise::{table2_cell, Verdict};
/// assert_eq!(table2_cell(Verdict::Plus, Some(1.0), Some(2.0)), "+");
/// assert_eq!(table2_cell(Verdict::Equal, Some(1000.0), Some(1234.5)), "1.2345");
/// assert_eq!(table2_cell(Verdict::Equal, None, Some(1.0)), "=");
/// ```
#[must_use]
pub fn table2_cell(total: Verdict, mrt_baseline: Option<f64>, mrt_variant: Option<f64>) -> String {
    match (total, mrt_baseline, mrt_variant) {
        (Verdict::Equal, Some(b), Some(s)) if b > 0.0 => format!("{:.4}", s / b),
        (v, _, _) => v.to_string(),
    }
}
