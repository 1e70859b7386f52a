//! The outputs of a comparison study — the paper's tables as Markdown and CSV, the CEC
//! statistics per algorithm, the dynamics plots, and `report.html` — as parts: one
//! function per table or figure over the same [`Inputs`], built and written by
//! [`Report::build`], the page assembled by [`Report::finish`] with any sections the
//! caller adds. [`comparison_report`] is both steps for any [`Lineup`] (e.g. a user's
//! optimizer against εMAg-ES, `examples/compare.rs`); the ablation study adds the
//! paper's numbers (`emages_paper::ablation_report`, in the repository's reproduction
//! package).
//!
//! | module | what |
//! |---|---|
//! | [`Inputs`] | the results, the lineup, and every verdict, computed once |
//! | tables | [`table1`], [`table_a1`], [`tables_by_group`], [`table2`], [`table_detail`], [`statistics_tables`] |
//! | figures | [`dynamics_figures`]; the charts: [`line_chart`], [`heat_map`] |
//! | page | [`Page`] of [`Block`]s: the self-contained `report.html` |

mod charts;
mod figures;
mod inputs;
mod page;
mod tables;

pub use charts::{heat_map, line_chart, register_font, Series};
pub use figures::{diverged, dynamics_figures, PlotFiles, DIVERGED_SIGMA};
pub use inputs::Inputs;
pub use page::{escape, Block, Page};
pub use tables::{
    statistics_tables, table1, table2, table_a1, table_detail, tables_by_group, GroupTables,
};

use crate::error::StudyError;
use crate::study::Dataset;
use crate::suites::ProblemGroup;
use bench_stats::pairwise::Significance;
use bench_stats::Table;
use ma_es::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Options of the report.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// The significance test of Table 1 (the paper: signed rank, α = 0.05).
    pub significance: Significance,
    /// Problems to plot (when dynamics were recorded); `None`: the suite's
    /// ([`crate::suites::Suite::plot_problems`]; CEC2017: the paper's Section 5).
    pub plot_problems: Option<Vec<usize>>,
}

/// One algorithm of a comparison: its configuration label in the records and the name
/// the tables print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contender {
    /// The configuration label in the run records (`config`).
    pub key: String,
    /// The name in tables and plots.
    pub name: String,
}

impl Contender {
    /// A contender under its label, printed as `name`.
    #[must_use]
    pub fn new(key: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            name: name.into(),
        }
    }

    /// An εMAg-ES preset, recorded under its preset name.
    #[must_use]
    pub fn variant(v: Variant) -> Self {
        Self::new(v.name(), v.label())
    }
}

/// Who is compared with whom: a baseline against the others (`+`: the baseline
/// better).
#[derive(Clone)]
pub struct Lineup {
    /// The baseline (εMAg-ES in the ablation study).
    pub baseline: Contender,
    /// The algorithms compared with it.
    pub others: Vec<Contender>,
    /// How the titles call the others ("reduced variants").
    pub others_title: String,
    /// The legend of `+` and `−` under the tables.
    pub legend: String,
    /// The title of the HTML page.
    pub title: String,
    /// Numbers published elsewhere that the summary tables set beside their own (the
    /// paper's for the ablation lineup, `emages_paper::Paper`), if any.
    pub published: Option<Arc<dyn Published>>,
}

impl Lineup {
    /// `baseline` against `others`, with a generic legend.
    #[must_use]
    pub fn new(baseline: Contender, others: Vec<Contender>) -> Self {
        let legend = format!(
            "\"+\": {} better, \"−\": the other algorithm better.",
            baseline.name
        );
        let title = format!(
            "{} against {} other algorithm(s)",
            baseline.name,
            others.len()
        );
        Self {
            baseline,
            others,
            others_title: "the others".into(),
            legend,
            title,
            published: None,
        }
    }

    /// The same lineup with published numbers beside the summary tables.
    #[must_use]
    pub fn with_published(self, published: Arc<dyn Published>) -> Self {
        Self {
            published: Some(published),
            ..self
        }
    }

