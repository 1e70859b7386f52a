//! The strategy driven by ask and tell: the same trajectory as the drivers' runs, bit
//! for bit, however the repair's evaluations are batched; a run saved after any tell
//! continues exactly; the repair's requests come in batches.

#[path = "support/runs.rs"]
mod runs;
use cec2017_constrained::Suite;
use constraint_handling::problem::ProblemShape;
use constraint_handling::problem::{ConstraintJacobian, JacobianSource};
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use ma_es::ask_tell::AskTell;
use ma_es::control::Limits;
use ma_es::noise::RngNoise;
use ma_es::strategy::{Batching, RequestKind, Told};
use ma_es::{ComponentSpec, Config, MaEsError, RunResult};
use ndarray::{s, Array1, Array2, ShapeBuilder};
use runs::{drive, Control};

/// The specs the tests go through: the presets that repair or not, the εMAg-ES-R
/// restart sequence (also with a convergence key and black-box Jacobians), IPOP opened by the augmented Lagrangian, a stochastic ranking,
/// the median success rule.
const SPECS: [&str; 8] = [
    "eps-mag-es",
    // Fields a saved spec leaves out (no opening) before ones it writes.
    "eps-mag-es-r:tol-fun=1e-9:jacobian=differences",
    "eps-ma-es",
    "lex-mag-es",
    "eps-mag-es-r",
    "eps-mag-es:restarts=ipop:opening=augmented-lagrangian:polish=30%:stall=progress",
    "eps-mag-es:ranking=stochastic:restarts=bipop",
    "eps-mag-es:step-size=median-success:ranking=by-constraint-kind",
];

/// To the budget (no convergence criterion), with checkpoints and dynamics.
fn control(budget: usize) -> Control {
    Control::to_the_end(Limits {
        budget: Some(budget),
        checkpoints: vec![budget / 10, budget / 2, budget],
        record_dynamics: true,
        ..Limits::default()
    })
}

/// A run of `spec` on `problem` to `budget` evaluations (with checkpoints and
/// dynamics), seed `seed`, driven by ask and tell.
fn start<P: ConstrainedProblem>(
    problem: &P,
    spec: &ComponentSpec,
    budget: usize,
    seed: u64,
) -> AskTell<RngNoise> {
    control(budget)
        .options(spec, &Config::default(), seed)
        .batching(Batching::Generation)
        .build_for(problem)
        .unwrap()
        .ask_tell()
        .unwrap()
}

/// Σ (x_i − 1)² s.t. Σ x_i ≤ 2 and x_1 = x_2 on [−3, 3]^N.
fn simplex(n: usize) -> impl ConstrainedProblem {
    FnProblem::new(vec![-3.0; n], vec![3.0; n], 1, 1, |x, c| {
        c[0] = x.iter().sum::<f64>() - 2.0;
        c[1] = x[0] - x[1];
        Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum())
    })
    .unwrap()
}

/// Evaluates what `es` asks with `problem` in the reference's grouping (the population
/// as one batch, each offspring's probes as one batch, each repaired point alone, as a
/// user of a suite whose batches round differently must), counting the request sizes.
fn answer<P: ConstrainedProblem>(
    es: &mut AskTell<RngNoise>,
    problem: &P,
    sizes: &mut Vec<(RequestKind, usize)>,
) -> Result<Option<Told>, MaEsError> {
    let n = problem.dim();
    let k = problem.num_constraints();
    let Some(request) = es.ask()? else {
        return Ok(None);
    };
    let (points, kind) = (request.points.to_owned(), request.kind);
    let count = points.ncols();
    sizes.push((kind, count));
    let mut f = Array1::zeros(count);
    // A Jacobian is N columns per point.
    let columns = if kind == RequestKind::Jacobians {
        n * count
    } else {
        count
    };
    let mut c = Array2::zeros((k, columns).f());
    match kind {
        RequestKind::Population => {
            problem.evaluate_batch(points.view(), f.view_mut(), c.view_mut())?
        }
        RequestKind::JacobianProbes => {
            for j in 0..count / n {
                let cols = s![.., j * n..(j + 1) * n];
                problem.evaluate_constraints_batch(
                    points.slice(cols),
                    f.slice_mut(s![j * n..(j + 1) * n]),
                    c.slice_mut(cols),
                )?;
            }
        }
        RequestKind::Jacobians => {
            let jacobian = problem.constraint_jacobian().expect("asked for Jacobians");
            for j in 0..count {
                let x = points.column(j).to_vec();
                jacobian.evaluate_jacobian(&x, None, c.slice_mut(s![.., j * n..(j + 1) * n]))?;
            }
        }
        RequestKind::Repaired => {
            for j in 0..count {
                let x = points.column(j).to_vec();
                let mut cj = vec![0.0; k];
                f[j] = problem.evaluate(&x, &mut cj)?;
                c.column_mut(j).assign(&Array1::from(cj));
            }
        }
        RequestKind::Gradients => unreachable!("the ES asks for no gradient"),
    }
    let f = if kind.constraints_only() {
        Vec::new()
    } else {
        f.to_vec()
    };
    es.tell(&f, c.view()).map(Some)
}

