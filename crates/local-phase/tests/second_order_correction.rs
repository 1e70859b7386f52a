//! The second-order correction ([`SqpSettings::second_order_correction`]) on a curved
//! active boundary: the feasible set is the outside of the unit circle and `f` rises
//! steeply off the boundary (`f = 50 (r² − 1) − x₁`, optimum `(1, 0)`, `f* = −1`).
//! From a start on the far side of the circle, a step along the boundary's tangent
//! leaves it to second order, which costs more than the step gains once the step is
//! longer than about `1 / 100`: without the correction the full steps are rejected and
//! the run crawls (the Maratos effect); with it the run follows the circle.

use constraint_handling::problem::{ConstrainedProblem, ProblemError};
use constraint_handling::FnProblem;
use emages_solver::Solver;
use emages_solver::Termination;
use local_phase::sqp::{Sqp, SqpSettings};
use ndarray::{Array1, Array2, ShapeBuilder};

const STEEP: f64 = 500.0;

/// `(f, g)` of the problem.
fn values(x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
    let r2 = x[0] * x[0] + x[1] * x[1];
    c[0] = 1.0 - r2;
    Ok(STEEP * (r2 - 1.0) - x[0])
}

type Values = fn(&[f64], &mut [f64]) -> Result<f64, ProblemError>;

fn problem() -> FnProblem<Values> {
    FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 1, 0, values as Values).unwrap()
}

fn solve(correction: bool, start: &[f64], budget: usize) -> Sqp {
    let p = problem();
    let settings = SqpSettings {
        second_order_correction: correction,
        ..SqpSettings::default()
    };
    let mut sqp = Sqp::for_problem(&p, start, settings).unwrap();
    sqp.run(&p, budget).unwrap();
    sqp
}

#[test]
fn the_correction_follows_a_curved_boundary_that_plain_steps_crawl_along() {
    let mut checked = 0;
    for angle in [1.5f64, 2.0, 2.5, 3.0] {
        let start = [1.0001 * angle.cos(), 1.0001 * angle.sin()];
        let plain = solve(false, &start, 3_000);
        let corrected = solve(true, &start, 3_000);
        let (bp, bc) = (plain.best().unwrap(), corrected.best().unwrap());
        println!(
            "start at angle {angle}: plain f + 1 = {:.2e} after {} evaluations ({:?}); \
             corrected f + 1 = {:.2e} after {} ({:?}, {} corrected steps)",
            bp.objective() + 1.0,
            plain.evaluations(),
            plain.stopped(),
            bc.objective() + 1.0,
            corrected.evaluations(),
            corrected.stopped(),
            corrected.corrected_steps()
        );
        assert_eq!(corrected.stopped(), Some(Termination::Converged));
        assert_eq!(bc.violation(), 0.0);
        assert!(bc.objective() + 1.0 < 1e-5, "{bc:?}");
        assert!(corrected.corrected_steps() > 0);
        assert_eq!(plain.corrected_steps(), 0);
        // Without it the run either stops short of the optimum (a step the merit
        // rejects, twice) or crawls.
        assert!(
            bp.objective() + 1.0 > 1e-3 || plain.evaluations() > 2 * corrected.evaluations(),
            "plain f + 1 = {} after {}, corrected after {}",
            bp.objective() + 1.0,
            plain.evaluations(),
            corrected.evaluations()
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn a_run_with_the_correction_saved_at_any_tell_continues_bit_for_bit() {
    let p = problem();
    let settings = SqpSettings {
        second_order_correction: true,
        ..SqpSettings::default()
    };
    let start = [1.0001 * 2.5f64.cos(), 1.0001 * 2.5f64.sin()];
    let plain = solve(true, &start, usize::MAX);
    let mut sqp = Sqp::for_problem(&p, &start, settings).unwrap();
    let mut tells = 0;
    while let Some(request) = sqp.ask().unwrap() {
        let points = request.points.to_owned();
        let n = points.ncols();
        let (mut f, mut g) = (Array1::zeros(n), Array2::zeros((1, n).f()));
        p.evaluate_batch(points.view(), f.view_mut(), g.view_mut())
            .unwrap();
        sqp.tell(f.as_slice().unwrap(), g.view()).unwrap();
        sqp = serde_json::from_str(&serde_json::to_string(&sqp).unwrap()).unwrap();
        tells += 1;
    }
    assert!(sqp.corrected_steps() > 0 && tells > 10);
    assert_eq!(sqp.evaluations(), plain.evaluations());
    assert_eq!(sqp.corrected_steps(), plain.corrected_steps());
    assert_eq!(
        sqp.best().unwrap().objective().to_bits(),
        plain.best().unwrap().objective().to_bits()
    );
    assert_eq!(sqp.iterate(), plain.iterate());
}

#[test]
fn the_setting_is_off_by_default_and_in_saved_settings_without_it() {
    assert!(!SqpSettings::default().second_order_correction);
    assert!(!SqpSettings::linear_steering().second_order_correction);
    let old: SqpSettings = serde_json::from_str(r#"{"difference_step": 1e-8}"#).unwrap();
    assert!(!old.second_order_correction);
    let on: SqpSettings = serde_json::from_str(r#"{"second_order_correction": true}"#).unwrap();
    assert!(on.second_order_correction);
}