    /// The baseline, then the others.
    pub fn all(&self) -> impl Iterator<Item = &Contender> {
        std::iter::once(&self.baseline).chain(&self.others)
    }
}

/// Numbers published elsewhere that a lineup's summary tables set beside their own
/// (the "paper Median / Mean / Total" columns): the paper's, for the ablation study
/// (`emages_paper::Paper`). The report knows nothing else of where they come from.
pub trait Published: Send + Sync {
    /// Whether there are numbers for these results at all (e.g. the paper's: CEC2017,
    /// all 28 problems, N = 10 or 100).
    fn covers(&self, data: &Dataset, problems: &[usize]) -> bool;

    /// Whether `table` gets the published columns.
    fn publishes(&self, table: &SummaryTable<'_>) -> bool;

    /// The published `(plus, equal, minus)` counts for the median, mean and total rank
    /// of configuration `other` against the baseline in `table`, if there are any.
    fn counts(
        &self,
        table: &SummaryTable<'_>,
        other: &str,
        dim: usize,
    ) -> Option<[(u32, u32, u32); 3]>;
}

/// Which summary table asks [`Published`] for numbers.
#[derive(Clone, Copy, Debug)]
pub enum SummaryTable<'a> {
    /// Table 1 (with the report's significance test, if any).
    Table1 {
        /// Whether the verdicts use a significance test.
        significance_tested: bool,
    },
    /// Table A1 (no test).
    TableA1,
    /// The summary of a group of problems.
    Group {
        /// The group.
        group: &'a ProblemGroup,
        /// Whether the verdicts use a significance test.
        significance_tested: bool,
    },
}

/// What the report wrote.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Table 1 (for printing).
    pub table1: Table,
    /// The baseline's statistics (for printing).
    pub baseline_statistics: Table,
    /// The dynamics figures (file names in `plots/`).
    pub figures: Vec<FigureLink>,
}

/// A figure of the report: its file in `plots/` and its caption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureLink {
    /// File name (e.g. `C03_D100_fitness.svg`).
    pub file: String,
    /// Caption.
    pub caption: String,
}

/// A section the caller adds to `report.html`, after the rankings (e.g. the tables
/// beside the paper).
#[derive(Clone, Debug)]
pub struct Section {
    /// Its heading.
    pub heading: String,
    /// Its tables, in order.
    pub tables: Vec<Table>,
}

/// A configuration label as part of a file name: letters, digits, `.`, `-` and `_`
/// stay, anything else (the `:` and `=` of a component spec) becomes `_`.
///
/// ```
/// use emages_harness::report::file_stem;
/// assert_eq!(file_stem("eps-mag-es"), "eps-mag-es");
/// assert_eq!(file_stem("eps-mag-es:step-size=constant"), "eps-mag-es_step-size_constant");
/// ```
#[must_use]
pub fn file_stem(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Formats a real like the paper's tables: `3.98790e+00`.
#[must_use]
pub fn sci(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let s = format!("{v:.5e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let exp: i32 = e.parse().unwrap_or(0);
            format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
        }
        None => s,
    }
}

/// Writes `name.md` and `name.csv`.
///
/// # Errors
/// I/O errors naming the file.
pub fn write_table(
    out: &Path,
    name: &str,
    md: &Table,
    csv: &Table,
    files: &mut Vec<PathBuf>,
) -> Result<(), StudyError> {
    let md_path = out.join(format!("{name}.md"));
    std::fs::write(&md_path, md.to_markdown()).map_err(|e| StudyError::io(&md_path, e))?;
    let csv_path = out.join(format!("{name}.csv"));
    std::fs::write(&csv_path, csv.to_csv()?).map_err(|e| StudyError::io(&csv_path, e))?;
    files.push(md_path);
    files.push(csv_path);
    Ok(())
}

