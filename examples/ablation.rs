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
use emages::cli::{main_with, problems_arg, variants_arg, Problems, StudyArgs, Variants};
use emages::comparison;
use emages::optimizer::MaEsOptimizer;
use emages::report::{ablation_report, ReportOptions};
use emages::study::StudyConfig;
use emages::StudyError;
use ma_es::Variant;
use std::path::{Path, PathBuf};
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
    #[command(flatten)]
    study: StudyArgs,
    /// Variants, comma-separated: preset names, or a preset with components changed
    /// (PRESET:KEY=VALUE…, e.g. eps-mag-es:step-size=median-success; keys repair,
    /// back-calculation, sigma-cap, matrix-adaptation, ordering, step-size, ranking), or
    /// "all" (the seven presets); the baseline eps-mag-es is always included.
    #[arg(long, default_value = "all", value_parser = variants_arg)]
    variants: Variants,
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
    /// Also write the comparison with the paper (N = 10 or 100, all 28 problems) into the
    /// marked block of this Markdown file (e.g. docs/reproduction.md), linking the plots.
    #[arg(long, value_name = "MARKDOWN")]
    docs: Option<PathBuf>,
}

fn main() -> ExitCode {
    main_with(run)
}

fn run(args: &Args) -> Result<(), StudyError> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(StudyError::Invalid(format!(
            "--alpha {} must lie in (0, 1)",
            args.alpha
        )));
    }
    let options = ReportOptions {
        significance: match args.test {
            TestChoice::SignedRank => Significance::SignedRank { alpha: args.alpha },
            TestChoice::RankSum => Significance::RankSum { alpha: args.alpha },
        },
        plot_problems: args.plot_problems.0.clone(),
    };
    let build = |files: &[PathBuf], out: &Path| -> Result<(), StudyError> {
        let data = args.study.load(files)?;
        let report = ablation_report(&data, out, &options)?;
        if let Some(doc) = &args.docs {
            if report.beside_paper.is_empty() {
                return Err(StudyError::Invalid(format!(
                    "--docs: no comparison with the paper for these results (it needs N = 10 or 100, all 28 problems, a significance test); {} left unchanged",
                    doc.display()
                )));
            }
            let plots = out.join("plots");
            let prefix = if plots.is_dir() {
                comparison::relative_link(doc, &plots)?
            } else {
                String::new()
            };
            let tables: Vec<&bench_stats::Table> = report.beside_paper.iter().collect();
            let text = comparison::to_markdown(&tables, &report.figures, &prefix);
            comparison::DocBlock::ablation(data.dim).replace(doc, &text)?;
            emages::say!("wrote the comparison with the paper into {}", doc.display());
        }
        emages::show!("\n{}", report.table1.to_markdown());
        emages::show!("{}", report.baseline_statistics.to_markdown());
        emages::show!(
            "Results in {}/: table1.md/.csv, table1_cec, table2, table4_equality, table5_rotated, table_detail, stats_*.md/.csv, paper_comparison.md, plots/, report.html",
            out.display()
        );
        Ok(())
    };

    let mut variants = args.variants.0.clone();
    let baseline = Variant::EpsMagEs.spec();
    if !variants.contains(&baseline) && args.study.report.is_none() {
        emages::say!("note: adding the baseline eps-mag-es, against which the tables compare");
        variants.insert(0, baseline);
    }
    // Each configuration is labelled by its spec's text form (a preset's name): the
    // label enters the run seeds and the tables.
    let configs = variants
        .iter()
        .map(|spec| StudyConfig::custom(spec.to_string(), MaEsOptimizer::with_spec(*spec)))
        .collect();
    let mut dynamics = args.plot_problems.0.clone();
    if args.dynamics {
        dynamics.extend(args.study.problems.0.iter().copied());
    }
    let default_out = PathBuf::from(format!("results/ablation-D{}", args.study.dim));
    args.study
        .execute("ablation study", configs, dynamics, default_out, &build)
}
