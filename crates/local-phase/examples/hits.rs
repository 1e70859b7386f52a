//! The evaluations the SQP local phase spends on the classic problems, as JSON lines:
//! per problem and start, the evaluations to stop and the "hit", the first evaluation
//! of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`
//! (`scripts/local-phase/scipy_peers.py` measures scipy's SLSQP and COBYLA alike).
//!
//!     cargo run --release -p local-phase --example hits

use constraint_handling::problem::{
    evaluate_columns, ConstrainedProblem, ProblemError, ProblemShape, ProblemWrapper,
};
use local_phase::classic::{self, Classic};
use local_phase::sqp::{Sqp, SqpSettings};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2};
use std::cell::Cell;

/// Counts the evaluations and notes the first hit.
struct Hits<'a> {
    inner: &'a Classic,
    count: Cell<usize>,
    hit: Cell<Option<usize>>,
}

impl ProblemWrapper for Hits<'_> {
    type Inner = classic::Formulated;
    fn inner(&self) -> &Self::Inner {
        &self.inner.problem
    }
    fn wrap_evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        let f = self.inner.problem.evaluate(x, c)?;
        self.count.set(self.count.get() + 1);
        let l = self.inner.problem.num_inequalities();
        let feasible = c[..l].iter().all(|g| *g <= 0.0) && c[l..].iter().all(|h| h.abs() <= 1e-8);
        let close = f - self.inner.f_star <= 1e-6 * self.inner.f_star.abs().max(1.0);
        if feasible && close && self.hit.get().is_none() {
            self.hit.set(Some(self.count.get()));
        }
        Ok(f)
    }
    fn wrap_evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        f: ArrayViewMut1<'_, f64>,
        c: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        evaluate_columns(self, points, f, c)
    }
}

/// The starts: the problem's own, then nine spread over the box.
pub fn starts(c: &Classic) -> Vec<Vec<f64>> {
    let (lo, hi) = (c.problem.lower_bounds(), c.problem.upper_bounds());
    let mut all = vec![c.start.clone()];
    all.extend((1..10).map(|k| {
        (0..lo.len())
            .map(|i| {
                let u = ((k * 7 + i * 13) as f64 * 0.618_033_988_75).fract();
                lo[i] + u * (hi[i] - lo[i])
            })
            .collect()
    }));
    all
}

fn main() {
    for c in classic::all() {
        for (s, x0) in starts(&c).iter().enumerate() {
            let hits = Hits {
                inner: &c,
                count: Cell::new(0),
                hit: Cell::new(None),
            };
            let mut shape = ProblemShape::of(&c.problem).unwrap();
            shape.equality_margin = 1e-8;
            let mut sqp = Sqp::new(shape, x0, SqpSettings::default()).unwrap();
            sqp.run(&hits, 10_000).unwrap();
            let best = sqp.best().unwrap();
            println!(
                "{{\"solver\":\"sqp\",\"problem\":\"{}\",\"start\":{s},\"evaluations\":{},\"hit\":{},\"f\":{:e},\"stop\":\"{:?}\"}}",
                c.name,
                hits.count.get(),
                hits.hit.get().map_or("null".into(), |h| h.to_string()),
                best.f,
                sqp.stopped()
            );
        }
    }
}
