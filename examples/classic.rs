//! The harness's `portfolio` and `sqp-restarts` on local-phase's classic problems
//! (Rosen–Suzuki, the spring, the pressure vessel, a circle with an equality) at the
//! budgets of issue 55's Rosen–Suzuki table, seeds 1–10: the "hit", the first
//! evaluation of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`.
//! The budget only cuts, so a hit does not depend on the budget beyond it.
//!
//! ```sh
//! cargo run --release --example classic
//! ```

use constraint_handling::problem::{
    evaluate_columns, ConstrainedProblem, ProblemError, ProblemWrapper,
};
use emages::optimizer::{LocalPhaseOptimizer, Optimizer, PortfolioOptimizer, Task};
use local_phase::classic::{self, Classic, Formulated};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the evaluations and notes the first hit.
struct Hits<'a> {
    inner: &'a Classic,
    count: AtomicUsize,
    hit: AtomicUsize,
}

impl ProblemWrapper for Hits<'_> {
    type Inner = Formulated;
    fn inner(&self) -> &Formulated {
        &self.inner.problem
    }
    fn wrap_evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        let f = self.inner.problem.evaluate(x, c)?;
        let count = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let l = self.inner.problem.num_inequalities();
        let feasible = c[..l].iter().all(|g| *g <= 0.0) && c[l..].iter().all(|h| h.abs() <= 1e-8);
        let close = f - self.inner.f_star <= 1e-6 * self.inner.f_star.abs().max(1.0);
        if feasible && close && self.hit.load(Ordering::Relaxed) == 0 {
            self.hit.store(count, Ordering::Relaxed);
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
    fn wrap_evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        f: ArrayViewMut1<'_, f64>,
        c: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        evaluate_columns(self, points, f, c)
    }
}

fn median(v: &mut [usize]) -> f64 {
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2]) as f64
    }
}

fn main() {
    canonical_kernel::at_program_start();
    println!("| problem | optimizer | budget | hit (solved / 10) | hit min / median / max | evaluations used (median) |");
    println!("|---|---|---|---|---|---|");
    let portfolio = PortfolioOptimizer::default();
    let sqp = LocalPhaseOptimizer::default();
    let optimizers: [&dyn Optimizer; 2] = [&portfolio, &sqp];
    for c in classic::all() {
        for optimizer in optimizers {
            for budget in [5_000, 20_000, 200_000] {
                let (mut hits, mut used) = (Vec::new(), Vec::new());
                for seed in 1..=10 {
                    let wrapped = Hits {
                        inner: &c,
                        count: AtomicUsize::new(0),
                        hit: AtomicUsize::new(0),
                    };
                    let out = optimizer
                        .run(&Task::new(&wrapped, budget, seed))
                        .expect("a classic problem runs");
                    used.push(out.evaluations);
                    let hit = wrapped.hit.load(Ordering::Relaxed);
                    if hit > 0 {
                        hits.push(hit);
                    }
                }
                let solved = hits.len();
                let range = if hits.is_empty() {
                    "—".to_string()
                } else {
                    let m = median(&mut hits);
                    format!("{} / {m} / {}", hits[0], hits[solved - 1])
                };
                println!(
                    "| {} | {} | {budget} | {solved} | {range} | {} |",
                    c.name,
                    optimizer.kind(),
                    median(&mut used)
                );
            }
        }
    }
}
