//! The first curvature scale: on an ellipsoid whose axes' curvatures span six decades,
//! under `Σ x = 1`, the first step from `B = I` is cut back along the stiffest axis and
//! the full scale `B₀ = yᵀy / sᵀy · I` takes that axis's curvature, leaving the soft
//! axes' steps far too short; `SqpSettings::capped_first_scale` scales by at most 1 after
//! a first step cut back below `α = 0.1`, and
//! reaches the optimum in fewer evaluations (`classic::ill_conditioned_ellipsoid`, whose
//! optimum is known).

use emages_solver::Solver;
use emages_solver::{Driver, Termination};
use local_phase::classic;
use local_phase::sqp::SqpSettings;

const N: usize = 20;

/// The default settings with `capped_first_scale` as given.
fn capped_scale(capped: bool) -> SqpSettings {
    SqpSettings {
        capped_first_scale: capped,
        ..SqpSettings::default()
    }
}

/// The run's evaluations and its best point's gap to `f*` (relative) and `|h|`.
fn solve(capped: bool) -> (usize, f64, f64) {
    let e = classic::ill_conditioned_ellipsoid(N);
    let mut sqp = e.sqp_from(&e.start, capped_scale(capped)).unwrap();
    Driver::new(&mut sqp)
        .budget(20_000)
        .run(&e.problem)
        .unwrap();
    // Both end by themselves at the optimum; the capped run's last line searches find
    // nothing within rounding there, which it reports as a stall.
    assert!(
        matches!(
            sqp.stopped(),
            Some(Termination::Converged | Termination::Stalled)
        ),
        "capped {capped}: {:?}",
        sqp.stopped()
    );
    let best = sqp.best().unwrap();
    let h = (best.x.iter().sum::<f64>() - 1.0).abs();
    (
        sqp.evaluations(),
        (best.objective() - e.f_star) / e.f_star,
        h,
    )
}

#[test]
fn a_capped_first_scale_converges_sooner_on_an_ill_conditioned_ellipsoid() {
    let (full, full_gap, full_h) = solve(false);
    let (capped, capped_gap, capped_h) = solve(true);
    println!("full scale: {full} evaluations, gap {full_gap:.1e}, |h| {full_h:.1e}");
    println!("capped: {capped} evaluations, gap {capped_gap:.1e}, |h| {capped_h:.1e}");
    for (gap, h) in [(full_gap, full_h), (capped_gap, capped_h)] {
        assert!(gap.abs() <= 1e-6, "gap {gap:e}");
        assert!(h <= 1e-8, "|h| {h:e}");
    }
    assert!(2 * capped < full, "{capped} against {full}");
}

/// Where the first step is taken whole, or cut back once (to `α ≥ 0.1`), the scale is
/// not capped: the classic problems run as with the full scale (on Rosen–Suzuki the
/// first step is cut back once; capping there cost 97 evaluations against 56).
#[test]
fn a_first_step_taken_whole_keeps_the_full_scale() {
    let mut same = 0;
    for c in classic::all() {
        let solve = |capped: bool| {
            let mut sqp = c.sqp_from(&c.start, capped_scale(capped)).unwrap();
            Driver::new(&mut sqp).budget(2_000).run(&c.problem).unwrap();
            (sqp.evaluations(), sqp.best().unwrap().x.clone())
        };
        let (full, capped) = (solve(false), solve(true));
        println!("{}: {} / {} evaluations", c.name, full.0, capped.0);
        if full == capped {
            same += 1;
        }
    }
    assert_eq!(same, 4);
}