fn ask_tell<P: ConstrainedProblem>(
    problem: &P,
    config: &Config,
    control: &Control,
    spec: &ComponentSpec,
    seed: u64,
    batching: Batching,
) -> (
    RunResult,
    Vec<ma_es::restarts::RestartRecord>,
    Vec<(RequestKind, usize)>,
) {
    let mut es = control
        .options(spec, config, seed)
        .batching(batching)
        .build_for(problem)
        .unwrap()
        .ask_tell()
        .unwrap();
    let mut sizes = Vec::new();
    while answer(&mut es, problem, &mut sizes).unwrap().is_some() {}
    (es.result(), es.restarts().to_vec(), sizes)
}

fn assert_same(a: &RunResult, b: &RunResult, what: &str) {
    assert_eq!(a, b, "{what}");
    // PartialEq on floats: NaN would differ; compare the bits of the best too.
    assert_eq!(
        a.best.objective().to_bits(),
        b.best.objective().to_bits(),
        "{what}"
    );
}

/// Ask and tell, batched either way, gives the driver's result bit for bit: on a user
/// problem and on CEC2017 problems whose batches round differently from single points.
#[test]
fn ask_and_tell_replays_the_drivers_runs_bit_for_bit() {
    let suite = Suite::synthetic(3);
    let mut checked = 0;
    for text in SPECS {
        let spec: ComponentSpec = text.parse().unwrap();
        for (name, problem) in [
            (
                "simplex",
                Box::new(simplex(4)) as Box<dyn ConstrainedProblem>,
            ),
            ("C05", Box::new(suite.problem(5, 10).unwrap())),
            ("C22", Box::new(suite.problem(22, 10).unwrap())),
        ] {
            let problem = &*problem;
            let budget = 12_000;
            let (expected, runs) = drive(
                &problem,
                &Config::default(),
                &control(budget),
                &spec,
                5,
                &mut RngNoise::seed_from_u64(5),
            )
            .unwrap();
            for batching in [Batching::Generation, Batching::Offspring] {
                let (r, history, _) = ask_tell(
                    &problem,
                    &Config::default(),
                    &control(budget),
                    &spec,
                    5,
                    batching,
                );
                assert_same(&r, &expected, &format!("{text} on {name}, {batching:?}"));
                assert_eq!(history, runs, "{text} on {name}, {batching:?}");
                checked += 1;
            }
        }
    }
    println!("checked {checked} ask-and-tell runs against the driver");
    assert_eq!(checked, SPECS.len() * 3 * 2);
}

/// As [`control`], with the convergence criteria on (their state is saved too).
fn converging(budget: usize) -> Control {
    Control {
        convergence: ma_es::control::Convergence::default(),
        ..control(budget)
    }
}

