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

/// Which back-calculation a strategy uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackCalculationKind {
    /// `d`, `z` stay as sampled.
    Off,
    /// `z = M⁺ d`.
    PseudoInverse,
    /// `z = d` (for a strategy whose `M` stays `I`).
    Identity,
}

/// Which ordering a strategy ranks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderingKind {
    /// The ε-level order with the ε schedule.
    EpsilonLevel,
    /// The lexicographic order (ε ≡ 0).
    Lexicographic,
}

/// Which step-size rule adapts σ (step 9, before the cap; [`crate::step_size`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepSizeKind {
    /// Cumulative step-size adaptation ([`Csa`]), the reference's.
    #[default]
    Csa,
    /// The median success rule ([`MedianSuccessRule`]).
    MedianSuccess,
    /// σ stays σ₀ ([`ConstantSigma`]).
    Constant,
}

/// How the offspring are ranked given the threshold (step 4; [`crate::ranking`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankingKind {
    /// The ε-level order with the schedule's threshold ([`EpsilonLevelRanking`]; with
    /// the lexicographic schedule, ε = 0).
    #[default]
    EpsilonLevel,
    /// By the objective alone, constraints ignored ([`ObjectiveRanking`]): the
    /// unconstrained MA-ES's selection, a baseline for what the constraint handling of
    /// the ranking contributes.
    Objective,
    /// Runarsson & Yao's stochastic ranking with `P_f = 0.45` ([`StochasticRanking`]),
    /// its coin flips seeded from the run's seed.
    Stochastic,
    /// An augmented Lagrangian with adaptive multipliers and penalty factors
    /// ([`AugmentedLagrangianRanking`]; Atamna et al. 2017, pycma's behaviour); the ε
    /// threshold plays no part.
    AugmentedLagrangian,
    /// The ε-level order on a problem with equality constraints, the augmented
    /// Lagrangian on one with inequalities only ([`ByConstraintKindRanking`]).
    ByConstraintKind,
}

/// Whether the run restarts when it stalls ([`crate::restarts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestartKind {
    /// One run (the reference).
    #[default]
    Off,
    /// IPOP: after a stall, again with the population doubled, on the budget left.
    Ipop,
    /// BIPOP: restarts alternate between IPOP's growing population and small
    /// populations with small initial steps, whichever regime has used fewer
    /// evaluations so far.
    Bipop,
}

/// When a run of a restart sequence counts as stalled ([`crate::restarts::Stall`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StallKind {
    /// No improvement at all of the best-so-far for `100 + ⌈100 N^{3/2} / λ⌉`
    /// generations once ε = 0, or σ below `10⁻¹² σ₀`.
    #[default]
    Stagnation,
    /// As `Stagnation`, or, once ε = 0, the best-so-far `f` has changed by less than
    /// `10⁻¹¹` over the last `10 + ⌈30 N / λ⌉` generations (pycma's `tolfun`).
    #[serde(rename = "tolfun", alias = "tol-fun")]
    TolFun,
    /// As `Stagnation`, or, once ε = 0, the range of the offspring's `f` this
    /// generation and of the generations' lowest `f` over the last
    /// `10 + ⌈30 N / λ⌉` generations is below `10⁻¹²` of the lowest `|f|` (pycma's
    /// `tolfun` on the population, relative: a run converging to `f = 0` polishes on).
    Range,
    /// As `Range`, and the stagnation window counts the population's progress too: once
    /// ε = 0, a generation whose median offspring — by `ν̄`, then `f` — is better than
    /// the median of every earlier generation since ε reached 0 restarts the window, as
    /// an improvement of the best-so-far does. A population that converges onto an
    /// equality constraint while the best-so-far stays fixed keeps its run (design log,
    /// entry 16).
    Progress,
}

/// The default population size `λ` when the configuration leaves it open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PopulationKind {
    /// `λ = 4N`, the reference's (REFERENCE.md §5).
    #[default]
    Paper,
    /// `λ = 4 + ⌊3 ln N⌋`, CMA-ES's default (Hansen 2016): fewer evaluations per
    /// generation, so more generations to learn `M` in.
    Log,
}

