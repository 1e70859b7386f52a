//! The measured ablation study beside the paper's published numbers: Table 2 cell by
//! cell, and the εMAg-ES statistics beside Tables 17/18 with a confidence interval
//! that says whether a difference is more than sampling noise.
//!
//! The report ([`crate::report::ablation_report`]) writes the result as
//! `paper_comparison.md`; `--docs FILE` writes the same text into a marked block of a
//! Markdown file (docs/reproduction.md), so that the documentation quotes the tool's
//! output rather than numbers typed by hand.

use crate::error::StudyError;
use crate::paper::{self, Table2Cell};
use crate::report::sci;
use crate::report::{Contender, Inputs};
use crate::study::dataset::Dataset;
use bench_stats::bootstrap::{quantile_range, resampled_summaries};
use bench_stats::cec::{compare_runs, median_interval, CecStatistics, Snapshot};
use bench_stats::pairwise::Summary;
use bench_stats::Table;
use std::cmp::Ordering;
use std::path::Path;

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
            let theirs = paper::table2_cell(&v.key, *problem, dim).ok_or_else(no_paper)?;
            let d = ours.distance(theirs);
            per_variant[k].add(d);
            let ours_text = match ours {
                Table2Cell::Tie(r) => format!("{r:.2}"),
                other => other.to_string(),
            };
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
    ])
    .with_title(format!(
        "Table 1, N = {dim}, total rank: the sampling noise of the measured counts (bootstrap) beside the paper's"
    ));
    let mut consistent = 0;
    for (k, v) in lineup.others.iter().enumerate() {
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
        let theirs = paper::table1(&v.key, dim, true).ok_or_else(|| {
            StudyError::Incompatible(format!("the paper has no Table 1 for N = {dim}"))
        })?[2];
        let within = |x: u32, (lo, hi): (usize, usize)| (lo..=hi).contains(&(x as usize));
        let ok = within(theirs.0, plus) && within(theirs.2, minus);
        consistent += usize::from(ok);
        let show = |(lo, hi): (usize, usize)| format!("{lo}–{hi}");
        t.push([
            v.name.clone(),
            here.total.to_string(),
            paper::fmt(theirs),
            show(plus),
            show(equal),
            show(minus),
            if ok { "yes" } else { "**no**" }.to_string(),
        ]);
    }
    t.note(format!(
        "{BOOTSTRAP_REPLICATES} bootstrap replicates (seed {BOOTSTRAP_SEED}): each draws the {} runs of every problem with replacement (the same run indices for both algorithms, keeping the pairing of the signed-rank test) and recounts; the range holds the central 95 % of the replicates' counts. \"paper inside\": the paper's + and − counts both lie in their ranges ({consistent} of {} variants).",
        inputs.runs,
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

/// A link to a figure in the comparison: the file name in `plots/` and its caption.
#[derive(Clone, Debug)]
pub struct FigureLink {
    /// File name (e.g. `C03_D100_fitness.svg`).
    pub file: String,
    /// Caption.
    pub caption: String,
}

/// The comparison as Markdown: the given tables in order, then the figures, linked
/// as `{plots_prefix}{file}`.
#[must_use]
pub fn to_markdown(tables: &[&Table], figures: &[FigureLink], plots_prefix: &str) -> String {
    let mut out = String::new();
    for t in tables {
        out.push_str(&t.to_markdown());
        out.push('\n');
    }
    if !figures.is_empty() {
        out.push_str("**Dynamics (Section 5)**\n\n");
        for f in figures {
            out.push_str(&format!(
                "![{}]({plots_prefix}{})\n\n",
                f.caption.replace(['[', ']'], ""),
                f.file
            ));
        }
    }
    out
}

/// The relative link from the directory of `doc` to `target` (both existing), with
/// `/` separators and a trailing `/` — e.g. `../results/ablation-D100/plots/`.
///
/// # Errors
/// I/O errors if either path does not exist.
pub fn relative_link(doc: &Path, target: &Path) -> Result<String, StudyError> {
    let doc = doc.canonicalize().map_err(|e| StudyError::io(doc, e))?;
    let from = doc.parent().unwrap_or(Path::new("/"));
    let to = target
        .canonicalize()
        .map_err(|e| StudyError::io(target, e))?;
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    let mut link = parts.join("/");
    if !link.is_empty() {
        link.push('/');
    }
    Ok(link)
}

/// A generated block of a Markdown file: the text between the lines
/// `<!-- BEGIN generated by {tool}: {name} -->` and `<!-- END generated: {name} -->`,
/// written by a tool and checked against the committed results by
/// `tests/committed_results.rs`, so that what the docs quote cannot go stale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocBlock {
    begin: String,
    end: String,
    name: String,
}

impl DocBlock {
    /// The block `name`, written by `tool` (named in its BEGIN line).
    #[must_use]
    pub fn new(tool: &str, name: &str) -> Self {
        Self {
            begin: format!("<!-- BEGIN generated by {tool}: {name} -->"),
            end: format!("<!-- END generated: {name} -->"),
            name: name.to_string(),
        }
    }

    /// The comparison with the paper at dimension `dim` (`ablation --report … --docs`).
    #[must_use]
    pub fn ablation(dim: usize) -> Self {
        Self::new("`ablation --report … --docs`", &format!("N = {dim}"))
    }

    /// The divergence table of the nl variant at dimension `dim` (`nl_divergence
    /// --docs`), a copy of `results/nl-divergence-D{dim}/nl_divergence.md`.
    #[must_use]
    pub fn nl_divergence(dim: usize) -> Self {
        Self::new(
            "`nl_divergence --docs`",
            &format!("nl_divergence: N = {dim}"),
        )
    }

    /// The BEGIN and END lines.
    #[must_use]
    pub fn markers(&self) -> (&str, &str) {
        (&self.begin, &self.end)
    }

    /// The block's text in `doc` (leading blank lines dropped), if the markers are there.
    #[must_use]
    pub fn read<'d>(&self, doc: &'d str) -> Option<&'d str> {
        let b = doc.find(&self.begin)? + self.begin.len();
        let e = doc.find(&self.end)?;
        doc.get(b..e).map(|s| s.trim_start_matches('\n'))
    }

    /// Replaces the block's text in the file `doc` by `content`.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if the file cannot be read or lacks the markers.
    pub fn replace(&self, doc: &Path, content: &str) -> Result<(), StudyError> {
        let text = std::fs::read_to_string(doc).map_err(|e| StudyError::io(doc, e))?;
        let (Some(b), Some(e)) = (text.find(&self.begin), text.find(&self.end)) else {
            return Err(StudyError::Invalid(format!(
                "{} has no block to fill: add the lines {} and {} where {} belongs",
                doc.display(),
                self.begin,
                self.end,
                self.name
            )));
        };
        if e < b {
            return Err(StudyError::Invalid(format!(
                "{}: the END marker of {} comes before its BEGIN marker",
                doc.display(),
                self.name
            )));
        }
        let new = format!("{}{}\n\n{content}{}", &text[..b], self.begin, &text[e..]);
        std::fs::write(doc, new).map_err(|e| StudyError::io(doc, e))
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

    #[test]
    fn blocks_are_replaced_between_their_markers_only() {
        let dir = tempfile::tempdir().unwrap();
        let doc = dir.path().join("doc.md");
        let block = DocBlock::ablation(100);
        let (b, e) = block.markers();
        std::fs::write(&doc, format!("# Title\n\n{b}\nold\n{e}\n\nafter\n")).unwrap();
        block.replace(&doc, "new table\n").unwrap();
        let text = std::fs::read_to_string(&doc).unwrap();
        assert_eq!(text, format!("# Title\n\n{b}\n\nnew table\n{e}\n\nafter\n"));
        assert_eq!(block.read(&text), Some("new table\n"));
        // Another block's markers are not this one's.
        assert_eq!(DocBlock::nl_divergence(100).read(&text), None);
        let err = DocBlock::ablation(10)
            .replace(&doc, "x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no block to fill"), "{err}");
        let plots = dir.path().join("results/D100/plots");
        std::fs::create_dir_all(&plots).unwrap();
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        let doc2 = dir.path().join("docs/x.md");
        std::fs::write(&doc2, "").unwrap();
        assert_eq!(
            relative_link(&doc2, &plots).unwrap(),
            "../results/D100/plots/"
        );
        assert_eq!(relative_link(&doc, &plots).unwrap(), "results/D100/plots/");
    }
}
