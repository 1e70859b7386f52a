//! [`Tracker`]: the bookkeeping of an optimizer written from scratch.

use super::{Fitness, Outcome, Snapshot, StopReason, Task, TracePoint};
use crate::error::StudyError;
use constraint_handling::Incumbent;
use emages_solver::{Evaluator, RequestKind, Slots, SolverError};
use std::cell::{Cell, RefCell};

/// Book-keeping for an optimizer written from scratch: evaluates points, counts the
/// evaluations, keeps the best-so-far and takes the checkpoints a [`Task`] asks for —
/// with the bookkeeping εMAg-ES keeps ([`constraint_handling::Incumbent`]), so that
/// every optimizer is scored alike. Each evaluation is an iteration of its own here: a
/// checkpoint is the best-so-far when the count reaches it (the one at the budget is
/// taken by [`Tracker::finish`]).
///
/// Every method takes `&self`, so that the objective closure handed to another crate's
/// optimizer can evaluate through the tracker while the loop around it asks it for the
/// budget; inside such a closure, which must return a number,
/// [`Tracker::evaluate_or_defer`] keeps an evaluation error for
/// [`Tracker::finish_checked`] to return.
#[derive(Debug)]
pub struct Tracker<'t> {
    task: &'t Task<'t>,
    constraints: RefCell<Vec<f64>>,
    evaluations: Cell<usize>,
    incumbent: RefCell<Incumbent>,
    trace: RefCell<Option<Vec<TracePoint>>>,
    deferred: RefCell<Option<StudyError>>,
    nan_last: bool,
}

impl<'t> Tracker<'t> {
    /// A tracker for `task`, no evaluations yet.
    #[must_use]
    pub fn new(task: &'t Task<'t>) -> Self {
        Self {
            task,
            constraints: RefCell::new(vec![0.0; task.problem.num_constraints()]),
            evaluations: Cell::new(0),
            incumbent: RefCell::new(Incumbent::new(task.checkpoints)),
            trace: RefCell::new(task.record_trace.then(Vec::new)),
            deferred: RefCell::new(None),
            nan_last: false,
        }
    }

    /// This tracker with NaN violations ordered last in its best-so-far
    /// ([`constraint_handling::ordering::improves_best_so_far_nan_last`]) when `on`: a
    /// point whose `ν̄` is a number replaces a best whose `ν̄` is NaN. Off (the
    /// default), the reference's rule keeps a NaN first point to the end.
    #[must_use]
    pub fn nan_last(self, on: bool) -> Self {
        Self {
            nan_last: on,
            ..self
        }
    }

