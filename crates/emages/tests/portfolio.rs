//! The portfolio by ask and tell (`emages::portfolio`): the budget only cuts, a saved run
//! continues bit for bit, bad tells and settings are errors, the classic problems
//! are solved within a few hundred evaluations, and a problem's exact Jacobians go to
//! the ES's repair.

use constraint_handling::problem::{
    prepare_jacobian, ConstraintJacobian, JacobianSource, ProblemShape,
};
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use emages::portfolio::{Portfolio, PortfolioSettings};
use local_phase::classic;
#[path = "support.rs"]
mod support;
use emages::{Solver, SolverError};
use emages_solver::RequestKind;
use ndarray::{Array2, ArrayViewMut2, ShapeBuilder};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A multimodal problem with an equality, whose runs restart and reach the ES; the
/// points it is asked for go to `seen` (bit patterns).
fn rastrigin_on_a_circle(seen: &'static Mutex<Vec<u64>>) -> impl ConstrainedProblem {
    FnProblem::new(
        vec![-5.0; 3],
        vec![5.0; 3],
        1,
        1,
        move |x: &[f64], c: &mut [f64]| {
            seen.lock().unwrap().extend(x.iter().map(|v| v.to_bits()));
            c[0] = x[0] * x[0] + x[1] * x[1] - 4.0;
            c[1] = x[0] + x[1] + x[2] - 1.0;
            Ok(x.iter().map(|v| v * v - 3.0 * (2.0 * v).cos()).sum())
        },
    )
    .unwrap()
}

/// Short rounds, run to the budget.
fn small_rounds() -> PortfolioSettings {
    PortfolioSettings {
        es_budget_per_dim: 100,
        ..PortfolioSettings::default()
    }
    .to_the_end()
}

/// The budget is a cap, not a schedule: with budgets B and 10·B a run evaluates the same
/// first points, bit for bit, and never more than its budget (the batch that would not
/// fit is not evaluated).
#[test]
fn the_budget_is_a_cap_not_a_schedule() {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let problem = rastrigin_on_a_circle(&SEEN);
    let mut checked = 0;
    for budget in [50, 400, 3000, 20_000] {
        let mut points = Vec::new();
        let mut rounds = Vec::new();
        for b in [budget, 10 * budget] {
            SEEN.lock().unwrap().clear();
            let mut run = support::portfolio(&problem, small_rounds(), 11).unwrap();
            support::run(&mut run, &problem, b).unwrap();
            assert!(run.evaluations() <= b);
            // What is left is less than the next batch.
            let next = run.ask().unwrap().expect("runs to the budget").len();
            assert!(
                run.evaluations() + next > b,
                "{b}: {} + {next}",
                run.evaluations()
            );
            rounds.push(run.round());
            points.push(std::mem::take(&mut *SEEN.lock().unwrap()));
        }
        assert_eq!(
            points[0][..],
            points[1][..points[0].len()],
            "budget {budget}"
        );
        assert!(rounds[1] >= rounds[0]);
        checked += 1;
    }
    // The longest runs went through several rounds (restarts, ES, polish).
    let mut run = support::portfolio(&problem, small_rounds(), 11).unwrap();
    support::run(&mut run, &problem, 200_000).unwrap();
    assert!(run.round() >= 3, "round {}", run.round());
    println!(
        "budget prefix checked at {checked} budgets; {} rounds in 200 000 evaluations",
        run.round()
    );
}

/// Evaluates the points asked for by `run` on `problem`, `tells` times.
fn drive(run: &mut Portfolio, problem: &impl ConstrainedProblem, tells: usize) {
    let (n, k) = (problem.dim(), problem.num_constraints());
    let mut c = vec![0.0; k];
    for _ in 0..tells {
        let points = run
            .ask()
            .unwrap()
            .expect("runs to the budget")
            .points
            .to_owned();
        let mut objectives = Vec::new();
        let mut constraints = Array2::zeros((k, points.ncols()).f());
        for (j, p) in points.columns().into_iter().enumerate() {
            let x: Vec<f64> = p.to_vec();
            assert_eq!(x.len(), n);
            objectives.push(problem.evaluate(&x, &mut c).unwrap());
            constraints
                .column_mut(j)
                .assign(&ndarray::ArrayView1::from(&c[..]));
        }
        run.tell(&objectives, constraints.view()).unwrap();
    }
}

