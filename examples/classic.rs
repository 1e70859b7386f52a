//! The harness's `portfolio` and `sqp-restarts` on local-phase's classic problems
//! (Rosen–Suzuki, the spring, the pressure vessel, a circle with an equality) at the
//! budgets of issue 55's Rosen–Suzuki table, seeds 1–10: the "hit", the first
//! evaluation of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`.
//! The budget only cuts, so a hit does not depend on the budget beyond it.
//!
//! ```sh
//! cargo run --release --example classic
//! ```

use emages::optimizer::{LocalPhaseOptimizer, Optimizer, PortfolioOptimizer, Task};
use local_phase::classic::{self, Hits};

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
                    let wrapped = Hits::new(&c);
                    let out = optimizer
                        .run(&Task::new(&wrapped, budget, seed))
                        .expect("a classic problem runs");
                    used.push(out.evaluations);
                    hits.extend(wrapped.hit());
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
