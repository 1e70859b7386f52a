//! The outputs of a comparison study — the paper's tables as Markdown and CSV, the CEC
//! statistics per algorithm, the dynamics plots of Section 5, and `report.html` — as
//! parts: one function per table or figure over the same [`Inputs`], assembled by
//! [`comparison_report`]. The ablation study ([`ablation_report`]) is one lineup: εMAg-ES
//! against its six reduced variants, set beside the paper's numbers; any other lineup
//! (e.g. a user's optimizer against εMAg-ES, `examples/compare.rs`) gets the same
//! outputs.

use crate::comparison;
use crate::error::StudyError;
use crate::html::{Block, Page};
use crate::paper;
use crate::plots::{line_chart, Series};
use crate::study::dataset::Dataset;
use crate::suites::{ProblemGroup, CEC2017};
use bench_stats::cec::CecStatistics;
use bench_stats::pairwise::{compare, table2_cell, Comparison, Significance, Summary, Tally};
use bench_stats::Table;
use ma_es::Variant;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The problems of Section 5 of the paper, plotted by default.
pub const SECTION5_PROBLEMS: [usize; 6] = [3, 7, 27, 4, 20, 21];

/// Options of the report.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The significance test of Table 1 (the paper: signed rank, α = 0.05).
    pub significance: Significance,
    /// Problems to plot (when dynamics were recorded).
    pub plot_problems: Vec<usize>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            significance: Significance::default(),
            plot_problems: SECTION5_PROBLEMS.to_vec(),
        }
    }
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
#[derive(Clone, Debug)]
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
    /// Whether the lineup is the paper's ablation (the tables then carry the paper's
    /// numbers where it has them).
    pub paper: bool,
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
            paper: false,
        }
    }

    /// The ablation study's lineup for the configurations in `data`: εMAg-ES against
    /// the reduced variants present, in the paper's order, then any other combination of
    /// components (configurations labelled by a [`ma_es::ComponentSpec`]'s text form,
    /// e.g. `eps-mag-es:step-size=median-success`), in label order.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] if εMAg-ES is missing or a configuration is not a
    /// component spec.
    pub fn ablation(data: &Dataset) -> Result<Self, StudyError> {
        let present = data.configs();
        let baseline = Variant::EpsMagEs;
        if !present.contains(baseline.name()) {
            return Err(StudyError::Incompatible(format!(
                "the results have no runs of the baseline {}; the tables compare it with the other variants",
                baseline.name()
            )));
        }
        let mut custom = Vec::new();
        for c in &present {
            match c.parse::<ma_es::ComponentSpec>() {
                Ok(spec) if spec.preset().is_some() => {}
                Ok(_) => custom.push(Contender::new(c.clone(), c.clone())),
                Err(_) => {
                    return Err(StudyError::Incompatible(format!(
                        "the results hold configuration {c:?}, which is not an ablation variant or component spec (a parameter study?)"
                    )))
                }
            }
        }
        let others = Variant::ALL[1..]
            .iter()
            .filter(|v| present.contains(v.name()))
            .map(|&v| Contender::variant(v))
            .chain(custom)
            .collect();
        Ok(Self {
            baseline: Contender::variant(baseline),
            others,
            others_title: "reduced variants".into(),
            legend: "\"+\": εMAg-ES better (the switched-off component helps), \"−\": the variant better.".into(),
            title: format!("εMAg-ES ablation study, N = {}", data.dim),
            paper: true,
        })
    }

    /// The baseline, then the others.
    pub fn all(&self) -> impl Iterator<Item = &Contender> {
        std::iter::once(&self.baseline).chain(&self.others)
    }
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
    /// The tables set beside the paper's (ablation lineup, N = 10 or 100, all 28
    /// problems, significance testing on): Table 1 with its bootstrap range, Tables A1,
    /// 4, 5 with the paper's columns, Table 2's agreement and cells, the εMAg-ES
    /// statistics beside Table 17/18. Empty otherwise.
    pub beside_paper: Vec<Table>,
    /// The dynamics figures (file names in `plots/`).
    pub figures: Vec<comparison::FigureLink>,
}

