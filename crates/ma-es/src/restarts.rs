//! Restarts: when a run stalls, the strategy starts again on the evaluations that are
//! left, until the budget is spent; the result is the best over all runs.
//!
//! - **IPOP** (Auger & Hansen 2005): restart k has `λ_k = 2ᵏ λ` (and `μ_k = 2ᵏ μ` when
//!   `μ` was set).
//! - **BIPOP** (Hansen 2009): the first run and IPOP's doubled populations form the
//!   *large* regime. Whenever the *small* regime has used fewer evaluations than the
//!   large one, the next run is small instead: `λ_s = ⌊λ (½ λ_L / λ)^{U²}⌋` (at least
//!   4), `σ₀,s = σ₀ · 10^{−2U'}`, with `λ_L` the last large run's population, `U, U'`
//!   uniform on `[0, 1)`, and at most half the last large run's evaluations. `U, U'`
//!   come from a stream of their own (Xoshiro256++ of the run's seed, long-jumped twice),
//!   so the strategy's noise is the same as without restarts.
//! - **A stall** ([`Stall`]) — once ε has reached 0, the best-so-far of the current run
//!   has not improved at all (the best-so-far rule: lower `ν̄`, or the same `ν̄` and
//!   lower `f`) for `100 + ⌈100 N^{3/2} / λ⌉` generations (pycma's `tolstagnation`),
//!   or `σ` has fallen below `10⁻¹²` of the run's `σ₀` (before entry 13 the σ floor
//!   counted while ε > 0 too, and stopped runs that would still become feasible). The design log
//!   (docs/strategy-design.md) measured the alternatives: a window of
//!   `10 + ⌈30 N / λ⌉` generations (entry 5) stopped runs that were still converging —
//!   on CEC2017 at N = 10 BIPOP won 7 problems and lost 3 with it, 9 and 2 with this
//!   window, and on bbob-constrained at n = 10 it fell below the single run (entry 7);
//!   a tolerance of `10⁻¹² · max(1, |f|)` on `f` restarted runs that were still
//!   polishing the last digits (entry 5). With `stall=tolfun` ([`StallKind::TolFun`]) a
//!   run also stalls once its feasible best-so-far `f` has changed by less than
//!   `10⁻¹¹` over `10 + ⌈30 N / λ⌉` generations (pycma's `tolfun`), which saves the
//!   polishing of a local optimum for the next run; with `stall=range`
//!   ([`StallKind::Range`]) once the offspring's `f` lie within `10⁻¹² |f|` (entry 11).
//!   With `stall=progress` ([`StallKind::Progress`]), as `range`, the stagnation window
//!   also restarts whenever a generation's median offspring (by `ν̄`, then `f`) beats
//!   every earlier median since ε reached 0: the population's progress counts, not only
//!   the best-so-far's (entry 16).
//! - **Every run** gets the evaluations left (a small run at most its cap) as its
//!   budget, and an ε schedule that ends at the same share of the generations those
//!   allow as the first run's `T` of its own: `T_k = T · (B_k / λ_k) / (B / λ)`. The
//!   first run's `λ` and `T` follow the spec's parameter rules
//!   ([`crate::ComponentSpec::configure`]). The first run is the run without restarts, bit for
//!   bit, up to its stall.
//! - **One noise source** runs through all restarts, so the run's seed decides
//!   everything; a stochastic component of restart k is seeded with `seed + k`.
//! - **Checkpoints** stay absolute evaluation counts: each holds the best over all
//!   runs up to it. `found_at` counts from the start of the whole run.

use crate::control::{history_window, stagnation_window, Ring};
use crate::observer::GenerationReport;
pub use crate::result::RestartRecord;
use crate::result::RunResult;
use crate::variant::{RestartKind, StallKind};
use constraint_handling::ordering::improves_best_so_far;
use constraint_handling::Fitness;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// The most restarts (λ grows to 2⁹ λ at most).
pub const MAX_RESTARTS: usize = 9;

/// The stall criterion of a restart (see the [module](self) documentation and
/// [`StallKind`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stall {
    window: usize,
    sigma_floor: f64,
    best: Option<Fitness>,
    last_improvement: usize,
    /// The best generation median since ε reached 0 ([`StallKind::Progress`]).
    best_median: Option<Fitness>,
    /// The generation's offspring, to find their median in (λ places, allocated once).
    offspring: Vec<Fitness>,
    /// The last `10 + ⌈30 N / λ⌉` generations' best-so-far `f` (`tolfun`) or lowest
    /// offspring `f` (`range`), a ring; empty for [`StallKind::Stagnation`].
    recent: Ring,
    kind: StallKind,
}