/// A report whose tables, statistics and plots are built and written, before its page:
/// what [`Report::finish`] assembles, and what a caller may add to (sections of its own,
/// files beside).
pub struct Report<'a> {
    /// The inputs every part was computed from.
    pub inputs: Inputs<'a>,
    /// Table 1 (Markdown).
    pub table1: Table,
    /// Table A1.
    pub table_a1: Table,
    /// The group tables (4, 5, …).
    pub groups: Vec<GroupTables>,
    /// Table 2.
    pub table2: Table,
    /// The per-problem median and mean verdicts.
    pub detail: Table,
    /// Every algorithm's CEC statistics (baseline first).
    pub statistics: Vec<(Contender, Table)>,
    /// The figures written (SVG path, caption), in problem order.
    pub figures: Vec<(PathBuf, String)>,
    /// Plot problems without recorded dynamics.
    pub missing_dynamics: Vec<usize>,
    /// The files written so far.
    pub files: Vec<PathBuf>,
    out: PathBuf,
}

impl<'a> Report<'a> {
    /// Computes the verdicts and writes every table (`table1`, `table1_cec`, the group
    /// tables, `table2`, `table_detail`, `stats_<key>`; Markdown and CSV) and the plots
    /// of `data` for `lineup` into `out`.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] if the results are incomplete; I/O and plotting
    /// errors.
    pub fn build(
        data: &'a Dataset,
        lineup: &'a Lineup,
        out: &Path,
        options: &ReportOptions,
    ) -> Result<Self, StudyError> {
        std::fs::create_dir_all(out).map_err(|e| StudyError::io(out, e))?;
        let inputs = Inputs::new(data, lineup, options.significance)?;
        let mut files = Vec::new();

        let (t1, t1_csv) = table1(&inputs);
        write_table(out, "table1", &t1, &t1_csv, &mut files)?;
        let (ta1, ta1_csv) = table_a1(&inputs);
        write_table(out, "table1_cec", &ta1, &ta1_csv, &mut files)?;
        let groups = tables_by_group(&inputs);
        for g in &groups {
            write_table(out, &g.file_stem(), &g.markdown, &g.csv, &mut files)?;
        }
        let (t2, t2_csv) = table2(&inputs)?;
        write_table(out, "table2", &t2, &t2_csv, &mut files)?;
        let (detail, detail_csv) = table_detail(&inputs);
        write_table(out, "table_detail", &detail, &detail_csv, &mut files)?;

        // CEC statistics per algorithm (Tables 17/18 layout; CSV with all checkpoints).
        let warning = data.warning();
        let mut stats_tables = Vec::new();
        for c in lineup.all() {
            let (md, csv) =
                statistics_tables(data, &c.key, &c.name, &inputs.problems, warning.as_deref())?;
            write_table(
                out,
                &format!("stats_{}", file_stem(&c.key)),
                &md,
                &csv,
                &mut files,
            )?;
            stats_tables.push((c.clone(), md));
        }

        let plots_dir = out.join("plots");
        let mut figures = Vec::new();
        let mut missing_dynamics = Vec::new();
        // In problem order, whatever order the options list them in.
        let mut plot_problems = options
            .plot_problems
            .clone()
            .unwrap_or_else(|| data.suite().plot_problems());
        plot_problems.sort_unstable();
        plot_problems.dedup();
        for &p in plot_problems.iter().filter(|p| inputs.problems.contains(p)) {
            match dynamics_figures(&inputs, p, &plots_dir)? {
                Some((f, figs)) => {
                    files.extend(f);
                    figures.extend(figs);
                }
                None => missing_dynamics.push(p),
            }
        }
        Ok(Self {
            inputs,
            table1: t1,
            table_a1: ta1,
            groups,
            table2: t2,
            detail,
            statistics: stats_tables,
            figures,
            missing_dynamics,
            files,
            out: out.to_path_buf(),
        })
    }

    /// The figures as links (file names in `plots/`).
    #[must_use]
    pub fn figure_links(&self) -> Vec<FigureLink> {
        self.figures
            .iter()
            .filter_map(|(svg, caption)| {
                Some(FigureLink {
                    file: svg.file_name()?.to_str()?.to_string(),
                    caption: caption.clone(),
                })
            })
            .collect()
    }

