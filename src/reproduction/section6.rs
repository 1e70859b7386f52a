//! The statements of the paper's Section 6 measured over several seeds: for each, the
//! paper's figure, the value in every seed's study under both rankings (exact and
//! significance-aware, [`super::parameter_study`]), the range over the seeds, and
//! whether the paper's figure lies inside it — so that "holds" means more than one
//! study's luck. `cargo run --release --example section6` writes the tables into
//! docs/parameter-studies.md; `tests/committed_results.rs` re-renders them from the
//! committed runs.

use super::parameter_study::{Parameter, Rankings, Scores};
use crate::error::StudyError;
use bench_stats::Table;
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
}

impl Measure {
    /// The measure in one ranking (`None` if the value is not in the study).
    #[must_use]
    pub fn of(self, values: &[usize], scores: &Scores) -> Option<usize> {
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
        let mut files: Vec<PathBuf> = std::fs::read_dir(e.path())
            .map_err(|err| StudyError::io(&e.path(), err))?
            .filter_map(Result::ok)
            .map(|f| f.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("runs") && n.contains(".jsonl"))
            })
            .collect();
        files.sort();
        if !files.is_empty() {
            found.push((seed, files));
        }
    }
    found.sort();
    Ok(found)
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
/// # Errors
/// [`StudyError::Incompatible`] if the studies rank different values.
pub fn block(
    param: Parameter,
    dim: usize,
    studies: &[(u64, Rankings)],
) -> Result<String, StudyError> {
    let Some((_, first)) = studies.first() else {
        return Err(StudyError::Invalid("no studies".into()));
    };
    if studies.iter().any(|(_, r)| r.values != first.values) {
        return Err(StudyError::Incompatible(
            "the seeds' studies rank different values".into(),
        ));
    }
    let seeds: Vec<String> = studies.iter().map(|(s, _)| s.to_string()).collect();
    let sym = param.symbol();
    let mut out = String::new();
    let mut per_value = Table::new([
        sym.to_string(),
        "exact: average rank".into(),
        "exact: first places".into(),
        "significance-aware: average rank".into(),
        "significance-aware: first places".into(),
    ])
    .with_title(format!(
        "{sym} at N = {dim}: average rank and first places per seed (seeds {})",
        seeds.join(", ")
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
            format!(
                "{} ({})",
                f.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" / "),
                range(&f)
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
    per_value.note(format!(
        "{} runs per value and problem, {} problems; values per seed separated by /, the range over the seeds in parentheses.",
        first.runs,
        first.problems.len()
    ));
    out.push_str(&per_value.to_markdown());
    out.push('\n');
    let mut t = Table::new([
        "the paper says".to_string(),
        "paper".into(),
        "exact, per seed (range)".into(),
        "exact".into(),
        "significance-aware, per seed (range)".into(),
        "significance-aware".into(),
    ])
    .with_title(format!(
        "Section 6, {sym} at N = {dim}: the paper's statements over {} seeds",
        studies.len()
    ));
    for st in statements(param, dim) {
        let mut row = vec![st.text.to_string(), st.paper.to_string()];
        for pick in [
            (|r: &Rankings| &r.exact) as fn(&Rankings) -> &Scores,
            |r: &Rankings| &r.significance,
        ] {
            let v: Vec<usize> = studies
                .iter()
                .filter_map(|(_, r)| st.measure.of(&r.values, pick(r)))
                .collect();
            let inside = !v.is_empty()
                && v.iter().min().is_some_and(|&a| a <= st.paper)
                && v.iter().max().is_some_and(|&b| st.paper <= b);
            row.push(format!(
                "{} ({})",
                v.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" / "),
                range(&v)
            ));
            row.push(if inside { "**holds**" } else { "does not hold" }.to_string());
        }
        t.push(row);
    }
    t.note("\"holds\": the paper's figure lies inside the range over the seeds (ranks and positions: 1 = best); the range is this study's seed-to-seed spread, which the paper's own single study also has.");
    out.push_str(&t.to_markdown());
    let _ = writeln!(out);
    Ok(out)
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
        // Three problems: [1, 2, 3], [2, 1, 1], [1, 1, 1].
        let s = scores(&[&[1, 2, 3], &[2, 1, 1], &[1, 1, 1]]);
        assert_eq!(Measure::FirstPlaces(40).of(&values, &s), Some(2));
        assert_eq!(Measure::FirstPlaces(10).of(&values, &s), Some(2));
        assert_eq!(Measure::FirstPlacesPosition(20).of(&values, &s), Some(1));
        assert_eq!(Measure::LastPlaces(40).of(&values, &s), Some(2)); // problems 1 and 3
        assert_eq!(Measure::LastPlaces(10).of(&values, &s), Some(2)); // problems 2 and 3
        assert_eq!(Measure::SameRankFrom(20).of(&values, &s), Some(2)); // problems 2 and 3
        assert_eq!(Measure::AverageRank(20).of(&values, &s), Some(1)); // 4/3
        assert_eq!(Measure::FirstPlaces(80).of(&values, &s), None);
    }
}
