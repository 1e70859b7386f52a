//! Equalities to machine level: min x₀ + x₁ on the circle x₀² + x₁² = 2 (f* = −2),
//! from (0.3, −0.2) with σ₀ = 0.5 in the box [−3, 3]², budget 20 000, seeds 0–9 (the
//! third design round's goal, docs/strategy-design.md §17). For each equality margin δ it counts the seeds whose best is
//! feasible at δ and within 2·10⁻⁶ of f*, with the repair's Jacobian from forward
//! differences and exact (`ConstraintJacobian`), by `minimize`'s default strategy
//! (εMAg-ES-R with the convergence criteria).
//!
//! `cargo run --release -p ma-es --example circle [SPEC]` (default `eps-mag-es-r`).

use constraint_handling::problem::ConstraintJacobian;
use constraint_handling::{ConstrainedProblem, ProblemError};
use ma_es::{ComponentSpec, Config, Options};
use ndarray::ArrayViewMut2;

/// The circle problem with equality margin `delta`, offering its Jacobian if `exact`.
struct Circle {
    delta: f64,
    exact: bool,
}

impl ConstrainedProblem for Circle {
    fn dim(&self) -> usize {
        2
    }
    fn num_inequalities(&self) -> usize {
        0
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        &[-3.0; 2]
    }
    fn upper_bounds(&self) -> &[f64] {
        &[3.0; 2]
    }
    fn equality_margin(&self) -> f64 {
        self.delta
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, c)?;
        c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
        Ok(x[0] + x[1])
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        self.exact.then_some(self as &dyn ConstraintJacobian)
    }
}

impl ConstraintJacobian for Circle {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        if let Some(c) = values {
            self.evaluate(x, c)?;
        }
        jacobian[[0, 0]] = 2.0 * x[0];
        jacobian[[0, 1]] = 2.0 * x[1];
        Ok(())
    }
}

fn main() {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "eps-mag-es-r".into());
    let spec: ComponentSpec = match text.parse() {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!("{spec}\n");
    let config = Config {
        initial_mean: Some(vec![0.3, -0.2]),
        sigma0: 0.5,
        ..Config::default()
    };
    let options = Options::new(spec).config(config).budget(20_000);
    println!("| Jacobian | δ | solved (of 10) | evaluations (min–median–max) | max \\|h\\| of the bests |");
    println!("|---|---|---|---|---|");
    for exact in [false, true] {
        for delta in [1e-8, 1e-10, 1e-12] {
            let problem = Circle { delta, exact };
            let mut solved = 0;
            let mut evaluations = Vec::new();
            let mut worst_h = 0.0f64;
            for seed in 0..10 {
                let r = options.clone().seed(seed).run(&problem).expect("a run");
                let h = r.best.constraints[0].abs();
                worst_h = worst_h.max(h);
                solved +=
                    usize::from(r.best.is_feasible() && (r.best.objective() + 2.0).abs() <= 2e-6);
                evaluations.push(r.evaluations);
            }
            evaluations.sort_unstable();
            println!(
                "| {} | {delta:e} | {solved} | {}–{}–{} | {worst_h:.1e} |",
                if exact { "exact" } else { "differences" },
                evaluations[0],
                evaluations[5],
                evaluations[9]
            );
        }
    }
}
