//! What an observer of the ES reads after the initialisation and after every
//! generation ([`GenerationReport`]: `ask_tell::AskTell::report`,
//! `strategy::Strategy::report`), for logging, dynamics, custom stopping rules, or
//! embedding the strategy in other tools. The observers themselves are the solver
//! contract's ([`emages_solver::Observer`]): a closure over the run
//! ([`crate::ask_tell::reports`] makes one of a closure over the reports):
//!
//! ```
//! use ma_es::ask_tell::AskTell;
//! use ma_es::noise::RngNoise;
//! use std::ops::ControlFlow;
//! let mut sigmas = Vec::new();
//! let mut observer = |es: &AskTell<RngNoise>| {
//!     let report = es.report();
//!     sigmas.push(report.sigma);
//!     if report.total_generations() >= 10 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
//! };
//! # let _: &mut dyn emages_solver::Observer<AskTell<RngNoise>> = &mut observer;
//! ```

use crate::result::Best;
use constraint_handling::ordering::improves_best_so_far;
use constraint_handling::{Fitness, Snapshot};
use ndarray::ArrayView2;

/// The strategy's state after a generation (or after the initialisation, `generation = 0`).
#[derive(Debug)]
pub struct GenerationReport<'a> {
    /// Generations done.
    pub generation: usize,
    /// Evaluations consumed.
    pub evaluations: usize,
    /// The mutation strength `σ`.
    pub sigma: f64,
    /// The threshold the next generation will rank with.
    pub epsilon: f64,
    /// The parent `ȳ`.
    pub parent: &'a [f64],
    /// The search path `p_σ`.
    pub p_sigma: &'a [f64],
    /// The transformation matrix `M`.
    pub m: ArrayView2<'a, f64>,
    /// The best-so-far solution.
    pub best: &'a Best,
    /// The objective values of the generation's offspring (after the initialisation:
    /// of the initial population).
    pub objectives: &'a [f64],
    /// Their mean constraint violations `ν̄`, in the same order.
    pub violations: &'a [f64],
    /// What the earlier runs of a restart sequence did (nothing for a single run):
    /// the counts above and `best` are the current run's own.
    pub before: Before<'a>,
}

/// The runs of a restart sequence before the current one ([`crate::restarts`]):
/// zero and `None` for a single run and for a sequence's first run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Before<'a> {
    /// How many runs ended before this one.
    pub runs: usize,
    /// Their generations.
    pub generations: usize,
    /// Their evaluations.
    pub evaluations: usize,
    /// Their best-so-far (`found_at` counted from the sequence's start).
    pub best: Option<&'a Best>,
}

impl GenerationReport<'_> {
    /// Generations since the start of the whole run (a restart sequence's first run).
    #[must_use]
    pub fn total_generations(&self) -> usize {
        self.before.generations + self.generation
    }

    /// Evaluations since the start of the whole run.
    #[must_use]
    pub fn total_evaluations(&self) -> usize {
        self.before.evaluations + self.evaluations
    }

    /// The best-so-far of the whole run: the current run's if it improves on the
    /// earlier runs' best (the best-so-far rule), else theirs; `found_at` counts from
    /// the start of the whole run.
    #[must_use]
    pub fn overall_best(&self) -> Snapshot {
        let own = self.best.snapshot;
        match self.before.best {
            Some(b) if !improves_best_so_far(&own.fitness, &b.snapshot.fitness) => b.snapshot,
            _ => Snapshot {
                found_at: own.found_at.map(|at| at + self.before.evaluations),
                ..own
            },
        }
    }

    /// `(f, ν̄)` of [`Self::overall_best`].
    #[must_use]
    pub fn overall_fitness(&self) -> Fitness {
        self.overall_best().fitness
    }
}