/// A run saved (MessagePack) after tell number `k` and restored continues exactly as
/// the original: same requests, same result — inside restart sequences too, with the
/// convergence criteria on.
#[test]
fn a_run_saved_after_any_tell_continues_bit_for_bit() {
    let problem = Suite::synthetic(3).problem(7, 10).unwrap();
    let mut saves = 0;
    for text in SPECS {
        let spec: ComponentSpec = text.parse().unwrap();
        let budget = 8_000;
        let (expected, runs, sizes) = ask_tell(
            &problem,
            &Config::default(),
            &converging(budget),
            &spec,
            11,
            Batching::Generation,
        );
        // Save before the first ask and at a few tells spread over the run, in the
        // repair's phases too, as MessagePack and as JSON.
        let total = sizes.len();
        let cuts = [0, 1, 2, 3, total / 3, total / 2 + 1, total - 2];
        for (cut, json) in cuts.into_iter().flat_map(|c| [(c, false), (c, true)]) {
            let mut es = converging(budget)
                .options(&spec, &Config::default(), 11)
                .build_for(&problem)
                .unwrap()
                .ask_tell()
                .unwrap();
            let mut seen = Vec::new();
            for _ in 0..cut {
                answer(&mut es, &problem, &mut seen).unwrap();
            }
            let mut restored: AskTell<RngNoise> = if json {
                let saved = serde_json::to_string(&es)
                    .unwrap_or_else(|e| panic!("{text}, tell {cut}: to JSON: {e}"));
                serde_json::from_str(&saved)
                    .unwrap_or_else(|e| panic!("{text}, tell {cut}: from JSON: {e}"))
            } else {
                let bytes = rmp_serde::to_vec_named(&es).unwrap();
                rmp_serde::from_slice(&bytes).unwrap()
            };
            saves += 1;
            while answer(&mut restored, &problem, &mut seen)
                .unwrap()
                .is_some()
            {}
            let what = format!(
                "{text}, saved after tell {cut} as {}",
                if json { "JSON" } else { "MessagePack" }
            );
            assert_eq!(seen, sizes, "{what}: the requests");
            assert_same(&restored.result(), &expected, &what);
            assert_eq!(restored.restarts(), &runs[..], "{what}");
        }
    }
    println!("{saves} runs saved midway (MessagePack and JSON) and restored");
    assert_eq!(saves, SPECS.len() * 14);
}

/// Batched by generation, the repair asks for all its probes at once and all its
/// repaired points at once; a request of one point is a generation that repairs one
/// offspring. Batched by offspring, every repaired point comes alone.
#[test]
fn the_repair_asks_in_batches() {
    // C06: six equality constraints, infeasible offspring all along.
    let problem = Suite::synthetic(3).problem(6, 10).unwrap();
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    let count = |batching| {
        let (_, _, sizes) = ask_tell(
            &problem,
            &Config::default(),
            &control(20_000),
            &spec,
            2,
            batching,
        );
        let requests = |kind: RequestKind| sizes.iter().filter(|(k, _)| *k == kind).count();
        let points = |kind: RequestKind| -> usize {
            sizes
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, n)| n)
                .sum()
        };
        (
            requests(RequestKind::Repaired),
            points(RequestKind::Repaired),
            requests(RequestKind::JacobianProbes),
            sizes.iter().filter(|(_, n)| *n == 1).count(),
        )
    };
    let (by_generation, repaired, probes, single) = count(Batching::Generation);
    let (by_offspring, repaired_too, probes_alone, single_alone) = count(Batching::Offspring);
    println!(
        "repaired points {repaired}: {by_generation} requests by generation ({single} of one point), {by_offspring} by offspring; probe requests {probes} against {probes_alone}"
    );
    assert_eq!(repaired, repaired_too);
    assert_eq!(by_offspring, repaired, "one request per repaired point");
    assert_eq!(single_alone, repaired);
    assert!(repaired > 50, "the run repairs ({repaired})");
    // At most θ_r = 3 steps per repair generation: at most 3 requests of each kind.
    let repair_generations = 20_000 / 40 / 10 + 1;
    assert!(by_generation <= 3 * repair_generations, "{by_generation}");
    assert!(probes <= 3 * repair_generations, "{probes}");
    assert!(single < by_generation);
}

/// Telling values of the wrong shape, or without an ask, is an error that leaves the
/// run as it was.
#[test]
fn bad_tells_are_errors_and_change_nothing() {
    let problem = simplex(3);
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    let mut es = start(&problem, &spec, 2_000, 1);
    let err = es.tell(&[1.0], Array2::zeros((2, 1)).view()).unwrap_err();
    assert!(err.to_string().contains("without a pending ask"), "{err}");
    let lambda = es.ask().unwrap().unwrap().points.ncols();
    let err = es
        .tell(&[0.0; 3], Array2::zeros((2, lambda)).view())
        .unwrap_err();
    assert!(err.to_string().contains("objectives"), "{err}");
    let err = es
        .tell(&vec![0.0; lambda], Array2::zeros((lambda, 2)).view())
        .unwrap_err();
    assert!(err.to_string().contains("constraints"), "{err}");
    // The run goes on as if nothing had happened.
    let mut sizes = Vec::new();
    while answer(&mut es, &problem, &mut sizes).unwrap().is_some() {}
    let (expected, _, _) = ask_tell(
        &problem,
        &Config::default(),
        &control(2_000),
        &spec,
        1,
        Batching::Generation,
    );
    assert_same(&es.result(), &expected, "after bad tells");
}

