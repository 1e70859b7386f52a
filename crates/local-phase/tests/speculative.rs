//! Speculative probes: the start and every full step asked with the `N` difference
//! probes around them in one request. The run visits the same iterates and ends at the
//! same point as without; it asks for fewer requests and spends `N` more evaluations
//! for every full step the line search rejects.

use constraint_handling::problem::ProblemShape;
use emages_solver::Driver;
use local_phase::classic;
use local_phase::sqp::{Sqp, SqpSettings};
use std::ops::ControlFlow;

/// The iterates (after each step) and the request sizes of a run.
fn run(c: &classic::Classic, speculative: bool) -> (Sqp, Vec<Vec<f64>>, Vec<usize>) {
    let mut shape = ProblemShape::of(&c.problem).unwrap();
    shape.equality_margin = 1e-8;
    let settings = SqpSettings {
        speculative_probes: speculative,
        ..SqpSettings::default()
    };
    let mut sqp = Sqp::new(shape, &c.start, settings).unwrap();
    let mut iterates = Vec::new();
    let mut sizes = Vec::new();
    let mut last = 0;
    let mut observe = |s: &Sqp| {
        if s.iterations() != last {
            last = s.iterations();
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
        // Each rejected full step wastes its N probes; nothing else differs.
        assert!(fast.evaluations() >= plain.evaluations());
        assert_eq!(
            (fast.evaluations() - plain.evaluations()) % n,
            0,
            "{}",
            c.name
        );
        assert!(
            2 * fast_sizes.len() <= 3 * plain_sizes.len() / 2,
            "{}",
            c.name
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}
