//! The paper's ablation study: εMAg-ES and its six reduced variants on the CEC2017
//! constrained problems, with the paper's tables, plots and an HTML report.
//!
//! ```sh
//! cargo run --release --example ablation                       # N = 10, 7 × 28 × 25 runs
//! cargo run --release --example ablation -- --dim 100 --shard 3/16 --out results/D100
//! cargo run --release --example ablation -- --report results/D100/runs.shard-*.jsonl --out results/D100
//! cargo run --release --example ablation -- --jacobian exact --variants eps-mag-es-r --out results/D10-exact
//! cargo run --release --example ablation -- --dim 50 --baseline eps-mag-es-r --variants eps-mag-es-r,SPEC
//! ```
//!
//! Re-running the same command resumes: finished runs are skipped.

use clap::Parser;
use constraint_handling::JacobianSource;
use emages_harness::cli::{
    jacobian_arg, main_with, variants_arg, variants_help, Cec2017Args, ReportArgs, StudyArgs,
    Variants,
};
use emages_harness::optimizer::MaEsOptimizer;
use emages_harness::study::StudyConfig;
use emages_harness::StudyError;
use emages_paper::{self, ablation_report, baseline_report, EXACT_JACOBIAN_SUFFIX};
use ma_es::{ComponentSpec, Variant};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Reproduce the εMAg-ES ablation study (Hellwig & Beyer, Sections 4–5).
#[derive(Parser, Debug)]
#[command(name = "ablation", version)]
struct Args {
    #[command(flatten)]
    study: StudyArgs,
    #[command(flatten)]
    instance: Cec2017Args,
    #[command(flatten)]
    report: ReportArgs,
    /// Variants, comma-separated, or "all" (the seven presets); the baseline is always
    /// included.
    #[arg(long, default_value = "all", value_parser = variants_arg,
          long_help = variants_help("Variants, comma-separated, or \"all\" (the seven presets); the baseline (--baseline) is always included."))]
    variants: Variants,
    /// Also run these optimizers that are not MA-ES specs (comma-separated):
    /// `portfolio[:KEY=VALUE]…` (the recommended strategy, `emages::recommended()`),
    /// `sqp-restarts` (the restarted SQP local phase), the training `rounds`; black
    /// boxes (forward differences), but for the portfolios, which take the exact
    /// Jacobians with `--jacobian exact` (labelled `NAME+jacobian=exact`; the others
    /// are refused then).
    #[arg(long = "with", value_delimiter = ',')]
    with: Vec<String>,
    /// Run only the optimizers of `--with`, neither the variants nor the baseline
    /// (e.g. beside a baseline's committed runs); the tables are then built with
    /// `--report` from both runs files (the `portfolio` example's tables).
    #[arg(long, requires = "with")]
    only_with: bool,
    /// The configuration the tables compare the others with ("+": it is better):
    /// eps-mag-es (the paper's study, beside the paper's numbers) or any spec, e.g.
    /// eps-mag-es-r (then without the paper's numbers).
    #[arg(long, default_value = "eps-mag-es", value_parser = baseline_arg)]
    baseline: ComponentSpec,
    /// The constraint Jacobians the repairs get: `differences` (black box, as in the
    /// paper: forward differences, N evaluations each) or `exact` (the problems' own by
    /// automatic differentiation, one evaluation each). `exact` labels the runs
    /// `…+jacobian=exact` and compares them with εMAg-ES given the same, without the
    /// paper's numbers.
    #[arg(long, default_value = "differences", value_parser = jacobian_arg)]
    jacobian: JacobianSource,
    /// Record dynamics for every selected problem (the plot problems always record them).
    #[arg(long)]
    dynamics: bool,
    /// Also write the comparison with the paper (N = 10 or 100, all 28 problems) into the
    /// marked block of this Markdown file (e.g. docs/reproduction.md), linking the plots.
    #[arg(long, value_name = "MARKDOWN")]
    docs: Option<PathBuf>,
}

fn baseline_arg(s: &str) -> Result<ComponentSpec, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(run)
}

