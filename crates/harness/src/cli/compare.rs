//! [`compare_main`]: the whole study command line — runs, shards, resume, `--status`,
//! `--report`, `--allow-incomplete`, plots — for a user's suite and configurations, in
//! one call from their `main`.

use super::{main_with, Cec2017Args, ReportArgs, StudyArgs};
use crate::error::StudyError;
use crate::report::{comparison_report, Contender, Lineup};
use crate::study::StudyConfig;
use crate::suites::Suite;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The command line of [`compare_main`].
#[derive(clap::Parser, Debug, Clone)]
#[command(
    version,
    about = "Compare configurations on a benchmark suite: runs, records, statistics, rankings, plots and report"
)]
pub struct CompareArgs {
    /// The study.
    #[command(flatten)]
    pub study: StudyArgs,
    /// The report.
    #[command(flatten)]
    pub report: ReportArgs,
    /// Record dynamics for every selected problem (the plot problems always record them).
    #[arg(long)]
    pub dynamics: bool,
}

/// Runs the study command line for `configs` on `suite`: the first configuration is the
/// baseline every other is compared with (Tables 1, A1, the suite's group tables, 2, the
/// statistics, plots, `report.html`, all named after the suite), results by default in
/// `results/{name}-D{N}`. Every option of [`StudyArgs`] and [`ReportArgs`] works
/// (`--runs`, `--out`, `--shard I/N`, `--status`, `--report FILES`,
/// `--allow-incomplete`, `--plot-problems`, `--test`, …); errors end the program with
/// one line and a failing exit code.
///
/// ```no_run
/// use emages_harness::study::StudyConfig;
/// use emages_harness::suites::Cec2017Suite;
/// use ma_es::{Config, Variant};
/// use std::sync::Arc;
///
/// fn main() -> std::process::ExitCode {
///     let suite = Arc::new(Cec2017Suite::synthetic(1)); // or a suite of your own
///     let configs = vec![
///         StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
///         StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
///     ];
///     emages_harness::cli::compare_main("my-comparison", suite, configs)
/// }
/// ```
#[must_use]
pub fn compare_main(name: &str, suite: Arc<dyn Suite>, configs: Vec<StudyConfig>) -> ExitCode {
    main_with(|args: &CompareArgs| compare(name, &suite, configs, args))
}

/// The command line of [`compare_cec2017_main`]: [`CompareArgs`] and where the CEC2017
/// instance data comes from ([`Cec2017Args`]: the compiled-in official data by default,
/// `--data DIR`, `--synthetic SEED`).
#[derive(clap::Parser, Debug, Clone)]
#[command(
    version,
    about = "Compare configurations on the CEC2017 constrained suite: runs, records, statistics, rankings, plots and report"
)]
pub struct Cec2017CompareArgs {
    /// The comparison.
    #[command(flatten)]
    pub compare: CompareArgs,
    /// The instance data.
    #[command(flatten)]
    pub instance: Cec2017Args,
}

/// [`compare_main`] on the CEC2017 suite, with its instance-data options: the whole
/// `main` of a program that compares its configurations with εMAg-ES on CEC2017
/// (`examples/compare.rs`, `custom_component.rs`, `third_party.rs`). `configs` is
/// called once the arguments are parsed.
///
/// ```no_run
/// use emages_harness::study::StudyConfig;
/// use ma_es::{Config, Variant};
///
/// fn main() -> std::process::ExitCode {
///     emages_harness::cli::compare_cec2017_main("my-comparison", || {
///         vec![
///             StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
///             StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
///         ]
///     })
/// }
/// ```
#[must_use]
pub fn compare_cec2017_main(name: &str, configs: impl FnOnce() -> Vec<StudyConfig>) -> ExitCode {
    main_with(|args: &Cec2017CompareArgs| {
        let suite = args.instance.suite_for(&args.compare.study)?;
        compare(name, &suite, configs(), &args.compare)
    })
}

/// [`compare_main`] with parsed arguments.
///
/// # Errors
/// Fewer than two configurations; everything the study and the report can fail with.
pub fn compare(
    name: &str,
    suite: &Arc<dyn Suite>,
    configs: Vec<StudyConfig>,
    args: &CompareArgs,
) -> Result<(), StudyError> {
    let options = args.report.options()?;
    let [baseline, others @ ..] = configs.as_slice() else {
        return Err(StudyError::Invalid(
            "a comparison needs a baseline and at least one other configuration".into(),
        ));
    };
    if others.is_empty() {
        return Err(StudyError::Invalid(
            "a comparison needs a baseline and at least one other configuration".into(),
        ));
    }
    let contender = |c: &StudyConfig| Contender::new(c.label.clone(), c.display_name());
    let mut lineup = Lineup::new(contender(baseline), others.iter().map(contender).collect());
    lineup.title = format!("{name}: {} on the {} suite", lineup.title, suite.name());
    let build = |files: &[PathBuf], out: &Path| -> Result<(), StudyError> {
        let data = args.study.load(files)?.with_suite(Arc::clone(suite))?;
        let report = comparison_report(&data, &lineup, out, &options)?;
        crate::show!("\n{}", report.table1.to_markdown());
        crate::show!(
            "Results in {}/: table1, table1_cec, the group tables, table2, table_detail, stats_*.md/.csv, plots/, report.html",
            out.display()
        );
        Ok(())
    };
    let all = args.dynamics.then(|| {
        args.study
            .problems
            .as_ref()
            .map_or_else(|| suite.problems(), |p| p.0.clone())
    });
    let dynamics = args
        .report
        .dynamics_problems(suite.as_ref(), all.as_deref());
    let default_out = PathBuf::from(format!("results/{name}-D{}", args.study.dim));
    args.study.execute(
        name,
        Arc::clone(suite),
        configs,
        dynamics,
        default_out,
        &build,
    )
}
