//! The static description of the 28 problems: bounds, constraint counts, the
//! transformation they use, and the range of their shift vectors.

use serde::{Deserialize, Serialize};

/// Which linear transformation a problem applies to `y = x − o`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Transform {
    /// Shifted only: any `N ≤ 100` works.
    None,
    /// One matrix `M` (problem 2; problems 21–28 share one).
    Single,
    /// Two matrices `M1`, `M2` (problem 5).
    Double,
}

/// The description of one problem of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemSpec {
    /// The problem number `k ∈ 1..=28`.
    pub id: usize,
    /// The box is `[−b_k, b_k]^N`.
    pub bound: f64,
    /// `l_k`, the number of inequality constraints.
    pub inequalities: usize,
    /// `m_k`, the number of equality constraints.
    pub equalities: usize,
    /// The transformation of the search space.
    pub transform: Transform,
    /// Needs an even dimension (problems 8 and 9 split `y` into odd/even entries).
    pub even_dimension: bool,
    /// Synthetic shift vectors are uniform in `[−r, r]` (the official data's range).
    pub shift_range: f64,
    /// Whether the objective is separable (a sum of one-coordinate terms, or `max`).
    pub separable_objective: bool,
    /// Whether every constraint is separable.
    pub separable_constraints: bool,
}

impl ProblemSpec {
    /// `l_k + m_k`.
    #[must_use]
    pub fn constraints(&self) -> usize {
        self.inequalities + self.equalities
    }

    /// Whether the problem has a transformation (needs instance data for its `N`).
    #[must_use]
    pub fn is_rotated(&self) -> bool {
        self.transform != Transform::None
    }
}

const fn spec(
    id: usize,
    bound: f64,
    inequalities: usize,
    equalities: usize,
    transform: Transform,
    shift_range: f64,
    (separable_objective, separable_constraints): (bool, bool),
) -> ProblemSpec {
    ProblemSpec {
        id,
        bound,
        inequalities,
        equalities,
        transform,
        even_dimension: id == 8 || id == 9,
        shift_range,
        separable_objective,
        separable_constraints,
    }
}

use Transform::{Double, None as Plain, Single};

/// The 28 problems, indexed by `k − 1` (docs/algorithm.md §1).
pub const PROBLEMS: [ProblemSpec; 28] = [
    spec(1, 100.0, 1, 0, Plain, 50.0, (false, true)),
    spec(2, 100.0, 1, 0, Single, 50.0, (false, false)),
    spec(3, 100.0, 1, 1, Plain, 50.0, (false, true)),
    spec(4, 10.0, 2, 0, Plain, 5.0, (true, true)),
    spec(5, 10.0, 2, 0, Double, 5.0, (false, false)),
    spec(6, 20.0, 0, 6, Plain, 10.0, (true, true)),
    spec(7, 50.0, 0, 2, Plain, 10.0, (true, true)),
    spec(8, 100.0, 0, 2, Plain, 10.0, (true, false)),
    spec(9, 10.0, 1, 1, Plain, 10.0, (true, false)),
    spec(10, 100.0, 0, 2, Plain, 50.0, (true, false)),
    spec(11, 100.0, 1, 1, Plain, 10.0, (true, false)),
    spec(12, 100.0, 2, 0, Plain, 50.0, (true, true)),
    spec(13, 100.0, 3, 0, Plain, 50.0, (false, true)),
    spec(14, 100.0, 1, 1, Plain, 50.0, (false, true)),
    spec(15, 100.0, 1, 1, Plain, 50.0, (true, false)),
    spec(16, 100.0, 1, 1, Plain, 50.0, (true, false)),
    spec(17, 100.0, 1, 1, Plain, 50.0, (false, false)),
    spec(18, 100.0, 2, 1, Plain, 50.0, (true, false)),
    spec(19, 50.0, 2, 0, Plain, 50.0, (true, false)),
    spec(20, 100.0, 2, 0, Plain, 50.0, (false, false)),
    spec(21, 100.0, 2, 0, Single, 50.0, (false, false)),
    spec(22, 100.0, 3, 0, Single, 50.0, (false, false)),
    spec(23, 100.0, 1, 1, Single, 50.0, (false, false)),
    spec(24, 100.0, 1, 1, Single, 50.0, (false, false)),
    spec(25, 100.0, 1, 1, Single, 50.0, (false, false)),
    spec(26, 100.0, 1, 1, Single, 50.0, (false, false)),
    spec(27, 100.0, 2, 1, Single, 50.0, (false, false)),
    spec(28, 50.0, 2, 0, Single, 50.0, (false, false)),
];

/// The largest dimension the instance data supports (shift vectors have 100 entries).
pub const MAX_DIM: usize = 100;

/// The dimensions for which the official data has transformation matrices.
pub const OFFICIAL_DIMS: [usize; 4] = [10, 30, 50, 100];

/// The description of problem `id`, if `1 ≤ id ≤ 28`.
#[must_use]
pub fn problem_spec(id: usize) -> Option<&'static ProblemSpec> {
    id.checked_sub(1).and_then(|i| PROBLEMS.get(i))
}
