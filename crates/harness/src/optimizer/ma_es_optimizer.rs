//! [`MaEsOptimizer`]: the strategy of the paper, any combination of its components,
//! behind the [`Optimizer`] seam.

use super::{Optimizer, Outcome, Task, TracePoint};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use emages_solver::NoObserver;
use ma_es::control::{Convergence, Limits};
use ma_es::noise::FastNoise;
use ma_es::{ComponentSpec, Components, Config, MaEsError, Options, Parameters, Variant};
use std::sync::Arc;

/// Where an [`MaEsOptimizer`] gets its components.
#[derive(Clone)]
pub enum MaEsComponents {
    /// Built from a spec (the paper's presets are specs): recorded as the spec's text
    /// form, e.g. `eps-mag-es` or `eps-mag-es:step-size=median-success`.
    Spec(ComponentSpec),
    /// Built by a user's function for every run, from the run's resolved parameters and
    /// its seed — any implementations of the component traits, e.g. a step-size rule of
    /// one's own, or a stochastic component seeded per run.
    Factory {
        /// The name recorded as the runs' `variant` (say what the components are).
        name: String,
        /// Builds the components of one run.
        make: ComponentFactory,
    },
}

/// A user's function that builds the strategy's components for one run
/// ([`MaEsComponents::Factory`]), from the run's resolved parameters and its seed (the
/// seed of the run's noise; a stochastic component derives its own stream from it, as
/// [`ma_es::ranking::StochasticRanking::new`] does, so the run repeats bit for bit).
pub type ComponentFactory =
    Arc<dyn Fn(&Parameters, u64) -> Result<Components, MaEsError> + Send + Sync>;

impl std::fmt::Debug for MaEsComponents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Spec(spec) => write!(f, "Spec({spec})"),
            Self::Factory { name, .. } => write!(f, "Factory({name})"),
        }
    }
}

/// The MA-ES of the paper behind the [`Optimizer`] seam: any combination of its
/// components, chosen by a [`ComponentSpec`] (the seven presets are specs) or built by
/// a user's factory, with a configuration.
///
/// ```
/// use emages_harness::optimizer::{MaEsOptimizer, Optimizer};
/// use ma_es::Variant;
/// assert_eq!(MaEsOptimizer::preset(Variant::EpsMagEsNl).kind(), "eps-mag-es-nl");
/// let msr = MaEsOptimizer::with_spec("eps-mag-es:step-size=median-success".parse().unwrap());
/// assert_eq!(msr.kind(), "eps-mag-es:step-size=median-success");
/// ```
#[derive(Clone, Debug)]
pub struct MaEsOptimizer {
    components: MaEsComponents,
    kind: String,
    /// The strategy's parameters (its constants only: the budget, the checkpoints and
    /// what is recorded come from each task — the study's budget, checkpoints and
    /// dynamics problems).
    pub config: Config,
    /// A generation limit of the optimizer's own (default `2000 N`; e.g. the CEC2020
    /// study's).
    pub max_generations: Option<usize>,
    /// Convergence criteria (default: off, so that a run goes to the budget as the
    /// suites' protocols say; a study may switch them on).
    pub convergence: Convergence,
}

impl MaEsOptimizer {
    /// A preset with the default configuration.
    #[must_use]
    pub fn preset(variant: Variant) -> Self {
        Self::with_spec(variant.spec())
    }

    /// The components of `spec`, default configuration.
    #[must_use]
    pub fn with_spec(spec: ComponentSpec) -> Self {
        Self {
            kind: spec.to_string(),
            components: MaEsComponents::Spec(spec),
            config: Config::default(),
            max_generations: None,
            convergence: Convergence::off(),
        }
    }

