//! The paper's ablation study: εMAg-ES and its six reduced variants on the CEC2017
//! constrained problems, with the paper's tables, plots and an HTML report.
//!
//! ```sh
//! cargo run --release --example ablation                       # N = 10, 7 × 28 × 25 runs
//! cargo run --release --example ablation -- --dim 100 --shard 3/16 --out results/D100
//! cargo run --release --example ablation -- --report results/D100/runs.shard-*.jsonl --out results/D100
//! ```
//!
//! Re-running the same command resumes: finished runs are skipped.

use bench_stats::pairwise::Significance;
use clap::{Parser, ValueEnum};
use emages::cli::{fail, parse_args, problems_arg, variants_arg, Problems, Variants};
use emages::dataset::Dataset;
use emages::report::{ablation_report, ReportOptions};
use emages::study::{
    check_output, pin_blas_to_one_thread, run_study, InstanceChoice, Shard, StudyConfig, StudySpec,
};
use emages::StudyError;
use ma_es::{Config, Variant};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TestChoice {
    /// Wilcoxon signed-rank test pairing runs by index (the paper).
    SignedRank,
    /// Wilcoxon rank-sum test (unpaired).
    RankSum,
}

/// Reproduce the εMAg-ES ablation study (Hellwig & Beyer, Sections 4–5).
#[derive(Parser, Debug)]
#[command(name = "ablation", version)]
struct Args {
    /// Search-space dimension N.
    #[arg(long, default_value_t = 10)]
    dim: usize,
    /// Independent runs per variant and problem.
    #[arg(long, default_value_t = 25)]
    runs: usize,
    /// Problems, e.g. 1-28 or 3,7,27.
    #[arg(long, default_value = "1-28", value_parser = problems_arg)]
    problems: Problems,
    /// Variants (preset names, comma-separated) or "all"; the baseline eps-mag-es is always included.
    #[arg(long, default_value = "all", value_parser = variants_arg)]
    variants: Variants,
    /// Evaluation budget per dimension (budget = this · N).
    #[arg(long, default_value_t = 20_000)]
    budget_per_dim: usize,
    /// Base seed of the runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Output directory (default results/ablation-D{N}).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Official instance data in the C layout (default $CEC2017_DATA_DIR, else ../shared/cec2017/text).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Use a synthetic instance generated from SEED instead of the official data.
    #[arg(long, value_name = "SEED")]
    synthetic: Option<u64>,
    /// Run only shard I of N (for clusters); merge the shards' files with --report.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Record dynamics for every selected problem (the plot problems always record them).
    #[arg(long)]
    dynamics: bool,
    /// Problems whose dynamics are plotted.
    #[arg(long, default_value = "3,7,27,4,20,21", value_parser = problems_arg)]
    plot_problems: Problems,
    /// Significance test of the rankings.
    #[arg(long, value_enum, default_value = "signed-rank")]
    test: TestChoice,
    /// Significance level.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Build the outputs from these results files (e.g. all shards) instead of running.
    #[arg(long, num_args = 1.., value_name = "RUNS_JSONL")]
    report: Option<Vec<PathBuf>>,
    /// Do not show the progress bar.
    #[arg(long)]
    no_progress: bool,
}

fn main() -> ExitCode {
    let args: Args = parse_args();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn report_options(args: &Args) -> Result<ReportOptions, StudyError> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(StudyError::Invalid(format!(
            "--alpha {} must lie in (0, 1)",
            args.alpha
        )));
    }
    Ok(ReportOptions {
        significance: match args.test {
            TestChoice::SignedRank => Significance::SignedRank { alpha: args.alpha },
            TestChoice::RankSum => Significance::RankSum { alpha: args.alpha },
        },
        plot_problems: args.plot_problems.0.clone(),
    })
}

fn build_report(
    files: &[PathBuf],
    out: &std::path::Path,
    options: &ReportOptions,
) -> Result<(), StudyError> {
    let data = Dataset::load(files)?;
    let report = ablation_report(&data, out, options)?;
    println!("\n{}", report.table1.to_markdown());
    println!("{}", report.baseline_statistics.to_markdown());
    println!("Results in {}/: table1.md/.csv, table1_cec, table2, table4_equality, table5_rotated, table_detail, stats_*.md/.csv, plots/, report.html", out.display());
    Ok(())
}

fn run(args: &Args) -> Result<(), StudyError> {
    let options = report_options(args)?;
    if let Some(files) = &args.report {
        let out = args.out.clone().unwrap_or_else(|| {
            files[0]
                .parent()
                .map_or_else(|| PathBuf::from("."), std::path::Path::to_path_buf)
        });
        return build_report(files, &out, &options);
    }
    if args.threads == Some(0) {
        return Err(StudyError::Invalid("--threads must be at least 1".into()));
    }
    let instance = InstanceChoice::resolve(args.data.clone(), args.synthetic)?;
    let mut variants = args.variants.0.clone();
    if !variants.contains(&Variant::EpsMagEs) {
        eprintln!("note: adding the baseline eps-mag-es, against which the tables compare");
        variants.insert(0, Variant::EpsMagEs);
    }
    let problems = args.problems.0.clone();
    let mut dynamics_problems = args.plot_problems.0.clone();
    if args.dynamics {
        dynamics_problems.extend(problems.iter().copied());
    }
    let spec = StudySpec {
        dim: args.dim,
        runs: args.runs,
        problems,
        configs: variants
            .iter()
            .map(|&v| StudyConfig {
                label: v.name().to_string(),
                variant: v,
                config: Config::default(),
            })
            .collect(),
        budget_per_dim: args.budget_per_dim,
        seed: args.seed,
        instance,
        dynamics_problems,
        shard: args.shard,
        threads: args.threads,
        progress: !args.no_progress,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/ablation-D{}", args.dim)));
    // Bad input fails here, before anything is printed.
    spec.prepare()?;
    check_output(&spec, &out)?;
    if let Some(w) = spec.instance.warning() {
        eprintln!("\n*** {w}\n");
    }
    pin_blas_to_one_thread();
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    eprintln!(
        "ablation study: N = {}, {} variants × {} problems × {} runs, budget {} · N, {} thread(s), instance {}{}",
        spec.dim,
        spec.configs.len(),
        spec.problems.len(),
        spec.runs,
        spec.budget_per_dim,
        threads,
        spec.instance.label(),
        spec.shard.map_or(String::new(), |s| format!(", shard {}/{}", s.index, s.count))
    );
    let outcome = run_study(&spec, &out)?;
    eprintln!(
        "{} runs done ({} already finished before) in {:.1} s; results in {}",
        outcome.ran,
        outcome.skipped,
        outcome.elapsed.as_secs_f64(),
        outcome.files.runs.display()
    );
    if let Some(s) = spec.shard {
        eprintln!(
            "shard {}/{} complete; when all shards are done, build the tables with:\n  cargo run --release --example ablation -- --report {}/runs.shard-*-of-{}.jsonl --out {}",
            s.index,
            s.count,
            out.display(),
            s.count,
            out.display()
        );
        return Ok(());
    }
    build_report(&[outcome.files.runs], &out, &options)
}
