//! The definitions behind [`crate::variant`] and the root's [`crate::ComponentSpec`],
//! [`crate::Components`] and [`crate::Variant`].

use crate::adaptation::{FrozenMatrix, MaUpdate, MatrixAdaptation};
use crate::back_calculation::{
    BackCalculation, IdentityBackCalculation, NoBackCalculation, PseudoInverseBackCalculation,
};
use crate::config::{Config, Parameters};
use crate::control::Convergence;
use crate::error::MaEsError;
use crate::ranking::{
    AugmentedLagrangianRanking, ByConstraintKindRanking, EpsilonLevelRanking, ObjectiveRanking,
    PopulationRanking, StochasticRanking, STOCHASTIC_RANKING_P_F,
};
use crate::repair::{LevenbergMarquardtRepair, LmSettings, NoRepair, PeriodicRepair, Repair};
use crate::step_size::{
    CappedSigma, ConstantSigma, Csa, MedianSuccessRule, SigmaCap, StepSizeRule, UncappedSigma,
};
use constraint_handling::epsilon::{EpsilonDecay, EpsilonSchedule, ZeroEpsilon};
use constraint_handling::levenberg_marquardt::{Scaling, Solve};
use constraint_handling::problem::JacobianSource;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

mod kinds;
mod presets;
mod text;

pub use kinds::*;
pub use presets::{Variant, STRATEGIES};
pub use text::{spec_keys_markdown, SpecError, SpecKey, UnknownVariant, SPEC_KEYS};

/// A strategy as data, by concern: the loop's components ([`ComponentChoice`]), the
/// restart plan around it ([`RestartPlan`]), where the ε schedule ends, the
/// convergence criteria it sets, and which constraint Jacobian its repairs take. The
/// presets and the strategies are specs; a user composes others.
///
/// ```
/// use ma_es::{ComponentSpec, Variant};
/// use ma_es::variant::{BackCalculationKind, ComponentChoice, OrderingKind, StepSizeKind};
/// // εMAg-ES without repair and without σ cap (not one of the paper's seven):
/// let base = Variant::EpsMagEs.spec();
/// let spec = ComponentSpec {
///     components: ComponentChoice { repair: false, sigma_cap: false, ..base.components },
///     ..base
/// };
/// assert_eq!(spec.components.back_calculation, BackCalculationKind::PseudoInverse);
/// assert_eq!(spec.components.ordering, OrderingKind::EpsilonLevel);
/// // Its text form names what differs from εMAg-ES, and parses back:
/// assert_eq!(spec.to_string(), "eps-mag-es:repair=off:sigma-cap=off");
/// assert_eq!("eps-mag-es:repair=off:sigma-cap=off".parse::<ComponentSpec>().unwrap(), spec);
/// // A preset's text form is its name; εMAg-ES is the default spec.
/// let msr: ComponentSpec = "eps-mag-es:step-size=median-success".parse().unwrap();
/// assert_eq!(msr.components.step_size, StepSizeKind::MedianSuccess);
/// assert_eq!(Variant::LexMaEs.spec().to_string(), "lex-ma-es");
/// assert_eq!(Variant::LexMaEs.spec().preset(), Some(Variant::LexMaEs));
/// assert_eq!(ComponentSpec::default(), Variant::EpsMagEs.spec());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ComponentSpec {
    /// The loop's components and its population rule.
    #[serde(flatten)]
    pub components: ComponentChoice,
    /// The restart plan around the loop (none by default).
    #[serde(flatten)]
    pub restart: RestartPlan,
    /// Where the ε schedule ends (the configuration's `t_max` when absent from a
    /// serialised spec).
    #[serde(default)]
    pub epsilon_end: EpsilonEnd,
    /// Convergence criteria set by the spec, over the driver's (none when absent
    /// from a serialised spec: the driver's criteria, [`crate::control`]).
    #[serde(default, skip_serializing_if = "ConvergenceOverrides::is_empty")]
    pub convergence: ConvergenceOverrides,
    /// Which constraint Jacobian the repairs take (the problem's where offered when
    /// absent from a serialised spec).
    #[serde(default, skip_serializing_if = "is_default")]
    pub jacobian: JacobianUse,
}

