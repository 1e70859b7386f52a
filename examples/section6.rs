//! The statements of the paper's Section 6 over the committed parameter studies of
//! several seeds: per value the average rank and first places of every seed under both
//! rankings, and per statement the paper's figure beside the range over the seeds.
//!
//! ```sh
//! cargo run --release --example section6                      # N = 10: results/{lambda,theta_r}-D10-seed*/
//! cargo run --release --example section6 -- --dim 100 --docs docs/parameter-studies.md
//! ```
//!
//! A study is a directory `results/{lambda,theta_r}-D{N}` (seed 1) or
//! `…-D{N}-seed{S}` holding `runs.jsonl[.gz]` or its shards. While the one study of a
//! dimension is incomplete, the block says how many of its runs are committed and
//! lists the statements that wait for it.

use clap::Parser;
use emages_harness::cli::main_with;
use emages_paper::parameter_study::Parameter;
use emages_paper::section6::{render, statements};
use emages_paper::DocBlock;
use std::path::PathBuf;
use std::process::ExitCode;

/// Section 6 of the paper over the committed parameter studies of several seeds.
#[derive(Parser, Debug)]
#[command(name = "section6", version)]
struct Args {
    /// Search-space dimension N.
    #[arg(long, default_value_t = 10)]
    dim: usize,
    /// Where the studies are.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Also write the tables into the marked blocks `section6: λ, N = …` and
    /// `section6: θr, N = …` of this Markdown file.
    #[arg(long, value_name = "MARKDOWN")]
    docs: Option<PathBuf>,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(|args: &Args| {
        for param in [Parameter::Lambda, Parameter::ThetaR] {
            if statements(param, args.dim).is_empty() {
                emages_harness::say!(
                    "the paper makes no {} statements at N = {}",
                    param.key(),
                    args.dim
                );
                continue;
            }
            let text = render(&args.results, param, args.dim)?;
            emages_harness::show!("{text}");
            if let Some(doc) = &args.docs {
                DocBlock::section6(param, args.dim).replace(doc, &text)?;
                emages_harness::say!("wrote {} into {}", param.key(), doc.display());
            }
        }
        Ok(())
    })
}
