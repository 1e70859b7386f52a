//! The statements of the paper's Section 6 measured over several seeds: for each, the
//! paper's figure, the value in every seed's study under both rankings (exact and
//! significance-aware, [`crate::parameter_study`]), the range over the seeds, and
//! whether the paper's figure lies inside it — so that "holds" means more than one
//! study's luck. `cargo run --release --example section6` writes the tables into
//! docs/parameter-studies.md; `tests/committed_results.rs` re-renders them from the
//! committed runs.

use crate::beside_paper::{BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED};
use crate::parameter_study::{bootstrap_rankings, rank, Parameter, Rankings, Scores};
use bench_stats::bootstrap::{quantile_range, two_study_range};
use bench_stats::Table;
use emages_harness::study::Dataset;
use emages_harness::StudyError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a statement measures in one ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The number of problems on which the value ranks first (shared first places count).
    FirstPlaces(usize),
    /// The value's position by the number of first places (1: the most).
    FirstPlacesPosition(usize),
    /// The value's overall rank by the average problem rank (1: the best average).
    AverageRank(usize),
    /// The number of problems on which the value has the worst rank of all.
    LastPlaces(usize),
    /// The number of problems on which all values from this one up share one rank.
    SameRankFrom(usize),
    /// The value's position by the number of first places on the problems `from..=to`
    /// only (1: the most).
    FirstPlacesPositionOn {
        /// The value.
        value: usize,
        /// The first problem of the range.
        from: usize,
        /// The last problem of the range.
        to: usize,
    },
    /// The number of the listed problems on which a value of at least `from` ranks
    /// first (shared first places count).
    FirstFromOn {
        /// The smallest value that counts.
        from: usize,
        /// The problems.
        problems: &'static [usize],
    },
}

impl Measure {
    /// The measure in one ranking of a study of `values` on `problems` (`None` if the
    /// value or a problem is not in the study).
    #[must_use]
    pub fn of(self, values: &[usize], problems: &[usize], scores: &Scores) -> Option<usize> {
        let at = |v: usize| values.iter().position(|&x| x == v);
        Some(match self {
            Self::FirstPlaces(v) => scores.overall.first_places[at(v)?],
            Self::FirstPlacesPosition(v) => {
                let mine = scores.overall.first_places[at(v)?];
                1 + scores
                    .overall
                    .first_places
                    .iter()
                    .filter(|&&f| f > mine)
                    .count()
            }
            Self::AverageRank(v) => scores.overall.rank[at(v)?],
            Self::LastPlaces(v) => {
                let k = at(v)?;
                scores
                    .per_problem
                    .iter()
                    .filter(|p| p.rank.iter().all(|&r| r <= p.rank[k]))
                    .count()
            }
            Self::SameRankFrom(v) => {
                let k = at(v)?;
                scores
                    .per_problem
                    .iter()
                    .filter(|p| p.rank[k..].iter().all(|&r| r == p.rank[k]))
                    .count()
            }
            Self::FirstPlacesPositionOn { value, from, to } => {
                let k = at(value)?;
                let on: Vec<_> = problems
                    .iter()
                    .zip(&scores.per_problem)
                    .filter(|(p, _)| (from..=to).contains(*p))
                    .map(|(_, r)| r)
                    .collect();
                if on.len() != to + 1 - from {
                    return None;
                }
                let firsts = |j: usize| on.iter().filter(|r| r.rank[j] == 1).count();
                let mine = firsts(k);
                1 + (0..values.len()).filter(|&j| firsts(j) > mine).count()
            }
            Self::FirstFromOn { from, problems: on } => {
                let mut count = 0;
                for p in on {
                    let r = &scores.per_problem[problems.iter().position(|q| q == p)?];
                    count += usize::from(
                        values
                            .iter()
                            .zip(&r.rank)
                            .any(|(&v, &rank)| v >= from && rank == 1),
                    );
                }
                count
            }
        })
    }
}

/// A statement of Section 6 with the paper's figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The paper's words, shortened.
    pub text: &'static str,
    /// What is measured.
    pub measure: Measure,
    /// The paper's figure.
    pub paper: usize,
}