/// A configuration label as part of a file name: letters, digits, `.`, `-` and `_`
/// stay, anything else (the `:` and `=` of a component spec) becomes `_`.
///
/// ```
/// use emages::report::file_stem;
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

fn tally_cells(t: &Tally) -> [String; 3] {
    [t.plus.to_string(), t.equal.to_string(), t.minus.to_string()]
}

fn significance_text(s: &Significance) -> String {
    match s {
        Significance::None => "no significance test (original CEC2017 ranking)".into(),
        Significance::SignedRank { alpha } => {
            format!("Wilcoxon signed-rank test pairing runs by index, α = {alpha}")
        }
        Significance::RankSum { alpha } => {
            format!("Wilcoxon rank-sum test (unpaired), α = {alpha}")
        }
    }
}

/// The paper's row of a table for a variant (preset name), if the paper has one.
type PaperRow<'a> = Option<&'a dyn Fn(&str) -> Option<paper::Row>>;

/// What every part of the report reads: the results, the lineup, the problems, and the
/// baseline-vs-other verdicts with the chosen test and without any.
pub struct Inputs<'a> {
    /// The results.
    pub data: &'a Dataset,
    /// Who is compared.
    pub lineup: &'a Lineup,
    /// The problems (all of `data`).
    pub problems: Vec<usize>,
    /// Runs per algorithm and problem.
    pub runs: usize,
    /// The significance test of the rankings.
    pub significance: Significance,
    /// Verdicts `(other index, problem)` with the significance test.
    pub tested: BTreeMap<(usize, usize), Comparison>,
    /// Verdicts without a test (the original CEC ranking).
    pub untested: BTreeMap<(usize, usize), Comparison>,
    notes: Vec<String>,
}

impl<'a> Inputs<'a> {
    /// Checks that every algorithm has the same number of runs on every problem and
    /// computes the verdicts.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] for incomplete results; statistics errors.
    pub fn new(
        data: &'a Dataset,
        lineup: &'a Lineup,
        significance: Significance,
    ) -> Result<Self, StudyError> {
        let keys: Vec<String> = lineup.all().map(|c| c.key.clone()).collect();
        let problems: Vec<usize> = data.problems().into_iter().collect();
        let runs = data.check_complete(&keys, &problems)?;
        let mut notes = vec![format!(
            "N = {}, {} problems, {runs} runs per variant and problem, budget {} evaluations; {}",
            data.dim,
            problems.len(),
            data.budget,
            lineup.legend
        )];
        if let Some(w) = data.warning() {
            notes.insert(0, w);
        }
        let mut tested = BTreeMap::new();
        let mut untested = BTreeMap::new();
        for (k, other) in lineup.others.iter().enumerate() {
            for &p in &problems {
                let b = data.records(&lineup.baseline.key, p, 1.0);
                let s = data.records(&other.key, p, 1.0);
                tested.insert((k, p), compare(&b, &s, significance)?);
                untested.insert((k, p), compare(&b, &s, Significance::None)?);
            }
        }
        Ok(Self {
            data,
            lineup,
            problems,
            runs,
            significance,
            tested,
            untested,
            notes,
        })
    }

    /// The notes under a table built with test `t`.
    fn notes_with(&self, t: &Significance) -> Vec<String> {
        let mut n = self.notes.clone();
        n.push(format!("Test: {}.", significance_text(t)));
        n
    }

    /// Whether the tables carry the paper's numbers: the ablation lineup on all 28
    /// problems at N = 10 or 100.
    #[must_use]
    pub fn with_paper(&self) -> bool {
        self.lineup.paper
            && self.data.suite().name() == CEC2017
            && self.problems.len() == 28
            && matches!(self.data.dim, 10 | 100)
    }

    fn significance_tested(&self) -> bool {
        !matches!(self.significance, Significance::None)
    }
}