/// Where the ε schedule ends (the generation `T` from which ε = 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EpsilonEnd {
    /// The configuration's `t_max` (the paper's 1000).
    #[default]
    TMax,
    /// At this percentage (1–100) of the generations the budget allows:
    /// `T = max(1, round(p / 100 · budget / λ))`, replacing the configuration's `t_max`.
    Share(u8),
}

/// How offspring are repaired when the repair is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairMethod {
    /// The paper's gradient repair ([`PeriodicRepair`]).
    #[default]
    Gradient,
    /// The Levenberg–Marquardt repair on the slack system
    /// ([`crate::repair::LevenbergMarquardtRepair`], settings [`crate::repair::LmSettings`]).
    LevenbergMarquardt,
}

/// Which constraint Jacobian the repairs take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JacobianUse {
    /// The problem's own where it offers one
    /// ([`constraint_handling::ConstrainedProblem::constraint_jacobian`]), forward
    /// differences elsewhere.
    #[default]
    Offered,
    /// Forward differences always: the problem is a black box, whatever it offers.
    Differences,
}

impl JacobianUse {
    /// The source the repairs take on a problem that offers `offered`.
    #[must_use]
    pub fn source(self, offered: JacobianSource) -> JacobianSource {
        match self {
            Self::Offered => offered,
            Self::Differences => JacobianSource::Differences,
        }
    }
}

/// The final phase of a restart sequence ([`crate::restarts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Polish {
    /// Every run is a restart of the plan (IPOP's or BIPOP's).
    #[default]
    Off,
    /// Once at most this percentage (1–100) of the budget is left, every further run
    /// polishes the best-so-far: it starts at its point, with the first run's `λ`, the
    /// `σ` the run that found it ended with, and `ε = 0` from its first generation.
    Share(u8),
}

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

/// The loop's components (REFERENCE.md §5) and its population rule: the paper's
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

    /// The `(key, value)` pairs of the text form, in the order of [`SPEC_KEYS`].
    fn entries(&self) -> impl Iterator<Item = (&'static str, Cow<'static, str>)> + '_ {
        SPEC_KEYS.iter().map(|k| (k.name, (k.get)(self)))
    }

    /// Sets `key` to `value` (the text form's names).
    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let Some(k) = SPEC_KEYS.iter().find(|k| k.name == key) else {
            let names: Vec<&str> = SPEC_KEYS.iter().map(|k| k.name).collect();
            return Err(SpecError::Component(format!(
                "{key}={value}: unknown key; the keys are {}",
                names.join(", ")
            )));
        };
        (k.set)(self, value).ok_or_else(|| {
            SpecError::Component(format!("{key}={value}: expected {}", (k.values)()))
        })
    }
}

/// One `KEY=VALUE` of a [`ComponentSpec`]'s text form: its name, the values it takes,
/// what it chooses, and how it reads and prints. The parser, the printer, the error
/// messages, the command lines' help and the docs' table ([`spec_keys_markdown`]) all
/// come from [`SPEC_KEYS`]: a new key is one entry there (and its field).
pub struct SpecKey {
    /// The key.
    pub name: &'static str,
    /// What it chooses.
    pub help: &'static str,
    /// The values it takes, as the help and the error messages list them.
    pub values: fn() -> String,
    get: fn(&ComponentSpec) -> Cow<'static, str>,
    set: fn(&mut ComponentSpec, &str) -> Option<()>,
}

impl fmt::Debug for SpecKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpecKey")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The names of a kind's values in the text form.
type Names<T> = &'static [(&'static str, T)];

