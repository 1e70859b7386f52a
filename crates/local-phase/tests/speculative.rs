//! Speculative probes: the start and every full step asked with the `N` difference
//! probes around them in one request. The run visits the same iterates and ends at the
//! same point as without; it asks for fewer requests and spends `N` more evaluations
//! for every full step the line search rejects, until `SPECULATION_MISSES` were.

use emages_solver::Driver;
use emages_solver::Solver;
use local_phase::classic;
use local_phase::sqp::{Sqp, SqpSettings, SPECULATION_MISSES};
use std::ops::ControlFlow;

/// The iterates (after each step) and the request sizes of a run.
fn run(c: &classic::Classic, speculative: bool) -> (Sqp, Vec<Vec<f64>>, Vec<usize>) {
    let settings = SqpSettings {
        speculative_probes: speculative,
        ..SqpSettings::default()
    };
    let mut sqp = c.sqp_from(&c.start, settings).unwrap();
    let mut iterates = Vec::new();
    let mut sizes = Vec::new();
    let mut last = 0;
    let mut observe = |s: &Sqp| {
        if s.steps() != last {
            last = s.steps();
            iterates.push(s.iterate().to_vec());
        }
        sizes.push(s.evaluations());
        ControlFlow::Continue(())
    };
    Driver::new(&mut sqp)
        .budget(2000)
        .observe(&mut observe)
        .run(&c.problem)
        .unwrap();
    let sizes: Vec<usize> = sizes.windows(2).map(|w| w[1] - w[0]).collect();
    (sqp, iterates, sizes)
}

#[test]
fn speculative_probes_visit_the_same_iterates_in_fewer_requests() {
    let mut checked = 0;
    for c in classic::all() {
        let n = c.start.len();
        let (plain, plain_iterates, plain_sizes) = run(&c, false);
        let (fast, fast_iterates, fast_sizes) = run(&c, true);
        println!(
            "{}: {} evaluations in {} requests, speculative {} in {} ({} of N + 1 points)",
            c.name,
            plain.evaluations(),
            plain_sizes.len() + 1,
            fast.evaluations(),
            fast_sizes.len() + 1,
            fast_sizes.iter().filter(|&&k| k == n + 1).count()
        );
        assert_eq!(fast_iterates, plain_iterates, "{}", c.name);
        assert_eq!(
            fast.best().unwrap().x,
            plain.best().unwrap().x,
            "{}",
            c.name
        );
        assert_eq!(fast.stopped(), plain.stopped(), "{}", c.name);
        // Each rejected full step wastes its N probes, at most SPECULATION_MISSES of
        // them; nothing else differs.
        let wasted = fast.evaluations() - plain.evaluations();
        assert_eq!(wasted % n, 0, "{}", c.name);
        assert!(wasted <= SPECULATION_MISSES as usize * n, "{}", c.name);
        assert!(fast_sizes.len() < plain_sizes.len(), "{}", c.name);
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// The 20-D ill-conditioned ellipsoid (axes' curvatures 1 … 10⁶ under `Σ x = 1`),
/// whose run crawls with its steps cut back for a hundred iterations: the run stops
/// speculating after `SPECULATION_MISSES` rejected full steps, so the probes it wastes
/// stay within that many times `N` (without the allowance it wastes 3 · N here).
#[test]
fn a_crawling_run_wastes_at_most_the_allowance() {
    const N: usize = 20;
    let e = classic::ill_conditioned_ellipsoid(N);
    let solve = |speculative: bool| {
        let settings = SqpSettings {
            speculative_probes: speculative,
            ..SqpSettings::default()
        };
        let mut sqp = e.sqp_from(&e.start, settings).unwrap();
        let mut requests = 0usize;
        let mut count = |_: &Sqp| {
            requests += 1;
            ControlFlow::Continue(())
        };
        Driver::new(&mut sqp)
            .budget(20_000)
            .observe(&mut count)
            .run(&e.problem)
            .unwrap();
        (sqp, requests)
    };
    let (plain, plain_requests) = solve(false);
    let (fast, fast_requests) = solve(true);
    println!(
        "ellipsoid: {} evaluations in {plain_requests} requests, speculative {} in {fast_requests}, {} iterations",
        plain.evaluations(),
        fast.evaluations(),
        plain.steps()
    );
    assert!(plain.steps() >= 100, "the run should crawl");
    assert_eq!(fast.best().unwrap().x, plain.best().unwrap().x);
    let wasted = fast.evaluations() - plain.evaluations();
    assert!(wasted <= SPECULATION_MISSES as usize * N, "{wasted} wasted");
    // It did speculate: fewer requests.
    assert!(fast_requests < plain_requests);
}
