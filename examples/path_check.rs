//! Does the fast path (`--fast`) sample the same distributions as the exact path?
//! Rank-sum tests cell by cell (configuration × problem) between two studies of the
//! same setting, one run without and one with `--fast`, and the number of significant
//! cells against what the significance level predicts
//! ([`emages::reproduction::path_check`]). With `--other` instead of `--fast` it compares
//! any two studies of one setting the same way, e.g. one computed with two OpenBLAS
//! kernels; runs of the same seed are also compared pair by pair.
//!
//! ```sh
//! cargo run --release --example ablation -- --out results/exact
//! cargo run --release --example ablation -- --fast --out results/fast
//! cargo run --release --example path_check -- --exact results/exact/runs.jsonl --fast results/fast/runs.jsonl
//! # the N = 100 λ study with Haswell against its partial Cooperlake start
//! cargo run --release --example path_check -- --names Haswell Cooperlake \
//!     --exact results/lambda-D100/runs.shard-*-of-16.jsonl.gz --other results/lambda-D100-cooperlake/runs.shard-*
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
    #[arg(long, num_args = 1.., required_unless_present = "other", conflicts_with = "other", value_name = "RUNS_JSONL")]
    fast: Vec<PathBuf>,
    /// Results files of another study of the same setting on the exact path (e.g.
    /// computed with another OpenBLAS kernel), instead of `--fast`.
    #[arg(long, num_args = 1.., value_name = "RUNS_JSONL")]
    other: Vec<PathBuf>,
    /// The two studies' names in the text (default: exact fast, or first other).
    #[arg(long, num_args = 2, value_names = ["FIRST", "SECOND"])]
    names: Vec<String>,
    /// Significance level of each test.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
}

fn main() -> ExitCode {
    main_with(|args: &Args| -> Result<(), StudyError> {
        let exact = Dataset::load(&args.exact)?;
        let mut check = if args.other.is_empty() {
            PathCheck::compare(&exact, &Dataset::load(&args.fast)?, args.alpha)?
        } else {
            let other = Dataset::load(&args.other)?;
            if other.fast {
                return Err(StudyError::Invalid(
                    "--other takes a study of the exact path; compare the fast path with --fast"
                        .into(),
                ));
            }
            PathCheck::between(&exact, &other, ["first", "other"], args.alpha)?
        };
        if let [first, second] = &args.names[..] {
            check.names = [first.clone(), second.clone()];
        }
        print!("{}", check.to_markdown(&|p| exact.label(p)));
        Ok(())
    })
}
