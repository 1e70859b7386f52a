//! The default stops when done: on a convex quadratic under linear inequalities and a
//! box, once the local phase has converged and its restarts keep arriving at the best
//! point, the run ends by itself within `max(3 h, h + 100 N)` evaluations, `h` the
//! evaluation of its first feasible point within `1e-5` (relative) of `f*`.
//!
//! The problem is built from its solution: `f(x) = Σ dᵢ (xᵢ − cᵢ)²` with `dᵢ` from 1 to
//! 100, `N / 5` inequalities `aⱼᵀx ≤ bⱼ`, half of them active at a chosen `x*` with
//! multipliers `λⱼ > 0`, and `c = x* + Σ λⱼ aⱼ / (2 d)` so that `x*` satisfies the KKT
//! conditions (the problem is convex: they are sufficient); `f* = f(x*)`.
//!
//! A coarser accuracy asked for stops by itself too, on two classic problems.

use constraint_handling::{ConstrainedProblem, FnProblem};
use emages::{Driver, Options, Termination};
use emages_solver::Solver;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ops::ControlFlow;

/// The problem of dimension `n` and its optimal value.
fn convex(n: usize) -> (impl ConstrainedProblem, f64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(n as u64);
    let d: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(2.0 * i as f64 / (n - 1) as f64))
        .collect();
    let solution: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
    let m = (n / 5).max(2);
    let a: Vec<Vec<f64>> = (0..m)
        .map(|_| (0..n).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let dot = |p: &[f64], q: &[f64]| p.iter().zip(q).map(|(p, q)| p * q).sum::<f64>();
    let mut c = solution.clone();
    let mut b = Vec::with_capacity(m);
    for (j, row) in a.iter().enumerate() {
        if j % 2 == 0 {
            // Active, with multiplier λ: ∇f(x*) = 2 d (x* − c) = −λ a.
            let lambda = rng.random_range(0.5..2.0);
            for i in 0..n {
                c[i] += lambda * row[i] / (2.0 * d[i]);
            }
            b.push(dot(row, &solution));
        } else {
            b.push(dot(row, &solution) + rng.random_range(0.5..2.0));
        }
    }
    let objective = |x: &[f64], c: &[f64], d: &[f64]| {
        x.iter()
            .zip(c)
            .zip(d)
            .map(|((x, c), d)| d * (x - c) * (x - c))
            .sum::<f64>()
    };
    let fstar = objective(&solution, &c, &d);
    let problem = FnProblem::new(
        vec![-5.0; n],
        vec![5.0; n],
        m,
        0,
        move |x: &[f64], g: &mut [f64]| {
            for (j, row) in a.iter().enumerate() {
                g[j] = dot(row, x) - b[j];
            }
            Ok(objective(x, &c, &d))
        },
    )
    .unwrap();
    (problem, fstar)
}

/// The default's hit and stop (`None`: it ran to the budget) on the problem of
/// dimension `n` with seed `seed`, and its final gap to `f*` (relative to
/// `max(1, |f*|)`).
fn hit_and_stop(n: usize, seed: u64) -> (usize, Option<usize>, f64) {
    let (problem, fstar) = convex(n);
    let budget = 200 * n;
    let mut run = Options::recommended()
        .budget(budget)
        .seed(seed)
        .build_for(&problem)
        .unwrap()
        .ask_tell()
        .unwrap();
    let mut hit = None;
    let mut observe = |r: &emages::Portfolio| {
        if let Some(b) = Solver::best(r) {
            if hit.is_none()
                && b.violation() == 0.0
                && b.objective() <= fstar + 1e-5 * fstar.abs().max(1.0)
            {
                hit = Some(r.evaluations());
            }
        }
        ControlFlow::Continue(())
    };
    let outcome = Driver::new(&mut run)
        .budget(budget)
        .observe(&mut observe)
        .run(&problem)
        .unwrap();
    let stop = (outcome.termination == Termination::Confirmed).then_some(outcome.evaluations);
    assert_eq!(
        outcome.best.violation(),
        0.0,
        "n {n} seed {seed}: infeasible best point"
    );
    let gap = (outcome.best.objective() - fstar) / fstar.abs().max(1.0);
    (hit.expect("the default reaches f*"), stop, gap)
}

#[test]
fn the_default_stops_when_done_at_n_10_and_30() {
    let mut checked = 0;
    for n in [10, 30] {
        for seed in 1..=2 {
            let (hit, stop, gap) = hit_and_stop(n, seed);
            let bound = (3 * hit).max(hit + 100 * n);
            println!("n {n} seed {seed}: hit {hit}, stop {stop:?} (bound {bound}), gap {gap:.2e}");
            let stop =
                stop.unwrap_or_else(|| panic!("n {n} seed {seed}: ran to the budget {}", 200 * n));
            assert!(
                stop <= bound,
                "n {n} seed {seed}: stop {stop} > max(3 h, h + 100 N) = {bound}"
            );
            // Feasible, so not below f* beyond rounding; and not above the hit's accuracy.
            assert!(
                (-1e-12..=1e-5).contains(&gap),
                "n {n} seed {seed}: gap {gap:e}"
            );
            checked += 1;
        }
    }
    println!("checked {checked} runs");
}

/// A coarser accuracy asked for ([`Options::tolerance`], scipy's `tol`) still ends the
/// run by itself, and soon: on Rosen–Suzuki and the pressure vessel from seeds 1–3, a
/// run with `tol` from `10⁻⁴` to `10⁻⁸` stops by itself (its local runs confirm the best
/// point within `tol`) within three times the evaluations of the default's slowest run,
/// feasible and within `tol · max(1, |f*|)` of `f*`.
#[test]
fn a_coarser_tolerance_still_stops_by_itself() {
    let mut checked = 0;
    for classic in [
        local_phase::classic::rosen_suzuki(),
        local_phase::classic::pressure_vessel(),
    ] {
        let run = |options: Options| {
            let outcome = options.budget(80_000).run(&classic.problem).unwrap();
            let gap = (outcome.best.objective() - classic.f_star) / classic.f_star.abs().max(1.0);
            let violation = outcome.best.violation();
            (outcome.termination, outcome.evaluations, violation, gap)
        };
        let name = classic.name;
        let default_stops: Vec<usize> = (1..=3)
            .map(|seed| {
                let (termination, evaluations, ..) = run(Options::recommended().seed(seed));
                assert_eq!(termination, Termination::Confirmed, "{name}, seed {seed}");
                evaluations
            })
            .collect();
        let bound = 3 * default_stops.iter().max().unwrap();
        for tol in [1e-4, 1e-5, 1e-6, 1e-8] {
            for seed in 1..=3 {
                let (termination, evaluations, violation, gap) =
                    run(Options::recommended().seed(seed).tolerance(tol));
                println!("{name} tol {tol:e} seed {seed}: {termination:?} after {evaluations}, gap {gap:.1e}");
                let case = format!("{name} tol {tol:e} seed {seed}");
                assert_eq!(termination, Termination::Confirmed, "{case}");
                assert!(evaluations <= bound, "{case}: {evaluations} > {bound}");
                assert_eq!(violation, 0.0, "{case}");
                assert!((-1e-12..=tol).contains(&gap), "{case}: gap {gap:e}");
                checked += 1;
            }
        }
        println!("{name}: the default stops after {default_stops:?}");
    }
    println!("checked {checked} runs");
    assert_eq!(checked, 24);
}
