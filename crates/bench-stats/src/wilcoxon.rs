//! Wilcoxon tests: the signed-rank test for paired samples with MATLAB `signrank`
//! semantics (docs/algorithm.md §6), and the rank-sum (Mann–Whitney U) test for
//! independent samples with MATLAB `ranksum` semantics.

use crate::error::StatsError;
use serde::{Deserialize, Serialize};

/// The default significance level `α = 0.05`.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// How the p-value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Exact null distribution (enumeration of sign assignments or rank subsets).
    Exact,
    /// Normal approximation.
    Approximate,
}

/// The outcome of a two-sided Wilcoxon test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// The two-sided p-value.
    pub p: f64,
    /// `p ≤ α`: the samples differ significantly.
    pub h: bool,
    /// Signed rank: `W⁺`, the sum of the ranks of the positive differences.
    /// Rank sum: the rank sum of the first sample.
    pub w_plus: f64,
    /// MATLAB's statistic: `min(W⁻, n(n+1)/2 − W⁻)` (signed rank), the rank sum of the
    /// smaller sample (rank sum).
    pub statistic: f64,
    /// The number of pairs (signed rank) or observations (rank sum) used.
    pub n: usize,
    /// Exact or approximate.
    pub method: Method,
}

/// MATLAB's `eps(v)`: the spacing of doubles at `|v|` (`eps(0)` is the smallest
/// subnormal, `eps(±∞)` and `eps(NaN)` are NaN).
///
/// ```
/// use bench_stats::wilcoxon::eps;
/// assert_eq!(eps(1.0), f64::EPSILON);
/// assert_eq!(eps(-1.5), f64::EPSILON);
/// assert_eq!(eps(0.0), 5e-324);
/// assert_eq!(eps(1e-300), 2f64.powi(-997) * 2f64.powi(-52));
/// assert_eq!(eps(f64::MAX), 2f64.powi(971));
/// assert!(eps(f64::INFINITY).is_nan());
/// ```
#[must_use]
pub fn eps(v: f64) -> f64 {
    let a = v.abs();
    if !a.is_finite() {
        return f64::NAN;
    }
    if a < f64::MIN_POSITIVE {
        return f64::from_bits(1);
    }
    // a = 2^e · 1.m  →  eps = 2^(e − 52), built from bits (powi would underflow via 1/2^k).
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let k = e - 52;
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// `Φ(z)`, the standard normal distribution function.
fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

fn check_alpha(alpha: f64) -> Result<(), StatsError> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(StatsError::Alpha(alpha.to_string()))
    }
}

/// Ranks of `values` (ascending, 1-based) with tie groups: after a stable sort,
/// neighbours `k`, `k+1` tie when `tied(k, k+1)`; a group gets the average of its
/// positions. Returns the ranks in input order and the sizes of the tie groups.
fn tied_ranks(values: &[f64], tied: impl Fn(usize, usize) -> bool) -> (Vec<f64>, Vec<usize>) {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        values[a]
            .partial_cmp(&values[b])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut ranks = vec![0.0; n];
    let mut groups = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start;
        while end + 1 < n && tied(order[end], order[end + 1]) {
            end += 1;
        }
        // positions start+1 ..= end+1
        let rank = (start + 1 + end + 1) as f64 / 2.0;
        for &i in &order[start..=end] {
            ranks[i] = rank;
        }
        groups.push(end - start + 1);
        start = end + 1;
    }
    (ranks, groups)
}

/// The two-sided Wilcoxon signed-rank test of `x − y` at `α = 0.05`, as MATLAB's
/// `signrank(x, y)`. See [`signrank_with_alpha`].
///
/// # Errors
/// As [`signrank_with_alpha`].
///
/// ```
/// use bench_stats::wilcoxon::{signrank, Method};
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let y = [0.0; 6];
/// let r = signrank(&x, &y).unwrap();
/// assert_eq!((r.w_plus, r.statistic, r.n, r.method), (21.0, 0.0, 6, Method::Exact));
/// assert_eq!(r.p, 2.0 / 64.0); // only the all-positive assignment has W' ≤ 0
/// assert!(r.h);
/// ```
pub fn signrank(x: &[f64], y: &[f64]) -> Result<TestResult, StatsError> {
    signrank_with_alpha(x, y, DEFAULT_ALPHA)
}

