//! Step 4: ranking the offspring. The presets rank by the ε-level order with the
//! threshold of the schedule (docs/algorithm.md §5); another rule is another
//! [`PopulationRanking`]: the objective alone ([`ObjectiveRanking`]), Runarsson & Yao's
//! stochastic ranking ([`StochasticRanking`], seeded per run), or an augmented
//! Lagrangian with adaptive coefficients ([`AugmentedLagrangianRanking`]), which reads
//! the individual constraint values ([`ConstraintValues`]); or one of the last two by
//! the kind of constraints the problem states ([`ByConstraintKindRanking`]).

mod augmented_lagrangian;
mod by_constraint_kind;

pub use augmented_lagrangian::AugmentedLagrangianRanking;
pub use by_constraint_kind::ByConstraintKindRanking;

use crate::config::ConfigError;
use constraint_handling::ordering::{
    check_lengths, rank_epsilon_level_into, EpsilonLevel, EpsilonLevelKey, RankingError,
};
use ndarray::ArrayView2;
use rand::{Rng, SeedableRng};

/// Ranks a population: writes into `permutation` the offspring indices from first to
/// last, given their objectives, mean violations `ν̄` and the current threshold `ε`.
/// Must not allocate (it runs every generation).
pub trait PopulationRanking: std::any::Any + Send {
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

    /// Ranks the population with its constraint values at hand; the strategy calls
    /// this. The default ignores them and calls [`PopulationRanking::rank`], so a
    /// ranking by `f` and `ν̄` implements only that.
    ///
    /// # Errors
    /// [`RankingError`] for slices of different lengths.
    fn rank_constrained(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        constraints: &ConstraintValues<'_>,
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        let _ = constraints;
        self.rank(epsilon, objectives, violations, permutation)
    }

    /// The offspring that competes for the best-so-far after ranking (step 10). The
    /// reference takes the first-ranked, and so does the default; a ranking whose
    /// first place need not be the best by `(ν̄, f)` (e.g. a penalised fitness) names
    /// another.
    fn best_so_far_candidate(
        &self,
        objectives: &[f64],
        violations: &[f64],
        permutation: &[usize],
    ) -> usize {
        let _ = (objectives, violations);
        permutation[0]
    }
}

/// The offspring's constraint values, for rankings that look beyond `ν̄`.
#[derive(Clone, Copy, Debug)]
pub struct ConstraintValues<'a> {
    /// One column per offspring: the inequalities `g` (satisfied when `≤ 0`), then the
    /// equalities `h` (satisfied when `|h| ≤ δ`).
    pub values: ArrayView2<'a, f64>,
    /// How many rows are inequalities.
    pub inequalities: usize,
    /// The equality margin `δ`.
    pub equality_margin: f64,
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
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct EpsilonLevelRanking {
    #[serde(skip)]
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
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct ObjectiveRanking {
    zeros: Vec<f64>,
    #[serde(skip)]
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

/// Runarsson & Yao's probability of comparing two infeasible neighbours by the
/// objective, the value their paper recommends (IEEE TEC 4(3), 2000).
pub const STOCHASTIC_RANKING_P_F: f64 = 0.45;

/// Stochastic ranking (Runarsson & Yao, 2000): a bubble sort whose comparisons of two
/// neighbours are by the objective `f` when both are feasible — here `ν̄ ≤ ε`, with the
/// lexicographic schedule's `ε = 0` exactly their rule — or, with probability `P_f`,
/// when they are not; otherwise by the violation `ν̄`. At most `λ` sweeps, stopping
/// after a sweep without a swap. NaN counts as `+∞` in both comparisons.
///
/// The coin flips come from a random stream of its own, seeded at construction: built
/// from a spec (`ranking=stochastic`), the seed is the run's, so a run repeats bit for
/// bit, and the strategy's own noise (the samples `z`) is the same as with any other
/// ranking. Does not allocate.
///
/// ```
/// use ma_es::ranking::{PopulationRanking, StochasticRanking};
/// let (f, nu) = ([3.0, 1.0, 2.0, 0.5], [0.0, 0.0, 0.0, 2.0]);
/// let rank = |seed| {
///     let mut perm = [0; 4];
///     StochasticRanking::new(0.45, seed).unwrap().rank(0.0, &f, &nu, &mut perm).unwrap();
///     perm
/// };
/// // The same seed, the same order; the feasible ones are always in the order of f.
/// assert_eq!(rank(7), rank(7));
/// let p = rank(7);
/// let pos = |i| p.iter().position(|&k| k == i).unwrap();
/// assert!(pos(1) < pos(2) && pos(2) < pos(0));
/// // With P_f = 0 it is the lexicographic order: feasible by f, then by ν̄.
/// let mut perm = [0; 4];
/// StochasticRanking::new(0.0, 1).unwrap().rank(0.0, &f, &nu, &mut perm).unwrap();
/// assert_eq!(perm, [1, 2, 0, 3]);
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct StochasticRanking {
    p_f: f64,
    rng: rand_xoshiro::Xoshiro256PlusPlus,
}

impl StochasticRanking {
    /// Stochastic ranking with probability `p_f ∈ [0, 1]` and its coin flips seeded
    /// from `seed`. The stream is Xoshiro256++ seeded from `seed` and long-jumped
    /// (2¹⁹² steps), so it does not overlap the strategy's noise seeded from the same
    /// `seed`.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] for `p_f` outside `[0, 1]` (or NaN).
    pub fn new(p_f: f64, seed: u64) -> Result<Self, ConfigError> {
        if !(0.0..=1.0).contains(&p_f) {
            return Err(ConfigError::Invalid {
                name: "p_f",
                value: p_f.to_string(),
                expected: "a probability in [0, 1]",
            });
        }
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        rng.long_jump();
        Ok(Self { p_f, rng })
    }

    /// The probability of comparing infeasible neighbours by `f`.
    #[must_use]
    pub fn p_f(&self) -> f64 {
        self.p_f
    }
}

impl PopulationRanking for StochasticRanking {
    fn rank(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        check_lengths(objectives, violations, permutation)?;
        let n = objectives.len();
        let key = |v: f64| if v.is_nan() { f64::INFINITY } else { v };
        for (i, p) in permutation.iter_mut().enumerate() {
            *p = i;
        }
        for _sweep in 0..n {
            let mut swapped = false;
            for j in 0..n.saturating_sub(1) {
                let (a, b) = (permutation[j], permutation[j + 1]);
                let (nu_a, nu_b) = (key(violations[a]), key(violations[b]));
                let feasible = nu_a <= epsilon && nu_b <= epsilon;
                // The coin is flipped for every comparison, as in the original.
                let by_objective = self.rng.random::<f64>() < self.p_f || feasible;
                let swap = if by_objective {
                    key(objectives[a]) > key(objectives[b])
                } else {
                    nu_a > nu_b
                };
                if swap {
                    permutation.swap(j, j + 1);
                    swapped = true;
                }
            }
            if !swapped {
                break;
            }
        }
        Ok(())
    }
}