/// A run saved between a tell and the next ask (in every phase) continues bit for bit.
#[test]
fn a_saved_run_continues_bit_for_bit() {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let p = &rastrigin_on_a_circle(&SEEN);
    let mut whole = support::portfolio(p, small_rounds(), 5).unwrap();
    drive(&mut whole, p, 3000);
    let mut saved_at = Vec::new();
    for stop in [1, 7, 40, 300, 1500] {
        let mut first = support::portfolio(p, small_rounds(), 5).unwrap();
        drive(&mut first, p, stop);
        saved_at.push((first.round(), first.share()));
        let bytes = rmp_serde::to_vec(&first).unwrap();
        let mut resumed: Portfolio = rmp_serde::from_slice(&bytes).unwrap();
        drive(&mut resumed, p, 3000 - stop);
        assert_eq!(
            resumed.evaluations(),
            whole.evaluations(),
            "saved after {stop} tells"
        );
        assert_eq!(resumed.best(), whole.best(), "saved after {stop} tells");
        let next = |run: &mut Portfolio| run.ask().unwrap().map(|r| (r.kind, r.points.to_owned()));
        assert_eq!(next(&mut resumed), next(&mut whole));
    }
    // The saves fell into different rounds.
    assert!(
        saved_at.first().unwrap().0 < saved_at.last().unwrap().0,
        "{saved_at:?}"
    );
}

#[test]
fn bad_tells_and_settings_are_errors() {
    let problem = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 1, 0, |x, c| {
        c[0] = x[0] + x[1];
        Ok(x[0] * x[0] + x[1] * x[1])
    })
    .unwrap();
    let shape = ProblemShape::of(&problem).unwrap();
    for (settings, what) in [
        (
            PortfolioSettings {
                es_budget_per_dim: 0,
                ..PortfolioSettings::default()
            },
            "es_budget_per_dim",
        ),
        (
            PortfolioSettings {
                initial_share: 1.5,
                ..PortfolioSettings::default()
            },
            "initial_share",
        ),
        (
            PortfolioSettings {
                max_share: f64::NAN,
                ..PortfolioSettings::default()
            },
            "max_share",
        ),
        (
            PortfolioSettings {
                sigma0: Some(0.0),
                ..PortfolioSettings::default()
            },
            "sigma0",
        ),
        (
            PortfolioSettings {
                sigma0: Some(f64::INFINITY),
                ..PortfolioSettings::default()
            },
            "sigma0",
        ),
    ] {
        let e = support::portfolio_of_shape(shape.clone(), settings, 1)
            .err()
            .expect("refused");
        assert!(
            matches!(e, emages::Error::Settings(_)) && e.to_string().contains(what),
            "{e}"
        );
    }
    let mut run = support::portfolio_of_shape(shape, PortfolioSettings::default(), 1).unwrap();
    let e = run.tell(&[1.0], Array2::zeros((1, 1)).view()).unwrap_err();
    assert!(e.to_string().contains("without an ask"), "{e}");
    let asked = run.ask().unwrap().unwrap().len();
    let e = run
        .tell(&vec![0.0; asked + 1], Array2::zeros((1, asked + 1)).view())
        .unwrap_err();
    assert!(e.to_string().contains("told objectives"), "{e}");
    let e = run
        .tell(&vec![0.0; asked], Array2::zeros((2, asked)).view())
        .unwrap_err();
    assert!(e.to_string().contains("told constraints"), "{e}");
    // A budget too small for the first batch.
    let mut run = support::portfolio(&problem, PortfolioSettings::default(), 1).unwrap();
    assert!(matches!(
        support::run(&mut run, &problem, 0),
        Err(SolverError::NothingEvaluated(_))
    ));
}

