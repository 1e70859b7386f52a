//! The portfolio's phases on one CEC2017 problem: where each run of the local phase and
//! each ES round starts and ends, and the best point then — the diagnosis of the
//! portfolio's losses on CEC2017 at N = 50 (docs/strategy-design.md §34). The settings
//! are the harness's `portfolio-share0:nan-last:curvature` (with `--soc`, `…:soc`), run
//! to the end of the budget as the studies run it, seeded as `--seed` says (not with
//! the study's run seeds). The points are evaluated one by one, as the harness's
//! tracker evaluates them: the problem's batch path rounds the rotation otherwise in
//! the last bits (docs/deviations.md, row 12), and a long run of the local phase is
//! chaotic enough to diverge from that. The local phase's first run starts at the
//! box's centre whatever the seed, so a run that it takes whole is the studies' run.
//!
//! ```sh
//! cargo run --release --example portfolio_trace -- --problem 16 --dim 50
//! ```

use cec2017_constrained::Suite;
use clap::Parser;
use constraint_handling::ConstrainedProblem;
use emages::cli::main_with;
use emages::StudyError;
use local_phase::sqp::SqpSettings;
use ma_es::portfolio::{Portfolio, PortfolioSettings};
use ndarray::{ArrayView2, ShapeBuilder};
use std::process::ExitCode;

/// The portfolio on one CEC2017 problem, its phases traced.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// The problem, 1–28.
    #[arg(long)]
    problem: usize,
    /// The dimension N.
    #[arg(long, default_value_t = 10)]
    dim: usize,
    /// Evaluations at most, per dimension (the CEC budget: 20 000).
    #[arg(long, default_value_t = 20_000)]
    budget_per_dim: usize,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The second-order correction on.
    #[arg(long)]
    soc: bool,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(|args: &Args| -> Result<(), StudyError> {
        let invalid = |e: &dyn std::fmt::Display| StudyError::Invalid(e.to_string());
        let problem = Suite::embedded()
            .problem(args.problem, args.dim)
            .map_err(|e| invalid(&e))?;
        let settings = PortfolioSettings {
            sqp: SqpSettings {
                curvature_steering: true,
                second_order_correction: args.soc,
                ..SqpSettings::frozen()
            },
            initial_share: 0.25,
            max_share: 0.5,
            ..PortfolioSettings::default()
        }
        .to_the_end();
        let mut run =
            Portfolio::for_problem(&problem, settings, args.seed).map_err(|e| invalid(&e))?;
        let budget = args.budget_per_dim.saturating_mul(args.dim);
        println!("C{:02}, N = {}, budget {budget}", args.problem, args.dim);
        println!("| evaluations | iterations | round | phase from here | best f | best ν̄ |");
        println!("|---|---|---|---|---|---|");
        // Point by point, as the harness's tracker evaluates (a problem's batch path may
        // round otherwise, and the local phase's long runs are chaotic). A row at every
        // change of phase (local ↔ ES) or round, and one at the end.
        let k = problem.num_constraints();
        let (mut objectives, mut constraints, mut c) = (Vec::new(), Vec::new(), vec![0.0; k]);
        let mut last: Option<(bool, u32)> = None;
        loop {
            let done = run.evaluations();
            let Some(request) = run.ask().map_err(|e| invalid(&e))? else {
                break;
            };
            if done + request.evaluations > budget {
                break;
            }
            objectives.clear();
            constraints.clear();
            for j in 0..request.len() {
                objectives.push(
                    problem
                        .evaluate(request.point(j), &mut c)
                        .map_err(|e| invalid(&e))?,
                );
                constraints.extend_from_slice(&c);
            }
            let view = ArrayView2::from_shape((k, objectives.len()).f(), &constraints)
                .map_err(|e| invalid(&e))?;
            let before = run.iterations();
            run.tell(&objectives, view).map_err(|e| invalid(&e))?;
            if run.iterations() == before {
                continue;
            }
            let step = run.step();
            let now = (step.local, run.round());
            if last != Some(now) {
                println!(
                    "| {} | {} | {} | {} | {:.6e} | {:.3e} |",
                    step.evaluations,
                    step.iteration,
                    run.round(),
                    if step.local { "local" } else { "ES" },
                    step.objective,
                    step.violation
                );
                last = Some(now);
            }
        }
        let best = run
            .best()
            .cloned()
            .ok_or_else(|| StudyError::Invalid("the budget allowed no evaluation".into()))?;
        let step = run.step();
        println!(
            "| {} | {} | {} | end | {:.6e} | {:.3e} |",
            step.evaluations,
            step.iteration,
            run.round(),
            best.fitness.objective,
            best.fitness.violation
        );
        println!("best found at evaluation {}", best.found_at);
        Ok(())
    })
}
