//! The CEC2020 real-world competition's results and score.
//!
//! An algorithm's **entry** holds, per problem, the final best solution's objective
//! `f` and mean constraint violation `ν` of each of its 25 runs, sorted best first
//! (feasible runs by `f`, then infeasible ones by `ν`), as two CSV files `NAME.f.csv`
//! and `NAME.cv.csv` with a header `RC01,…,RC57` and one row per run ([`Entry`]).
//!
//! The **score** ([`score`]) ranks algorithms relative to each other, as the organisers'
//! `Score.m` computes it. For each problem and each of three statistics — the best run
//! (row 1), the mean over the rows (of `f` and of `ν` apart) and the median run (row 13):
//!
//! 1. if no algorithm has `ν = 0`, an algorithm's value is its `ν`; otherwise one with
//!    `ν = 0` keeps its `f` and one with `ν > 0` gets `M + ν`, with `M` the largest `f`
//!    among those with `ν = 0`;
//! 2. the values are min–max normalised over the algorithms (a range of 0 counts as
//!    10⁻⁸; minimum and maximum skip NaN; a NaN value scores 1);
//! 3. weighted by the problem's dimension class (1, 2, 3, 4, 5 for `D ≤ 10, 30, 50, 150`
//!    and above: [`dimension_weight`]), the weights divided by their sum, and summed.
//!
//! The total is `0.5·best + 0.3·mean + 0.2·median`; lower is better. [`problem_shares`]
//! splits each total into the problems' parts, to see where two algorithms' scores part.
//!
//! ```
//! use bench_stats::cec2020::{score, Entry};
//!
//! // two algorithms, one problem, three runs each (sorted best first)
//! let a = Entry::new("A", vec!["RC01".into()], vec![vec![1.0, 2.0, 3.0]], vec![vec![0.0; 3]]).unwrap();
//! let b = Entry::new("B", vec!["RC01".into()], vec![vec![5.0, 6.0, 7.0]], vec![vec![0.0, 0.0, 0.5]]).unwrap();
//! let scores = score(&[a, b], &[1.0], 1).unwrap(); // median: row 2 of 3
//! assert_eq!(scores[0].rank, 1);
//! assert_eq!((scores[0].best, scores[1].best), (0.0, 1.0));
//! ```

use crate::StatsError;
use std::cmp::Ordering;
use std::path::Path;

/// One algorithm's results: per problem, the final `f` and `ν` of every run, sorted
/// best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The algorithm's name (the files' stem).
    pub name: String,
    /// The problems' labels, in column order (`RC01`, …).
    pub problems: Vec<String>,
    /// `f[k][r]`: problem `k`, run `r` (best first).
    pub f: Vec<Vec<f64>>,
    /// `cv[k][r]`: the mean violation of the same run.
    pub cv: Vec<Vec<f64>>,
}

/// The competition's order of two runs `(f, ν)`: feasible (`ν = 0`) before infeasible,
/// feasible ones by `f`, infeasible ones by `ν`; NaN last.
#[must_use]
pub fn run_order(a: (f64, f64), b: (f64, f64)) -> Ordering {
    let key = |(f, v): (f64, f64)| -> (u8, f64) {
        if v.is_nan() {
            (3, 0.0)
        } else if v == 0.0 {
            if f.is_nan() {
                (1, 0.0)
            } else {
                (0, f)
            }
        } else {
            (2, v)
        }
    };
    let (ka, kb) = (key(a), key(b));
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
}

impl Entry {
    /// An entry from per-problem columns of runs (already sorted best first).
    ///
    /// # Errors
    /// [`StatsError::Inconsistent`] when the problem counts or the run counts of `f` and
    /// `cv` do not match.
    pub fn new(
        name: impl Into<String>,
        problems: Vec<String>,
        f: Vec<Vec<f64>>,
        cv: Vec<Vec<f64>>,
    ) -> Result<Self, StatsError> {
        let e = Self {
            name: name.into(),
            problems,
            f,
            cv,
        };
        e.check()?;
        Ok(e)
    }

    /// An entry from unsorted runs `(f, ν)` per problem: each problem's runs are sorted
    /// by [`run_order`].
    ///
    /// # Errors
    /// As [`Entry::new`].
    pub fn from_runs(
        name: impl Into<String>,
        problems: Vec<String>,
        runs: Vec<Vec<(f64, f64)>>,
    ) -> Result<Self, StatsError> {
        let mut f = Vec::with_capacity(runs.len());
        let mut cv = Vec::with_capacity(runs.len());
        for mut column in runs {
            column.sort_by(|&a, &b| run_order(a, b));
            f.push(column.iter().map(|r| r.0).collect());
            cv.push(column.iter().map(|r| r.1).collect());
        }
        Self::new(name, problems, f, cv)
    }