/// Rosen–Suzuki, the spring and the pressure vessel (scaled to [0, 1]ⁿ) and the circle:
/// the default portfolio hits f* + 10⁻⁶ · max(1, |f*|) feasibly within a few hundred
/// evaluations on every seed; the first three stop by themselves soon after (pycma's
/// `fmin_con2` takes 1 000–2 000 evaluations to stop; the goal is at most three times
/// that, docs/strategy-design.md §31).
#[test]
fn the_classic_problems_are_solved_and_the_runs_stop() {
    let mut checked = 0;
    for problem in classic::all() {
        let mut stops = Vec::new();
        for seed in 1..=10 {
            let hits = classic::Hits::new(&problem);
            let mut run = support::portfolio(&hits, PortfolioSettings::default(), seed).unwrap();
            let best = support::run(&mut run, &hits, 200_000).unwrap();
            let hit = hits
                .hit()
                .unwrap_or_else(|| panic!("{} seed {seed}: no hit", problem.name));
            assert!(hit <= 600, "{} seed {seed}: hit at {hit}", problem.name);
            // The circle's equality has the margin δ = 10⁻⁴: each run of the local phase
            // ends at another point of the band |h| ≤ δ (f differing by ~10⁻⁵), and the
            // confirmations come late or not at all. The three stop within 3 000.
            if problem.name != "circle" {
                assert!(run.stopped(), "{} seed {seed}: did not stop", problem.name);
                assert!(
                    run.evaluations() <= 3_000,
                    "{} seed {seed}: stopped at {}",
                    problem.name,
                    run.evaluations()
                );
            }
            assert_eq!(run.evaluations(), hits.evaluations());
            assert!(
                best.violation() <= 1e-12,
                "{}: ν̄ = {}",
                problem.name,
                best.violation()
            );
            stops.push(run.evaluations());
            checked += 1;
        }
        stops.sort_unstable();
        println!(
            "{}: stopped after {:?} evaluations (10 seeds)",
            problem.name, stops
        );
    }
    println!("{checked} classic runs solved, 30 stopped");
    assert!(checked >= 30);
}

/// A start of the user's own: the first point asked for, clipped into the box; a bad
/// one is an error.
#[test]
fn the_first_start_can_be_given() {
    let problem = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 1, 0, |x, c| {
        c[0] = x[0] + x[1];
        Ok(x[0] * x[0] + x[1] * x[1])
    })
    .unwrap();
    let options = emages::Options::recommended().seed(1);
    let mut run = options
        .clone()
        .start(vec![0.25, 3.0])
        .build_for(&problem)
        .unwrap()
        .ask_tell()
        .unwrap();
    let first = run.ask().unwrap().unwrap().points.to_owned();
    assert_eq!(first.column(0).to_vec(), vec![0.25, 1.0]);
    for (x0, what) in [(vec![0.0, f64::NAN], "finite"), (vec![0.0], "dimension 2")] {
        let e = match options.clone().start(x0).build_for(&problem) {
            Ok(_) => panic!("refused"),
            Err(e) => e,
        };
        assert!(e.to_string().contains(what), "{e}");
    }
}

/// A problem whose constraint is NaN at the box centre, the portfolio's first point (as
/// CEC2020's power-system problems are): the record leaves that point for the first one
/// with a violation that is a number, and the run ends feasible near the optimum
/// `(0.6, 0)`. With `nan_last` off (the frozen `portfolio-share0`) the NaN point stays.
#[test]
fn a_nan_first_point_does_not_stay_the_best() {
    // g = 0.6 − x₀ ≤ 0, NaN near x₀ = 1, the box centre's first coordinate.
    let problem = FnProblem::new(
        vec![0.0, -1.0],
        vec![2.0, 1.0],
        1,
        0,
        |x: &[f64], c: &mut [f64]| {
            c[0] = if (x[0] - 1.0).abs() < 0.05 {
                f64::NAN
            } else {
                0.6 - x[0]
            };
            Ok(x[0] * x[0] + x[1] * x[1])
        },
    )
    .unwrap();
    let mut run = support::portfolio(&problem, PortfolioSettings::default(), 5).unwrap();
    let best = support::run(&mut run, &problem, 5_000).unwrap();
    assert!(best.found_at() > 1, "found at {}", best.found_at());
    assert_eq!(best.violation(), 0.0, "{:?}", best.fitness());
    assert!(
        (best.objective() - 0.36).abs() < 1e-6,
        "{:?}",
        best.fitness()
    );
    let frozen = PortfolioSettings {
        nan_last: false,
        ..PortfolioSettings::default()
    };
    let mut run_frozen = support::portfolio(&problem, frozen, 5).unwrap();
    let kept = support::run(&mut run_frozen, &problem, 5_000).unwrap();
    assert_eq!(kept.found_at(), 1);
    assert!(kept.violation().is_nan());
    println!(
        "NaN at the centre: best f = {} found at evaluation {} of {}",
        best.objective(),
        best.found_at(),
        run.evaluations()
    );
}