    /// Evaluations so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.evaluations.get()
    }

    /// The evaluations left of the budget (0 once it is used up).
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.task.budget.saturating_sub(self.evaluations.get())
    }

    /// Whether the budget is used up.
    #[must_use]
    pub fn exhausted(&self) -> bool {
        self.evaluations.get() >= self.task.budget
    }

    /// The best-so-far, if anything was evaluated.
    #[must_use]
    pub fn best(&self) -> Option<Snapshot> {
        self.incumbent.borrow().best().copied()
    }

    /// Evaluates `x` (one evaluation of the budget) and returns its `(f, ν̄)`;
    /// updates the best-so-far and takes the checkpoints that this evaluation reaches.
    ///
    /// # Errors
    /// The problem's errors (e.g. a point of the wrong dimension).
    pub fn evaluate(&self, x: &[f64]) -> Result<Fitness, StudyError> {
        let mut constraints = self.constraints.borrow_mut();
        self.evaluate_into(x, &mut constraints)
    }

    /// [`Tracker::evaluate`], writing `C(x)` into `constraints` (`l + m` entries) for an
    /// optimizer that needs the constraint values themselves.
    ///
    /// # Errors
    /// The problem's errors (e.g. a point or a buffer of the wrong length).
    pub fn evaluate_into(&self, x: &[f64], constraints: &mut [f64]) -> Result<Fitness, StudyError> {
        let problem = self.task.problem;
        let objective = problem
            .evaluate(x, constraints)
            .map_err(|e| StudyError::Other(format!("evaluation failed: {e}")))?;
        // ν̄ with the problem's own margin δ, as every algorithm sees it.
        let fitness = Fitness::new(objective, problem.mean_violation(constraints));
        let evaluations = self.evaluations.get() + 1;
        self.evaluations.set(evaluations);
        let mut incumbent = self.incumbent.borrow_mut();
        let better = if self.nan_last {
            incumbent.improves_nan_last(&fitness)
        } else {
            incumbent.improves(&fitness)
        };
        if better {
            incumbent.replace(Snapshot {
                fitness,
                counts: problem.constraint_counts(constraints),
                found_at: Some(evaluations),
            });
        }
        incumbent.reach(evaluations, self.task.budget);
        Ok(fitness)
    }

    /// Writes the problem's constraint Jacobian `∂C/∂x` at `x` into `jacobian`
    /// (`(l + m) × N`) and charges `charge` evaluations of the budget (the CEC2020 rule:
    /// one, or none for a point whose evaluation already counted, as
    /// [`ma_es::request::Request::evaluations`] says), taking the checkpoints they
    /// reach. A Jacobian brings no new point: the best-so-far stays.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for a problem that offers no Jacobian; the problem's
    /// errors.
    pub fn jacobian(
        &self,
        x: &[f64],
        jacobian: ndarray::ArrayViewMut2<'_, f64>,
        charge: usize,
    ) -> Result<(), StudyError> {
        let exact = self.task.problem.constraint_jacobian().ok_or_else(|| {
            StudyError::Invalid("the problem offers no constraint Jacobian".into())
        })?;
        exact
            .evaluate_jacobian(x, None, jacobian)
            .map_err(|e| StudyError::Other(format!("the Jacobian failed: {e}")))?;
        let evaluations = self.evaluations.get() + charge;
        self.evaluations.set(evaluations);
        self.incumbent
            .borrow_mut()
            .reach(evaluations, self.task.budget);
        Ok(())
    }

    /// [`Tracker::evaluate`] for a closure that must return a number: an error is kept
    /// (the first one; [`Tracker::finish_checked`] returns it, [`Tracker::failed`] says
    /// so at once) and a NaN fitness returned, which every ordering ranks last.
    pub fn evaluate_or_defer(&self, x: &[f64]) -> Fitness {
        self.evaluate(x).unwrap_or_else(|e| {
            self.deferred.borrow_mut().get_or_insert(e);
            Fitness::new(f64::NAN, f64::NAN)
        })
    }

    /// Whether an evaluation error was deferred ([`Tracker::evaluate_or_defer`]).
    #[must_use]
    pub fn failed(&self) -> bool {
        self.deferred.borrow().is_some()
    }

    /// Records a trajectory point with the optimizer's step size (call once per
    /// iteration; ignored unless the task asked for a trace).
    pub fn trace(&self, sigma: f64) {
        if let (Some(trace), Some(best)) = (
            self.trace.borrow_mut().as_mut(),
            self.incumbent.borrow().best(),
        ) {
            trace.push(TracePoint {
                evaluations: self.evaluations.get(),
                best: best.fitness,
                sigma,
            });
        }
    }

    /// The outcome after `iterations` iterations, stopped for `termination`
    /// (e.g. [`StopReason::Budget`]). Checkpoints not reached hold the final
    /// best-so-far; a run without evaluations reports NaN values.
    #[must_use]
    pub fn finish(self, iterations: usize, termination: StopReason) -> Outcome {
        let evaluations = self.evaluations.get();
        let (best, checkpoints) = self.incumbent.into_inner().into_parts(evaluations);
        Outcome {
            best,
            checkpoints,
            evaluations,
            iterations,
            termination,
            trace: self.trace.into_inner(),
            restarts: Vec::new(),
        }
    }

    /// [`Tracker::finish`], or the evaluation error [`Tracker::evaluate_or_defer`] kept.
    ///
    /// # Errors
    /// The first deferred evaluation error.
    pub fn finish_checked(
        self,
        iterations: usize,
        termination: StopReason,
    ) -> Result<Outcome, StudyError> {
        match self.deferred.take() {
            Some(e) => Err(e),
            None => Ok(self.finish(iterations, termination)),
        }
    }
}

/// A [`Tracker`] as the evaluator of a solver's requests
/// ([`emages_solver::Driver::run_with`]): every point through
/// [`Tracker::evaluate_into`] (`f` and `C`, one evaluation each, in the request's
/// order), the Jacobians of a [`RequestKind::Jacobians`] request through
/// [`Tracker::jacobian`], the request's charge spread over its points.
#[derive(Debug)]
pub struct TrackerEvaluator<'a, 't> {
    tracker: &'a Tracker<'t>,
    x: Vec<f64>,
    c: Vec<f64>,
}

impl<'a, 't> TrackerEvaluator<'a, 't> {
    /// Requests evaluated through `tracker`.
    #[must_use]
    pub fn new(tracker: &'a Tracker<'t>) -> Self {
        let problem = tracker.task.problem;
        Self {
            tracker,
            x: vec![0.0; problem.dim()],
            c: vec![0.0; problem.num_constraints()],
        }
    }

