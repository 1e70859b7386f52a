//! What a run returns: the best-so-far solution, the CEC checkpoints, counters, and
//! optionally the per-generation dynamics.

use constraint_handling::{Checkpoint, Fitness, Snapshot};
use serde::{Deserialize, Serialize};

/// The best solution found so far (the reference's rule: lower `ν̄` first, then lower
/// `f`): the point, its constraint values, and its [`Snapshot`] — `(f, ν̄)`, CEC counts,
/// and the evaluation count after the generation that found it (what meanRTgb
/// averages).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestSoFar {
    /// The point `y`.
    pub y: Vec<f64>,
    /// `C(y) = (g, h)`.
    pub constraints: Vec<f64>,
    /// Its quality (`found_at` is always set).
    pub snapshot: Snapshot,
}

impl BestSoFar {
    /// `f(y)`.
    #[must_use]
    pub fn objective(&self) -> f64 {
        self.snapshot.objective()
    }

    /// `ν̄(y)`.
    #[must_use]
    pub fn violation(&self) -> f64 {
        self.snapshot.violation()
    }

    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.snapshot.is_feasible()
    }

    /// The evaluation count after the generation in which it was found.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.snapshot.found_at.unwrap_or(0)
    }

    /// `‖y‖₂`.
    #[must_use]
    pub fn norm(&self) -> f64 {
        self.y.iter().map(|v| v * v).sum::<f64>().sqrt()
    }
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The evaluation budget was reached.
    Budget,
    /// The generation limit was reached.
    GenerationLimit,
    /// An observer asked to stop (or the caller, by `stop`; in a restart sequence's
    /// history: the run stalled).
    Observer,
    /// Converged: the offspring's `f` and `ν̄` and the recent generations' lowest lay
    /// within `tol_fun` ([`crate::control::Convergence`]).
    TolFun,
    /// Converged: every coordinate's step `σ √((M Mᵀ)_ii)` fell below `tol_x`.
    TolX,
    /// The best-so-far did not improve for the `stagnation` window.
    Stagnation,
    /// A feasible best-so-far reached the target value.
    Target,
    /// A restart converged to the sequence's best-so-far again, within `tol_fun`.
    Confirmed,
}

impl Termination {
    /// Every reason, in the order of the enum.
    pub const ALL: [Termination; 8] = [
        Self::Budget,
        Self::GenerationLimit,
        Self::Observer,
        Self::TolFun,
        Self::TolX,
        Self::Stagnation,
        Self::Target,
        Self::Confirmed,
    ];

    /// The reason's name where it is shown to users (Python's `message`, reports):
    /// the one table of these names.
    ///
    /// ```
    /// use ma_es::Termination;
    /// assert_eq!(Termination::GenerationLimit.name(), "generation limit");
    /// assert_eq!(Termination::Observer.name(), "stopped");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Budget => "budget",
            Self::GenerationLimit => "generation limit",
            Self::Observer => "stopped",
            Self::TolFun => "tol_fun",
            Self::TolX => "tol_x",
            Self::Stagnation => "stagnation",
            Self::Target => "target",
            Self::Confirmed => "confirmed",
        }
    }

    /// scipy's `status` of a run that ended so: 0 converged (or reached its target), 1
    /// at a limit, 2 stopped by the caller.
    #[must_use]
    pub fn status(self) -> u8 {
        match self {
            _ if self.is_convergence() => 0,
            Self::Observer => 2,
            _ => 1,
        }
    }

    /// Whether the run stopped because it converged or reached its target (not at a
    /// limit, not by a caller).
    #[must_use]
    pub fn is_convergence(self) -> bool {
        matches!(
            self,
            Self::TolFun | Self::TolX | Self::Stagnation | Self::Target | Self::Confirmed
        )
    }
}

/// The state after one generation, for plots of the dynamics.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynamicsRecord {
    /// Generations done.
    pub generation: usize,
    /// Evaluations consumed.
    pub evaluations: usize,
    /// Best-so-far `(f, ν̄)`.
    pub best: Fitness,
    /// Mutation strength `σ`.
    pub sigma: f64,
    /// `‖best-so-far y‖`.
    pub best_norm: f64,
    /// The threshold the next generation ranks with.
    pub epsilon: f64,
}

/// The outcome of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// The best-so-far solution at the end.
    pub best: BestSoFar,
    /// The best-so-far at the configured checkpoints (by default 10 %, 50 % and 100 %
    /// of the budget). A checkpoint the run did not reach (it stopped by the generation
    /// limit first) holds the final best-so-far.
    pub checkpoints: Vec<Checkpoint>,
    /// Generations done.
    pub generations: usize,
    /// Evaluations consumed (may overshoot the budget within the last generation).
    pub evaluations: usize,
    /// Why the run ended.
    pub termination: Termination,
    /// The initial threshold `ε0`.
    pub epsilon0: f64,
    /// The final mutation strength.
    pub sigma: f64,
    /// How often `M` was reset.
    pub resets: usize,
    /// The per-generation dynamics, if requested.
    pub dynamics: Option<Vec<DynamicsRecord>>,
}
