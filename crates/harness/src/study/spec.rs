//! What a study is: configurations (a label and an optimizer) × problems × runs in one
//! dimension, its budget, checkpoints and base seed, the shards it splits into, and the
//! seed of every run — derived from `(base seed, configuration label, problem,
//! dimension, run)`, so that thread count, shard and order of execution do not enter.

use super::store::Setting;
use crate::error::StudyError;
use crate::optimizer::{
    LocalPhaseOptimizer, MaEsOptimizer, Optimizer, PortfolioOptimizer, RoundsOptimizer, SqpShare,
};
use crate::suites::Suite;
use constraint_handling::JacobianSource;
use ma_es::{Config, Variant};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One configuration of a study: a label and the optimizer behind it.
#[derive(Clone, Debug)]
pub struct StudyConfig {
    /// Its label in the results (the variant name in the ablation study); it enters
    /// the run seeds.
    pub label: String,
    /// The algorithm (εMAg-ES presets: [`MaEsOptimizer`]; any [`Optimizer`]).
    pub optimizer: Arc<dyn Optimizer>,
    /// The studied parameter's value, recorded with every run (parameter studies).
    pub setting: Option<Setting>,
    /// How tables and plots print it (default: the label; a preset under its own name:
    /// the paper's label, e.g. `εMAg-ES`).
    pub name: Option<String>,
}

impl StudyConfig {
    /// An εMAg-ES preset with a configuration (its budget is set by the study).
    #[must_use]
    pub fn preset(label: impl Into<String>, variant: Variant, config: Config) -> Self {
        let label = label.into();
        Self {
            name: (label == variant.name()).then(|| variant.label().to_string()),
            label,
            optimizer: Arc::new(MaEsOptimizer::preset(variant).with_config(config)),
            setting: None,
        }
    }

    /// The same configuration, printed as `name` in tables and plots.
    #[must_use]
    pub fn with_name(self, name: impl Into<String>) -> Self {
        Self {
            name: Some(name.into()),
            ..self
        }
    }

    /// How tables and plots print it.
    #[must_use]
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.label)
    }

    /// The same configuration, recording `parameter = value` with every run.
    #[must_use]
    pub fn with_setting(self, parameter: impl Into<String>, value: usize) -> Self {
        Self {
            setting: Some(Setting {
                parameter: parameter.into(),
                value,
            }),
            ..self
        }
    }

    /// Any optimizer under a label.
    #[must_use]
    pub fn custom(label: impl Into<String>, optimizer: impl Optimizer + 'static) -> Self {
        Self {
            label: label.into(),
            optimizer: Arc::new(optimizer),
            setting: None,
            name: None,
        }
    }
}

impl StudyConfig {
    /// The names [`StudyConfig::other`] knows beside `portfolio[:KEY=VALUE]…` (the
    /// portfolio's text form, [`emages::portfolio::spec`]): the restarted local phase,
    /// the training rounds of the portfolio's design, and the `portfolio-share0`
    /// family that its committed test runs were made with.
    pub const OTHERS: [&'static str; 10] = [
        "sqp-restarts",
        "rounds",
        "rounds+",
        "rounds-share",
        "portfolio-share0",
        "portfolio-share0:nan-last",
        "portfolio-share0:nan-last:curvature",
        "portfolio-share0:nan-last:curvature:soc",
        "portfolio-share0:nan-last:curvature:bound",
        "portfolio-share0:nan-last:curvature:soc:bound",
    ];

