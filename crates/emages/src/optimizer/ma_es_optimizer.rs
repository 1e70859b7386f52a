//! [`MaEsOptimizer`]: the strategy of the paper, any combination of its components,
//! behind the [`Optimizer`] seam.

use super::{Optimizer, Outcome, Task, TracePoint};
use crate::error::StudyError;
use ma_es::noise::{FastNoise, RngNoise};
use ma_es::{ComponentSpec, Components, Config, MaEs, MaEsError, Parameters, Variant};
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
/// use emages::optimizer::{MaEsOptimizer, Optimizer};
/// use ma_es::Variant;
/// assert_eq!(MaEsOptimizer::preset(Variant::EpsMagEsNl).kind(), "eps-mag-es-nl");
/// let msr = MaEsOptimizer::with_spec("eps-mag-es:step-size=median-success".parse().unwrap());
/// assert_eq!(msr.kind(), "eps-mag-es:step-size=median-success");
/// ```
#[derive(Clone, Debug)]
pub struct MaEsOptimizer {
    components: MaEsComponents,
    kind: String,
    /// The strategy's parameters. Its run-control fields — `budget`, `checkpoints`,
    /// `record_dynamics` — belong to the harness, which sets them from each task (the
    /// study's budget, checkpoints and dynamics problems); a configuration that sets
    /// them itself is refused by [`Optimizer::validate`] rather than silently
    /// overwritten. (`max_generations` stays the strategy's: a generation limit is
    /// part of its definition, e.g. the CEC2020 study's.)
    pub config: Config,
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
        }
    }

    /// Components built by `make` for every run from its parameters and seed, recorded
    /// under `name`; default configuration.
    ///
    /// ```
    /// use emages::optimizer::{MaEsOptimizer, Optimizer};
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
        }
    }

    /// The same optimizer with another configuration.
    #[must_use]
    pub fn with_config(self, config: Config) -> Self {
        Self { config, ..self }
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
        let c = &self.config;
        let mut set_twice = Vec::new();
        if let Some(b) = c.budget {
            set_twice.push(format!("budget = {b} (the study's budget_per_dim sets it)"));
        }
        if !c.checkpoints.is_empty() {
            set_twice.push(format!(
                "checkpoints = {:?} (the study's checkpoint_fractions set them)",
                c.checkpoints
            ));
        }
        if c.record_dynamics {
            set_twice
                .push("record_dynamics = true (the study's dynamics_problems set it)".to_string());
        }
        if !set_twice.is_empty() {
            return Err(StudyError::Invalid(format!(
                "{}: the configuration sets run control the study owns: {}; leave it at the default",
                self.kind,
                set_twice.join(", ")
            )));
        }
        let config = match &self.components {
            MaEsComponents::Spec(spec) => spec.configure(&self.config, dim),
            MaEsComponents::Factory { .. } => Ok(self.config.clone()),
        };
        config
            .and_then(|c| c.resolve(dim))
            .map(|_| ())
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    /// Runs the strategy, with the task's checkpoints (none if it asks for none).
    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let config = Config {
            budget: Some(task.budget),
            record_dynamics: task.record_trace,
            checkpoints: task.checkpoints.to_vec(),
            ..self.config.clone()
        };
        let mut fast;
        let mut exact;
        let noise: &mut dyn ma_es::noise::NoiseSource = if task.fast {
            fast = FastNoise::seed_from_u64(task.seed);
            &mut fast
        } else {
            exact = RngNoise::seed_from_u64(task.seed);
            &mut exact
        };
        let (result, history) = match &self.components {
            MaEsComponents::Spec(spec) => {
                ma_es::driver::run(&task.problem, &config, spec, task.seed, noise)?
            }
            MaEsComponents::Factory { make, .. } => {
                let params = config
                    .resolve(task.problem.dim())
                    .map_err(MaEsError::from)?;
                let components = make(&params, task.seed)?;
                let r = MaEs::with_components(task.problem, params, components)?.run(noise)?;
                (r, Vec::new())
            }
        };
        Ok(Outcome {
            best: result.best.snapshot,
            checkpoints: result.checkpoints,
            evaluations: result.evaluations,
            iterations: result.generations,
            termination: result.termination.into(),
            restarts: history,
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