/// A population whose probes would not fit one request (N = 128, λ = 512: 2²² / N² =
/// 256 offspring a request) is repaired in waves, with the driver's values.
#[test]
fn a_huge_population_is_repaired_in_waves() {
    let problem = simplex(128);
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    // Every offspring repaired in generation 0 (θ_p = 1); the budget ends the run there.
    let config = Config {
        theta_p: 1.0,
        ..Config::default()
    };
    let control = control(2_000);
    let (expected, _) = drive(
        &problem,
        &config,
        &control,
        &spec,
        3,
        &mut RngNoise::seed_from_u64(3),
    )
    .unwrap();
    let (r, _, sizes) = ask_tell(&problem, &config, &control, &spec, 3, Batching::Generation);
    assert_same(&r, &expected, "λ = 512 at N = 128");
    let probes: Vec<usize> = sizes
        .iter()
        .filter(|(k, _)| *k == RequestKind::JacobianProbes)
        .map(|(_, n)| n / 128)
        .collect();
    println!("probe requests (offspring each): {probes:?}");
    assert!(
        probes.len() >= 2 && probes.iter().all(|&a| a <= 256),
        "{probes:?}"
    );
    assert_eq!(probes[0], 256);
}

/// In the middle of a restart sequence the result counts the whole run: its
/// evaluations, its checkpoints taken so far (in order, none beyond the count), and the
/// dynamics up to the generation just told.
#[test]
fn a_result_midway_counts_the_whole_sequence() {
    let problem = suite_problem();
    let spec: ComponentSpec = "eps-mag-es-r".parse().unwrap();
    let mut es = start(&problem, &spec, 30_000, 2);
    let (mut sizes, mut checked, mut later_runs) = (Vec::new(), 0, 0);
    while let Some(told) = answer(&mut es, &problem, &mut sizes).unwrap() {
        if !matches!(told, Told::Iteration(_)) {
            continue;
        }
        let r = es.result();
        let total = es.evaluations();
        assert_eq!(r.evaluations, total);
        let dynamics = r.dynamics.as_ref().unwrap();
        assert_eq!(dynamics.last().unwrap().evaluations, total);
        assert!(dynamics
            .windows(2)
            .all(|w| w[0].evaluations <= w[1].evaluations));
        assert!(r.checkpoints.iter().all(|c| c.evaluations <= total));
        later_runs += usize::from(es.report().before.runs > 0);
        checked += 1;
    }
    println!("checked {checked} generations, {later_runs} in later runs");
    assert!(later_runs > 0, "the sequence restarted");
}

fn suite_problem() -> impl ConstrainedProblem {
    Suite::synthetic(3).problem(5, 10).unwrap()
}

/// A problem with its exact constraint Jacobian, written by `jacobian(x, J)`.
struct Exact {
    inner: Box<dyn ConstrainedProblem>,
    jacobian: fn(&[f64], &mut ndarray::ArrayViewMut2<'_, f64>),
}

impl Exact {
    /// [`simplex`] with `∂g/∂x = (1, …, 1)`, `∂h/∂x = e₁ − e₂`.
    fn simplex(n: usize) -> Self {
        Self {
            inner: Box::new(simplex(n)),
            jacobian: |_, j| {
                j.row_mut(0).fill(1.0);
                j.row_mut(1).fill(0.0);
                j[[1, 0]] = 1.0;
                j[[1, 1]] = -1.0;
            },
        }
    }

    /// Σ (x_i − 1)² s.t. Σ x_i² = 2 on [−3, 3]^N, with `∂h/∂x = 2x`: its repairs
    /// take several Newton steps.
    fn sphere(n: usize) -> Self {
        let inner = FnProblem::new(vec![-3.0; n], vec![3.0; n], 0, 1, |x, c| {
            c[0] = x.iter().map(|v| v * v).sum::<f64>() - 2.0;
            Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum())
        })
        .unwrap();
        Self {
            inner: Box::new(inner),
            jacobian: |x, j| {
                j.row_mut(0)
                    .iter_mut()
                    .zip(x)
                    .for_each(|(d, v)| *d = 2.0 * v)
            },
        }
    }
}