fn run(args: &Args) -> Result<(), StudyError> {
    let options = args.report.options()?;
    let paper_baseline = args.baseline == Variant::EpsMagEs.spec();
    let build = |files: &[PathBuf], out: &Path| -> Result<(), StudyError> {
        if args.only_with {
            emages_harness::say!(
                "--only-with: no tables (they compare with the baseline); build them with --report from these runs and the baseline's"
            );
            return Ok(());
        }
        let data = args.study.load(files)?;
        if !paper_baseline {
            if args.docs.is_some() {
                return Err(StudyError::Invalid(
                    "--docs: the comparison with the paper needs the baseline eps-mag-es".into(),
                ));
            }
            let output = baseline_report(&data, out, &options, &args.baseline)?;
            emages_harness::show!("\n{}", output.table1.to_markdown());
            emages_harness::show!("{}", output.baseline_statistics.to_markdown());
            emages_harness::show!(
                "Results in {}/: table1.md/.csv, table1_cec, table2, table4_equality, table5_rotated, table_detail, stats_*.md/.csv, plots/, report.html",
                out.display()
            );
            return Ok(());
        }
        let report = ablation_report(&data, out, &options)?;
        if let Some(doc) = &args.docs {
            let Some(beside) = &report.beside_paper else {
                return Err(StudyError::Invalid(format!(
                    "--docs: no comparison with the paper for these results (it needs N = 10 or 100, all 28 problems, a significance test); {} left unchanged",
                    doc.display()
                )));
            };
            let plots = out.join("plots");
            let prefix = if plots.is_dir() {
                emages_paper::relative_link(doc, &plots)?
            } else {
                String::new()
            };
            let text = emages_paper::to_markdown(&beside.tables(), &report.output.figures, &prefix);
            emages_paper::DocBlock::ablation(data.dim).replace(doc, &text)?;
            emages_harness::say!("wrote the comparison with the paper into {}", doc.display());
        }
        emages_harness::show!("\n{}", report.output.table1.to_markdown());
        emages_harness::show!("{}", report.output.baseline_statistics.to_markdown());
        emages_harness::show!(
            "Results in {}/: table1.md/.csv, table1_cec, table2, table4_equality, table5_rotated, table_detail, stats_*.md/.csv, paper_comparison.md, plots/, report.html",
            out.display()
        );
        Ok(())
    };

    let mut variants = args.variants.0.clone();
    let baseline = args.baseline;
    if args.only_with {
        variants.clear();
    } else if !variants.contains(&baseline) && args.study.report.is_none() {
        emages_harness::say!(
            "note: adding the baseline {baseline}, against which the tables compare"
        );
        variants.insert(0, baseline);
    }
    // Each configuration is labelled by its spec's text form (a preset's name): the
    // label enters the run seeds and the tables.
    let suffix = match args.jacobian {
        JacobianSource::Exact => EXACT_JACOBIAN_SUFFIX,
        JacobianSource::Differences => "",
    };
    let mut configs: Vec<StudyConfig> = variants
        .iter()
        .map(|spec| StudyConfig::custom(format!("{spec}{suffix}"), MaEsOptimizer::with_spec(*spec)))
        .collect();
    for name in &args.with {
        configs.push(StudyConfig::other_with_jacobian(name, args.jacobian)?);
        if let Some(note) = StudyConfig::protocol_note(name) {
            eprintln!("note: {note}");
        }
    }
    let suite = args
        .instance
        .suite_with_jacobian(&args.study, args.jacobian)?;
    let all = args.dynamics.then(|| {
        args.study
            .problems
            .as_ref()
            .map_or_else(|| (1..=28).collect(), |p| p.0.clone())
    });
    let dynamics = args
        .report
        .dynamics_problems(suite.as_ref(), all.as_deref());
    let default_out = PathBuf::from(format!("results/ablation-D{}", args.study.dim));
    args.study.execute(
        "ablation study",
        suite,
        configs,
        dynamics,
        default_out,
        &build,
    )
}
