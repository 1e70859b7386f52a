//! Step 4: ranking the offspring. The presets rank by the ε-level order with the
//! threshold of the schedule (REFERENCE.md §5); another rule (e.g. stochastic ranking)
//! is another [`PopulationRanking`].

use constraint_handling::ordering::{
    rank_epsilon_level_into, EpsilonLevel, EpsilonLevelKey, RankingError,
};

/// Ranks a population: writes into `permutation` the offspring indices from first to
/// last, given their objectives, mean violations `ν̄` and the current threshold `ε`.
/// Must not allocate (it runs every generation).
pub trait PopulationRanking: Send {
    /// Ranks the population.
    ///
    /// # Errors
    /// [`RankingError`] for slices of different lengths.
    fn rank(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError>;
}

/// The ε-level order of the reference, stable (ties keep index order): with `ε = 0`
/// the lexicographic order of the lex variants. Ranks by sort keys
/// ([`rank_epsilon_level_into`]) in a scratch buffer that grows once.
///
/// ```
/// use ma_es::ranking::{EpsilonLevelRanking, PopulationRanking};
/// let mut perm = [0; 3];
/// // ν̄ ≤ ε = 0.5 counts as feasible: ranked by f.
/// EpsilonLevelRanking::default()
///     .rank(0.5, &[3.0, 1.0, 2.0], &[0.4, 0.0, 1.0], &mut perm)
///     .unwrap();
/// assert_eq!(perm, [1, 0, 2]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct EpsilonLevelRanking {
    keys: Vec<EpsilonLevelKey>,
}

impl PopulationRanking for EpsilonLevelRanking {
    fn rank(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        rank_epsilon_level_into(
            &EpsilonLevel::new(epsilon),
            objectives,
            violations,
            permutation,
            &mut self.keys,
        )
    }
}

/// Ranks by the objective alone, ignoring the violations and the threshold: the
/// selection of the unconstrained MA-ES. Stable (ties keep index order), NaN last.
///
/// ```
/// use ma_es::ranking::{ObjectiveRanking, PopulationRanking};
/// let mut perm = [0; 3];
/// ObjectiveRanking::default()
///     .rank(0.0, &[3.0, 1.0, 2.0], &[0.0, 9.0, 0.0], &mut perm)
///     .unwrap();
/// assert_eq!(perm, [1, 2, 0]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ObjectiveRanking {
    zeros: Vec<f64>,
    keys: Vec<EpsilonLevelKey>,
}

impl PopulationRanking for ObjectiveRanking {
    fn rank(
        &mut self,
        _epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        if violations.len() != objectives.len() {
            return Err(RankingError::LengthMismatch {
                objectives: objectives.len(),
                violations: violations.len(),
                permutation: permutation.len(),
            });
        }
        // With every ν̄ = 0, the ε-level order is the order of f (NaN last).
        self.zeros.resize(objectives.len(), 0.0);
        rank_epsilon_level_into(
            &EpsilonLevel::new(0.0),
            objectives,
            &self.zeros,
            permutation,
            &mut self.keys,
        )
    }
}