/// The step size of the first ES round's first generation, and the points evaluated up
/// to it (bit patterns), of a run with these settings.
fn first_es_generation(settings: PortfolioSettings) -> (f64, Vec<u64>) {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    SEEN.lock().unwrap().clear();
    let problem = rastrigin_on_a_circle(&SEEN);
    let mut run = support::portfolio(&problem, settings, 7).unwrap();
    let lambda = 4 * 3; // εMAg-ES-R's λ = 4N: no batch of the local phase is as wide
    let mut c = vec![0.0; 2];
    loop {
        let points = run.ask().unwrap().expect("runs on").points.to_owned();
        if points.ncols() == lambda {
            return (run.step_size(), SEEN.lock().unwrap().clone());
        }
        let mut objectives = Vec::new();
        let mut constraints = Array2::zeros((2, points.ncols()).f());
        for (j, x) in points.columns().into_iter().enumerate() {
            objectives.push(problem.evaluate(x.as_slice().unwrap(), &mut c).unwrap());
            constraints.column_mut(j).assign(&ndarray::aview1(&c));
        }
        run.tell(&objectives, constraints.view()).unwrap();
    }
}

/// `sigma0` is the ES rounds' initial step size; the local phase before them is the
/// same, point for point, and `sigma0: None` is the ES's default, 1.
#[test]
fn sigma0_sets_the_es_rounds_step_size() {
    let base = PortfolioSettings {
        es_budget_per_dim: 100,
        ..PortfolioSettings::default()
    };
    let (sigma_default, before_default) = first_es_generation(base.clone());
    let (sigma_one, before_one) = first_es_generation(PortfolioSettings {
        sigma0: Some(1.0),
        ..base.clone()
    });
    let (sigma_small, before_small) = first_es_generation(PortfolioSettings {
        sigma0: Some(0.05),
        ..base
    });
    assert_eq!((sigma_default, sigma_one, sigma_small), (1.0, 1.0, 0.05));
    assert!(!before_default.is_empty());
    assert_eq!(before_default, before_one);
    assert_eq!(before_default, before_small);
    println!(
        "sigma0: the first ES generation after {} evaluations of the local phase",
        before_default.len() / 3
    );
}

/// `rastrigin_on_a_circle` (without the record of points) offering its exact constraint
/// Jacobian, counting its evaluations and its Jacobians.
struct WithJacobian {
    box_: (Vec<f64>, Vec<f64>),
    evaluations: AtomicUsize,
    jacobians: AtomicUsize,
}

impl WithJacobian {
    fn new() -> Self {
        Self {
            box_: (vec![-5.0; 3], vec![5.0; 3]),
            evaluations: AtomicUsize::new(0),
            jacobians: AtomicUsize::new(0),
        }
    }
}

impl ConstrainedProblem for WithJacobian {
    fn dim(&self) -> usize {
        3
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.box_.0
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.box_.1
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, c)?;
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        c[0] = x[0] * x[0] + x[1] * x[1] - 4.0;
        c[1] = x[0] + x[1] + x[2] - 1.0;
        Ok(x.iter().map(|v| v * v - 3.0 * (2.0 * v).cos()).sum())
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        Some(self)
    }
}

impl ConstraintJacobian for WithJacobian {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        prepare_jacobian(self, x, values, jacobian.dim())?;
        self.jacobians.fetch_add(1, Ordering::Relaxed);
        jacobian.assign(&ndarray::array![
            [2.0 * x[0], 2.0 * x[1], 0.0],
            [1.0, 1.0, 1.0]
        ]);
        Ok(())
    }
}

