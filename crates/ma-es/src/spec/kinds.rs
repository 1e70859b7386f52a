//! The kinds a spec chooses among, one enum per choice; their names are the text
//! form's ([`super::SPEC_KEYS`]) and serde's alike.

#![allow(clippy::wildcard_imports)]
use super::*;

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
    /// `λ = 4N`, the reference's (docs/algorithm.md §5).
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