/// The paper's statements on `param` at dimension `dim` (10 or 100; none otherwise).
#[must_use]
pub fn statements(param: Parameter, dim: usize) -> Vec<Statement> {
    use Measure::*;
    let s = |text, measure, paper| Statement {
        text,
        measure,
        paper,
    };
    match (param, dim) {
        (Parameter::Lambda, 10) => vec![
            s(
                "λ = 40 (= 4N) has the best average rank",
                AverageRank(40),
                1,
            ),
            s(
                "λ = 40 ranks first on 19 of 28 problems",
                FirstPlaces(40),
                19,
            ),
            s(
                "λ = 200 receives the lowest rank on 13 of 28 problems",
                LastPlaces(200),
                13,
            ),
            s(
                "on 8 problems, λ above 20 makes no difference (λ = 40 … 200 share one rank)",
                SameRankFrom(40),
                8,
            ),
        ],
        (Parameter::Lambda, 100) => vec![
            s(
                "λ = 100 has the most first places",
                FirstPlacesPosition(100),
                1,
            ),
            s("λ = 100 ranks first on 11 problems", FirstPlaces(100), 11),
            s(
                "λ = 100 is the most successful on the first half of the problems (most first places on C01–C14)",
                FirstPlacesPositionOn {
                    value: 100,
                    from: 1,
                    to: 14,
                },
                1,
            ),
            s(
                "C19, C22 and C28 reward very large populations (λ ≥ 1000 ranks first)",
                FirstFromOn {
                    from: 1000,
                    problems: &[19, 22, 28],
                },
                3,
            ),
            s("λ = 200 has the best average rank", AverageRank(200), 1),
        ],
        (Parameter::ThetaR, 10) => vec![
            s(
                "θr = 1 has the most first places",
                FirstPlacesPosition(1),
                1,
            ),
            s(
                "θr = 1 ranks first on 19 of 28 problems",
                FirstPlaces(1),
                19,
            ),
            s("θr = 10 has the best average rank", AverageRank(10), 1),
        ],
        (Parameter::ThetaR, 100) => vec![
            s(
                "θr = 1 has the most first places",
                FirstPlacesPosition(1),
                1,
            ),
            s(
                "θr = 3 is runner-up by first places",
                FirstPlacesPosition(3),
                2,
            ),
            s("θr = 3 has the best average rank", AverageRank(3), 1),
        ],
        _ => Vec::new(),
    }
}

/// The seeds' studies of `param` at `dim` under `results`, in seed order: (seed, its
/// runs files) for every directory `{key}-D{dim}` (seed 1) or `{key}-D{dim}-seed{S}`
/// that holds `runs.jsonl[.gz]` or shards.
///
/// # Errors
/// I/O errors reading the directories.
pub fn studies(
    results: &Path,
    param: Parameter,
    dim: usize,
) -> Result<Vec<(u64, Vec<PathBuf>)>, StudyError> {
    let stem = format!("{}-D{dim}", param.key());
    let mut found = Vec::new();
    let entries = std::fs::read_dir(results).map_err(|e| StudyError::io(results, e))?;
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        let seed = if name == stem {
            1
        } else if let Some(s) = name.strip_prefix(&format!("{stem}-seed")) {
            match s.parse() {
                Ok(s) => s,
                Err(_) => continue,
            }
        } else {
            continue;
        };
        let files = emages_harness::study::store::runs_files(&e.path())?;
        if !files.is_empty() {
            found.push((seed, files));
        }
    }
    found.sort();
    Ok(found)
}

/// The runs of a complete study of `param` at `dim` with the paper's values: values ×
/// 28 problems × 25 runs.
#[must_use]
pub fn expected_runs(param: Parameter, dim: usize) -> usize {
    param.default_values(dim).len() * 28 * 25
}

/// The shard index of a file named `runs.shard-I-of-N.jsonl[.gz]`, with N.
fn shard_of(file: &Path) -> Option<(usize, usize)> {
    let name = file.file_name()?.to_str()?;
    let rest = name.strip_prefix("runs.shard-")?;
    let (i, rest) = rest.split_once("-of-")?;
    let (n, _) = rest.split_once('.')?;
    Some((i.parse().ok()?, n.parse().ok()?))
}

