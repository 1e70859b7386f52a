//! The ES as a solver of the contract ([`emages_solver::Solver`]): a whole run with its
//! restarts ([`AskTell`]) and a single run without its driver ([`Strategy`]).

use crate::ask_tell::AskTell;
use crate::noise::NoiseSource;
use crate::observer::GenerationReport;
use crate::request::{Request, Told};
use crate::result::{Best, Termination};
use crate::strategy::Strategy;
use constraint_handling::ordering::improves_best_so_far;
use constraint_handling::problem::ProblemShape;
use emages_solver::{Phase, Solver, SolverError, Status};
use ndarray::ArrayView2;

/// The status of a report: its counts from the start of the whole run.
fn status(report: &GenerationReport<'_>) -> Status {
    let best = report.overall_fitness();
    Status {
        iterations: report.total_generations(),
        evaluations: report.total_evaluations(),
        objective: best.objective,
        violation: best.violation,
        step_size: report.sigma,
        epsilon: report.epsilon,
        phase: Phase::Es,
        run: report.before.runs + 1,
    }
}

/// The best of the whole run as a report shows it (`None` before the first tell).
fn best_of(report: &GenerationReport<'_>, evaluations: usize) -> Option<Best> {
    if evaluations == 0 {
        return None;
    }
    let own = report.best;
    Some(match report.before.best {
        Some(b) if !improves_best_so_far(&own.snapshot.fitness, &b.snapshot.fitness) => b.clone(),
        _ => {
            let mut best = own.clone();
            best.snapshot.found_at = own
                .snapshot
                .found_at
                .map(|at| at + report.before.evaluations);
            best
        }
    })
}

impl<N: NoiseSource> Solver for AskTell<N> {
    fn shape(&self) -> &ProblemShape {
        self.strategy().shape()
    }

    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        AskTell::ask(self).map_err(SolverError::from)
    }

    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        AskTell::tell(self, objectives, constraints).map_err(SolverError::from)
    }

    fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        AskTell::tell_with_jacobians(self, objectives, constraints, jacobians)
            .map_err(SolverError::from)
    }

    fn best(&self) -> Option<Best> {
        match self.finished_result() {
            Some(r) => Some(r.best.clone()),
            None => best_of(&self.report(), self.evaluations()),
        }
    }

    fn evaluations(&self) -> usize {
        AskTell::evaluations(self)
    }

    fn iterations(&self) -> usize {
        match self.finished_result() {
            Some(r) => r.generations,
            None => self.report().total_generations(),
        }
    }

    fn termination(&self) -> Option<Termination> {
        self.finished_result().map(|r| r.termination)
    }

    fn stop(&mut self) {
        AskTell::stop(self);
    }

    fn status(&self) -> Status {
        let mut status = status(&self.report());
        if let Some(r) = self.finished_result() {
            (status.iterations, status.evaluations) = (r.generations, r.evaluations);
        }
        status
    }
}

impl<N: NoiseSource> Solver for Strategy<N> {
    fn shape(&self) -> &ProblemShape {
        Strategy::shape(self)
    }

    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        Strategy::ask(self).map_err(SolverError::from)
    }

    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        Strategy::tell(self, objectives, constraints).map_err(SolverError::from)
    }

    fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        Strategy::tell_with_jacobians(self, objectives, constraints, jacobians)
            .map_err(SolverError::from)
    }

    fn best(&self) -> Option<Best> {
        best_of(&self.report(), Strategy::evaluations(self))
    }

    fn evaluations(&self) -> usize {
        Strategy::evaluations(self)
    }

    fn iterations(&self) -> usize {
        self.report().generation
    }

    fn termination(&self) -> Option<Termination> {
        Strategy::termination(self)
    }

    fn stop(&mut self) {
        Strategy::stop(self);
    }

    fn status(&self) -> Status {
        status(&self.report())
    }
}
