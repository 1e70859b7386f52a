//! The statistics: MATLAB's `signrank` and `ranksum`, the CEC statistics of a problem's
//! runs, and the CEC ranking of a variant against a baseline on one problem (with and
//! without significance testing).

use crate::error::to_py;
use bench_stats::pairwise::{compare, Significance};
use bench_stats::wilcoxon::{ranksum_with_alpha, signrank_with_alpha, Method, TestResult};
use bench_stats::{CecStatistics, Snapshot};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn test_dict<'py>(py: Python<'py>, r: &TestResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("p", r.p)?;
    d.set_item("h", r.h)?;
    d.set_item("w_plus", r.w_plus)?;
    d.set_item("statistic", r.statistic)?;
    d.set_item("n", r.n)?;
    d.set_item(
        "method",
        match r.method {
            Method::Exact => "exact",
            Method::Approximate => "approximate",
        },
    )?;
    Ok(d)
}

/// MATLAB's `signrank(x, y)`: the two-sided Wilcoxon signed-rank test of the paired
/// samples `x`, `y` (exact for n ≤ 15 pairs, else the normal approximation; ties and
/// zero differences as MATLAB treats them, within MATLAB's tolerance).
#[pyfunction]
#[pyo3(name = "_signrank", signature = (x, y, alpha=0.05))]
pub fn signrank<'py>(
    py: Python<'py>,
    x: Vec<f64>,
    y: Vec<f64>,
    alpha: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = signrank_with_alpha(&x, &y, alpha).map_err(to_py)?;
    test_dict(py, &r)
}

/// MATLAB's `ranksum(x, y)`: the two-sided Wilcoxon rank-sum test of independent
/// samples.
#[pyfunction]
#[pyo3(name = "_ranksum", signature = (x, y, alpha=0.05))]
pub fn ranksum<'py>(
    py: Python<'py>,
    x: Vec<f64>,
    y: Vec<f64>,
    alpha: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = ranksum_with_alpha(&x, &y, alpha).map_err(to_py)?;
    test_dict(py, &r)
}

fn snapshots(f: &[f64], v: &[f64], c: Option<Vec<[u32; 3]>>) -> PyResult<Vec<Snapshot>> {
    if f.len() != v.len() || c.as_ref().is_some_and(|c| c.len() != f.len()) {
        return Err(PyValueError::new_err(format!(
            "one f, one violation (and one count triple) per run: {} f, {} violations{}",
            f.len(),
            v.len(),
            c.as_ref()
                .map_or(String::new(), |c| format!(", {} counts", c.len()))
        )));
    }
    Ok(f.iter()
        .zip(v)
        .enumerate()
        .map(|(k, (&f, &v))| {
            let s = Snapshot::new(f, v);
            match &c {
                Some(c) => s.with_counts(c[k]),
                None => s,
            }
        })
        .collect())
}

/// The CEC statistics of one problem's runs (final `f`, mean violation `v`, and the
/// counts `c = (c1, c2, c3)` of violated constraints by magnitude).
#[pyfunction]
#[pyo3(name = "_cec_statistics", signature = (f, v, c=None))]
pub fn cec_statistics<'py>(
    py: Python<'py>,
    f: Vec<f64>,
    v: Vec<f64>,
    c: Option<Vec<[u32; 3]>>,
) -> PyResult<Bound<'py, PyDict>> {
    let runs = snapshots(&f, &v, c)?;
    let s = CecStatistics::compute(&runs).map_err(to_py)?;
    let d = PyDict::new(py);
    d.set_item("runs", s.runs)?;
    d.set_item("best", s.best)?;
    d.set_item("median", s.median)?;
    d.set_item("median_c", s.median_counts)?;
    d.set_item("median_v", s.median_violation)?;
    d.set_item("mean", s.mean)?;
    d.set_item("std", s.std)?;
    d.set_item("worst", s.worst)?;
    d.set_item("fr", s.feasibility_rate)?;
    d.set_item("vio", s.mean_violation)?;
    Ok(d)
}

/// The CEC ranking of a variant against a baseline on one problem: the median, mean and
/// total verdicts, `+1` when the baseline is better, `−1` when the variant is. `test`
/// is `"signed-rank"` (the paper: Wilcoxon signed-rank on `f` and on `v`, pairing runs
/// by index), `"rank-sum"`, or `"none"` (the original CEC ranking).
#[pyfunction]
#[pyo3(name = "_cec_compare", signature = (baseline_f, baseline_v, variant_f, variant_v, test="signed-rank", alpha=0.05))]
pub fn cec_compare<'py>(
    py: Python<'py>,
    baseline_f: Vec<f64>,
    baseline_v: Vec<f64>,
    variant_f: Vec<f64>,
    variant_v: Vec<f64>,
    test: &str,
    alpha: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let significance = match test {
        "signed-rank" => Significance::SignedRank { alpha },
        "rank-sum" => Significance::RankSum { alpha },
        "none" => Significance::None,
        other => {
            return Err(PyValueError::new_err(format!(
                "test {other:?}: expected \"signed-rank\", \"rank-sum\" or \"none\""
            )))
        }
    };
    let b = snapshots(&baseline_f, &baseline_v, None)?;
    let s = snapshots(&variant_f, &variant_v, None)?;
    let c = compare(&b, &s, significance).map_err(to_py)?;
    let d = PyDict::new(py);
    d.set_item("median", c.median as i8)?;
    d.set_item("mean", c.mean as i8)?;
    d.set_item("total", c.total as i8)?;
    d.set_item("h_f", c.h_objective)?;
    d.set_item("h_v", c.h_violation)?;
    Ok(d)
}
