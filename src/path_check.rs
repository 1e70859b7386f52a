//! The fast path against the exact path — or any two studies of one setting —
//! statistically.
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
//! [`PathCheck::between`] compares any two studies of the same setting the same way,
//! e.g. one study computed with two OpenBLAS kernels. Where both hold a run with the
//! same configuration, problem and seed, [`PathCheck::paired`] sets the two side by
//! side ([`Paired`]): how many end on the same `f` and `ν̄`, and whether the others lean
//! to one study (a two-sided sign test).
//!
//! ```
//! use emages_paper::path_check::binomial_tail;
//! // 196 cells at α = 0.05: 9.8 expected; 14 or more happen in ≈ 11 % of studies.
//! let p = binomial_tail(196, 0.05, 14);
//! assert!(p > 0.05 && p < 0.2);
//! assert_eq!(binomial_tail(196, 0.05, 0), 1.0);
//! ```

use bench_stats::cec::{compare_runs, reference_order};
use bench_stats::wilcoxon::ranksum_with_alpha;
use constraint_handling::quality::Snapshot;
use emages_harness::study::Dataset;
use emages_harness::StudyError;
use std::cmp::Ordering;
use std::fmt::Write as _;

/// One configuration on one problem: the rank-sum test of the two paths' runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CellCheck {
    /// Configuration label.
    pub config: String,
    /// Problem number.
    pub problem: usize,
    /// Runs of the first and of the second study (the exact and the fast path in
    /// [`PathCheck::compare`]).
    pub runs: (usize, usize),
    /// The two-sided p-value.
    pub p: f64,
    /// `p < α`.
    pub significant: bool,
    /// Whether the second study's runs (the fast path's in [`PathCheck::compare`]) rank
    /// better (smaller mean rank) than the first's.
    pub second_better: bool,
}

/// The runs two studies both hold (same configuration, problem and seed), compared
/// pair by pair in the CEC order ([`compare_runs`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Pairs compared.
    pub runs: usize,
    /// Pairs that end on the same `f` and `ν̄`, bit for bit.
    pub identical: usize,
    /// Pairs that end equal in the CEC order without being identical (e.g. two
    /// infeasible runs of the same `ν̄`).
    pub tied: usize,
    /// Pairs whose first-study run ends better.
    pub first_better: usize,
    /// Pairs whose second-study run ends better.
    pub second_better: usize,
}

impl Paired {
    /// The two-sided sign test of the pairs that differ: `P(|X − n/2| ≥ |k − n/2|)` for
    /// `X ~ Binomial(n, ½)`, `n` the pairs with a better run and `k` those where the
    /// second study's is better; 1 when no pair differs.
    ///
    /// ```
    /// use emages_paper::path_check::Paired;
    /// // 9 of 10 pairs lean one way: P = 2 (1 + 10)/2¹⁰ = 0.0215.
    /// let p = Paired { runs: 10, first_better: 1, second_better: 9, ..Paired::default() };
    /// assert!((p.sign_test() - 22.0 / 1024.0).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn sign_test(&self) -> f64 {
        let n = self.first_better + self.second_better;
        let k = self.first_better.max(self.second_better);
        if n == 0 {
            return 1.0;
        }
        (2.0 * binomial_tail(n, 0.5, k)).min(1.0)
    }
}

