//! The parameter studies of Section 6: the offspring population size `λ` (with
//! `μ = ⌊λ/3⌋`) and the maximal number of repair repetitions `θ_r`, ranked per problem
//! and overall as REFERENCE.md §6 describes (no significance test), shown as heat maps.

use crate::dataset::Dataset;
use crate::error::StudyError;
use crate::html::{Block, Page};
use crate::plots::heat_map;
use crate::report::write_table;
use crate::study::StudyConfig;
use bench_stats::configurations::{overall, rank_on_problem, OverallRanking, ProblemRanking};
use bench_stats::Table;
use ma_es::{Config, Variant};
use std::path::{Path, PathBuf};

/// The studied parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parameter {
    /// The offspring population size `λ`, with `μ = ⌊λ/3⌋`.
    Lambda,
    /// The maximal number of consecutive repair steps `θ_r`.
    ThetaR,
}

impl Parameter {
    /// The name used in configuration labels (`lambda=40`, `theta_r=3`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::Lambda => "lambda",
            Self::ThetaR => "theta_r",
        }
    }

    /// The symbol for tables and plots.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Lambda => "λ",
            Self::ThetaR => "θr",
        }
    }

    /// The paper's values: `λ ∈ {3, 10, 20, 40, 80, 100, 200}` for N = 10 and
    /// `{3, 10, 100, 200, 400, 1000, 2000}` for N = 100 (other N: the N = 10 grid scaled
    /// by N/10); `θ_r ∈ {1, 3, 10, 20, 100, 1000}`.
    #[must_use]
    pub fn default_values(self, dim: usize) -> Vec<usize> {
        match (self, dim) {
            (Self::ThetaR, _) => vec![1, 3, 10, 20, 100, 1000],
            (Self::Lambda, 10) => vec![3, 10, 20, 40, 80, 100, 200],
            (Self::Lambda, 100) => vec![3, 10, 100, 200, 400, 1000, 2000],
            (Self::Lambda, n) => {
                let mut v: Vec<usize> = [3, 10, 20, 40, 80, 100, 200]
                    .iter()
                    .map(|x| (x * n / 10).max(3))
                    .collect();
                v.dedup();
                v
            }
        }
    }

    /// The configuration label of `value`.
    #[must_use]
    pub fn label(self, value: usize) -> String {
        format!("{}={value}", self.key())
    }

    /// The value of a configuration label of this parameter.
    #[must_use]
    pub fn value_of(self, label: &str) -> Option<usize> {
        label
            .strip_prefix(self.key())?
            .strip_prefix('=')?
            .parse()
            .ok()
    }

    /// The εMAg-ES configuration for `value`.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for `λ < 3` (then `μ = ⌊λ/3⌋ = 0`).
    pub fn config(self, value: usize) -> Result<StudyConfig, StudyError> {
        let config = match self {
            Self::Lambda => {
                if value < 3 {
                    return Err(StudyError::Invalid(format!(
                        "λ = {value}: the study needs λ ≥ 3 (μ = ⌊λ/3⌋ ≥ 1)"
                    )));
                }
                Config {
                    lambda: Some(value),
                    mu: Some(value / 3),
                    ..Config::default()
                }
            }
            Self::ThetaR => Config {
                theta_r: value,
                ..Config::default()
            },
        };
        Ok(StudyConfig {
            label: self.label(value),
            variant: Variant::EpsMagEs,
            config,
        })
    }
}

