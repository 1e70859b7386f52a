//! The best point a run has evaluated: one type for every solver.

use constraint_handling::{Fitness, Snapshot};
use serde::{Deserialize, Serialize};

/// The best point evaluated so far, by the best-so-far order on `(ν̄, f)` (lower `ν̄`
/// first, then lower `f`; [`constraint_handling::ordering::improves_best_so_far`]):
/// the point, its constraint values, and its [`Snapshot`] — `(f, ν̄)`, the CEC counts
/// where the solver keeps them, and the evaluation count at which it was found.
///
/// `found_at` counts as the solver does: the local phase and the portfolio name the
/// evaluation (1-based) that found the point; an ES names the evaluation count after
/// the generation that found it (the reference's rule, which meanRTgb averages).
///
/// ```
/// use constraint_handling::Snapshot;
/// use emages_solver::Best;
/// let best = Best::new(vec![0.5, 0.5], vec![0.0], Snapshot::new(0.5, 0.0).found_at(12));
/// assert!(best.is_feasible() && best.objective() == 0.5 && best.found_at() == 12);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Best {
    /// The point `x`.
    #[serde(alias = "y")]
    pub x: Vec<f64>,
    /// `C(x) = (g, h)`.
    pub constraints: Vec<f64>,
    /// Its quality and when it was found.
    pub snapshot: Snapshot,
}

impl Best {
    /// The best point `x` with constraint values `constraints` and quality `snapshot`.
    #[must_use]
    pub fn new(x: Vec<f64>, constraints: Vec<f64>, snapshot: Snapshot) -> Self {
        Self {
            x,
            constraints,
            snapshot,
        }
    }

    /// `f(x)`.
    #[must_use]
    pub fn objective(&self) -> f64 {
        self.snapshot.objective()
    }

    /// `ν̄(x)`.
    #[must_use]
    pub fn violation(&self) -> f64 {
        self.snapshot.violation()
    }

    /// `(f, ν̄)`.
    #[must_use]
    pub fn fitness(&self) -> Fitness {
        self.snapshot.fitness
    }

    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.snapshot.is_feasible()
    }

    /// The evaluation count at which it was found (see the type's documentation; 0
    /// where it was not recorded).
    #[must_use]
    pub fn found_at(&self) -> usize {
        self.snapshot.found_at.unwrap_or(0)
    }

    /// `‖x‖₂`.
    #[must_use]
    pub fn norm(&self) -> f64 {
        self.x.iter().map(|v| v * v).sum::<f64>().sqrt()
    }
}