impl ConstrainedProblem for Exact {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn num_inequalities(&self) -> usize {
        self.inner.num_inequalities()
    }
    fn num_equalities(&self) -> usize {
        self.inner.num_equalities()
    }
    fn lower_bounds(&self) -> &[f64] {
        self.inner.lower_bounds()
    }
    fn upper_bounds(&self) -> &[f64] {
        self.inner.upper_bounds()
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.inner.evaluate(x, c)
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        Some(self)
    }
}

impl ConstraintJacobian for Exact {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        if let Some(c) = values {
            self.evaluate(x, c)?;
        }
        (self.jacobian)(x, &mut jacobian);
        Ok(())
    }
}

/// The evaluations a run charges are the points it asked for, each difference probe
/// counting as one and the constraints with their Jacobian at one point as one (the
/// CEC2020 rule): a Jacobian at an offspring costs one evaluation, a Jacobian at a
/// point told as repaired in the request before costs nothing (it comes with that
/// point's evaluation), so a repair of t steps costs t + 1 with the exact Jacobian and
/// t (N + 1) with differences. Every request says what it is charged.
#[test]
fn a_run_charges_the_points_it_asks_for_a_jacobian_counting_with_its_values() {
    let n = 6;
    let mut seen = Vec::new();
    for (name, problem, spec) in [
        ("exact simplex", Exact::simplex(n), "eps-mag-es"),
        ("exact sphere", Exact::sphere(n), "eps-mag-es"),
        (
            "exact sphere, Levenberg–Marquardt",
            Exact::sphere(n),
            "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1",
        ),
        (
            "differences",
            Exact::sphere(n),
            "eps-mag-es:jacobian=differences",
        ),
    ] {
        let spec: ComponentSpec = spec.parse().unwrap();
        let mut es = start(&problem, &spec, 20_000, 3);
        let (mut expected, mut stated, mut free) = (0, 0, 0);
        let mut previous: Option<(RequestKind, Array2<f64>)> = None;
        let mut sizes = Vec::new();
        while let Some(request) = es.ask().unwrap() {
            let (kind, points) = (request.kind, request.points.to_owned());
            stated += request.evaluations;
            expected += match (kind, &previous) {
                (RequestKind::JacobianProbes, _) => points.ncols(),
                (RequestKind::Jacobians, Some((RequestKind::Repaired, before)))
                    if points
                        .columns()
                        .into_iter()
                        .all(|p| before.columns().into_iter().any(|b| b == p)) =>
                {
                    free += points.ncols();
                    0
                }
                _ => points.ncols(),
            };
            previous = Some((kind, points));
            answer(&mut es, &problem, &mut sizes).unwrap();
        }
        let r = es.result();
        assert_eq!(r.evaluations, expected, "{name}");
        assert_eq!(stated, expected, "{name}");
        let count = |kind| -> usize {
            sizes
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, c)| c)
                .sum()
        };
        let (jacobians, probes) = (
            count(RequestKind::Jacobians),
            count(RequestKind::JacobianProbes),
        );
        match name {
            "differences" => {
                assert!(jacobians == 0 && probes == n * count(RequestKind::Repaired));
            }
            "exact simplex" => assert!(jacobians > 0 && probes == 0, "{name}"),
            // the sphere's repairs take further steps, whose Jacobians are free
            _ => assert!(jacobians > free && free > 0 && probes == 0, "{name}"),
        }
        seen.push((name, jacobians, free, probes, count(RequestKind::Repaired)));
    }
    println!("requests (problem, Jacobians, of them free, probes, repaired points): {seen:?}");
}

