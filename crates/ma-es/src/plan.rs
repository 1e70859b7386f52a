//! One way in: [`Options`] say what a run is, [`Options::build`] resolves them once for
//! a problem's shape into a [`Plan`], and the plan runs — with a problem
//! ([`Plan::run`]) or by ask and tell ([`Plan::ask_tell`]) — for every
//! [`ComponentSpec`], restarts included.
//!
//! | what | where | default |
//! |---|---|---|
//! | the strategy | [`Options::new`] (a [`ComponentSpec`] or a [`Variant`]) | [`Options::recommended`]: εMAg-ES-R, `eps-mag-es-r` |
//! | the strategy's constants (λ, σ0, …) | [`Options::config`] | [`Config::default`] |
//! | budget, generation limit, checkpoints, dynamics | [`Options::limits`], [`Options::budget`] | `20000 N` evaluations |
//! | when to stop earlier | [`Options::convergence`], [`Options::to_the_end`] | on ([`Convergence::default`]) |
//! | the seed | [`Options::seed`] | 0 |
//! | how the repair's evaluations are grouped | [`Options::batching`] | see [`Options::batching`] |
//!
//! Resolving is the only place where the spec's rules (`population=log`, `eps-end`),
//! the configuration's defaults, the limits' defaults, the spec's convergence
//! overrides and its Jacobian use are applied: the plan holds the result, and the runs
//! of a restart sequence take their own `λ`, `σ0` and `T` from it, with nothing
//! resolved again. Bad options are an error of [`Options::build`], before anything
//! runs.
//!
//! ```
//! use constraint_handling::FnProblem;
//! use ma_es::Options;
//!
//! // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 on [−5, 5]²: the optimum is ½ at (½, ½).
//! let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
//!     c[0] = 1.0 - x[0] - x[1];
//!     Ok(x[0] * x[0] + x[1] * x[1])
//! })?;
//! // The recommended strategy, up to 20 000 evaluations, stopping once converged.
//! let plan = Options::recommended().budget(20_000).seed(7).build_for(&problem)?;
//! let outcome = plan.run(&problem)?;
//! let best = &outcome.best;
//! assert!(best.is_feasible() && (best.objective() - 0.5).abs() < 1e-6);
//! assert!(outcome.evaluations < 20_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::config::{Config, Parameters};
use crate::control::{Convergence, Limits, RunLimits};
use crate::error::MaEsError;
use crate::noise::{NoiseSource, RngNoise};
#[cfg(doc)]
use crate::spec::Variant;
use crate::spec::{ComponentSpec, Components, RestartKind};
use crate::strategy::{check_problem, Batching, Strategy};
use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;
use serde::{Deserialize, Serialize};

/// What a run is, apart from its problem: the strategy, its constants, the limits, the
/// convergence criteria, the seed. A builder: each method returns the changed options;
/// [`Options::build`] checks them all and resolves them for a problem.
///
/// ```
/// use ma_es::control::Limits;
/// use ma_es::{Options, Variant};
/// // The paper's εMAg-ES as a competition runs it: to the budget, with checkpoints.
/// let options = Options::new(Variant::EpsMagEs)
///     .limits(Limits { checkpoints: vec![2_000, 10_000, 20_000], ..Limits::budget(20_000) })
///     .to_the_end()
///     .seed(3);
/// assert_eq!(options.spec().to_string(), "eps-mag-es");
/// assert!(!options.convergence_criteria().is_on());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    spec: ComponentSpec,
    config: Config,
    limits: Limits,
    convergence: Convergence,
    seed: u64,
    batching: Option<Batching>,
}

impl Default for Options {
    /// [`Options::recommended`].
    fn default() -> Self {
        Self::recommended()
    }
}

impl Options {
    /// The options of a run of `spec` (a [`ComponentSpec`] or a [`Variant`]), with the
    /// default constants, limits and convergence criteria, seed 0.
    pub fn new(spec: impl Into<ComponentSpec>) -> Self {
        Self {
            spec: spec.into(),
            config: Config::default(),
            limits: Limits::default(),
            convergence: Convergence::default(),
            seed: 0,
            batching: None,
        }
    }

