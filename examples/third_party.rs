//! A CMA-ES this project did not write — the [`cmaes`](https://crates.io/crates/cmaes)
//! crate from crates.io — beside εMAg-ES on the CEC2017 constrained problems, through
//! the harness's `Optimizer` seam: the same runs, records, CEC statistics, rankings,
//! plots and report as the ablation study.
//!
//! The adapter is all a user writes: `cmaes` minimises an unconstrained function, so
//! the constrained problem becomes a static penalty `f + ρ ν̄` (ν̄ the problem's mean
//! violation, as every algorithm here sees it), points outside the box are reflected
//! into it first (`constraint_handling::keep_range`, the rule εMAg-ES uses), and the
//! CMA-ES restarts from a uniform point of the box whenever it stops before the budget.
//!
//! ```sh
//! cargo run --release --example third_party                      # N = 10, 28 problems × 25 runs
//! cargo run --release --example third_party -- --problems 1-6 --runs 10 --out results/cmaes
//! ```

use cmaes::{CMAESOptions, DVector};
use constraint_handling::keep_range;
use emages_harness::cli::compare_cec2017_main;
use emages_harness::optimizer::{Optimizer, Outcome, StopReason, Task, Tracker};
use emages_harness::study::StudyConfig;
use emages_harness::StudyError;
use ma_es::{Config, Variant};
use rand::{Rng, SeedableRng};
use std::process::ExitCode;

/// The `cmaes` crate's CMA-ES on `f + ρ ν̄`, restarted until the budget is used.
#[derive(Clone, Debug)]
struct PenaltyCmaes {
    /// The penalty factor `ρ`.
    rho: f64,
    /// The initial step size as a fraction of the box's widest side.
    sigma0: f64,
}

impl Optimizer for PenaltyCmaes {
    fn kind(&self) -> &str {
        "cmaes-penalty"
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let (lb, ub) = (task.problem.lower_bounds(), task.problem.upper_bounds());
        let width = lb.iter().zip(ub).map(|(l, u)| u - l).fold(0.0, f64::max);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task);
        let mut y = vec![0.0; lb.len()];
        let mut generations = 0;
        while !tracker.exhausted() && !tracker.failed() {
            let mean: Vec<f64> = lb
                .iter()
                .zip(ub)
                .map(|(&l, &u)| rng.random_range(l..=u))
                .collect();
            // What cmaes minimises: the penalised objective of the reflected point.
            let objective = |x: &DVector<f64>| {
                y.copy_from_slice(x.as_slice());
                let _ = keep_range(&mut y, lb, ub); // same lengths: cannot fail
                let fit = tracker.evaluate_or_defer(&y);
                fit.objective + self.rho * fit.violation
            };
            let mut cmaes = CMAESOptions::new(mean, self.sigma0 * width)
                .max_function_evals(tracker.remaining())
                .seed(rng.random())
                .build(objective)
                .map_err(|e| StudyError::Other(format!("cmaes options: {e:?}")))?;
            while cmaes.next().is_none() {
                generations += 1;
                tracker.trace(cmaes.sigma());
            }
        }
        tracker.finish_checked(generations, StopReason::Budget)
    }
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    compare_cec2017_main("third-party", || {
        vec![
            StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            StudyConfig::custom(
                "cmaes-penalty",
                PenaltyCmaes {
                    rho: 1e6,
                    sigma0: 0.3,
                },
            )
            .with_name("CMA-ES (cmaes crate, penalty)"),
        ]
    })
}