/// The two-sided Wilcoxon signed-rank test (docs/algorithm.md §6):
///
/// 1. pairs with a NaN difference are dropped; `d_i = x_i − y_i` with tolerance
///    `t_i = eps(x_i) + eps(y_i)`; pairs with `|d_i| < t_i` are dropped (ties to
///    zero); `n` pairs remain — none: `p = 1`;
/// 2. `|d_i|` are ranked ascending with tolerance ties (`|d|_(k) + t_(k) ≥
///    |d|_(k+1) − t_(k+1)`, chained), tie groups get average ranks; `W⁺`, `W⁻` are the
///    rank sums of positive and negative differences; `W = min(W⁻, n(n+1)/2 − W⁻)`;
/// 3. `n ≤ 15`: exact, `p = min(1, 2 P(W' ≤ W))` over the `2ⁿ` equally likely sign
///    assignments of the (tied) ranks;
/// 4. otherwise `z = (W − n(n+1)/4) / √((n(n+1)(2n+1) − T)/24)` with
///    `T = Σ s(s−1)(s+1)/2` over tie groups of size `s`, `p = 2 Φ(z)` (no continuity
///    correction);
/// 5. `h = p ≤ α`.
///
/// An infinite difference is kept and ranks last; its tolerance is NaN, so it ties
/// with nothing.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::Empty`] for empty samples,
/// [`StatsError::Alpha`] for `α ∉ (0, 1)`.
pub fn signrank_with_alpha(x: &[f64], y: &[f64], alpha: f64) -> Result<TestResult, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch(x.len(), y.len()));
    }
    if x.is_empty() {
        return Err(StatsError::Empty(
            "signed-rank test needs at least one pair",
        ));
    }
    check_alpha(alpha)?;
    let mut diffs = Vec::with_capacity(x.len());
    let mut tols = Vec::with_capacity(x.len());
    for (&a, &b) in x.iter().zip(y) {
        let d = a - b;
        if d.is_nan() {
            continue;
        }
        let t = eps(a) + eps(b);
        if d.abs() < t {
            continue;
        }
        diffs.push(d);
        tols.push(t);
    }
    let n = diffs.len();
    if n == 0 {
        return Ok(TestResult {
            p: 1.0,
            h: false,
            w_plus: 0.0,
            statistic: 0.0,
            n: 0,
            method: Method::Exact,
        });
    }
    let abs: Vec<f64> = diffs.iter().map(|d| d.abs()).collect();
    let (ranks, groups) = tied_ranks(&abs, |a, b| abs[a] + tols[a] >= abs[b] - tols[b]);
    let mut w_plus = 0.0;
    let mut w_minus = 0.0;
    for (d, r) in diffs.iter().zip(&ranks) {
        if *d > 0.0 {
            w_plus += r;
        } else {
            w_minus += r;
        }
    }
    let nf = n as f64;
    let total = nf * (nf + 1.0) / 2.0;
    let statistic = w_minus.min(total - w_minus);
    let (p, method) = if n <= 15 {
        (exact_signed_rank_p(&ranks, statistic), Method::Exact)
    } else {
        let ties: f64 = groups
            .iter()
            .map(|&s| {
                let s = s as f64;
                s * (s - 1.0) * (s + 1.0) / 2.0
            })
            .sum();
        let z = (statistic - nf * (nf + 1.0) / 4.0)
            / ((nf * (nf + 1.0) * (2.0 * nf + 1.0) - ties) / 24.0).sqrt();
        let p = (2.0 * normal_cdf(z)).min(1.0);
        (if p.is_nan() { 1.0 } else { p }, Method::Approximate)
    };
    Ok(TestResult {
        p,
        h: p <= alpha,
        w_plus,
        statistic,
        n,
        method,
    })
}

