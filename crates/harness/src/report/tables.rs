//! The tables of a report, each one function over the same [`Inputs`]: Tables 1, A1,
//! the per-group summaries (the paper's 4 and 5 for CEC2017), 2, the per-problem detail,
//! and the CEC statistics of every algorithm.

use super::inputs::{tally_cells, Inputs};
use super::{sci, SummaryTable};
use crate::error::StudyError;
use crate::study::Dataset;
use crate::suites::{ProblemGroup, CEC2017};
use bench_stats::cec::CecStatistics;
use bench_stats::pairwise::{table2_cell, Comparison, Significance, Summary};
use bench_stats::Table;
use std::collections::BTreeMap;

/// `+/=/−` of the baseline against each other algorithm over `problems` (Tables 1,
/// A1, 4, 5): Markdown (with the paper's columns if given) and CSV.
fn summary_tables(
    inputs: &Inputs<'_>,
    title: &str,
    verdicts: &BTreeMap<(usize, usize), Comparison>,
    problems: &[usize],
    table: &SummaryTable<'_>,
    notes: &[String],
) -> (Table, Table) {
    let lineup = inputs.lineup;
    let dim = inputs.data.dim;
    let published = inputs.published().filter(|p| p.publishes(table));
    let vs = format!("{} vs.", lineup.baseline.name);
    let mut md_headers = vec![vs.as_str(), "Median +/=/−", "Mean +/=/−", "Total +/=/−"];
    if published.is_some() {
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
        if let Some(published) = published {
            match published.counts(table, &other.key, dim) {
                Some(r) => row.extend(r.iter().map(|&(a, b, c)| format!("{a}/{b}/{c}"))),
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
    summary_tables(
        inputs,
        &format!(
            "Table 1 — {} vs. {}, N = {dim} (significance-based ranking)",
            inputs.lineup.baseline.name, inputs.lineup.others_title
        ),
        &inputs.tested,
        &inputs.problems,
        &SummaryTable::Table1 {
            significance_tested: inputs.significance_tested(),
        },
        &inputs.notes_with(&inputs.significance),
    )
}

/// Table A1: the ranking without a significance test (for CEC2017 the competition's
/// original ranking).
#[must_use]
pub fn table_a1(inputs: &Inputs<'_>) -> (Table, Table) {
    let dim = inputs.data.dim;
    let title = if inputs.data.suite().name() == CEC2017 {
        format!("Table A1 — original CEC2017 ranking without significance testing, N = {dim}")
    } else {
        format!("Table A1 — ranking without significance testing (the CEC rule), N = {dim}")
    };
    summary_tables(
        inputs,
        &title,
        &inputs.untested,
        &inputs.problems,
        &SummaryTable::TableA1,
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
    let notes = inputs.notes_with(&inputs.significance);
    inputs
        .data
        .suite()
        .groups()
        .into_iter()
        .enumerate()
        .map(|(i, mut group)| {
            group.problems.retain(|p| inputs.problems.contains(p));
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
                &SummaryTable::Group {
                    group: &group,
                    significance_tested: inputs.significance_tested(),
                },
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
