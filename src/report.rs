//! The outputs of the ablation study: the paper's tables as Markdown and CSV, the CEC
//! statistics per variant, the dynamics plots of Section 5, and `report.html`.

use crate::comparison;
use crate::dataset::Dataset;
use crate::error::StudyError;
use crate::html::{Block, Page};
use crate::paper;
use crate::plots::{line_chart, Series};
use bench_stats::cec::CecStatistics;
use bench_stats::pairwise::{compare, table2_cell, Comparison, Significance, Summary, Tally};
use bench_stats::Table;
use cec2017_constrained::problem_spec;
use ma_es::Variant;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The problems of Section 5 of the paper, plotted by default.
pub const SECTION5_PROBLEMS: [usize; 6] = [3, 7, 27, 4, 20, 21];

/// Options of the ablation report.
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

/// What the report wrote.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Table 1 (for printing).
    pub table1: Table,
    /// The εMAg-ES statistics (for printing).
    pub baseline_statistics: Table,
    /// The tables set beside the paper's (N = 10 or 100, all 28 problems, significance
    /// testing on): Tables 1, A1, 4, 5 with the paper's columns, Table 2's agreement
    /// and cells, the εMAg-ES statistics beside Table 17/18. Empty otherwise.
    pub beside_paper: Vec<Table>,
    /// The dynamics figures (file names in `plots/`).
    pub figures: Vec<comparison::FigureLink>,
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

/// The paper's row of a table for a variant (preset name), if the paper has one.
type PaperRow<'a> = Option<&'a dyn Fn(&str) -> Option<paper::Row>>;

