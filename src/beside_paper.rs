//! The measured ablation study beside the paper's published numbers: Table 2 cell by
//! cell, and the εMAg-ES statistics beside Tables 17/18 with a confidence interval
//! that says whether a difference is more than sampling noise.
//!
//! The report ([`super::ablation_report`]) writes the result as
//! `paper_comparison.md`; `--docs FILE` writes the same text into a marked block of a
//! Markdown file (docs/reproduction.md), so that the documentation quotes the tool's
//! output rather than numbers typed by hand.

use crate::paper::{self, Table2Cell};
use bench_stats::bootstrap::{quantile_range, resampled_summaries, two_study_range};
use bench_stats::cec::{compare_runs, median_interval, CecStatistics, Snapshot};
use bench_stats::pairwise::Summary;
use bench_stats::Table;
use emages_harness::report::sci;
use emages_harness::report::{Contender, Inputs, Report, Section};
use emages_harness::study::Dataset;
use emages_harness::StudyError;
use std::cmp::Ordering;

/// The confidence level of the interval of the median (1 − α).
pub const MEDIAN_INTERVAL_ALPHA: f64 = 0.05;

/// How the measured Table 2 agrees with the paper's, for one variant or in total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Same verdict (`+`/`+`, `−`/`−`, tie/tie).
    pub same: usize,
    /// A tie on one side, a strict verdict on the other.
    pub one_step: usize,
    /// `+` on one side, `−` on the other.
    pub opposite: usize,
}

impl Agreement {
    fn add(&mut self, distance: u8) {
        match distance {
            0 => self.same += 1,
            1 => self.one_step += 1,
            _ => self.opposite += 1,
        }
    }

    /// All cells counted.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.same + self.one_step + self.opposite
    }
}

/// Table 2 here beside the paper's: each cell `here / paper` (opposite verdicts in
/// bold), and the agreement per variant. `here` holds the measured cells per problem in
/// the order of `variants`.
///
/// # Errors
/// [`StudyError::Incompatible`] if the paper has no Table 2 for `dim`, a problem is
/// outside C01–C28 or a measured cell cannot be read.
pub fn table2_beside_paper(
    dim: usize,
    variants: &[Contender],
    here: &[(usize, Vec<String>)],
) -> Result<(Table, Table, Agreement), StudyError> {
    let no_paper = || StudyError::Incompatible(format!("the paper has no Table 2 for N = {dim}"));
    let mut headers = vec!["Problem".to_string()];
    headers.extend(variants.iter().map(|v| v.name.clone()));
    let mut cells = Table::new(headers).with_title(format!(
        "Table 2, N = {dim}: here / paper (`+`: εMAg-ES better, `−`: the variant better, a number: tie, meanRTgb ratio); opposite verdicts in bold"
    ));
    let mut per_variant = vec![Agreement::default(); variants.len()];
    for (problem, row) in here {
        let mut out = vec![format!("C{problem:02}")];
        for (k, (v, cell)) in variants.iter().zip(row).enumerate() {
            let ours = Table2Cell::parse(cell).ok_or_else(|| {
                StudyError::Incompatible(format!("unreadable Table 2 cell {cell:?}"))
            })?;
            let ours_text = match ours {
                Table2Cell::Tie(r) => format!("{r:.2}"),
                other => other.to_string(),
            };
            let Some(theirs) = paper::table2_cell(&v.key, *problem, dim) else {
                if paper::table2(dim).is_none() {
                    return Err(no_paper());
                }
                // A combination of components the paper did not run: ours alone.
                out.push(format!("{ours_text} / –"));
                continue;
            };
            let d = ours.distance(theirs);
            per_variant[k].add(d);
            let text = format!("{ours_text} / {theirs}");
            out.push(if d == 2 { format!("**{text}**") } else { text });
        }
        cells.push(out);
    }
    let mut summary = Table::new(["εMAg-ES vs.", "same verdict", "tie vs. + or −", "+ vs. −"])
        .with_title(format!(
            "Table 2, N = {dim}: agreement of the {} measured cells per variant with the paper's",
            here.len()
        ));
    let mut total = Agreement::default();
    for (v, a) in variants.iter().zip(&per_variant) {
        summary.push([
            v.name.clone(),
            a.same.to_string(),
            a.one_step.to_string(),
            a.opposite.to_string(),
        ]);
        total.same += a.same;
        total.one_step += a.one_step;
        total.opposite += a.opposite;
    }
    summary.push([
        "all".to_string(),
        total.same.to_string(),
        total.one_step.to_string(),
        total.opposite.to_string(),
    ]);
    Ok((cells, summary, total))
}

