//! The SQP local phase alone on one bbob-constrained problem, iteration by iteration:
//! the gap `f − f*` at the iterate, the bound `Δ` on the step, the step `d` and its
//! line search's `α`, the merit's directional derivative `D` and the constraints — the diagnosis of the precision stall on f19, f25 and f31
//! (docs/strategy-design.md §33). With `--soc` the second-order correction is on
//! (`SqpSettings::second_order_correction`).
//!
//! ```sh
//! cargo run --release --example sqp_trace -- --function 19 --dim 2 --instance 16 --from-centre
//! cargo run --release --example sqp_trace -- --function 19 --dim 2 --instance 16 --from-centre --soc
//! ```

use bbob_constrained::BbobProblem;
use clap::Parser;
use emages_harness::cli::main_with;
use emages_harness::StudyError;
use emages_solver::Driver;
use emages_solver::Solver;
use local_phase::sqp::{Sqp, SqpSettings};
use std::ops::ControlFlow;
use std::process::ExitCode;

/// The SQP local phase on one bbob-constrained problem, traced.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// The function, 1–54.
    #[arg(long)]
    function: usize,
    /// The dimension.
    #[arg(long, default_value_t = 2)]
    dim: usize,
    /// The instance.
    #[arg(long, default_value_t = 1)]
    instance: usize,
    /// Evaluations at most.
    #[arg(long, default_value_t = 10_000)]
    budget: usize,
    /// Start at the box's centre (where the portfolio's first local phase starts)
    /// instead of the suite's initial solution.
    #[arg(long)]
    from_centre: bool,
    /// The second-order correction on.
    #[arg(long)]
    soc: bool,
    /// Print every iteration up to this one, then every 200th.
    #[arg(long, default_value_t = 40)]
    first: usize,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(|args: &Args| -> Result<(), StudyError> {
        let invalid = |e: &dyn std::fmt::Display| StudyError::Invalid(e.to_string());
        let p =
            BbobProblem::new(args.function, args.dim, args.instance).map_err(|e| invalid(&e))?;
        let centre = vec![0.0; args.dim];
        let start = if args.from_centre {
            &centre[..]
        } else {
            p.initial_solution()
        };
        let settings = SqpSettings {
            second_order_correction: args.soc,
            ..SqpSettings::default()
        };
        let mut sqp = Sqp::for_problem(&p, start, settings).map_err(|e| invalid(&e))?;
        let f_opt = p.best_value();
        let mut printed = usize::MAX;
        let mut failed = None;
        println!("iteration evaluations gap bound x step alpha slope constraints");
        let mut trace = |sqp: &Sqp| {
            let it = sqp.iterations();
            if it != printed && (it <= args.first || it.is_multiple_of(200)) {
                printed = it;
                // The state's private fields, through its serde form.
                let state = match serde_json::to_value(sqp) {
                    Ok(state) => state,
                    Err(e) => {
                        failed = Some(invalid(&e));
                        return ControlFlow::Break(());
                    }
                };
                let gap = state["f"].as_f64().unwrap_or(f64::NAN) - f_opt;
                println!(
                    "{it} {} {gap:.3e} {:.2e} {} {} {} {} {}",
                    sqp.evaluations(),
                    sqp.step_bound(),
                    state["x"],
                    state["step"],
                    state["alpha"],
                    state["slope"],
                    state["c"]
                );
            }
            ControlFlow::Continue(())
        };
        Driver::new(&mut sqp)
            .budget(args.budget)
            .observe(&mut trace)
            .run(&p)
            .map_err(|e| invalid(&e))?;
        if let Some(e) = failed {
            return Err(e);
        }
        let gap = sqp.best().map_or(f64::NAN, |b| b.objective() - f_opt);
        println!(
            "stopped: {:?} after {} evaluations, {} iterations, {} corrected steps; best gap {gap:.3e}; x* = {:?}",
            sqp.stopped(),
            sqp.evaluations(),
            sqp.iterations(),
            sqp.corrected_steps(),
            p.best_parameter()
        );
        Ok(())
    })
}