/// `min(1, 2 P(W' ≤ w))` where `W'` sums the ranks that get a minus sign, each of the
/// `2ⁿ` assignments equally likely. Ranks are multiples of ½, so doubled ranks are
/// integers and the distribution is counted exactly.
fn exact_signed_rank_p(ranks: &[f64], w: f64) -> f64 {
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let max: usize = doubled.iter().sum();
    let mut counts = vec![0u64; max + 1];
    counts[0] = 1;
    for &r in &doubled {
        for s in (r..=max).rev() {
            counts[s] += counts[s - r];
        }
    }
    let limit = (2.0 * w).round() as usize;
    let below: u64 = counts.iter().take(limit.min(max) + 1).sum();
    let all = 2f64.powi(ranks.len() as i32);
    (2.0 * below as f64 / all).min(1.0)
}

/// The two-sided Wilcoxon rank-sum (Mann–Whitney U) test of independent samples at
/// `α = 0.05`, as MATLAB's `ranksum(x, y)`; see [`ranksum_with_alpha`].
///
/// # Errors
/// As [`ranksum_with_alpha`].
///
/// ```
/// use bench_stats::wilcoxon::ranksum;
/// let r = ranksum(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
/// assert_eq!(r.statistic, 6.0);
/// assert_eq!(r.p, 0.1); // 2 · 1/20: one of the C(6,3) = 20 rank subsets sums to 6
/// ```
pub fn ranksum(x: &[f64], y: &[f64]) -> Result<TestResult, StatsError> {
    ranksum_with_alpha(x, y, DEFAULT_ALPHA)
}