/// Bootstrap replicates of Table 1 (see [`table1_bootstrap`]).
pub const BOOTSTRAP_REPLICATES: usize = 1000;
/// The seed of the bootstrap (fixed: the same results give the same ranges).
pub const BOOTSTRAP_SEED: u64 = 2017;

/// Table 1's total-rank tallies with the bootstrap 95 % range of each count
/// ([`bench_stats::bootstrap`], [`BOOTSTRAP_REPLICATES`] replicates resampling the 25
/// runs of every problem) beside the paper's counts; a paper count outside the range
/// is more than the sampling noise of our runs. Returns the table and the number of
/// variants whose paper `+` and `−` counts both lie inside.
///
/// # Errors
/// Statistics errors; [`StudyError::Incompatible`] if the paper has no Table 1 for
/// `data.dim`.
pub fn table1_bootstrap(inputs: &Inputs<'_>) -> Result<(Table, usize), StudyError> {
    use rand::SeedableRng;
    let (data, lineup, significance) = (inputs.data, inputs.lineup, inputs.significance);
    let dim = data.dim;
    let mut t = Table::new([
        format!("{} vs.", lineup.baseline.name).as_str(),
        "Total here",
        "Total paper",
        "95 % range of +",
        "95 % range of =",
        "95 % range of −",
        "paper inside",
        "paper − here (+, −)",
        "95 % range, two studies (+, −)",
        "within the noise of both",
    ])
    .with_title(format!(
        "Table 1, N = {dim}, total rank: the sampling noise of the measured counts (bootstrap) beside the paper's"
    ));
    let (mut consistent, mut consistent_both) = (0, 0);
    if paper::table2(dim).is_none() {
        return Err(StudyError::Incompatible(format!(
            "the paper has no Table 1 for N = {dim}"
        )));
    }
    for (k, v) in lineup.others.iter().enumerate() {
        // A combination of components the paper did not run has no row here.
        let Some(theirs) = paper::table1(&v.key, dim, true) else {
            continue;
        };
        let theirs = theirs[2];
        let pairs: Vec<(Vec<Snapshot>, Vec<Snapshot>)> = inputs
            .problems
            .iter()
            .map(|&p| {
                (
                    data.records(&lineup.baseline.key, p, 1.0),
                    data.records(&v.key, p, 1.0),
                )
            })
            .collect();
        // The verdicts the tables already hold.
        let here = Summary::of(inputs.problems.iter().map(|&p| &inputs.tested[&(k, p)]));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(BOOTSTRAP_SEED);
        let reps = resampled_summaries(&pairs, significance, BOOTSTRAP_REPLICATES, &mut rng)?;
        let range = |pick: fn(&Summary) -> usize| {
            quantile_range(&reps.iter().map(pick).collect::<Vec<_>>(), 0.05)
        };
        let plus = range(|s| s.total.plus);
        let equal = range(|s| s.total.equal);
        let minus = range(|s| s.total.minus);
        let within = |x: u32, (lo, hi): (usize, usize)| (lo..=hi).contains(&(x as usize));
        let ok = within(theirs.0, plus) && within(theirs.2, minus);
        consistent += usize::from(ok);
        // The paper's counts have their own sampling noise: the difference of two
        // independent studies' counts spreads about √2 as wide as one study's. Its
        // range: the differences of independent replicates (the first half against the
        // second), central 95 %.
        let difference = |pick: fn(&Summary) -> usize| {
            two_study_range(&reps.iter().map(pick).collect::<Vec<_>>(), 0.05)
        };
        let (dplus, dminus) = (difference(|s| s.total.plus), difference(|s| s.total.minus));
        let gap = (
            i64::from(theirs.0) - here.total.plus as i64,
            i64::from(theirs.2) - here.total.minus as i64,
        );
        let inside = |x: i64, (lo, hi): (i64, i64)| lo <= x && x <= hi;
        let both = inside(gap.0, dplus) && inside(gap.1, dminus);
        consistent_both += usize::from(both);
        let show = |(lo, hi): (usize, usize)| format!("{lo}–{hi}");
        let signed = |x: i64| {
            if x > 0 {
                format!("+{x}")
            } else {
                x.to_string()
            }
        };
        let show_d = |(lo, hi): (i64, i64)| format!("{} … {}", signed(lo), signed(hi));
        t.push([
            v.name.clone(),
            here.total.to_string(),
            paper::fmt(theirs),
            show(plus),
            show(equal),
            show(minus),
            if ok { "yes" } else { "**no**" }.to_string(),
            format!("{}, {}", signed(gap.0), signed(gap.1)),
            format!("{}, {}", show_d(dplus), show_d(dminus)),
            if both { "yes" } else { "**no**" }.to_string(),
        ]);
    }
    t.note(format!(
        "{BOOTSTRAP_REPLICATES} bootstrap replicates (seed {BOOTSTRAP_SEED}): each draws the {} runs of every problem with replacement (the same run indices for both algorithms, keeping the pairing of the signed-rank test) and recounts; the range holds the central 95 % of the replicates' counts. \"paper inside\": the paper's + and − counts both lie in their ranges ({consistent} of {} variants) — which ignores that the paper's counts are one draw of their own. \"within the noise of both\": the paper's counts minus ours lie in the 95 % range of the difference of two independent studies (the first half of the replicates against the second, {} pairs), for + and for − ({consistent_both} of {} variants); this is the verdict the text uses.",
        inputs.runs,
        lineup.others.len(),
        BOOTSTRAP_REPLICATES / 2,
        lineup.others.len()
    ));
    Ok((t, consistent))
}