    /// A [`SolverError`] of the driver as the study's error again.
    #[must_use]
    pub fn study_error(e: SolverError) -> StudyError {
        match e {
            SolverError::Solver(inner) => match inner.downcast::<StudyError>() {
                Ok(e) => *e,
                Err(inner) => StudyError::Other(inner.to_string()),
            },
            SolverError::Invalid(text) => StudyError::Invalid(text),
            e => StudyError::Other(e.to_string()),
        }
    }
}

impl Evaluator for TrackerEvaluator<'_, '_> {
    fn evaluate(&mut self, slots: Slots<'_>) -> Result<bool, SolverError> {
        let Slots {
            request,
            mut objectives,
            mut constraints,
            ..
        } = slots;
        let count = request.len();
        if request.kind == RequestKind::Jacobians {
            let n = self.x.len();
            let mut blocks = constraints.axis_chunks_iter_mut(ndarray::Axis(1), n.max(1));
            for j in 0..count {
                let block = blocks.next().expect("N columns per point");
                let charge =
                    request.evaluations * (j + 1) / count - request.evaluations * j / count;
                self.tracker
                    .jacobian(request.point(j), block, charge)
                    .map_err(SolverError::solver)?;
            }
            return Ok(false);
        }
        for (j, x) in request.points.columns().into_iter().enumerate() {
            self.x.iter_mut().zip(x).for_each(|(d, s)| *d = *s);
            let fitness = self
                .tracker
                .evaluate_into(&self.x, &mut self.c)
                .map_err(SolverError::solver)?;
            objectives[j] = fitness.objective;
            constraints
                .column_mut(j)
                .iter_mut()
                .zip(&self.c)
                .for_each(|(d, s)| *d = *s);
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use constraint_handling::FnProblem;

    #[test]
    fn the_tracker_keeps_the_reference_best_and_takes_the_checkpoints() {
        // minimise x  s.t.  x ≥ 1 (g = 1 − x ≤ 0), x ∈ [−5, 5].
        let above_one = FnProblem::new(vec![-5.0], vec![5.0], 1, 0, |x, c| {
            c[0] = 1.0 - x[0];
            Ok(x[0])
        })
        .unwrap();
        let task = Task {
            record_trace: true,
            ..Task::new(&above_one, 5, 1).with_checkpoints(&[2, 4, 5])
        };
        let t = Tracker::new(&task);
        // Infeasible points rank by ν̄ alone, any feasible point beats them.
        t.evaluate(&[-1.0]).unwrap(); // ν̄ = 2
        t.trace(0.5);
        t.evaluate(&[-3.0]).unwrap(); // ν̄ = 4, f lower: not better
        assert_eq!(t.best().unwrap().objective(), -1.0);
        t.evaluate(&[3.0]).unwrap(); // feasible
        t.evaluate(&[2.0]).unwrap(); // feasible and lower
        t.trace(0.25);
        assert!(!t.exhausted());
        assert!(
            t.evaluate(&[1.0, 2.0]).is_err(),
            "a point of the wrong dimension"
        );
        let out = t.finish(2, StopReason::Budget);
        assert_eq!(out.best.fitness, Fitness::new(2.0, 0.0));
        assert_eq!(out.best.found_at, Some(4));
        let cps: Vec<(usize, f64)> = out
            .checkpoints
            .iter()
            .map(|c| (c.evaluations, c.best.objective()))
            .collect();
        // At 2 evaluations the best was x = −1 (ν̄ = 2); at 4, x = 2; 5 was not
        // reached: the final best.
        assert_eq!(cps, [(2, -1.0), (4, 2.0), (4, 2.0)]);
        assert_eq!(out.checkpoints[0].best.counts.as_array(), [1, 0, 0]); // g = 2 > 1
        assert_eq!(out.checkpoints[0].best.found_at, Some(1));
        assert_eq!(out.best.counts.as_array(), [0, 0, 0]);
        let trace = out.trace.unwrap();
        assert_eq!(trace.len(), 2);
        assert_eq!((trace[1].evaluations, trace[1].sigma), (4, 0.25));
    }

    /// An error inside a closure that must return a number is kept for the end.
    #[test]
    fn a_deferred_error_ends_the_run() {
        let line = FnProblem::new(vec![-5.0], vec![5.0], 0, 0, |x, _| Ok(x[0])).unwrap();
        let task = Task::new(&line, 10, 1);
        let t = Tracker::new(&task);
        let objective = |x: &[f64]| t.evaluate_or_defer(x).objective;
        assert_eq!(objective(&[2.0]), 2.0);
        assert!(objective(&[1.0, 2.0]).is_nan());
        assert!(t.failed());
        assert_eq!(objective(&[1.0]), 1.0);
        assert_eq!((t.evaluations(), t.remaining()), (2, 8));
        let err = t.finish_checked(2, StopReason::Budget).unwrap_err();
        assert!(err.to_string().contains("evaluation failed"), "{err}");
    }
}