/// The loop's components (docs/algorithm.md §5) and its population rule: the paper's
/// εMAg-ES by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ComponentChoice {
    /// Periodic repair (by [`Self::repair_method`]).
    pub repair: bool,
    /// How the repair repairs (the gradient repair when absent from a serialised spec).
    #[serde(default, skip_serializing_if = "is_default")]
    pub repair_method: RepairMethod,
    /// The Levenberg–Marquardt repair's settings (SASS's when absent).
    #[serde(default, skip_serializing_if = "is_default")]
    pub lm: LmSettings,
    /// The back-calculation.
    pub back_calculation: BackCalculationKind,
    /// `σ ≤ σ_max`.
    pub sigma_cap: bool,
    /// Adapt `M` (else `M` stays `I`).
    pub matrix_adaptation: bool,
    /// The ordering's threshold schedule.
    pub ordering: OrderingKind,
    /// The step-size rule (CSA when absent from a serialised spec).
    #[serde(default)]
    pub step_size: StepSizeKind,
    /// The population ranking (ε-level when absent from a serialised spec).
    #[serde(default)]
    pub ranking: RankingKind,
    /// The default `λ` (the paper's `4N` when absent from a serialised spec).
    #[serde(default)]
    pub population: PopulationKind,
}

impl Default for ComponentChoice {
    /// The paper's εMAg-ES: every component.
    fn default() -> Self {
        Self {
            repair: true,
            repair_method: RepairMethod::Gradient,
            lm: LmSettings::default(),
            back_calculation: BackCalculationKind::PseudoInverse,
            sigma_cap: true,
            matrix_adaptation: true,
            ordering: OrderingKind::EpsilonLevel,
            step_size: StepSizeKind::Csa,
            ranking: RankingKind::EpsilonLevel,
            population: PopulationKind::Paper,
        }
    }
}

/// The restart plan around the loop ([`crate::restarts`]): none by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RestartPlan {
    /// Restarts (none when absent from a serialised spec).
    #[serde(default, rename = "restarts")]
    pub kind: RestartKind,
    /// When a restart sequence's run counts as stalled (stagnation when absent from a
    /// serialised spec; no effect without restarts).
    #[serde(default)]
    pub stall: StallKind,
    /// The final phase of a restart sequence (none when absent from a serialised spec;
    /// no effect without restarts).
    #[serde(default)]
    pub polish: Polish,
    /// The ranking of a restart sequence's first run, if not the components' (theirs
    /// when absent from a serialised spec; no effect without restarts): e.g. the
    /// augmented Lagrangian opens, and the ε-level order ranks the restarts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<RankingKind>,
}

/// Convergence criteria a [`ComponentSpec`] sets (`tol-fun=1e-8`, …): each `Some`
/// replaces the driver's value of that criterion ([`Convergence`]), so a study whose
/// runs go to the budget can stop them, and `minimize`'s defaults can be changed in
/// the variant string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConvergenceOverrides {
    /// [`Convergence::tol_fun`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tol_fun: Option<SpecNumber>,
    /// [`Convergence::tol_x`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tol_x: Option<SpecNumber>,
    /// [`Convergence::target`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<SpecNumber>,
    /// [`Convergence::stagnation`] (`Some(0)`: off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stagnation: Option<usize>,
}

impl ConvergenceOverrides {
    /// No criterion set.
    pub const NONE: Self = Self {
        tol_fun: None,
        tol_x: None,
        target: None,
        stagnation: None,
    };

    /// Whether none is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }

    /// The driver's criteria `base` with these set over them.
    #[must_use]
    pub fn apply(&self, base: Convergence) -> Convergence {
        Convergence {
            tol_fun: self.tol_fun.map_or(base.tol_fun, |v| v.0),
            tol_x: self.tol_x.map_or(base.tol_x, |v| v.0),
            target: self.target.map_or(base.target, |v| Some(v.0)),
            stagnation: self.stagnation.or(base.stagnation),
        }
    }
}