/// A run's final point as the tables print it: `f` if feasible, else `ν̄ …`.
fn point(r: &Snapshot) -> String {
    if r.is_feasible() {
        sci(r.objective())
    } else {
        format!("ν̄ {}", sci(r.violation()))
    }
}

/// Whether the paper's median (printed to six significant digits) lies inside
/// `[lo, hi]` in the reference order, allowing for the rounding of the print.
fn inside(lo: &Snapshot, hi: &Snapshot, median: f64, violation: f64) -> bool {
    let widen = |x: f64, s: f64| x + s * 5e-6 * x.abs();
    let paper_best = Snapshot::new(widen(median, -1.0), widen(violation, -1.0).max(0.0));
    let paper_worst = Snapshot::new(widen(median, 1.0), widen(violation, 1.0));
    compare_runs(lo, &paper_worst) != Ordering::Greater
        && compare_runs(&paper_best, hi) != Ordering::Greater
}

/// The εMAg-ES statistics beside the paper's Table 17 (N = 10) or 18 (N = 100), with
/// the distribution-free 95 % confidence interval of the measured median (runs 8 and
/// 18 of 25 in the reference order) and whether the paper's median lies inside it.
/// Returns the table and the number of problems whose paper median lies inside.
///
/// # Errors
/// [`StudyError::Incompatible`] if the paper has no table for `data.dim` or a problem
/// lies outside C01–C28; statistics errors (too few runs for an interval).
pub fn statistics_beside_paper(
    data: &Dataset,
    baseline: &Contender,
    problems: &[usize],
) -> Result<(Table, usize), StudyError> {
    let dim = data.dim;
    let published = paper::baseline_statistics(dim).ok_or_else(|| {
        StudyError::Incompatible(format!("the paper has no εMAg-ES statistics for N = {dim}"))
    })?;
    let table_no = if dim == 10 { 17 } else { 18 };
    let baseline = baseline.key.as_str();
    let mut t = Table::new([
        "Problem",
        "median: paper",
        "median: here",
        "95 % CI of the median here",
        "paper inside",
        "mean: paper",
        "mean: here",
        "FR %: paper",
        "here",
        "mRTgb: paper",
        "here",
    ])
    .with_title(format!(
        "εMAg-ES, N = {dim}, final results beside the paper's Table {table_no}"
    ));
    let mut inside_count = 0;
    for &p in problems {
        let theirs = published.get(p.wrapping_sub(1)).ok_or_else(|| {
            StudyError::Incompatible(format!("problem C{p:02} is not in Table {table_no}"))
        })?;
        let runs = data.records(baseline, p, 1.0);
        let s = CecStatistics::compute(&runs)?;
        // Fewer than 6 runs give no 95 % interval: the columns say so.
        let interval = median_interval(&runs, MEDIAN_INTERVAL_ALPHA).ok();
        let is_inside =
            interval.map(|(lo, hi)| inside(lo, hi, theirs.median, theirs.median_violation));
        inside_count += usize::from(is_inside == Some(true));
        let paper_median = Snapshot::new(theirs.median, theirs.median_violation);
        let here_median = Snapshot::new(s.median, s.median_violation);
        t.push([
            format!("C{p:02}"),
            point(&paper_median),
            point(&here_median),
            interval.map_or("– (too few runs)".into(), |(lo, hi)| {
                format!("{} … {}", point(lo), point(hi))
            }),
            match is_inside {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "–",
            }
            .to_string(),
            sci(theirs.mean),
            sci(s.mean),
            format!("{}", theirs.feasibility_percent),
            format!("{}", (s.feasibility_rate * 100.0).round()),
            sci(theirs.mean_rt_gb),
            s.mean_rt_gb.map_or("–".into(), sci),
        ]);
    }
    let n = problems
        .first()
        .map_or(0, |&p| data.runs(baseline, p).len());
    let bounds = bench_stats::cec::median_interval_positions(n, MEDIAN_INTERVAL_ALPHA)
        .map_or("none: too few runs".to_string(), |(lo, hi)| {
            format!("runs {} and {} of {n}", lo + 1, hi + 1)
        });
    t.note(format!(
        "The paper's median lies inside the distribution-free 95 % confidence interval of the measured median ({bounds} in the CEC order: feasible runs by f, then infeasible ones by ν̄; the paper's six printed digits allowed for) on {inside_count} of {} problems. Outside it, the difference is unlikely (≤ 5 %) to be sampling noise of these 25 runs alone — though the paper's median has its own noise.",
        problems.len()
    ));
    Ok((t, inside_count))
}