    /// The recommended ES for a problem of your own: εMAg-ES-R (`eps-mag-es-r`, BIPOP
    /// restarts, the stall rule, polishing; docs/strategy-design.md). With exact
    /// constraint Jacobians, `eps-mag-es-rlm` (the Levenberg–Marquardt repair) is the
    /// better choice on the CEC2020 problems; on black boxes it is not. The recommended
    /// strategy overall is the `emages` crate's portfolio (`emages::recommended()`: a
    /// local phase and this ES in rounds; Python's default), which reaches in hundreds
    /// of evaluations what the ES reaches in thousands.
    #[must_use]
    pub fn recommended() -> Self {
        Self::new(ComponentSpec::recommended())
    }

    /// The strategy's constants (λ, μ, σ0, T, …; [`Config`]).
    #[must_use]
    pub fn config(self, config: Config) -> Self {
        Self { config, ..self }
    }

    /// Budget, generation limit, checkpoints and dynamics ([`Limits`]).
    #[must_use]
    pub fn limits(self, limits: Limits) -> Self {
        Self { limits, ..self }
    }

    /// The evaluation budget (the other limits unchanged).
    #[must_use]
    pub fn budget(mut self, budget: usize) -> Self {
        self.limits.budget = Some(budget);
        self
    }

    /// When a run stops before its budget ([`Convergence`]; the spec's own overrides,
    /// e.g. `tol-fun=1e-12`, apply on top).
    #[must_use]
    pub fn convergence(self, convergence: Convergence) -> Self {
        Self {
            convergence,
            ..self
        }
    }

    /// No convergence criterion: the run goes to its budget or generation limit (the
    /// suites' protocols). The spec's own overrides still apply.
    #[must_use]
    pub fn to_the_end(self) -> Self {
        self.convergence(Convergence::off())
    }

    /// The seed: of the noise source [`Plan::run`] and [`Plan::ask_tell`] make, of the
    /// stochastic components and of BIPOP's draws. The same seed repeats the run bit for
    /// bit.
    #[must_use]
    pub fn seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// How the repair's evaluations are grouped into requests. The values, and so the
    /// run, are the same either way; only the order and grouping of the evaluations
    /// differ. Unset: [`Batching::Offspring`] (the reference's order, which evaluation
    /// logs such as COCO's record) when [`Plan::run`] evaluates a problem in this
    /// thread, and [`Batching::Generation`] (as few requests as a generation allows)
    /// when the points go elsewhere: an ask-and-tell caller, or an expensive problem
    /// evaluated on all cores ([`ConstrainedProblem::as_expensive`]).
    #[must_use]
    pub fn batching(self, batching: Batching) -> Self {
        Self {
            batching: Some(batching),
            ..self
        }
    }

    /// The strategy.
    #[must_use]
    pub fn spec(&self) -> &ComponentSpec {
        &self.spec
    }

    /// The strategy's constants.
    #[must_use]
    pub fn constants(&self) -> &Config {
        &self.config
    }

    /// The limits, unresolved.
    #[must_use]
    pub fn run_limits(&self) -> &Limits {
        &self.limits
    }

    /// The convergence criteria, without the spec's overrides.
    #[must_use]
    pub fn convergence_criteria(&self) -> Convergence {
        self.convergence
    }

    /// The seed.
    #[must_use]
    pub fn seed_value(&self) -> u64 {
        self.seed
    }

    /// Checks the options and resolves them for a problem of this shape.
    ///
    /// # Errors
    /// [`MaEsError::Config`] for impossible constants, limits or criteria;
    /// [`MaEsError::Problem`] for a shape the strategy cannot run on (dimension 0,
    /// `lb > ub`, an unbounded box without [`Config::initial_mean`]).
    pub fn build(&self, shape: &ProblemShape) -> Result<Plan, MaEsError> {
        let dim = shape.dim();
        let limits = self.limits.resolve(dim)?;
        let convergence = self.spec.convergence.apply(self.convergence);
        convergence.validate()?;
        let config = self.spec.configure(&self.config, dim, limits.budget);
        let params = config.resolve(dim)?;
        let shape = shape
            .clone()
            .with_jacobian(self.spec.jacobian.source(shape.jacobian));
        check_problem(&shape, &params)?;
        Ok(Plan {
            spec: self.spec,
            shape,
            config,
            params,
            limits,
            recorded: self.limits.clone(),
            convergence,
            seed: self.seed,
            batching: self.batching,
        })
    }

