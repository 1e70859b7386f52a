//! [`MaEs`]: a problem paired with the strategy, run from the first generation to the
//! last by [`MaEs::run`] — the paper's single run, within its [`Limits`].

use crate::config::{Config, Parameters};
use crate::control::{Limits, RunLimits};
use crate::noise::NoiseSource;
use crate::observer::{GenerationReport, NoObserver, Observer};
use crate::record::Record;
use crate::result::RunResult;
use crate::spec::{ComponentSpec, Components, Variant};
use crate::strategy::{check_problem, single_run, Batching, Strategy};
use crate::MaEsError;
use constraint_handling::problem::{JacobianSource, ProblemShape};
use constraint_handling::ConstrainedProblem;

/// A matrix adaptation evolution strategy for one problem: the problem, the resolved
/// parameters and the components, run with [`MaEs::run`].
///
/// ```
/// use cec2017_constrained::Suite;
/// use ma_es::{control::Limits, Config, MaEs, Variant, noise::RngNoise};
///
/// let problem = Suite::synthetic(1).problem(1, 10).unwrap();
/// // The best-so-far also at 400, 2000 and 4000 evaluations (the CEC's 10/50/100 %).
/// let limits = Limits {
///     checkpoints: vec![400, 2_000, 4_000],
///     ..Limits::budget(4_000)
/// };
/// let mut es = MaEs::new(&problem, &Config::default(), &limits, Variant::EpsMagEs).unwrap();
/// let result = es.run(&mut RngNoise::seed_from_u64(42)).unwrap();
/// assert!(result.evaluations >= 4_000);
/// assert_eq!(result.checkpoints.len(), 3);
/// ```
pub struct MaEs<P: ConstrainedProblem> {
    problem: P,
    params: Parameters,
    limits: RunLimits,
    /// What each run records ([`Record`]).
    recorded: Limits,
    /// Where the repairs' Jacobians come from.
    jacobian: JacobianSource,
    /// `None` only while a run holds them (a run that panicked keeps them).
    components: Option<Components>,
}

impl<P: ConstrainedProblem> std::fmt::Debug for MaEs<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaEs")
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<P: ConstrainedProblem> MaEs<P> {
    /// A strategy of the given variant (preset) for `problem`, run within `limits`.
    ///
    /// # Errors
    /// [`MaEsError::Config`] for impossible parameters, [`MaEsError::Problem`] for a
    /// problem of dimension 0 or with invalid bounds (`lb > ub`, wrong length).
    pub fn new(
        problem: P,
        config: &Config,
        limits: &Limits,
        variant: Variant,
    ) -> Result<Self, MaEsError> {
        // The presets' components are deterministic: no seed enters them.
        Self::with_spec(problem, config, limits, &variant.spec(), 0)
    }

    /// A strategy with the components of `spec`, for the run with seed `seed` (the
    /// seed of its noise source): stochastic components derive their own random stream
    /// from it ([`Components::from_spec`]), so the same seed repeats the run.
    ///
    /// # Errors
    /// As [`MaEs::new`].
    pub fn with_spec(
        problem: P,
        config: &Config,
        limits: &Limits,
        spec: &ComponentSpec,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        let budget = limits.resolve(problem.dim())?.budget;
        let (params, components) = single_run(config, spec, problem.dim(), budget, seed)?;
        let mut es = Self::with_components(problem, params, limits, components)?;
        es.jacobian = spec.jacobian.source(es.jacobian);
        Ok(es)
    }

    /// A strategy with hand-made components (any implementations of the component
    /// traits).
    ///
    /// # Errors
    /// [`MaEsError::Problem`] if the problem does not fit `params`,
    /// [`MaEsError::Config`] for impossible limits.
    pub fn with_components(
        problem: P,
        params: Parameters,
        limits: &Limits,
        components: Components,
    ) -> Result<Self, MaEsError> {
        check_problem(&ProblemShape::of(&problem)?, &params)?;
        let dim = problem.dim();
        let jacobian = JacobianSource::of(&problem);
        Ok(Self {
            problem,
            params,
            limits: limits.resolve(dim)?,
            recorded: limits.clone(),
            jacobian,
            components: Some(components),
        })
    }

    /// The resolved parameters.
    #[must_use]
    pub fn params(&self) -> &Parameters {
        &self.params
    }

    /// The problem.
    pub fn problem(&self) -> &P {
        &self.problem
    }

    /// The components (e.g. to read the back-calculation's statistics).
    ///
    /// # Panics
    /// If a run panicked while it held them.
    pub fn components(&self) -> &Components {
        self.components
            .as_ref()
            .expect("the components are back after every run")
    }

    /// Runs until the budget or the generation limit is reached.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run(&mut self, noise: &mut dyn NoiseSource) -> Result<RunResult, MaEsError> {
        self.run_observed(noise, &mut NoObserver)
    }

    /// Runs with an observer called after the initialisation and every generation.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run_observed(
        &mut self,
        noise: &mut dyn NoiseSource,
        observer: &mut dyn Observer,
    ) -> Result<RunResult, MaEsError> {
        let mut strategy = self.strategy(noise)?;
        let mut record = Record::new(&self.recorded, self.params.dim)?;
        record.reserve(
            (self.limits.budget / self.params.lambda + 2).min(self.limits.max_generations + 2),
        );
        let outcome = strategy.run_observed(&self.problem, &mut |report: &GenerationReport<'_>| {
            let _ = record.observe(report);
            observer.observe(report)
        });
        let result = record.into_result(strategy.result());
        self.components = Some(strategy.into_components());
        outcome.map(|()| result)
    }

    /// Initialises a run (evaluates the initial population, sets `ε0` and the parent)
    /// and returns it as a [`Strategy`] to be advanced one generation at a time — for
    /// embedding the strategy in other tools, or for benchmarking single generations.
    /// The strategy takes the components; [`MaEs::run`] needs a new [`MaEs`] after it.
    ///
    /// ```
    /// use cec2017_constrained::Suite;
    /// use ma_es::{noise::RngNoise, Config, MaEs, Variant};
    /// let problem = Suite::synthetic(1).problem(3, 10).unwrap();
    /// let mut es = MaEs::new(&problem, &Config::default(), &Default::default(), Variant::EpsMagEs).unwrap();
    /// let mut strategy = es.start(RngNoise::seed_from_u64(1)).unwrap();
    /// while strategy.report().evaluations < 5_000 {
    ///     strategy.step(&problem).unwrap();
    /// }
    /// let result = strategy.result();
    /// assert!(result.evaluations >= 5_000 && result.generations > 0);
    /// ```
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn start<N: NoiseSource>(&mut self, noise: N) -> Result<Strategy<N>, MaEsError> {
        let mut strategy = self.strategy(noise)?;
        strategy.step(&self.problem)?;
        Ok(strategy)
    }

    fn strategy<N: NoiseSource>(&mut self, noise: N) -> Result<Strategy<N>, MaEsError> {
        let components = self.components.take().ok_or_else(|| {
            MaEsError::Protocol("the components went to a strategy started before".into())
        })?;
        // The reference's order of evaluations, which evaluation logs (COCO's) record.
        Ok(Strategy::with_components(
            ProblemShape::of(&self.problem)?.with_jacobian(self.jacobian),
            self.params.clone(),
            self.limits,
            components,
            noise,
        )?
        .with_batching(Batching::Offspring))
    }
}
