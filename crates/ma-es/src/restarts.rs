//! Restarts (IPOP, Auger & Hansen 2005): when a run stalls, the strategy starts again
//! with its population doubled, on the evaluations that are left, until the budget is
//! spent; the result is the best over all runs.
//!
//! - **A stall** ([`Stall`]) — once ε has reached 0, the best-so-far of the current run
//!   has not improved at all (the best-so-far rule: lower `ν̄`, or the same `ν̄` and
//!   lower `f`) for
//!   `10 + ⌈30 N / λ⌉` generations (pycma's `tolstagnation` in spirit), or `σ` has
//!   fallen below `10⁻¹²` of `σ₀`. (A tolerance of `10⁻¹² · max(1, |f|)` on `f`
//!   restarted runs that were still polishing the last digits and lost 7 CEC2017
//!   problems at N = 10 instead of 5: docs/strategy-design.md, entry 5.)
//! - **Restart k** has `λ_k = 2ᵏ λ` (and `μ_k = 2ᵏ μ` when `μ` was set), the evaluations
//!   left as its budget, and an ε schedule that ends at the same share of the
//!   generations those allow as the first run's `T` of its own: `T_k = T · (B_k / λ_k)
//!   / (B / λ)`. The first run is the run without restarts, bit for bit, up to its
//!   stall.
//! - **One noise source** runs through all restarts, so the run's seed decides
//!   everything; a stochastic component of restart k is seeded with `seed + k`.
//! - **Checkpoints** stay absolute evaluation counts: each holds the best over all
//!   runs up to it. `found_at` counts from the start of the whole run.

use crate::config::Config;
use crate::noise::NoiseSource;
use crate::observer::{GenerationReport, Observer};
use crate::result::{RunResult, Termination};
use crate::strategy::MaEs;
use crate::variant::{ComponentSpec, RestartKind};
use crate::MaEsError;
use constraint_handling::ordering::improves_best_so_far;
use constraint_handling::{Checkpoint, ConstrainedProblem, Fitness};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// The most restarts (λ grows to 2⁹ λ at most).
pub const MAX_RESTARTS: usize = 9;

/// One run of a restart sequence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RestartRecord {
    /// Evaluations spent before it began.
    pub start: usize,
    /// Its population size.
    pub lambda: usize,
    /// The generation from which its ε is 0.
    pub t_max: usize,
    /// Its generations.
    pub generations: usize,
    /// Its evaluations.
    pub evaluations: usize,
    /// Its best `(f, ν̄)`.
    pub best: Fitness,
    /// Why it ended (`observer`: it stalled).
    pub termination: Termination,
}

/// The stall criterion of a restart (see the [module](self) documentation).
#[derive(Clone, Debug)]
pub struct Stall {
    window: usize,
    sigma_floor: f64,
    best: Option<Fitness>,
    last_improvement: usize,
}

impl Stall {
    /// The criterion for dimension `dim`, population `lambda` and initial `sigma0`.
    #[must_use]
    pub fn new(dim: usize, lambda: usize, sigma0: f64) -> Self {
        Self {
            window: 10 + (30 * dim).div_ceil(lambda.max(1)),
            sigma_floor: 1e-12 * sigma0,
            best: None,
            last_improvement: 0,
        }
    }
}

