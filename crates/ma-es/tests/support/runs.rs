//! Runs through the one way in ([`Options`] → [`Plan`]) in the shapes the tests use:
//! a problem with a spec, constants and limits, to the budget or with convergence
//! criteria, and a noise source of the test's own (`#[path]`-included).
#![allow(dead_code)] // each includer uses a part

use constraint_handling::ConstrainedProblem;
use emages_solver::NoObserver;
use ma_es::ask_tell::reports;
use ma_es::control::{Convergence, Limits};
use ma_es::noise::NoiseSource;
use ma_es::observer::GenerationReport;
use ma_es::restarts::RestartRecord;
use ma_es::{ComponentSpec, Config, MaEsError, Options, Plan, RunResult};
use std::ops::ControlFlow;

/// A problem with its plan: the spec, the constants and the limits, to the budget.
pub struct Single<P> {
    pub problem: P,
    pub plan: Plan,
}

/// `spec` on `problem` with `config` and `limits`, to the budget (no convergence
/// criterion), seed 0 for its stochastic components (the noise is the caller's).
pub fn single<P: ConstrainedProblem>(
    problem: P,
    config: &Config,
    limits: &Limits,
    spec: impl Into<ComponentSpec>,
) -> Result<Single<P>, MaEsError> {
    with_seed(problem, config, limits, spec, 0)
}

fn with_seed<P: ConstrainedProblem>(
    problem: P,
    config: &Config,
    limits: &Limits,
    spec: impl Into<ComponentSpec>,
    seed: u64,
) -> Result<Single<P>, MaEsError> {
    let plan = Options::new(spec)
        .config(config.clone())
        .limits(limits.clone())
        .to_the_end()
        .seed(seed)
        .build_for(&problem)?;
    Ok(Single { problem, plan })
}

impl<P> std::fmt::Debug for Single<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Single")
            .field("plan", &self.plan)
            .finish_non_exhaustive()
    }
}

impl<P: ConstrainedProblem> Single<P> {
    /// Runs to the end, drawing from `noise`.
    pub fn run(&mut self, noise: &mut dyn NoiseSource) -> Result<RunResult, MaEsError> {
        self.run_observed(noise, &mut |_| ControlFlow::Continue(()))
    }

    /// Runs to the end, drawing from `noise`, with an observer of its generation
    /// reports.
    pub fn run_observed(
        &mut self,
        noise: &mut dyn NoiseSource,
        observer: &mut dyn FnMut(&GenerationReport<'_>) -> ControlFlow<()>,
    ) -> Result<RunResult, MaEsError> {
        self.plan
            .run_with(&self.problem, noise, &mut reports(observer))
    }
}

/// [`single`] with a spec by reference.
pub fn single_spec<P: ConstrainedProblem>(
    problem: P,
    config: &Config,
    limits: &Limits,
    spec: &ComponentSpec,
    seed: u64,
) -> Result<Single<P>, MaEsError> {
    with_seed(problem, config, limits, *spec, seed)
}

/// The limits and the convergence criteria of a run.
#[derive(Clone, Debug, Default)]
pub struct Control {
    pub limits: Limits,
    pub convergence: Convergence,
}

impl Control {
    /// These limits, the criteria on.
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            convergence: Convergence::default(),
        }
    }

    /// These limits, to the end.
    pub fn to_the_end(limits: Limits) -> Self {
        Self {
            limits,
            convergence: Convergence::off(),
        }
    }

    /// The options of `spec` under this control, seed `seed`.
    pub fn options(&self, spec: &ComponentSpec, config: &Config, seed: u64) -> Options {
        Options::new(*spec)
            .config(config.clone())
            .limits(self.limits.clone())
            .convergence(self.convergence)
            .seed(seed)
    }
}

/// Everything `spec` runs (restarts included) on `problem` under `control`, seed
/// `seed`, drawing from `noise`: the result and the restarts.
pub fn drive<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    config: &Config,
    control: &Control,
    spec: &ComponentSpec,
    seed: u64,
    noise: &mut dyn NoiseSource,
) -> Result<(RunResult, Vec<RestartRecord>), MaEsError> {
    let result = control
        .options(spec, config, seed)
        .build_for(problem)?
        .run_with(problem, noise, &mut NoObserver)?;
    let restarts = result.restarts.clone();
    Ok((result, restarts))
}