/// `+/=/−` of the baseline against each other algorithm over `problems` (Tables 1,
/// A1, 4, 5): Markdown (with the paper's columns if given) and CSV.
fn summary_tables(
    inputs: &Inputs<'_>,
    title: &str,
    verdicts: &BTreeMap<(usize, usize), Comparison>,
    problems: &[usize],
    paper_rows: PaperRow<'_>,
    notes: &[String],
) -> (Table, Table) {
    let lineup = inputs.lineup;
    let vs = format!("{} vs.", lineup.baseline.name);
    let mut md_headers = vec![vs.as_str(), "Median +/=/−", "Mean +/=/−", "Total +/=/−"];
    if paper_rows.is_some() {
        md_headers.extend(["paper Median", "paper Mean", "paper Total"]);
    }
    let mut md = Table::new(md_headers).with_title(title);
    let mut csv = Table::new([
        "variant",
        "median_plus",
        "median_eq",
        "median_minus",
        "mean_plus",
        "mean_eq",
        "mean_minus",
        "total_plus",
        "total_eq",
        "total_minus",
    ]);
    for (k, other) in lineup.others.iter().enumerate() {
        let cs: Vec<&Comparison> = problems
            .iter()
            .filter_map(|&p| verdicts.get(&(k, p)))
            .collect();
        let s = Summary::of(cs.iter().copied());
        let mut row = vec![
            other.name.clone(),
            s.median.to_string(),
            s.mean.to_string(),
            s.total.to_string(),
        ];
        if let Some(paper_row) = paper_rows {
            match paper_row(&other.key) {
                Some(r) => row.extend(r.iter().map(|&t| paper::fmt(t))),
                None => row.extend(["–".to_string(), "–".to_string(), "–".to_string()]),
            }
        }
        md.push(row);
        let mut c = vec![other.key.clone()];
        for t in [s.median, s.mean, s.total] {
            c.extend(tally_cells(&t));
        }
        csv.push(c);
    }
    for n in notes {
        md.note(n.clone());
    }
    (md, csv)
}

/// Table 1: the significance-based ranking over all problems.
#[must_use]
pub fn table1(inputs: &Inputs<'_>) -> (Table, Table) {
    let dim = inputs.data.dim;
    let sig = inputs.significance_tested();
    let paper = move |v: &str| paper::table1(v, dim, sig);
    summary_tables(
        inputs,
        &format!(
            "Table 1 — {} vs. {}, N = {dim} (significance-based ranking)",
            inputs.lineup.baseline.name, inputs.lineup.others_title
        ),
        &inputs.tested,
        &inputs.problems,
        inputs.with_paper().then_some(&paper as _),
        &inputs.notes_with(&inputs.significance),
    )
}

/// Table A1: the original CEC2017 ranking, no significance test.
#[must_use]
pub fn table_a1(inputs: &Inputs<'_>) -> (Table, Table) {
    let dim = inputs.data.dim;
    let paper = move |v: &str| paper::table1(v, dim, false);
    summary_tables(
        inputs,
        &format!("Table A1 — original CEC2017 ranking without significance testing, N = {dim}"),
        &inputs.untested,
        &inputs.problems,
        inputs.with_paper().then_some(&paper as _),
        &inputs.notes_with(&Significance::None),
    )
}

/// The tables of one group of problems ([`crate::suites::Suite::groups`]).
#[derive(Clone, Debug)]
pub struct GroupTables {
    /// The group (its present problems only).
    pub group: ProblemGroup,
    /// Its number in the report: 4, 5, … (the paper's Tables 4 and 5 for CEC2017).
    pub number: usize,
    /// The Markdown table.
    pub markdown: Table,
    /// The CSV table.
    pub csv: Table,
}

impl GroupTables {
    /// The file stem: `table4_equality`.
    #[must_use]
    pub fn file_stem(&self) -> String {
        format!("table{}_{}", self.number, self.group.key)
    }
}

