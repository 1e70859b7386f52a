//! Time per generation of the paper's seven variants, for before-and-after comparisons on
//! a noisy machine: whole runs with a fixed seed (the same work on every build), each
//! repeated and timed, the fastest repeat kept. One JSON line per (variant, problem,
//! dimension) with the generations, the evaluations, the best point's objective and
//! violation (so two builds can be checked to give the same runs) and the times.
//!
//! ```sh
//! cargo run --release --example variant_timing -- --repeat 5 > after.jsonl
//! ```
//!
//! At N = 10 a run is the paper's budget of 2·10⁵ evaluations; at N = 100 it is the first
//! 2·10⁵ evaluations (`--budget`), 500 generations of λ = 400. Interleave two builds'
//! binaries round by round (docs/performance.md, "The paper's variants beside the
//! portfolio's code") so that a slow phase of the machine falls on both.

use clap::Parser;
use emages_harness::cli::main_with;
use emages_harness::StudyError;
use emages_solver::NoObserver;
use ma_es::noise::RngNoise;
use ma_es::{Options, Variant};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Whole runs of the paper's variants, timed.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// The CEC2017 data folder (the suite's text files).
    #[arg(long, default_value = "../shared/cec2017/text")]
    data: PathBuf,
    /// Problems (CEC2017 numbers).
    #[arg(long, num_args = 1.., default_values_t = [1, 21])]
    problems: Vec<usize>,
    /// Dimensions.
    #[arg(long, num_args = 1.., default_values_t = [10, 100])]
    dims: Vec<usize>,
    /// Evaluations per run.
    #[arg(long, default_value_t = 200_000)]
    budget: usize,
    /// Timed repeats of each run (the fastest is reported).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// The runs' seed.
    #[arg(long, default_value_t = 13)]
    seed: u64,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    emages_harness::study::pin_blas_to_one_thread();
    main_with(|args: &Args| -> Result<(), StudyError> {
        if args.repeat == 0 || args.budget == 0 {
            return Err(StudyError::Invalid(
                "--repeat and --budget must be at least 1".into(),
            ));
        }
        let suite = cec2017_constrained::Suite::official(&args.data).map_err(|e| {
            StudyError::Invalid(format!("CEC2017 data in {}: {e}", args.data.display()))
        })?;
        let invalid = |e: &dyn std::fmt::Display| StudyError::Invalid(e.to_string());
        for &id in &args.problems {
            for &n in &args.dims {
                let problem = suite.problem(id, n).map_err(|e| invalid(&e))?;
                for variant in Variant::ALL {
                    let plan = Options::new(variant)
                        .budget(args.budget)
                        .to_the_end()
                        .build_for(&problem)
                        .map_err(|e| invalid(&e))?;
                    let mut seconds = Vec::with_capacity(args.repeat);
                    let mut outcome = None;
                    for _ in 0..args.repeat {
                        let start = Instant::now();
                        let o = plan
                            .run_with(
                                &problem,
                                RngNoise::seed_from_u64(args.seed),
                                &mut NoObserver,
                            )
                            .map_err(|e| invalid(&e))?;
                        seconds.push(start.elapsed().as_secs_f64());
                        outcome = Some(o);
                    }
                    let r = outcome.expect("at least one repeat");
                    let fastest = seconds.iter().copied().fold(f64::INFINITY, f64::min);
                    println!(
                        "{}",
                        serde_json::json!({
                            "variant": variant.name(),
                            "problem": id,
                            "dim": n,
                            "generations": r.generations,
                            "evaluations": r.evaluations,
                            "objective": r.best.snapshot.fitness.objective,
                            "violation": r.best.snapshot.fitness.violation,
                            "seconds": seconds,
                            "us_per_generation": fastest / r.generations as f64 * 1e6,
                        })
                    );
                }
            }
        }
        Ok(())
    })
}
