//! [`Tracker`]: the bookkeeping of an optimizer written from scratch.

use super::{Fitness, Outcome, Snapshot, StopReason, Task, TracePoint};
use crate::error::StudyError;
use constraint_handling::Incumbent;

/// Book-keeping for an optimizer written from scratch: evaluates points, counts the
/// evaluations, keeps the best-so-far and takes the checkpoints a [`Task`] asks for —
/// with the bookkeeping εMAg-ES keeps ([`constraint_handling::Incumbent`]), so that
/// every optimizer is scored alike. Each evaluation is an iteration of its own here: a
/// checkpoint is the best-so-far when the count reaches it (the one at the budget is
/// taken by [`Tracker::finish`]).
#[derive(Debug)]
pub struct Tracker<'t> {
    task: &'t Task<'t>,
    constraints: Vec<f64>,
    evaluations: usize,
    incumbent: Incumbent,
    trace: Option<Vec<TracePoint>>,
}

impl<'t> Tracker<'t> {
    /// A tracker for `task`, no evaluations yet.
    #[must_use]
    pub fn new(task: &'t Task<'t>) -> Self {
        Self {
            task,
            constraints: vec![0.0; task.problem.num_constraints()],
            evaluations: 0,
            incumbent: Incumbent::new(task.checkpoints),
            trace: task.record_trace.then(Vec::new),
        }
    }

    /// Evaluations so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// Whether the budget is used up.
    #[must_use]
    pub fn exhausted(&self) -> bool {
        self.evaluations >= self.task.budget
    }

    /// The best-so-far, if anything was evaluated.
    #[must_use]
    pub fn best(&self) -> Option<&Snapshot> {
        self.incumbent.best()
    }

    /// Evaluates `x` (one evaluation of the budget) and returns its `(f, ν̄)`;
    /// updates the best-so-far and takes the checkpoints that this evaluation reaches.
    ///
    /// # Errors
    /// The problem's errors (e.g. a point of the wrong dimension).
    pub fn evaluate(&mut self, x: &[f64]) -> Result<Fitness, StudyError> {
        let problem = self.task.problem;
        let objective = problem
            .evaluate(x, &mut self.constraints)
            .map_err(|e| StudyError::Other(format!("evaluation failed: {e}")))?;
        // ν̄ with the problem's own margin δ, as every algorithm sees it.
        let fitness = Fitness::new(objective, problem.mean_violation(&self.constraints));
        self.evaluations += 1;
        if self.incumbent.improves(&fitness) {
            self.incumbent.replace(Snapshot {
                fitness,
                counts: problem.constraint_counts(&self.constraints),
                found_at: Some(self.evaluations),
            });
        }
        self.incumbent.reach(self.evaluations, self.task.budget);
        Ok(fitness)
    }

    /// Records a trajectory point with the optimizer's step size (call once per
    /// iteration; ignored unless the task asked for a trace).
    pub fn trace(&mut self, sigma: f64) {
        if let (Some(trace), Some(best)) = (self.trace.as_mut(), self.incumbent.best()) {
            trace.push(TracePoint {
                evaluations: self.evaluations,
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
        let (best, checkpoints) = self.incumbent.into_parts(self.evaluations);
        Outcome {
            best,
            checkpoints,
            evaluations: self.evaluations,
            iterations,
            termination,
            trace: self.trace,
        }
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
        let mut t = Tracker::new(&task);
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
}