const ON_OFF: Names<bool> = &[("on", true), ("off", false)];
const REPAIRS: Names<Option<RepairMethod>> = &[
    ("on", Some(RepairMethod::Gradient)),
    ("off", None),
    (
        "levenberg-marquardt",
        Some(RepairMethod::LevenbergMarquardt),
    ),
];
const BACK_CALCULATIONS: Names<BackCalculationKind> = &[
    ("off", BackCalculationKind::Off),
    ("pseudo-inverse", BackCalculationKind::PseudoInverse),
    ("identity", BackCalculationKind::Identity),
];
const ORDERINGS: Names<OrderingKind> = &[
    ("epsilon-level", OrderingKind::EpsilonLevel),
    ("lexicographic", OrderingKind::Lexicographic),
];
const STEP_SIZES: Names<StepSizeKind> = &[
    ("csa", StepSizeKind::Csa),
    ("median-success", StepSizeKind::MedianSuccess),
    ("constant", StepSizeKind::Constant),
];
const RANKINGS: Names<RankingKind> = &[
    ("epsilon-level", RankingKind::EpsilonLevel),
    ("objective", RankingKind::Objective),
    ("stochastic", RankingKind::Stochastic),
    ("augmented-lagrangian", RankingKind::AugmentedLagrangian),
    ("by-constraint-kind", RankingKind::ByConstraintKind),
];
const RESTARTS: Names<RestartKind> = &[
    ("off", RestartKind::Off),
    ("ipop", RestartKind::Ipop),
    ("bipop", RestartKind::Bipop),
];
const POPULATIONS: Names<PopulationKind> = &[
    ("paper", PopulationKind::Paper),
    ("log", PopulationKind::Log),
];
const JACOBIANS: Names<JacobianUse> = &[
    ("offered", JacobianUse::Offered),
    ("differences", JacobianUse::Differences),
];

const LM_SCALINGS: Names<Scaling> = &[("none", Scaling::None), ("box", Scaling::Box)];
const LM_SOLVES: Names<Solve> = &[("reduced", Solve::Reduced), ("full", Solve::Full)];

const STALLS: Names<StallKind> = &[
    ("stagnation", StallKind::Stagnation),
    ("tolfun", StallKind::TolFun),
    ("range", StallKind::Range),
    ("progress", StallKind::Progress),
];

/// The name of `value`.
fn name_of<T: PartialEq>(names: Names<T>, value: T) -> Cow<'static, str> {
    Cow::Borrowed(
        names
            .iter()
            .find(|(_, v)| *v == value)
            .map_or("?", |(n, _)| n),
    )
}

/// The value named `text`.
fn value_of<T: Copy>(names: Names<T>, text: &str) -> Option<T> {
    names.iter().find(|(n, _)| *n == text).map(|&(_, v)| v)
}

