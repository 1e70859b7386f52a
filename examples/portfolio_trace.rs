//! The portfolio's phases on one CEC2017 problem: where each run of the local phase and
//! each ES round starts and ends, and the best point then — the diagnosis of the
//! portfolio's losses on CEC2017 at N = 50 (docs/strategy-design.md §34). The settings
//! are the harness's `portfolio-share0:nan-last:curvature` (with `--soc`, `…:soc`) or
//! those `--options` writes, run to the end of the budget as the studies run it,
//! seeded as `--seed` says (not with the study's run seeds). The points are evaluated
//! one by one, as the harness's tracker evaluates them: the problem's batch path rounds the rotation otherwise in
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
use emages::portfolio::{Portfolio, PortfolioSettings};
use emages::solver::{Driver, Slots, SolverError};
use emages::Options;
use emages_harness::cli::main_with;
use emages_harness::StudyError;
use emages_solver::Solver;
use local_phase::sqp::SqpSettings;
use std::ops::ControlFlow;
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
    /// The portfolio in its text form (e.g. `portfolio:confirmations=0:margin=problem`,
    /// the studies' default), in place of the settings above.
    #[arg(long)]
    options: Option<String>,
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
                ..SqpSettings::linear_steering()
            },
            ..PortfolioSettings::default()
        }
        .to_the_end();
        let budget = args.budget_per_dim.saturating_mul(args.dim);
        let options = match &args.options {
            Some(text) => text.parse::<Options>().map_err(|e| invalid(&e))?,
            None => Options::recommended()
                .with_settings(settings)
                .equality_margin(None),
        };
        let mut run = options
            .seed(args.seed)
            .build_for(&problem)
            .and_then(|plan| plan.ask_tell())
            .map_err(|e| invalid(&e))?;
        println!("C{:02}, N = {}, budget {budget}", args.problem, args.dim);
        println!("| evaluations | iterations | round | phase from here | best f | best ν̄ |");
        println!("|---|---|---|---|---|---|");
        // Point by point, as the harness's tracker evaluates (a problem's batch path may
        // round otherwise, and the local phase's long runs are chaotic).
        let mut c = vec![0.0; problem.num_constraints()];
        let mut point_by_point = |slots: Slots<'_>| -> Result<bool, SolverError> {
            let Slots {
                request,
                mut objectives,
                mut constraints,
                ..
            } = slots;
            for j in 0..request.len() {
                objectives[j] = problem.evaluate(request.point(j), &mut c)?;
                constraints
                    .column_mut(j)
                    .iter_mut()
                    .zip(&c)
                    .for_each(|(d, s)| *d = *s);
            }
            Ok(false)
        };
        // A row at every change of phase (local ↔ ES) or round, and one at the end.
        let mut last: Option<(bool, usize)> = None;
        let mut rows = |run: &Portfolio| {
            let status = run.status();
            let now = (status.is_local(), status.run);
            if last != Some(now) {
                println!(
                    "| {} | {} | {} | {} | {:.6e} | {:.3e} |",
                    status.evaluations,
                    status.iterations,
                    status.run - 1,
                    if status.is_local() { "local" } else { "ES" },
                    status.objective,
                    status.violation
                );
                last = Some(now);
            }
            ControlFlow::Continue(())
        };
        let outcome = Driver::new(&mut run)
            .budget(budget)
            .observe(&mut rows)
            .run_with(&mut point_by_point)
            .map_err(|e| invalid(&e))?;
        let status = run.status();
        println!(
            "| {} | {} | {} | end | {:.6e} | {:.3e} |",
            status.evaluations,
            status.iterations,
            status.run - 1,
            outcome.best.objective(),
            outcome.best.violation()
        );
        println!("best found at evaluation {}", outcome.best.found_at());
        Ok(())
    })
}