impl Stall {
    /// The criterion `kind` for dimension `dim`, population `lambda` and initial
    /// `sigma0`.
    #[must_use]
    pub fn new(kind: StallKind, dim: usize, lambda: usize, sigma0: f64) -> Self {
        let lambda = lambda.max(1);
        let history = history_window(dim, lambda);
        Self {
            window: stagnation_window(dim, lambda),
            sigma_floor: 1e-12 * sigma0,
            best: None,
            last_improvement: 0,
            best_median: None,
            offspring: match kind {
                StallKind::Progress => Vec::with_capacity(lambda),
                _ => Vec::new(),
            },
            recent: Ring::new(match kind {
                StallKind::Stagnation => 0,
                StallKind::TolFun | StallKind::Range | StallKind::Progress => history,
            }),
            kind,
        }
    }

    /// pycma's `tolfun` on the best-so-far ([`StallKind::TolFun`]): a feasible best
    /// whose `f` changed by less than `10⁻¹¹` over the whole history.
    fn tolfun(&mut self, r: &GenerationReport<'_>) -> bool {
        let now = r.best.snapshot.fitness;
        let full = self.recent.is_full();
        let oldest = self.recent.push(now.objective);
        full && now.violation == 0.0 && (oldest - now.objective).abs() < 1e-11
    }

    /// The relative range rule ([`StallKind::Range`]): this generation's `f` and the
    /// history's lowest `f` lie within `10⁻¹² · |f_min|`.
    fn range(&mut self, r: &GenerationReport<'_>) -> bool {
        let (lo, hi) = r
            .objectives
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &f| {
                (lo.min(f), hi.max(f))
            });
        self.recent.push(lo);
        if !self.recent.is_full() {
            return false;
        }
        let (lo, hi) = self.recent.range(lo, hi);
        hi - lo < 1e-12 * lo.abs()
    }

    /// The population's progress ([`StallKind::Progress`]): whether this generation's
    /// median offspring (by `ν̄`, then `f`; the upper median for even λ) is better than
    /// every earlier generation's median since ε reached 0.
    fn median_improved(&mut self, r: &GenerationReport<'_>) -> bool {
        self.offspring.clear();
        self.offspring.extend(
            r.objectives
                .iter()
                .zip(r.violations)
                .map(|(&f, &v)| Fitness::new(f, v)),
        );
        if self.offspring.is_empty() {
            return false;
        }
        let mid = self.offspring.len() / 2;
        let (_, &mut median, _) = self.offspring.select_nth_unstable_by(mid, |a, b| {
            a.violation
                .total_cmp(&b.violation)
                .then(a.objective.total_cmp(&b.objective))
        });
        let improved = self
            .best_median
            .is_none_or(|b| improves_best_so_far(&median, &b));
        if improved {
            self.best_median = Some(median);
        }
        improved
    }
}

