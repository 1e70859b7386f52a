//! One Levenberg–Marquardt step ([`LevenbergMarquardt::step`]) by the two solves of
//! [`Solve`], at the shapes of the CEC2020 problems the repair meets (`N` variables,
//! `l` inequalities, `k` constraints, every variable boxed): the power-flow problems
//! RC41 (74, 0, 74) and RC35 (153, 0, 148), the dairy rations RC55 (64, 0, 6), a
//! beef ration RC51 (59, 14, 15) and a CEC2017-like N = 100 with 3 constraints.
//!
//! The Jacobian and the values are random (the step's cost does not depend on them);
//! the point lies inside the box.
//!
//! ```sh
//! OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 cargo bench -p constraint-handling --bench levenberg_marquardt
//! ```

use constraint_handling::levenberg_marquardt::{
    LevenbergMarquardt, LevenbergMarquardtParams, Scaling, Solve,
};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use ndarray::Array2;

/// A small deterministic generator (xorshift64*), so the bench needs no RNG crate.
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
}

fn step(c: &mut Criterion) {
    let shapes = [
        ("RC41", 74, 0, 74),
        ("RC35", 153, 0, 148),
        ("RC55", 64, 0, 6),
        ("RC51", 59, 14, 15),
        ("N100k3", 100, 2, 3),
    ];
    let mut group = c.benchmark_group("lm-step");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for (name, n, l, k) in shapes {
        let jacobian = Array2::from_shape_fn((k, n), |_| 2.0 * uniform(&mut state) - 1.0);
        let constraints: Vec<f64> = (0..k).map(|_| 2.0 * uniform(&mut state) - 1.0).collect();
        let (lower, upper) = (vec![-1.0; n], vec![1.0; n]);
        let x: Vec<f64> = (0..n).map(|_| 1.8 * uniform(&mut state) - 0.9).collect();
        let mut y = vec![0.0; n];
        for (solve, label) in [(Solve::Reduced, "reduced"), (Solve::Full, "full")] {
            let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams {
                scaling: Scaling::Box,
                solve,
                ..Default::default()
            });
            group.bench_function(BenchmarkId::new(label, name), |b| {
                b.iter(|| {
                    lm.step(
                        l,
                        &lower,
                        &upper,
                        black_box(&x),
                        &constraints,
                        jacobian.view(),
                        &mut y,
                    )
                    .unwrap();
                    black_box(y[0])
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, step);
criterion_main!(benches);