    /// [`StudyConfig::other`] with the constraint Jacobians `source`: for
    /// [`JacobianSource::Exact`], a portfolio that takes the problem's exact Jacobians
    /// where it offers them ([`crate::optimizer::PortfolioOptimizer::exact_jacobians`]),
    /// labelled `NAME+jacobian=exact` (as the MA-ES variants' runs are; seeds of its
    /// own).
    ///
    /// ```
    /// use constraint_handling::JacobianSource;
    /// use emages_harness::study::StudyConfig;
    /// let c = StudyConfig::other_with_jacobian("portfolio-share0:nan-last:curvature", JacobianSource::Exact).unwrap();
    /// assert_eq!(c.label, "portfolio-share0:nan-last:curvature+jacobian=exact");
    /// assert!(StudyConfig::other_with_jacobian("sqp-restarts", JacobianSource::Exact).is_err());
    /// assert_eq!(StudyConfig::other_with_jacobian("portfolio", JacobianSource::Differences).unwrap().label, "portfolio");
    /// ```
    ///
    /// # Errors
    /// As [`StudyConfig::other`]; [`StudyError::Invalid`] for exact Jacobians and an
    /// optimizer that takes none (a black box).
    pub fn other_with_jacobian(name: &str, source: JacobianSource) -> Result<Self, StudyError> {
        match (source, Self::portfolio(name)?) {
            (JacobianSource::Differences, _) => Self::other(name),
            (JacobianSource::Exact, Some(mut optimizer)) => {
                optimizer.exact_jacobians = true;
                Ok(Self::custom(format!("{name}+jacobian=exact"), optimizer))
            }
            (JacobianSource::Exact, None) => {
                Self::other(name)?;
                Err(StudyError::Invalid(format!(
                    "{name} is a black box: exact Jacobians go only to the portfolio"
                )))
            }
        }
    }

    /// What a portfolio named `name` leaves out of a competition's protocol (CEC2017's
    /// and CEC2020's: every run to the budget, equalities satisfied within the
    /// problem's own margin), as a sentence for the command line; `None` where it runs
    /// that protocol, or `name` is not a portfolio. The keys `confirmations` and
    /// `margin` are the portfolio's own: a suite study keeps the stopping rule and the
    /// margin of `1e-8` (the default's) unless the name says `confirmations=0` and
    /// `margin=problem`.
    ///
    /// ```
    /// use emages_harness::study::StudyConfig;
    /// let note = StudyConfig::protocol_note("portfolio").unwrap();
    /// assert!(note.contains("confirmations=0:margin=problem"), "{note}");
    /// assert!(StudyConfig::protocol_note("portfolio:margin=problem").unwrap().contains("stopping rule"));
    /// assert!(StudyConfig::protocol_note("portfolio:confirmations=0").unwrap().contains("1e-8"));
    /// assert_eq!(StudyConfig::protocol_note("portfolio:confirmations=0:margin=problem:soc=off"), None);
    /// assert_eq!(StudyConfig::protocol_note("portfolio-share0:nan-last:curvature"), None);
    /// assert_eq!(StudyConfig::protocol_note("eps-mag-es-r"), None);
    /// ```
    #[must_use]
    pub fn protocol_note(name: &str) -> Option<String> {
        let options = Self::portfolio(name).ok().flatten()?.options;
        let stops = options.settings().confirmations != 0;
        let margin = options.equality_margin_value();
        let what = match (stops, margin) {
            (false, None) => return None,
            (true, None) => "stops by its stopping rule".to_string(),
            (false, Some(m)) => format!("holds equalities to |h| <= {m:e}"),
            (true, Some(m)) => {
                format!("stops by its stopping rule and holds equalities to |h| <= {m:e}")
            }
        };
        Some(format!(
            "{name} {what}; a competition's protocol runs to the budget with the problem's \
             own margin: add `:confirmations=0:margin=problem`"
        ))
    }

    /// The portfolio a name means: `portfolio[:KEY=VALUE]…` or one of the
    /// `portfolio-share0` family; `None` for another name.
    fn portfolio(name: &str) -> Result<Option<PortfolioOptimizer>, StudyError> {
        if let Some(optimizer) = PortfolioOptimizer::share0(name) {
            return Ok(Some(optimizer));
        }
        if name == "portfolio" || name.starts_with("portfolio:") {
            let options: emages::Options = name
                .parse()
                .map_err(|e: emages::Error| StudyError::Invalid(e.to_string()))?;
            return Ok(Some(PortfolioOptimizer::new(options)));
        }
        Ok(None)
    }

