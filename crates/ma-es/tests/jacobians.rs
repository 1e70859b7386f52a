//! The Jacobians the strategy's repair asks for by ask and tell: charged with the
//! values they come with, exact or forward differences alike, the LM repair of the best
//! so far, values and Jacobians in one call, and requests evaluated in parallel.

#[path = "support/asking.rs"]
mod asking;
#[path = "support/runs.rs"]
mod runs;
use asking::{answer, ask_tell, assert_same, control, simplex, start};
use constraint_handling::problem::ProblemShape;
use constraint_handling::problem::{ConstraintJacobian, JacobianSource};
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use ma_es::noise::RngNoise;
use ma_es::strategy::{Batching, RequestKind};
use ma_es::{ComponentSpec, Config};
use ndarray::Array2;
use runs::drive;

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
