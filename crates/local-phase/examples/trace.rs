//! Traces an SQP run on two small problems (a diagnostic).
use constraint_handling::{ConstrainedProblem, FnProblem};
use local_phase::sqp::{Sqp, SqpSettings};

fn trace<P: ConstrainedProblem>(name: &str, p: &P, x0: &[f64]) {
    let mut sqp = Sqp::for_problem(p, x0, SqpSettings::default()).unwrap();
    sqp.run(p, 2000).unwrap();
    let b = sqp.best().unwrap();
    println!(
        "{name}: stop {:?} after {} evaluations, {} steps; iterate {:?}; best f {:.12} ν̄ {:e} C {:?}",
        sqp.stopped(),
        sqp.evaluations(),
        sqp.iterations(),
        sqp.iterate(),
        b.f,
        b.violation,
        b.constraints
    );
}

fn main() {
    let circle = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
        c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
        Ok(x[0] + x[1])
    })
    .unwrap();
    trace("circle", &circle, &[0.5, 0.0]);
    // Rosen–Suzuki: f* = −44 at (0, 1, 2, −1).
    let rs = FnProblem::new(vec![-10.0; 4], vec![10.0; 4], 3, 0, |x, g| {
        g[0] =
            x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3] + x[0] - x[1] + x[2] - x[3] - 8.0;
        g[1] =
            x[0] * x[0] + 2.0 * x[1] * x[1] + x[2] * x[2] + 2.0 * x[3] * x[3] - x[0] - x[3] - 10.0;
        g[2] = 2.0 * x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + 2.0 * x[0] - x[1] - x[3] - 5.0;
        Ok(x[0] * x[0] + x[1] * x[1] + 2.0 * x[2] * x[2] + x[3] * x[3]
            - 5.0 * x[0]
            - 5.0 * x[1]
            - 21.0 * x[2]
            + 7.0 * x[3])
    })
    .unwrap();
    trace("rosen-suzuki", &rs, &[0.0; 4]);
    // Spring, scaled to [0, 1]³: f* ≈ 0.012665233.
    let (lo, hi) = ([0.05, 0.25, 2.0], [2.0, 1.3, 15.0]);
    let spring = FnProblem::new(vec![0.0; 3], vec![1.0; 3], 4, 0, move |u, g| {
        let x: Vec<f64> = (0..3).map(|i| lo[i] + u[i] * (hi[i] - lo[i])).collect();
        let (d, dd, n) = (x[0], x[1], x[2]);
        g[0] = 1.0 - dd.powi(3) * n / (71785.0 * d.powi(4));
        g[1] = (4.0 * dd * dd - d * dd) / (12566.0 * (dd * d.powi(3) - d.powi(4)))
            + 1.0 / (5108.0 * d * d)
            - 1.0;
        g[2] = 1.0 - 140.45 * d / (dd * dd * n);
        g[3] = (d + dd) / 1.5 - 1.0;
        Ok((n + 2.0) * dd * d * d)
    })
    .unwrap();
    for x0 in [[0.5; 3], [0.1, 0.3, 0.7], [0.9, 0.1, 0.2]] {
        trace("spring", &spring, &x0);
    }
    // Pressure vessel, scaled to [0, 1]⁴ (x₁, x₂ ∈ [0, 99], x₃, x₄ ∈ [10, 200]): f* ≈ 5885.3328.
    let (lo, hi) = ([0.0, 0.0, 10.0, 10.0], [99.0, 99.0, 200.0, 200.0]);
    let vessel = FnProblem::new(vec![0.0; 4], vec![1.0; 4], 4, 0, move |u, g| {
        let x: Vec<f64> = (0..4).map(|i| lo[i] + u[i] * (hi[i] - lo[i])).collect();
        g[0] = -x[0] + 0.0193 * x[2];
        g[1] = -x[1] + 0.00954 * x[2];
        g[2] = -std::f64::consts::PI * x[2] * x[2] * x[3]
            - 4.0 / 3.0 * std::f64::consts::PI * x[2].powi(3)
            + 1_296_000.0;
        g[3] = x[3] - 240.0;
        Ok(0.6224 * x[0] * x[2] * x[3]
            + 1.7781 * x[1] * x[2] * x[2]
            + 3.1661 * x[0] * x[0] * x[3]
            + 19.84 * x[0] * x[0] * x[2])
    })
    .unwrap();
    for x0 in [[0.5; 4], [0.1, 0.3, 0.7, 0.2], [0.9, 0.1, 0.2, 0.6]] {
        trace("vessel", &vessel, &x0);
    }
}