/// The Markdown block of a study of `param` at `dim` that is not complete yet: how many
/// of its runs are committed (`runs` in `files`, the study's directory under
/// `results/`), and the paper's statements that wait for the rest. The ranking of an
/// incomplete study would rank other runs per value and is not shown.
#[must_use]
pub fn pending(param: Parameter, dim: usize, runs: usize, files: &[PathBuf]) -> String {
    let sym = param.symbol();
    let expected = expected_runs(param, dim);
    let dir = format!("results/{}-D{dim}/", param.key());
    let mut shards: Vec<(usize, usize)> = files.iter().filter_map(|f| shard_of(f)).collect();
    shards.sort_unstable();
    let held = match shards.last() {
        None if files.is_empty() => "nothing yet".to_string(),
        Some(&(_, n)) if shards.len() == files.len() => format!(
            "shard{} {} of {n}",
            if shards.len() == 1 { "" } else { "s" },
            shards
                .iter()
                .map(|(i, _)| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!("{} files", files.len()),
    };
    let mut out = format!(
        "**{sym} at N = {dim}: under way.** {runs} of the study's {expected} runs are committed (`{dir}`: {held}); the rankings and the statements are generated here when all of them are.\n\n"
    );
    let mut t = Table::new(["the paper says".to_string(), "paper".into()]).with_title(format!(
        "Section 6, {sym} at N = {dim}: the statements that wait for the study"
    ));
    for st in statements(param, dim) {
        t.push([st.text.to_string(), st.paper.to_string()]);
    }
    out.push_str(&t.to_markdown());
    out.push('\n');
    out
}

/// What `section6 --docs` writes for `param` at `dim` from the studies under
/// `results` ([`studies`]): the [`block`] over all seeds (with one seed, over its
/// [`bootstrap_rankings`]) when every seed's study is
/// complete ([`expected_runs`]), the [`pending`] block while the one study of a
/// dimension is still being run (or not started), and an error for anything else;
/// each followed by the [`run_time`] table of the runs it holds.
///
/// # Errors
/// I/O and format errors of the runs files; [`StudyError::Incompatible`] if one of
/// several seeds' studies is incomplete or a study ranks other values.
pub fn render(results: &Path, param: Parameter, dim: usize) -> Result<String, StudyError> {
    let found = studies(results, param, dim)?;
    let expected = expected_runs(param, dim);
    let mut ranked = Vec::new();
    let mut replicates = Vec::new();
    let mut per_file = Vec::new();
    for (seed, files) in &found {
        let data = Dataset::load(files)?;
        let runs = data.len();
        for f in files {
            per_file.push(Dataset::load(std::slice::from_ref(f))?);
        }
        if runs != expected {
            if found.len() == 1 && runs < expected {
                let mut out = pending(param, dim, runs, files);
                out.push_str(&run_time(param, dim, &per_file));
                return Ok(out);
            }
            return Err(StudyError::Incompatible(format!(
                "the {} study of seed {seed} at N = {dim} holds {runs} runs, not {expected}",
                param.key()
            )));
        }
        ranked.push((*seed, rank(&data, param)?));
        if found.len() == 1 {
            replicates = bootstrap_rankings(&data, param, BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED)?;
        }
    }
    if ranked.is_empty() {
        return Ok(pending(param, dim, 0, &[]));
    }
    let mut out = block(param, dim, &ranked, &replicates)?;
    out.push_str(&run_time(param, dim, &per_file));
    Ok(out)
}

/// A time in seconds with three significant digits at most (`0.042`, `4.31`, `63.3`, `412`).
fn seconds(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// Where the time of a study of `param` at `dim` went, from the wall time every run
/// record states (`seconds`), pooled over `files` (one dataset per runs file: a seed's
/// study, or a shard): per value the runs, their mean, median and longest run time and
/// their sum; the total, and with several files the range of their sums.
///
/// The records time one run on one thread of the machine that ran it (wall time, with
/// other jobs beside it and any pause of the machine included), so the table is a
/// guide to the cost (which values are dear, what a shard takes), not a benchmark; it
/// is generated from the committed runs like the rankings.
#[must_use]
pub fn run_time(param: Parameter, dim: usize, files: &[Dataset]) -> String {
    let sym = param.symbol();
    let mut t = Table::new([
        sym.to_string(),
        "runs".into(),
        "mean s per run".into(),
        "median s".into(),
        "longest s".into(),
        "run time".into(),
    ])
    .with_title(format!(
        "{sym} at N = {dim}: the run time the committed records state"
    ));
    for v in param.default_values(dim) {
        let label = param.label(v);
        let mut s: Vec<f64> = files
            .iter()
            .flat_map(|d| d.runs_of(&label).map(|r| r.seconds))
            .collect();
        if s.is_empty() {
            continue;
        }
        s.sort_by(f64::total_cmp);
        let sum: f64 = s.iter().sum();
        let median = if s.len() % 2 == 1 {
            s[s.len() / 2]
        } else {
            (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
        };
        t.push([
            v.to_string(),
            s.len().to_string(),
            seconds(sum / s.len() as f64),
            seconds(median),
            seconds(s[s.len() - 1]),
            emages_harness::study::status::duration(sum),
        ]);
    }
    let per_file: Vec<f64> = files.iter().map(Dataset::cpu_seconds).collect();
    let total: f64 = per_file.iter().sum();
    let count: usize = files.iter().map(Dataset::len).sum();
    let spread = match (
        per_file.iter().copied().reduce(f64::min),
        per_file.iter().copied().reduce(f64::max),
    ) {
        (Some(a), Some(b)) if per_file.len() > 1 => format!(
            " in {} files of {} to {} each",
            per_file.len(),
            emages_harness::study::status::duration(a),
            emages_harness::study::status::duration(b)
        ),
        _ => String::new(),
    };
    t.note(format!(
        "{count} runs{spread}, {} of run time in all. Each record states the wall time of its run on one thread, with other jobs beside it and any pause of the machine included (the committed studies: the development machine, an AMD EPYC Zen 5), so this is a guide to what costs, not a benchmark.",
        emages_harness::study::status::duration(total)
    ));
    let mut out = t.to_markdown();
    out.push('\n');
    out
}

/// `a` or `a–b` for a range `(a, b)`.
fn span((a, b): (usize, usize)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}–{b}")
    }
}

/// `a` or `a–b`.
fn range(values: &[usize]) -> String {
    match (values.iter().min(), values.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "–".into(),
    }
}

/// The Markdown block of `param` at `dim` over `studies` (one per seed, in seed order):
/// the average ranks and first places of every value in every seed under both
/// rankings, then every statement with the paper's figure, the per-seed values, the
/// range, and "holds" where the paper's figure lies inside the range.
///
/// With one study, the range comes from its bootstrap `replicates`
/// ([`bootstrap_rankings`]) instead: the central 95 % of the replicates' values, and a
/// statement that does not hold exactly is "within noise" where the paper's figure
/// minus ours lies in the 95 % range of the difference of two independent studies
/// ([`two_study_range`]) — the paper's figure is one study's draw as well.
///
/// # Errors
/// [`StudyError::Incompatible`] if the studies rank different values;
/// [`StudyError::Invalid`] for no studies, or replicates beside several studies.
pub fn block(
    param: Parameter,
    dim: usize,
    studies: &[(u64, Rankings)],
    replicates: &[Rankings],
) -> Result<String, StudyError> {
    let first = agreeing(studies, replicates)?;
    let mut out = per_value_table(param, dim, studies, first, replicates).to_markdown();
    out.push('\n');
    out.push_str(&statements_table(param, dim, studies, replicates).to_markdown());
    let _ = writeln!(out);
    Ok(out)
}

/// The first study, once the studies rank the same values and replicates (if any)
/// stand beside one study only.
fn agreeing<'s>(
    studies: &'s [(u64, Rankings)],
    replicates: &[Rankings],
) -> Result<&'s Rankings, StudyError> {
    if studies.len() > 1 && !replicates.is_empty() {
        return Err(StudyError::Invalid(
            "bootstrap replicates stand in for seeds: give one study with them".into(),
        ));
    }
    let Some((_, first)) = studies.first() else {
        return Err(StudyError::Invalid("no studies".into()));
    };
    if studies.iter().any(|(_, r)| r.values != first.values) {
        return Err(StudyError::Incompatible(
            "the seeds' studies rank different values".into(),
        ));
    }
    Ok(first)
}

