//! When the portfolio stops on a convex quadratic: `f(x) = Σ dᵢ (xᵢ − cᵢ)²` (`dᵢ` from 1
//! to 100) under `N/5` linear inequalities that cut `c` off and the box `[−5, 5]ᴺ`, a
//! budget of `200 N`: per seed, the first feasible point within `1e-5` (relative) of
//! `f*` ("hit", `f*` from a long run), the evaluation at which the run stops and why,
//! and when the confirmations came (docs/strategy-design.md §35).
//!
//! ```sh
//! cargo run --release -p emages --example stop_probe -- N [SEEDS] [SPEC]
//! cargo run --release -p emages --example stop_probe -- 100 1 "portfolio:patience=off"
//! ```
use constraint_handling::{FnProblem, ProblemError};
use emages::{Driver, Options};
use emages_solver::Solver;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ops::ControlFlow;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: stop_probe N [SEEDS] [SPEC] (N ≥ 2)";
    let n: usize = args.get(1).ok_or(usage)?.parse().map_err(|_| usage)?;
    if n < 2 {
        return Err(usage.into());
    }
    let seeds: u64 = args
        .get(2)
        .map_or(Ok(3), |s| s.parse())
        .map_err(|_| usage)?;
    let settings_text = args.get(3).cloned().unwrap_or("portfolio".into());
    let _: Options = settings_text.parse()?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let d: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(2.0 * i as f64 / (n - 1) as f64))
        .collect();
    let c: Vec<f64> = (0..n).map(|_| rng.random_range(-3.0..3.0)).collect();
    let m = (n / 5).max(1);
    let a: Vec<Vec<f64>> = (0..m)
        .map(|_| (0..n).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let b: Vec<f64> = a
        .iter()
        .map(|row| row.iter().zip(&c).map(|(p, q)| p * q).sum::<f64>() - rng.random_range(0.5..2.0))
        .collect();
    let f = move |x: &[f64], g: &mut [f64]| -> Result<f64, ProblemError> {
        for (j, row) in a.iter().enumerate() {
            g[j] = row.iter().zip(x).map(|(p, q)| p * q).sum::<f64>() - b[j];
        }
        Ok(x.iter()
            .zip(&c)
            .zip(&d)
            .map(|((x, c), d)| d * (x - c) * (x - c))
            .sum())
    };
    let p = FnProblem::new(vec![-5.0; n], vec![5.0; n], m, 0, f).unwrap();
    // f*: a long run.
    let long: Options = settings_text.parse().unwrap();
    let fstar = long
        .clone()
        .budget(2000 * n)
        .seed(99)
        .confirmations(0)
        .run(&p)
        .unwrap()
        .best
        .objective();
    for seed in 1..=seeds {
        let options: Options = settings_text.parse().unwrap();
        let plan = options.budget(200 * n).seed(seed).build_for(&p).unwrap();
        let mut run = plan.ask_tell().unwrap();
        let mut hit = None;
        let mut confirms = vec![];
        let mut last = 0;
        let mut obs = |r: &emages::Portfolio| {
            if let Some(b) = Solver::best(r) {
                if hit.is_none()
                    && b.violation() == 0.0
                    && b.objective() <= fstar + 1e-5 * fstar.abs().max(1.0)
                {
                    hit = Some(r.evaluations());
                }
            }
            if r.confirmations() != last {
                last = r.confirmations();
                confirms.push((r.evaluations(), last, r.round()));
            }
            ControlFlow::Continue(())
        };
        let out = Driver::new(&mut run)
            .budget(200 * n)
            .observe(&mut obs)
            .run(&p)
            .unwrap();
        println!(
            "n {n} seed {seed} f* {fstar:.6} hit {hit:?} stop {} {:?} best {:.3e} confirms {:?}",
            out.evaluations,
            out.termination,
            out.best.objective() - fstar,
            confirms
        );
    }
    Ok(())
}
