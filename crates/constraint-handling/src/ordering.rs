//! Orderings of candidates by objective `f` and mean violation `ν̄`
//! (docs/algorithm.md §3), as comparators and as stable rankings of a population.
//!
//! - [`EpsilonLevel`] — the ε-level order: `a` may stay before `b` iff
//!   `ν_a = ν_b ∧ f_a ≤ f_b`, or `ν_a ≤ ε ∧ ν_b ≤ ε ∧ f_a ≤ f_b`, or otherwise `ν_a < ν_b`.
//!   With `ε = 0` it is the lexicographic order of the lex variants ([`EpsilonLevel::LEXICOGRAPHIC`]).
//! - [`ReferenceLexicographic`] — the order used to pick `ε0`'s subset and by the
//!   statistics: `f_a ≤ f_b` if both are feasible (`ν = 0`), otherwise `ν_a ≤ ν_b`
//!   (two infeasible candidates with equal `ν` are tied; `f` is not consulted).
//!
//! Both are total preorders on non-NaN values (the ε-level order sorts the candidates
//! with `ν ≤ ε` by `f` before all others, which are sorted by `(ν, f)`), so sorting by
//! them is well defined. Rankings are **stable**: tied candidates keep their index
//! order, as the reference's bubble sort does.
//!
//! **NaN policy.** A candidate whose objective or violation is NaN ranks after every
//! candidate without NaN; NaN candidates keep their index order among themselves.
//! Infinite values are ordinary (very large or small) numbers.

use std::cmp::Ordering;

pub use crate::quality::Fitness;

/// Compares two non-NaN numbers (the callers rule NaN out first).
#[inline]
fn cmp_num(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// Applies the NaN policy: `Some` ordering if at least one side has a NaN.
#[inline]
fn nan_last(a: &Fitness, b: &Fitness) -> Option<Ordering> {
    match (a.has_nan(), b.has_nan()) {
        (false, false) => None,
        (true, true) => Some(Ordering::Equal),
        (true, false) => Some(Ordering::Greater),
        (false, true) => Some(Ordering::Less),
    }
}

/// An order on candidates: a total preorder, `Less` meaning "ranks before".
///
/// `compare(a, b) != Greater` is the reference's "`a` may stay before `b`".
pub trait CandidateOrder {
    /// Compares `a` with `b`.
    fn compare(&self, a: &Fitness, b: &Fitness) -> Ordering;

    /// Whether `a` may stay before `b` (`a ≤ b` in this order).
    fn precedes(&self, a: &Fitness, b: &Fitness) -> bool {
        self.compare(a, b) != Ordering::Greater
    }
}

/// The ε-level order with threshold `epsilon` (docs/algorithm.md §3).
///
/// ```
/// use constraint_handling::ordering::{CandidateOrder, EpsilonLevel, Fitness};
/// let order = EpsilonLevel::new(0.5);
/// let a = Fitness::new(3.0, 0.4); // within ε: compared by f
/// let b = Fitness::new(1.0, 0.2);
/// let c = Fitness::new(0.0, 0.6); // outside ε: compared by ν
/// assert!(order.precedes(&b, &a));
/// assert!(order.precedes(&a, &c));
/// assert!(!EpsilonLevel::LEXICOGRAPHIC.precedes(&a, &b));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpsilonLevel {
    /// The threshold `ε`.
    pub epsilon: f64,
}

impl EpsilonLevel {
    /// The lexicographic order (`ε = 0`): feasibility first, then `f`.
    pub const LEXICOGRAPHIC: Self = Self { epsilon: 0.0 };

    /// The ε-level order at threshold `epsilon`.
    #[must_use]
    pub fn new(epsilon: f64) -> Self {
        Self { epsilon }
    }
}

impl CandidateOrder for EpsilonLevel {
    fn compare(&self, a: &Fitness, b: &Fitness) -> Ordering {
        if let Some(o) = nan_last(a, b) {
            return o;
        }
        let eps = self.epsilon;
        if a.violation == b.violation || (a.violation <= eps && b.violation <= eps) {
            cmp_num(a.objective, b.objective)
        } else {
            cmp_num(a.violation, b.violation)
        }
    }
}

