//! The fast path against the exact path, statistically.
//!
//! The fast path (`--fast`: [`ma_es::noise::FastNoise`] normals and
//! [`cec2017_constrained::Fidelity::Fast`] `sin`/`cos`) draws other runs than the exact
//! path, so its results can only agree in distribution. [`PathCheck::compare`] tests
//! that, cell by cell: for each configuration and problem, the two-sided Wilcoxon
//! rank-sum test ([`bench_stats::wilcoxon::ranksum_with_alpha`]) of the final
//! best-so-far of the runs of each path, ordered as the CEC rules order them
//! ([`bench_stats::cec::compare_runs`]: feasible runs by `f`, the others by `ν̄`).
//!
//! If both paths sample the same distributions, each test rejects with probability
//! `α`, so the number of significant cells among `m` is `Binomial(m, α)`:
//! [`PathCheck::tail`] is the probability of at least as many as observed.
//!
//! ```
//! use emages::reproduction::path_check::binomial_tail;
//! // 196 cells at α = 0.05: 9.8 expected; 14 or more happen in ≈ 11 % of studies.
//! let p = binomial_tail(196, 0.05, 14);
//! assert!(p > 0.05 && p < 0.2);
//! assert_eq!(binomial_tail(196, 0.05, 0), 1.0);
//! ```

use crate::error::StudyError;
use crate::study::dataset::Dataset;
use bench_stats::cec::{compare_runs, reference_order};
use bench_stats::wilcoxon::ranksum_with_alpha;
use std::cmp::Ordering;
use std::fmt::Write as _;

/// One configuration on one problem: the rank-sum test of the two paths' runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CellCheck {
    /// Configuration label.
    pub config: String,
    /// Problem number.
    pub problem: usize,
    /// Runs of the exact and of the fast path.
    pub runs: (usize, usize),
    /// The two-sided p-value.
    pub p: f64,
    /// `p < α`.
    pub significant: bool,
    /// Whether the fast path's runs rank better (smaller rank sum) than the exact's.
    pub fast_better: bool,
}

/// The rank-sum tests of every cell both datasets have.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCheck {
    /// The significance level of each test.
    pub alpha: f64,
    /// The cells, by configuration and problem.
    pub cells: Vec<CellCheck>,
}

impl PathCheck {
    /// Tests every (configuration, problem) present in both datasets.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if the datasets are not one exact and one fast study of
    /// the same dimension and budget, or share no cell; the errors of the test.
    pub fn compare(exact: &Dataset, fast: &Dataset, alpha: f64) -> Result<Self, StudyError> {
        if exact.fast || !fast.fast {
            return Err(StudyError::Invalid(format!(
                "expected runs of the exact path first and of the fast path (--fast) second; got {} and {}",
                path_name(exact.fast),
                path_name(fast.fast)
            )));
        }
        if (exact.dim, exact.budget) != (fast.dim, fast.budget) {
            return Err(StudyError::Invalid(format!(
                "the studies differ: N = {}, budget {} against N = {}, budget {}",
                exact.dim, exact.budget, fast.dim, fast.budget
            )));
        }
        let mut cells = Vec::new();
        for config in exact.configs().intersection(&fast.configs()) {
            for problem in exact.problems().intersection(&fast.problems()) {
                let a: Vec<_> = exact
                    .runs(config, *problem)
                    .iter()
                    .map(|r| r.best)
                    .collect();
                let b: Vec<_> = fast.runs(config, *problem).iter().map(|r| r.best).collect();
                if a.is_empty() || b.is_empty() {
                    continue;
                }
                // Positions in the CEC order (ties share one), as the test's values.
                let all: Vec<_> = a.iter().chain(&b).copied().collect();
                let order = reference_order(&all);
                let mut value = vec![0.0; all.len()];
                for pair in order.windows(2) {
                    let tie = compare_runs(&all[pair[0]], &all[pair[1]]) == Ordering::Equal;
                    value[pair[1]] = value[pair[0]] + if tie { 0.0 } else { 1.0 };
                }
                let (va, vb) = value.split_at(a.len());
                let test = ranksum_with_alpha(va, vb, alpha)
                    .map_err(|e| StudyError::Invalid(e.to_string()))?;
                let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
                cells.push(CellCheck {
                    config: config.clone(),
                    problem: *problem,
                    runs: (a.len(), b.len()),
                    p: test.p,
                    significant: test.p < alpha,
                    fast_better: mean(vb) < mean(va),
                });
            }
        }
        if cells.is_empty() {
            return Err(StudyError::Invalid(
                "the two studies share no configuration and problem".into(),
            ));
        }
        Ok(Self { alpha, cells })
    }