/// The average ranks and first places of every value in every seed, under both
/// rankings (the first table of [`block`]).
fn per_value_table(
    param: Parameter,
    dim: usize,
    studies: &[(u64, Rankings)],
    first: &Rankings,
    replicates: &[Rankings],
) -> Table {
    let boot = !replicates.is_empty();
    let seeds: Vec<String> = studies.iter().map(|(s, _)| s.to_string()).collect();
    let sym = param.symbol();
    let mut per_value = Table::new([
        sym.to_string(),
        "exact: average rank".into(),
        "exact: first places".into(),
        "significance-aware: average rank".into(),
        "significance-aware: first places".into(),
    ])
    .with_title(format!(
        "{sym} at N = {dim}: average rank and first places {}",
        if seeds.len() == 1 {
            format!("(one study, seed {})", seeds[0])
        } else {
            format!("per seed (seeds {})", seeds.join(", "))
        }
    ));
    for (k, v) in first.values.iter().enumerate() {
        let avg = |pick: fn(&Rankings) -> &Scores| {
            studies
                .iter()
                .map(|(_, r)| format!("{:.3}", pick(r).overall.average_rank[k]))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let firsts = |pick: fn(&Rankings) -> &Scores| {
            let f: Vec<usize> = studies
                .iter()
                .map(|(_, r)| pick(r).overall.first_places[k])
                .collect();
            let spread = if boot {
                let b: Vec<usize> = replicates
                    .iter()
                    .map(|r| pick(r).overall.first_places[k])
                    .collect();
                span(quantile_range(&b, 0.05))
            } else {
                range(&f)
            };
            format!(
                "{} ({spread})",
                f.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" / "),
            )
        };
        per_value.push([
            v.to_string(),
            avg(|r| &r.exact),
            firsts(|r| &r.exact),
            avg(|r| &r.significance),
            firsts(|r| &r.significance),
        ]);
    }
    per_value.note(if boot {
        format!(
            "{} runs per value and problem, {} problems; in parentheses the central 95 % of the first places over {} bootstrap replicates (seed {BOOTSTRAP_SEED}; each redraws the runs of every problem with replacement, the same run indices for every value).",
            first.runs,
            first.problems.len(),
            replicates.len()
        )
    } else {
        format!(
            "{} runs per value and problem, {} problems; values per seed separated by /, the range over the seeds in parentheses.",
            first.runs,
            first.problems.len()
        )
    });
    per_value
}

