//! What a driver records of a run, as observers: the best-so-far at checkpoints
//! ([`Checkpoints`], the CEC's step 14) and the per-generation dynamics ([`Dynamics`]).
//!
//! The strategy records nothing: [`crate::ask_tell::AskTell`] (and so
//! [`crate::Plan::run`]) feeds a [`Record`] every report, so a restart sequence is
//! recorded as one run, in the counts of the whole run. A caller who drives a bare
//! [`crate::strategy::Strategy`] records what it wants the same way.
//!
//! ```
//! use ma_es::control::Limits;
//! use emages_solver::Driver;
//! use ma_es::noise::RngNoise;
//! use ma_es::record::Record;
//! use ma_es::strategy::Strategy;
//! use ma_es::{Options, Variant};
//! use cec2017_constrained::Suite;
//!
//! let problem = Suite::synthetic(1).problem(1, 10).unwrap();
//! let limits = Limits { checkpoints: vec![1_000, 4_000], record_dynamics: true, ..Limits::budget(4_000) };
//! let plan = Options::new(Variant::EpsMagEs).limits(limits.clone()).seed(1).build_for(&problem).unwrap();
//! let mut es = plan.strategy(plan.noise()).unwrap();
//! let mut record = Record::new(&limits, plan.limits());
//! let mut observe = |s: &Strategy<RngNoise>| record.observe(&s.report());
//! Driver::new(&mut es).observe(&mut observe).run(&problem).unwrap();
//! let result = record.into_result(es.result());
//! // Taken after the generation that reached 1 000 evaluations, and at the end.
//! assert!(result.checkpoints[0].evaluations >= 1_000);
//! assert_eq!(result.checkpoints[1].evaluations, result.evaluations);
//! assert_eq!(result.dynamics.unwrap().len(), result.generations + 1);
//! ```

use crate::control::{Limits, RunLimits};
use crate::observer::GenerationReport;
use crate::result::{DynamicsRecord, RunResult};
use constraint_handling::{Checkpoint, Incumbent, Snapshot};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// The best-so-far at the wanted evaluation counts, an observer.
///
/// A checkpoint at `k` evaluations is the best-so-far of the whole run after the
/// generation in which the count reaches `k` (the initialisation is not a generation);
/// one at or beyond the budget, or one the run never reached, holds the final
/// best-so-far and evaluation count. When a run of a restart sequence ends, the
/// checkpoints it reached are taken with its final state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoints {
    budget: usize,
    taken: Incumbent,
}

impl Checkpoints {
    /// Checkpoints at these counts (strictly ascending) of a run with this budget.
    #[must_use]
    pub fn new(wanted: &[usize], budget: usize) -> Self {
        Self {
            budget,
            taken: Incumbent::new(wanted),
        }
    }

    /// A run of a restart sequence ended with this report: takes the checkpoints it
    /// reached.
    pub fn end_run(&mut self, report: &GenerationReport<'_>) {
        self.taken.replace(report.overall_best());
        self.taken.reach(report.total_evaluations(), usize::MAX);
    }

    /// The checkpoints of a run that ended after `evaluations` with best-so-far `best`:
    /// those taken, the rest with the final state.
    #[must_use]
    pub fn finish(&self, evaluations: usize, best: Snapshot) -> Vec<Checkpoint> {
        let mut all = self.taken.clone();
        all.replace(best);
        all.into_parts(evaluations).1
    }
}

impl Checkpoints {
    /// Looks at the state after the initialisation or a generation.
    pub fn observe(&mut self, report: &GenerationReport<'_>) -> ControlFlow<()> {
        if report.generation > 0 {
            self.taken.replace(report.overall_best());
            self.taken.reach(report.total_evaluations(), self.budget);
        }
        ControlFlow::Continue(())
    }
}

/// The state after the initialisation and after every generation, an observer: the
/// counts of the whole run, the whole run's best `(f, ν̄)`, and the current run's `σ`,
/// `‖best y‖` and `ε`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dynamics(pub Vec<DynamicsRecord>);

impl Dynamics {
    /// Looks at the state after the initialisation or a generation.
    pub fn observe(&mut self, report: &GenerationReport<'_>) -> ControlFlow<()> {
        self.0.push(DynamicsRecord {
            generation: report.total_generations(),
            evaluations: report.total_evaluations(),
            best: report.overall_fitness(),
            sigma: report.sigma,
            best_norm: report.best.norm(),
            epsilon: report.epsilon,
        });
        ControlFlow::Continue(())
    }
}

/// What [`Limits`] ask to be recorded: the checkpoints, and the dynamics if
/// `record_dynamics`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The checkpoints.
    pub checkpoints: Checkpoints,
    /// The dynamics, if recorded.
    pub dynamics: Option<Dynamics>,
}

impl Record {
    /// The record `limits` ask for, in a run stopping at `run` (`limits` resolved:
    /// [`Limits::resolve`], or [`crate::Plan::limits`]).
    #[must_use]
    pub fn new(limits: &Limits, run: RunLimits) -> Self {
        Self {
            checkpoints: Checkpoints::new(&limits.checkpoints, run.budget),
            dynamics: limits.record_dynamics.then(Dynamics::default),
        }
    }

    /// Reserves room for the dynamics of `generations` more generations.
    pub fn reserve(&mut self, generations: usize) {
        if let Some(d) = &mut self.dynamics {
            d.0.reserve(generations);
        }
    }

    /// `result` (a strategy's, in the whole run's counts) with the checkpoints and the
    /// dynamics recorded.
    #[must_use]
    pub fn result(&self, mut result: RunResult) -> RunResult {
        result.checkpoints = self
            .checkpoints
            .finish(result.evaluations, result.best.snapshot);
        result.dynamics = self.dynamics.as_ref().map(|d| d.0.clone());
        result
    }

    /// As [`Self::result`], consuming the record.
    #[must_use]
    pub fn into_result(self, mut result: RunResult) -> RunResult {
        result.checkpoints = self
            .checkpoints
            .finish(result.evaluations, result.best.snapshot);
        result.dynamics = self.dynamics.map(|d| d.0);
        result
    }
}

impl Record {
    /// Looks at the state after the initialisation or a generation.
    pub fn observe(&mut self, report: &GenerationReport<'_>) -> ControlFlow<()> {
        let _ = self.checkpoints.observe(report);
        if let Some(d) = &mut self.dynamics {
            let _ = d.observe(report);
        }
        ControlFlow::Continue(())
    }
}
