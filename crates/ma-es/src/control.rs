//! Run control: what the driver owns, apart from the strategy's constants ([`Config`]).
//!
//! - [`Limits`]: the evaluation budget and the generation limit a run stops at, and
//!   what it records (the best-so-far at checkpoints, the per-generation dynamics).
//!   Every run has them; the suites' protocols set nothing else.
//! - [`Convergence`]: when a run has converged and should stop before its budget — in
//!   pycma's manner. They are on by default ([`crate::Options`], Python's `minimize`),
//!   and switched off ([`crate::Options::to_the_end`], [`Convergence::off`]) in the
//!   suites' protocols, which run to the budget as their rules say.
//!
//! | criterion | default | stops a run when, once ε = 0 |
//! |---|---|---|
//! | `tol_fun` | `1e-11` | the offspring's `f` and the generations' lowest `f` over the last `10 + ⌈30 N / λ⌉` generations lie within `tol_fun`, and so do their `ν̄` |
//! | `tol_x` | `1e-11` | `σ · √((M Mᵀ)_ii) < tol_x` for every coordinate `i` |
//! | `stagnation` | `100 + ⌈100 N^{3/2} / λ⌉` generations | the best-so-far has not improved for that many generations |
//! | `target` | none | (at any ε) the best-so-far is feasible with `f ≤ target` |
//!
//! A tolerance of 0 (a `stagnation` of `Some(0)`) switches that criterion off.
//!
//! **Restart sequences.** Their runs end by the spec's stall rule or by these criteria;
//! the sequence goes on with its next run. It ends before its budget when the target is
//! reached, or when a run that ended by convergence or stall found the sequence's
//! best-so-far again: feasible, with `|f − f_best| ≤ tol_fun · max(1, |f_best|)`
//! ([`Termination::Confirmed`]) — a restart that finds nothing better. A worse local
//! optimum does not end it; that is what restarts are for.
//!
//! ```
//! use ma_es::control::{Convergence, Limits};
//! use ma_es::Options;
//! // Run to 10 000 evaluations, and stop earlier once converged (the defaults).
//! let options = Options::recommended().budget(10_000);
//! assert_eq!(options.convergence_criteria().tol_fun, 1e-11);
//! // A competition's protocol: to the budget, the best-so-far at 10 %, 50 %, 100 %.
//! let protocol = Options::recommended()
//!     .limits(Limits { checkpoints: vec![1_000, 5_000, 10_000], ..Limits::budget(10_000) })
//!     .to_the_end();
//! assert!(!protocol.convergence_criteria().is_on());
//! assert_eq!(Convergence::off(), protocol.convergence_criteria());
//! ```

use crate::config::ConfigError;
use crate::observer::GenerationReport;
use crate::result::Termination;
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::config::Config;

/// How far a run may go and what it records. `None` fields take their
/// dimension-dependent default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Evaluation budget (default `20000 N`); the last generation may overshoot it.
    pub budget: Option<usize>,
    /// Generation limit (default `2000 N`): the run stops after generation `g` with
    /// `g ≥ limit` (so after at most `limit + 1` generations).
    pub max_generations: Option<usize>,
    /// Generation limit of the whole run, over all its restarts (default: none, each
    /// run of a restart sequence has `max_generations` of its own). The run's
    /// generations (all runs' together, as `RunResult::generations` counts them) are at
    /// most this many: a restart sequence starts no run once they reach it, and cuts
    /// each run to what is left.
    pub max_total_generations: Option<usize>,
    /// Evaluation counts (strictly ascending) at which to report the best-so-far
    /// (step 14; none by default — a study asks for the CEC's ⌈f · budget⌉, f = 10, 50,
    /// 100 %). A checkpoint is taken after the generation that reaches its count; one at
    /// or beyond the budget holds the final best-so-far.
    pub checkpoints: Vec<usize>,
    /// Record the per-generation dynamics in the result.
    pub record_dynamics: bool,
}