/// The reference lexicographic order (docs/algorithm.md §3): feasible candidates by `f`,
/// all others by `ν` alone.
///
/// ```
/// use constraint_handling::ordering::{CandidateOrder, ReferenceLexicographic, Fitness};
/// let o = ReferenceLexicographic;
/// // Two infeasible candidates with equal ν are tied, whatever their f.
/// assert_eq!(
///     o.compare(&Fitness::new(5.0, 1.0), &Fitness::new(-5.0, 1.0)),
///     std::cmp::Ordering::Equal
/// );
/// assert!(o.precedes(&Fitness::new(9.0, 0.0), &Fitness::new(-9.0, 1e-9)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceLexicographic;

impl CandidateOrder for ReferenceLexicographic {
    fn compare(&self, a: &Fitness, b: &Fitness) -> Ordering {
        if let Some(o) = nan_last(a, b) {
            return o;
        }
        if a.violation == 0.0 && b.violation == 0.0 {
            cmp_num(a.objective, b.objective)
        } else {
            cmp_num(a.violation, b.violation)
        }
    }
}

/// The reference's best-so-far update (docs/algorithm.md §5, step 10): whether `candidate`
/// replaces `best`. It is lexicographic like [`ReferenceLexicographic`] except that
/// two points with the same violation `ν̄ > 0` are compared by `f` (the reference's
/// expression `(ν_c = 0 ∧ ν_b = 0 ∧ f_c < f_b) ∨ (ν_c = ν_b ∧ f_c < f_b) ∨ ν_c < ν_b`).
/// A comparison with NaN is false: a candidate with a NaN `ν̄` never replaces the best,
/// one with a NaN `f` only by a lower `ν̄`.
///
/// ```
/// use constraint_handling::ordering::{improves_best_so_far, Fitness};
/// let best = Fitness::new(5.0, 2.0);
/// assert!(improves_best_so_far(&Fitness::new(4.0, 2.0), &best)); // same ν̄ > 0, lower f
/// assert!(improves_best_so_far(&Fitness::new(9.0, 1.0), &best));
/// assert!(!improves_best_so_far(&Fitness::new(0.0, f64::NAN), &best));
/// assert!(!improves_best_so_far(&Fitness::new(f64::NAN, 2.0), &best));
/// ```
#[must_use]
pub fn improves_best_so_far(candidate: &Fitness, best: &Fitness) -> bool {
    let (fc, vc) = (candidate.objective, candidate.violation);
    let (fb, vb) = (best.objective, best.violation);
    (vc == 0.0 && vb == 0.0 && fc < fb) || (vc == vb && fc < fb) || vc < vb
}

/// [`improves_best_so_far`] with NaN violations ordered last: a candidate whose `ν̄` is a
/// number also replaces a best whose `ν̄` is NaN (which the reference's rule keeps, as
/// `ν̄_c < NaN` is false). Problems that return NaN constraint values at some points
/// (CEC2020's power systems at the box centre) then keep no NaN best once a number
/// was seen; where no violation is NaN the two rules agree.
///
/// ```
/// use constraint_handling::ordering::{improves_best_so_far, improves_best_so_far_nan_last, Fitness};
/// let nan = Fitness::new(1.0, f64::NAN);
/// let number = Fitness::new(9.0, 3.0);
/// assert!(!improves_best_so_far(&number, &nan)); // the reference's rule keeps NaN
/// assert!(improves_best_so_far_nan_last(&number, &nan));
/// assert!(!improves_best_so_far_nan_last(&nan, &number));
/// ```
#[must_use]
pub fn improves_best_so_far_nan_last(candidate: &Fitness, best: &Fitness) -> bool {
    (best.violation.is_nan() && !candidate.violation.is_nan())
        || improves_best_so_far(candidate, best)
}

/// Errors of the ranking functions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RankingError {
    /// The objective, violation and permutation buffers have different lengths.
    #[error(
        "ranking: {objectives} objectives, {violations} violations, permutation of {permutation}"
    )]
    LengthMismatch {
        /// Length of the objectives.
        objectives: usize,
        /// Length of the violations.
        violations: usize,
        /// Length of the output permutation.
        permutation: usize,
    },
}