    /// The configuration of an optimizer that is not an MA-ES spec, by name (labelled
    /// so):
    ///
    /// - `portfolio[:KEY=VALUE]…`: the recommended strategy, the portfolio
    ///   ([`crate::optimizer::PortfolioOptimizer`]), its settings changed by the keys of
    ///   its text form ([`emages::portfolio::spec::SPEC_KEYS`]); `portfolio` alone is
    ///   `emages::Options::recommended()`, Python's default;
    /// - the `portfolio-share0` family, with which the portfolio's committed test runs
    ///   were made: `portfolio-share0` (the local phase without the curvature
    ///   steering, a NaN first point kept), `portfolio-share0:nan-last` (NaN
    ///   violations ordered last; the same seeds), `portfolio-share0:nan-last:curvature`
    ///   (also the local phase's curvature steering, seeds of its own), the last with
    ///   `:soc` (the second-order correction) and `:bound` (bounded local runs; the
    ///   curvature candidate's seeds, so that the runs pair up) — all run to the budget
    ///   with the problem's equality margin;
    /// - `sqp-restarts` ([`crate::optimizer::LocalPhaseOptimizer`]);
    /// - the training rounds of the portfolio's design
    ///   ([`crate::optimizer::RoundsOptimizer`]): `rounds`, `rounds+` (the local phase
    ///   restarted while it improves), `rounds@B` (the first ES run's budget `B · N`),
    ///   `rounds-share` and `rounds-share@W` (the local phase's share `w₀ = W`). Their
    ///   committed runs were labelled `portfolio`, `portfolio+`, … when they ran; the
    ///   names keep those runs' seeds ([`run_seed`]).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for another name, or a portfolio text that does not
    /// parse.
    pub fn other(name: &str) -> Result<Self, StudyError> {
        if let Some(optimizer) = Self::portfolio(name)? {
            return Ok(Self::custom(name, optimizer));
        }
        let rounds = |r: RoundsOptimizer| Ok(Self::custom(name, r));
        match name {
            "sqp-restarts" => Ok(Self::custom(name, LocalPhaseOptimizer::default())),
            "rounds" => rounds(RoundsOptimizer::default()),
            "rounds+" => rounds(RoundsOptimizer {
                restart_while_improving: true,
                ..RoundsOptimizer::default()
            }),
            "rounds-share" => rounds(RoundsOptimizer {
                share: Some(SqpShare::default()),
                ..RoundsOptimizer::default()
            }),
            _ => {
                if let Some(w) = name.strip_prefix("rounds-share@") {
                    let initial: f64 = w
                        .parse()
                        .ok()
                        .filter(|w: &f64| *w > 0.0 && *w <= 1.0)
                        .ok_or_else(|| {
                            StudyError::Invalid(format!(
                                "{name}: expected rounds-share@W, 0 < W ≤ 1"
                            ))
                        })?;
                    return rounds(RoundsOptimizer {
                        share: Some(SqpShare {
                            initial,
                            ..SqpShare::default()
                        }),
                        ..RoundsOptimizer::default()
                    });
                }
                // `rounds@B`: the first ES run's budget per dimension B.
                if let Some(b) = name.strip_prefix("rounds@") {
                    let es_budget_per_dim = b.parse().ok().filter(|b| *b > 0).ok_or_else(|| {
                        StudyError::Invalid(format!(
                            "{name}: expected rounds@B, B a positive budget per dimension"
                        ))
                    })?;
                    return rounds(RoundsOptimizer {
                        es_budget_per_dim,
                        ..RoundsOptimizer::default()
                    });
                }
                Err(StudyError::Invalid(format!(
                    "unknown optimizer {name:?} (known: portfolio[:KEY=VALUE]…, {}, rounds@B, rounds-share@W)",
                    Self::OTHERS.join(", ")
                )))
            }
        }
    }
}

