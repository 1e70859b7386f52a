//! The options of a study command line and what they do: run, resume, shard, report,
//! show the status — for any suite.

use super::{problems_arg, Problems};
use crate::error::StudyError;
use crate::report::ReportOptions;
use crate::study::Dataset;
use crate::study::{pin_blas_to_one_thread, Shard, StudyConfig, StudySpec};
use crate::suites::{Cec2017Suite, InstanceChoice, Suite};
use bench_stats::pairwise::Significance;
use constraint_handling::JacobianSource;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The options every study front end shares, for any suite (flattened into a front
/// end's arguments; [`StudyArgs::execute`] does the rest).
#[derive(clap::Args, Debug, Clone)]
pub struct StudyArgs {
    /// Search-space dimension N.
    #[arg(long, default_value_t = 10)]
    pub dim: usize,
    /// Independent runs per configuration and problem.
    #[arg(long, default_value_t = 25)]
    pub runs: usize,
    /// Problems, e.g. 1-28 or 3,7,27 (default: all of the suite).
    #[arg(long, value_parser = problems_arg)]
    pub problems: Option<Problems>,
    /// Evaluation budget per dimension (budget = this · N).
    #[arg(long, default_value_t = 20_000)]
    pub budget_per_dim: usize,
    /// Base seed of the runs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only shard I of N (for clusters); merge the shards' files with --report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Build the outputs from these results files (e.g. all shards) instead of running.
    #[arg(long, num_args = 1.., value_name = "RUNS_JSONL")]
    pub report: Option<Vec<PathBuf>>,
    /// With --report: build the tables from the runs present even if some are missing,
    /// marked "INCOMPLETE" in every table and in the report.
    #[arg(long)]
    pub allow_incomplete: bool,
    /// Show how far the study in --out has got (per shard file: runs done / expected,
    /// the slowest problems, an ETA) and exit; reads the files without locking them.
    #[arg(long, conflicts_with = "report")]
    pub status: bool,
    /// Do not show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Take the fast path: vectorised normals (FastNoise) and the suite's faster
    /// evaluation (CEC2017: sin/cos within an ulp of the libm's instead of its bits);
    /// other runs than the default path's, the same statistics (docs/performance.md).
    /// Recorded in every run record.
    #[arg(long)]
    pub fast: bool,
    /// Write COCO's data files of every run as well, into `DIR/<configuration>/`, for
    /// cocopp (suites that name their problems as COCO does: bbob-constrained).
    #[arg(long, value_name = "DIR")]
    pub coco: Option<PathBuf>,
}

/// Where the CEC2017 instance data comes from (flattened into the CEC2017 front ends).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Cec2017Args {
    /// A folder of official instance data in the C layout (default $CEC2017_DATA_DIR, else the official data compiled into the program).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Use a synthetic instance generated from SEED instead of the official data.
    #[arg(long, value_name = "SEED")]
    pub synthetic: Option<u64>,
}

impl Cec2017Args {
    /// The suite a study with these options needs: for `--report` the catalogue (labels
    /// and groups; the runs are recorded already, no data is read), else
    /// [`Cec2017Args::suite`].
    ///
    /// # Errors
    /// As [`Cec2017Args::suite`].
    pub fn suite_for(&self, study: &StudyArgs) -> Result<Arc<dyn Suite>, StudyError> {
        self.suite_with_jacobian(study, JacobianSource::Differences)
    }

    /// As [`Cec2017Args::suite_for`], with the problems offering their exact constraint
    /// Jacobians or not ([`Cec2017Suite::with_jacobian`]).
    ///
    /// # Errors
    /// As [`Cec2017Args::suite`].
    pub fn suite_with_jacobian(
        &self,
        study: &StudyArgs,
        jacobian: JacobianSource,
    ) -> Result<Arc<dyn Suite>, StudyError> {
        if study.report.is_some() {
            return Ok(Arc::new(Cec2017Suite::catalogue()));
        }
        Ok(Arc::new(
            Cec2017Suite::new(InstanceChoice::resolve(self.data.clone(), self.synthetic)?)
                .with_jacobian(jacobian),
        ))
    }

    /// The suite over the chosen data ([`InstanceChoice::resolve`]).
    ///
    /// # Errors
    /// Both options given, or a named directory that does not exist.
    pub fn suite(&self) -> Result<Arc<Cec2017Suite>, StudyError> {
        Ok(Arc::new(Cec2017Suite::new(InstanceChoice::resolve(
            self.data.clone(),
            self.synthetic,
        )?)))
    }
}

/// The significance test of the rankings, as a command-line value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TestChoice {
    /// Wilcoxon signed-rank test pairing runs by index (the paper).
    SignedRank,
    /// Wilcoxon rank-sum test (unpaired).
    RankSum,
}

/// The options of a comparison report (flattened into a front end's arguments).
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Problems whose dynamics are recorded and plotted (default: the suite's; CEC2017:
    /// the paper's Section 5, C03, C07, C27, C04, C20, C21).
    #[arg(long, value_parser = problems_arg)]
    pub plot_problems: Option<Problems>,
    /// Significance test of the rankings.
    #[arg(long, value_enum, default_value = "signed-rank")]
    pub test: TestChoice,
    /// Significance level.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
}