/// The rank-sum tests of every cell both datasets have.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCheck {
    /// The significance level of each test.
    pub alpha: f64,
    /// The names of the two studies in the text (`exact` and `fast` for
    /// [`PathCheck::compare`]).
    pub names: [String; 2],
    /// The cells, by configuration and problem.
    pub cells: Vec<CellCheck>,
    /// The runs both studies hold with the same seed, pair by pair.
    pub paired: Paired,
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
        Self::between(exact, fast, ["exact", "fast"], alpha)
    }

    /// Tests every (configuration, problem) present in two studies of the same setting,
    /// named `names` in the text (e.g. the OpenBLAS kernels they ran with), and
    /// compares their runs of the same seed pair by pair.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if the datasets differ in dimension or budget, or share
    /// no cell; the errors of the test.
    pub fn between(
        first: &Dataset,
        second: &Dataset,
        names: [&str; 2],
        alpha: f64,
    ) -> Result<Self, StudyError> {
        if (first.dim, first.budget) != (second.dim, second.budget) {
            return Err(StudyError::Invalid(format!(
                "the studies differ: N = {}, budget {} against N = {}, budget {}",
                first.dim, first.budget, second.dim, second.budget
            )));
        }
        let mut paired = Paired::default();
        let mut cells = Vec::new();
        let second_configs = second.configs();
        let first_configs = first.configs();
        let mut configs: Vec<&String> = first_configs.intersection(&second_configs).collect();
        configs.sort_by(|a, b| natural_order(a, b));
        for config in configs {
            for problem in first.problems().intersection(&second.problems()) {
                let (ra, rb) = (first.runs(config, *problem), second.runs(config, *problem));
                if ra.is_empty() || rb.is_empty() {
                    continue;
                }
                for x in ra {
                    if let Some(y) = rb.iter().find(|y| y.seed == x.seed) {
                        paired.add(&x.best, &y.best);
                    }
                }
                let a: Vec<_> = ra.iter().map(|r| r.best).collect();
                let b: Vec<_> = rb.iter().map(|r| r.best).collect();
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
                    second_better: mean(vb) < mean(va),
                });
            }
        }
        if cells.is_empty() {
            return Err(StudyError::Invalid(
                "the two studies share no configuration and problem".into(),
            ));
        }
        Ok(Self {
            alpha,
            names: names.map(str::to_owned),
            cells,
            paired,
        })
    }

    /// The number of significant cells.
    #[must_use]
    pub fn significant(&self) -> usize {
        self.cells.iter().filter(|c| c.significant).count()
    }

    /// The number expected if both studies sample the same distributions: `α m`.
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
            "| configuration | cells | significant at α = {} ({} better / worse) | expected | P(at least as many) |\n|---|---|---|---|---|\n",
            self.alpha, self.names[1]
        );
        let mut row = |name: &str, cells: Vec<&CellCheck>| {
            let sig: Vec<_> = cells.iter().filter(|c| c.significant).collect();
            let better = sig.iter().filter(|c| c.second_better).count();
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
                    "{} on {} (p = {:.3}, {} {})",
                    c.config,
                    label(c.problem),
                    c.p,
                    self.names[1],
                    if c.second_better { "better" } else { "worse" }
                )
            })
            .collect();
        if !sig.is_empty() {
            let _ = writeln!(s, "\nSignificant cells: {}.", sig.join("; "));
        }
        let p = &self.paired;
        if p.runs > 0 {
            let _ = writeln!(
                s,
                "\nRuns of the same seed in both studies: {}. {} end on the same f and ν̄{}; of the others, {} end better with {} and {} with {} (two-sided sign test p = {:.2}).",
                p.runs,
                p.identical,
                if p.tied > 0 { format!(", {} more on the same ν̄ of an infeasible point (a tie in the CEC order)", p.tied) } else { String::new() },
                p.first_better,
                self.names[0],
                p.second_better,
                self.names[1],
                p.sign_test()
            );
        }
        s
    }
}

impl Paired {
    /// Counts one pair of runs of the same seed.
    fn add(&mut self, a: &Snapshot, b: &Snapshot) {
        self.runs += 1;
        let same = |x: f64, y: f64| x.to_bits() == y.to_bits();
        if same(a.fitness.objective, b.fitness.objective)
            && same(a.fitness.violation, b.fitness.violation)
        {
            self.identical += 1;
            return;
        }
        match compare_runs(a, b) {
            Ordering::Less => self.first_better += 1,
            Ordering::Greater => self.second_better += 1,
            Ordering::Equal => self.tied += 1,
        }
    }
}

