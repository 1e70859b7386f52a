//! The parameter studies of Section 6: the offspring population size `λ` (with
//! `μ = ⌊λ/3⌋`) and the maximal number of repair repetitions `θ_r`, ranked per problem
//! and overall, shown as heat maps — twice: by exact comparison of means and medians as
//! docs/algorithm.md §6 describes, and by the significance-aware reading of the paper's text
//! ([`bench_stats::configurations::rank_on_problem_with_significance`]).

use bench_stats::configurations::{
    overall, rank_on_problem, rank_on_problem_with_significance, OverallRanking, ProblemRanking,
};
use bench_stats::pairwise::Significance;
use bench_stats::Table;
use emages_harness::report::write_table;
use emages_harness::report::{heat_map, Block, Page};
use emages_harness::study::Dataset;
use emages_harness::study::StudyConfig;
use emages_harness::StudyError;
use ma_es::{Config, Variant};
use std::path::{Path, PathBuf};

/// The studied parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parameter {
    /// The offspring population size `λ`, with `μ = ⌊λ/3⌋`.
    Lambda,
    /// The maximal number of consecutive repair steps `θ_r`.
    ThetaR,
    /// The generation `T` from which ε is 0 (the end of the ε schedule; the paper
    /// fixes it at 1000 and does not study it).
    TMax,
}

impl Parameter {
    /// The name used in configuration labels (`lambda=40`, `theta_r=3`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::Lambda => "lambda",
            Self::ThetaR => "theta_r",
            Self::TMax => "t_max",
        }
    }

    /// The symbol for tables and plots.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Lambda => "λ",
            Self::ThetaR => "θr",
            Self::TMax => "T",
        }
    }

    /// The paper's values: `λ ∈ {3, 10, 20, 40, 80, 100, 200}` for N = 10 and
    /// `{3, 10, 100, 200, 400, 1000, 2000}` for N = 100 (other N: the N = 10 grid scaled
    /// by N/10); `θ_r ∈ {1, 3, 10, 20, 100, 1000}`; for `T` (not the paper's) a grid
    /// around its 1000: `{100, 250, 500, 1000, 2000, 4000}`.
    #[must_use]
    pub fn default_values(self, dim: usize) -> Vec<usize> {
        match (self, dim) {
            (Self::ThetaR, _) => vec![1, 3, 10, 20, 100, 1000],
            (Self::TMax, _) => vec![100, 250, 500, 1000, 2000, 4000],
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
            Self::TMax => Config {
                t_max: value,
                ..Config::default()
            },
        };
        Ok(
            StudyConfig::preset(self.label(value), Variant::EpsMagEs, config)
                .with_setting(self.key(), value),
        )
    }
}

/// One ranking of the configurations: per problem and overall, with its tables.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// Per problem, the ranking of the configurations.
    pub per_problem: Vec<ProblemRanking>,
    /// The overall ranking.
    pub overall: OverallRanking,
    /// The average-rank table (for printing).
    pub summary: Table,
}

