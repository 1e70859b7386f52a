//! The recommended strategy is one plan wherever it is reached: Rust's
//! `emages::recommended()`, the harness's `portfolio` (and Python's `minimize` default,
//! `crates/emages-py/tests/test_contract.py`) — the same options, and the same run,
//! point for point, for one seed.

use constraint_handling::FnProblem;
use emages_harness::optimizer::{PortfolioOptimizer, Task};
use emages_harness::study::StudyConfig;
use std::sync::Mutex;

/// `min Σ (xᵢ − 1)² + sin(3 x₁)` s.t. `x₁ + x₂ + x₃ ≤ 1` and `x₁² + x₂² = 1` on
/// `[−3, 3]³`, recording every point evaluated (bit patterns).
fn problem(seen: &Mutex<Vec<u64>>) -> impl constraint_handling::ConstrainedProblem + Sync + '_ {
    FnProblem::new(vec![-3.0; 3], vec![3.0; 3], 1, 1, move |x, c| {
        seen.lock().unwrap().extend(x.iter().map(|v| v.to_bits()));
        c[0] = x[0] + x[1] + x[2] - 1.0;
        c[1] = x[0] * x[0] + x[1] * x[1] - 1.0;
        Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum::<f64>() + (3.0 * x[0]).sin())
    })
    .unwrap()
    .with_equality_margin(emages::portfolio::DEFAULT_EQUALITY_MARGIN)
    .unwrap()
}

#[test]
fn rusts_recommended_is_the_harnesss_portfolio() {
    // The same options.
    assert_eq!(PortfolioOptimizer::default().options, emages::recommended());
    assert_eq!(
        "portfolio".parse::<emages::Options>().unwrap(),
        emages::recommended()
    );
    let config = StudyConfig::other("portfolio").unwrap();
    assert_eq!(config.label, "portfolio");

    // The same run, point for point, for each of three seeds, and run to the budget
    // through its ES rounds (`portfolio:confirmations=0`, the harness's name for
    // `recommended().confirmations(0)`).
    let to_the_end = StudyConfig::other("portfolio:confirmations=0").unwrap();
    let mut compared = 0;
    for (seed, budget, config, options) in [
        (1, 3_000, &config, emages::recommended()),
        (7, 3_000, &config, emages::recommended()),
        (
            3,
            30_000,
            &to_the_end,
            emages::recommended().confirmations(0),
        ),
    ] {
        let seen = Mutex::new(Vec::new());
        let p = problem(&seen);
        let rust = options.budget(budget).seed(seed).run(&p).unwrap();
        let rust_points = std::mem::take(&mut *seen.lock().unwrap());
        let harness = config.optimizer.run(&Task::new(&p, budget, seed)).unwrap();
        let harness_points = std::mem::take(&mut *seen.lock().unwrap());
        assert_eq!(rust_points, harness_points, "seed {seed}");
        assert_eq!(rust.evaluations, harness.evaluations);
        assert_eq!(rust.best.fitness(), harness.best.fitness);
        assert_eq!(rust.termination.name(), harness.termination.to_string());
        compared += rust_points.len() / 3;
    }
    println!("{compared} points the same, bit for bit");
}
