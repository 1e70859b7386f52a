//! The dynamics figures of a report: per plotted problem, the mean best-so-far
//! `f + ν̄` and the mean σ of every algorithm over the evaluations (the paper's
//! Section 5 plots), runs whose σ diverged counted apart.

use super::charts::{line_chart, Series};
use super::inputs::Inputs;
use crate::error::StudyError;
use std::path::{Path, PathBuf};

/// The files written for a problem's plots and its figures (SVG path, caption).
pub type PlotFiles = (Vec<PathBuf>, Vec<(PathBuf, String)>);

/// The dynamics figures of `problem`: the mean best-so-far `f + ν̄` and the mean σ of
/// every algorithm over the evaluations, as SVG and PNG in `plots_dir`. `None` if some
/// algorithm has no recorded dynamics there. Returns the files and the figures (SVG
/// path, caption).
///
/// # Errors
/// I/O and plotting errors.
pub fn dynamics_figures(
    inputs: &Inputs<'_>,
    problem: usize,
    plots_dir: &Path,
) -> Result<Option<PlotFiles>, StudyError> {
    let data = inputs.data;
    let p = problem;
    if inputs
        .lineup
        .all()
        .any(|c| data.dynamics(&c.key, p).is_empty())
    {
        return Ok(None);
    }
    std::fs::create_dir_all(plots_dir).map_err(|e| StudyError::io(plots_dir, e))?;
    let mut fitness = Vec::new();
    let mut sigma = Vec::new();
    for c in inputs.lineup.all() {
        let rows = data.dynamics(&c.key, p);
        let grid = &rows[0].evals;
        // Runs whose σ diverged (σ > 1e50 or non-finite): they would make the mean σ
        // infinite and hide the line; the σ curve averages the others (the median of
        // all runs if every run diverged) and the legend counts them.
        let diverged: Vec<bool> = rows.iter().map(|r| diverged(&r.sigma)).collect();
        let k = diverged.iter().filter(|&&d| d).count();
        let all_diverged = k == rows.len();
        let mean_at = |pick: &dyn Fn(&crate::study::store::DynamicsRow) -> &Vec<f64>, j: usize| {
            let vals: Vec<f64> = rows
                .iter()
                .filter_map(|r| pick(r).get(j).copied())
                .collect();
            vals.iter().sum::<f64>() / vals.len() as f64
        };
        let sigma_at = |j: usize| {
            let mut vals: Vec<f64> = rows
                .iter()
                .zip(&diverged)
                .filter(|(_, &d)| all_diverged || !d)
                .filter_map(|(r, _)| r.sigma.get(j).copied())
                .collect();
            if all_diverged {
                vals.sort_by(f64::total_cmp);
                vals.get(vals.len() / 2).copied().unwrap_or(f64::NAN)
            } else {
                vals.iter().sum::<f64>() / vals.len() as f64
            }
        };
        let mut fit_pts = Vec::new();
        let mut sig_pts = Vec::new();
        let mut marker = None;
        for (j, &e) in grid.iter().enumerate() {
            let mf = mean_at(&|r| &r.f, j);
            let mv = mean_at(&|r| &r.violation, j);
            fit_pts.push((e as f64, mf + mv));
            sig_pts.push((e as f64, sigma_at(j)));
            if marker.is_none() && mv == 0.0 {
                marker = Some((e as f64, mf + mv));
            }
        }
        let label = match k {
            0 => c.name.clone(),
            _ if all_diverged => format!("{} (all {k} runs diverged; σ: median)", c.name),
            _ => format!(
                "{} ({k} of {} runs diverged, σ: mean of the others)",
                c.name,
                rows.len()
            ),
        };
        fitness.push(Series {
            label: label.clone(),
            points: fit_pts,
            marker,
        });
        sigma.push(Series {
            label,
            points: sig_pts,
            marker: None,
        });
    }
    let positive = fitness
        .iter()
        .flat_map(|s| &s.points)
        .all(|&(_, y)| !y.is_finite() || y > 0.0);
    let (dim, runs) = (data.dim, inputs.runs);
    let mut files = Vec::new();
    let mut figures = Vec::new();
    let label = data.label(p);
    let stem = plots_dir.join(format!("{label}_D{dim}_fitness"));
    let title = format!("{label}, N = {dim}: mean best-so-far f + mean violation ({runs} runs)");
    files.extend(line_chart(
        &stem,
        &title,
        "function evaluations",
        "f + mean violation",
        &fitness,
        positive,
    )?);
    figures.push((
        stem.with_extension("svg"),
        format!("{title}; circles: the mean violation reaches 0"),
    ));
    let stem = plots_dir.join(format!("{label}_D{dim}_sigma"));
    let title =
        format!("{label}, N = {dim}: mean mutation strength σ (runs with σ > 1e50 counted apart)");
    files.extend(line_chart(
        &stem,
        &title,
        "function evaluations",
        "σ",
        &sigma,
        true,
    )?);
    figures.push((stem.with_extension("svg"), title));
    Ok(Some((files, figures)))
}

/// The σ threshold beyond which a run counts as diverged (docs/algorithm.md: the nl variant's
/// "unreasonably large σ values").
pub const DIVERGED_SIGMA: f64 = 1e50;

/// Whether a σ trajectory diverged: a value above [`DIVERGED_SIGMA`] or not finite.
#[must_use]
pub fn diverged(sigma: &[f64]) -> bool {
    sigma.iter().any(|s| !s.is_finite() || *s > DIVERGED_SIGMA)
}