/// A number in a [`ComponentSpec`] (a tolerance, a target), compared and hashed by its
/// bits so that specs stay `Eq` and `Hash`; printed as it parses back.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SpecNumber(pub f64);

impl PartialEq for SpecNumber {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for SpecNumber {}

impl std::hash::Hash for SpecNumber {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl fmt::Display for SpecNumber {
    /// The shortest text that parses back to the same number: `1e-11`, `-43.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v == 0.0 || (1e-4..1e6).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

/// Whether `value` is its type's default (serde: left out of a serialised spec).
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl From<Variant> for ComponentSpec {
    fn from(variant: Variant) -> Self {
        variant.spec()
    }
}

impl ComponentSpec {
    /// The strategy recommended for a problem of your own: εMAg-ES-R
    /// (`eps-mag-es-r`, [`STRATEGIES`]), `minimize`'s default in Python.
    ///
    /// ```
    /// use ma_es::ComponentSpec;
    /// assert_eq!(ComponentSpec::recommended().to_string(), ma_es::variant::STRATEGIES[0].2);
    /// ```
    #[must_use]
    pub fn recommended() -> Self {
        STRATEGIES[0]
            .2
            .parse()
            .expect("the recommended strategy's spec parses")
    }

    /// The preset with exactly these components, if any.
    #[must_use]
    pub fn preset(&self) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.spec() == *self)
    }

    /// The configuration this spec runs with in dimension `dim` on `budget`
    /// evaluations: `config` with the spec's parameter rules applied.
    /// - `population=log` sets `λ = 4 + ⌊3 ln N⌋` unless `config.lambda` is set.
    /// - `eps-end=p%` sets `t_max = max(1, round(p / 100 · B / λ))`, with `B` the
    ///   budget and `λ` as resolved (the configuration's `t_max` is replaced).
    ///
    /// ```
    /// use ma_es::{ComponentSpec, Config};
    /// let spec: ComponentSpec = "eps-mag-es:population=log:eps-end=5%".parse().unwrap();
    /// let c = spec.configure(&Config::default(), 10, 200_000);
    /// assert_eq!(c.lambda, Some(10)); // 4 + ⌊3 ln 10⌋
    /// assert_eq!(c.t_max, 1000); // 5 % of 200 000 / 10 generations
    /// // An explicit λ wins over the rule; the share follows it.
    /// let c = spec.configure(&Config { lambda: Some(40), ..Config::default() }, 10, 200_000);
    /// assert_eq!((c.lambda, c.t_max), (Some(40), 250));
    /// ```
    ///
    /// Nothing is resolved or checked here: [`Config::resolve`] does that, once, when
    /// the options are built ([`crate::Options::build`]).
    #[must_use]
    pub fn configure(&self, config: &Config, dim: usize, budget: usize) -> Config {
        let mut c = config.clone();
        if self.components.population == PopulationKind::Log && c.lambda.is_none() {
            c.lambda = Some(4 + (3.0 * (dim.max(1) as f64).ln()).floor() as usize);
        }
        if let EpsilonEnd::Share(p) = self.epsilon_end {
            let generations = budget as f64 / c.lambda_for(dim).max(1) as f64;
            c.t_max = ((f64::from(p) / 100.0 * generations).round() as usize).max(1);
        }
        c
    }
}

/// The component objects of a strategy.
pub struct Components {
    /// Step 3.3.
    pub repair: Box<dyn Repair>,
    /// Step 3.4.
    pub back_calculation: Box<dyn BackCalculation>,
    /// Step 9.
    pub sigma_cap: Box<dyn SigmaCap>,
    /// Steps 7–8.
    pub adaptation: Box<dyn MatrixAdaptation>,
    /// The threshold schedule of the ε-level order (steps 4 and 12).
    pub schedule: Box<dyn EpsilonSchedule + Send>,
    /// Step 9 before the cap: the step-size rule (CSA in every preset).
    pub step_size: Box<dyn StepSizeRule>,
    /// Step 4: how the offspring are ranked given the current threshold (the ε-level
    /// order in every preset; the lexicographic variants get ε = 0 from their schedule).
    pub ranking: Box<dyn PopulationRanking>,
}

impl fmt::Debug for Components {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Components").finish_non_exhaustive()
    }
}

