//! Your optimizer against εMAg-ES on the CEC2017 constrained suite, by the paper's
//! methodology: the same runs, records, CEC statistics, Table-1-style rankings, plots
//! and HTML report as the ablation study.
//!
//! The optimizer below — an ε-constrained differential evolution (DE/rand/1/bin with
//! the ε-level comparison of Takahama & Sakai) — is written here with public APIs only:
//! it implements [`Optimizer`], evaluates through a [`Tracker`] (which counts
//! evaluations, keeps the best-so-far and takes the checkpoints the harness asks for)
//! and compares candidates with the workspace's ε-level ordering. Replace it by yours.
//!
//! ```sh
//! cargo run --release --example compare                                  # N = 10, 28 problems × 25 runs
//! cargo run --release --example compare -- --problems 1-5 --runs 10 --out results/mine
//! ```

use constraint_handling::ordering::{CandidateOrder, EpsilonLevel, Fitness};
use emages_harness::cli::compare_cec2017_main;
use emages_harness::optimizer::{Optimizer, Outcome, StopReason, Task, Tracker};
use emages_harness::study::StudyConfig;
use emages_harness::StudyError;
use ma_es::{Config, Variant};
use rand::{Rng, SeedableRng};
use std::process::ExitCode;

/// ε-constrained differential evolution, DE/rand/1/bin.
#[derive(Clone, Debug)]
struct EpsilonDe {
    /// Population size per dimension.
    np_per_dim: usize,
    /// Differential weight `F`.
    f: f64,
    /// Crossover rate `CR`.
    cr: f64,
    /// The ε level starts at the violation of this fraction of the initial population
    /// and decreases as `ε₀ (1 − t/T_c)^cp` until `T_c` = this fraction of the budget.
    theta: f64,
    tc: f64,
    cp: f64,
}

impl Default for EpsilonDe {
    fn default() -> Self {
        Self {
            np_per_dim: 5,
            f: 0.5,
            cr: 0.9,
            theta: 0.2,
            tc: 0.5,
            cp: 5.0,
        }
    }
}

impl Optimizer for EpsilonDe {
    fn kind(&self) -> &str {
        "eps-de"
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let (lb, ub) = (task.problem.lower_bounds(), task.problem.upper_bounds());
        let n = lb.len();
        let np = (self.np_per_dim * n).max(4);
        let tracker = Tracker::new(task);
        let mut pop: Vec<Vec<f64>> = (0..np)
            .map(|_| (0..n).map(|k| rng.random_range(lb[k]..=ub[k])).collect())
            .collect();
        let mut fit = Vec::with_capacity(np);
        for x in &pop {
            fit.push(tracker.evaluate(x)?);
        }
        let mut sorted: Vec<f64> = fit.iter().map(|f| f.violation).collect();
        sorted.sort_by(f64::total_cmp);
        let eps0 = sorted[((self.theta * np as f64) as usize).min(np - 1)];
        let mut trial = vec![0.0; n];
        let mut generations = 0;
        while !tracker.exhausted() {
            let t = tracker.evaluations() as f64 / task.budget as f64;
            let eps = if t < self.tc {
                eps0 * (1.0 - t / self.tc).powf(self.cp)
            } else {
                0.0
            };
            let order = EpsilonLevel::new(eps);
            for i in 0..np {
                if tracker.exhausted() {
                    break;
                }
                let pick = |rng: &mut rand_xoshiro::Xoshiro256PlusPlus, not: &[usize]| loop {
                    let r = rng.random_range(0..np);
                    if !not.contains(&r) {
                        break r;
                    }
                };
                let r1 = pick(&mut rng, &[i]);
                let r2 = pick(&mut rng, &[i, r1]);
                let r3 = pick(&mut rng, &[i, r1, r2]);
                let forced = rng.random_range(0..n);
                for k in 0..n {
                    trial[k] = if k == forced || rng.random::<f64>() < self.cr {
                        let v = pop[r1][k] + self.f * (pop[r2][k] - pop[r3][k]);
                        // Out of the box: halfway between the parent and the bound.
                        if v < lb[k] {
                            0.5 * (lb[k] + pop[i][k])
                        } else if v > ub[k] {
                            0.5 * (ub[k] + pop[i][k])
                        } else {
                            v
                        }
                    } else {
                        pop[i][k]
                    };
                }
                let ft: Fitness = tracker.evaluate(&trial)?;
                if !order.precedes(&fit[i], &ft) {
                    pop[i].copy_from_slice(&trial);
                    fit[i] = ft;
                }
            }
            generations += 1;
            tracker.trace(f64::NAN);
        }
        Ok(tracker.finish(generations, StopReason::Budget))
    }
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    compare_cec2017_main("compare", || {
        let baseline = Variant::EpsMagEs;
        vec![
            StudyConfig::preset(baseline.name(), baseline, Config::default()),
            StudyConfig::custom("eps-de", EpsilonDe::default()).with_name("εDE"),
        ]
    })
}
