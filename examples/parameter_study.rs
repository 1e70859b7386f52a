//! The parameter studies of Section 6: the population size λ (μ = ⌊λ/3⌋) and the
//! number of repair repetitions θr, ranked per problem and overall, with heat maps.
//!
//! ```sh
//! cargo run --release --example parameter_study                       # λ study, N = 10 (Fig. 9)
//! cargo run --release --example parameter_study -- --param theta-r    # θr study, N = 10 (Fig. 11)
//! cargo run --release --example parameter_study -- --param lambda --values 3,10,20,40,80,100,200 --dim 10
//! ```
//!
//! Same results store, resume, shards and seeds as the ablation study.

use clap::Parser;
use emages_harness::cli::{main_with, Cec2017Args, StudyArgs};
use emages_harness::StudyError;
use emages_paper::parameter_study::{parameter_report, Parameter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Rank εMAg-ES configurations over the CEC2017 constrained problems (Section 6).
#[derive(Parser, Debug)]
#[command(name = "parameter_study", version)]
struct Args {
    #[command(flatten)]
    study: StudyArgs,
    #[command(flatten)]
    instance: Cec2017Args,
    /// The parameter to vary.
    #[arg(long, value_enum, default_value = "lambda")]
    param: Parameter,
    /// Its values, comma-separated (default: the paper's for this N).
    #[arg(long, value_delimiter = ',')]
    values: Option<Vec<usize>>,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(run)
}

fn run(args: &Args) -> Result<(), StudyError> {
    let param = args.param;
    let mut values = args
        .values
        .clone()
        .unwrap_or_else(|| param.default_values(args.study.dim));
    values.sort_unstable();
    values.dedup();
    if values.is_empty() {
        return Err(StudyError::Invalid("--values is empty".into()));
    }
    let configs = values
        .iter()
        .map(|&v| param.config(v))
        .collect::<Result<Vec<_>, _>>()?;
    let build = |files: &[PathBuf], out: &Path| -> Result<(), StudyError> {
        let report = parameter_report(&args.study.load(files)?, out, param)?;
        emages_harness::show!("\n{}", report.summary.to_markdown());
        emages_harness::show!("{}", report.significance.summary.to_markdown());
        emages_harness::show!("Results in {}/: ranks[_significance].csv, ranks_detail[_significance].csv, average_ranks[_significance].md/.csv, heatmap[_significance].svg/.png, report.html", out.display());
        Ok(())
    };
    let default_out = PathBuf::from(format!("results/{}-D{}", param.key(), args.study.dim));
    let suite = args.instance.suite_for(&args.study)?;
    args.study.execute(
        "parameter study",
        suite,
        configs,
        Vec::new(),
        default_out,
        &build,
    )
}
