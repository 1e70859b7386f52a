//! The SQP local phase ([`local_phase::sqp`]) as a harness optimizer, restarted: the
//! first run from the box's centre, each further one from a point drawn uniformly in
//! the box (the task's seed alone decides them), until the budget is spent. A run's
//! request that would not fit into the budget left is not evaluated: the run never
//! evaluates more points than its budget.

use super::{Optimizer, Outcome, StopReason, Task, Tracker, TrackerEvaluator};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use emages_solver::{Driver, Observer, Solver, SolverError};
use local_phase::sqp::{Sqp, SqpSettings};
use rand::{Rng, SeedableRng};
use std::ops::ControlFlow;

/// The SQP local phase ([`local_phase::sqp`]) as a harness optimizer, restarted: the
/// first run from the box's centre, each further one from a point drawn uniformly in
/// the box (the task's seed alone decides them), until the budget is spent. A run's
/// request that would not fit into the budget left is not evaluated: the run never
/// evaluates more points than its budget.
///
/// `kind` is `sqp-restarts`.
///
/// ```
/// use emages_harness::optimizer::{LocalPhaseOptimizer, Optimizer, Task};
/// use constraint_handling::FnProblem;
/// // min x₁ + x₂  s.t.  x₁² + x₂² ≤ 2: f* = −2
/// let p = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 1, 0, |x, g| {
///     g[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///     Ok(x[0] + x[1])
/// })
/// .unwrap();
/// let out = LocalPhaseOptimizer::default().run(&Task::new(&p, 400, 1)).unwrap();
/// assert!(out.evaluations <= 400 && out.restarts.is_empty());
/// assert!((out.best.objective() + 2.0).abs() < 1e-6 && out.best.violation() == 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct LocalPhaseOptimizer {
    /// The settings of each run ([`SqpSettings::linear_steering`] by default: the training
    /// studies' `sqp-restarts`).
    pub settings: SqpSettings,
}

impl Default for LocalPhaseOptimizer {
    fn default() -> Self {
        Self {
            settings: SqpSettings::linear_steering(),
        }
    }
}

impl Optimizer for LocalPhaseOptimizer {
    fn kind(&self) -> &str {
        "sqp-restarts"
    }

    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        let shape = ProblemShape::new(vec![0.0; dim], vec![1.0; dim], 0, 0)
            .map_err(|e| StudyError::Invalid(e.to_string()))?;
        Sqp::new(shape, &vec![0.5; dim], self.settings.clone())
            .map(|_| ())
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let shape = black_box_shape(task)?;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task);
        let mut start = centre(&shape);
        let mut iterations = 0;
        while let LocalEnd::Stopped =
            run_sqp(&tracker, &shape, &start, &self.settings, &mut iterations)?
        {
            uniform_in_box(&shape, &mut rng, &mut start);
        }
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}

/// How a run of a solver through the tracker ended.
pub(super) enum LocalEnd {
    /// It stopped by itself.
    Stopped,
    /// Its next request did not fit into the budget left.
    Budget,
}

/// The task's problem's shape, with the repairs' Jacobians from differences (a black
/// box: the harness compares algorithms on values alone).
pub(super) fn black_box_shape(task: &Task<'_>) -> Result<ProblemShape, StudyError> {
    Ok(ProblemShape::of(task.problem)
        .map_err(|e| StudyError::Invalid(e.to_string()))?
        .with_jacobian(constraint_handling::JacobianSource::Differences))
}

/// The box's centre ([`local_phase::starts::centre`]).
pub(super) fn centre(shape: &ProblemShape) -> Vec<f64> {
    local_phase::starts::centre(&shape.lower, &shape.upper)
}

/// A point drawn uniformly in the box, into `x` ([`local_phase::starts::uniform_in_box`]).
pub(super) fn uniform_in_box(shape: &ProblemShape, rng: &mut impl Rng, x: &mut [f64]) {
    local_phase::starts::uniform_in_box(&shape.lower, &shape.upper, rng, x);
}

/// Drives `solver` through `tracker` until it ends by itself or its next request does
/// not fit into the task's budget; counts the iterations it reports (every tell that
/// ends one) into `iterations` and traces its step size after each.
///
/// # Errors
/// The problem's and the solver's errors.
pub(super) fn drive<S: Solver>(
    tracker: &Tracker<'_>,
    solver: &mut S,
    iterations: &mut usize,
) -> Result<LocalEnd, StudyError> {
    let budget = solver.evaluations() + tracker.remaining();
    let mut count = 0;
    let mut trace = |s: &S| {
        count += 1;
        tracker.trace(s.status().step_size);
        ControlFlow::Continue(())
    };
    let outcome = Driver::new(solver)
        .budget(budget)
        .observe(&mut trace as &mut dyn Observer<S>)
        .run_with(&mut TrackerEvaluator::new(tracker));
    *iterations += count;
    match outcome {
        // A run that ended by its own rules (an ES run at its own budget among them)
        // stopped; one the driver cut at the task's budget did not.
        Ok(_) if solver.termination().is_some() => Ok(LocalEnd::Stopped),
        // A run that evaluated nothing: its first request did not fit.
        Ok(_) | Err(SolverError::NothingEvaluated(_)) => Ok(LocalEnd::Budget),
        Err(e) => Err(TrackerEvaluator::study_error(e)),
    }
}

/// One run of the local phase from `start`, every point evaluated through `tracker`
/// (one iteration per request).
///
/// # Errors
/// The problem's errors; a start or settings the local phase refuses.
pub(super) fn run_sqp(
    tracker: &Tracker<'_>,
    shape: &ProblemShape,
    start: &[f64],
    settings: &SqpSettings,
    iterations: &mut usize,
) -> Result<LocalEnd, StudyError> {
    let mut sqp = Sqp::new(shape.clone(), start, settings.clone())
        .map_err(|e| StudyError::Invalid(e.to_string()))?;
    drive(tracker, &mut sqp, iterations)
}