/// The measured ablation study set beside the paper, table by table (what
/// `paper_comparison.md` and the docs' generated blocks hold).
#[derive(Clone, Debug)]
pub struct BesidePaper {
    /// Table 1 with the paper's columns.
    pub table1: Table,
    /// How far Table 1's counts move by sampling alone (bootstrap), beside the paper's.
    pub table1_noise: Table,
    /// Table A1 with the paper's columns.
    pub table_a1: Table,
    /// The group tables (4, 5) with the paper's columns.
    pub groups: Vec<Table>,
    /// How Table 2 agrees with the paper's, per variant.
    pub table2_agreement: Table,
    /// Table 2 cell by cell beside the paper's.
    pub table2_cells: Table,
    /// The εMAg-ES statistics beside Tables 17/18.
    pub statistics: Table,
}

impl BesidePaper {
    /// The comparison of a built report, if the paper has numbers for it
    /// ([`emages_harness::report::Inputs::published`]) and the rankings use a significance test.
    ///
    /// # Errors
    /// Statistics errors.
    pub fn of(report: &Report<'_>) -> Result<Option<Self>, StudyError> {
        let inputs = &report.inputs;
        if inputs.published().is_none() || !inputs.significance_tested() {
            return Ok(None);
        }
        let (data, lineup) = (inputs.data, inputs.lineup);
        let here: Vec<(usize, Vec<String>)> = inputs
            .problems
            .iter()
            .zip(&report.table2.rows)
            .map(|(&p, row)| (p, row[1..].to_vec()))
            .collect();
        let (table2_cells, table2_agreement, _) =
            table2_beside_paper(data.dim, &lineup.others, &here)?;
        let (statistics, _) = statistics_beside_paper(data, &lineup.baseline, &inputs.problems)?;
        let (table1_noise, _) = table1_bootstrap(inputs)?;
        Ok(Some(Self {
            table1: report.table1.clone(),
            table1_noise,
            table_a1: report.table_a1.clone(),
            groups: report.groups.iter().map(|g| g.markdown.clone()).collect(),
            table2_agreement,
            table2_cells,
            statistics,
        }))
    }

    /// The tables in the order of `paper_comparison.md` and the docs: Table 1, its
    /// bootstrap ranges, Table A1, the groups, Table 2's agreement and cells, the
    /// statistics.
    #[must_use]
    pub fn tables(&self) -> Vec<&Table> {
        let mut t = vec![&self.table1, &self.table1_noise, &self.table_a1];
        t.extend(&self.groups);
        t.extend([&self.table2_agreement, &self.table2_cells, &self.statistics]);
        t
    }

    /// The section of `report.html` (Tables 1, A1 and the groups are in the rankings
    /// already): Table 2's agreement and cells, the statistics, the bootstrap ranges.
    #[must_use]
    pub fn section(&self) -> Section {
        Section {
            heading: "Beside the paper".into(),
            tables: vec![
                self.table2_agreement.clone(),
                self.table2_cells.clone(),
                self.statistics.clone(),
                self.table1_noise.clone(),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_median_is_inside_when_within_its_printed_digits() {
        let lo = Snapshot::new(3.987_904_5, 0.0);
        let hi = Snapshot::new(10.0, 0.0);
        assert!(inside(&lo, &hi, 3.98790, 0.0)); // printed 3.98790e+00
        assert!(!inside(&lo, &hi, 3.98780, 0.0));
        assert!(!inside(&lo, &hi, 10.1, 0.0));
        // Infeasible: ν̄ alone decides.
        let lo = Snapshot::new(1.0, 5.0);
        let hi = Snapshot::new(-1.0, 6.0);
        assert!(inside(&lo, &hi, 100.0, 5.5));
        assert!(!inside(&lo, &hi, 0.0, 0.0));
    }
}
