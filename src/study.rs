//! The study runner: many runs of optimizer configurations on a suite's problems, in
//! parallel, resumable, shardable, and reproducible whatever the scheduling.
//!
//! Every run is determined by its seed, derived from `(base seed, configuration label,
//! problem, dimension, run)`; thread count, shard and order of execution do not enter.

use crate::error::StudyError;
use crate::optimizer::{MaEsOptimizer, Optimizer, Task, TracePoint};
use crate::store::{
    Appender, CheckpointRecord, DynamicsRow, RunKey, RunRow, Setting, RECORD_FORMAT,
};
use crate::suite::{SharedProblem, Suite};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ma_es::{Config, Variant};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where the problems' instance data comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceChoice {
    /// The official data in the C layout.
    Official(PathBuf),
    /// Synthetic data from a seed; `requested` is false when no official data was found.
    Synthetic {
        /// The generator seed.
        seed: u64,
        /// Whether the user asked for it (`--synthetic`).
        requested: bool,
    },
}

/// The default seed of the synthetic instance when no official data is found.
pub const FALLBACK_SYNTHETIC_SEED: u64 = 2017;

/// Where the official data comes from, for hints.
pub const OFFICIAL_DATA_HINT: &str = "the official CEC2017 constrained instance data (shift_data_k.txt, M_k_D{N}.txt, …) ships with the C code of the CEC2017 competition on constrained real-parameter optimization (Wu, Mallipeddi & Suganthan); point --data or CEC2017_DATA_DIR at that folder";

impl InstanceChoice {
    /// Resolves the data source: `--synthetic SEED`, else `--data DIR`, else
    /// `$CEC2017_DATA_DIR`, else `../shared/cec2017/text` if present, else a synthetic
    /// instance (which the reports then flag prominently).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if both `--data` and `--synthetic` are given, or an
    /// explicitly named directory does not exist.
    pub fn resolve(data: Option<PathBuf>, synthetic: Option<u64>) -> Result<Self, StudyError> {
        if let Some(seed) = synthetic {
            if data.is_some() {
                return Err(StudyError::Invalid(
                    "--data and --synthetic exclude each other".into(),
                ));
            }
            return Ok(Self::Synthetic {
                seed,
                requested: true,
            });
        }
        let explicit = data.map(|d| (d, "--data")).or_else(|| {
            std::env::var_os("CEC2017_DATA_DIR").map(|d| (PathBuf::from(d), "CEC2017_DATA_DIR"))
        });
        if let Some((dir, origin)) = explicit {
            if !dir.is_dir() {
                return Err(StudyError::Invalid(format!(
                    "data directory {} ({origin}) does not exist; use --synthetic SEED for a synthetic instance, or get {OFFICIAL_DATA_HINT}",
                    dir.display()
                )));
            }
            return Ok(Self::Official(dir));
        }
        let default = PathBuf::from("../shared/cec2017/text");
        if default.is_dir() {
            return Ok(Self::Official(default));
        }
        Ok(Self::Synthetic {
            seed: FALLBACK_SYNTHETIC_SEED,
            requested: false,
        })
    }

    /// The label stored with every run: `official` or `synthetic:SEED`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Self::Official(_) => "official".into(),
            Self::Synthetic { seed, .. } => format!("synthetic:{seed}"),
        }
    }

    /// The suite over this data.
    ///
    /// # Errors
    /// [`StudyError::Cec`] if the directory vanished.
    pub fn suite(&self) -> Result<cec2017_constrained::Suite, StudyError> {
        Ok(match self {
            Self::Official(dir) => cec2017_constrained::Suite::official(dir)?,
            Self::Synthetic { seed, .. } => cec2017_constrained::Suite::synthetic(*seed),
        })
    }

    /// A warning for synthetic data, `None` for the official instance.
    #[must_use]
    pub fn warning(&self) -> Option<String> {
        synthetic_warning(
            &self.label(),
            matches!(
                self,
                Self::Synthetic {
                    requested: false,
                    ..
                }
            ),
        )
    }
}

/// The warning printed and put in every table for a synthetic instance label.
#[must_use]
pub fn synthetic_warning(label: &str, fallback: bool) -> Option<String> {
    let seed = label.strip_prefix("synthetic:")?;
    let why = if fallback {
        "no official instance data was found, so "
    } else {
        ""
    };
    Some(format!(
        "SYNTHETIC INSTANCE: {why}these results use synthetic CEC2017 instance data (seed {seed}), not the official instance; they are not comparable with the paper. Hint: {OFFICIAL_DATA_HINT}."
    ))
}

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
}