/// Every statement of the paper with its figure, the per-seed values, their range and
/// whether it holds (the second table of [`block`]).
fn statements_table(
    param: Parameter,
    dim: usize,
    studies: &[(u64, Rankings)],
    replicates: &[Rankings],
) -> Table {
    let boot = !replicates.is_empty();
    let sym = param.symbol();
    let (columns, title) = if boot {
        (
            [
                "exact (bootstrap range)",
                "exact",
                "significance-aware (bootstrap range)",
                "significance-aware",
            ],
            format!("Section 6, {sym} at N = {dim}: the paper's statements beside one study"),
        )
    } else {
        (
            [
                "exact, per seed (range)",
                "exact",
                "significance-aware, per seed (range)",
                "significance-aware",
            ],
            format!(
                "Section 6, {sym} at N = {dim}: the paper's statements over {} seeds",
                studies.len()
            ),
        )
    };
    let mut t = Table::new(
        ["the paper says", "paper"]
            .into_iter()
            .chain(columns)
            .map(str::to_string)
            .collect::<Vec<_>>(),
    )
    .with_title(title);
    for st in statements(param, dim) {
        let mut row = vec![st.text.to_string(), st.paper.to_string()];
        for pick in [
            (|r: &Rankings| &r.exact) as fn(&Rankings) -> &Scores,
            |r: &Rankings| &r.significance,
        ] {
            let [measured, verdict] = judge(&st, pick, studies, replicates);
            row.push(measured);
            row.push(verdict);
        }
        t.push(row);
    }
    if boot {
        t.note(format!("Ranks and positions: 1 = best. In parentheses the central 95 % of the {} bootstrap replicates' values. \"holds\": the paper's figure equals this study's. \"within noise\": it differs, but by no more than two independent studies of the same setting do (the paper's figure minus ours lies in the central 95 % of the differences of independent replicates, the first half against the second) — the paper's figure is one study's draw too. Replicates repeat runs, which makes signed-rank differences look a little more significant, so the ranges are a guide to the noise, not exact intervals.", replicates.len()));
    } else if studies.len() == 1 {
        t.note("\"holds\": the paper's figure equals this study's (ranks and positions: 1 = best). One seed has no range: at N = 10 the first-place counts of one value moved by up to 7 between seeds, so a count that misses by a few says little.");
    } else {
        t.note("\"holds\": the paper's figure lies inside the range over the seeds (ranks and positions: 1 = best); the range is this study's seed-to-seed spread, which the paper's own single study also has.");
    }
    t
}