/// Shard `index` of `count` (1-based): every `count`-th job of the canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = StudyError;

    /// Parses `I/N` with `1 ≤ I ≤ N`.
    fn from_str(s: &str) -> Result<Self, StudyError> {
        let bad = || {
            StudyError::Invalid(format!(
                "invalid shard {s:?}: expected I/N with 1 ≤ I ≤ N, e.g. 2/8"
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }
}

/// A study: configurations × problems × runs in one dimension.
#[derive(Clone, Debug)]
pub struct StudySpec {
    /// The dimension `N`.
    pub dim: usize,
    /// Runs per configuration and problem.
    pub runs: usize,
    /// The problems.
    pub problems: Vec<usize>,
    /// The configurations.
    pub configs: Vec<StudyConfig>,
    /// Budget per dimension (the budget is `budget_per_dim · N`).
    pub budget_per_dim: usize,
    /// The base seed.
    pub seed: u64,
    /// The benchmark suite (its problems' numbers, labels and instance data), e.g.
    /// [`crate::suites::Cec2017Suite`].
    pub suite: Arc<dyn Suite>,
    /// Problems whose runs record dynamics (for plots).
    pub dynamics_problems: Vec<usize>,
    /// This process's shard, if the study is split.
    pub shard: Option<Shard>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Show a progress bar.
    pub progress: bool,
    /// The fast path (`--fast`): optimizers may trade bit-faithfulness for speed
    /// ([`crate::optimizer::Task::fast`]; the εMAg-ES draws its normals from
    /// [`ma_es::noise::FastNoise`]) and the problems come from
    /// [`Suite::fast_problem`] (CEC2017: `sin`/`cos` of
    /// [`cec2017_constrained::Fidelity::Fast`]). Recorded in every run record; a
    /// results file holds runs of one path only.
    pub fast: bool,
    /// The fractions of the budget (ascending, in (0, 1]) at which every run reports its
    /// best-so-far: the checkpoints of the statistics, default
    /// [`DEFAULT_CHECKPOINT_FRACTIONS`] (the CEC's 10/50/100 %). Each is taken after the
    /// iteration in which the evaluation count reaches [`checkpoint_evaluations`] and
    /// recorded with its fraction.
    pub checkpoint_fractions: Vec<f64>,
    /// Where to write COCO's data files beside the store (`--coco DIR`): one folder per
    /// configuration, `DIR/<label>/` ([`crate::study::coco`]), for `cocopp`. Only for a
    /// suite that names its problems as COCO does ([`Suite::coco_problem`]); `None`
    /// (the default) writes none.
    pub coco: Option<PathBuf>,
}

/// The CEC2017 competition's checkpoints: the best-so-far at 10 %, 50 % and 100 % of the
/// budget (docs/algorithm.md §5, step 14), the statistics' default.
pub const DEFAULT_CHECKPOINT_FRACTIONS: [f64; 3] = [0.1, 0.5, 1.0];

/// The evaluation count of the checkpoint at `fraction` of `budget`:
/// `⌈fraction · budget⌉` (the reference takes it after the generation in which the
/// count reaches `fraction · budget`).
///
/// ```
/// use emages_harness::study::checkpoint_evaluations;
/// assert_eq!(checkpoint_evaluations(0.1, 200_000), 20_000);
/// assert_eq!(checkpoint_evaluations(0.5, 1001), 501);
/// ```
#[must_use]
pub fn checkpoint_evaluations(fraction: f64, budget: usize) -> usize {
    (fraction * budget as f64).ceil() as usize
}

impl StudySpec {
    /// A study of `configs` on every problem of `suite` in dimension `dim`, with the
    /// paper's defaults: 25 runs, a budget of 20000·N, base seed 1, the CEC checkpoints,
    /// the exact path, all cores, no dynamics, no shard, no progress bar. Change fields
    /// with struct update syntax:
    ///
    /// ```
    /// use emages_harness::study::{StudyConfig, StudySpec};
    /// use emages_harness::suites::Cec2017Suite;
    /// use std::sync::Arc;
    /// let suite = Arc::new(Cec2017Suite::synthetic(1));
    /// let spec = StudySpec {
    ///     runs: 5,
    ///     problems: vec![1, 3],
    ///     ..StudySpec::new(suite, 10, vec![StudyConfig::preset("eps-mag-es", ma_es::Variant::EpsMagEs, ma_es::Config::default())])
    /// };
    /// assert_eq!(spec.budget(), 200_000);
    /// assert_eq!(spec.checkpoint_fractions, [0.1, 0.5, 1.0]);
    /// ```
    #[must_use]
    pub fn new(suite: Arc<dyn Suite>, dim: usize, configs: Vec<StudyConfig>) -> Self {
        Self {
            dim,
            runs: 25,
            problems: suite.problems(),
            configs,
            budget_per_dim: 20_000,
            seed: 1,
            suite,
            dynamics_problems: Vec::new(),
            shard: None,
            threads: None,
            progress: false,
            fast: false,
            checkpoint_fractions: DEFAULT_CHECKPOINT_FRACTIONS.to_vec(),
            coco: None,
        }
    }
}

/// One run to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Index into [`StudySpec::configs`].
    pub config: usize,
    /// Problem.
    pub problem: usize,
    /// Run index.
    pub run: usize,
    /// The run's seed.
    pub seed: u64,
}

/// SplitMix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of one run, from `(base seed, configuration label, problem, dimension, run)`.
///
/// A `:lm-solve=…` component of the label is left out: it chooses how the
/// Levenberg–Marquardt step's linear system is solved, not the algorithm, so the runs
/// of both solves pair up seed for seed, and the studies run before the reduced solve
/// replay bit for bit with `lm-solve=full`. So is `:nan-last` (NaN violations ordered
/// last in a portfolio's record, `portfolio-share0:nan-last`): it changes a run only
/// where the first point's violation is NaN, so elsewhere the runs with and without it
/// are the same runs. And `:soc` (the local phase's second-order correction) and
/// `:bound` (a bound on the length of a run of the local phase): their runs pair up
/// with those of the same portfolio without them, and differ only where a correction
/// was tried or a run of the local phase was cut.
///
/// ```
/// use emages_harness::study::run_seed;
/// assert_eq!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-mag-es", 3, 10, 0));
/// assert_ne!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-ma-es", 3, 10, 0));
/// assert_ne!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-mag-es", 3, 10, 1));
/// let lm = "eps-mag-es:repair=levenberg-marquardt:restarts=bipop@Tscaled";
/// let full = "eps-mag-es:repair=levenberg-marquardt:lm-solve=full:restarts=bipop@Tscaled";
/// assert_eq!(run_seed(1, lm, 3, 10, 0), run_seed(1, full, 3, 10, 0));
/// let share0 = "portfolio-share0";
/// assert_eq!(run_seed(1, share0, 3, 10, 0), run_seed(1, "portfolio-share0:nan-last", 3, 10, 0));
/// assert_ne!(run_seed(1, share0, 3, 10, 0), run_seed(1, "portfolio-share0:nan-lastly", 3, 10, 0));
/// let curvature = "portfolio-share0:nan-last:curvature";
/// assert_eq!(run_seed(1, curvature, 3, 10, 0), run_seed(1, "portfolio-share0:nan-last:curvature:soc", 3, 10, 0));
/// assert_eq!(run_seed(1, curvature, 3, 10, 0), run_seed(1, "portfolio-share0:nan-last:curvature:soc:bound", 3, 10, 0));
/// assert_eq!(run_seed(1, curvature, 3, 10, 0), run_seed(1, "portfolio-share0:nan-last:curvature:bound", 3, 10, 0));
/// assert_ne!(run_seed(1, share0, 3, 10, 0), run_seed(1, curvature, 3, 10, 0));
/// // The training rounds keep the seeds of the runs they made as `portfolio…`.
/// assert_eq!(run_seed(1, "rounds+", 3, 10, 0), run_seed(1, "portfolio+", 3, 10, 0));
/// ```
#[must_use]
pub fn run_seed(base: u64, label: &str, problem: usize, dim: usize, run: usize) -> u64 {
    // FNV-1a of the label: stable across platforms and releases.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed_label(label).bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut s = mix(base);
    for part in [h, problem as u64, dim as u64, run as u64] {
        s = mix(s ^ part);
    }
    s
}

/// The label without its `:lm-solve=…`, `:nan-last`, `:soc` and `:bound` components,
/// the training rounds under the names they ran with ([`run_seed`]).
fn seed_label(label: &str) -> String {
    // The training rounds ran as `portfolio`, `portfolio+`, …: their seeds stay.
    let renamed = label
        .strip_prefix("rounds")
        .map(|rest| format!("portfolio{rest}"));
    let label = renamed.as_deref().unwrap_or(label);
    let label = without_component(label, ":lm-solve=", true);
    let label = without_component(&label, ":nan-last", false);
    let label = without_component(&label, ":soc", false);
    without_component(&label, ":bound", false)
}

/// `label` without its components `key` (with a value up to the next `:`, `@` or `+`
/// when `valued`; else only where `key` ends there or at the label's end).
fn without_component(label: &str, key: &str, valued: bool) -> String {
    let mut out = String::with_capacity(label.len());
    let mut rest = label;
    while let Some(start) = rest.find(key) {
        let after = &rest[start + key.len()..];
        let end = after.find([':', '@', '+']).unwrap_or(after.len());
        if !valued && end != 0 {
            // Another component that begins with `key` (`:nan-lastly`): kept.
            out.push_str(&rest[..start + key.len()]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..start]);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The files of a study (or of one shard) in `out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudyFiles {
    /// Run records.
    pub runs: PathBuf,
    /// Dynamics.
    pub dynamics: PathBuf,
}

impl StudyFiles {
    /// The compressed form of the runs file (`….jsonl.gz`), as committed for a finished
    /// study part.
    #[must_use]
    pub fn compressed_runs(&self) -> PathBuf {
        let mut name = self.runs.as_os_str().to_owned();
        name.push(".gz");
        PathBuf::from(name)
    }

    /// The runs file to read: the plain one, else its compressed form if only that
    /// exists.
    #[must_use]
    pub fn readable_runs(&self) -> PathBuf {
        let gz = self.compressed_runs();
        if !self.runs.exists() && gz.exists() {
            gz
        } else {
            self.runs.clone()
        }
    }
}

impl StudySpec {
    /// The evaluation budget of a run: `budget_per_dim · N`, unless the suite sets its
    /// own ([`Suite::budget`]).
    #[must_use]
    pub fn budget(&self) -> usize {
        self.suite.budget(self.dim, self.budget_per_dim)
    }

    /// The files of this process in `out` (`runs.jsonl`, or `runs.shard-I-of-N.jsonl`).
    #[must_use]
    pub fn files(&self, out: &Path) -> StudyFiles {
        let suffix = self.shard.map_or(String::new(), |s| {
            format!(".shard-{}-of-{}", s.index, s.count)
        });
        StudyFiles {
            runs: out.join(format!("runs{suffix}.jsonl")),
            dynamics: out.join(format!("dynamics{suffix}.jsonl")),
        }
    }

    /// All jobs of the study in canonical order (problem, configuration, run), then
    /// those of this shard.
    #[must_use]
    pub fn jobs(&self) -> Vec<Job> {
        let mut all = Vec::new();
        for &problem in &self.problems {
            for (config, c) in self.configs.iter().enumerate() {
                for run in 0..self.runs {
                    all.push(Job {
                        config,
                        problem,
                        run,
                        seed: run_seed(self.seed, &c.label, problem, self.dim, run),
                    });
                }
            }
        }
        match self.shard {
            None => all,
            Some(s) => all
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % s.count == s.index - 1)
                .map(|(_, j)| j)
                .collect(),
        }
    }

    /// Checks the specification: run count, budget, selections, configurations.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] naming the problem.
    pub fn validate(&self) -> Result<(), StudyError> {
        if self.runs == 0 {
            return Err(StudyError::Invalid("--runs must be at least 1".into()));
        }
        if self.budget_per_dim == 0 {
            return Err(StudyError::Invalid(
                "--budget-per-dim must be at least 1".into(),
            ));
        }
        if self.problems.is_empty() || self.configs.is_empty() {
            return Err(StudyError::Invalid(
                "the study has no problems or no configurations".into(),
            ));
        }
        let available = self.suite.problems();
        if let Some(&p) = self.problems.iter().find(|p| !available.contains(p)) {
            return Err(self.suite.unknown(p));
        }
        let f = &self.checkpoint_fractions;
        if f.is_empty()
            || f.iter().any(|&x| !(x > 0.0 && x <= 1.0))
            || f.windows(2).any(|w| w[0] >= w[1])
        {
            return Err(StudyError::Invalid(format!(
                "checkpoint fractions {f:?}: expected at least one, strictly ascending, in (0, 1]"
            )));
        }
        let mut labels = HashSet::new();
        for c in &self.configs {
            if !labels.insert(&c.label) {
                return Err(StudyError::Invalid(format!(
                    "configuration {} appears twice",
                    c.label
                )));
            }
            c.optimizer
                .validate(self.dim)
                .map_err(|e| StudyError::Invalid(format!("{}: {e}", c.label)))?;
        }
        Ok(())
    }
}
