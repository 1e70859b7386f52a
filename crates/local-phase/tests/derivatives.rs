//! The local phase with the problem's derivatives: where the problem gives `∇f` and
//! `∂C/∂x` (here by automatic differentiation), each model costs one evaluation
//! instead of `N` difference probes, the run reaches the same optimum in fewer
//! evaluations, and a saved run continues bit for bit.

use constraint_handling::autodiff::{Differentiable, Formula, Scalar};
use constraint_handling::problem::{ConstrainedProblem, JacobianSource, ProblemShape};
use emages_solver::{Driver, RequestKind, Solver, Termination};
use local_phase::sqp::{Sqp, SqpSettings};

/// Rosen and Suzuki (1965): `f* = −44` at `(0, 1, 2, −1)`.
struct RosenSuzuki;

impl Formula for RosenSuzuki {
    fn evaluate<T: Scalar>(&self, x: &[T], g: &mut [T]) -> T {
        let sq = |i: usize| x[i] * x[i];
        g[0] = sq(0) + sq(1) + sq(2) + sq(3) + x[0] - x[1] + x[2] - x[3] - 8.0;
        g[1] = sq(0) + sq(1) * 2.0 + sq(2) + sq(3) * 2.0 - x[0] - x[3] - 10.0;
        g[2] = sq(0) * 2.0 + sq(1) + sq(2) + x[0] * 2.0 - x[1] - x[3] - 5.0;
        sq(0) + sq(1) + sq(2) * 2.0 + sq(3) - x[0] * 5.0 - x[1] * 5.0 - x[2] * 21.0 + x[3] * 7.0
    }
}

fn problem() -> Differentiable<RosenSuzuki, 4> {
    Differentiable::new(vec![-10.0; 4], vec![10.0; 4], 3, 0, RosenSuzuki).unwrap()
}

/// A run from 0, with derivatives or by differences.
fn solve(derivatives: bool) -> Sqp {
    let p = problem();
    let mut shape = ProblemShape::of(&p).unwrap();
    assert!(shape.has_derivatives());
    if !derivatives {
        shape = shape
            .with_gradient(false)
            .with_jacobian(JacobianSource::Differences);
    }
    let mut sqp = Sqp::new(shape, &[0.0; 4], SqpSettings::default()).unwrap();
    Driver::new(&mut sqp).budget(2000).run(&p).unwrap();
    sqp
}

#[test]
fn derivatives_reach_the_optimum_in_fewer_evaluations() {
    let exact = solve(true);
    let differences = solve(false);
    for (name, run) in [("derivatives", &exact), ("differences", &differences)] {
        let best = run.best().unwrap();
        println!(
            "{name}: {:?} after {} evaluations, f {:.12}",
            run.stopped(),
            run.evaluations(),
            best.objective()
        );
        assert_eq!(run.stopped(), Some(Termination::Converged), "{name}");
        assert!((best.objective() + 44.0).abs() <= 1e-6 * 44.0, "{name}");
        assert_eq!(best.violation(), 0.0, "{name}");
    }
    // A model costs 1 evaluation, not N = 4: at least a third fewer in all.
    assert!(
        3 * exact.evaluations() <= 2 * differences.evaluations(),
        "{} against {}",
        exact.evaluations(),
        differences.evaluations()
    );
    let (a, b) = (&exact.best().unwrap().x, &differences.best().unwrap().x);
    assert!(
        a.iter().zip(b).all(|(p, q)| (p - q).abs() < 1e-4),
        "{a:?} {b:?}"
    );
}

#[test]
fn the_iterate_is_asked_for_its_derivatives_and_a_wrong_shape_is_refused() {
    let p = problem();
    let shape = ProblemShape::of(&p).unwrap();
    let mut sqp = Sqp::new(shape, &[0.0; 4], SqpSettings::default()).unwrap();
    // The start's values, then the derivatives at the start.
    let request = Solver::ask(&mut sqp).unwrap().unwrap();
    assert_eq!(request.kind, RequestKind::Population);
    let mut c = ndarray::Array2::zeros((3, 1));
    let f = p
        .evaluate(&[0.0; 4], c.column_mut(0).as_slice_mut().unwrap())
        .unwrap();
    Solver::tell(&mut sqp, &[f], c.view()).unwrap();
    let request = Solver::ask(&mut sqp).unwrap().unwrap();
    assert_eq!(
        (request.kind, request.len(), request.evaluations),
        (RequestKind::Gradients, 1, 1)
    );
    // Values where derivatives are wanted: refused, naming them.
    let err = Solver::tell(&mut sqp, &[f], c.view())
        .unwrap_err()
        .to_string();
    assert!(err.contains("gradients"), "{err}");
    // A gradient that is not finite ends the run as not finite.
    let jac = ndarray::Array2::zeros((3, 4));
    Solver::tell(&mut sqp, &[f64::NAN, 0.0, 0.0, 0.0], jac.view()).unwrap();
    assert_eq!(sqp.stopped(), Some(Termination::NotFinite));
}

#[test]
fn a_run_with_derivatives_saved_at_any_tell_continues_bit_for_bit() {
    let p = problem();
    let whole = solve(true);
    let mut checked = 0;
    for cut in [1, 2, 5, 11] {
        let shape = ProblemShape::of(&p).unwrap();
        let mut sqp = Sqp::new(shape, &[0.0; 4], SqpSettings::default()).unwrap();
        Driver::new(&mut sqp).max_iterations(cut).run(&p).unwrap();
        let text = emages_solver::save::to_json(&sqp).unwrap();
        let mut resumed: Sqp = emages_solver::save::from_json(&text).unwrap();
        Driver::new(&mut resumed).budget(2000).run(&p).unwrap();
        assert_eq!(resumed.evaluations(), whole.evaluations(), "cut at {cut}");
        let (a, b) = (resumed.best().unwrap(), whole.best().unwrap());
        assert_eq!(a.x, b.x, "cut at {cut}");
        assert_eq!(a.objective().to_bits(), b.objective().to_bits());
        checked += 1;
    }
    assert_eq!(checked, 4);
}