    fn check(&self) -> Result<(), StatsError> {
        if self.f.len() != self.problems.len() || self.cv.len() != self.problems.len() {
            return Err(StatsError::Inconsistent(format!(
                "{}: {} problems, {} columns of f, {} of cv",
                self.name,
                self.problems.len(),
                self.f.len(),
                self.cv.len()
            )));
        }
        let runs = self.runs();
        for (k, (f, cv)) in self.f.iter().zip(&self.cv).enumerate() {
            if f.len() != runs || cv.len() != runs {
                return Err(StatsError::Inconsistent(format!(
                    "{}: {} has {} runs of f and {} of cv, the first problem {runs}",
                    self.name,
                    self.problems[k],
                    f.len(),
                    cv.len()
                )));
            }
        }
        Ok(())
    }

    /// The number of runs per problem.
    #[must_use]
    pub fn runs(&self) -> usize {
        self.f.first().map_or(0, Vec::len)
    }

    /// Reads `NAME.f.csv` and `NAME.cv.csv` from `dir`.
    ///
    /// # Errors
    /// [`StatsError::File`] naming the file for a missing, unreadable or malformed file,
    /// or two files that do not fit together.
    pub fn read(dir: &Path, name: &str) -> Result<Self, StatsError> {
        let (fp, fcv) = (
            dir.join(format!("{name}.f.csv")),
            dir.join(format!("{name}.cv.csv")),
        );
        let (hf, f) = read_columns(&fp)?;
        let (hcv, cv) = read_columns(&fcv)?;
        if hf != hcv {
            return Err(StatsError::File(format!(
                "{} and {} have different headers",
                fp.display(),
                fcv.display()
            )));
        }
        Self::new(name, hf, f, cv).map_err(|e| StatsError::File(format!("{}: {e}", dir.display())))
    }

    /// Every entry in `dir`: each `NAME.f.csv` with its `NAME.cv.csv`, by name.
    ///
    /// # Errors
    /// As [`Entry::read`]; [`StatsError::File`] if `dir` holds no entry.
    pub fn read_all(dir: &Path) -> Result<Vec<Self>, StatsError> {
        let listing = std::fs::read_dir(dir)
            .map_err(|e| StatsError::File(format!("{}: {e}", dir.display())))?;
        let mut names: Vec<String> = listing
            .filter_map(Result::ok)
            .filter_map(|d| {
                d.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".f.csv"))
                    .map(String::from)
            })
            .collect();
        names.sort();
        if names.is_empty() {
            return Err(StatsError::File(format!(
                "{} holds no entry (NAME.f.csv with NAME.cv.csv)",
                dir.display()
            )));
        }
        names.iter().map(|n| Self::read(dir, n)).collect()
    }

    /// Writes `NAME.f.csv` and `NAME.cv.csv` into `dir` (values with 17 significant
    /// digits, non-finite ones as `nan`, `inf`, `-inf`).
    ///
    /// # Errors
    /// [`StatsError::File`] naming the file.
    pub fn write(&self, dir: &Path) -> Result<(), StatsError> {
        for (suffix, cols) in [("f", &self.f), ("cv", &self.cv)] {
            let path = dir.join(format!("{}.{suffix}.csv", self.name));
            let mut text = self.problems.join(",");
            text.push('\n');
            for r in 0..self.runs() {
                let row: Vec<String> = cols.iter().map(|c| format_value(c[r])).collect();
                text.push_str(&row.join(","));
                text.push('\n');
            }
            std::fs::write(&path, text)
                .map_err(|e| StatsError::File(format!("{}: {e}", path.display())))?;
        }
        Ok(())
    }
}

fn format_value(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{v:e}")
    }
}

/// A CSV file of a header and rows of numbers, as columns.
fn read_columns(path: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), StatsError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| StatsError::File(format!("{}: {e}", path.display())))?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .ok_or_else(|| StatsError::File(format!("{}: empty file", path.display())))?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let mut cols = vec![Vec::new(); header.len()];
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != header.len() {
            return Err(StatsError::File(format!(
                "{}: row {} has {} values, the header {}",
                path.display(),
                i + 1,
                cells.len(),
                header.len()
            )));
        }
        for (c, cell) in cols.iter_mut().zip(cells) {
            let v = cell.trim().parse::<f64>().map_err(|_| {
                StatsError::File(format!(
                    "{}: row {}: {cell:?} is not a number",
                    path.display(),
                    i + 1
                ))
            })?;
            c.push(v);
        }
    }
    Ok((header, cols))
}