    /// The number of significant cells.
    #[must_use]
    pub fn significant(&self) -> usize {
        self.cells.iter().filter(|c| c.significant).count()
    }

    /// The number expected if both paths sample the same distributions: `α m`.
    #[must_use]
    pub fn expected(&self) -> f64 {
        self.alpha * self.cells.len() as f64
    }

    /// `P(X ≥ significant)` for `X ~ Binomial(m, α)`.
    #[must_use]
    pub fn tail(&self) -> f64 {
        binomial_tail(self.cells.len(), self.alpha, self.significant())
    }

    /// A Markdown summary: one line in total; per configuration and in total, the
    /// cells, the significant ones (and in whose favour) and the binomial tail; then
    /// the significant cells.
    #[must_use]
    pub fn to_markdown(&self, label: &dyn Fn(usize) -> String) -> String {
        let mut configs: Vec<&str> = self.cells.iter().map(|c| c.config.as_str()).collect();
        configs.dedup();
        let mut s = format!(
            "{} cells, {} significant at α = {} ({:.1} expected), P(at least as many) = {:.2}.\n\n",
            self.cells.len(),
            self.significant(),
            self.alpha,
            self.expected(),
            self.tail()
        );
        let _ = write!(
            s,
            "| configuration | cells | significant at α = {} (fast better / worse) | expected | P(at least as many) |\n|---|---|---|---|---|\n",
            self.alpha
        );
        let mut row = |name: &str, cells: Vec<&CellCheck>| {
            let sig: Vec<_> = cells.iter().filter(|c| c.significant).collect();
            let better = sig.iter().filter(|c| c.fast_better).count();
            let _ = writeln!(
                s,
                "| {name} | {} | {} ({better} / {}) | {:.1} | {:.2} |",
                cells.len(),
                sig.len(),
                sig.len() - better,
                self.alpha * cells.len() as f64,
                binomial_tail(cells.len(), self.alpha, sig.len())
            );
        };
        for config in &configs {
            row(
                config,
                self.cells.iter().filter(|c| c.config == *config).collect(),
            );
        }
        row("**all**", self.cells.iter().collect());
        let sig: Vec<String> = self
            .cells
            .iter()
            .filter(|c| c.significant)
            .map(|c| {
                format!(
                    "{} on {} (p = {:.3}, fast {})",
                    c.config,
                    label(c.problem),
                    c.p,
                    if c.fast_better { "better" } else { "worse" }
                )
            })
            .collect();
        if !sig.is_empty() {
            let _ = writeln!(s, "\nSignificant cells: {}.", sig.join("; "));
        }
        s
    }
}

fn path_name(fast: bool) -> &'static str {
    if fast {
        "the fast path"
    } else {
        "the exact path"
    }
}

/// `P(X ≥ k)` for `X ~ Binomial(m, p)`.
#[must_use]
pub fn binomial_tail(m: usize, p: f64, k: usize) -> f64 {
    if k == 0 {
        return 1.0;
    }
    // pmf(j) by the recurrence pmf(j + 1) = pmf(j) (m − j)/(j + 1) · p/(1 − p).
    let mut pmf = (1.0 - p).powi(m as i32);
    let mut below = 0.0;
    for j in 0..k.min(m + 1) {
        below += pmf;
        pmf *= (m - j) as f64 / (j + 1) as f64 * p / (1.0 - p);
    }
    (1.0 - below).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tail_by_hand() {
        // Bin(2, ½): P(X ≥ 1) = ¾, P(X ≥ 2) = ¼, P(X ≥ 3) = 0.
        assert!((binomial_tail(2, 0.5, 1) - 0.75).abs() < 1e-15);
        assert!((binomial_tail(2, 0.5, 2) - 0.25).abs() < 1e-15);
        assert!(binomial_tail(2, 0.5, 3).abs() < 1e-15);
        // Bin(10, 0.1): P(X ≥ 3) = 1 − (0.9¹⁰ + 10 · 0.1 · 0.9⁹ + 45 · 0.01 · 0.9⁸).
        let exact = 1.0 - (0.9f64.powi(10) + 0.9f64.powi(9) + 0.45 * 0.9f64.powi(8));
        assert!((binomial_tail(10, 0.1, 3) - exact).abs() < 1e-14);
    }
}
