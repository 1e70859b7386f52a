//! The evaluations the SQP local phase spends on the classic problems, as JSON lines:
//! per problem and start, the evaluations to stop and the "hit", the first evaluation
//! of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`
//! (`scripts/local-phase/scipy_peers.py` measures scipy's SLSQP and COBYLA alike).
//!
//!     cargo run --release -p local-phase --example hits

use constraint_handling::problem::{ConstrainedProblem, ProblemShape};
use emages_solver::Solver;
use local_phase::classic::{self, Classic, Hits};
use local_phase::sqp::{Sqp, SqpSettings};

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
            let hits = Hits::new(&c);
            let mut shape = ProblemShape::of(&c.problem).unwrap();
            shape.equality_margin = 1e-8;
            let mut sqp = Sqp::new(shape, x0, SqpSettings::default()).unwrap();
            sqp.run(&hits, 10_000).unwrap();
            let best = sqp.best().unwrap();
            println!(
                "{{\"solver\":\"sqp\",\"problem\":\"{}\",\"start\":{s},\"evaluations\":{},\"hit\":{},\"f\":{:e},\"stop\":\"{:?}\"}}",
                c.name,
                hits.evaluations(),
                hits.hit().map_or("null".into(), |h| h.to_string()),
                best.objective(),
                sqp.stopped()
            );
        }
    }
}