impl ReportArgs {
    /// The report's options.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for a level outside (0, 1).
    pub fn options(&self) -> Result<ReportOptions, StudyError> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(StudyError::Invalid(format!(
                "--alpha {} must lie in (0, 1)",
                self.alpha
            )));
        }
        Ok(ReportOptions {
            significance: match self.test {
                TestChoice::SignedRank => Significance::SignedRank { alpha: self.alpha },
                TestChoice::RankSum => Significance::RankSum { alpha: self.alpha },
            },
            plot_problems: self.plot_problems.as_ref().map(|p| p.0.clone()),
        })
    }

    /// The problems whose runs record dynamics: the plot problems (the suite's by
    /// default), and with `all`, every problem of the study too.
    #[must_use]
    pub fn dynamics_problems(&self, suite: &dyn Suite, all: Option<&[usize]>) -> Vec<usize> {
        let mut p = self
            .plot_problems
            .as_ref()
            .map_or_else(|| suite.plot_problems(), |p| p.0.clone());
        if let Some(all) = all {
            p.extend_from_slice(all);
        }
        p
    }
}

/// What a front end does with the results: build its outputs from results files
/// (loaded with [`StudyArgs::load`]) into a directory.
pub type BuildReport<'a> = &'a dyn Fn(&[PathBuf], &Path) -> Result<(), StudyError>;

impl StudyArgs {
    /// Loads results files for a report, keeping only complete groups of runs (and
    /// marking the tables) with `--allow-incomplete`.
    ///
    /// # Errors
    /// As [`Dataset::load`].
    pub fn load(&self, files: &[PathBuf]) -> Result<Dataset, StudyError> {
        let data = Dataset::load(files)?;
        Ok(if self.allow_incomplete {
            data.allow_incomplete()
        } else {
            data
        })
    }

    /// The study these options describe: `configs` on `suite`'s problems (all, or
    /// `--problems`), recording dynamics for `dynamics_problems`.
    #[must_use]
    pub fn spec(
        &self,
        suite: Arc<dyn Suite>,
        configs: Vec<StudyConfig>,
        dynamics_problems: Vec<usize>,
    ) -> StudySpec {
        StudySpec {
            runs: self.runs,
            problems: self
                .problems
                .as_ref()
                .map_or_else(|| suite.problems(), |p| p.0.clone()),
            budget_per_dim: self.budget_per_dim,
            seed: self.seed,
            dynamics_problems,
            shard: self.shard,
            threads: self.threads,
            progress: !self.no_progress,
            fast: self.fast,
            coco: self.coco.clone(),
            ..StudySpec::new(suite, self.dim, configs)
        }
    }

    /// Runs the study of `configs` on `suite` (or, with `--report`, only builds the
    /// outputs; with `--status`, only reports progress), then the front end's report.
    /// Bad input fails before anything is printed or written.
    ///
    /// # Errors
    /// Everything [`crate::study::run_study`] and the report can fail with.
    pub fn execute(
        &self,
        name: &str,
        suite: Arc<dyn Suite>,
        configs: Vec<StudyConfig>,
        dynamics_problems: Vec<usize>,
        default_out: PathBuf,
        build_report: BuildReport<'_>,
    ) -> Result<(), StudyError> {
        if let Some(files) = &self.report {
            let out = self.out.clone().unwrap_or_else(|| {
                files[0]
                    .parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            });
            return build_report(files, &out);
        }
        if self.threads == Some(0) {
            return Err(StudyError::Invalid("--threads must be at least 1".into()));
        }
        if self.allow_incomplete {
            return Err(StudyError::Invalid(
                "--allow-incomplete applies to --report (building tables from results files)"
                    .into(),
            ));
        }
        let spec = self.spec(suite, configs, dynamics_problems);
        let out = self.out.clone().unwrap_or(default_out);
        if self.status {
            spec.validate()?;
            let status = crate::study::status::study_status(&spec, &out)?;
            crate::show!(
                "{name} in {}: N = {}, {} configurations × {} problems × {} runs",
                out.display(),
                spec.dim,
                spec.configs.len(),
                spec.problems.len(),
                spec.runs
            );
            crate::show!("{status}");
            return Ok(());
        }
        let prepared = spec.prepare(&out)?;
        if let Some(w) = spec.suite.warning() {
            crate::say!("\n*** {w}\n");
        }
        pin_blas_to_one_thread();
        crate::say!(
            "{name}: N = {}, {} configurations × {} problems × {} runs, budget {} · N, {} thread(s), instance {}{}",
            spec.dim,
            spec.configs.len(),
            spec.problems.len(),
            spec.runs,
            spec.budget_per_dim,
            self.threads.unwrap_or_else(rayon::current_num_threads),
            spec.suite.instance(),
            spec.shard.map_or(String::new(), |s| format!(", shard {}/{}", s.index, s.count))
        );
        let outcome = prepared.run()?;
        crate::say!(
            "{} runs done ({} already finished before) in {:.1} s; results in {}",
            outcome.ran,
            outcome.skipped,
            outcome.elapsed.as_secs_f64(),
            outcome.files.runs.display()
        );
        if let Some(s) = spec.shard {
            crate::say!(
                "shard {}/{} complete; when all shards are done, build the outputs with --report {}/runs.shard-*-of-{}.jsonl --out {}",
                s.index,
                s.count,
                out.display(),
                s.count,
                out.display()
            );
            return Ok(());
        }
        build_report(&[outcome.files.runs], &out)
    }
}
