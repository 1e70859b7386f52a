//! What a run returns: the best-so-far solution, the CEC checkpoints, counters, and
//! optionally the per-generation dynamics.

use constraint_handling::{Checkpoint, Fitness};
pub use emages_solver::{Best, Termination};
use serde::{Deserialize, Serialize};

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
    pub best: Best,
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
    /// The runs of a restart sequence, in order (empty for a single run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarts: Vec<RestartRecord>,
}

/// One run of a restart sequence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RestartRecord {
    /// Evaluations spent before it began.
    pub start: usize,
    /// Its population size.
    pub lambda: usize,
    /// Its initial mutation strength.
    pub sigma0: f64,
    /// Whether it belongs to the large-population regime (every IPOP run; BIPOP's
    /// first run and its runs with doubled λ).
    pub large: bool,
    /// The generation from which its ε is 0.
    pub t_max: usize,
    /// Its generations.
    pub generations: usize,
    /// Its evaluations.
    pub evaluations: usize,
    /// Its best `(f, ν̄)`.
    pub best: Fitness,
    /// Why it ended (`observer`: it stalled).
    pub termination: Termination,
    /// Whether it polished the best-so-far (`polish=p%`; absent from a serialised
    /// record when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub polish: bool,
}
