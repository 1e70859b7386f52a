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
//! `…-D{N}-seed{S}` holding `runs.jsonl[.gz]` or its shards.

use clap::Parser;
use emages::cli::main_with;
use emages::reproduction::parameter_study::{rank, Parameter};
use emages::reproduction::section6::{block, studies};
use emages::reproduction::DocBlock;
use emages::study::Dataset;
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
    main_with(|args: &Args| {
        for param in [Parameter::Lambda, Parameter::ThetaR] {
            let found = studies(&args.results, param, args.dim)?;
            if found.is_empty() {
                emages::say!(
                    "no {} studies at N = {} in {}",
                    param.key(),
                    args.dim,
                    args.results.display()
                );
                continue;
            }
            let mut ranked = Vec::new();
            for (seed, files) in &found {
                ranked.push((*seed, rank(&Dataset::load(files)?, param)?));
            }
            let text = block(param, args.dim, &ranked)?;
            emages::show!("{text}");
            if let Some(doc) = &args.docs {
                DocBlock::section6(param, args.dim).replace(doc, &text)?;
                emages::say!("wrote {} into {}", param.key(), doc.display());
            }
        }
        Ok(())
    })
}