/// With the exact Jacobian, ask and tell (batched either way) is the driver's run bit
/// for bit, restarts included; `jacobian=differences` makes the problem a black box:
/// the same run, bit for bit, as on the problem without a Jacobian.
#[test]
fn exact_jacobians_drive_alike_and_differences_can_be_forced() {
    let mut checked = 0;
    for text in ["eps-mag-es", "eps-mag-es-r"] {
        let spec: ComponentSpec = text.parse().unwrap();
        let exact = Exact::simplex(4);
        let (expected, runs) = drive(
            &exact,
            &Config::default(),
            &control(12_000),
            &spec,
            5,
            &mut RngNoise::seed_from_u64(5),
        )
        .unwrap();
        for batching in [Batching::Generation, Batching::Offspring] {
            let (r, history, sizes) = ask_tell(
                &exact,
                &Config::default(),
                &control(12_000),
                &spec,
                5,
                batching,
            );
            assert!(sizes.iter().any(|(k, _)| *k == RequestKind::Jacobians));
            assert_same(&r, &expected, &format!("{text}, {batching:?}"));
            assert_eq!(history, runs);
            checked += 1;
        }
        let black_box: ComponentSpec = format!("{text}:jacobian=differences").parse().unwrap();
        assert!(black_box.to_string().contains(":jacobian=differences"));
        assert_eq!(
            black_box.to_string().parse::<ComponentSpec>().unwrap(),
            black_box
        );
        let forced = drive(
            &exact,
            &Config::default(),
            &control(12_000),
            &black_box,
            5,
            &mut RngNoise::seed_from_u64(5),
        )
        .unwrap();
        let plain = drive(
            &simplex(4),
            &Config::default(),
            &control(12_000),
            &spec,
            5,
            &mut RngNoise::seed_from_u64(5),
        )
        .unwrap();
        assert_same(&forced.0, &plain.0, &format!("{text}:jacobian=differences"));
        assert_ne!(
            forced.0, expected,
            "{text}: the exact Jacobian changed nothing"
        );
        checked += 1;
    }
    println!("checked {checked} runs with exact Jacobians");
}

/// A run told that the problem offers Jacobians, stepped with one that does not: a
/// clear error, no panic.
#[test]
fn a_problem_without_a_jacobian_cannot_answer_for_one() {
    let shape = ProblemShape::of(&simplex(3))
        .unwrap()
        .with_jacobian(JacobianSource::Exact);
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    let plan = ma_es::Options::new(spec)
        .budget(20_000)
        .seed(1)
        .build(&shape)
        .unwrap();
    let mut es = plan.strategy(plan.noise()).unwrap();
    let e = loop {
        match es.step(&simplex(3)) {
            Ok(_) => assert!(es.evaluations() < 20_000, "no repair happened"),
            Err(e) => break e,
        }
    };
    assert!(e.to_string().contains("offers none"), "{e}");
}

/// `lm-best=on` (SASS's repair of the best-so-far): in a repair generation of a run in
/// dimension 20 with an equality, the infeasible best-so-far is among the points whose
/// Jacobians are asked for; with `lm-best=off` it never is (fresh offspring do not
/// coincide with it).
#[test]
fn the_lm_repair_of_the_best_so_far() {
    let problem = simplex(20);
    let n = 20;
    let run = |best: &str| -> (usize, usize) {
        let spec: ComponentSpec =
            format!("eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-probability=50%:lm-best={best}")
                .parse()
                .unwrap();
        let mut es = start(&problem, &spec, 20_000, 3);
        let (mut probe_requests, mut with_best) = (0, 0);
        let mut sizes = Vec::new();
        loop {
            let before = es.result();
            if let Some(request) = es.ask().unwrap() {
                if request.kind == RequestKind::JacobianProbes && before.best.violation() > 0.0 {
                    probe_requests += 1;
                    let points = request.points.to_owned();
                    // each block is x + η e_i, i = 0..N: x from columns 0 and 1
                    let hit = (0..points.ncols() / n).any(|j| {
                        let (c0, c1) = (points.column(j * n), points.column(j * n + 1));
                        (0..n).all(|i| {
                            let xi = if i == 0 { c1[0] } else { c0[i] };
                            xi == before.best.x[i]
                        })
                    });
                    with_best += usize::from(hit);
                }
            }
            if answer(&mut es, &problem, &mut sizes).unwrap().is_none() {
                break;
            }
        }
        (probe_requests, with_best)
    };
    let (requests_on, hits_on) = run("on");
    let (requests_off, hits_off) = run("off");
    println!("lm-best=on: {hits_on} of {requests_on} probe requests hold the best; off: {hits_off} of {requests_off}");
    assert!(requests_on > 0 && hits_on > 0);
    assert!(requests_off > 0);
    assert_eq!(hits_off, 0);
    // the key round-trips and is printed only when on
    let on: ComponentSpec = "eps-mag-es:repair=levenberg-marquardt:lm-best=on"
        .parse()
        .unwrap();
    assert!(on.to_string().contains("lm-best=on"), "{on}");
    let off: ComponentSpec = "eps-mag-es:repair=levenberg-marquardt".parse().unwrap();
    assert!(!off.to_string().contains("lm-best"), "{off}");
    assert!("eps-mag-es:lm-best=maybe".parse::<ComponentSpec>().is_err());
}

