//! Criterion benchmarks of the bbob-constrained evaluation: one point (`f` and all of
//! `g`, [`ConstrainedProblem::evaluate`]) and a population of 64 points
//! ([`ConstrainedProblem::evaluate_batch`]), at n ∈ {10, 40}, on the functions with
//! the fewest and the most constraints of the cheapest and the dearest objective
//! (f1: sphere, 1 constraint; f6: sphere, 6 + 3n active; f49/f54: rotated Rastrigin).
//!
//! ```sh
//! cargo bench -p bbob-constrained --bench evaluation
//! ```

use bbob_constrained::BbobProblem;
use constraint_handling::ConstrainedProblem;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::{Array1, Array2, ShapeBuilder};

const POPULATION: usize = 64;

fn points(n: usize, count: usize) -> Array2<f64> {
    // Deterministic points spread over [-4, 4]^n.
    Array2::from_shape_fn((n, count).f(), |(i, j)| {
        (((i * 7919 + j * 104_729) % 1000) as f64 / 125.0) - 4.0
    })
}

fn evaluation(c: &mut Criterion) {
    for n in [10, 40] {
        let mut group = c.benchmark_group(format!("bbob_constrained/n{n}"));
        for f in [1, 6, 49, 54] {
            let p = BbobProblem::new(f, n, 1).unwrap();
            let x = points(n, POPULATION);
            let mut g = vec![0.0; p.number_of_constraints()];
            let x0: Vec<f64> = x.column(0).to_vec();
            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new("scalar", format!("f{f}")), |b| {
                b.iter(|| p.evaluate(black_box(&x0), &mut g).unwrap());
            });
            let mut fs = Array1::zeros(POPULATION);
            let mut gs = Array2::zeros((p.number_of_constraints(), POPULATION).f());
            group.throughput(Throughput::Elements(POPULATION as u64));
            group.bench_function(BenchmarkId::new("batch64", format!("f{f}")), |b| {
                b.iter(|| {
                    p.evaluate_batch(black_box(x.view()), fs.view_mut(), gs.view_mut())
                        .unwrap();
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
