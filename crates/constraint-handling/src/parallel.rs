//! A population evaluated on several threads, for problems whose evaluation is
//! expensive ([`ConstrainedProblem::as_expensive`]).
//!
//! [`Parallel`] wraps a `Sync` problem: its batch evaluations split the columns into
//! one contiguous chunk per thread (scoped threads, `⌈n / threads⌉` columns each, in
//! order) and hand each chunk to the problem's own batch evaluation. The values are
//! those of one thread whenever the problem's batch evaluation treats each column on
//! its own — as the default [`ConstrainedProblem::evaluate_batch`] does, column by
//! column — so a run is the same run on any number of threads.
//!
//! ```
//! use constraint_handling::parallel::Parallel;
//! use constraint_handling::{ConstrainedProblem, FnProblem};
//! use ndarray::{Array1, Array2};
//! let problem = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 1, 0, |x, g| {
//!     g[0] = x[0] + x[1];
//!     Ok(x[0] * x[1])
//! })
//! .unwrap();
//! let points = Array2::from_shape_fn((2, 9), |(i, k)| (i + k) as f64 / 10.0);
//! let (mut f4, mut c4) = (Array1::zeros(9), Array2::zeros((1, 9)));
//! Parallel::new(&problem, 4)
//!     .evaluate_batch(points.view(), f4.view_mut(), c4.view_mut())
//!     .unwrap();
//! let (mut f1, mut c1) = (Array1::zeros(9), Array2::zeros((1, 9)));
//! problem.evaluate_batch(points.view(), f1.view_mut(), c1.view_mut()).unwrap();
//! assert_eq!((f4, c4), (f1, c1));
//! ```

use crate::problem::{check_batch_shapes, ConstrainedProblem, ProblemError, ProblemWrapper};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};

/// A batch evaluation of a problem: points, objectives, constraints.
type BatchFn<P> = fn(
    &P,
    ArrayView2<'_, f64>,
    ArrayViewMut1<'_, f64>,
    ArrayViewMut2<'_, f64>,
) -> Result<(), ProblemError>;

/// A problem whose batch evaluations run on `threads` threads (see the
/// [module](self) documentation).
#[derive(Clone, Debug)]
pub struct Parallel<P> {
    problem: P,
    threads: usize,
}

impl<P: ConstrainedProblem + Sync> Parallel<P> {
    /// `problem` evaluated on `threads` threads (at least one).
    #[must_use]
    pub fn new(problem: P, threads: usize) -> Self {
        Self {
            problem,
            threads: threads.max(1),
        }
    }

    /// `problem` evaluated on as many threads as the machine runs at once
    /// ([`std::thread::available_parallelism`]).
    #[must_use]
    pub fn on_all_cores(problem: P) -> Self {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Self::new(problem, threads)
    }

    /// The threads a batch is spread over.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The problem.
    pub fn inner(&self) -> &P {
        &self.problem
    }

    /// Splits the batch into one chunk of columns per thread and evaluates each with
    /// `evaluate` (the problem's batch evaluation of that chunk); the first failing
    /// chunk's error, in column order.
    fn spread(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
        evaluate: BatchFn<P>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(&self.problem, &points, &objectives, &constraints)?;
        let n = points.ncols();
        if self.threads == 1 || n < 2 {
            return evaluate(&self.problem, points, objectives, constraints);
        }
        let chunk = n.div_ceil(self.threads);
        let problem = &self.problem;
        std::thread::scope(|scope| {
            let handles: Vec<_> = points
                .axis_chunks_iter(Axis(1), chunk)
                .zip(objectives.axis_chunks_iter_mut(Axis(0), chunk))
                .zip(constraints.axis_chunks_iter_mut(Axis(1), chunk))
                .map(|((x, f), c)| scope.spawn(move || evaluate(problem, x, f, c)))
                .collect();
            handles
                .into_iter()
                .try_for_each(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        })
    }
}

/// The inner problem's, but for the batches, spread over the threads. `as_expensive` is
/// `None`: the batches are already parallel.
impl<P: ConstrainedProblem + Sync> ProblemWrapper for Parallel<P> {
    type Inner = P;
    fn inner(&self) -> &P {
        &self.problem
    }
    fn wrap_evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.spread(points, objectives, constraints, |p, x, f, c| {
            p.evaluate_batch(x, f, c)
        })
    }
    fn wrap_evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.spread(points, objectives, constraints, |p, x, f, c| {
            p.evaluate_constraints_batch(x, f, c)
        })
    }
    fn wrap_as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FnProblem;
    use ndarray::{Array1, Array2, ShapeBuilder};

    /// Every thread count, both layouts, gives the values of one thread; an error
    /// comes from the first failing column's chunk.
    #[test]
    fn any_thread_count_gives_the_values_of_one() {
        let p = FnProblem::new(vec![-2.0; 3], vec![2.0; 3], 1, 1, |x, c| {
            c[0] = x.iter().sum::<f64>() - 1.0;
            c[1] = x[0] * x[1] - x[2];
            if x[0] > 1.9 {
                return Err(ProblemError::Evaluation(format!("x₁ = {}", x[0])));
            }
            Ok(x.iter().map(|v| v.sin()).product())
        })
        .unwrap();
        let points = Array2::from_shape_fn((3, 13).f(), |(i, k)| {
            ((i * 7 + k * 3) % 11) as f64 / 3.0 - 1.8
        });
        let mut expected = (Array1::zeros(13), Array2::zeros((2, 13).f()));
        p.evaluate_batch(points.view(), expected.0.view_mut(), expected.1.view_mut())
            .unwrap();
        for threads in [1, 2, 3, 4, 13, 40] {
            for layout_c in [false, true] {
                let mut f = Array1::zeros(13);
                let mut c = if layout_c {
                    Array2::zeros((2, 13))
                } else {
                    Array2::zeros((2, 13).f())
                };
                Parallel::new(&p, threads)
                    .evaluate_batch(points.view(), f.view_mut(), c.view_mut())
                    .unwrap();
                assert_eq!((&f, &c), (&expected.0, &expected.1), "{threads} threads");
            }
        }
        let mut bad = points.clone();
        bad[[0, 9]] = 1.95;
        bad[[0, 4]] = 1.99;
        let err = Parallel::new(&p, 4)
            .evaluate_batch(
                bad.view(),
                Array1::zeros(13).view_mut(),
                Array2::zeros((2, 13)).view_mut(),
            )
            .unwrap_err();
        assert!(err.to_string().contains("1.99"), "{err}");
        let err = Parallel::new(&p, 4)
            .evaluate_batch(
                points.view(),
                Array1::zeros(12).view_mut(),
                Array2::zeros((2, 13)).view_mut(),
            )
            .unwrap_err();
        assert!(matches!(err, ProblemError::BatchShape { .. }), "{err}");
    }
}