/// The three buffers of a ranking must have one length: the check every ranking
/// function here makes, for rankings written elsewhere (e.g. `ma-es`'s stochastic
/// ranking).
///
/// # Errors
/// [`RankingError::LengthMismatch`] naming the three lengths.
pub fn check_lengths(
    objectives: &[f64],
    violations: &[f64],
    permutation: &[usize],
) -> Result<(), RankingError> {
    if objectives.len() != violations.len() || objectives.len() != permutation.len() {
        return Err(RankingError::LengthMismatch {
            objectives: objectives.len(),
            violations: violations.len(),
            permutation: permutation.len(),
        });
    }
    Ok(())
}

/// Ranks a population stably: writes into `permutation` the indices of the candidates
/// from first to last (`permutation[0]` is the best). Does not allocate.
///
/// # Errors
/// [`RankingError::LengthMismatch`] if the three slices have different lengths.
///
/// ```
/// use constraint_handling::ordering::{rank_into, EpsilonLevel};
/// let f = [3.0, 1.0, 2.0, 1.0];
/// let v = [0.0, 0.0, 0.0, 0.0];
/// let mut perm = [0; 4];
/// rank_into(&EpsilonLevel::LEXICOGRAPHIC, &f, &v, &mut perm).unwrap();
/// assert_eq!(perm, [1, 3, 2, 0]); // the tie 1 = 3 keeps index order
/// ```
pub fn rank_into<O: CandidateOrder + ?Sized>(
    order: &O,
    objectives: &[f64],
    violations: &[f64],
    permutation: &mut [usize],
) -> Result<(), RankingError> {
    check_lengths(objectives, violations, permutation)?;
    for (i, p) in permutation.iter_mut().enumerate() {
        *p = i;
    }
    let fit = |i: usize| Fitness::new(objectives[i], violations[i]);
    // Breaking ties by index makes the unstable (allocation-free) sort stable.
    permutation.sort_unstable_by(|&i, &j| order.compare(&fit(i), &fit(j)).then(i.cmp(&j)));
    Ok(())
}

/// A sort key that orders candidates exactly as the ε-level order does, with ties
/// broken by index: `(class and ν, f, index)` as integers (`f64` bits mapped to
/// order-preserving `u64`s, `−0` as `+0`). Candidates with `ν ≤ ε` have primary 0 and
/// are ordered by `f`; the others by `ν`, then `f`; NaN candidates come last in index
/// order. Comparing two keys is three integer comparisons, so ranking by keys is much
/// cheaper than by [`EpsilonLevel::compare`] — and gives the same permutation
/// ([`rank_epsilon_level_into`]; property-tested against [`rank_into`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EpsilonLevelKey {
    primary: u64,
    secondary: u64,
    index: usize,
}

