//! Running a [`Plan`]: with a problem evaluating every request ([`Plan::run`], the
//! solver contract's [`Driver`] over an [`AskTell`]), or as an ask-and-tell value
//! ([`Plan::ask_tell`]).

use crate::ask_tell::AskTell;
use crate::error::MaEsError;
use crate::noise::{NoiseSource, RngNoise};
use crate::plan::{Options, Plan};
use crate::result::RunResult;
use crate::spec::Components;
use crate::strategy::Batching;
use constraint_handling::ConstrainedProblem;
use emages_solver::{Driver, NoObserver, Observer};

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
    /// [`RngNoise`]: [`Driver`] over [`Plan::ask_tell`]'s run, so a problem that declares
    /// itself expensive ([`ConstrainedProblem::as_expensive`]) has each request's points
    /// evaluated on all cores, with the values, and so the run, of one thread. The
    /// result holds the whole run, its restarts included.
    ///
    /// # Errors
    /// Evaluation failures of the problem; a problem of another shape than the plan's
    /// (the error names what differs); a component that cannot be set up.
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<RunResult, MaEsError> {
        self.run_with(problem, self.noise(), &mut NoObserver)
    }

    /// [`Plan::run`] drawing from `noise`, with an observer called after every
    /// initialisation and generation of every run (it reads the run, e.g.
    /// [`AskTell::report`]; `ControlFlow::Break` ends the whole run, termination
    /// `Stopped`).
    ///
    /// # Errors
    /// As [`Plan::run`].
    pub fn run_with<P: ConstrainedProblem + ?Sized, N: NoiseSource>(
        &self,
        problem: &P,
        noise: N,
        observer: &mut dyn Observer<AskTell<N>>,
    ) -> Result<RunResult, MaEsError> {
        self.drive(problem, None, noise, observer)
    }

    fn drive<P: ConstrainedProblem + ?Sized, N: NoiseSource>(
        &self,
        problem: &P,
        components: Option<Components>,
        noise: N,
        observer: &mut dyn Observer<AskTell<N>>,
    ) -> Result<RunResult, MaEsError> {
        // The reference's order of evaluations (which logs such as COCO's record) in
        // this thread; as few requests as a generation allows where the points go to
        // other threads.
        let batching = self.batching.unwrap_or(match problem.as_expensive() {
            Some(_) => Batching::Generation,
            None => Batching::Offspring,
        });
        let mut es = AskTell::from_parts(self, components, batching, noise)?;
        Driver::new(&mut es).observe(observer).run(problem)?;
        Ok(es.result())
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
        observer: &mut dyn Observer<AskTell<N>>,
    ) -> Result<RunResult, MaEsError> {
        self.drive(problem, Some(components), noise, observer)
    }
}

impl Options {
    /// Builds the plan for `problem` and runs it ([`Options::build_for`], then
    /// [`Plan::run`]): the one call of a run.
    ///
    /// # Errors
    /// As [`Options::build`] and [`Plan::run`].
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<RunResult, MaEsError> {
        self.build_for(problem)?.run(problem)
    }
}