    /// Writes `report.html` — the rankings, then `sections`, then the statistics and
    /// the dynamics — and returns what the report wrote.
    ///
    /// # Errors
    /// I/O errors.
    pub fn finish(mut self, sections: Vec<Section>) -> Result<ReportOutput, StudyError> {
        let figure_links = self.figure_links();
        let (data, lineup, inputs) = (self.inputs.data, self.inputs.lineup, &self.inputs);
        let warning = data.warning();
        let out = &self.out;
        let (t1, ta1, groups, t2, detail) = (
            &self.table1,
            &self.table_a1,
            &self.groups,
            &self.table2,
            &self.detail,
        );
        let (figures, missing_dynamics) = (&self.figures, &self.missing_dynamics);
        let mut files = std::mem::take(&mut self.files);
        let mut stats_tables = std::mem::take(&mut self.statistics);
        // report.html
        let mut page = Page {
            title: lineup.title.clone(),
            blocks: Vec::new(),
        };
        if let Some(w) = &warning {
            page.blocks.push(Block::Warning(w.clone()));
        }
        page.blocks.push(Block::Text(format!(
            "{} variants × {} problems × {} runs, budget {} evaluations per run, instance: {}. Total run time {:.0} s.",
            lineup.others.len() + 1,
            inputs.problems.len(),
            inputs.runs,
            data.budget,
            data.instance,
            data.cpu_seconds()
        )));
        page.blocks.push(Block::Heading("Rankings".into()));
        let rankings = [t1, ta1]
            .into_iter()
            .chain(groups.iter().map(|g| &g.markdown))
            .chain([t2, detail]);
        for t in rankings {
            page.blocks.push(Block::Table(t.clone()));
        }
        for section in sections {
            page.blocks.push(Block::Heading(section.heading));
            for t in section.tables {
                page.blocks.push(Block::Table(t));
            }
        }
        page.blocks.push(Block::Heading("CEC statistics".into()));
        for (i, (c, t)) in stats_tables.iter().enumerate() {
            if i == 0 {
                page.blocks.push(Block::Table(t.clone()));
            } else {
                page.blocks.push(Block::Details {
                    summary: format!("{} statistics", c.name),
                    blocks: vec![Block::Table(t.clone())],
                });
            }
        }
        page.blocks.push(Block::Heading("Dynamics".into()));
        if !missing_dynamics.is_empty() {
            page.blocks.push(Block::Text(format!(
                "No dynamics were recorded for {}; rerun the study with --dynamics (or with these problems in --plot-problems) to plot them.",
                missing_dynamics.iter().map(|&p| data.label(p)).collect::<Vec<_>>().join(", ")
            )));
        }
        for (svg, caption) in figures {
            let content = std::fs::read_to_string(svg).map_err(|e| StudyError::io(svg, e))?;
            page.blocks.push(Block::Svg {
                svg: content,
                caption: caption.clone(),
            });
        }
        let html = out.join("report.html");
        std::fs::write(&html, page.render()).map_err(|e| StudyError::io(&html, e))?;
        files.push(html);
        let baseline_statistics = stats_tables.remove(0).1;
        Ok(ReportOutput {
            files,
            table1: t1.clone(),
            baseline_statistics,
            figures: figure_links,
        })
    }
}

/// Builds every output of a comparison of `lineup` from `data` into `out`: the tables
/// (`table1`, `table1_cec`, the group tables, `table2`, `table_detail`, `stats_<key>`;
/// Markdown and CSV), the plots and `report.html` ([`Report::build`], then
/// [`Report::finish`] without sections of its own).
///
/// # Errors
/// [`StudyError::Incompatible`] if the results are incomplete; I/O and plotting errors.
pub fn comparison_report(
    data: &Dataset,
    lineup: &Lineup,
    out: &Path,
    options: &ReportOptions,
) -> Result<ReportOutput, StudyError> {
    Report::build(data, lineup, out, options)?.finish(Vec::new())
}
