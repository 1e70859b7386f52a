//! Running a [`Plan`]: with a problem evaluating every request ([`Plan::run`]), or as
//! an ask-and-tell value ([`Plan::ask_tell`]); the finished run is an [`Outcome`].

use crate::ask_tell::AskTell;
use crate::error::MaEsError;
use crate::noise::{NoiseSource, RngNoise};
use crate::observer::{NoObserver, Observer};
use crate::plan::{Options, Plan};
use crate::restarts::RestartRecord;
use crate::result::RunResult;
use crate::spec::Components;
use crate::strategy::Batching;
use constraint_handling::parallel::Parallel;
use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;

/// A finished run: its result over the whole run, and the runs of its restart
/// sequence (empty without restarts).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The result, merged over the runs, in the counts of the whole run.
    pub result: RunResult,
    /// The runs of the restart sequence.
    pub restarts: Vec<RestartRecord>,
}

impl Plan {
    /// The run as an ask-and-tell value, drawing from the seed's [`RngNoise`]
    /// ([`crate::ask_tell`]).
    ///
    /// # Errors
    /// [`MaEsError`] if a component cannot be set up.
    pub fn ask_tell(&self) -> Result<AskTell<RngNoise>, MaEsError> {
        self.ask_tell_with(self.noise())
    }

    /// As [`Plan::ask_tell`], drawing from `noise` (a [`crate::noise::FastNoise`], a
    /// [`crate::noise::ReplayNoise`], …).
    ///
    /// # Errors
    /// As [`Plan::ask_tell`].
    pub fn ask_tell_with<N: NoiseSource>(&self, noise: N) -> Result<AskTell<N>, MaEsError> {
        AskTell::from_plan(self, self.batching.unwrap_or(Batching::Generation), noise)
    }

    /// Runs to the end with `problem` evaluating every request, drawing from the seed's
    /// [`RngNoise`]. A problem that declares itself expensive
    /// ([`ConstrainedProblem::as_expensive`]) has each request's points evaluated on all
    /// cores ([`Parallel`]), with the values, and so the run, of one thread.
    ///
    /// # Errors
    /// Evaluation failures of the problem, or a component that cannot be set up.
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<Outcome, MaEsError> {
        self.run_with(problem, self.noise(), &mut NoObserver)
    }

    /// [`Plan::run`] drawing from `noise`, with an observer called after every
    /// initialisation and generation of every run (its
    /// [`crate::observer::GenerationReport`] counts from the current run's start;
    /// `ControlFlow::Break` ends the whole run, termination `Observer`).
    ///
    /// # Errors
    /// As [`Plan::run`].
    pub fn run_with<P: ConstrainedProblem + ?Sized, N: NoiseSource>(
        &self,
        problem: &P,
        noise: N,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, MaEsError> {
        self.drive(problem, None, noise, observer)
    }

    fn drive<P: ConstrainedProblem + ?Sized, N: NoiseSource>(
        &self,
        problem: &P,
        components: Option<Components>,
        noise: N,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, MaEsError> {
        if ProblemShape::of(problem)?.with_jacobian(self.shape.jacobian) != self.shape {
            return Err(MaEsError::Protocol(
                "the problem's bounds or constraint counts are not those the plan was built for"
                    .into(),
            ));
        }
        let expensive = problem.as_expensive();
        let batching = self.batching.unwrap_or(match expensive {
            Some(_) => Batching::Generation,
            None => Batching::Offspring,
        });
        let mut es = AskTell::from_parts(self, components, batching, noise)?;
        let result = match expensive {
            Some(p) => es.run_observed(&Parallel::on_all_cores(p), observer)?,
            None => es.run_observed(problem, observer)?,
        };
        Ok(Outcome {
            result,
            restarts: es.restarts().to_vec(),
        })
    }

    /// [`Plan::run_with`] for a single run with hand-made `components` (any
    /// implementations of the component traits, built for [`Plan::params`]) in place
    /// of the spec's; the spec's restarts must be off.
    ///
    /// # Errors
    /// [`MaEsError::Protocol`] for a spec with restarts; as [`Plan::run`].
    pub fn run_components<P: ConstrainedProblem + ?Sized, N: NoiseSource>(
        &self,
        problem: &P,
        components: Components,
        noise: N,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, MaEsError> {
        self.drive(problem, Some(components), noise, observer)
    }
}

impl Options {
    /// Builds the plan for `problem` and runs it ([`Options::build_for`], then
    /// [`Plan::run`]): the one call of a run.
    ///
    /// # Errors
    /// As [`Options::build`] and [`Plan::run`].
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<Outcome, MaEsError> {
        self.build_for(problem)?.run(problem)
    }
}