/// [`Limits`] resolved for a dimension: where a strategy stops. What is recorded is
/// the driver's ([`crate::record::Record`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunLimits {
    /// Evaluation budget.
    pub budget: usize,
    /// Generation limit (of each run of a restart sequence).
    pub max_generations: usize,
    /// Generation limit of the whole run, over all its restarts (none: no limit beyond
    /// each run's).
    #[serde(default)]
    pub total_generations: Option<usize>,
}

impl Limits {
    /// The default limits with this budget.
    #[must_use]
    pub fn budget(budget: usize) -> Self {
        Self {
            budget: Some(budget),
            ..Self::default()
        }
    }

    /// Resolves the defaults for dimension `dim`.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] for a zero budget or checkpoints out of order.
    pub fn resolve(&self, dim: usize) -> Result<RunLimits, ConfigError> {
        let budget = self.budget.unwrap_or(20_000 * dim);
        if budget == 0 {
            return Err(ConfigError::Invalid {
                name: "budget",
                value: "0".into(),
                expected: "must be at least 1 evaluation",
            });
        }
        let c = &self.checkpoints;
        if c.windows(2).any(|w| w[0] >= w[1]) {
            return Err(ConfigError::Invalid {
                name: "checkpoints",
                value: format!("{c:?}"),
                expected: "must be strictly ascending",
            });
        }
        if self.max_total_generations == Some(0) {
            return Err(ConfigError::Invalid {
                name: "max_total_generations",
                value: "0".into(),
                expected: "must be at least 1 generation",
            });
        }
        let per_run = self.max_generations.unwrap_or(2000 * dim);
        Ok(RunLimits {
            budget,
            max_generations: self
                .max_total_generations
                .map_or(per_run, |total| per_run.min(total - 1)),
            total_generations: self.max_total_generations,
        })
    }
}

/// When a run has converged (see the [module](self) documentation for the rules).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Convergence {
    /// Function-value tolerance (pycma's `tolfun`, default `1e-11`; 0: off).
    pub tol_fun: f64,
    /// Step tolerance (pycma's `tolx`, default `1e-11`; 0: off).
    pub tol_x: f64,
    /// Stop once a feasible best-so-far reaches `f ≤ target` (default: none).
    pub target: Option<f64>,
    /// Generations without improvement of the best-so-far (`None`: pycma's
    /// `100 + ⌈100 N^{3/2} / λ⌉`; `Some(0)`: off).
    pub stagnation: Option<usize>,
}

impl Default for Convergence {
    fn default() -> Self {
        Self {
            tol_fun: 1e-11,
            tol_x: 1e-11,
            target: None,
            stagnation: None,
        }
    }
}

impl Convergence {
    /// No criterion: the run goes to its budget or generation limit.
    #[must_use]
    pub fn off() -> Self {
        Self {
            tol_fun: 0.0,
            tol_x: 0.0,
            target: None,
            stagnation: Some(0),
        }
    }

    /// Whether any criterion is on.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.tol_fun > 0.0
            || self.tol_x > 0.0
            || self.target.is_some()
            || self.stagnation != Some(0)
    }

    /// Checks the values.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] for a negative or non-finite tolerance or a NaN target.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, v) in [("tol_fun", self.tol_fun), ("tol_x", self.tol_x)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(ConfigError::Invalid {
                    name,
                    value: v.to_string(),
                    expected: "must be finite and non-negative (0 switches it off)",
                });
            }
        }
        if self.target.is_some_and(f64::is_nan) {
            return Err(ConfigError::Invalid {
                name: "target",
                value: "NaN".into(),
                expected: "must be a number",
            });
        }
        Ok(())
    }

    /// The monitor of one run with population `lambda` in dimension `dim`.
    #[must_use]
    pub(crate) fn monitor(&self, dim: usize, lambda: usize) -> Monitor {
        let lambda = lambda.max(1);
        let stagnation = self
            .stagnation
            .unwrap_or_else(|| stagnation_window(dim, lambda));
        let history = history_window(dim, lambda);
        Monitor {
            criteria: *self,
            stagnation,
            lowest: Ring::new(if self.tol_fun > 0.0 { history } else { 0 }),
            least_violation: Ring::new(if self.tol_fun > 0.0 { history } else { 0 }),
            best: None,
            last_improvement: 0,
        }
    }
}

