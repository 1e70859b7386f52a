//! `PortfolioSettings::bound_local_runs`: a run of the local phase that has spent the
//! round's ES budget ends, and the round goes on to its ES run (docs/strategy-design.md
//! §34: on CEC2017 C11, C16 and C25 at N = 50 the first run took the whole budget).

use constraint_handling::{ConstrainedProblem, FnProblem};
use emages::portfolio::{Portfolio, PortfolioSettings};
use emages_solver::Solver;
#[path = "support.rs"]
mod support;
use std::ops::ControlFlow;
use std::sync::Mutex;

const N: usize = 10;

/// Rosenbrock's valley in 10-D under an inactive constraint: the local phase's first
/// run from the box's centre takes far more than a short round's ES budget.
fn valley(seen: &'static Mutex<Vec<u64>>) -> impl ConstrainedProblem {
    FnProblem::new(
        vec![-5.0; N],
        vec![5.0; N],
        1,
        0,
        move |x: &[f64], c: &mut [f64]| {
            seen.lock().unwrap().extend(x.iter().map(|v| v.to_bits()));
            c[0] = x[0] - 10.0;
            Ok(x.windows(2)
                .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
                .sum())
        },
    )
    .unwrap()
}

/// Round 0's ES budget `b₀ = 10 · N`.
fn short_rounds(bound: bool) -> PortfolioSettings {
    PortfolioSettings {
        es_budget_per_dim: 10,
        bound_local_runs: bound,
        ..PortfolioSettings::default()
    }
    .to_the_end()
}

/// The evaluations after the last iteration of the local phase before the first ES
/// generation (`None`: no ES generation within `budget`), and the points asked for.
fn first_hand_over(bound: bool, budget: usize) -> (Option<usize>, Vec<u64>) {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let problem = valley(&SEEN);
    SEEN.lock().unwrap().clear();
    let mut run = support::portfolio(&problem, short_rounds(bound), 3).unwrap();
    let mut last_local = 0;
    let mut hand_over = None;
    support::run_observed(&mut run, &problem, budget, |r| {
        let step = r.status();
        if step.is_local() {
            last_local = step.evaluations;
            ControlFlow::Continue(())
        } else {
            hand_over = Some(last_local);
            ControlFlow::Break(())
        }
    })
    .unwrap();
    let seen = std::mem::take(&mut *SEEN.lock().unwrap());
    (hand_over, seen)
}

#[test]
fn a_bounded_run_of_the_local_phase_hands_over_to_the_es() {
    let b0 = 10 * N;
    let (unbounded, free_points) = first_hand_over(false, 50_000);
    let unbounded = unbounded.expect("the free run reaches the ES within 50 000");
    // Without the bound the first run goes on well past b₀ …
    assert!(
        unbounded > 5 * b0,
        "the free first run ended after {unbounded}"
    );
    // … with it the round's ES starts once the run has spent b₀ (within one request
    // of the local phase: at most N + 1 points).
    let (bounded, bounded_points) = first_hand_over(true, 50_000);
    let bounded = bounded.expect("the bounded run reaches the ES");
    assert!(
        (b0..=b0 + N + 1).contains(&bounded),
        "the bounded first run ended after {bounded} (b₀ = {b0})"
    );
    // Up to the cut both runs asked for the same points, bit for bit.
    let cut = bounded * N;
    assert_eq!(bounded_points[..cut], free_points[..cut]);
    println!("first hand-over to the ES: after {unbounded} evaluations free, {bounded} bounded (b₀ = {b0})");
}

/// With the bound too, the budget only cuts (the same first points at B and 10·B), and a
/// run saved after the cut continues bit for bit.
#[test]
fn bounded_runs_keep_the_budget_prefix_and_save() {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let problem = valley(&SEEN);
    let mut points = Vec::new();
    for b in [3_000, 30_000] {
        SEEN.lock().unwrap().clear();
        let mut run = support::portfolio(&problem, short_rounds(true), 9).unwrap();
        support::run(&mut run, &problem, b).unwrap();
        assert!(run.evaluations() <= b);
        points.push(std::mem::take(&mut *SEEN.lock().unwrap()));
    }
    assert_eq!(points[0][..], points[1][..points[0].len()]);

    let mut whole = support::portfolio(&problem, short_rounds(true), 9).unwrap();
    support::run(&mut whole, &problem, 6_000).unwrap();
    let mut first = support::portfolio(&problem, short_rounds(true), 9).unwrap();
    support::run(&mut first, &problem, 2_000).unwrap();
    assert!(first.round() >= 1, "saved in round {}", first.round());
    let bytes = rmp_serde::to_vec(&first).unwrap();
    let mut resumed: Portfolio = rmp_serde::from_slice(&bytes).unwrap();
    support::run(&mut resumed, &problem, 6_000).unwrap();
    assert_eq!(resumed.evaluations(), whole.evaluations());
    assert_eq!(resumed.best(), whole.best());
}

/// Settings saved before the field existed read as off.
#[test]
fn settings_without_the_field_read_as_off() {
    let mut value = serde_json::to_value(PortfolioSettings::default()).unwrap();
    value.as_object_mut().unwrap().remove("bound_local_runs");
    let settings: PortfolioSettings = serde_json::from_value(value).unwrap();
    assert!(!settings.bound_local_runs);
    assert_eq!(settings, PortfolioSettings::default());
}
