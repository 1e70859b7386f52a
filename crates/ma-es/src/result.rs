//! What a run returns: the best-so-far solution, the CEC checkpoints, counters, and
//! optionally the per-generation dynamics.

use constraint_handling::violation::ConstraintCounts;
use serde::{Deserialize, Serialize};

/// The best solution found so far (lexicographic: feasibility first, then `f`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestSoFar {
    /// The point `y`.
    pub y: Vec<f64>,
    /// `f(y)`.
    pub objective: f64,
    /// `ν̄(y)`.
    pub violation: f64,
    /// `C(y) = (g, h)`.
    pub constraints: Vec<f64>,
    /// The evaluation count after the generation in which it was found (what
    /// `meanRTgb` averages).
    pub evaluations: usize,
}

impl BestSoFar {
    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.violation == 0.0
    }

    /// `‖y‖₂`.
    #[must_use]
    pub fn norm(&self) -> f64 {
        self.y.iter().map(|v| v * v).sum::<f64>().sqrt()
    }

    /// The CEC counts of its constraints, given the number `l` of inequalities.
    #[must_use]
    pub fn counts(&self, inequalities: usize) -> ConstraintCounts {
        let (g, h) = self
            .constraints
            .split_at(inequalities.min(self.constraints.len()));
        ConstraintCounts::from_constraints(g, h)
    }
}

/// The best-so-far at a fraction of the budget (REFERENCE.md §5 step 14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The fraction of the budget (0.1, 0.5, 1.0).
    pub fraction: f64,
    /// The evaluation count when it was taken.
    pub evaluations: usize,
    /// `f` of the best-so-far.
    #[serde(rename = "f")]
    pub objective: f64,
    /// `ν̄` of the best-so-far.
    pub violation: f64,
    /// Its CEC counts `c`.
    #[serde(rename = "c")]
    pub counts: ConstraintCounts,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The evaluation budget was reached.
    Budget,
    /// The generation limit was reached.
    GenerationLimit,
    /// An observer asked to stop.
    Observer,
}

/// The state after one generation, for plots of the dynamics.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynamicsRecord {
    /// Generations done.
    pub generation: usize,
    /// Evaluations consumed.
    pub evaluations: usize,
    /// Best-so-far `f`.
    pub best_objective: f64,
    /// Best-so-far `ν̄`.
    pub best_violation: f64,
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
    /// The checkpoints at 10 %, 50 % and 100 % of the budget. A checkpoint the run did
    /// not reach (it stopped by the generation limit first) holds the final best-so-far.
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