/// A problem that offers its Jacobian gives it to the ES rounds' repair: the run asks for
/// Jacobians instead of difference probes, and is charged by the CEC2020 rule (one
/// evaluation for a Jacobian at a point not evaluated with it, none at the repaired
/// points whose evaluation counted), so its count lies between the problem's
/// evaluations and those plus its Jacobians. The same problem as a black box asks for
/// none, and the local phase's first restart is the same in both.
#[test]
fn exact_jacobians_go_to_the_es_repair_and_are_charged_by_the_cec2020_rule() {
    let budget = 6000;
    let exact = WithJacobian::new();
    let mut run = support::portfolio(&exact, small_rounds(), 5).unwrap();
    let best = support::run(&mut run, &exact, budget).unwrap();
    let (evaluations, jacobians) = (
        exact.evaluations.load(Ordering::Relaxed),
        exact.jacobians.load(Ordering::Relaxed),
    );
    assert!(jacobians > 0, "no Jacobian asked for");
    assert!(run.evaluations() <= budget);
    assert!(
        evaluations < run.evaluations() && run.evaluations() <= evaluations + jacobians,
        "charged {} for {evaluations} evaluations and {jacobians} Jacobians",
        run.evaluations()
    );
    assert!(best.violation() < 1e-3, "{best:?}");
    assert_eq!(run.evaluations() - run.jacobian_evaluations(), evaluations);

    let black_box = WithJacobian::new();
    let shape = ProblemShape::of(&black_box)
        .unwrap()
        .with_jacobian(JacobianSource::Differences);
    let mut run_bb = support::portfolio_of_shape(shape, small_rounds(), 5).unwrap();
    let best_bb = support::run(&mut run_bb, &black_box, budget).unwrap();
    assert_eq!(black_box.jacobians.load(Ordering::Relaxed), 0);
    assert_eq!(
        run_bb.evaluations(),
        black_box.evaluations.load(Ordering::Relaxed)
    );
    // Before the first ES round, the runs are one run.
    let first_local = |settings: PortfolioSettings, p: &WithJacobian, exact: bool| {
        let mut shape = ProblemShape::of(p).unwrap();
        if !exact {
            shape = shape.with_jacobian(JacobianSource::Differences);
        }
        let mut run = support::portfolio_of_shape(shape, settings, 5).unwrap();
        support::run(&mut run, p, 40).unwrap()
    };
    assert_eq!(
        first_local(small_rounds(), &WithJacobian::new(), true),
        first_local(small_rounds(), &WithJacobian::new(), false)
    );
    println!(
        "exact: {} charged ({evaluations} evaluations, {jacobians} Jacobians), best {:?}; black box: {} evaluations, best {:?}",
        run.evaluations(),
        best.fitness(),
        run_bb.evaluations(),
        best_bb.fitness()
    );
}

/// A run set up for exact Jacobians refuses a problem that offers none, and a Jacobians
/// request told with one column per point (not `N`) is an error.
#[test]
fn exact_jacobians_that_cannot_be_had_or_do_not_fit_are_errors() {
    let exact = WithJacobian::new();
    let shape = ProblemShape::of(&exact).unwrap();
    assert_eq!(shape.jacobian, JacobianSource::Exact);
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let without = rastrigin_on_a_circle(&SEEN);
    let mut run = support::portfolio_of_shape(shape.clone(), small_rounds(), 5).unwrap();
    let e = support::run(&mut run, &without, 1000).unwrap_err();
    assert!(e.to_string().contains("offers none"), "{e}");

    let mut run = support::portfolio_of_shape(shape, small_rounds(), 5).unwrap();
    let (n, k) = (3, 2);
    let mut c = vec![0.0; k];
    let mut j = Array2::zeros((k, n));
    loop {
        let request = run.ask().unwrap().expect("runs on");
        let (kind, points) = (request.kind, request.points.to_owned());
        if kind == RequestKind::Jacobians {
            let wrong = Array2::zeros((k, points.ncols()).f());
            let e = run.tell(&[], wrong.view()).unwrap_err();
            assert!(e.to_string().contains("Jacobians"), "{e}");
            let mut blocks = Array2::zeros((k, n * points.ncols()).f());
            for (i, x) in points.columns().into_iter().enumerate() {
                exact
                    .evaluate_jacobian(&x.to_vec(), None, j.view_mut())
                    .unwrap();
                blocks
                    .slice_mut(ndarray::s![.., i * n..(i + 1) * n])
                    .assign(&j);
            }
            run.tell(&[], blocks.view()).unwrap();
            break;
        }
        let mut objectives = Vec::new();
        let mut constraints = Array2::zeros((k, points.ncols()).f());
        for (i, x) in points.columns().into_iter().enumerate() {
            objectives.push(exact.evaluate(&x.to_vec(), &mut c).unwrap());
            constraints
                .column_mut(i)
                .assign(&ndarray::ArrayView1::from(&c[..]));
        }
        run.tell(&objectives, constraints.view()).unwrap();
    }
}