impl Observer for Stall {
    fn observe(&mut self, r: &GenerationReport<'_>) -> ControlFlow<()> {
        let now = r.best.snapshot.fitness;
        let improved = self.best.is_none_or(|b| improves_best_so_far(&now, &b));
        if improved {
            self.best = Some(now);
            self.last_improvement = r.generation;
        }
        let stagnant = r.epsilon == 0.0 && r.generation >= self.last_improvement + self.window;
        if stagnant || r.sigma < self.sigma_floor {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Runs the strategy of `spec` with IPOP restarts on `problem` (see the
/// [module](self) documentation); returns the merged result and the runs.
///
/// # Errors
/// As [`MaEs::with_spec`] and [`MaEs::run`].
pub fn run_ipop<P: ConstrainedProblem>(
    problem: &P,
    config: &Config,
    spec: &ComponentSpec,
    seed: u64,
    noise: &mut dyn NoiseSource,
) -> Result<(RunResult, Vec<RestartRecord>), MaEsError> {
    let base = config.resolve(problem.dim())?;
    let (lambda0, budget) = (base.lambda, base.budget);
    let single = ComponentSpec {
        restarts: RestartKind::Off,
        ..*spec
    };
    let mut used = 0usize;
    let mut history = Vec::new();
    let mut merged: Option<RunResult> = None;
    let mut settled: Vec<Option<Checkpoint>> = vec![None; base.checkpoints.len()];
    for k in 0..=MAX_RESTARTS {
        let factor = 1usize << k;
        let lambda = lambda0 * factor;
        let left = budget.saturating_sub(used);
        if k > 0 && left < lambda {
            break;
        }
        let share = (left as f64 / lambda as f64) / (budget as f64 / lambda0 as f64);
        let t_max = ((base.epsilon.t_max as f64) * share).round().max(1.0) as usize;
        let run_config = Config {
            lambda: Some(lambda),
            mu: config.mu.map(|m| m * factor),
            budget: Some(left),
            t_max,
            // The checkpoints still ahead, counted from this run's start.
            checkpoints: base
                .checkpoints
                .iter()
                .filter(|&&c| c > used)
                .map(|&c| c - used)
                .collect(),
            ..config.clone()
        };
        let mut es = MaEs::with_spec(problem, &run_config, &single, seed.wrapping_add(k as u64))?;
        let mut stall = Stall::new(problem.dim(), lambda, base.sigma0);
        let mut r = es.run_observed(noise, &mut stall)?;
        shift(&mut r, used, merged.as_ref());
        // The checkpoints this run reached (or all that are left, when it is the last).
        let last = r.termination == Termination::Budget || r.evaluations >= left;
        let open: Vec<usize> = (0..settled.len())
            .filter(|&i| settled[i].is_none())
            .collect();
        for (j, &i) in open.iter().enumerate() {
            let c = base.checkpoints[i];
            if c <= used + r.evaluations || last {
                let mut cp = r.checkpoints[j];
                if let Some(m) = &merged {
                    if !improves_best_so_far(&cp.best.fitness, &m.best.snapshot.fitness) {
                        cp.best = m.best.snapshot;
                    }
                }
                settled[i] = Some(cp);
            }
        }
        history.push(RestartRecord {
            start: used,
            lambda,
            t_max,
            generations: r.generations,
            evaluations: r.evaluations,
            best: r.best.snapshot.fitness,
            termination: r.termination,
        });
        used += r.evaluations;
        merged = Some(match merged {
            None => r,
            Some(m) => merge(m, r),
        });
        if last {
            break;
        }
    }
    let mut result = merged.expect("the first run always happens");
    result.checkpoints = settled
        .into_iter()
        .zip(&base.checkpoints)
        .map(|(cp, &c)| {
            cp.unwrap_or(Checkpoint {
                evaluations: c.min(used),
                best: result.best.snapshot,
            })
        })
        .collect();
    result.evaluations = used;
    Ok((result, history))
}

/// Moves a restart's counts to the whole run's: `found_at`, checkpoint and dynamics
/// evaluation counts start at `used`, dynamics generations after the earlier runs', and
/// the dynamics' best is the best over all runs so far.
fn shift(r: &mut RunResult, used: usize, before: Option<&RunResult>) {
    let at = |x: Option<usize>| x.map(|v| v + used);
    r.best.snapshot.found_at = at(r.best.snapshot.found_at);
    for c in &mut r.checkpoints {
        c.evaluations += used;
        c.best.found_at = at(c.best.found_at);
    }
    let (generations, best) = before.map_or((0, None), |b| {
        (b.generations, Some(b.best.snapshot.fitness))
    });
    if let Some(d) = &mut r.dynamics {
        for rec in d {
            rec.generation += generations;
            rec.evaluations += used;
            if let Some(b) = best {
                if !improves_best_so_far(&rec.best, &b) {
                    rec.best = b;
                }
            }
        }
    }
}

/// The whole run so far and the next restart's (shifted) result.
fn merge(mut m: RunResult, r: RunResult) -> RunResult {
    if improves_best_so_far(&r.best.snapshot.fitness, &m.best.snapshot.fitness) {
        m.best = r.best;
    }
    m.generations += r.generations;
    m.termination = r.termination;
    m.sigma = r.sigma;
    m.resets += r.resets;
    if let (Some(d), Some(more)) = (&mut m.dynamics, r.dynamics) {
        d.extend(more);
    }
    m
}