/// The two-sided Wilcoxon rank-sum test, the unpaired alternative to the signed-rank
/// test. NaN values are dropped; the samples are ranked together (average ranks for
/// exact ties); `W` is the rank sum of the smaller sample (of `x` if equal in size).
/// Exact when `min(n_x, n_y) < 10` and `n_x + n_y < 20` (enumeration of the rank
/// subsets, `p = min(1, 2 min(P(T ≤ W), P(T ≥ W)))`); otherwise the normal
/// approximation with tie correction and continuity correction:
/// `z = (W − E − ½ sign(W − E)) / σ_W`, `E = n_s (n + 1)/2`,
/// `σ_W² = n_x n_y (n + 1 − Σ(t³ − t)/(n(n − 1)))/12`, `p = 2 Φ(−|z|)`.
///
/// # Errors
/// [`StatsError::Empty`] if a sample has no non-NaN value; [`StatsError::Alpha`].
pub fn ranksum_with_alpha(x: &[f64], y: &[f64], alpha: f64) -> Result<TestResult, StatsError> {
    check_alpha(alpha)?;
    let xs: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
    let ys: Vec<f64> = y.iter().copied().filter(|v| !v.is_nan()).collect();
    if xs.is_empty() || ys.is_empty() {
        return Err(StatsError::Empty(
            "rank-sum test needs non-NaN values in both samples",
        ));
    }
    let (nx, ny) = (xs.len(), ys.len());
    let all: Vec<f64> = xs.iter().chain(&ys).copied().collect();
    let (ranks, groups) = tied_ranks(&all, |a, b| all[a] == all[b]);
    let w_x: f64 = ranks[..nx].iter().sum();
    let (small, small_ranks) = if nx <= ny {
        (nx, &ranks[..nx])
    } else {
        (ny, &ranks[nx..])
    };
    let w: f64 = small_ranks.iter().sum();
    let n = nx + ny;
    let nf = n as f64;
    let (p, method) = if nx.min(ny) < 10 && n < 20 {
        // Enumerate the C(n, small) subsets of the (tied) ranks with doubled ranks.
        let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
        let max: usize = doubled.iter().sum();
        // counts[k][s]: subsets of size k with doubled sum s
        let mut counts = vec![vec![0u64; max + 1]; small + 1];
        counts[0][0] = 1;
        for &r in &doubled {
            for k in (1..=small).rev() {
                for s in (r..=max).rev() {
                    counts[k][s] += counts[k - 1][s - r];
                }
            }
        }
        let dist = &counts[small];
        let total: u64 = dist.iter().sum();
        let w2 = (2.0 * w).round() as usize;
        let lower: u64 = dist.iter().take(w2 + 1).sum();
        let upper: u64 = dist.iter().skip(w2).sum();
        let p = (2.0 * lower.min(upper) as f64 / total as f64).min(1.0);
        (p, Method::Exact)
    } else {
        let mean = small as f64 * (nf + 1.0) / 2.0;
        let ties: f64 = groups.iter().map(|&t| (t * t * t - t) as f64).sum();
        let var = nx as f64 * ny as f64 * ((nf + 1.0) - ties / (nf * (nf - 1.0))) / 12.0;
        let centered = w - mean;
        let z = (centered - 0.5 * centered.signum() * f64::from(u8::from(centered != 0.0)))
            / var.sqrt();
        let p = (2.0 * normal_cdf(-z.abs())).min(1.0);
        (if p.is_nan() { 1.0 } else { p }, Method::Approximate)
    };
    Ok(TestResult {
        p,
        h: p <= alpha,
        w_plus: w_x,
        statistic: w,
        n,
        method,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_samples_give_p_one() {
        let x = [1.0, 2.5, -3.0, 1e-300, 0.0];
        let r = signrank(&x, &x).unwrap();
        assert_eq!((r.p, r.h, r.n), (1.0, false, 0));
        assert_eq!(ranksum(&x, &x).unwrap().p, 1.0);
    }

    #[test]
    fn nan_pairs_are_dropped_and_bad_input_is_an_error() {
        let x = [1.0, f64::NAN, 3.0, 4.0];
        let y = [0.0, 0.0, f64::NAN, 1.0];
        let r = signrank(&x, &y).unwrap();
        assert_eq!(r.n, 2);
        assert_eq!(
            signrank(&[1.0], &[1.0, 2.0]).unwrap_err(),
            StatsError::LengthMismatch(1, 2)
        );
        assert!(matches!(signrank(&[], &[]), Err(StatsError::Empty(_))));
        assert!(signrank_with_alpha(&[1.0], &[2.0], 0.0).is_err());
        assert!(ranksum(&[f64::NAN], &[1.0]).is_err());
    }

    #[test]
    fn ulp_differences_are_zeros() {
        let x = [1.0, 2.0, 3.0];
        let y = [1.0 + f64::EPSILON, 2.0, 3.0 - 2.0 * f64::EPSILON];
        assert_eq!(signrank(&x, &y).unwrap().n, 0);
    }

    #[test]
    fn infinite_differences_rank_last() {
        let x = [f64::INFINITY, 1.0, 2.0];
        let y = [0.0, 0.0, 0.0];
        let r = signrank(&x, &y).unwrap();
        assert_eq!((r.n, r.w_plus), (3, 6.0));
    }

    #[test]
    fn rank_sum_matches_scipy() {
        // scipy.stats.mannwhitneyu(x, y, use_continuity=True, method="asymptotic"),
        // scipy 1.17.1: U = 97.0, p = 0.7506006845592502 (rank sum W = U + nx(nx+1)/2).
        let x: Vec<f64> = (0..12)
            .map(|i| (i * 7 % 13) as f64 + 0.5 * (i % 3) as f64)
            .collect();
        let y: Vec<f64> = (0..15).map(|i| (i * 5 % 11) as f64 + 1.0).collect();
        let r = ranksum(&x, &y).unwrap();
        assert_eq!(r.method, Method::Approximate);
        assert_eq!(r.w_plus - 78.0, 97.0);
        assert!((r.p - 0.7506006845592502).abs() < 1e-12, "{}", r.p);
        // method="exact" without ties: U = 7, p = 0.5555555555555556
        let r = ranksum(&[1.5, 2.0, 3.7, 8.0], &[4.0, 5.0, 6.0, 0.1, 9.5]).unwrap();
        assert_eq!((r.method, r.statistic - 10.0), (Method::Exact, 7.0));
        assert!((r.p - 0.5555555555555556).abs() < 1e-15, "{}", r.p);
    }
}
