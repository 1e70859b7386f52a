//! Running a study: the pending runs in parallel (rayon), each record appended to the
//! results file the moment its run ends, resumable and shardable.

use super::checkpoint_evaluations;
use super::coco::{CocoLogged, CocoOutput};
use super::platform::platform;
use super::spec::{run_seed, Job, StudyConfig, StudyFiles, StudySpec};
use super::store::{Appender, CheckpointRecord, DynamicsRow, RunKey, RunRow, RECORD_FORMAT};
use crate::error::StudyError;
use crate::optimizer::{Task, TracePoint};
use crate::suites::SharedProblem;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The outcome of [`run_study`].
#[derive(Clone, Debug, PartialEq)]
pub struct StudyOutcome {
    /// Jobs of this process (shard).
    pub jobs: usize,
    /// Jobs already finished before (skipped).
    pub skipped: usize,
    /// Jobs run now.
    pub ran: usize,
    /// Wall time of [`PreparedStudy::run`]: the pending runs, not the preparation (a
    /// caller may prepare several studies at once and run them one after another).
    pub elapsed: Duration,
    /// The files written.
    pub files: StudyFiles,
}

impl StudySpec {
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
        let coco = self
            .coco
            .as_deref()
            .map(|root| CocoOutput::open(self, root, &existing))
            .transpose()?;
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
            coco,
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
    coco: Option<&CocoOutput>,
) -> Result<(RunRow, Option<DynamicsRow>), StudyError> {
    let sc = &spec.configs[job.config];
    let budget = spec.budget();
    let checkpoints: Vec<usize> = spec
        .checkpoint_fractions
        .iter()
        .map(|&f| checkpoint_evaluations(f, budget))
        .collect();
    let logged = coco.map(|c| CocoLogged::new(problem.as_ref(), c.log(spec, job)));
    let task = Task {
        problem: match &logged {
            Some(l) => l,
            None => problem.as_ref(),
        },
        budget,
        seed: job.seed,
        checkpoints: &checkpoints,
        record_trace: spec.dynamics_problems.contains(&job.problem),
        fast: spec.fast,
    };
    let start = Instant::now();
    let result = sc.optimizer.run(&task)?;
    let seconds = start.elapsed().as_secs_f64();
    if let (Some(coco), Some(logged)) = (coco, logged) {
        // Before the record: a run with a record is in the COCO files too.
        coco.append(spec, job, &logged.finish())?;
    }
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
        restarts: result.restarts.clone(),
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
    coco: Option<CocoOutput>,
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
            coco,
        } = self;
        let start = Instant::now();
        let runs = Mutex::new(runs);
        let dynamics = Mutex::new(dynamics);
        let bar = Progress::new(pending.len(), spec.progress);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(spec.threads.unwrap_or(0))
            .build()
            .map_err(|e| StudyError::Other(format!("thread pool: {e}")))?;
        let poisoned = || StudyError::Other("results writer poisoned".into());
        let result = pool.install(|| {
            pending
                .par_iter()
                .try_for_each(|job| -> Result<(), StudyError> {
                    let (row, dyn_row) =
                        execute(spec, &problems[&job.problem], job, coco.as_ref())?;
                    if let Some(d) = dyn_row {
                        dynamics.lock().map_err(|_| poisoned())?.append(&d)?;
                    }
                    runs.lock().map_err(|_| poisoned())?.append(&row)?;
                    bar.run_done(|| format!("{} {}", spec.suite.label(row.problem), row.config));
                    Ok(())
                })
        });
        bar.finish();
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

/// The progress display of a running study: indicatif's bar (feature `progress`), or a
/// plain `k/n runs` line at every tenth of the runs without it; nothing when the spec
/// asks for none.
struct Progress {
    #[cfg(feature = "progress")]
    bar: indicatif::ProgressBar,
    #[cfg(not(feature = "progress"))]
    plain: Option<(usize, std::sync::atomic::AtomicUsize)>,
}

impl Progress {
    fn new(total: usize, show: bool) -> Self {
        #[cfg(feature = "progress")]
        {
            use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
            let bar = ProgressBar::with_draw_target(
                Some(total as u64),
                if show {
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
            Self { bar }
        }
        #[cfg(not(feature = "progress"))]
        {
            Self {
                plain: show.then(|| (total, std::sync::atomic::AtomicUsize::new(0))),
            }
        }
    }

    /// One more run is recorded; `label` names it (called only when shown).
    fn run_done(&self, label: impl FnOnce() -> String) {
        #[cfg(feature = "progress")]
        {
            if !self.bar.is_hidden() {
                self.bar.set_message(label());
            }
            self.bar.inc(1);
        }
        #[cfg(not(feature = "progress"))]
        if let Some((total, done)) = &self.plain {
            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let step = (total / 10).max(1);
            if k % step == 0 || k == *total {
                crate::say!("{k}/{total} runs ({})", label());
            }
        }
    }

    fn finish(&self) {
        #[cfg(feature = "progress")]
        self.bar.finish_and_clear();
    }
}