/// pycma's `tolstagnation`: `100 + ⌈100 N^{3/2} / λ⌉` generations.
pub(crate) fn stagnation_window(dim: usize, lambda: usize) -> usize {
    100 + (100.0 * (dim as f64).powf(1.5) / lambda.max(1) as f64).ceil() as usize
}

/// pycma's `tolfun` history: the last `10 + ⌈30 N / λ⌉` generations.
pub(crate) fn history_window(dim: usize, lambda: usize) -> usize {
    10 + (30 * dim).div_ceil(lambda.max(1))
}

/// The last generations' values, a ring allocated once. The places not written yet
/// hold 0 (no NaN placeholder: a saved run must round-trip through JSON, which has no
/// NaN) and are never read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Ring {
    values: Vec<f64>,
    filled: usize,
}

impl Ring {
    pub(crate) fn new(len: usize) -> Self {
        Self {
            values: vec![0.0; len],
            filled: 0,
        }
    }

    /// Writes `v` over the oldest value; returns the value it replaces.
    pub(crate) fn push(&mut self, v: f64) -> f64 {
        let slot = self.filled % self.values.len();
        self.filled += 1;
        std::mem::replace(&mut self.values[slot], v)
    }

    /// Whether every place holds a value.
    pub(crate) fn is_full(&self) -> bool {
        self.filled >= self.values.len()
    }

    pub(crate) fn clear(&mut self) {
        self.filled = 0;
    }

    /// The lowest and highest value held, with `(lo, hi)` folded in.
    pub(crate) fn range(&self, lo: f64, hi: f64) -> (f64, f64) {
        self.values[..self.filled.min(self.values.len())]
            .iter()
            .fold((lo, hi), |(lo, hi), &f| (lo.min(f), hi.max(f)))
    }
}

/// The convergence criteria applied to one run's generations.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Monitor {
    criteria: Convergence,
    stagnation: usize,
    /// The generations' lowest `f`, and lowest `ν̄` (`tol_fun`).
    lowest: Ring,
    least_violation: Ring,
    best: Option<constraint_handling::Fitness>,
    last_improvement: usize,
}

/// `(lowest, highest)` of `values`.
fn span(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &f| {
            (lo.min(f), hi.max(f))
        })
}

impl Monitor {
    /// The criterion this generation meets, if any.
    pub(crate) fn check(&mut self, r: &GenerationReport<'_>) -> Option<Termination> {
        let c = &self.criteria;
        let best = r.best.snapshot.fitness;
        if let Some(target) = c.target {
            if best.violation == 0.0 && best.objective <= target {
                return Some(Termination::Target);
            }
        }
        if self
            .best
            .is_none_or(|b| constraint_handling::ordering::improves_best_so_far(&best, &b))
        {
            self.best = Some(best);
            self.last_improvement = r.generation;
        }
        if r.epsilon != 0.0 {
            // The criteria count from the generation ε reached 0.
            self.lowest.clear();
            self.least_violation.clear();
            self.last_improvement = r.generation;
            return None;
        }
        if c.tol_fun > 0.0 {
            let (f_lo, f_hi) = span(r.objectives);
            let (v_lo, v_hi) = span(r.violations);
            self.lowest.push(f_lo);
            self.least_violation.push(v_lo);
            if self.lowest.is_full() {
                let (f_lo, f_hi) = self.lowest.range(f_lo, f_hi);
                let (v_lo, v_hi) = self.least_violation.range(v_lo, v_hi);
                if f_hi - f_lo < c.tol_fun && v_hi - v_lo < c.tol_fun {
                    return Some(Termination::TolFun);
                }
            }
        }
        if c.tol_x > 0.0 {
            let s2 = r.sigma * r.sigma;
            let tol2 = c.tol_x * c.tol_x;
            // NaN steps are not narrow.
            let narrow = r.m.rows().into_iter().all(|row| s2 * row.dot(&row) < tol2);
            if narrow {
                return Some(Termination::TolX);
            }
        }
        if self.stagnation > 0 && r.generation >= self.last_improvement + self.stagnation {
            return Some(Termination::Stagnation);
        }
        None
    }
}
