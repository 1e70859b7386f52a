//! Command-line helpers shared by the examples: list parsing and error reporting.

use crate::error::StudyError;
use ma_es::{ComponentSpec, Variant};
use std::process::ExitCode;

/// Parses a problem selection such as `1-28`, `3,7,27` or `1-5,9`: sorted, without
/// duplicates, each in `1..=28`.
///
/// ```
/// use emages::cli::parse_problems;
/// assert_eq!(parse_problems("3,1-2,3").unwrap(), vec![1, 2, 3]);
/// assert!(parse_problems("0").is_err());
/// assert!(parse_problems("27-29").is_err());
/// ```
///
/// # Errors
/// A message naming the bad part.
pub fn parse_problems(s: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |t: &str| -> Result<usize, String> {
            let t = t.trim().trim_start_matches(['C', 'c']);
            let v: usize = t
                .parse()
                .map_err(|_| format!("{part:?} is not a problem number"))?;
            if (1..=28).contains(&v) {
                Ok(v)
            } else {
                Err(format!("problem {v} does not exist: the CEC2017 constrained suite has problems 1 to 28"))
            }
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("empty range {part:?}"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part)?),
        }
    }
    if out.is_empty() {
        return Err("no problems selected".into());
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Parses a variant selection: `all` (the seven presets), or component specs separated
/// by commas — preset names, or a preset with components changed
/// (`eps-mag-es:step-size=median-success`, [`ma_es::ComponentSpec`]'s text form).
///
/// ```
/// use emages::cli::parse_variants;
/// let v = parse_variants("eps-ma-es, eps-mag-es:step-size=constant").unwrap();
/// assert_eq!(v[0].to_string(), "eps-ma-es");
/// assert_eq!(v[1].to_string(), "eps-mag-es:step-size=constant");
/// assert!(parse_variants("eps-mag-es:step-size=fast").unwrap_err().contains("step-size=fast"));
/// ```
///
/// # Errors
/// A message naming the unknown variant or component.
pub fn parse_variants(s: &str) -> Result<Vec<ComponentSpec>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::ALL.iter().map(|v| v.spec()).collect());
    }
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let v: ComponentSpec = part
            .parse()
            .map_err(|e: ma_es::variant::UnknownVariant| e.to_string())?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err("no variants selected".into());
    }
    Ok(out)
}

/// The whole `main` of a front end: parses the arguments ([`parse_args`]), runs, and
/// turns an error into one line on stderr and a failing exit code ([`fail`]).
pub fn main_with<T: clap::Parser>(run: impl FnOnce(&T) -> Result<(), StudyError>) -> ExitCode {
    use_canonical_blas_kernel();
    match run(&parse_args::<T>()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// The first step of every front end: runs the program with the canonical OpenBLAS
/// kernel ([`constraint_handling::linalg::kernel::use_canonical_kernel`]: restarts it
/// with `OPENBLAS_CORETYPE=Haswell` when OpenBLAS picked another family on a CPU with
/// AVX2 and FMA and the user chose none), so that runs reproduce the committed results
/// on any such CPU; then warns once if the kernel is still a fallback.
pub fn use_canonical_blas_kernel() {
    use constraint_handling::linalg::kernel;
    if let Err(e) = kernel::use_canonical_kernel() {
        crate::say!(
            "warning: could not restart with OpenBLAS's {} kernels ({e}); set {}={} to get them",
            kernel::CANONICAL_KERNEL,
            kernel::CORETYPE_VARIABLE,
            kernel::CANONICAL_KERNEL
        );
    }
    kernel::warn_once();
}

/// Prints `error: …` (one line) and returns a failing exit code.
#[must_use]
pub fn fail(e: &StudyError) -> ExitCode {
    crate::say!("error: {e}");
    ExitCode::FAILURE
}

/// Parses the command line; on a usage error prints its first line and exits with
/// status 2 (help and version print in full and exit 0).
pub fn parse_args<T: clap::Parser>() -> T {
    match T::try_parse() {
        Ok(t) => t,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                std::process::exit(0);
            }
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            crate::say!("{first} (see --help)");
            std::process::exit(2);
        }
    }
}

/// A problem selection as a command-line value (see [`parse_problems`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems(pub Vec<usize>);

/// A variant selection as a command-line value (see [`parse_variants`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variants(pub Vec<ComponentSpec>);