/// `word` for `None`, else the count.
fn count_or_word(count: Option<u32>, word: &'static str) -> Cow<'static, str> {
    count.map_or(Cow::Borrowed(word), |c| Cow::Owned(c.to_string()))
}

/// `Some(None)` for `word`, `Some(Some(c))` for a positive count `c`, else `None`.
fn word_or_count(text: &str, word: &str) -> Option<Option<u32>> {
    if text == word {
        return Some(None);
    }
    text.parse().ok().filter(|&c| c > 0).map(Some)
}

/// `a, b or c`.
fn listed<T>(names: Names<T>) -> String {
    let names: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// `p%` with `p` in 1–100.
fn percentage(text: &str) -> Option<u8> {
    match text.strip_suffix('%').map(str::parse::<u8>) {
        Some(Ok(p)) if (1..=100).contains(&p) => Some(p),
        _ => None,
    }
}

/// The keys of the text form, in the order the canonical form prints them.
pub const SPEC_KEYS: &[SpecKey] = &[
    SpecKey {
        name: "repair",
        help: "the periodic repair (step 3.3): the paper's gradient repair (on), or the Levenberg–Marquardt repair on the slack system",
        values: || listed(REPAIRS),
        get: |s| {
            name_of(
                REPAIRS,
                s.components.repair.then_some(s.components.repair_method),
            )
        },
        set: |s, v| {
            value_of(REPAIRS, v).map(|x| {
                s.components.repair = x.is_some();
                s.components.repair_method = x.unwrap_or_default();
            })
        },
    },
    SpecKey {
        name: "lm-frequency",
        help: "the Levenberg–Marquardt repair's generations between repair generations",
        values: || "n (the dimension) or a number of generations".into(),
        get: |s| count_or_word(s.components.lm.frequency, "n"),
        set: |s, v| word_or_count(v, "n").map(|g| s.components.lm.frequency = g),
    },
    SpecKey {
        name: "lm-probability",
        help: "the Levenberg–Marquardt repair's probability per offspring",
        values: || "a share, 1% to 100%".into(),
        get: |s| Cow::Owned(format!("{}%", s.components.lm.probability)),
        set: |s, v| percentage(v).map(|p| s.components.lm.probability = p),
    },
    SpecKey {
        name: "lm-iterations",
        help: "the Levenberg–Marquardt repair's most iterations per offspring",
        values: || "a number of iterations".into(),
        get: |s| Cow::Owned(s.components.lm.iterations.to_string()),
        set: |s, v| {
            s.components.lm.iterations = v.parse().ok().filter(|&t| t > 0)?;
            Some(())
        },
    },
    SpecKey {
        name: "lm-best",
        help: "whether the Levenberg–Marquardt repair also repairs the infeasible best-so-far (SASS's rule: N ≥ 20, equalities)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.lm.best),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.lm.best = x),
    },
    SpecKey {
        name: "lm-best-iterations",
        help: "the Levenberg–Marquardt repair's most iterations for the best-so-far (lm-best=on)",
        values: || "same (as lm-iterations) or a number of iterations".into(),
        get: |s| count_or_word(s.components.lm.best_iterations, "same"),
        set: |s, v| word_or_count(v, "same").map(|t| s.components.lm.best_iterations = t),
    },
    SpecKey {
        name: "lm-scaling",
        help: "the units of the Levenberg–Marquardt step: the variables' own (none, SASS's) or the box's widths (box)",
        values: || listed(LM_SCALINGS),
        get: |s| name_of(LM_SCALINGS, s.components.lm.scaling),
        set: |s, v| value_of(LM_SCALINGS, v).map(|x| s.components.lm.scaling = x),
    },
    SpecKey {
        name: "lm-solve",
        help: "how the Levenberg–Marquardt step's linear system is solved: the slacks eliminated (reduced, min(N, constraints) unknowns) or the whole slack system (full; the path of the studies run before 2026-11-29, which replay with it)",
        values: || listed(LM_SOLVES),
        get: |s| name_of(LM_SOLVES, s.components.lm.solve),
        set: |s, v| value_of(LM_SOLVES, v).map(|x| s.components.lm.solve = x),
    },
    SpecKey {
        name: "jacobian",
        help: "the repairs' constraint Jacobian: the problem's own where it offers one, or forward differences always (a black-box run)",
        values: || listed(JACOBIANS),
        get: |s| name_of(JACOBIANS, s.jacobian),
        set: |s, v| value_of(JACOBIANS, v).map(|x| s.jacobian = x),
    },
    SpecKey {
        name: "back-calculation",
        help: "the back-calculation of the selected z (step 3.4)",
        values: || listed(BACK_CALCULATIONS),
        get: |s| name_of(BACK_CALCULATIONS, s.components.back_calculation),
        set: |s, v| value_of(BACK_CALCULATIONS, v).map(|x| s.components.back_calculation = x),
    },
    SpecKey {
        name: "sigma-cap",
        help: "σ ≤ σ_max (step 9)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.sigma_cap),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.sigma_cap = x),
    },
    SpecKey {
        name: "matrix-adaptation",
        help: "adapt M (else M stays I; steps 7–8)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.matrix_adaptation),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.matrix_adaptation = x),
    },
    SpecKey {
        name: "ordering",
        help: "the threshold schedule: ε-level, or ε ≡ 0",
        values: || listed(ORDERINGS),
        get: |s| name_of(ORDERINGS, s.components.ordering),
        set: |s, v| value_of(ORDERINGS, v).map(|x| s.components.ordering = x),
    },
    SpecKey {
        name: "step-size",
        help: "the step-size rule (step 9)",
        values: || listed(STEP_SIZES),
        get: |s| name_of(STEP_SIZES, s.components.step_size),
        set: |s, v| value_of(STEP_SIZES, v).map(|x| s.components.step_size = x),
    },
    SpecKey {
        name: "ranking",
        help: "how the offspring are ranked (step 4)",
        values: || listed(RANKINGS),
        get: |s| name_of(RANKINGS, s.components.ranking),
        set: |s, v| value_of(RANKINGS, v).map(|x| s.components.ranking = x),
    },
    SpecKey {
        name: "restarts",
        help: "restart a stalled run (IPOP, BIPOP) on the budget left",
        values: || listed(RESTARTS),
        get: |s| name_of(RESTARTS, s.restart.kind),
        set: |s, v| value_of(RESTARTS, v).map(|x| s.restart.kind = x),
    },
    SpecKey {
        name: "population",
        help: "the default λ: 4N (paper) or 4 + ⌊3 ln N⌋ (log)",
        values: || listed(POPULATIONS),
        get: |s| name_of(POPULATIONS, s.components.population),
        set: |s, v| value_of(POPULATIONS, v).map(|x| s.components.population = x),
    },
    SpecKey {
        name: "stall",
        help: "when a run of a restart sequence counts as stalled",
        values: || listed(STALLS),
        get: |s| name_of(STALLS, s.restart.stall),
        set: |s, v| value_of(STALLS, v).map(|x| s.restart.stall = x),
    },
    SpecKey {
        name: "eps-end",
        help: "where the ε schedule ends: t_max, or a share of the run's generations",
        values: || "t-max or a share of the run's generations, 1% to 100%".into(),
        get: |s| match s.epsilon_end {
            EpsilonEnd::TMax => Cow::Borrowed("t-max"),
            EpsilonEnd::Share(p) => Cow::Owned(format!("{p}%")),
        },
        set: |s, v| {
            s.epsilon_end = match v {
                "t-max" => EpsilonEnd::TMax,
                share => EpsilonEnd::Share(percentage(share)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "polish",
        help: "polish the best-so-far once this share of the budget is left (restarts)",
        values: || "off or a share of the budget, 1% to 100%".into(),
        get: |s| match s.restart.polish {
            Polish::Off => Cow::Borrowed("off"),
            Polish::Share(p) => Cow::Owned(format!("{p}%")),
        },
        set: |s, v| {
            s.restart.polish = match v {
                "off" => Polish::Off,
                share => Polish::Share(percentage(share)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "opening",
        help: "the ranking of a restart sequence's first run",
        values: || format!("same or a ranking ({})", listed(RANKINGS)),
        get: |s| {
            s.restart.opening
                .map_or(Cow::Borrowed("same"), |r| name_of(RANKINGS, r))
        },
        set: |s, v| {
            s.restart.opening = match v {
                "same" => None,
                name => Some(value_of(RANKINGS, name)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "tol-fun",
        help: "stop once converged in f and ν̄ (ma_es::control; default: the driver's)",
        values: || "driver or a tolerance ≥ 0 (0: off), e.g. 1e-11".into(),
        get: |s| number(s.convergence.tol_fun),
        set: |s, v| tolerance(v).map(|t| s.convergence.tol_fun = t),
    },
    SpecKey {
        name: "tol-x",
        help: "stop once every coordinate's step σ √((M Mᵀ)_ii) is below it",
        values: || "driver or a tolerance ≥ 0 (0: off), e.g. 1e-11".into(),
        get: |s| number(s.convergence.tol_x),
        set: |s, v| tolerance(v).map(|t| s.convergence.tol_x = t),
    },
    SpecKey {
        name: "target",
        help: "stop once a feasible best-so-far reaches f ≤ target",
        values: || "driver or a number".into(),
        get: |s| number(s.convergence.target),
        set: |s, v| {
            s.convergence.target = match v {
                "driver" => None,
                v => Some(SpecNumber(v.parse::<f64>().ok().filter(|t| !t.is_nan())?)),
            };
            Some(())
        },
    },
    SpecKey {
        name: "stagnation",
        help: "stop after this many generations without improvement (once ε = 0)",
        values: || "driver or a number of generations (0: off)".into(),
        get: |s| {
            s.convergence
                .stagnation
                .map_or(Cow::Borrowed("driver"), |g| Cow::Owned(g.to_string()))
        },
        set: |s, v| {
            s.convergence.stagnation = match v {
                "driver" => None,
                v => Some(v.parse().ok()?),
            };
            Some(())
        },
    },
];

/// A spec number's text, `driver` for none.
fn number(v: Option<SpecNumber>) -> Cow<'static, str> {
    v.map_or(Cow::Borrowed("driver"), |v| Cow::Owned(v.to_string()))
}

/// `driver` (none) or a finite tolerance ≥ 0.
fn tolerance(text: &str) -> Option<Option<SpecNumber>> {
    if text == "driver" {
        return Some(None);
    }
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(Some(SpecNumber(v)))
}

/// The keys as a Markdown table (key, values, what it chooses), for the docs and the
/// command lines' help.
#[must_use]
pub fn spec_keys_markdown() -> String {
    let mut out = String::from("| key | values | chooses |\n|---|---|---|\n");
    for k in SPEC_KEYS {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            k.name,
            (k.values)(),
            k.help
        ));
    }
    out
}

impl fmt::Display for ComponentSpec {
    /// The preset's name, or `eps-mag-es` followed by `:key=value` for every component
    /// that differs from it (a canonical form: equal specs print alike).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.preset() {
            return f.write_str(v.name());
        }
        f.write_str(Variant::EpsMagEs.name())?;
        let base = Variant::EpsMagEs.spec();
        for ((key, value), (_, default)) in self.entries().zip(base.entries()) {
            if value != default {
                write!(f, ":{key}={value}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for ComponentSpec {
    type Err = SpecError;

    /// `PRESET[:KEY=VALUE]…`: a preset (any name [`Variant`] parses) with components
    /// changed, e.g. `lex-ma-es:step-size=constant`. The keys and their values are
    /// [`SPEC_KEYS`] (as a table: [`spec_keys_markdown`], and docs/architecture.md).
    ///
    /// A [`STRATEGIES`] name stands for its spec in the same place:
    /// `eps-mag-es-r:polish=off` is εMAg-ES-R without its polishing end.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.trim().split(':');
        let name = parts.next().unwrap_or_default().trim();
        let mut spec = match STRATEGIES
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, _, components)) => components.parse()?,
            None => name.parse::<Variant>()?.spec(),
        };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                SpecError::Component(format!("{part:?}: expected KEY=VALUE after a ':'"))
            })?;
            spec.set(key.trim(), value.trim())?;
        }
        Ok(spec)
    }
}

/// Strategies beyond the paper's seven, designed from its components (issue 34): `(name,
/// label, spec)`. [`ComponentSpec`]'s parser reads the name as the spec; a study's
/// records carry the spec's canonical text form.
///
/// - **εMAg-ES-R** (`eps-mag-es-r`): εMAg-ES restarted by BIPOP ([`crate::restarts`]),
///   each run's ε ending at 10 % of its generations, a run stalled once its offspring's
///   `f` range falls below `10⁻¹² |f|`, and the last half of the budget spent polishing
///   the best-so-far. docs/strategy-design.md (entry 13) says how it was chosen, and
///   which commit froze it.
///
/// - **εMAg-ES-RLM** (`eps-mag-es-rlm`, issue 42): εMAg-ES-R with the
///   Levenberg–Marquardt repair ([`crate::repair::LevenbergMarquardtRepair`]) in place of
///   the gradient repair: every generation, a fifth of the infeasible offspring and the
///   infeasible best-so-far (N ≥ 20, equalities), at most 4 iterations, the step in units
///   of the box's widths. Made for problems that offer their constraint Jacobian
///   ([`constraint_handling::ConstrainedProblem::constraint_jacobian`]): by forward
///   differences each iteration costs `N + 1` evaluations, and it lost to εMAg-ES-R as a
///   black box (docs/strategy-design.md, entries 19 and 21, and the commit that froze it).
///
/// ```
/// use ma_es::variant::{RepairMethod, RestartKind, STRATEGIES};
/// use ma_es::ComponentSpec;
/// let r: ComponentSpec = "eps-mag-es-r".parse().unwrap();
/// assert_eq!(r.restart.kind, RestartKind::Bipop);
/// assert_eq!(r.to_string(), STRATEGIES[0].2);
/// let rlm: ComponentSpec = "eps-mag-es-rlm".parse().unwrap();
/// assert_eq!(rlm.components.repair_method, RepairMethod::LevenbergMarquardt);
/// assert_eq!(rlm.restart, r.restart);
/// assert_eq!(rlm.to_string(), STRATEGIES[1].2);
/// ```
pub const STRATEGIES: [(&str, &str, &str); 2] = [
    (
        "eps-mag-es-r",
        "εMAg-ES-R",
        "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%",
    ),
    (
        "eps-mag-es-rlm",
        "εMAg-ES-RLM",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-best=on:lm-scaling=box:restarts=bipop:stall=range:eps-end=10%:polish=50%",
    ),
];

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

/// The seven variants of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// εMAg-ES: every component (the baseline of the paper's comparisons).
    EpsMagEs,
    /// εMA-ES: without the gradient repair.
    EpsMaEs,
    /// εMAg-ES w/o: without back-calculation.
    EpsMagEsWo,
    /// εMAg-ES nl: without the σ cap.
    EpsMagEsNl,
    /// εSAg-ES: without matrix adaptation (`M = I`).
    EpsSagEs,
    /// lexMAg-ES: lexicographic instead of ε-level ordering.
    LexMagEs,
    /// lexMA-ES: lexicographic ordering and no repair.
    LexMaEs,
}

impl Variant {
    /// All seven, baseline first, in the paper's order.
    pub const ALL: [Variant; 7] = [
        Variant::EpsMagEs,
        Variant::EpsMaEs,
        Variant::EpsMagEsWo,
        Variant::EpsMagEsNl,
        Variant::EpsSagEs,
        Variant::LexMagEs,
        Variant::LexMaEs,
    ];

    /// The preset name (`eps-mag-es`, …).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::EpsMagEs => "eps-mag-es",
            Self::EpsMaEs => "eps-ma-es",
            Self::EpsMagEsWo => "eps-mag-es-wo",
            Self::EpsMagEsNl => "eps-mag-es-nl",
            Self::EpsSagEs => "eps-sag-es",
            Self::LexMagEs => "lex-mag-es",
            Self::LexMaEs => "lex-ma-es",
        }
    }

    /// The paper's label (`εMAg-ES`, …), for tables.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::EpsMagEs => "εMAg-ES",
            Self::EpsMaEs => "εMA-ES",
            Self::EpsMagEsWo => "εMAg-ES w/o",
            Self::EpsMagEsNl => "εMAg-ES nl",
            Self::EpsSagEs => "εSAg-ES",
            Self::LexMagEs => "lexMAg-ES",
            Self::LexMaEs => "lexMA-ES",
        }
    }

    /// The reference implementation's name (`epsMAgES`, …), as in the replay fixtures.
    #[must_use]
    pub fn reference_name(self) -> &'static str {
        match self {
            Self::EpsMagEs => "epsMAgES",
            Self::EpsMaEs => "epsMAES",
            Self::EpsMagEsWo => "epsMAgESwo",
            Self::EpsMagEsNl => "epsMAgESnl",
            Self::EpsSagEs => "epsSAgES",
            Self::LexMagEs => "lexMAgES",
            Self::LexMaEs => "lexMAES",
        }
    }

    /// The components of this variant.
    #[must_use]
    pub fn spec(self) -> ComponentSpec {
        let full = ComponentSpec::default();
        let with = |components| ComponentSpec { components, ..full };
        let c = full.components;
        match self {
            Self::EpsMagEs => full,
            Self::EpsMaEs => with(ComponentChoice { repair: false, ..c }),
            Self::EpsMagEsWo => with(ComponentChoice {
                back_calculation: BackCalculationKind::Off,
                ..c
            }),
            Self::EpsMagEsNl => with(ComponentChoice {
                sigma_cap: false,
                ..c
            }),
            Self::EpsSagEs => with(ComponentChoice {
                back_calculation: BackCalculationKind::Identity,
                matrix_adaptation: false,
                ..c
            }),
            Self::LexMagEs => with(ComponentChoice {
                ordering: OrderingKind::Lexicographic,
                ..c
            }),
            Self::LexMaEs => with(ComponentChoice {
                repair: false,
                ordering: OrderingKind::Lexicographic,
                ..c
            }),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A component spec that does not parse: an unknown preset name, or a `KEY=VALUE` with
/// an unknown key or value.
///
/// ```
/// use ma_es::ComponentSpec;
/// let e = "eps-mag-es:restart=bipop".parse::<ComponentSpec>().unwrap_err();
/// assert!(e.to_string().starts_with("component spec: restart=bipop: unknown key; the keys are repair"));
/// let e = "cma-es".parse::<ComponentSpec>().unwrap_err();
/// assert!(e.to_string().starts_with("unknown variant \"cma-es\""));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The preset (or strategy) name is unknown.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A `KEY=VALUE` part is wrong: the message names it and what was expected.
    #[error("component spec: {0}")]
    Component(String),
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}; the presets are eps-mag-es, eps-ma-es, eps-mag-es-wo, eps-mag-es-nl, eps-sag-es, lex-mag-es, lex-ma-es, and the strategies eps-mag-es-r and eps-mag-es-rlm")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Parses a preset name, the reference name or the paper's label (case-insensitive).
    ///
    /// ```
    /// use ma_es::Variant;
    /// assert_eq!("eps-mag-es".parse::<Variant>().unwrap(), Variant::EpsMagEs);
    /// assert_eq!("epsMAgESwo".parse::<Variant>().unwrap(), Variant::EpsMagEsWo);
    /// assert_eq!("lexMA-ES".parse::<Variant>().unwrap(), Variant::LexMaEs);
    /// assert!("cma-es".parse::<Variant>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| {
                [v.name(), v.reference_name(), v.label()]
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(wanted))
            })
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One name per value: every kind's serde name is its text form's name (a saved
    /// spec and a spec string say the same word).
    #[test]
    fn serde_and_the_text_form_name_every_value_alike() {
        fn check<T: Serialize + Copy>(names: Names<T>) -> usize {
            for (name, value) in names {
                let serde_name = serde_json::to_value(value).unwrap();
                assert_eq!(serde_name, serde_json::Value::from(*name), "{name}");
            }
            names.len()
        }
        let checked = check(BACK_CALCULATIONS)
            + check(ORDERINGS)
            + check(STEP_SIZES)
            + check(RANKINGS)
            + check(RESTARTS)
            + check(POPULATIONS)
            + check(JACOBIANS)
            + check(LM_SCALINGS)
            + check(LM_SOLVES)
            + check(STALLS);
        assert_eq!(checked, 3 + 2 + 3 + 5 + 3 + 2 + 2 + 2 + 2 + 4);
        // The old serde name of the stall rule still reads.
        let old: StallKind = serde_json::from_str("\"tol-fun\"").unwrap();
        assert_eq!(old, StallKind::TolFun);
    }
}