impl StudyConfig {
    /// An εMAg-ES preset with a configuration (its budget is set by the study).
    #[must_use]
    pub fn preset(label: impl Into<String>, variant: Variant, config: Config) -> Self {
        Self {
            label: label.into(),
            optimizer: Arc::new(MaEsOptimizer::preset(variant).with_config(config)),
            setting: None,
        }
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
    /// [`crate::suite::Cec2017Suite`].
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
}

/// The CEC2017 competition's checkpoints: the best-so-far at 10 %, 50 % and 100 % of the
/// budget (REFERENCE.md §5, step 14), the statistics' default.
pub const DEFAULT_CHECKPOINT_FRACTIONS: [f64; 3] = [0.1, 0.5, 1.0];

/// The evaluation count of the checkpoint at `fraction` of `budget`:
/// `⌈fraction · budget⌉` (the reference takes it after the generation in which the
/// count reaches `fraction · budget`).
///
/// ```
/// use emages::study::checkpoint_evaluations;
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
    /// use emages::study::{StudyConfig, StudySpec};
    /// use emages::suite::Cec2017Suite;
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
/// ```
/// use emages::study::run_seed;
/// assert_eq!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-mag-es", 3, 10, 0));
/// assert_ne!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-ma-es", 3, 10, 0));
/// assert_ne!(run_seed(1, "eps-mag-es", 3, 10, 0), run_seed(1, "eps-mag-es", 3, 10, 1));
/// ```
#[must_use]
pub fn run_seed(base: u64, label: &str, problem: usize, dim: usize, run: usize) -> u64 {
    // FNV-1a of the label: stable across platforms and releases.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut s = mix(base);
    for part in [h, problem as u64, dim as u64, run as u64] {
        s = mix(s ^ part);
    }
    s
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

/// The outcome of [`run_study`].
#[derive(Clone, Debug, PartialEq)]
pub struct StudyOutcome {
    /// Jobs of this process (shard).
    pub jobs: usize,
    /// Jobs already finished before (skipped).
    pub skipped: usize,
    /// Jobs run now.
    pub ran: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// The files written.
    pub files: StudyFiles,
}

impl StudySpec {
    /// The evaluation budget `budget_per_dim · N`.
    #[must_use]
    pub fn budget(&self) -> usize {
        self.budget_per_dim * self.dim
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

    /// Checks the specification, builds every problem, and opens the results files in
    /// `out` (creating the directory; the records already there must belong to this
    /// study). Bad input fails here, before any run starts and before anything is
    /// printed; [`PreparedStudy::run`] then does the pending runs.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for an empty or duplicated selection, a zero budget or run
    /// count; the problems' and configurations' errors; I/O errors naming the path;
    /// [`StudyError::Corrupt`] for a bad existing record; [`StudyError::Incompatible`]
    /// if `out` holds results of another study.
    pub fn prepare(&self, out: &Path) -> Result<PreparedStudy<'_>, StudyError> {
        let start = Instant::now();
        self.validate()?;
        let mut problems = BTreeMap::new();
        for &p in &self.problems {
            let problem = if self.fast {
                self.suite.fast_problem(p, self.dim)?
            } else {
                self.suite.problem(p, self.dim)?
            };
            problems.insert(p, problem);
        }
        std::fs::create_dir_all(out).map_err(|e| StudyError::io(out, e))?;
        let files = self.files(out);
        if files.readable_runs() != files.runs {
            return Err(StudyError::Invalid(format!(
                "{} holds this part's runs compressed (read-only); decompress it and its dynamics file (gunzip) to resume here, or choose another --out",
                files.compressed_runs().display()
            )));
        }
        let (existing, runs) = Appender::open_with::<RunRow>(&files.runs)?;
        check_compatible(self, &files.runs, &existing, true)?;
        let dynamics = Appender::open(&files.dynamics)?;
        let done: HashSet<RunKey> = existing.iter().map(RunRow::key).collect();
        let jobs = self.jobs();
        let total = jobs.len();
        let pending = jobs
            .into_iter()
            .filter(|j| {
                !done.contains(&RunKey {
                    config: self.configs[j.config].label.clone(),
                    problem: j.problem,
                    run: j.run,
                })
            })
            .collect();
        Ok(PreparedStudy {
            spec: self,
            problems,
            files,
            jobs: total,
            pending,
            runs,
            dynamics,
            start,
        })
    }
}

/// Samples a run's dynamics on the grid `budget·j/points`, `j = 1..=points`: the last
/// record at or before each grid point (NaN before the first).
#[must_use]
pub fn sample_dynamics(
    records: &[TracePoint],
    budget: usize,
    points: usize,
) -> (Vec<usize>, [Vec<f64>; 3]) {
    let grid: Vec<usize> = (1..=points).map(|j| budget * j / points).collect();
    let mut out = [Vec::new(), Vec::new(), Vec::new()];
    let mut k = 0;
    for &e in &grid {
        while k < records.len() && records[k].evaluations <= e {
            k += 1;
        }
        let r = k.checked_sub(1).map(|i| &records[i]);
        out[0].push(r.map_or(f64::NAN, |r| r.best.objective));
        out[1].push(r.map_or(f64::NAN, |r| r.best.violation));
        out[2].push(r.map_or(f64::NAN, |r| r.sigma));
    }
    (grid, out)
}

/// The number of grid points of the recorded dynamics.
pub const DYNAMICS_POINTS: usize = 100;

fn execute(
    spec: &StudySpec,
    problem: &SharedProblem,
    job: &Job,
) -> Result<(RunRow, Option<DynamicsRow>), StudyError> {
    let sc = &spec.configs[job.config];
    let budget = spec.budget();
    let checkpoints: Vec<usize> = spec
        .checkpoint_fractions
        .iter()
        .map(|&f| checkpoint_evaluations(f, budget))
        .collect();
    let task = Task {
        problem: problem.as_ref(),
        budget,
        seed: job.seed,
        checkpoints: &checkpoints,
        record_trace: spec.dynamics_problems.contains(&job.problem),
        fast: spec.fast,
    };
    let start = Instant::now();
    let result = sc.optimizer.run(&task)?;
    let seconds = start.elapsed().as_secs_f64();
    if result.checkpoints.len() != checkpoints.len() {
        return Err(StudyError::Other(format!(
            "{} returned {} checkpoints, the study asked for {}",
            sc.label,
            result.checkpoints.len(),
            checkpoints.len()
        )));
    }
    let row = RunRow {
        format: RECORD_FORMAT,
        setting: sc.setting.clone(),
        config: sc.label.clone(),
        variant: sc.optimizer.kind().to_string(),
        problem: job.problem,
        dim: spec.dim,
        run: job.run,
        seed: job.seed,
        budget,
        suite: spec.suite.name().to_string(),
        instance: spec.suite.instance(),
        best: result.best,
        evals: result.evaluations,
        generations: result.iterations,
        termination: result.termination,
        platform: Some(platform()),
        fast: spec.fast,
        checkpoints: result
            .checkpoints
            .into_iter()
            .zip(spec.checkpoint_fractions.iter().copied())
            .map(|(checkpoint, fraction)| CheckpointRecord {
                fraction,
                checkpoint,
            })
            .collect(),
        seconds,
    };
    let dynamics = result.trace.as_ref().map(|d| {
        let (evals, [f, violation, sigma]) = sample_dynamics(d, budget, DYNAMICS_POINTS);
        DynamicsRow {
            config: sc.label.clone(),
            problem: job.problem,
            dim: spec.dim,
            run: job.run,
            evals,
            f,
            violation,
            sigma,
        }
    });
    Ok((row, dynamics))
}

/// Checks that existing records belong to this study.
///
/// With `same_kernel`, runs made with another OpenBLAS kernel family than this process's
/// are refused too: appending to them would mix trajectories of two roundings in one
/// study (reading them, e.g. for `--status`, is fine).
pub(crate) fn check_compatible(
    spec: &StudySpec,
    path: &Path,
    rows: &[RunRow],
    same_kernel: bool,
) -> Result<(), StudyError> {
    let labels: BTreeMap<&str, &StudyConfig> =
        spec.configs.iter().map(|c| (c.label.as_str(), c)).collect();
    let platform_here = platform();
    let here = blas_kernel_of(&platform_here);
    for r in rows {
        let kernel = r.platform.as_deref().and_then(blas_kernel_of);
        let fractions: Vec<f64> = r.checkpoints.iter().map(|c| c.fraction).collect();
        let mismatch = if let (true, Some(theirs), Some(ours)) = (same_kernel, kernel, here) {
            (theirs != ours).then(|| {
                format!(
                    "runs made with OpenBLAS's {theirs} kernels, this process runs {ours}: the same seeds give other runs; set OPENBLAS_CORETYPE={theirs} to continue it"
                )
            })
        } else {
            None
        };
        let mismatch = if mismatch.is_some() {
            mismatch
        } else if fractions != spec.checkpoint_fractions {
            Some(format!(
                "checkpoints at {fractions:?} of the budget (this study: {:?})",
                spec.checkpoint_fractions
            ))
        } else if r.fast != spec.fast {
            let path = |fast: bool| {
                if fast {
                    "the fast path (--fast)"
                } else {
                    "the exact path"
                }
            };
            Some(format!(
                "runs of {} (this study: {})",
                path(r.fast),
                path(spec.fast)
            ))
        } else if r.dim != spec.dim {
            Some(format!("N = {} (this study: N = {})", r.dim, spec.dim))
        } else if r.budget != spec.budget() {
            Some(format!(
                "a budget of {} (this study: {})",
                r.budget,
                spec.budget()
            ))
        } else if r.suite != spec.suite.name() {
            Some(format!(
                "suite {} (this study: {})",
                r.suite,
                spec.suite.name()
            ))
        } else if r.instance != spec.suite.instance() {
            Some(format!(
                "instance {} (this study: {})",
                r.instance,
                spec.suite.instance()
            ))
        } else if labels.contains_key(r.config.as_str())
            && r.seed != run_seed(spec.seed, &r.config, r.problem, r.dim, r.run)
        {
            Some("runs of a different --seed".to_string())
        } else {
            None
        };
        if let Some(m) = mismatch {
            return Err(StudyError::Incompatible(format!(
                "{} holds results of another study ({m}); choose another --out or delete it",
                path.display()
            )));
        }
    }
    Ok(())
}

/// The OpenBLAS kernel family of a `platform` text (`"openblas Haswell; batch avx2"` →
/// `Haswell`).
fn blas_kernel_of(platform: &str) -> Option<&str> {
    platform
        .strip_prefix("openblas ")
        .and_then(|p| p.split(';').next())
        .map(str::trim)
}

/// Limits OpenBLAS to one thread: the runs are parallel, BLAS within a run is not (and
/// a product's bits depend on its thread count,
/// [`constraint_handling::linalg::kernel::set_num_threads`]).
pub fn pin_blas_to_one_thread() {
    constraint_handling::linalg::kernel::set_num_threads(1);
}

/// Where the numbers of a run come from beyond its seed: the OpenBLAS kernel family
/// (chosen when OpenBLAS loads, from the CPU or `OPENBLAS_CORETYPE`; its rounding shapes
/// the chaotic trajectories, so the same seed gives other runs under another family,
/// [`constraint_handling::linalg::kernel`]) and the batch evaluation kernel (which does
/// not change a bit). Recorded in every run record, e.g. `"openblas Haswell; batch
/// avx512"`.
#[must_use]
pub fn platform() -> String {
    let blas = constraint_handling::linalg::kernel::BlasKernel::current().map_or_else(
        || "blas unknown".to_string(),
        |k| format!("openblas {}", k.name()),
    );
    format!(
        "{blas}; batch {}",
        cec2017_constrained::BatchKernel::Auto.resolved()
    )
}

/// Runs the study's pending jobs (those without a record in `out`), appending each
/// finished run to the results file at once: [`StudySpec::prepare`], then
/// [`PreparedStudy::run`].
///
/// # Errors
/// Invalid specifications, unwritable or incompatible output, failed runs (the runs
/// finished before the failure are kept).
pub fn run_study(spec: &StudySpec, out: &Path) -> Result<StudyOutcome, StudyError> {
    spec.prepare(out)?.run()
}

/// A checked study with its problems built and its results files open.
pub struct PreparedStudy<'s> {
    spec: &'s StudySpec,
    problems: BTreeMap<usize, SharedProblem>,
    files: StudyFiles,
    jobs: usize,
    pending: Vec<Job>,
    runs: Appender,
    dynamics: Appender,
    start: Instant,
}

impl std::fmt::Debug for PreparedStudy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedStudy")
            .field("suite", &self.spec.suite.name())
            .field("problems", &self.problems.keys().collect::<Vec<_>>())
            .field("files", &self.files)
            .field("jobs", &self.jobs)
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl PreparedStudy<'_> {
    /// The runs still to do (the others are in the results file already).
    #[must_use]
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Does the pending runs in parallel, appending each finished run at once.
    ///
    /// # Errors
    /// A failed run or write (the runs finished before are kept).
    pub fn run(self) -> Result<StudyOutcome, StudyError> {
        let Self {
            spec,
            problems,
            files,
            jobs,
            pending,
            runs,
            dynamics,
            start,
        } = self;
        let runs = Mutex::new(runs);
        let dynamics = Mutex::new(dynamics);
        let bar = ProgressBar::with_draw_target(
            Some(pending.len() as u64),
            if spec.progress {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} runs, ETA {eta}  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(spec.threads.unwrap_or(0))
            .build()
            .map_err(|e| StudyError::Other(format!("thread pool: {e}")))?;
        let poisoned = || StudyError::Other("results writer poisoned".into());
        let result = pool.install(|| {
            pending
                .par_iter()
                .try_for_each(|job| -> Result<(), StudyError> {
                    let (row, dyn_row) = execute(spec, &problems[&job.problem], job)?;
                    if let Some(d) = dyn_row {
                        dynamics.lock().map_err(|_| poisoned())?.append(&d)?;
                    }
                    runs.lock().map_err(|_| poisoned())?.append(&row)?;
                    bar.set_message(format!("{} {}", spec.suite.label(row.problem), row.config));
                    bar.inc(1);
                    Ok(())
                })
        });
        bar.finish_and_clear();
        result?;
        Ok(StudyOutcome {
            jobs,
            skipped: jobs - pending.len(),
            ran: pending.len(),
            elapsed: start.elapsed(),
            files,
        })
    }
}
