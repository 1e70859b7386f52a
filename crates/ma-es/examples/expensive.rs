//! An expensive problem (a "simulation" of 2 ms per point) run by `Options::run` with
//! and without declaring itself expensive (`ConstrainedProblem::as_expensive`): the
//! same result, and the wall-clock time of each. The figure of docs/performance.md.
//!
//! `cargo run --release -p ma-es --example expensive`

use constraint_handling::{ConstrainedProblem, ProblemError};
use ma_es::{ComponentSpec, Options};
use std::time::{Duration, Instant};

/// min Σ (x_i − 0.3)² s.t. x₁ + x₂ ≥ 1, in [−5, 5]^5; every evaluation waits 2 ms.
struct Simulation {
    expensive: bool,
}

impl ConstrainedProblem for Simulation {
    fn dim(&self) -> usize {
        5
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        0
    }
    fn lower_bounds(&self) -> &[f64] {
        &[-5.0; 5]
    }
    fn upper_bounds(&self) -> &[f64] {
        &[5.0; 5]
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, c)?;
        std::thread::sleep(Duration::from_millis(2));
        c[0] = 1.0 - x[0] - x[1];
        Ok(x.iter().map(|v| (v - 0.3) * (v - 0.3)).sum())
    }
    fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        self.expensive
            .then_some(self as &(dyn ConstrainedProblem + Sync))
    }
}

fn main() {
    let spec: ComponentSpec = "eps-mag-es-r".parse().expect("a preset");
    let options = Options::new(spec).budget(2_000).to_the_end().seed(1);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut results = Vec::new();
    for expensive in [false, true] {
        let t = Instant::now();
        let r = options.run(&Simulation { expensive }).expect("the run");
        println!(
            "declared expensive: {expensive:5}: {:.2} s for {} evaluations ({cores} cores), f = {:.6}",
            t.elapsed().as_secs_f64(),
            r.evaluations,
            r.best.objective()
        );
        results.push(r);
    }
    assert_eq!(results[0], results[1], "the same run either way");
    println!("the same result, bit for bit");
}
