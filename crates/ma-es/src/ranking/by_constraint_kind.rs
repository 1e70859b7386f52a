//! The ranking that follows the kind of constraints the problem states.

use super::{AugmentedLagrangianRanking, ConstraintValues, EpsilonLevelRanking, PopulationRanking};
use constraint_handling::ordering::RankingError;

/// The ε-level order ([`EpsilonLevelRanking`]) on a problem with equality constraints,
/// the augmented Lagrangian ([`AugmentedLagrangianRanking`]) on a problem with
/// inequalities only.
///
/// The choice is made from what the problem states — how many of its constraint rows
/// are equalities (`ConstraintValues::values` has more rows than
/// `ConstraintValues::inequalities`) — never from its name, and it is the same in
/// every generation of a run. The design log (docs/strategy-design.md, entry 13) says
/// why: the augmented Lagrangian treats a nonlinear equality `h = 0` as the two
/// inequalities `±h − δ ≤ 0`, whose multipliers fight each other, and it loses to
/// the ε-level order on CEC2017's equality-constrained problems; on inequalities
/// alone it reaches more of bbob-constrained's targets.
///
/// Called through [`PopulationRanking::rank`], without constraint values, it is the
/// ε-level order.
///
/// ```
/// use ma_es::ranking::{ByConstraintKindRanking, ConstraintValues, PopulationRanking};
/// use ndarray::array;
/// let mut ranking = ByConstraintKindRanking::new(1);
/// let (f, nu) = ([2.0, 1.0], [0.0, 0.5]);
/// // One equality row, |h| = 0 and 0.5: the ε-level order, with ε = 1 both count as
/// // feasible and the lower f comes first.
/// let h = array![[0.0, 0.5]];
/// let eq = ConstraintValues { values: h.view(), inequalities: 0, equality_margin: 1e-4 };
/// let mut perm = [0; 2];
/// ranking.rank_constrained(1.0, &f, &nu, &eq, &mut perm).unwrap();
/// assert_eq!(perm, [1, 0]);
/// assert!(ranking.is_epsilon_level());
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ByConstraintKindRanking {
    epsilon_level: EpsilonLevelRanking,
    lagrangian: AugmentedLagrangianRanking,
    /// Decided on the first ranking with constraint values: `Some(true)` for the
    /// ε-level order.
    equalities: Option<bool>,
}

impl ByConstraintKindRanking {
    /// A ranking for a problem of dimension `dim` (the augmented Lagrangian's
    /// coefficient rules depend on it).
    pub fn new(dim: usize) -> Self {
        Self {
            epsilon_level: EpsilonLevelRanking::default(),
            lagrangian: AugmentedLagrangianRanking::new(dim),
            equalities: None,
        }
    }

    /// Whether the ε-level order ranks (true before the first generation decides).
    pub fn is_epsilon_level(&self) -> bool {
        self.equalities.unwrap_or(true)
    }
}

impl PopulationRanking for ByConstraintKindRanking {
    fn rank(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        self.epsilon_level
            .rank(epsilon, objectives, violations, permutation)
    }

    fn rank_constrained(
        &mut self,
        epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        constraints: &ConstraintValues<'_>,
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        let equalities = *self
            .equalities
            .get_or_insert(constraints.values.nrows() > constraints.inequalities);
        if equalities {
            self.epsilon_level
                .rank(epsilon, objectives, violations, permutation)
        } else {
            self.lagrangian.rank_constrained(
                epsilon,
                objectives,
                violations,
                constraints,
                permutation,
            )
        }
    }

    fn best_so_far_candidate(
        &self,
        objectives: &[f64],
        violations: &[f64],
        permutation: &[usize],
    ) -> usize {
        if self.is_epsilon_level() {
            self.epsilon_level
                .best_so_far_candidate(objectives, violations, permutation)
        } else {
            self.lagrangian
                .best_so_far_candidate(objectives, violations, permutation)
        }
    }
}