/// `x`'s position in the IEEE order as an unsigned integer (`−0` as `+0`; not for NaN).
#[inline]
fn ordered_bits(x: f64) -> u64 {
    let b = (x + 0.0).to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

impl EpsilonLevel {
    /// The sort key of candidate `index` with `(f, ν̄)` = `fitness` in this order.
    #[must_use]
    #[inline]
    pub fn key(&self, fitness: &Fitness, index: usize) -> EpsilonLevelKey {
        let (primary, secondary) = if fitness.has_nan() {
            (u64::MAX, 0)
        } else if fitness.violation <= self.epsilon {
            (0, ordered_bits(fitness.objective))
        } else {
            (
                ordered_bits(fitness.violation),
                ordered_bits(fitness.objective),
            )
        };
        EpsilonLevelKey {
            primary,
            secondary,
            index,
        }
    }
}

/// [`rank_into`] for the ε-level order, by sort keys: the same permutation, several
/// times faster. `keys` is a scratch buffer (it grows to the population size once and
/// is reused, so repeated rankings do not allocate).
///
/// # Errors
/// [`RankingError::LengthMismatch`] if the three slices have different lengths.
///
/// ```
/// use constraint_handling::ordering::{rank_epsilon_level_into, rank_into, EpsilonLevel};
/// let f = [3.0, 1.0, f64::NAN, 1.0, 0.5];
/// let v = [0.4, 0.0, 0.0, 2.0, 0.6];
/// let (mut a, mut b) = ([0; 5], [0; 5]);
/// let order = EpsilonLevel::new(0.5);
/// rank_epsilon_level_into(&order, &f, &v, &mut a, &mut Vec::new()).unwrap();
/// rank_into(&order, &f, &v, &mut b).unwrap();
/// assert_eq!(a, [1, 0, 4, 3, 2]);
/// assert_eq!(a, b);
/// ```
pub fn rank_epsilon_level_into(
    order: &EpsilonLevel,
    objectives: &[f64],
    violations: &[f64],
    permutation: &mut [usize],
    keys: &mut Vec<EpsilonLevelKey>,
) -> Result<(), RankingError> {
    check_lengths(objectives, violations, permutation)?;
    keys.clear();
    keys.extend(
        objectives
            .iter()
            .zip(violations)
            .enumerate()
            .map(|(i, (&f, &v))| order.key(&Fitness::new(f, v), i)),
    );
    // Keys are distinct (the index is part of them): the unstable sort is stable.
    keys.sort_unstable();
    for (p, k) in permutation.iter_mut().zip(keys.iter()) {
        *p = k.index;
    }
    Ok(())
}

/// Ranks a population stably and returns the permutation (see [`rank_into`]).
///
/// # Errors
/// [`RankingError::LengthMismatch`] if `objectives` and `violations` differ in length.
pub fn rank<O: CandidateOrder + ?Sized>(
    order: &O,
    objectives: &[f64],
    violations: &[f64],
) -> Result<Vec<usize>, RankingError> {
    let mut permutation = vec![0; objectives.len()];
    rank_into(order, objectives, violations, &mut permutation)?;
    Ok(permutation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epsilon_level_hand_cases() {
        let o = EpsilonLevel::new(1.0);
        let f = |x, v| Fitness::new(x, v);
        // equal ν → f decides, even above ε
        assert!(o.precedes(&f(1.0, 5.0), &f(2.0, 5.0)));
        assert!(!o.precedes(&f(3.0, 5.0), &f(2.0, 5.0)));
        // both within ε → f decides
        assert!(o.precedes(&f(1.0, 0.9), &f(2.0, 0.0)));
        // one outside → ν decides
        assert!(o.precedes(&f(9.0, 0.9), &f(0.0, 1.1)));
        // equal candidates precede each other
        assert!(o.precedes(&f(1.0, 1.0), &f(1.0, 1.0)));
    }

    #[test]
    fn nan_candidates_rank_last_and_stay_in_order() {
        let f = [f64::NAN, 1.0, 0.5, 2.0, f64::NAN];
        let v = [0.0, f64::NAN, 0.0, 0.0, 0.0];
        let perm = rank(&EpsilonLevel::new(0.1), &f, &v).unwrap();
        assert_eq!(perm, vec![2, 3, 0, 1, 4]);
        let perm = rank(&ReferenceLexicographic, &f, &v).unwrap();
        assert_eq!(perm, vec![2, 3, 0, 1, 4]);
        // NaN threshold: nothing is "within ε", the order is by (ν, f).
        let perm = rank(&EpsilonLevel::new(f64::NAN), &[2.0, 1.0], &[0.5, 0.5]).unwrap();
        assert_eq!(perm, vec![1, 0]);
    }

    #[test]
    fn reference_lexicographic_ties_infeasible_candidates() {
        let f = [5.0, 1.0, 3.0, 0.0];
        let v = [2.0, 2.0, 0.0, 0.0];
        assert_eq!(
            rank(&ReferenceLexicographic, &f, &v).unwrap(),
            vec![3, 2, 0, 1]
        );
        // the ε-level order at ε = 0 consults f between equal ν
        assert_eq!(
            rank(&EpsilonLevel::LEXICOGRAPHIC, &f, &v).unwrap(),
            vec![3, 2, 1, 0]
        );
    }

    #[test]
    fn signed_zeros_are_equal() {
        let o = EpsilonLevel::LEXICOGRAPHIC;
        assert_eq!(
            o.compare(&Fitness::new(-0.0, 0.0), &Fitness::new(0.0, -0.0)),
            Ordering::Equal
        );
    }

    #[test]
    fn length_mismatch_is_reported() {
        assert!(rank(&ReferenceLexicographic, &[1.0], &[]).is_err());
        let mut p = [0; 3];
        assert!(rank_into(&ReferenceLexicographic, &[1.0; 2], &[0.0; 2], &mut p).is_err());
    }
}
