//! The SQP local phase on the classic problems: each solved from its start to a
//! relative 10⁻⁶ of the literature's optimum, strictly feasible (equalities to 10⁻⁸),
//! in few evaluations; the budget never exceeded; the same points asked whatever the
//! budget; a run saved mid-way continues bit for bit (JSON and MessagePack).

use constraint_handling::problem::{ConstrainedProblem, ProblemShape};
use emages_solver::Solver;
use emages_solver::Termination;
use local_phase::classic::{self, Classic};
use local_phase::sqp::{Sqp, SqpSettings};
use ndarray::{Array1, Array2, ShapeBuilder};

fn run(c: &Classic, start: &[f64], budget: usize) -> Sqp {
    let mut sqp = c.sqp_from(start, SqpSettings::default()).unwrap();
    sqp.run(&c.problem, budget).unwrap();
    sqp
}

/// The evaluations scipy's SLSQP and COBYLA (scipy 1.17.1) spend from the same starts
/// are in results/strategy-design/round4/local-phase/README.md; this bound is what the
/// issue asks of the whole strategy (pycma's `fmin_con2` needs 1 000–2 000).
#[test]
fn the_classic_problems_are_solved_in_few_evaluations() {
    let mut checked = 0;
    for c in classic::all() {
        let sqp = run(&c, &c.start, 1000);
        let best = sqp.best().unwrap();
        let gap = (best.objective() - c.f_star) / c.f_star.abs().max(1.0);
        println!(
            "{}: {:?} after {} evaluations, f {:.10} (gap {gap:.1e}), C {:?}",
            c.name,
            sqp.stopped(),
            sqp.evaluations(),
            best.objective(),
            best.constraints
        );
        assert_eq!(sqp.stopped(), Some(Termination::Converged), "{}", c.name);
        assert!(gap.abs() <= 1e-6, "{}: gap {gap:e}", c.name);
        assert_eq!(best.violation(), 0.0, "{}", c.name);
        let l = c.problem.num_inequalities();
        assert!(
            best.constraints[..l].iter().all(|g| *g <= 0.0),
            "{}",
            c.name
        );
        assert!(
            best.constraints[l..].iter().all(|h| h.abs() <= 1e-8),
            "{}",
            c.name
        );
        assert!(
            sqp.evaluations() <= 150,
            "{}: {}",
            c.name,
            sqp.evaluations()
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// Points in the box from a fixed sequence (no generator needed).
fn starts(dim: usize, count: usize) -> Vec<Vec<f64>> {
    (1..=count)
        .map(|k| {
            (0..dim)
                .map(|i| ((k * 7 + i * 13) as f64 * 0.618_033_988_75).fract())
                .collect()
        })
        .collect()
}

/// The spring and the vessel from ten starts spread over the box: every run ends at the
/// optimum (measured: 20 of 20; before `B` was reset on a failed program, 18).
#[test]
fn the_design_problems_are_solved_from_spread_starts() {
    let mut solved = 0;
    for c in [classic::spring(), classic::pressure_vessel()] {
        for x0 in starts(c.problem.dim(), 10) {
            let sqp = run(&c, &x0, 1000);
            let best = sqp.best().unwrap();
            let gap = (best.objective() - c.f_star) / c.f_star;
            println!(
                "{} from {x0:.3?}: {} evaluations, gap {gap:.1e}, ν̄ {:e}",
                c.name,
                sqp.evaluations(),
                best.violation()
            );
            if best.violation() == 0.0 && gap.abs() <= 1e-4 {
                solved += 1;
            }
        }
    }
    assert_eq!(solved, 20, "{solved} of 20 solved");
}

/// Asking, evaluating and telling by hand, with a run saved (JSON, MessagePack) and
/// restored after every tell, gives the points of an unsaved run, bit for bit; a
/// budget never exceeded; the same points whatever the budget.
#[test]
fn saved_runs_continue_and_budgets_cut_the_same_run() {
    let c = classic::rosen_suzuki();
    let k = c.problem.num_constraints();
    let mut trace = Vec::new();
    let full = {
        let mut sqp = Sqp::for_problem(&c.problem, &c.start, SqpSettings::default()).unwrap();
        let mut told = 0;
        while let Some(request) = sqp.ask().unwrap() {
            let points = request.points.to_owned();
            trace.extend(points.iter().map(|v| v.to_bits()));
            let n = points.ncols();
            let (mut f, mut g) = (Array1::zeros(n), Array2::zeros((k, n).f()));
            c.problem
                .evaluate_batch(points.view(), f.view_mut(), g.view_mut())
                .unwrap();
            sqp.tell(f.as_slice().unwrap(), g.view()).unwrap();
            told += 1;
            // Through JSON, then MessagePack.
            let json = serde_json::to_string(&sqp).unwrap();
            sqp = serde_json::from_str(&json).unwrap();
            let bytes = rmp_serde::to_vec(&sqp).unwrap();
            sqp = rmp_serde::from_slice(&bytes).unwrap();
        }
        assert!(told > 5);
        sqp
    };
    let plain = run(&c, &c.start, usize::MAX);
    assert_eq!(plain.evaluations(), full.evaluations());
    assert_eq!(
        plain.best().unwrap().objective().to_bits(),
        full.best().unwrap().objective().to_bits()
    );
    for budget in [1, 4, 5, 9, 23, 40] {
        let cut = run(&c, &c.start, budget);
        assert!(cut.evaluations() <= budget);
        assert!(
            cut.evaluations() + 4 > budget,
            "{budget}: only {}",
            cut.evaluations()
        );
    }
    // The points asked do not depend on the budget: a run cut at B asked the first B.
    let mut cut = Sqp::for_problem(&c.problem, &c.start, SqpSettings::default()).unwrap();
    cut.run(&c.problem, 30).unwrap();
    let mut asked = Vec::new();
    let mut replay = Sqp::for_problem(&c.problem, &c.start, SqpSettings::default()).unwrap();
    while replay.evaluations() < cut.evaluations() {
        let points = replay.ask().unwrap().unwrap().points.to_owned();
        asked.extend(points.iter().map(|v| v.to_bits()));
        let n = points.ncols();
        let (mut f, mut g) = (Array1::zeros(n), Array2::zeros((k, n).f()));
        c.problem
            .evaluate_batch(points.view(), f.view_mut(), g.view_mut())
            .unwrap();
        replay.tell(f.as_slice().unwrap(), g.view()).unwrap();
    }
    assert_eq!(asked[..], trace[..asked.len()]);
}

#[test]
fn bad_input_is_an_error() {
    let c = classic::circle();
    let shape = ProblemShape::of(&c.problem).unwrap();
    assert!(Sqp::new(shape.clone(), &[0.0], SqpSettings::default()).is_err());
    assert!(Sqp::new(shape.clone(), &[f64::NAN, 0.0], SqpSettings::default()).is_err());
    let bad = SqpSettings {
        difference_step: 0.0,
        ..SqpSettings::default()
    };
    assert!(Sqp::new(shape.clone(), &[0.0, 0.0], bad).is_err());
    let mut sqp = Sqp::new(shape, &[0.0, 0.0], SqpSettings::default()).unwrap();
    let wrong = Array2::zeros((2, 1));
    let err = sqp.tell(&[0.0], wrong.view()).unwrap_err().to_string();
    assert!(err.contains("constraints of shape [2, 1]"), "{err}");
    assert!(sqp.tell(&[0.0, 1.0], Array2::zeros((1, 1)).view()).is_err());
}

/// `Σ xᵢ²` subject to `Σ xᵢ ≥ 5` (n = 5, f* = 5 at `xᵢ = 1`) from 0, where `∇f = 0`:
/// with a first bound `Δ = 1` (an unbounded box's), the linearised constraint is
/// inconsistent by the back-off. Steering with the model's curvature
/// (`curvature_steering`, the default) solves it in a few iterations; the frozen rule
/// keeps zero weights, so every step raises the merit and the bound halves each
/// iteration, and after 200 evaluations the best is still infeasible.
#[test]
fn an_infeasible_start_where_the_gradient_vanishes_is_left() {
    let problem = constraint_handling::FnProblem::new(
        vec![f64::NEG_INFINITY; 5],
        vec![f64::INFINITY; 5],
        1,
        0,
        |x: &[f64], c: &mut [f64]| {
            c[0] = 5.0 - x.iter().sum::<f64>();
            Ok(x.iter().map(|v| v * v).sum())
        },
    )
    .unwrap();
    let mut checked = 0;
    for initial_step in [None, Some(1.0), Some(0.3), Some(5.0)] {
        let settings = SqpSettings {
            initial_step,
            ..SqpSettings::default()
        };
        let mut sqp = Sqp::for_problem(&problem, &[0.0; 5], settings.clone()).unwrap();
        sqp.run(&problem, 200).unwrap();
        let best = sqp.best().unwrap();
        assert_eq!(
            sqp.stopped(),
            Some(Termination::Converged),
            "{initial_step:?}"
        );
        assert_eq!(best.violation(), 0.0, "{initial_step:?}: {best:?}");
        assert!(
            (best.objective() - 5.0).abs() < 1e-6,
            "{initial_step:?}: {best:?}"
        );
        println!(
            "Δ₀ = {initial_step:?}: f = {:.9} after {} evaluations",
            best.objective(),
            sqp.evaluations()
        );
        checked += 1;
    }
    let frozen = SqpSettings {
        initial_step: Some(1.0),
        ..SqpSettings::linear_steering()
    };
    let mut sqp = Sqp::for_problem(&problem, &[0.0; 5], frozen).unwrap();
    sqp.run(&problem, 200).unwrap();
    assert!(sqp.best().unwrap().violation() > 0.0);
    assert!(sqp.step_bound() < 1e-3, "{}", sqp.step_bound());
    assert_eq!(checked, 4);
}