/// What the parameter report computed.
#[derive(Clone, Debug)]
pub struct ParameterReport {
    /// The values, ascending.
    pub values: Vec<usize>,
    /// The problems.
    pub problems: Vec<usize>,
    /// Per problem, the ranking of the configurations.
    pub per_problem: Vec<ProblemRanking>,
    /// The overall ranking.
    pub overall: OverallRanking,
    /// The average-rank table (for printing).
    pub summary: Table,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// Ranks the configurations of a parameter study per problem and overall and writes
/// `ranks.csv` (problems × configurations: the heat-map tiles), `ranks_detail.csv`
/// (mean rank, median rank, score), `average_ranks.md/.csv`, `heatmap.svg/.png` and
/// `report.html`.
///
/// # Errors
/// [`StudyError::Incompatible`] if the results hold other configurations or are
/// incomplete; I/O and plotting errors.
pub fn parameter_report(
    data: &Dataset,
    out: &Path,
    param: Parameter,
) -> Result<ParameterReport, StudyError> {
    std::fs::create_dir_all(out).map_err(|e| StudyError::io(out, e))?;
    let mut values = Vec::new();
    for label in data.configs() {
        match param.value_of(&label) {
            Some(v) => values.push(v),
            None => {
                return Err(StudyError::Incompatible(format!(
                    "the results hold configuration {label:?}, not a {} study",
                    param.key()
                )))
            }
        }
    }
    values.sort_unstable();
    let labels: Vec<String> = values.iter().map(|&v| param.label(v)).collect();
    let problems: Vec<usize> = data.problems().into_iter().collect();
    let runs = data.check_complete(&labels, &problems)?;
    let mut per_problem = Vec::new();
    for &p in &problems {
        let records: Vec<Vec<bench_stats::RunRecord>> =
            labels.iter().map(|l| data.records(l, p, 1.0)).collect();
        let slices: Vec<&[bench_stats::RunRecord]> = records.iter().map(Vec::as_slice).collect();
        per_problem.push(rank_on_problem(&slices)?);
    }
    let overall = overall(&per_problem)?;
    let warning = data.warning();
    let columns: Vec<String> = values
        .iter()
        .map(|v| format!("{}={v}", param.symbol()))
        .collect();
    let mut files = Vec::new();

    // ranks.csv: the tiles.
    let mut ranks =
        Table::new(std::iter::once("problem".to_string()).chain(labels.iter().cloned()));
    for (&p, r) in problems.iter().zip(&per_problem) {
        ranks.push(
            std::iter::once(format!("C{p:02}")).chain(r.rank.iter().map(ToString::to_string)),
        );
    }
    let mut ranks_md =
        Table::new(std::iter::once("Problem".to_string()).chain(columns.iter().cloned()))
            .with_title(format!(
                "Rank of each configuration per problem, N = {} (1 = best)",
                data.dim
            ));
    ranks_md.rows.clone_from(&ranks.rows);
    write_table(out, "ranks", &ranks_md, &ranks, &mut files)?;

    let mut detail = Table::new([
        "problem",
        "config",
        "value",
        "mean_rank",
        "median_rank",
        "score",
        "rank",
    ]);
    for (&p, r) in problems.iter().zip(&per_problem) {
        for (k, l) in labels.iter().enumerate() {
            detail.push([
                format!("C{p:02}"),
                l.clone(),
                values[k].to_string(),
                r.mean_rank[k].to_string(),
                r.median_rank[k].to_string(),
                r.score[k].to_string(),
                r.rank[k].to_string(),
            ]);
        }
    }
    let detail_path = out.join("ranks_detail.csv");
    std::fs::write(&detail_path, detail.to_csv()?).map_err(|e| StudyError::io(&detail_path, e))?;
    files.push(detail_path);

    let mut summary = Table::new([
        param.symbol(),
        "average rank",
        "overall rank",
        "first places",
    ])
    .with_title(format!(
        "εMAg-ES with {} ∈ {{{}}}, N = {}, {} problems, {runs} runs each",
        param.symbol(),
        values
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        data.dim,
        problems.len()
    ));
    let mut summary_csv = Table::new(["value", "average_rank", "overall_rank", "first_places"]);
    for (k, value) in values.iter().enumerate() {
        let row = [
            value.to_string(),
            format!("{:.3}", overall.average_rank[k]),
            overall.rank[k].to_string(),
            overall.first_places[k].to_string(),
        ];
        summary.push(row.clone());
        summary_csv.push(row);
    }
    summary.note("Per problem: mean rank (FR, then mean ν̄, then mean f) + median rank (median run's ν̄, then f), competition-ranked; overall: the average of the per-problem ranks. No significance test (REFERENCE.md §6).");
    if let Some(w) = &warning {
        summary.note(w.clone());
        ranks_md.note(w.clone());
    }
    write_table(out, "average_ranks", &summary, &summary_csv, &mut files)?;

    let rows: Vec<String> = problems.iter().map(|p| format!("C{p:02}")).collect();
    let tiles: Vec<Vec<usize>> = per_problem.iter().map(|r| r.rank.clone()).collect();
    let title = format!(
        "εMAg-ES, N = {}: rank per problem for {} (darker = better){}",
        data.dim,
        param.symbol(),
        if warning.is_some() {
            " — SYNTHETIC INSTANCE"
        } else {
            ""
        }
    );
    let stem = out.join("heatmap");
    files.extend(heat_map(&stem, &title, &rows, &columns, &tiles)?);

    let mut page = Page {
        title: format!(
            "εMAg-ES parameter study: {}, N = {}",
            param.symbol(),
            data.dim
        ),
        blocks: Vec::new(),
    };
    if let Some(w) = &warning {
        page.blocks.push(Block::Warning(w.clone()));
    }
    page.blocks.push(Block::Table(summary.clone()));
    let svg = stem.with_extension("svg");
    page.blocks.push(Block::Svg {
        svg: std::fs::read_to_string(&svg).map_err(|e| StudyError::io(&svg, e))?,
        caption: title,
    });
    page.blocks.push(Block::Table(ranks_md));
    let html = out.join("report.html");
    std::fs::write(&html, page.render()).map_err(|e| StudyError::io(&html, e))?;
    files.push(html);
    Ok(ParameterReport {
        values,
        problems,
        per_problem,
        overall,
        summary,
        files,
    })
}