    /// [`Options::build`] for this problem's shape (and the Jacobian it offers).
    ///
    /// # Errors
    /// As [`Options::build`].
    pub fn build_for<P: ConstrainedProblem + ?Sized>(
        &self,
        problem: &P,
    ) -> Result<Plan, MaEsError> {
        self.build(&ProblemShape::of(problem)?)
    }
}

/// [`Options`] resolved for a problem's shape, once: what every run of them starts
/// from. Run it with a problem ([`Plan::run`]), or by ask and tell
/// ([`Plan::ask_tell`]); a single-run spec also as a bare [`Strategy`]
/// ([`Plan::strategy`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub(crate) spec: ComponentSpec,
    pub(crate) shape: ProblemShape,
    /// The constants with the spec's parameter rules applied (restarts derive theirs
    /// from it).
    pub(crate) config: Config,
    /// `config` resolved: the first run's parameters.
    pub(crate) params: Parameters,
    pub(crate) limits: RunLimits,
    /// What is recorded (checkpoints, dynamics).
    pub(crate) recorded: Limits,
    /// The criteria with the spec's overrides applied.
    pub(crate) convergence: Convergence,
    pub(crate) seed: u64,
    pub(crate) batching: Option<Batching>,
}

impl Plan {
    /// The strategy.
    #[must_use]
    pub fn spec(&self) -> &ComponentSpec {
        &self.spec
    }

    /// The problem's shape, with the Jacobian source the spec chose.
    #[must_use]
    pub fn shape(&self) -> &ProblemShape {
        &self.shape
    }

    /// The constants with the spec's rules applied.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The resolved parameters of the (first) run.
    #[must_use]
    pub fn params(&self) -> &Parameters {
        &self.params
    }

    /// The resolved limits of the whole run.
    #[must_use]
    pub fn limits(&self) -> RunLimits {
        self.limits
    }

    /// What is recorded: checkpoints and dynamics.
    #[must_use]
    pub fn recorded(&self) -> &Limits {
        &self.recorded
    }

    /// The convergence criteria in force (the spec's overrides applied).
    #[must_use]
    pub fn convergence(&self) -> Convergence {
        self.convergence
    }

    /// The seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether the spec runs a restart sequence.
    #[must_use]
    pub fn has_restarts(&self) -> bool {
        self.spec.restart.kind != RestartKind::Off
    }

    /// The noise source of the seed ([`RngNoise`]).
    #[must_use]
    pub fn noise(&self) -> RngNoise {
        RngNoise::seed_from_u64(self.seed)
    }

    /// A single run's [`Strategy`] (the run without its driver: no convergence
    /// criteria, no record), drawing from `noise` — for embedding the loop in other
    /// tools or timing single generations.
    ///
    /// # Errors
    /// [`MaEsError::Config`] for a spec with restarts (they are [`crate::ask_tell::AskTell`]'s), or a
    /// component that cannot be set up.
    pub fn strategy<N: NoiseSource>(&self, noise: N) -> Result<Strategy<N>, MaEsError> {
        if self.has_restarts() {
            return Err(crate::config::ConfigError::Invalid {
                name: "restarts",
                value: self.spec.to_string(),
                expected: "a single run here: a spec with restarts runs through Plan::run or Plan::ask_tell",
            }
            .into());
        }
        let components = Components::from_spec(&self.spec, &self.params, self.seed)?;
        Ok(Strategy::with_components(
            self.shape.clone(),
            self.params.clone(),
            self.limits,
            components,
            noise,
        )?
        .with_batching(self.batching.unwrap_or(Batching::Offspring)))
    }
}