impl Components {
    /// Builds the components of `spec` for the resolved parameters, for the run with
    /// seed `seed`: a stochastic component (`ranking=stochastic`) draws from a stream
    /// of its own derived from it, so the same seed repeats a run bit for bit; the
    /// deterministic components ignore it.
    ///
    /// # Errors
    /// [`MaEsError`] if a component cannot be set up (invalid repair or schedule
    /// parameters, LAPACK workspace failure).
    pub fn from_spec(
        spec: &ComponentSpec,
        params: &Parameters,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        Self::with_ranking(spec, spec.components.ranking, params, seed)
    }

    /// As [`Components::from_spec`], ranking by `ranking` in place of the spec's (a
    /// restart sequence's first run ranks by its `opening`).
    ///
    /// # Errors
    /// As [`Components::from_spec`].
    pub fn with_ranking(
        spec: &ComponentSpec,
        ranking: RankingKind,
        params: &Parameters,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        let (n, mu) = (params.dim, params.mu);
        let repair: Box<dyn Repair> =
            match (spec.components.repair, spec.components.repair_method) {
                (false, _) => Box::new(NoRepair),
                (true, RepairMethod::Gradient) => Box::new(PeriodicRepair::new(
                    params.theta_p,
                    params.theta_r,
                    params.repair,
                )?),
                (true, RepairMethod::LevenbergMarquardt) => Box::new(
                    LevenbergMarquardtRepair::new(spec.components.lm, params.repair.eta)?,
                ),
            };
        let back_calculation: Box<dyn BackCalculation> = match spec.components.back_calculation {
            BackCalculationKind::Off => Box::new(NoBackCalculation),
            BackCalculationKind::Identity => Box::new(IdentityBackCalculation),
            BackCalculationKind::PseudoInverse => Box::new(PseudoInverseBackCalculation::new(
                n,
                mu,
                params.back_calculation,
                params.repair.pinv_tolerance,
            )?),
        };
        let sigma_cap: Box<dyn SigmaCap> = if spec.components.sigma_cap {
            Box::new(CappedSigma {
                sigma_max: params.sigma_max,
            })
        } else {
            Box::new(UncappedSigma)
        };
        let adaptation: Box<dyn MatrixAdaptation> = if spec.components.matrix_adaptation {
            Box::new(MaUpdate::new(n, mu))
        } else {
            Box::new(FrozenMatrix)
        };
        let schedule: Box<dyn EpsilonSchedule + Send> = match spec.components.ordering {
            OrderingKind::EpsilonLevel => Box::new(EpsilonDecay::new(params.epsilon)?),
            OrderingKind::Lexicographic => Box::new(ZeroEpsilon),
        };
        Ok(Self {
            repair,
            back_calculation,
            sigma_cap,
            adaptation,
            schedule,
            step_size: match spec.components.step_size {
                StepSizeKind::Csa => Box::new(Csa),
                StepSizeKind::MedianSuccess => Box::new(MedianSuccessRule::default()),
                StepSizeKind::Constant => Box::new(ConstantSigma),
            },
            ranking: match ranking {
                RankingKind::EpsilonLevel => Box::new(EpsilonLevelRanking::default()),
                RankingKind::Objective => Box::new(ObjectiveRanking::default()),
                RankingKind::Stochastic => {
                    Box::new(StochasticRanking::new(STOCHASTIC_RANKING_P_F, seed)?)
                }
                RankingKind::AugmentedLagrangian => Box::new(AugmentedLagrangianRanking::new(n)),
                RankingKind::ByConstraintKind => Box::new(ByConstraintKindRanking::new(n)),
            },
        })
    }
}
