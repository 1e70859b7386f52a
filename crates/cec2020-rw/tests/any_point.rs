//! Every problem answers every finite point, in or out of its box, without a panic: a
//! value (possibly non-finite, as the formulas give it) or a
//! [`ProblemError::Evaluation`] naming the problem; and bad buffers are refused.

use cec2020_rw::{catalog, Cec2020Error, Cec2020Problem};
use constraint_handling::{ConstrainedProblem, ProblemError};
use proptest::prelude::*;

fn point(p: &Cec2020Problem, u: &[f64], spread: f64) -> Vec<f64> {
    p.lower_bounds()
        .iter()
        .zip(p.upper_bounds())
        .zip(u)
        .map(|((l, h), t)| l + (h - l) * (0.5 + spread * (t - 0.5)))
        .collect()
}

fn answers(p: &Cec2020Problem, x: &[f64]) {
    let mut c = vec![0.0; p.num_constraints()];
    match p.evaluate(x, &mut c) {
        Ok(_) => {}
        Err(ProblemError::Evaluation(msg)) => {
            assert!(msg.contains(&p.info().label()), "{msg}");
            assert!(
                matches!(p.info().id, 22 | 26 | 30),
                "RC{:02} refused {x:?}: {msg}",
                p.info().id
            );
        }
        Err(e) => panic!("RC{:02}: unexpected error {e}", p.info().id),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_point_in_or_near_the_box(u in prop::collection::vec(0.0f64..1.0, 158), spread in prop_oneof![Just(1.0), Just(1.4), Just(3.0)]) {
        for info in catalog::all() {
            let p = Cec2020Problem::new(info.id).unwrap();
            answers(&p, &point(&p, &u[..info.dim], spread));
        }
    }

    #[test]
    fn far_away_and_extreme_points(scale in prop_oneof![Just(1e6), Just(1e150), Just(1e300), Just(-1e300)], u in prop::collection::vec(-1.0f64..1.0, 158)) {
        for info in catalog::all() {
            let p = Cec2020Problem::new(info.id).unwrap();
            let x: Vec<f64> = u[..info.dim].iter().map(|v| v * scale).collect();
            answers(&p, &x);
        }
    }
}

/// The centre of the problem's box.
fn centre(p: &Cec2020Problem) -> Vec<f64> {
    p.lower_bounds()
        .iter()
        .zip(p.upper_bounds())
        .map(|(l, u)| 0.5 * (l + u))
        .collect()
}

#[test]
fn table_indices_outside_the_box_are_clear_errors() {
    let p = Cec2020Problem::new(26).unwrap();
    let mut x = centre(&p);
    x[8] = 7.0; // a face width index beyond the table of 4
    let mut c = vec![0.0; p.num_constraints()];
    let err = p.evaluate(&x, &mut c).unwrap_err().to_string();
    assert!(
        err.contains("RC26") && err.contains("outside the box"),
        "{err}"
    );
}

#[test]
fn bad_input_is_refused() {
    assert_eq!(
        Cec2020Problem::new(0).unwrap_err(),
        Cec2020Error::UnknownProblem(0)
    );
    assert_eq!(
        Cec2020Problem::new(58).unwrap_err(),
        Cec2020Error::UnknownProblem(58)
    );
    let p = Cec2020Problem::new(1).unwrap();
    let mut c = vec![0.0; 8];
    assert!(matches!(
        p.evaluate(&[0.0; 3], &mut c),
        Err(ProblemError::DimensionMismatch {
            expected: 9,
            found: 3
        })
    ));
    let mut short = vec![0.0; 3];
    assert!(matches!(
        p.evaluate(&[1.0; 9], &mut short),
        Err(ProblemError::ConstraintCountMismatch { .. })
    ));
}

#[test]
fn the_catalog_is_consistent() {
    assert_eq!(catalog::all().len(), 57);
    for (i, info) in catalog::all().iter().enumerate() {
        assert_eq!(info.id, i + 1);
        let (lb, ub) = catalog::bounds(info.id).unwrap();
        assert_eq!(
            (lb.len(), ub.len()),
            (info.dim, info.dim),
            "RC{:02}",
            info.id
        );
        assert!(
            lb.iter().zip(&ub).all(|(l, h)| l < h),
            "RC{:02}: empty box",
            info.id
        );
        assert_eq!(info.max_fes(), catalog::max_fes(info.dim));
    }
    // the guidelines' budgets
    assert_eq!(
        (
            catalog::max_fes(10),
            catalog::max_fes(11),
            catalog::max_fes(158)
        ),
        (100_000, 200_000, 1_000_000)
    );
}

/// The README's example: the classic discrete pressure-vessel design.
#[test]
fn readme_example_pressure_vessel() {
    let p = Cec2020Problem::new(18).unwrap();
    let x = [13.0, 7.0, 42.0984456, 176.6365958];
    let mut c = vec![0.0; p.num_constraints()];
    let f = p.evaluate(&x, &mut c).unwrap();
    assert!((f - 6059.7143).abs() < 1e-3, "{f}");
    assert!(p.mean_violation(&c) < 1e-9);
    assert_eq!(p.info().max_fes(), 100_000);
    assert_eq!(catalog::all().len(), 57);
}

/// One rule for values the organisers' code returns complex (only outside the box):
/// `+∞`, objective or constraint.
#[test]
fn complex_values_outside_the_box_are_infinite() {
    let p = Cec2020Problem::new(2).unwrap();
    let mut x = centre(&p);
    let mut c = vec![0.0; p.num_constraints()];
    assert!(p.evaluate(&x, &mut c).unwrap().is_finite());
    x[0] = -1.0; // (x₁ / (120 x₄))^0.6 of a negative ratio
    assert_eq!(p.evaluate(&x, &mut c).unwrap(), f64::INFINITY);

    let p = Cec2020Problem::new(29).unwrap();
    let mut x = centre(&p);
    let mut c = vec![0.0; 1];
    assert!(p.evaluate(&x, &mut c).unwrap().is_finite());
    x[2] = -3.0; // x₃^(−2/3)
    assert_eq!(p.evaluate(&x, &mut c).unwrap(), f64::INFINITY);
    assert!(c[0].is_finite(), "the real constraint keeps its value");
}
