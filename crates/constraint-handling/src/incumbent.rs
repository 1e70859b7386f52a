//! The best-so-far of a run and the checkpoints taken of it: the bookkeeping that every
//! optimizer of the workspace shares, so that all of them are scored alike — the
//! strategy (`ma-es`) offers its first-ranked offspring once per generation, the
//! harness's `Tracker` every evaluated point.
//!
//! - The best-so-far follows the reference's rule
//!   ([`improves_best_so_far`]: a lower `ν̄` first, then, at equal `ν̄` or both feasible,
//!   a lower `f`); its `found_at` is the evaluation count after the iteration that found
//!   it.
//! - A checkpoint at `k` evaluations is the best-so-far after the iteration in which the
//!   count reaches `k` ([`Incumbent::reach`]). Those at or beyond the budget are taken
//!   when the run ends ([`Incumbent::finish`]), with the final best-so-far and
//!   evaluation count, and so are those the run never reached.

use crate::ordering::{improves_best_so_far, improves_best_so_far_nan_last};
use crate::quality::{Checkpoint, Fitness, Snapshot};

/// The best-so-far and the checkpoints of one run.
///
/// ```
/// use constraint_handling::{Incumbent, Snapshot};
/// // Checkpoints at 2 and 4 evaluations of a budget of 4.
/// let mut run = Incumbent::new(&[2, 4]);
/// assert!(run.offer(Snapshot::new(5.0, 1.0).found_at(1)));
/// run.reach(1, 4);
/// assert!(!run.offer(Snapshot::new(1.0, 2.0).found_at(2))); // more violated
/// run.reach(2, 4); // the checkpoint at 2 evaluations
/// assert!(run.offer(Snapshot::new(9.0, 0.0).found_at(3))); // feasible
/// run.reach(4, 4); // 4 is the budget: taken when the run ends
/// let checkpoints = run.finish(4);
/// assert_eq!(checkpoints.len(), 2);
/// assert_eq!((checkpoints[0].evaluations, checkpoints[0].best.objective()), (2, 5.0));
/// assert_eq!((checkpoints[1].evaluations, checkpoints[1].best.objective()), (4, 9.0));
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Incumbent {
    best: Option<Snapshot>,
    wanted: Vec<usize>,
    taken: Vec<Checkpoint>,
}

impl Incumbent {
    /// No best-so-far yet; checkpoints wanted at these evaluation counts (ascending).
    #[must_use]
    pub fn new(checkpoints: &[usize]) -> Self {
        Self {
            best: None,
            wanted: checkpoints.to_vec(),
            taken: Vec::with_capacity(checkpoints.len()),
        }
    }

    /// The best-so-far, once anything was offered.
    #[must_use]
    pub fn best(&self) -> Option<&Snapshot> {
        self.best.as_ref()
    }

    /// Whether a candidate of this quality would become the best-so-far (always, while
    /// there is none).
    #[must_use]
    pub fn improves(&self, candidate: &Fitness) -> bool {
        self.best
            .as_ref()
            .is_none_or(|b| improves_best_so_far(candidate, &b.fitness))
    }

    /// [`Self::improves`] with NaN violations ordered last
    /// ([`improves_best_so_far_nan_last`]): a candidate whose `ν̄` is a number also
    /// replaces a best-so-far whose `ν̄` is NaN.
    #[must_use]
    pub fn improves_nan_last(&self, candidate: &Fitness) -> bool {
        self.best
            .as_ref()
            .is_none_or(|b| improves_best_so_far_nan_last(candidate, &b.fitness))
    }

    /// Makes `best` the best-so-far, unconditionally (after [`Self::improves`], when
    /// building the snapshot costs something, or for the initial population).
    pub fn replace(&mut self, best: Snapshot) {
        self.best = Some(best);
    }

    /// Makes `candidate` the best-so-far if it [improves](Self::improves) on it;
    /// returns whether it did.
    pub fn offer(&mut self, candidate: Snapshot) -> bool {
        let better = self.improves(&candidate.fitness);
        if better {
            self.best = Some(candidate);
        }
        better
    }

    /// After an iteration that brought the count to `evaluations`: takes the checkpoints
    /// it reached, except those at or beyond `budget` (the final ones, which
    /// [`Self::finish`] takes). Nothing is taken before a best-so-far exists.
    pub fn reach(&mut self, evaluations: usize, budget: usize) {
        let Some(best) = self.best else { return };
        while let Some(&at) = self.wanted.get(self.taken.len()) {
            if at >= budget || evaluations < at {
                break;
            }
            self.taken.push(Checkpoint { evaluations, best });
        }
    }

    /// The checkpoints taken so far.
    #[must_use]
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.taken
    }

    /// The run ended after `evaluations`: every checkpoint not taken yet holds the final
    /// best-so-far (NaN values if nothing was ever offered); returns all of them, one
    /// per wanted count.
    pub fn finish(&mut self, evaluations: usize) -> &[Checkpoint] {
        let best = self
            .best
            .unwrap_or_else(|| Snapshot::new(f64::NAN, f64::NAN).found_at(0));
        while self.taken.len() < self.wanted.len() {
            self.taken.push(Checkpoint { evaluations, best });
        }
        &self.taken
    }

    /// The final best-so-far and the checkpoints, consuming the bookkeeping (as
    /// [`Self::finish`]).
    #[must_use]
    pub fn into_parts(mut self, evaluations: usize) -> (Snapshot, Vec<Checkpoint>) {
        self.finish(evaluations);
        let best = self
            .best
            .unwrap_or_else(|| Snapshot::new(f64::NAN, f64::NAN).found_at(0));
        (best, self.taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_taken_before_a_best_exists_and_unreached_ones_hold_the_final_best() {
        let mut run = Incumbent::new(&[1, 10, 100]);
        run.reach(5, 100);
        assert!(run.checkpoints().is_empty());
        run.replace(Snapshot::new(3.0, 0.0).found_at(5));
        run.reach(5, 100);
        assert_eq!(run.checkpoints().len(), 1, "1 ≤ 5 < 10");
        assert_eq!(run.checkpoints()[0].evaluations, 5);
        let (best, cps) = run.into_parts(7);
        assert_eq!(best.objective(), 3.0);
        assert_eq!(
            cps.iter().map(|c| c.evaluations).collect::<Vec<_>>(),
            [5, 7, 7]
        );
    }

    #[test]
    fn an_empty_run_reports_nan() {
        let (best, cps) = Incumbent::new(&[4]).into_parts(0);
        assert!(best.objective().is_nan() && best.violation().is_nan());
        assert_eq!(cps.len(), 1);
    }

    #[test]
    fn the_reference_rule_decides() {
        let mut run = Incumbent::new(&[]);
        assert!(run.offer(Snapshot::new(1.0, 3.0)));
        assert!(!run.offer(Snapshot::new(0.0, 4.0)), "more violated");
        assert!(run.offer(Snapshot::new(8.0, 2.0)), "less violated");
        assert!(!run.offer(Snapshot::new(f64::NAN, 2.0)), "NaN f");
        assert!(run.offer(Snapshot::new(9.0, 0.0)));
        assert!(run.offer(Snapshot::new(-1.0, 0.0)));
        assert_eq!(run.best().unwrap().objective(), -1.0);
    }
}