/// Orders labels with their digit runs compared as numbers (`lambda=3` before
/// `lambda=10`), the rest as text.
fn natural_order(a: &str, b: &str) -> Ordering {
    let chunks = |s: &str| {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, chunk)) if *d == digit => chunk.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, x), (db, y)) in ca.iter().zip(&cb) {
        let o = if *da && *db {
            let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
            x.len().cmp(&y.len()).then_with(|| x.cmp(y))
        } else {
            x.cmp(y)
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ca.len().cmp(&cb.len()).then_with(|| a.cmp(b))
}

fn path_name(fast: bool) -> &'static str {
    if fast {
        "the fast path"
    } else {
        "the exact path"
    }
}

/// `P(X ≥ k)` for `X ~ Binomial(m, p)`, `0 < p < 1`.
///
/// Sums the upper tail's probabilities `C(m, j) pʲ (1 − p)ᵐ⁻ʲ`, `j ≥ k`, each from its
/// logarithm (by the recurrence `ln pmf(j + 1) = ln pmf(j) + ln((m − j)/(j + 1)) +
/// ln(p/(1 − p))`), so that a large `m` does not underflow `(1 − p)ᵐ`.
#[must_use]
pub fn binomial_tail(m: usize, p: f64, k: usize) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > m {
        return 0.0;
    }
    let odds = (p / (1.0 - p)).ln();
    let mut ln_pmf = m as f64 * (1.0 - p).ln();
    let mut tail = 0.0;
    for j in 0..m {
        if j >= k {
            tail += ln_pmf.exp();
        }
        ln_pmf += ((m - j) as f64 / (j + 1) as f64).ln() + odds;
    }
    tail += ln_pmf.exp(); // j = m
    tail.clamp(0.0, 1.0)
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

    #[test]
    fn binomial_tail_does_not_underflow() {
        // Exact values (Python, integer binomial coefficients): ½¹²⁷⁰ underflows f64.
        assert!((binomial_tail(1270, 0.5, 644) - 0.633_356_931_305_815_8 / 2.0).abs() < 1e-9);
        assert!((binomial_tail(2000, 0.5, 1000) - 0.508_919_505_572_927_2).abs() < 1e-9);
        assert!((binomial_tail(3000, 0.05, 170) - 0.053_263_069_855_958_91).abs() < 1e-9);
    }

    #[test]
    fn labels_in_natural_order() {
        let mut v = vec![
            "lambda=100",
            "lambda=3",
            "lambda=1000",
            "lambda=10",
            "eps-ma-es",
            "eps-mag-es",
        ];
        v.sort_by(|a, b| natural_order(a, b));
        assert_eq!(
            v,
            [
                "eps-ma-es",
                "eps-mag-es",
                "lambda=3",
                "lambda=10",
                "lambda=100",
                "lambda=1000"
            ]
        );
    }

    #[test]
    fn pairs_of_the_same_seed() {
        use constraint_handling::quality::Snapshot;
        let mut p = Paired::default();
        p.add(&Snapshot::new(1.0, 0.0), &Snapshot::new(1.0, 0.0)); // identical
        p.add(&Snapshot::new(1.0, 2.0), &Snapshot::new(5.0, 2.0)); // infeasible, same ν̄
        p.add(&Snapshot::new(1.0, 0.0), &Snapshot::new(2.0, 0.0)); // first better
        p.add(&Snapshot::new(9.0, 0.0), &Snapshot::new(2.0, 1.0)); // feasible beats infeasible
        p.add(&Snapshot::new(3.0, 0.5), &Snapshot::new(3.0, 0.1)); // second better
        let expected = Paired {
            runs: 5,
            identical: 1,
            tied: 1,
            first_better: 2,
            second_better: 1,
        };
        assert_eq!(p, expected);
        // 2 against 1: P = 2 · P(X ≥ 2 | Bin(3, ½)) = 2 · ½ = 1.
        assert!((p.sign_test() - 1.0).abs() < 1e-12);
    }
}
