//! Evaluation speed by application area: one iteration evaluates one in-box point of
//! every problem of the class (points drawn uniformly from each box, 64 per problem,
//! used in turn), so the time per evaluation is the iteration's time divided by the
//! class's problem count (printed with each group's name).
//!
//! The group `jacobian/…` times the exact constraint Jacobian (automatic
//! differentiation, without the values) the same way: one per problem of the class per
//! iteration. Forward differences would cost `D + 1` evaluations per Jacobian.
//!
//! ```sh
//! cargo bench -p cec2020-rw --bench evaluation
//! ```

use cec2020_rw::{catalog, Cec2020Problem, Class};
use constraint_handling::{ConstrainedProblem, JacobianSource};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::Array2;

/// A small deterministic generator (xorshift64*), so the bench needs no RNG crate.
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
}

fn by_class(c: &mut Criterion) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for class in Class::ALL {
        let problems: Vec<Cec2020Problem> = catalog::all()
            .iter()
            .filter(|p| p.class() == class)
            .map(|p| Cec2020Problem::new(p.id).unwrap())
            .collect();
        let points: Vec<Vec<Vec<f64>>> = problems
            .iter()
            .map(|p| {
                (0..64)
                    .map(|_| {
                        p.lower_bounds()
                            .iter()
                            .zip(p.upper_bounds())
                            .map(|(l, h)| l + (h - l) * uniform(&mut state))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let mut buffers: Vec<Vec<f64>> = problems
            .iter()
            .map(|p| vec![0.0; p.num_constraints()])
            .collect();
        let mut k = 0;
        let name = format!("{} ({} problems)", class.name(), problems.len());
        c.bench_function(&name, |b| {
            b.iter(|| {
                k = (k + 1) % 64;
                let mut s = 0.0;
                for ((p, pts), buf) in problems.iter().zip(&points).zip(buffers.iter_mut()) {
                    s += p.evaluate(black_box(&pts[k]), buf).unwrap_or(f64::NAN);
                }
                s
            });
        });
        let exact: Vec<Cec2020Problem> = problems
            .iter()
            .map(|p| p.clone().with_jacobian(JacobianSource::Exact))
            .collect();
        let mut jacobians: Vec<Array2<f64>> = exact
            .iter()
            .map(|p| Array2::zeros((p.num_constraints(), p.dim())))
            .collect();
        c.bench_function(&format!("jacobian/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % 64;
                for ((p, pts), jac) in exact.iter().zip(&points).zip(jacobians.iter_mut()) {
                    let j = p.constraint_jacobian().expect("offered");
                    let _ = j.evaluate_jacobian(black_box(&pts[k]), None, jac.view_mut());
                }
            });
        });
    }
}

criterion_group!(benches, by_class);
criterion_main!(benches);
