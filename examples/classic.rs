//! The frozen portfolio as `minimize` runs it (`ma_es::portfolio`, stopping by itself),
//! the harness's `portfolio-share0` (the same run to the budget), `portfolio` and
//! `sqp-restarts` on local-phase's classic problems
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
use ma_es::portfolio::{Portfolio, PortfolioSettings};

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
    let shared = emages::study::StudyConfig::other("portfolio-share0").expect("a known name");
    let sqp = LocalPhaseOptimizer::default();
    let harness: [(&str, &dyn Optimizer); 3] = [
        ("portfolio-share0 (to the budget)", &*shared.optimizer),
        ("portfolio", &portfolio),
        ("sqp-restarts", &sqp),
    ];
    // `minimize`'s portfolio: ma_es::portfolio with its default settings (it stops).
    let minimize = |p: &Hits<'_>, budget: usize, seed: u64| -> usize {
        let mut run = Portfolio::for_problem(p, PortfolioSettings::default(), seed).expect("runs");
        run.run(p, budget).expect("a classic problem runs");
        run.evaluations()
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
                "portfolio (minimize's, stops by itself)"
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