impl Stall {
    /// Looks at the state after the initialisation or a generation.
    pub fn observe(&mut self, r: &GenerationReport<'_>) -> ControlFlow<()> {
        let now = r.best.snapshot.fitness;
        let improved = self.best.is_none_or(|b| improves_best_so_far(&now, &b));
        if improved {
            self.best = Some(now);
            self.last_improvement = r.generation;
        }
        if self.kind == StallKind::Progress {
            if r.epsilon != 0.0 {
                self.best_median = None;
            } else if self.median_improved(r) {
                self.last_improvement = r.generation;
            }
        }
        let stagnant = r.epsilon == 0.0 && r.generation >= self.last_improvement + self.window;
        // The history rules count from the generation ε reached 0.
        let converged = match self.kind {
            StallKind::Stagnation => false,
            _ if r.epsilon != 0.0 => {
                self.recent.clear();
                false
            }
            StallKind::TolFun => self.tolfun(r),
            StallKind::Range | StallKind::Progress => self.range(r),
        };
        // The σ floor too: a run whose σ collapses while ε > 0 may still find the
        // feasible region (entry 13 of the design log).
        let collapsed = r.epsilon == 0.0 && r.sigma < self.sigma_floor;
        if stagnant || converged || collapsed {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// The next run of a restart sequence.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct NextRun {
    pub(crate) lambda: usize,
    pub(crate) sigma_factor: f64,
    pub(crate) budget_cap: Option<usize>,
    pub(crate) large: bool,
}

/// Which run comes next: IPOP doubles λ after every run; BIPOP (Hansen 2009) runs the
/// small regime whenever it has used fewer evaluations than the large one.
#[derive(Serialize, Deserialize)]
pub(crate) struct RestartSchedule {
    kind: RestartKind,
    lambda0: usize,
    /// The large regime's runs so far.
    large_runs: usize,
    /// The draws of BIPOP's small regime (its own stream, not the strategy's noise).
    rng: Xoshiro256PlusPlus,
}

impl RestartSchedule {
    pub(crate) fn new(kind: RestartKind, lambda0: usize, seed: u64) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        // Two long jumps: apart from the noise (no jump) and stochastic ranking (one).
        rng.long_jump();
        rng.long_jump();
        Self {
            kind,
            lambda0,
            large_runs: 0,
            rng,
        }
    }

    fn large(&mut self) -> Option<NextRun> {
        let k = self.large_runs;
        if k > MAX_RESTARTS {
            return None;
        }
        self.large_runs += 1;
        Some(NextRun {
            lambda: self.lambda0 << k,
            sigma_factor: 1.0,
            budget_cap: None,
            large: true,
        })
    }

    pub(crate) fn next(&mut self, history: &[RestartRecord]) -> Option<NextRun> {
        if self.kind != RestartKind::Bipop || history.is_empty() {
            return self.large();
        }
        let spent = |large: bool| -> usize {
            history
                .iter()
                .filter(|r| r.large == large)
                .map(|r| r.evaluations)
                .sum()
        };
        if spent(false) >= spent(true) {
            return self.large();
        }
        let last_large = history.iter().rev().find(|r| r.large)?;
        let u: f64 = self.rng.random();
        let ratio = 0.5 * last_large.lambda as f64 / self.lambda0 as f64;
        let lambda = ((self.lambda0 as f64 * ratio.powf(u * u)).floor() as usize).max(4);
        Some(NextRun {
            lambda,
            sigma_factor: 10f64.powf(-2.0 * self.rng.random::<f64>()),
            budget_cap: Some(last_large.evaluations / 2),
            large: false,
        })
    }
}

/// Moves a restart's `found_at` to the whole run's count (it started after `used`
/// evaluations).
pub(crate) fn shift(r: &mut RunResult, used: usize) {
    r.best.snapshot.found_at = r.best.snapshot.found_at.map(|at| at + used);
}

/// The whole run so far and the next restart's (shifted) result; the evaluations are
/// the caller's to count.
pub(crate) fn merge(mut m: RunResult, r: RunResult) -> RunResult {
    if improves_best_so_far(&r.best.snapshot.fitness, &m.best.snapshot.fitness) {
        m.best = r.best;
    }
    m.generations += r.generations;
    m.termination = r.termination;
    m.sigma = r.sigma;
    m.resets += r.resets;
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::Best;
    use constraint_handling::Snapshot;
    use ndarray::Array2;

    /// Feeds `kind`'s stall criterion (N = 2, λ = 8) generations at ε = 0 whose
    /// best-so-far never changes and whose offspring's `ν̄` are `spread · violation(t)`;
    /// returns the generation it stalls at.
    fn stalls_at(kind: StallKind, violation: impl Fn(usize) -> f64) -> Option<usize> {
        let mut stall = Stall::new(kind, 2, 8, 1.0);
        let best = Best {
            x: vec![0.0; 2],
            constraints: vec![0.0],
            snapshot: Snapshot::new(1.0, 1e-9),
        };
        let m = Array2::<f64>::eye(2);
        // Spread objectives: the range rule never closes.
        let objectives: Vec<f64> = (0..8).map(|k| 5.0 + k as f64).collect();
        let mut violations = vec![0.0; 8];
        for t in 1..5000 {
            for (k, v) in violations.iter_mut().enumerate() {
                *v = (1.0 + k as f64) * violation(t);
            }
            let report = GenerationReport {
                generation: t,
                evaluations: 8 * t,
                sigma: 1.0,
                epsilon: 0.0,
                parent: &[0.0, 0.0],
                p_sigma: &[0.0, 0.0],
                m: m.view(),
                best: &best,
                objectives: &objectives,
                violations: &violations,
                before: Default::default(),
            };
            if stall.observe(&report).is_break() {
                return Some(t);
            }
        }
        None
    }

    /// `stall=progress` keeps a run whose population converges onto the constraints
    /// while the best-so-far stays put; it stalls once the population stops improving.
    /// The other rules see only the best-so-far and stall after their window.
    #[test]
    fn the_progress_stall_counts_the_populations_convergence() {
        let window = 100 + (100.0 * 2f64.powf(1.5) / 8.0).ceil() as usize;
        // ν̄ halves every 10 generations up to generation 2000, then stays.
        let converging = |t: usize| 0.5f64.powi((t.min(2000) / 10) as i32);
        for kind in [StallKind::Stagnation, StallKind::Range] {
            assert_eq!(stalls_at(kind, converging), Some(1 + window), "{kind:?}");
        }
        let progress = stalls_at(StallKind::Progress, converging).unwrap();
        // The last improvement of the median is at generation 2000 (its last halving).
        assert_eq!(progress, 2000 + window);
        // A population that does not improve stalls as with the other rules.
        assert_eq!(stalls_at(StallKind::Progress, |_| 1.0), Some(1 + window));
    }
}
