//! Does the fast path (`--fast`) sample the same distributions as the exact path?
//! Rank-sum tests cell by cell (configuration × problem) between two studies of the
//! same setting, one run without and one with `--fast`, and the number of significant
//! cells against what the significance level predicts ([`emages::paths`]).
//!
//! ```sh
//! cargo run --release --example ablation -- --out results/exact
//! cargo run --release --example ablation -- --fast --out results/fast
//! cargo run --release --example path_check -- --exact results/exact/runs.jsonl --fast results/fast/runs.jsonl
//! ```

use clap::Parser;
use emages::cli::main_with;
use emages::reproduction::path_check::PathCheck;
use emages::study::dataset::Dataset;
use emages::StudyError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Compare a study of the exact path with the same study on the fast path.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// Results files of the exact path (e.g. all shards).
    #[arg(long, num_args = 1.., required = true, value_name = "RUNS_JSONL")]
    exact: Vec<PathBuf>,
    /// Results files of the fast path (`--fast`).
    #[arg(long, num_args = 1.., required = true, value_name = "RUNS_JSONL")]
    fast: Vec<PathBuf>,
    /// Significance level of each test.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
}

fn main() -> ExitCode {
    main_with(|args: &Args| -> Result<(), StudyError> {
        let exact = Dataset::load(&args.exact)?;
        let fast = Dataset::load(&args.fast)?;
        let check = PathCheck::compare(&exact, &fast, args.alpha)?;
        print!("{}", check.to_markdown(&|p| exact.label(p)));
        Ok(())
    })
}