/// One summary per group of the suite ([`crate::suites::Suite::groups`]), numbered from 4: for
/// CEC2017 the paper's Tables 4 (problems with an equality constraint) and 5 (the
/// rotated C21–C28), with the paper's columns.
#[must_use]
pub fn tables_by_group(inputs: &Inputs<'_>) -> Vec<GroupTables> {
    let dim = inputs.data.dim;
    let with_paper = inputs.with_paper() && inputs.significance_tested();
    let notes = inputs.notes_with(&inputs.significance);
    inputs
        .data
        .suite()
        .groups()
        .into_iter()
        .enumerate()
        .map(|(i, mut group)| {
            group.problems.retain(|p| inputs.problems.contains(p));
            let paper_group = match group.key.as_str() {
                "equality" => Some(paper::ProblemGroup::Equality),
                "rotated" => Some(paper::ProblemGroup::Rotated),
                _ => None,
            };
            let paper = move |v: &str| paper_group.and_then(|g| paper::table_group(g, v, dim));
            let number = 4 + i;
            let (markdown, csv) = summary_tables(
                inputs,
                &format!(
                    "Table {number} — {} ({} problems), N = {dim}",
                    group.title,
                    group.problems.len()
                ),
                &inputs.tested,
                &group.problems,
                (with_paper && paper_group.is_some()).then_some(&paper as _),
                &notes,
            );
            GroupTables {
                group,
                number,
                markdown,
                csv,
            }
        })
        .collect()
}

/// Table 2: per problem, the total verdict or the meanRTgb ratio on a tie.
///
/// # Errors
/// Statistics errors.
pub fn table2(inputs: &Inputs<'_>) -> Result<(Table, Table), StudyError> {
    let (data, lineup) = (inputs.data, inputs.lineup);
    let mut headers = vec!["Problem".to_string()];
    headers.extend(lineup.others.iter().map(|c| c.name.clone()));
    let mut t2 = Table::new(headers).with_title(format!(
        "Table 2 — total ranking per problem, N = {} (ties: meanRTgb(variant)/meanRTgb({}))",
        data.dim, lineup.baseline.name
    ));
    let mut csv_headers = vec!["problem".to_string()];
    csv_headers.extend(lineup.others.iter().map(|c| c.key.clone()));
    let mut t2_csv = Table::new(csv_headers);
    let mrt = |key: &str, p: usize| -> Result<Option<f64>, StudyError> {
        Ok(CecStatistics::compute(&data.records(key, p, 1.0))?.mean_rt_gb)
    };
    for &p in &inputs.problems {
        let mut row = vec![data.label(p)];
        let mrt_b = mrt(&lineup.baseline.key, p)?;
        for (k, other) in lineup.others.iter().enumerate() {
            let c = &inputs.tested[&(k, p)];
            row.push(table2_cell(c.total, mrt_b, mrt(&other.key, p)?));
        }
        t2.push(row.clone());
        t2_csv.push(row);
    }
    for n in inputs.notes_with(&inputs.significance) {
        t2.note(n);
    }
    t2.note("The reference prints the ratios with four decimals; the paper rounds them to two.");
    Ok((t2, t2_csv))
}

/// Tables A3/A4: the median and mean verdicts per problem.
#[must_use]
pub fn table_detail(inputs: &Inputs<'_>) -> (Table, Table) {
    let lineup = inputs.lineup;
    let mut headers = vec!["Problem".to_string()];
    for kind in ["median", "mean"] {
        headers.extend(lineup.others.iter().map(|c| format!("{kind}: {}", c.name)));
    }
    let mut detail = Table::new(headers).with_title(format!(
        "Median and mean performance per problem, N = {}",
        inputs.data.dim
    ));
    let mut csv_headers = vec!["problem".to_string()];
    for kind in ["median", "mean"] {
        csv_headers.extend(lineup.others.iter().map(|c| format!("{kind}_{}", c.key)));
    }
    let mut detail_csv = Table::new(csv_headers);
    let n = lineup.others.len();
    for &p in &inputs.problems {
        let mut row = vec![inputs.data.label(p)];
        row.extend((0..n).map(|k| inputs.tested[&(k, p)].median.to_string()));
        row.extend((0..n).map(|k| inputs.tested[&(k, p)].mean.to_string()));
        detail.push(row.clone());
        detail_csv.push(row);
    }
    for note in inputs.notes_with(&inputs.significance) {
        detail.note(note);
    }
    (detail, detail_csv)
}