/// `lm-best-iterations`: the injected best-so-far is repaired by up to that many
/// iterations while the offspring stop after `lm-iterations`. With one iteration per
/// offspring, every further step of a repair (a Jacobian request at the points just
/// repaired) is the best's, one point at a time, and there are none without the key.
#[test]
fn the_best_so_far_takes_its_own_number_of_iterations() {
    let problem = Exact::sphere(20);
    let run = |best_iterations: &str| -> (usize, usize) {
        let spec: ComponentSpec = format!(
            "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-probability=10%:\
             lm-iterations=1:lm-best=on:lm-best-iterations={best_iterations}"
        )
        .parse()
        .unwrap();
        let mut es = start(&problem, &spec, 20_000, 5);
        let (mut further, mut longest, mut chain) = (0, 0, 0);
        let mut previous: Option<(RequestKind, Array2<f64>)> = None;
        let mut sizes = Vec::new();
        while let Some(request) = es.ask().unwrap() {
            let (kind, points) = (request.kind, request.points.to_owned());
            if kind == RequestKind::Jacobians {
                if let Some((RequestKind::Repaired, before)) = &previous {
                    assert_eq!(points.ncols(), 1, "only the best goes on");
                    assert!(before.columns().into_iter().any(|b| b == points.column(0)));
                    further += 1;
                    chain += 1;
                    longest = longest.max(chain);
                } else {
                    chain = 0;
                }
            }
            previous = Some((kind, points));
            answer(&mut es, &problem, &mut sizes).unwrap();
        }
        (further, longest)
    };
    let (further, longest) = run("6");
    let (none, _) = run("same");
    println!("lm-best-iterations=6: {further} further steps, at most {longest} in a row");
    assert!(further > 0 && longest <= 5, "{further} {longest}");
    assert_eq!(none, 0);
    let spec: ComponentSpec =
        "eps-mag-es:repair=levenberg-marquardt:lm-best=on:lm-best-iterations=30"
            .parse()
            .unwrap();
    assert!(spec.to_string().contains("lm-best-iterations=30"), "{spec}");
    assert!("eps-mag-es:lm-best-iterations=0"
        .parse::<ComponentSpec>()
        .is_err());
}

/// Σ (x_i − 1)² s.t. Σ x_i ≤ 2 and x_1 = x_2, written once over a number type.
struct SimplexFormula;
impl constraint_handling::autodiff::Formula for SimplexFormula {
    fn evaluate<T: constraint_handling::autodiff::Scalar>(&self, x: &[T], c: &mut [T]) -> T {
        c[0] = x.iter().copied().sum::<T>() - 2.0;
        c[1] = x[0] - x[1];
        x.iter().map(|&v| (v - 1.0) * (v - 1.0)).sum()
    }
}

/// A problem that counts the points it is asked to evaluate, by call: values, values
/// in a batch, Jacobians, and values with Jacobians at once (`together`: whether it
/// offers the last).
struct Counted {
    inner: constraint_handling::autodiff::Differentiable<SimplexFormula>,
    together: bool,
    values: std::sync::atomic::AtomicUsize,
    jacobians: std::sync::atomic::AtomicUsize,
    both: std::sync::atomic::AtomicUsize,
}

impl Counted {
    fn new(n: usize, together: bool) -> Self {
        let inner = constraint_handling::autodiff::Differentiable::new(
            vec![-3.0; n],
            vec![3.0; n],
            1,
            1,
            SimplexFormula,
        )
        .unwrap();
        Self {
            inner,
            together,
            values: 0.into(),
            jacobians: 0.into(),
            both: 0.into(),
        }
    }
    fn calls(&self) -> (usize, usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.values.load(Relaxed),
            self.jacobians.load(Relaxed),
            self.both.load(Relaxed),
        )
    }
}

impl ConstrainedProblem for Counted {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        self.inner.lower_bounds()
    }
    fn upper_bounds(&self) -> &[f64] {
        self.inner.upper_bounds()
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.values
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.evaluate(x, c)
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        Some(self)
    }
}

impl ConstraintJacobian for Counted {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        jacobian: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.jacobians
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.evaluate_jacobian(x, values, jacobian)
    }
    fn evaluate_with_jacobian(
        &self,
        x: &[f64],
        constraints: &mut [f64],
        jacobian: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Option<Result<f64, ProblemError>> {
        if !self.together {
            return None;
        }
        self.both.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.evaluate_with_jacobian(x, constraints, jacobian)
    }
}

