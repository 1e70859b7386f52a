//! A run of every solver of the workspace — the recommended portfolio, the ES with its
//! restarts, the SQP local phase — saved to JSON between any tell and the next ask
//! ([`emages::save`]) continues bit for bit: the same points asked for, the same values
//! told, the same best point and counts as the run never saved.

use emages::local::sqp::{Sqp, SqpSettings};
use emages::{save, FnProblem, Portfolio, Solver};
use emages_solver::{Evaluator, ProblemEvaluator, Slots};
use ndarray::{Array2, ShapeBuilder};
use serde::{de::DeserializeOwned, Serialize};

/// A multimodal problem with an equality (the runs restart and reach the ES rounds).
fn problem() -> impl emages::ConstrainedProblem {
    FnProblem::new(vec![-5.0; 3], vec![5.0; 3], 1, 1, |x, c| {
        c[0] = x[0] * x[0] + x[1] * x[1] - 4.0;
        c[1] = x[0] + x[1] + x[2] - 1.0;
        Ok(x.iter().map(|v| v * v - 3.0 * (2.0 * v).cos()).sum())
    })
    .unwrap()
}

/// Drives `run` for `tells` tells, saving it to JSON and restoring it after every
/// `every`-th; gives the bit patterns of every point asked for and the run.
fn drive<S: Solver + Serialize + DeserializeOwned>(
    mut run: S,
    tells: usize,
    every: usize,
) -> (Vec<u64>, S) {
    let p = problem();
    let (n, k) = (3, 2);
    let mut asked = Vec::new();
    for t in 1..=tells {
        let Some(request) = run.ask().unwrap() else {
            break;
        };
        let count = request.len();
        asked.extend(request.points.iter().map(|v| v.to_bits()));
        let width = if request.kind == emages::solver::RequestKind::Jacobians {
            n * count
        } else {
            count
        };
        let (mut f, mut c) = (vec![0.0; count], Array2::zeros((k, width).f()));
        let slots = Slots::new(
            request,
            ndarray::ArrayViewMut1::from(&mut f[..]),
            c.view_mut(),
        );
        ProblemEvaluator::new(&p).evaluate(slots).unwrap();
        run.tell(&f, c.view()).unwrap();
        if every > 0 && t % every == 0 {
            let text = save::to_json(&run).unwrap();
            run = save::from_json(&text).unwrap();
        }
    }
    (asked, run)
}

/// Compares a run saved every `every` tells with the run never saved.
fn same_run<S: Solver + Serialize + DeserializeOwned>(make: impl Fn() -> S, tells: usize) {
    let (whole_points, whole) = drive(make(), tells, 0);
    for every in [1, 7, 50] {
        let (points, saved) = drive(make(), tells, every);
        assert_eq!(points, whole_points, "saved every {every} tells");
        assert_eq!(saved.best(), whole.best());
        assert_eq!(
            (saved.evaluations(), saved.iterations()),
            (whole.evaluations(), whole.iterations())
        );
    }
    println!(
        "{} points asked for, the same whether saved every 1, 7 or 50 tells",
        whole_points.len() / 3
    );
}

#[test]
fn the_recommended_portfolio_resumes_bit_for_bit_from_json() {
    let p = problem();
    // Short rounds, to the end: the run goes through its restarts, ES and polish.
    let settings = emages::PortfolioSettings {
        es_budget_per_dim: 100,
        ..emages::PortfolioSettings::default()
    };
    let plan = emages::recommended()
        .with_settings(settings)
        .to_the_end()
        .seed(3)
        .build_for(&p)
        .unwrap();
    same_run(|| plan.ask_tell().unwrap(), 2_000);
    // The run reached its ES rounds.
    let (_, run): (_, Portfolio) = drive(plan.ask_tell().unwrap(), 2_000, 0);
    assert!(run.round() >= 2, "round {}", run.round());
}

#[test]
fn the_es_with_restarts_resumes_bit_for_bit_from_json() {
    let p = problem();
    let plan = emages::es::Options::recommended()
        .budget(6_000)
        .seed(5)
        .build_for(&p)
        .unwrap();
    same_run(|| plan.ask_tell().unwrap(), 1_500);
}

#[test]
fn the_local_phase_resumes_bit_for_bit_from_json() {
    let p = problem();
    same_run(
        || Sqp::for_problem(&p, &[1.0, 2.0, -1.0], SqpSettings::default()).unwrap(),
        400,
    );
}

#[test]
fn settings_saved_before_the_stopping_rules_read_them_as_off() {
    use emages::portfolio::PortfolioSettings;
    // Settings as saved before the fields existed: the keys removed from today's JSON.
    let mut saved = serde_json::to_value(PortfolioSettings::default()).unwrap();
    for key in ["warm_curvature", "patience", "confirm_early"] {
        assert!(
            saved.as_object_mut().unwrap().remove(key).is_some(),
            "{key}"
        );
    }
    for key in [
        "decrease_tolerance",
        "speculative_probes",
        "accuracy",
        "capped_first_scale",
    ] {
        assert!(
            saved["sqp"].as_object_mut().unwrap().remove(key).is_some(),
            "{key}"
        );
    }
    let read: PortfolioSettings = serde_json::from_value(saved).unwrap();
    assert!(!read.warm_curvature && !read.patience && !read.confirm_early);
    assert_eq!(read.sqp.decrease_tolerance, 0.0);
    assert!(!read.sqp.speculative_probes && read.sqp.accuracy.is_none());
    assert!(!read.sqp.capped_first_scale);
    // While today's default has them on.
    let today = PortfolioSettings::default();
    assert!(today.warm_curvature && today.patience && today.confirm_early);
    assert!(today.sqp.decrease_tolerance > 0.0 && today.sqp.speculative_probes);
}