/// `clap` value parser for [`Problems`].
///
/// # Errors
/// As [`parse_problems`].
pub fn problems_arg(s: &str) -> Result<Problems, String> {
    parse_problems(s).map(Problems)
}

/// `clap` value parser for [`Variants`].
///
/// # Errors
/// As [`parse_variants`].
pub fn variants_arg(s: &str) -> Result<Variants, String> {
    parse_variants(s).map(Variants)
}

/// The options every study front end shares (flattened into the examples' arguments).
#[derive(clap::Args, Debug, Clone)]
pub struct StudyArgs {
    /// Search-space dimension N.
    #[arg(long, default_value_t = 10)]
    pub dim: usize,
    /// Independent runs per configuration and problem.
    #[arg(long, default_value_t = 25)]
    pub runs: usize,
    /// Problems, e.g. 1-28 or 3,7,27.
    #[arg(long, default_value = "1-28", value_parser = problems_arg)]
    pub problems: Problems,
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
    pub out: Option<std::path::PathBuf>,
    /// Official instance data in the C layout (default $CEC2017_DATA_DIR, else ../shared/cec2017/text).
    #[arg(long)]
    pub data: Option<std::path::PathBuf>,
    /// Use a synthetic instance generated from SEED instead of the official data.
    #[arg(long, value_name = "SEED")]
    pub synthetic: Option<u64>,
    /// Run only shard I of N (for clusters); merge the shards' files with --report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::study::Shard>,
    /// Build the outputs from these results files (e.g. all shards) instead of running.
    #[arg(long, num_args = 1.., value_name = "RUNS_JSONL")]
    pub report: Option<Vec<std::path::PathBuf>>,
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
    /// Take the fast path: vectorised normals (FastNoise) and sin/cos within an ulp of
    /// the libm's instead of its bits; other runs than the default path's, the same
    /// statistics (docs/performance.md). Recorded in every run record.
    #[arg(long)]
    pub fast: bool,
}

/// What a front end does with the results: build its outputs from a dataset (loaded
/// by [`StudyArgs::load`]) into a directory.
pub type BuildReport<'a> =
    &'a dyn Fn(&[std::path::PathBuf], &std::path::Path) -> Result<(), StudyError>;

impl StudyArgs {
    /// Loads results files for a report, keeping only complete groups of runs (and
    /// marking the tables) with `--allow-incomplete`.
    ///
    /// # Errors
    /// As [`crate::study::dataset::Dataset::load`].
    pub fn load(
        &self,
        files: &[std::path::PathBuf],
    ) -> Result<crate::study::dataset::Dataset, StudyError> {
        let data = crate::study::dataset::Dataset::load(files)?;
        Ok(if self.allow_incomplete {
            data.allow_incomplete()
        } else {
            data
        })
    }

    /// Runs the study of `configs` (or, with `--report`, only builds the outputs; with
    /// `--status`, only reports progress), then the front end's report. Bad input fails before anything is printed or written.
    ///
    /// # Errors
    /// Everything [`crate::study::run_study`] and the report can fail with.
    pub fn execute(
        &self,
        name: &str,
        configs: Vec<crate::study::StudyConfig>,
        dynamics_problems: Vec<usize>,
        default_out: std::path::PathBuf,
        build_report: BuildReport<'_>,
    ) -> Result<(), StudyError> {
        use crate::study::{pin_blas_to_one_thread, StudySpec};
        use crate::suites::InstanceChoice;
        use crate::suites::{Cec2017Suite, Suite};
        use std::sync::Arc;
        if let Some(files) = &self.report {
            let out = self.out.clone().unwrap_or_else(|| {
                files[0].parent().map_or_else(
                    || std::path::PathBuf::from("."),
                    std::path::Path::to_path_buf,
                )
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
        let spec = StudySpec {
            dim: self.dim,
            runs: self.runs,
            problems: self.problems.0.clone(),
            configs,
            budget_per_dim: self.budget_per_dim,
            seed: self.seed,
            suite: Arc::new(Cec2017Suite::new(InstanceChoice::resolve(
                self.data.clone(),
                self.synthetic,
            )?)),
            dynamics_problems,
            shard: self.shard,
            threads: self.threads,
            progress: !self.no_progress,
            fast: self.fast,
            checkpoint_fractions: crate::study::DEFAULT_CHECKPOINT_FRACTIONS.to_vec(),
        };
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