/// Table 1 (or A1, 4, 5): `+/=/−` of the baseline against each variant over `problems`.
fn summary_tables(
    title: &str,
    variants: &[Variant],
    comparisons: &BTreeMap<(Variant, usize), Comparison>,
    problems: &[usize],
    paper_rows: PaperRow<'_>,
    notes: &[String],
) -> (Table, Table) {
    let mut md_headers = vec!["εMAg-ES vs.", "Median +/=/−", "Mean +/=/−", "Total +/=/−"];
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
    for &v in variants {
        let cs: Vec<&Comparison> = problems
            .iter()
            .filter_map(|&p| comparisons.get(&(v, p)))
            .collect();
        let s = Summary::of(cs.iter().copied());
        let mut row = vec![
            v.label().to_string(),
            s.median.to_string(),
            s.mean.to_string(),
            s.total.to_string(),
        ];
        if let Some(paper_row) = paper_rows {
            match paper_row(v.name()) {
                Some(r) => row.extend(r.iter().map(|&t| paper::fmt(t))),
                None => row.extend(["–".to_string(), "–".to_string(), "–".to_string()]),
            }
        }
        md.push(row);
        let mut c = vec![v.name().to_string()];
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

/// Builds every output of the ablation study from `data` into `out`.
///
/// # Errors
/// [`StudyError::Incompatible`] if the baseline is missing or the results are
/// incomplete; I/O and plotting errors.
pub fn ablation_report(
    data: &Dataset,
    out: &Path,
    options: &ReportOptions,
) -> Result<ReportOutput, StudyError> {
    std::fs::create_dir_all(out).map_err(|e| StudyError::io(out, e))?;
    let present = data.configs();
    let baseline = Variant::EpsMagEs;
    if !present.contains(baseline.name()) {
        return Err(StudyError::Incompatible(format!(
            "the results have no runs of the baseline {}; the tables compare it with the other variants",
            baseline.name()
        )));
    }
    let unknown: Vec<&String> = present
        .iter()
        .filter(|c| c.parse::<Variant>().is_err())
        .collect();
    if let Some(u) = unknown.first() {
        return Err(StudyError::Incompatible(format!(
            "the results hold configuration {u:?}, which is not an ablation variant (a parameter study?)"
        )));
    }
    let variants: Vec<Variant> = Variant::ALL[1..]
        .iter()
        .copied()
        .filter(|v| present.contains(v.name()))
        .collect();
    let all_labels: Vec<String> = std::iter::once(baseline)
        .chain(variants.iter().copied())
        .map(|v| v.name().to_string())
        .collect();
    let problems: Vec<usize> = data.problems().into_iter().collect();
    let runs = data.check_complete(&all_labels, &problems)?;

    let warning = data.warning();
    let mut notes = vec![format!(
        "N = {}, {} problems, {runs} runs per variant and problem, budget {} evaluations; \"+\": εMAg-ES better (the switched-off component helps), \"−\": the variant better.",
        data.dim,
        problems.len(),
        data.budget
    )];
    if let Some(w) = &warning {
        notes.insert(0, w.clone());
    }

    let tests = [options.significance, Significance::None];
    let mut comparisons: [BTreeMap<(Variant, usize), Comparison>; 2] =
        [BTreeMap::new(), BTreeMap::new()];
    for (k, test) in tests.iter().enumerate() {
        for &v in &variants {
            for &p in &problems {
                let b = data.records(baseline.name(), p, 1.0);
                let s = data.records(v.name(), p, 1.0);
                comparisons[k].insert((v, p), compare(&b, &s, *test)?);
            }
        }
    }
    let mut files = Vec::new();
    let full_suite = problems.len() == 28;
    let with_paper = full_suite && matches!(data.dim, 10 | 100);
    let dim = data.dim;
    let paper_t1 = |v: &str| paper::table1(v, dim, true);
    let paper_a1 = |v: &str| paper::table1(v, dim, false);
    let paper_t4 = |v: &str| paper::table_group(paper::ProblemGroup::Equality, v, dim);
    let paper_t5 = |v: &str| paper::table_group(paper::ProblemGroup::Rotated, v, dim);
    let sig_is_none = matches!(options.significance, Significance::None);
    let (p1, pa1, p4, p5): (PaperRow, PaperRow, PaperRow, PaperRow) = if with_paper {
        (
            Some(if sig_is_none { &paper_a1 } else { &paper_t1 }),
            Some(&paper_a1),
            (!sig_is_none).then_some(&paper_t4 as _),
            (!sig_is_none).then_some(&paper_t5 as _),
        )
    } else {
        (None, None, None, None)
    };
    let with_test = |t: &Significance| {
        let mut n = notes.clone();
        n.push(format!("Test: {}.", significance_text(t)));
        n
    };

    let (t1, t1_csv) = summary_tables(
        &format!(
            "Table 1 — εMAg-ES vs. reduced variants, N = {} (significance-based ranking)",
            data.dim
        ),
        &variants,
        &comparisons[0],
        &problems,
        p1,
        &with_test(&options.significance),
    );
    write_table(out, "table1", &t1, &t1_csv, &mut files)?;
    let (ta1, ta1_csv) = summary_tables(
        &format!(
            "Table A1 — original CEC2017 ranking without significance testing, N = {}",
            data.dim
        ),
        &variants,
        &comparisons[1],
        &problems,
        pa1,
        &with_test(&Significance::None),
    );
    write_table(out, "table1_cec", &ta1, &ta1_csv, &mut files)?;

    let equality: Vec<usize> = problems
        .iter()
        .copied()
        .filter(|&p| problem_spec(p).is_some_and(|s| s.equalities > 0))
        .collect();
    let rotated: Vec<usize> = problems
        .iter()
        .copied()
        .filter(|&p| (21..=28).contains(&p))
        .collect();
    let (t4, t4_csv) = summary_tables(
        &format!(
            "Table 4 — problems with at least one equality constraint ({} problems), N = {}",
            equality.len(),
            data.dim
        ),
        &variants,
        &comparisons[0],
        &equality,
        p4,
        &with_test(&options.significance),
    );
    write_table(out, "table4_equality", &t4, &t4_csv, &mut files)?;
    let (t5, t5_csv) = summary_tables(
        &format!(
            "Table 5 — rotated problems C21–C28 ({} problems), N = {}",
            rotated.len(),
            data.dim
        ),
        &variants,
        &comparisons[0],
        &rotated,
        p5,
        &with_test(&options.significance),
    );
    write_table(out, "table5_rotated", &t5, &t5_csv, &mut files)?;

    // Table 2: per problem, the total verdict or the mRTgb ratio on a tie.
    let mut headers = vec!["Problem".to_string()];
    headers.extend(variants.iter().map(|v| v.label().to_string()));
    let mut t2 = Table::new(headers.clone()).with_title(format!(
        "Table 2 — total ranking per problem, N = {} (ties: meanRTgb(variant)/meanRTgb(εMAg-ES))",
        data.dim
    ));
    let mut csv_headers = vec!["problem".to_string()];
    csv_headers.extend(variants.iter().map(|v| v.name().to_string()));
    let mut t2_csv = Table::new(csv_headers.clone());
    let mrt = |label: &str, p: usize| -> Result<Option<f64>, StudyError> {
        Ok(CecStatistics::compute(&data.records(label, p, 1.0))?.mean_rt_gb)
    };
    for &p in &problems {
        let mut row = vec![format!("C{p:02}")];
        let mrt_b = mrt(baseline.name(), p)?;
        for &v in &variants {
            let c = &comparisons[0][&(v, p)];
            row.push(table2_cell(c.total, mrt_b, mrt(v.name(), p)?));
        }
        t2.push(row.clone());
        t2_csv.push(row);
    }
    for n in with_test(&options.significance) {
        t2.note(n);
    }
    t2.note("The reference prints the ratios with four decimals; the paper rounds them to two.");
    write_table(out, "table2", &t2, &t2_csv, &mut files)?;

    // Beside the paper: Table 2 cell by cell and the εMAg-ES statistics (Tables 17/18).
    let mut beside_paper = Vec::new();
    if with_paper && !sig_is_none {
        let here: Vec<(usize, Vec<String>)> = problems
            .iter()
            .zip(&t2.rows)
            .map(|(&p, row)| (p, row[1..].to_vec()))
            .collect();
        let (cells, agreement, _) = comparison::table2_beside_paper(dim, &variants, &here)?;
        let (stats, _) = comparison::statistics_beside_paper(data, &problems)?;
        let (noise, _) =
            comparison::table1_bootstrap(data, &variants, &problems, options.significance)?;
        beside_paper = vec![
            t1.clone(),
            noise,
            ta1.clone(),
            t4.clone(),
            t5.clone(),
            agreement,
            cells,
            stats,
        ];
    }

    // Detailed per-problem median and mean verdicts (Tables A3/A4).
    let mut detail_headers = vec!["Problem".to_string()];
    for kind in ["median", "mean"] {
        detail_headers.extend(variants.iter().map(|v| format!("{kind}: {}", v.label())));
    }
    let mut detail = Table::new(detail_headers).with_title(format!(
        "Median and mean performance per problem, N = {}",
        data.dim
    ));
    let mut detail_csv_headers = vec!["problem".to_string()];
    for kind in ["median", "mean"] {
        detail_csv_headers.extend(variants.iter().map(|v| format!("{kind}_{}", v.name())));
    }
    let mut detail_csv = Table::new(detail_csv_headers);
    for &p in &problems {
        let mut row = vec![format!("C{p:02}")];
        row.extend(
            variants
                .iter()
                .map(|&v| comparisons[0][&(v, p)].median.to_string()),
        );
        row.extend(
            variants
                .iter()
                .map(|&v| comparisons[0][&(v, p)].mean.to_string()),
        );
        detail.push(row.clone());
        detail_csv.push(row);
    }
    for n in with_test(&options.significance) {
        detail.note(n);
    }
    write_table(out, "table_detail", &detail, &detail_csv, &mut files)?;

    // CEC statistics per variant (Tables 17/18 layout; CSV with all checkpoints).
    let mut stats_tables = Vec::new();
    for v in std::iter::once(baseline).chain(variants.iter().copied()) {
        let (md, csv) =
            statistics_tables(data, v.name(), v.label(), &problems, warning.as_deref())?;
        write_table(out, &format!("stats_{}", v.name()), &md, &csv, &mut files)?;
        stats_tables.push((v, md));
    }

    // Plots of the dynamics.
    let plots_dir = out.join("plots");
    let mut figures = Vec::new();
    let mut missing_dynamics = Vec::new();
    for &p in options
        .plot_problems
        .iter()
        .filter(|p| problems.contains(p))
    {
        let labels: Vec<&Variant> = std::iter::once(&baseline).chain(variants.iter()).collect();
        if labels.iter().any(|v| data.dynamics(v.name(), p).is_empty()) {
            missing_dynamics.push(p);
            continue;
        }
        std::fs::create_dir_all(&plots_dir).map_err(|e| StudyError::io(&plots_dir, e))?;
        let mut fitness = Vec::new();
        let mut sigma = Vec::new();
        for v in &labels {
            let rows = data.dynamics(v.name(), p);
            let grid = &rows[0].evals;
            // Runs whose σ diverged (σ > 1e50 or non-finite): they would make the mean
            // σ infinite and hide the line; the σ curve averages the others (the median
            // of all runs if every run diverged) and the legend counts them.
            let diverged: Vec<bool> = rows.iter().map(|r| diverged(&r.sigma)).collect();
            let k = diverged.iter().filter(|&&d| d).count();
            let all_diverged = k == rows.len();
            let mean_at = |pick: &dyn Fn(&crate::store::DynamicsRow) -> &Vec<f64>, j: usize| {
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
                0 => v.label().to_string(),
                _ if all_diverged => format!("{} (all {k} runs diverged; σ: median)", v.label()),
                _ => format!(
                    "{} ({k} of {} runs diverged, σ: mean of the others)",
                    v.label(),
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
        let stem = plots_dir.join(format!("C{p:02}_D{}_fitness", data.dim));
        let title = format!(
            "C{p:02}, N = {}: mean best-so-far f + mean violation ({runs} runs)",
            data.dim
        );
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
        let stem = plots_dir.join(format!("C{p:02}_D{}_sigma", data.dim));
        let title = format!(
            "C{p:02}, N = {}: mean mutation strength σ (runs with σ > 1e50 counted apart)",
            data.dim
        );
        files.extend(line_chart(
            &stem,
            &title,
            "function evaluations",
            "σ",
            &sigma,
            true,
        )?);
        figures.push((stem.with_extension("svg"), title));
    }

    // report.html
    let mut page = Page {
        title: format!("εMAg-ES ablation study, N = {}", data.dim),
        blocks: Vec::new(),
    };
    if let Some(w) = &warning {
        page.blocks.push(Block::Warning(w.clone()));
    }
    page.blocks.push(Block::Text(format!(
        "{} variants × {} problems × {runs} runs, budget {} evaluations per run, instance: {}. Total run time {:.0} s.",
        variants.len() + 1,
        problems.len(),
        data.budget,
        data.instance,
        data.cpu_seconds()
    )));
    page.blocks.push(Block::Heading("Rankings".into()));
    for t in [&t1, &ta1, &t4, &t5, &t2, &detail] {
        page.blocks.push(Block::Table(t.clone()));
    }
    if !beside_paper.is_empty() {
        page.blocks.push(Block::Heading("Beside the paper".into()));
        for t in beside_paper
            .iter()
            .skip(5)
            .chain(std::iter::once(&beside_paper[1]))
        {
            page.blocks.push(Block::Table(t.clone()));
        }
    }
    page.blocks.push(Block::Heading("CEC statistics".into()));
    for (i, (v, t)) in stats_tables.iter().enumerate() {
        if i == 0 {
            page.blocks.push(Block::Table(t.clone()));
        } else {
            page.blocks.push(Block::Details {
                summary: format!("{} statistics", v.label()),
                blocks: vec![Block::Table(t.clone())],
            });
        }
    }
    page.blocks.push(Block::Heading("Dynamics".into()));
    if !missing_dynamics.is_empty() {
        page.blocks.push(Block::Text(format!(
            "No dynamics were recorded for {}; rerun the study with --dynamics (or with these problems in --plot-problems) to plot them.",
            missing_dynamics.iter().map(|p| format!("C{p:02}")).collect::<Vec<_>>().join(", ")
        )));
    }
    for (svg, caption) in &figures {
        let content = std::fs::read_to_string(svg).map_err(|e| StudyError::io(svg, e))?;
        page.blocks.push(Block::Svg {
            svg: content,
            caption: caption.clone(),
        });
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
        for fraction in ma_es::CHECKPOINT_FRACTIONS {
            let s = CecStatistics::compute(&data.records(config, p, fraction))?;
            let c = s.median_counts;
            csv.push([
                format!("C{p:02}"),
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
    }
    let mut headers = vec![String::new()];
    headers.extend(finals.iter().map(|(p, _)| format!("C{p:02}")));
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