/// An observed run is the run, with a look after every iteration: the same points and
/// best, one call per iteration with the history's row; a break stops the run there
/// (`Stopped`: nothing more is asked for) with the state of that iteration.
#[test]
fn an_observed_run_is_the_run_and_a_break_ends_it() {
    static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let problem = rastrigin_on_a_circle(&SEEN);
    SEEN.lock().unwrap().clear();
    let mut plain = support::portfolio(&problem, small_rounds(), 5).unwrap();
    let best = support::run(&mut plain, &problem, 5_000).unwrap();
    let points = std::mem::take(&mut *SEEN.lock().unwrap());

    let mut steps = Vec::new();
    let mut observed = support::portfolio(&problem, small_rounds(), 5).unwrap();
    let again = support::run_observed(&mut observed, &problem, 5_000, |r| {
        steps.push(r.status());
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(again, best);
    assert_eq!(
        *SEEN.lock().unwrap(),
        points,
        "the same points, bit for bit"
    );
    assert_eq!(steps.len(), plain.iterations());
    assert!(steps
        .windows(2)
        .all(|w| w[0].iterations + 1 == w[1].iterations && w[0].evaluations <= w[1].evaluations));
    // The last tells may not end an iteration (a generation cut short by the budget).
    let last = steps.last().unwrap();
    assert!(
        last.evaluations <= plain.evaluations() && plain.evaluations() - last.evaluations < 100
    );
    let local = steps.iter().filter(|s| s.is_local()).count();
    assert!(
        local > 0 && local < steps.len(),
        "both phases ran: {local} of {}",
        steps.len()
    );
    assert!(
        steps.iter().all(|s| s.is_local() == s.epsilon.is_nan()),
        "ε only in the ES rounds"
    );

    // A break after iteration 30 stops the run there.
    SEEN.lock().unwrap().clear();
    let mut cut = support::portfolio(&problem, small_rounds(), 5).unwrap();
    support::run_observed(&mut cut, &problem, 5_000, |r| {
        if r.iterations() == 30 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(cut.iterations(), 30);
    assert_eq!(
        format!("{:?}", cut.status()),
        format!("{:?}", steps[29]),
        "NaN ε compares by its text"
    );
    assert_eq!(cut.termination(), Some(emages::Termination::Stopped));
    assert!(cut.ask().unwrap().is_none());
    let seen = SEEN.lock().unwrap().len();
    assert!(seen < points.len() && points.starts_with(&SEEN.lock().unwrap()));
    println!(
        "{} iterations observed ({local} of the local phase)",
        steps.len()
    );
}

/// `target`: the run stops at the first feasible point with `f ≤ target`, which a run
/// without it passes through; NaN is refused.
#[test]
fn a_target_stops_the_run_there() {
    let classic = classic::all()
        .into_iter()
        .find(|p| p.name == "rosen-suzuki")
        .unwrap();
    let problem = &classic.problem;
    let mut free = support::portfolio(problem, PortfolioSettings::default(), 3).unwrap();
    let mut values = Vec::new();
    support::run_observed(&mut free, problem, 200_000, |r| {
        values.push((r.evaluations(), r.best().map(|b| b.fitness())));
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    let target = -43.0;
    let settings = PortfolioSettings {
        target: Some(target),
        ..PortfolioSettings::default()
    };
    let mut run = support::portfolio(problem, settings, 3).unwrap();
    let best = support::run(&mut run, problem, 200_000).unwrap();
    assert!(run.stopped() && run.reached_target());
    assert!(best.violation() == 0.0 && best.objective() <= target);
    // The free run's first iteration with such a best is where the targeted run stopped.
    let first = values
        .iter()
        .find(|(_, b)| b.is_some_and(|b| b.violation == 0.0 && b.objective <= target))
        .expect("the free run reaches the target");
    assert_eq!(run.evaluations(), first.0);
    assert!(run.evaluations() < free.evaluations());
    println!(
        "target {target}: stopped after {} evaluations (without: {})",
        run.evaluations(),
        free.evaluations()
    );
    let nan = PortfolioSettings {
        target: Some(f64::NAN),
        ..PortfolioSettings::default()
    };
    let e = support::portfolio(problem, nan, 3).err().expect("refused");
    assert!(e.to_string().contains("target"), "{e}");
}