/// The tables set beside the paper's (see [`ReportOutput::beside_paper`]); empty
/// unless [`Inputs::with_paper`] and a significance test.
///
/// # Errors
/// Statistics errors.
pub fn beside_paper(
    inputs: &Inputs<'_>,
    t1: &Table,
    ta1: &Table,
    groups: &[GroupTables],
    t2: &Table,
) -> Result<Vec<Table>, StudyError> {
    if !(inputs.with_paper() && inputs.significance_tested()) {
        return Ok(Vec::new());
    }
    let (data, lineup) = (inputs.data, inputs.lineup);
    let here: Vec<(usize, Vec<String>)> = inputs
        .problems
        .iter()
        .zip(&t2.rows)
        .map(|(&p, row)| (p, row[1..].to_vec()))
        .collect();
    let (cells, agreement, _) = comparison::table2_beside_paper(data.dim, &lineup.others, &here)?;
    let (stats, _) = comparison::statistics_beside_paper(data, &lineup.baseline, &inputs.problems)?;
    let (noise, _) = comparison::table1_bootstrap(inputs)?;
    let mut tables = vec![t1.clone(), noise, ta1.clone()];
    tables.extend(groups.iter().map(|g| g.markdown.clone()));
    tables.extend([agreement, cells, stats]);
    Ok(tables)
}

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

/// Builds every output of the ablation study from `data` into `out`: the lineup of
/// [`Lineup::ablation`] through [`comparison_report`].
///
/// # Errors
/// [`StudyError::Incompatible`] if the baseline is missing, a configuration is not an
/// ablation variant, or the results are incomplete; I/O and plotting errors.
pub fn ablation_report(
    data: &Dataset,
    out: &Path,
    options: &ReportOptions,
) -> Result<ReportOutput, StudyError> {
    comparison_report(data, &Lineup::ablation(data)?, out, options)
}

/// Builds every output of a comparison of `lineup` from `data` into `out`: the tables
/// (`table1`, `table1_cec`, `table4_equality`, `table5_rotated`, `table2`,
/// `table_detail`, `stats_<key>`; Markdown and CSV), the plots, `paper_comparison.md`
/// (ablation lineup only) and `report.html`.
///
/// # Errors
/// [`StudyError::Incompatible`] if the results are incomplete; I/O and plotting errors.
pub fn comparison_report(
    data: &Dataset,
    lineup: &Lineup,
    out: &Path,
    options: &ReportOptions,
) -> Result<ReportOutput, StudyError> {
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
    let beside_paper = beside_paper(&inputs, &t1, &ta1, &groups, &t2)?;
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
        stats_tables.push((c, md));
    }

    let plots_dir = out.join("plots");
    let mut figures = Vec::new();
    let mut missing_dynamics = Vec::new();
    // In problem order, whatever order the options list them in.
    let mut plot_problems = options.plot_problems.clone();
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
    let figure_links: Vec<comparison::FigureLink> = figures
        .iter()
        .filter_map(|(svg, caption)| {
            Some(comparison::FigureLink {
                file: svg.file_name()?.to_str()?.to_string(),
                caption: caption.clone(),
            })
        })
        .collect();
    if !beside_paper.is_empty() {
        let md = out.join("paper_comparison.md");
        let tables: Vec<&Table> = beside_paper.iter().collect();
        std::fs::write(
            &md,
            comparison::to_markdown(&tables, &figure_links, "plots/"),
        )
        .map_err(|e| StudyError::io(&md, e))?;
        files.push(md);
    }

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
    let rankings = [&t1, &ta1]
        .into_iter()
        .chain(groups.iter().map(|g| &g.markdown))
        .chain([&t2, &detail]);
    for t in rankings {
        page.blocks.push(Block::Table(t.clone()));
    }
    if !beside_paper.is_empty() {
        page.blocks.push(Block::Heading("Beside the paper".into()));
        // After Tables 1, its bootstrap ranges, A1 and the groups: Table 2 cell by
        // cell and the statistics; then the bootstrap ranges.
        for t in beside_paper
            .iter()
            .skip(3 + groups.len())
            .chain(std::iter::once(&beside_paper[1]))
        {
            page.blocks.push(Block::Table(t.clone()));
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
    for (svg, caption) in &figures {
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
        table1: t1,
        baseline_statistics,
        beside_paper,
        figures: figure_links,
    })
}

