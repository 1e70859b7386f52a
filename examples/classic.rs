//! The recommended strategy (`emages::recommended()`, Python's `minimize` default,
//! stopping by itself), the harness's `portfolio-share0` (the fourth round's portfolio
//! run to the budget), the training `rounds` and `sqp-restarts` on local-phase's
//! classic problems
//! (Rosen–Suzuki, the spring, the pressure vessel, a circle with an equality) at the
//! budgets of docs/python.md's Rosen–Suzuki table, seeds 1–10: the "hit", the first
//! evaluation of a point with `g ≤ 0`, `|h| ≤ 10⁻⁸` and `f − f* ≤ 10⁻⁶ · max(1, |f*|)`.
//! The budget only cuts, so a hit does not depend on the budget beyond it.
//!
//! ```sh
//! cargo run --release --example classic
//! ```

use emages_harness::optimizer::{LocalPhaseOptimizer, Optimizer, RoundsOptimizer, Task};
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
    let rounds = RoundsOptimizer::default();
    let shared =
        emages_harness::study::StudyConfig::other("portfolio-share0").expect("a known name");
    let sqp = LocalPhaseOptimizer::default();
    let harness: [(&str, &dyn Optimizer); 3] = [
        ("portfolio-share0 (to the budget)", &*shared.optimizer),
        ("rounds", &rounds),
        ("sqp-restarts", &sqp),
    ];
    // The recommended strategy, as `minimize` runs it (it stops by itself).
    let minimize = |p: &Hits<'_>, budget: usize, seed: u64| -> usize {
        emages::recommended()
            .budget(budget)
            .seed(seed)
            .run(p)
            .expect("a classic problem runs")
            .evaluations
    };
    let through_harness = |optimizer: &dyn Optimizer, p: &Hits<'_>, budget: usize, seed: u64| {
        optimizer
            .run(&Task::new(p, budget, seed))
            .expect("a classic problem runs")
            .evaluations
    };
    for c in classic::all() {
        for which in 0..=harness.len() {
            let name = if which == 0 {
                "portfolio (recommended, stops by itself)"
            } else {
                harness[which - 1].0
            };
            for budget in [5_000, 20_000, 200_000] {
                let (mut hits, mut used) = (Vec::new(), Vec::new());
                for seed in 1..=10 {
                    let wrapped = Hits::new(&c);
                    let evaluations = if which == 0 {
                        minimize(&wrapped, budget, seed)
                    } else {
                        through_harness(harness[which - 1].1, &wrapped, budget, seed)
                    };
                    used.push(evaluations);
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
                    "| {} | {name} | {budget} | {solved} | {range} | {} |",
                    c.name,
                    median(&mut used)
                );
            }
        }
    }
}