    /// Components built by `make` for every run from its parameters and seed, recorded
    /// under `name`; default configuration.
    ///
    /// ```
    /// use emages_harness::optimizer::{MaEsOptimizer, Optimizer};
    /// use ma_es::ranking::StochasticRanking;
    /// use ma_es::step_size::ConstantSigma;
    /// use ma_es::{Components, Variant};
    /// // εMAg-ES with σ held at σ₀, as a hand-made component.
    /// let opt = MaEsOptimizer::with_factory("eps-mag-es, σ held", |params, seed| {
    ///     let mut c = Components::from_spec(&Variant::EpsMagEs.spec(), params, seed)?;
    ///     c.step_size = Box::new(ConstantSigma);
    ///     Ok(c)
    /// });
    /// assert_eq!(opt.kind(), "eps-mag-es, σ held");
    /// // Stochastic ranking with P_f = 0.3, its coin flips seeded by the run.
    /// let sr = MaEsOptimizer::with_factory("eps-mag-es, SR 0.3", |params, seed| {
    ///     let mut c = Components::from_spec(&Variant::EpsMagEs.spec(), params, seed)?;
    ///     c.ranking = Box::new(StochasticRanking::new(0.3, seed)?);
    ///     Ok(c)
    /// });
    /// # let _ = sr;
    /// ```
    #[must_use]
    pub fn with_factory(
        name: impl Into<String>,
        make: impl Fn(&Parameters, u64) -> Result<Components, MaEsError> + Send + Sync + 'static,
    ) -> Self {
        let name = name.into();
        Self {
            kind: name.clone(),
            components: MaEsComponents::Factory {
                name,
                make: Arc::new(make),
            },
            config: Config::default(),
            max_generations: None,
            convergence: Convergence::off(),
        }
    }

    /// The same optimizer with another configuration.
    #[must_use]
    pub fn with_config(self, config: Config) -> Self {
        Self { config, ..self }
    }

    /// The same optimizer with a generation limit of its own.
    #[must_use]
    pub fn with_max_generations(self, limit: usize) -> Self {
        Self {
            max_generations: Some(limit),
            ..self
        }
    }

    /// The same optimizer, stopping runs by these convergence criteria.
    #[must_use]
    pub fn with_convergence(self, convergence: Convergence) -> Self {
        Self {
            convergence,
            ..self
        }
    }

    /// The options of one run of this optimizer: its spec (a factory's components
    /// stand on εMAg-ES's parameters), constants, convergence criteria, and `limits`.
    fn options(&self, limits: Limits, seed: u64) -> Options {
        let spec = match &self.components {
            MaEsComponents::Spec(spec) => *spec,
            MaEsComponents::Factory { .. } => Variant::EpsMagEs.spec(),
        };
        Options::new(spec)
            .config(self.config.clone())
            .limits(limits)
            .convergence(self.convergence)
            .seed(seed)
    }

    /// Where its components come from.
    #[must_use]
    pub fn components(&self) -> &MaEsComponents {
        &self.components
    }
}

impl Optimizer for MaEsOptimizer {
    fn kind(&self) -> &str {
        &self.kind
    }

    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        // The options as a run builds them, for a unit box of this dimension: the same
        // checks, before the study starts (the budget's value does not matter: the
        // spec's rules only scale with it).
        let invalid = |e: String| StudyError::Invalid(format!("{}: {e}", self.kind));
        let shape = ProblemShape::new(vec![0.0; dim], vec![1.0; dim], 0, 0)
            .map_err(|e| invalid(e.to_string()))?;
        self.options(Limits::budget(20_000 * dim.max(1)), 0)
            .build(&shape)
            .map(|_| ())
            .map_err(|e| invalid(e.to_string()))
    }

    /// Runs the strategy, with the task's checkpoints (none if it asks for none).
    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let limits = Limits {
            budget: Some(task.budget),
            max_generations: self.max_generations,
            checkpoints: task.checkpoints.to_vec(),
            record_dynamics: task.record_trace,
            ..Limits::default()
        };
        let plan = self.options(limits, task.seed).build_for(&task.problem)?;
        let components = match &self.components {
            MaEsComponents::Spec(_) => None,
            MaEsComponents::Factory { make, .. } => Some(make(plan.params(), task.seed)?),
        };
        let fast = task.fast.then(|| FastNoise::seed_from_u64(task.seed));
        let result = match (components, fast) {
            (None, None) => plan.run(&task.problem)?,
            (None, Some(noise)) => plan.run_with(&task.problem, noise, &mut NoObserver)?,
            (Some(c), None) => {
                plan.run_components(&task.problem, c, plan.noise(), &mut NoObserver)?
            }
            (Some(c), Some(noise)) => {
                plan.run_components(&task.problem, c, noise, &mut NoObserver)?
            }
        };
        Ok(Outcome {
            best: result.best.snapshot,
            checkpoints: result.checkpoints,
            evaluations: result.evaluations,
            iterations: result.generations,
            termination: result.termination.into(),
            restarts: result.restarts,
            trace: result.dynamics.map(|d| {
                d.iter()
                    .map(|r| TracePoint {
                        evaluations: r.evaluations,
                        best: r.best,
                        sigma: r.sigma,
                    })
                    .collect()
            }),
        })
    }
}