/// The weight class of a problem of dimension `dim`: 1 for `D ≤ 10`, 2 for `D ≤ 30`, 3
/// for `D ≤ 50`, 4 for `D ≤ 150`, 5 above.
#[must_use]
pub fn dimension_weight(dim: usize) -> f64 {
    match dim {
        0..=10 => 1.0,
        11..=30 => 2.0,
        31..=50 => 3.0,
        51..=150 => 4.0,
        _ => 5.0,
    }
}

/// One algorithm's score.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// The algorithm.
    pub name: String,
    /// The score of the best runs.
    pub best: f64,
    /// The score of the mean results.
    pub mean: f64,
    /// The score of the median runs.
    pub median: f64,
    /// `0.5·best + 0.3·mean + 0.2·median`.
    pub total: f64,
    /// The place by total (1 = lowest score).
    pub rank: usize,
}

/// Which of an entry's per-problem values a part of the score takes.
#[derive(Clone, Copy)]
enum Statistic {
    Row(usize),
    Mean,
}

fn statistic(values: &[f64], s: Statistic) -> f64 {
    match s {
        Statistic::Row(r) => values[r],
        // MATLAB's mean: the sum over the rows divided by their number (NaN spreads)
        Statistic::Mean => values.iter().sum::<f64>() / values.len() as f64,
    }
}

/// MATLAB's `max`/`min` over values, skipping NaN (NaN if all are).
fn extreme(values: impl Iterator<Item = f64>, larger: bool) -> f64 {
    values.filter(|v| !v.is_nan()).fold(f64::NAN, |m, v| {
        if m.is_nan() || (larger && v > m) || (!larger && v < m) {
            v
        } else {
            m
        }
    })
}

/// The weighted, normalised values of one statistic: `[problem][algorithm]`.
fn part_by_problem(entries: &[Entry], weights: &[f64], s: Statistic) -> Vec<Vec<f64>> {
    let n = entries.len();
    let mut out = Vec::with_capacity(weights.len());
    for (k, &w) in weights.iter().enumerate() {
        let f: Vec<f64> = entries.iter().map(|e| statistic(&e.f[k], s)).collect();
        let cv: Vec<f64> = entries.iter().map(|e| statistic(&e.cv[k], s)).collect();
        let feasible: Vec<bool> = cv.iter().map(|&v| v == 0.0).collect();
        let values: Vec<f64> = if feasible.iter().any(|&b| b) {
            let m = extreme((0..n).filter(|&a| feasible[a]).map(|a| f[a]), true);
            (0..n)
                .map(|a| if feasible[a] { f[a] } else { m + cv[a] })
                .collect()
        } else {
            cv
        };
        let lo = extreme(values.iter().copied(), false);
        let hi = extreme(values.iter().copied(), true);
        let range = if hi - lo == 0.0 { 1e-8 } else { hi - lo };
        out.push(
            values
                .iter()
                .map(|v| {
                    let normalised = (v - lo) / range;
                    w * if normalised.is_nan() { 1.0 } else { normalised }
                })
                .collect(),
        );
    }
    out
}

