//! A crate outside the workspace drives `ma-es` by ask and tell and evaluates every
//! request with a thread pool of its own (scoped threads, one chunk of columns each):
//! the run is bit for bit the serial one, and `ma_es::Plan::run`'s. Built by
//! scripts/outside-crate/check with `ma-es` as a direct dependency.

use ma_es::{ComponentSpec, Options, RunResult};
use ndarray::{Array1, Array2, ArrayView1, ShapeBuilder};

/// An "expensive" objective and its constraints, for one point: the Rosenbrock
/// function subject to ‖x‖² ≤ 2 and x₁ + x₂ = 1.
fn evaluate(x: ArrayView1<'_, f64>, c: &mut [f64]) -> f64 {
    c[0] = x.dot(&x) - 2.0;
    c[1] = x[0] + x[1] - 1.0;
    x.windows(2)
        .into_iter()
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
        .sum()
}

/// Runs the spec to its end, evaluating every request on `threads` threads.
fn run(spec: &ComponentSpec, threads: usize) -> RunResult {
    let n = 6;
    let shape = constraint_handling::problem::ProblemShape::new(vec![-2.0; n], vec![2.0; n], 1, 1).unwrap();
    // Up to 20 000 evaluations, stopping earlier once converged (the defaults).
    let plan = Options::new(*spec).budget(20_000).seed(3).build(&shape).unwrap();
    let mut es = plan.ask_tell().unwrap();
    while let Some(request) = es.ask().unwrap() {
        let points = request.points.to_owned();
        let k = points.ncols();
        let mut f = Array1::<f64>::zeros(k);
        let mut c = Array2::<f64>::zeros((2, k).f());
        let chunk = k.div_ceil(threads);
        std::thread::scope(|scope| {
            let columns = c.as_slice_memory_order_mut().unwrap().chunks_mut(2 * chunk);
            let values = f.as_slice_mut().unwrap().chunks_mut(chunk);
            for (t, (fs, cs)) in values.zip(columns).enumerate() {
                let points = &points;
                scope.spawn(move || {
                    for (j, (fj, cj)) in fs.iter_mut().zip(cs.chunks_mut(2)).enumerate() {
                        *fj = evaluate(points.column(t * chunk + j), cj);
                    }
                });
            }
        });
        es.tell(f.as_slice().unwrap(), c.view()).unwrap();
    }
    es.result()
}

fn main() {
    for text in ["eps-mag-es", "eps-mag-es-r"] {
        let spec: ComponentSpec = text.parse().unwrap();
        let serial = run(&spec, 1);
        let pooled = run(&spec, 4);
        assert_eq!(pooled, serial, "{text}: four threads and one give one run");
        println!(
            "{text}: f = {:.6e}, ν̄ = {:.1e} after {} evaluations ({:?}), the same on 1 and 4 threads",
            pooled.best.objective(),
            pooled.best.violation(),
            pooled.evaluations,
            pooled.termination
        );
    }
    println!("an outside crate drove ma-es by ask and tell with its own thread pool");
}