/// A problem that computes `f`, `C` and `∂C/∂x` in one pass is called exactly as often
/// as the run charges evaluations: the repaired points' Jacobians come with their
/// values, and the next repair step asks for none. The run is the same, bit for bit,
/// as with a problem that answers the Jacobians apart (which is called more often than
/// it is charged).
#[test]
fn values_and_jacobians_in_one_call_match_the_accounting() {
    let mut checked = 0;
    for spec in [
        "eps-mag-es",
        "eps-mag-es-rlm",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1",
    ] {
        for batching in [Batching::Offspring, Batching::Generation] {
            let run = |together: bool| {
                let problem = Counted::new(6, together);
                let plan = ma_es::Options::new(spec.parse::<ComponentSpec>().unwrap())
                    .budget(6_000)
                    .to_the_end()
                    .seed(5)
                    .batching(batching)
                    .build_for(&problem)
                    .unwrap();
                let outcome = plan.run(&problem).unwrap();
                (outcome, problem.calls())
            };
            let (one, (values, jacobians, both)) = run(true);
            let (two, (values2, jacobians2, both2)) = run(false);
            assert_same(&one, &two, &format!("{spec} {batching:?}"));
            assert!(
                both > 0,
                "{spec}: no repaired point took its Jacobian along"
            );
            assert_eq!(both2, 0);
            assert_eq!(
                values + jacobians + both,
                one.evaluations,
                "{spec} {batching:?}: calls (values {values}, Jacobians {jacobians}, both {both}) against the evaluations charged"
            );
            // Answered apart, the Jacobians at repaired points are extra calls.
            assert!(
                values2 + jacobians2 > two.evaluations,
                "{spec} {batching:?}"
            );
            println!(
                "{spec} {batching:?}: {} evaluations charged; calls {} in one pass, {} apart",
                one.evaluations,
                values + jacobians + both,
                values2 + jacobians2
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// A Jacobian told with values that do not take one, or of the wrong shape, is a clear
/// error and changes nothing.
#[test]
fn jacobians_told_where_none_are_wanted_are_errors() {
    let problem = Counted::new(4, true);
    let plan = ma_es::Options::new(ma_es::Variant::EpsMagEs)
        .budget(2_000)
        .seed(1)
        .build_for(&problem)
        .unwrap();
    let mut es = plan.ask_tell().unwrap();
    let request = es.ask().unwrap().unwrap();
    assert!(!request.jacobians, "a population takes no Jacobians");
    let k = request.points.ncols();
    let e = es
        .tell_with_jacobians(
            &vec![0.0; k],
            Array2::zeros((2, k)).view(),
            Array2::zeros((2, 4 * k)).view(),
        )
        .unwrap_err();
    assert!(e.to_string().contains("does not take Jacobians"), "{e}");
    assert!(es.ask().unwrap().is_some(), "the request is still pending");
}

/// The request's helpers evaluate its points (and the Jacobians at them) on threads of
/// their own; the run is the problem's own run, bit for bit, with 1 or 3 threads.
#[test]
fn requests_evaluated_in_parallel_repeat_the_run() {
    let problem = Counted::new(6, false);
    let plan = ma_es::Options::new("eps-mag-es-rlm".parse::<ComponentSpec>().unwrap())
        .budget(4_000)
        .to_the_end()
        .seed(8)
        .build_for(&problem)
        .unwrap();
    let expected = plan.run(&problem).unwrap();
    for threads in [1, 3] {
        let mut es = plan.ask_tell().unwrap();
        let mut jacobian_requests = 0;
        while let Some(request) = es.ask().unwrap() {
            let values = if request.kind == RequestKind::Jacobians {
                jacobian_requests += 1;
                request
                    .jacobians_in_parallel(threads, 2, |x, j| problem.evaluate_jacobian(x, None, j))
                    .unwrap()
            } else {
                request
                    .evaluate_in_parallel(threads, 2, |x, c| problem.evaluate(x, c))
                    .unwrap()
            };
            es.tell(&values.objectives, values.constraints.view())
                .unwrap();
        }
        assert!(jacobian_requests > 0);
        assert_same(&es.result(), &expected, &format!("{threads} threads"));
    }
}