/// One statement under one ranking (`pick`): the measured values with their range, and
/// the verdict — against the seeds' range, or (one study with replicates) exact or
/// within the noise of two studies.
fn judge(
    st: &Statement,
    pick: fn(&Rankings) -> &Scores,
    studies: &[(u64, Rankings)],
    replicates: &[Rankings],
) -> [String; 2] {
    let v: Vec<usize> = studies
        .iter()
        .filter_map(|(_, r)| st.measure.of(&r.values, &r.problems, pick(r)))
        .collect();
    let shown = v
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" / ");
    if replicates.is_empty() {
        let inside = !v.is_empty()
            && v.iter().min().is_some_and(|&a| a <= st.paper)
            && v.iter().max().is_some_and(|&b| st.paper <= b);
        let verdict = if inside { "**holds**" } else { "does not hold" };
        return [format!("{shown} ({})", range(&v)), verdict.to_string()];
    }
    let b: Vec<usize> = replicates
        .iter()
        .filter_map(|r| st.measure.of(&r.values, &r.problems, pick(r)))
        .collect();
    let verdict = match v.first() {
        Some(&x) if x == st.paper => "**holds**",
        Some(&x) => {
            let (lo, hi) = two_study_range(&b, 0.05);
            let gap = st.paper as i64 - x as i64;
            if b.len() == replicates.len() && lo <= gap && gap <= hi {
                "within noise"
            } else {
                "does not hold"
            }
        }
        None => "does not hold",
    };
    [
        format!("{shown} ({})", span(quantile_range(&b, 0.05))),
        verdict.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_stats::configurations::ProblemRanking;

    fn scores(ranks: &[&[usize]]) -> Scores {
        let per_problem: Vec<ProblemRanking> = ranks
            .iter()
            .map(|r| ProblemRanking {
                mean_rank: r.to_vec(),
                median_rank: r.to_vec(),
                score: r.to_vec(),
                rank: r.to_vec(),
            })
            .collect();
        let overall = bench_stats::configurations::overall(&per_problem).unwrap();
        Scores {
            per_problem,
            overall,
        }
    }

    #[test]
    fn the_measures_count_what_they_say() {
        let values = [10, 20, 40];
        let problems = [1, 2, 3];
        // Three problems: [1, 2, 3], [2, 1, 1], [1, 1, 1].
        let s = scores(&[&[1, 2, 3], &[2, 1, 1], &[1, 1, 1]]);
        let of = |m: Measure| m.of(&values, &problems, &s);
        assert_eq!(of(Measure::FirstPlaces(40)), Some(2));
        assert_eq!(of(Measure::FirstPlaces(10)), Some(2));
        assert_eq!(of(Measure::FirstPlacesPosition(20)), Some(1));
        assert_eq!(of(Measure::LastPlaces(40)), Some(2)); // problems 1 and 3
        assert_eq!(of(Measure::LastPlaces(10)), Some(2)); // problems 2 and 3
        assert_eq!(of(Measure::SameRankFrom(20)), Some(2)); // problems 2 and 3
        assert_eq!(of(Measure::AverageRank(20)), Some(1)); // 4/3
        assert_eq!(of(Measure::FirstPlaces(80)), None);
        // On problems 2–3 only: 20 and 40 rank first twice, 10 once.
        let on = |value| Measure::FirstPlacesPositionOn {
            value,
            from: 2,
            to: 3,
        };
        assert_eq!(of(on(20)), Some(1));
        assert_eq!(of(on(40)), Some(1));
        assert_eq!(of(on(10)), Some(3));
        assert_eq!(
            of(Measure::FirstPlacesPositionOn {
                value: 10,
                from: 2,
                to: 4
            }),
            None,
            "problem 4 is not in the study"
        );
        // A value of at least 40 first on problems 2 and 3, not on 1.
        let from40 = |problems| Measure::FirstFromOn { from: 40, problems };
        assert_eq!(of(from40(&[1, 2, 3])), Some(2));
        assert_eq!(of(from40(&[1])), Some(0));
        assert_eq!(of(from40(&[5])), None);
    }

    #[test]
    fn a_pending_block_counts_the_committed_shards() {
        let files: Vec<PathBuf> = [
            "d/runs.shard-12-of-16.jsonl.gz",
            "d/runs.shard-3-of-16.jsonl",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let text = pending(Parameter::ThetaR, 100, 525, &files);
        assert!(
            text.contains("525 of the study's 4200 runs are committed (`results/theta_r-D100/`: shards 3, 12 of 16)"),
            "{text}"
        );
        assert!(
            text.contains("| θr = 3 has the best average rank | 1 |"),
            "{text}"
        );
        let none = pending(Parameter::Lambda, 100, 0, &[]);
        assert!(
            none.contains(
                "0 of the study's 4900 runs are committed (`results/lambda-D100/`: nothing yet)"
            ),
            "{none}"
        );
        let one = pending(Parameter::Lambda, 100, 307, &files[1..]);
        assert!(one.contains("shard 3 of 16)"), "{one}");
    }
}