/// The CEC statistics of one configuration: Markdown in the layout of the paper's
/// Tables 17/18 (final checkpoint), CSV with every checkpoint.
///
/// # Errors
/// Statistics errors (no runs).
pub fn statistics_tables(
    data: &Dataset,
    config: &str,
    label: &str,
    problems: &[usize],
    warning: Option<&str>,
) -> Result<(Table, Table), StudyError> {
    let mut csv = Table::new([
        "problem",
        "checkpoint",
        "best",
        "median",
        "median_c1",
        "median_c2",
        "median_c3",
        "median_violation",
        "mean",
        "std",
        "worst",
        "fr",
        "vio",
        "mrtgb",
    ]);
    let mut finals = Vec::new();
    for &p in problems {
        for &fraction in &data.checkpoint_fractions {
            let s = CecStatistics::compute(&data.records(config, p, fraction))?;
            let c = s.median_counts;
            csv.push([
                data.label(p),
                format!("{fraction}"),
                format!("{:e}", s.best),
                format!("{:e}", s.median),
                c[0].to_string(),
                c[1].to_string(),
                c[2].to_string(),
                format!("{:e}", s.median_violation),
                format!("{:e}", s.mean),
                format!("{:e}", s.std),
                format!("{:e}", s.worst),
                format!("{}", s.feasibility_rate),
                format!("{:e}", s.mean_violation),
                s.mean_rt_gb.map_or(String::new(), |m| format!("{m:e}")),
            ]);
            if fraction == 1.0 {
                finals.push((p, s));
            }
        }
        if !data.checkpoint_fractions.contains(&1.0) {
            // The final best-so-far, though no checkpoint was asked for at the budget.
            finals.push((p, CecStatistics::compute(&data.records(config, p, 1.0))?));
        }
    }
    let mut headers = vec![String::new()];
    headers.extend(finals.iter().map(|&(p, _)| data.label(p)));
    let mut md = Table::new(headers).with_title(format!(
        "{label}: final results of {} runs, N = {}, budget {}",
        finals.first().map_or(0, |(_, s)| s.runs),
        data.dim,
        data.budget
    ));
    type Cell = fn(&CecStatistics) -> String;
    let rows: [(&str, Cell); 10] = [
        ("Best", |s| sci(s.best)),
        ("Median", |s| sci(s.median)),
        ("c", |s| {
            format!(
                "({},{},{})",
                s.median_counts[0], s.median_counts[1], s.median_counts[2]
            )
        }),
        ("ν̄ (median)", |s| {
            if s.median_violation == 0.0 {
                "0".into()
            } else {
                sci(s.median_violation)
            }
        }),
        ("Mean", |s| sci(s.mean)),
        ("Std", |s| sci(s.std)),
        ("Worst", |s| sci(s.worst)),
        ("FR (%)", |s| {
            format!("{}", (s.feasibility_rate * 100.0).round())
        }),
        ("vio", |s| {
            if s.mean_violation == 0.0 {
                "0".into()
            } else {
                sci(s.mean_violation)
            }
        }),
        ("mRTgb", |s| s.mean_rt_gb.map_or("–".into(), sci)),
    ];
    for (name, cell) in rows {
        let mut row = vec![name.to_string()];
        row.extend(finals.iter().map(|(_, s)| cell(s)));
        md.push(row);
    }
    if let Some(w) = warning {
        md.note(w);
    }
    Ok((md, csv))
}

/// The σ threshold beyond which a run counts as diverged (REFERENCE.md: the nl variant's
/// "unreasonably large σ values").
pub const DIVERGED_SIGMA: f64 = 1e50;

/// Whether a σ trajectory diverged: a value above [`DIVERGED_SIGMA`] or not finite.
#[must_use]
pub fn diverged(sigma: &[f64]) -> bool {
    sigma.iter().any(|s| !s.is_finite() || *s > DIVERGED_SIGMA)
}
