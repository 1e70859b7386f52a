//! εMAg-ES (and any variant) on COCO's bbob-constrained suite, with COCO's data files
//! for `cocopp` beside the study's own records.
//!
//! ```sh
//! cargo run --release --example bbob_constrained -- --dim 10                 # 54 functions × 15 instances
//! cargo run --release --example bbob_constrained -- --dim 5 --functions 1-12 --instances 1-5
//! cargo run --release --example bbob_constrained -- --dim 20 --shard 2/8      # a cluster's shard
//! python -m cocopp results/bbob-constrained-D10/coco/eps-mag-es               # COCO's post-processing
//! ```
//!
//! As in COCO, the instances are the repetitions: one run per (function, instance) by
//! default. The budget counts the optimizer's evaluations, each one of `f` and one of
//! `g` (COCO counts `f + g`, so a run costs at most twice `--budget-per-dim · n` there;
//! the repair's Jacobian probes are evaluations of `g` alone): the default 5000 keeps
//! COCO's count within 10⁴ · n. Re-running the same
//! command resumes: finished runs are skipped, and are in the COCO files exactly once.

use clap::Parser;
use emages_harness::cli::{
    main_with, problems_arg, variants_arg, variants_help, Problems, ReportArgs, StudyArgs, Variants,
};
use emages_harness::optimizer::MaEsOptimizer;
use emages_harness::report::{comparison_report, Contender, Lineup};
use emages_harness::study::StudyConfig;
use emages_harness::suites::{BbobConstrainedSuite, Suite};
use emages_harness::StudyError;
use ma_es::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// εMAg-ES on COCO's bbob-constrained suite, with COCO's data files for cocopp.
#[derive(Parser, Debug)]
#[command(
    name = "bbob_constrained",
    version,
    mut_arg("runs", |a| a.default_value("1").help("Runs per function and instance (COCO: 1; the instances are the repetitions)")),
    mut_arg("budget_per_dim", |a| a.default_value("5000").help("Evaluation budget per dimension (budget = this · N evaluations of f and g each; 5000: COCO's f + g count stays within 10⁴ · N)")),
    mut_arg("problems", |a| a.hide(true))
)]
struct Args {
    #[command(flatten)]
    study: StudyArgs,
    #[command(flatten)]
    report: ReportArgs,
    /// Functions (1–54), e.g. 1-54 or 1,7,13.
    #[arg(long, default_value = "1-54", value_parser = problems_arg)]
    functions: Problems,
    /// Instances (COCO's: 1–15).
    #[arg(long, default_value = "1-15", value_parser = problems_arg)]
    instances: Problems,
    /// Variants, comma-separated (as for the ablation: presets or PRESET:KEY=VALUE…);
    /// with two or more, the first is the baseline of a comparison report.
    #[arg(long, default_value = "eps-mag-es", value_parser = variants_arg,
          long_help = variants_help("Variants, comma-separated; with two or more, the first is the baseline of a comparison report."))]
    variants: Variants,
    /// The generation T from which ε is 0 (default: the paper's 1000, tuned for the CEC
    /// budget of 20000 · N); a value of its own is appended to every label
    /// (`eps-mag-es@T250`). `scaled` takes T = 1000 · budget-per-dim / 20000, the same
    /// share of the run as in the CEC setting.
    #[arg(long, value_name = "T|scaled")]
    t_max: Option<String>,
    /// Do not write COCO's files (default: into OUT/coco/<variant>/).
    #[arg(long, conflicts_with = "coco")]
    no_coco: bool,
    /// Also run these optimizers that are not MA-ES specs, after the variants
    /// (comma-separated): `sqp-restarts` (the restarted SQP local phase), `portfolio`.
    #[arg(long = "with", value_delimiter = ',')]
    with: Vec<String>,
    /// Run only the optimizers of `--with`, no variant.
    #[arg(long, requires = "with")]
    only_with: bool,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(run)
}

fn run(args: &Args) -> Result<(), StudyError> {
    let options = args.report.options()?;
    let suite = Arc::new(BbobConstrainedSuite::new(
        args.functions.0.clone(),
        args.instances.0.clone(),
    )?);
    let defaults = Config::default();
    let t_max = match args.t_max.as_deref() {
        None => defaults.t_max,
        Some("scaled") => (defaults.t_max * args.study.budget_per_dim / 20_000).max(1),
        Some(t) => t.parse().map_err(|_| {
            StudyError::Invalid(format!(
                "--t-max {t}: expected a generation count or \"scaled\""
            ))
        })?,
    };
    let config = Config { t_max, ..defaults };
    let suffix = if t_max == Config::default().t_max {
        String::new()
    } else {
        format!("@T{t_max}")
    };
    let mut configs: Vec<StudyConfig> = if args.only_with {
        Vec::new()
    } else {
        args.variants
            .0
            .iter()
            .map(|spec| {
                StudyConfig::custom(
                    format!("{spec}{suffix}"),
                    MaEsOptimizer::with_spec(*spec).with_config(config.clone()),
                )
            })
            .collect()
    };
    for name in &args.with {
        configs.push(StudyConfig::other(name)?);
    }
    let contenders: Vec<Contender> = configs
        .iter()
        .map(|c| Contender::new(c.label.clone(), c.display_name().to_string()))
        .collect();
    let default_out = PathBuf::from(format!("results/bbob-constrained-D{}", args.study.dim));
    let out = args
        .study
        .out
        .clone()
        .unwrap_or_else(|| default_out.clone());
    let mut study = args.study.clone();
    if study.coco.is_none() && !args.no_coco {
        study.coco = Some(out.join("coco"));
    }
    let coco = study.coco.clone();
    let report_suite = suite.clone();
    let build = |files: &[PathBuf], out: &Path| -> Result<(), StudyError> {
        if let Some(dir) = &coco {
            emages_harness::show!(
                "COCO's files in {}/<variant>/; post-process them with: python -m cocopp {}/*",
                dir.display(),
                dir.display()
            );
        }
        let [baseline, others @ ..] = contenders.as_slice() else {
            return Ok(());
        };
        if others.is_empty() {
            return Ok(());
        }
        if study.runs < 2 {
            emages_harness::say!(
                "note: one run per (function, instance): the tables' significance tests have nothing to test; compare the variants with cocopp's runtime ECDFs (COCO's instances are its repetitions)"
            );
        }
        let data = study.load(files)?.with_suite(report_suite.clone())?;
        let lineup = Lineup::new(baseline.clone(), others.to_vec());
        comparison_report(&data, &lineup, out, &options)?;
        emages_harness::show!(
            "Comparison tables, plots and report.html in {}/",
            out.display()
        );
        Ok(())
    };
    let dynamics = args.report.dynamics_problems(suite.as_ref(), None);
    study.execute(
        "bbob-constrained study",
        suite as Arc<dyn Suite>,
        configs,
        dynamics,
        default_out,
        &build,
    )
}