/// What the parameter report computed.
#[derive(Clone, Debug)]
pub struct ParameterReport {
    /// The values, ascending.
    pub values: Vec<usize>,
    /// The problems.
    pub problems: Vec<usize>,
    /// Per problem, the ranking of the configurations (exact comparison, docs/algorithm.md §6).
    pub per_problem: Vec<ProblemRanking>,
    /// The overall ranking (exact comparison).
    pub overall: OverallRanking,
    /// The average-rank table of the exact ranking (for printing).
    pub summary: Table,
    /// The significance-aware ranking (Wilcoxon signed-rank test, α = 0.05).
    pub significance: Ranking,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// The two ways to rank, with their file names and descriptions.
struct Rule {
    /// File-name suffix (`""` for the exact ranking's historical names).
    suffix: &'static str,
    /// How a problem's ranks come about.
    note: &'static str,
    /// Short name for titles.
    name: &'static str,
}

const EXACT: Rule = Rule {
    suffix: "",
    note: "Per problem: mean rank (FR, then mean ν̄, then mean f) + median rank (median run's ν̄, then f), competition-ranked; overall: the average of the per-problem ranks. No significance test (docs/algorithm.md §6).",
    name: "exact comparison",
};

const SIGNIFICANCE: Rule = Rule {
    suffix: "_significance",
    note: "Per problem: 1 + the number of configurations significantly better by the pairwise median rule, plus 1 + the number better by the pairwise mean rule (the comparisons of Section 4: Wilcoxon signed-rank, α = 0.05, runs paired by index), competition-ranked, so configurations that do not differ significantly share a rank; overall: the average of the per-problem ranks.",
    name: "significance-aware",
};

/// Both rankings of a parameter study, computed from its results without writing
/// anything ([`rank`]).
#[derive(Clone, Debug)]
pub struct Rankings {
    /// The values, ascending (the configurations' order in every ranking).
    pub values: Vec<usize>,
    /// The problems.
    pub problems: Vec<usize>,
    /// Runs per configuration and problem.
    pub runs: usize,
    /// The exact comparison (docs/algorithm.md §6).
    pub exact: Scores,
    /// The significance-aware ranking (Wilcoxon signed-rank test, α = 0.05).
    pub significance: Scores,
}

/// One ranking's per-problem and overall results.
#[derive(Clone, Debug)]
pub struct Scores {
    /// Per problem (in [`Rankings::problems`] order).
    pub per_problem: Vec<ProblemRanking>,
    /// Overall.
    pub overall: OverallRanking,
}

/// Ranks the configurations of a parameter study's results both ways.
///
/// # Errors
/// [`StudyError::Incompatible`] if the results hold other configurations or are
/// incomplete.
pub fn rank(data: &Dataset, param: Parameter) -> Result<Rankings, StudyError> {
    let study = FinalRuns::of(data, param)?;
    study.rank(&study.records)
}

/// Bootstrap replicates of a study's [`rank`]ings: each draws, on every problem, as
/// many run indices as the study has runs, with replacement — the same indices for
/// every value, which keeps the pairing by index of the signed-rank tests — and ranks
/// the redrawn runs both ways. The spread of a statistic over the replicates (e.g. a
/// value's first places) estimates how much it would move with other runs.
///
/// Replicates hold repeated runs, which makes signed-rank differences look a little
/// more significant than in a study of distinct runs; the ranges are a guide to the
/// noise, not exact intervals.
///
/// # Errors
/// As [`rank`].
pub fn bootstrap_rankings(
    data: &Dataset,
    param: Parameter,
    replicates: usize,
    seed: u64,
) -> Result<Vec<Rankings>, StudyError> {
    use rand::{Rng, SeedableRng};
    let study = FinalRuns::of(data, param)?;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut drawn = study.records.clone();
    let mut out = Vec::with_capacity(replicates);
    for _ in 0..replicates {
        for (per_value, original) in drawn.iter_mut().zip(&study.records) {
            for i in 0..study.runs {
                let j = rng.random_range(0..study.runs);
                for (d, o) in per_value.iter_mut().zip(original) {
                    d[i] = o[j];
                }
            }
        }
        out.push(study.rank(&drawn)?);
    }
    Ok(out)
}

/// A complete parameter study's final best-so-far points: `records[p][k]` holds the
/// runs of value `k` on problem `p` (in [`FinalRuns::problems`] order), by run index.
struct FinalRuns {
    values: Vec<usize>,
    problems: Vec<usize>,
    runs: usize,
    records: Vec<Vec<Vec<bench_stats::Snapshot>>>,
}

impl FinalRuns {
    fn of(data: &Dataset, param: Parameter) -> Result<Self, StudyError> {
        let mut values = Vec::new();
        for label in data.configs() {
            // The typed setting of the records; version-1 records only have the label.
            let typed = data
                .runs_of(&label)
                .find_map(|r| r.setting.as_ref())
                .filter(|s| s.parameter == param.key())
                .map(|s| s.value);
            match typed.or_else(|| param.value_of(&label)) {
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
        let records = problems
            .iter()
            .map(|&p| labels.iter().map(|l| data.records(l, p, 1.0)).collect())
            .collect();
        Ok(Self {
            values,
            problems,
            runs,
            records,
        })
    }

    /// Both rankings of `records` (shaped as [`FinalRuns::records`]).
    fn rank(&self, records: &[Vec<Vec<bench_stats::Snapshot>>]) -> Result<Rankings, StudyError> {
        let (mut exact, mut tested) = (Vec::new(), Vec::new());
        for per_value in records {
            let slices: Vec<&[bench_stats::Snapshot]> =
                per_value.iter().map(Vec::as_slice).collect();
            exact.push(rank_on_problem(&slices)?);
            tested.push(rank_on_problem_with_significance(
                &slices,
                Significance::default(),
            )?);
        }
        Ok(Rankings {
            exact: Scores {
                overall: overall(&exact)?,
                per_problem: exact,
            },
            significance: Scores {
                overall: overall(&tested)?,
                per_problem: tested,
            },
            values: self.values.clone(),
            problems: self.problems.clone(),
            runs: self.runs,
        })
    }
}

/// Ranks the configurations of a parameter study per problem and overall, twice (exact
/// comparison as docs/algorithm.md §6, and significance-aware), and writes for each
/// `ranks{,_significance}.csv` (problems × configurations: the heat-map tiles),
/// `ranks_detail{,_significance}.csv` (mean rank, median rank, score),
/// `average_ranks{,_significance}.md/.csv`, `heatmap{,_significance}.svg/.png`, and one
/// `report.html` with both.
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
    let Rankings {
        values,
        problems,
        runs,
        exact,
        significance: tested,
    } = rank(data, param)?;
    let labels: Vec<String> = values.iter().map(|&v| param.label(v)).collect();
    let exact = exact.per_problem;
    let tested = tested.per_problem;
    let study = Study {
        data,
        out,
        param,
        values: &values,
        labels: &labels,
        problems: &problems,
        runs,
    };
    let mut files = Vec::new();
    let mut page = Page {
        title: format!(
            "εMAg-ES parameter study: {}, N = {}",
            param.symbol(),
            data.dim
        ),
        blocks: Vec::new(),
    };
    if let Some(w) = data.warning() {
        page.blocks.push(Block::Warning(w));
    }
    let exact = study.write_ranking(&EXACT, exact, &mut files, &mut page)?;
    let significance = study.write_ranking(&SIGNIFICANCE, tested, &mut files, &mut page)?;
    let html = out.join("report.html");
    std::fs::write(&html, page.render()).map_err(|e| StudyError::io(&html, e))?;
    files.push(html);
    Ok(ParameterReport {
        values,
        problems,
        per_problem: exact.per_problem,
        overall: exact.overall,
        summary: exact.summary,
        significance,
        files,
    })
}

/// The inputs every ranking's outputs share.
struct Study<'a> {
    data: &'a Dataset,
    out: &'a Path,
    param: Parameter,
    values: &'a [usize],
    labels: &'a [String],
    problems: &'a [usize],
    runs: usize,
}

impl Study<'_> {
    /// Writes one ranking's tables and heat map and adds them to the page.
    fn write_ranking(
        &self,
        rule: &Rule,
        per_problem: Vec<ProblemRanking>,
        files: &mut Vec<PathBuf>,
        page: &mut Page,
    ) -> Result<Ranking, StudyError> {
        let (data, out, param, values, labels, problems) = (
            self.data,
            self.out,
            self.param,
            self.values,
            self.labels,
            self.problems,
        );
        let overall = overall(&per_problem)?;
        let warning = data.warning();
        let columns: Vec<String> = values
            .iter()
            .map(|v| format!("{}={v}", param.symbol()))
            .collect();

        // ranks.csv: the tiles.
        let mut ranks =
            Table::new(std::iter::once("problem".to_string()).chain(labels.iter().cloned()));
        for (&p, r) in problems.iter().zip(&per_problem) {
            ranks
                .push(std::iter::once(data.label(p)).chain(r.rank.iter().map(ToString::to_string)));
        }
        let mut ranks_md =
            Table::new(std::iter::once("Problem".to_string()).chain(columns.iter().cloned()))
                .with_title(format!(
                    "Rank of each configuration per problem ({}), N = {} (1 = best)",
                    rule.name, data.dim
                ));
        ranks_md.rows.clone_from(&ranks.rows);
        write_table(
            out,
            &format!("ranks{}", rule.suffix),
            &ranks_md,
            &ranks,
            files,
        )?;

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
                    data.label(p),
                    l.clone(),
                    values[k].to_string(),
                    r.mean_rank[k].to_string(),
                    r.median_rank[k].to_string(),
                    r.score[k].to_string(),
                    r.rank[k].to_string(),
                ]);
            }
        }
        let detail_path = out.join(format!("ranks_detail{}.csv", rule.suffix));
        std::fs::write(&detail_path, detail.to_csv()?)
            .map_err(|e| StudyError::io(&detail_path, e))?;
        files.push(detail_path);

        let mut summary = Table::new([
            param.symbol(),
            "average rank",
            "overall rank",
            "first places",
        ])
        .with_title(format!(
            "εMAg-ES with {} ∈ {{{}}}, N = {}, {} problems, {} runs each — {}",
            param.symbol(),
            values
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            data.dim,
            problems.len(),
            self.runs,
            rule.name
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
        summary.note(rule.note);
        if let Some(w) = &warning {
            summary.note(w.clone());
            ranks_md.note(w.clone());
        }
        write_table(
            out,
            &format!("average_ranks{}", rule.suffix),
            &summary,
            &summary_csv,
            files,
        )?;

        let rows: Vec<String> = problems.iter().map(|&p| data.label(p)).collect();
        let tiles: Vec<Vec<usize>> = per_problem.iter().map(|r| r.rank.clone()).collect();
        let title = format!(
            "{}, N = {}: {} ranks (darker = better){}",
            param.symbol(),
            data.dim,
            rule.name,
            if warning.is_some() {
                " — SEE THE WARNING"
            } else {
                ""
            }
        );
        let stem = out.join(format!("heatmap{}", rule.suffix));
        files.extend(heat_map(&stem, &title, &rows, &columns, &tiles)?);
        page.blocks.push(Block::Table(summary.clone()));
        let svg = stem.with_extension("svg");
        page.blocks.push(Block::Svg {
            svg: std::fs::read_to_string(&svg).map_err(|e| StudyError::io(&svg, e))?,
            caption: title,
        });
        page.blocks.push(Block::Table(ranks_md));
        Ok(Ranking {
            per_problem,
            overall,
            summary,
        })
    }
}