/// The weighted, normalised values of one statistic, summed over the problems, per
/// algorithm.
fn part(entries: &[Entry], weights: &[f64], s: Statistic) -> Vec<f64> {
    let mut out = vec![0.0; entries.len()];
    for row in part_by_problem(entries, weights, s) {
        for (o, v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
    out
}

/// The competition's score of `entries`, scored together; `weights` per problem
/// (e.g. [`dimension_weight`] of each problem's dimension; they are divided by their
/// sum here), `median_row` the 0-based row of the median run (12 of 25).
///
/// # Errors
/// [`StatsError::Empty`] for no entries; [`StatsError::Inconsistent`] when the entries
/// have other problems than `weights` has, different problem labels or numbers of runs,
/// or fewer runs than `median_row` needs.
pub fn score(
    entries: &[Entry],
    weights: &[f64],
    median_row: usize,
) -> Result<Vec<Score>, StatsError> {
    let w = normalised_weights(entries, weights, median_row)?;
    let best = part(entries, &w, Statistic::Row(0));
    let mean = part(entries, &w, Statistic::Mean);
    let median = part(entries, &w, Statistic::Row(median_row));
    let mut scores: Vec<Score> = entries
        .iter()
        .enumerate()
        .map(|(a, e)| Score {
            name: e.name.clone(),
            best: best[a],
            mean: mean[a],
            median: median[a],
            total: 0.5 * best[a] + 0.3 * mean[a] + 0.2 * median[a],
            rank: 0,
        })
        .collect();
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[a].total.total_cmp(&scores[b].total));
    for (place, &a) in order.iter().enumerate() {
        scores[a].rank = place + 1;
    }
    Ok(scores)
}

/// The conditions of [`score`] and [`problem_shares`]; the weights divided by their sum.
fn normalised_weights(
    entries: &[Entry],
    weights: &[f64],
    median_row: usize,
) -> Result<Vec<f64>, StatsError> {
    let first = entries.first().ok_or(StatsError::Empty("entries"))?;
    for e in entries {
        e.check()?;
        if e.problems != first.problems {
            return Err(StatsError::Inconsistent(format!(
                "{} and {} have different problems",
                first.name, e.name
            )));
        }
        if e.problems.len() != weights.len() {
            return Err(StatsError::Inconsistent(format!(
                "{} has {} problems, the weights {}",
                e.name,
                e.problems.len(),
                weights.len()
            )));
        }
        if e.runs() != first.runs() {
            return Err(StatsError::Inconsistent(format!(
                "{} has {} runs per problem, {} has {}: entries are scored over equal numbers of runs",
                e.name,
                e.runs(),
                first.name,
                first.runs()
            )));
        }
        if e.runs() <= median_row {
            return Err(StatsError::Inconsistent(format!(
                "{} has {} runs per problem; the median row is {}",
                e.name,
                e.runs(),
                median_row + 1
            )));
        }
    }
    let total_weight: f64 = weights.iter().sum();
    Ok(weights.iter().map(|v| v / total_weight).collect())
}

/// Each problem's share of each algorithm's total: `shares[k][a]` is problem `k`'s
/// `w_k · (0.5·best + 0.3·mean + 0.2·median)` for entry `a` (its weighted, normalised
/// values as in [`score`]). Summed over the problems it gives the algorithm's
/// [`Score::total`] (up to the order of the additions, about 10⁻¹⁶). Where two
/// algorithms' totals differ, the shares say which problems make the difference.
///
/// # Errors
/// As [`score`].
///
/// ```
/// use bench_stats::cec2020::{problem_shares, score, Entry};
///
/// let a = Entry::new("A", vec!["RC01".into(), "RC02".into()], vec![vec![1.0], vec![4.0]], vec![vec![0.0], vec![0.0]]).unwrap();
/// let b = Entry::new("B", vec!["RC01".into(), "RC02".into()], vec![vec![2.0], vec![3.0]], vec![vec![0.0], vec![0.0]]).unwrap();
/// let entries = [a, b];
/// let shares = problem_shares(&entries, &[1.0, 3.0], 0).unwrap();
/// // RC02 weighs three times RC01: A loses it, and with it the score
/// assert!((shares[1][0] - 0.75).abs() < 1e-15 && shares[1][1] == 0.0);
/// assert!(shares[0][0] == 0.0 && (shares[0][1] - 0.25).abs() < 1e-15);
/// let total: f64 = shares.iter().map(|row| row[0]).sum();
/// assert!((total - score(&entries, &[1.0, 3.0], 0).unwrap()[0].total).abs() < 1e-15);
/// ```
pub fn problem_shares(
    entries: &[Entry],
    weights: &[f64],
    median_row: usize,
) -> Result<Vec<Vec<f64>>, StatsError> {
    let w = normalised_weights(entries, weights, median_row)?;
    let best = part_by_problem(entries, &w, Statistic::Row(0));
    let mean = part_by_problem(entries, &w, Statistic::Mean);
    let median = part_by_problem(entries, &w, Statistic::Row(median_row));
    Ok(best
        .iter()
        .zip(&mean)
        .zip(&median)
        .map(|((b, m), d)| {
            (0..b.len())
                .map(|a| 0.5 * b[a] + 0.3 * m[a] + 0.2 * d[a])
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_sort_feasible_first_then_by_violation() {
        let e = Entry::from_runs(
            "x",
            vec!["RC01".into()],
            vec![vec![
                (3.0, 0.0),
                (1.0, 0.5),
                (2.0, 0.0),
                (0.0, 0.1),
                (f64::NAN, f64::NAN),
            ]],
        )
        .unwrap();
        assert_eq!(e.f[0][..4], [2.0, 3.0, 0.0, 1.0]);
        assert!(e.cv[0][4].is_nan());
    }

    #[test]
    fn infeasible_values_are_shifted_above_the_worst_feasible() {
        let a = Entry::new("a", vec!["p".into()], vec![vec![10.0]], vec![vec![0.0]]).unwrap();
        let b = Entry::new("b", vec!["p".into()], vec![vec![-5.0]], vec![vec![2.0]]).unwrap();
        let c = Entry::new("c", vec!["p".into()], vec![vec![4.0]], vec![vec![0.0]]).unwrap();
        // values: a 10, b 10 + 2 = 12, c 4 → normalised 0.75, 1, 0
        let s = score(&[a, b, c], &[1.0], 0).unwrap();
        assert!((s[0].best - 0.75).abs() < 1e-15 && s[1].best == 1.0 && s[2].best == 0.0);
        assert_eq!([s[0].rank, s[1].rank, s[2].rank], [2, 3, 1]);
    }

    #[test]
    fn a_nan_value_scores_one_and_equal_values_zero() {
        let a = Entry::new("a", vec!["p".into()], vec![vec![1.0]], vec![vec![f64::NAN]]).unwrap();
        let b = Entry::new("b", vec!["p".into()], vec![vec![1.0]], vec![vec![0.0]]).unwrap();
        let c = Entry::new("c", vec!["p".into()], vec![vec![1.0]], vec![vec![0.0]]).unwrap();
        let s = score(&[a, b, c], &[1.0], 0).unwrap();
        assert_eq!((s[0].best, s[1].best, s[2].best), (1.0, 0.0, 0.0));
    }

    #[test]
    fn the_problems_shares_add_up_to_the_totals() {
        let labels: Vec<String> = (1..=4).map(|k| format!("RC{k:02}")).collect();
        // three runs per problem: feasible, infeasible, NaN and tied columns
        let a = Entry::new(
            "a",
            labels.clone(),
            vec![
                vec![1.0, 2.0, 3.0],
                vec![5.0, 5.0, 9.0],
                vec![0.0; 3],
                vec![2.0; 3],
            ],
            vec![
                vec![0.0; 3],
                vec![0.0, 0.0, 0.3],
                vec![0.1, 0.2, 0.4],
                vec![0.0; 3],
            ],
        )
        .unwrap();
        let b = Entry::new(
            "b",
            labels.clone(),
            vec![
                vec![1.5, 1.6, 8.0],
                vec![4.0; 3],
                vec![0.0; 3],
                vec![2.0; 3],
            ],
            vec![
                vec![0.0; 3],
                vec![0.0; 3],
                vec![0.05, 0.5, f64::NAN],
                vec![0.0; 3],
            ],
        )
        .unwrap();
        let c = Entry::new(
            "c",
            labels,
            vec![
                vec![f64::NAN; 3],
                vec![7.0, 7.5, 8.0],
                vec![0.0; 3],
                vec![2.0; 3],
            ],
            vec![
                vec![f64::NAN; 3],
                vec![0.0; 3],
                vec![0.2, 0.3, 0.6],
                vec![0.0; 3],
            ],
        )
        .unwrap();
        let entries = [a, b, c];
        let weights = [1.0, 2.0, 5.0, 3.0];
        let scores = score(&entries, &weights, 1).unwrap();
        let shares = problem_shares(&entries, &weights, 1).unwrap();
        assert_eq!(shares.len(), 4);
        for (a, s) in scores.iter().enumerate() {
            let sum: f64 = shares.iter().map(|row| row[a]).sum();
            assert!(
                (sum - s.total).abs() < 1e-14,
                "{}: {sum} ≠ {}",
                s.name,
                s.total
            );
        }
        // c's NaN runs on RC01 score 1 in each statistic: its whole weight, 1/11
        assert!((shares[0][2] - 1.0 / 11.0).abs() < 1e-15);
        // a tied problem costs nobody anything
        assert_eq!(shares[3], [0.0, 0.0, 0.0]);
        assert!(problem_shares(&entries, &weights[..3], 1).is_err());
    }

    #[test]
    fn mismatched_entries_are_refused() {
        let a = Entry::new("a", vec!["p".into()], vec![vec![1.0]], vec![vec![0.0]]).unwrap();
        let b = Entry::new("b", vec!["q".into()], vec![vec![1.0]], vec![vec![0.0]]).unwrap();
        assert!(score(&[a.clone(), b], &[1.0], 0).is_err());
        assert!(score(std::slice::from_ref(&a), &[1.0, 1.0], 0).is_err());
        assert!(score(&[a], &[1.0], 1).is_err());
        assert!(Entry::new("x", vec!["p".into()], vec![vec![1.0, 2.0]], vec![vec![0.0]]).is_err());
    }
}
