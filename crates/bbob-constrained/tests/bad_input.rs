//! Problems that do not exist are errors with a clear message, never a panic; the
//! evaluations of f and g are counted apart.

use bbob_constrained::{BbobError, BbobProblem};
use constraint_handling::ConstrainedProblem;

#[test]
fn what_does_not_exist_is_an_error() {
    assert_eq!(
        BbobProblem::new(0, 2, 1).unwrap_err(),
        BbobError::UnknownFunction(0)
    );
    assert_eq!(
        BbobProblem::new(55, 2, 1).unwrap_err(),
        BbobError::UnknownFunction(55)
    );
    assert_eq!(
        BbobProblem::new(1, 1, 1).unwrap_err(),
        BbobError::UnsupportedDimension(1)
    );
    assert_eq!(
        BbobProblem::new(1, 41, 1).unwrap_err(),
        BbobError::UnsupportedDimension(41)
    );
    assert_eq!(
        BbobProblem::new(1, 2, 0).unwrap_err(),
        BbobError::UnknownInstance(0)
    );
    assert!(BbobProblem::new(55, 2, 1)
        .unwrap_err()
        .to_string()
        .contains("functions 1 to 54"));
}

#[test]
fn a_bad_buffer_is_an_error_through_the_trait_and_nan_stays_nan() {
    let p = BbobProblem::new(49, 5, 2).unwrap();
    let mut g = vec![0.0; p.number_of_constraints()];
    assert!(p.evaluate(&[0.0; 4], &mut g).is_err());
    assert!(p.evaluate(&[0.0; 5], &mut g[1..]).is_err());
    let f = p.evaluate(&[f64::NAN, 0.0, 0.0, 0.0, 0.0], &mut g).unwrap();
    assert!(f.is_nan() && g.iter().all(|v| v.is_nan()));
    let f = p
        .evaluate(&[f64::INFINITY, 0.0, 0.0, 0.0, 0.0], &mut g)
        .unwrap();
    assert!(f.is_infinite() && g.iter().all(|v| v.is_infinite()));
}

#[test]
fn f_and_g_are_counted_apart() {
    let p = BbobProblem::new(12, 10, 1).unwrap();
    let x = p.initial_solution().to_vec();
    let mut g = vec![0.0; p.number_of_constraints()];
    let _ = p.objective(&x);
    let _ = p.objective(&x);
    p.constraints(&x, &mut g);
    assert_eq!(p.evaluations(), (2, 1));
    p.evaluate(&x, &mut g).unwrap();
    assert_eq!(p.evaluations(), (3, 2));
}

/// The construction's promises on every problem of COCO's dimensions: the initial
/// solution is feasible and inside the box, the optimum is feasible, and no feasible
/// point of a sample beats the optimum.
#[test]
fn the_optimum_is_feasible_and_best() {
    let mut checked = 0;
    for function in 1..=54 {
        for dim in [2, 3, 5, 10, 20, 40] {
            for instance in [1, 7] {
                let p = BbobProblem::new(function, dim, instance).unwrap();
                let mut g = vec![0.0; p.number_of_constraints()];
                let x0 = p.initial_solution().to_vec();
                assert!(x0.iter().all(|v| (-5.0..=5.0).contains(v)), "{}", p.id());
                p.constraints(&x0, &mut g);
                assert!(g.iter().all(|&v| v <= 0.0), "{}: x0 infeasible", p.id());
                let xopt = p.best_parameter().to_vec();
                p.constraints(&xopt, &mut g);
                assert!(
                    g.iter().all(|&v| v <= 1e-9),
                    "{}: optimum infeasible {g:?}",
                    p.id()
                );
                // Points between x0 and the optimum are feasible (convex set) and no
                // better than the optimum.
                for t in [0.25, 0.5, 0.9] {
                    let x: Vec<f64> = x0.iter().zip(&xopt).map(|(a, b)| a + t * (b - a)).collect();
                    p.constraints(&x, &mut g);
                    if g.iter().all(|&v| v <= 0.0) {
                        assert!(p.objective(&x) >= p.best_value() - 1e-9, "{}", p.id());
                    }
                }
                checked += 1;
            }
        }
    }
    println!("checked {checked} problems");
}

/// The gradient repair's probes are constraint evaluations only: the same g as a full
/// evaluation, no f evaluation counted (COCO charges them so).
#[test]
fn constraints_alone_count_as_g_evaluations_only() {
    use ndarray::{Array1, Array2, ShapeBuilder};
    let p = BbobProblem::new(54, 40, 3).unwrap();
    let k = p.number_of_constraints();
    assert_eq!(k, (6 + 3 * 40) * 3 / 2, "active and inactive ones");
    let x = Array2::from_shape_fn((40, 3).f(), |(i, j)| ((i * 3 + j) as f64).sin() * 4.0);
    let (mut f, mut g) = (Array1::zeros(3), Array2::zeros((k, 3).f()));
    p.evaluate_constraints_batch(x.view(), f.view_mut(), g.view_mut())
        .unwrap();
    assert_eq!(p.evaluations(), (0, 3));
    let mut full = vec![0.0; k];
    for j in 0..3 {
        let xj: Vec<f64> = x.column(j).to_vec();
        p.evaluate(&xj, &mut full).unwrap();
        assert_eq!(g.column(j).to_vec(), full, "column {j}");
    }
    assert_eq!(p.evaluations(), (3, 6));
    let mut short = Array2::zeros((k - 1, 3).f());
    assert!(p
        .evaluate_constraints_batch(x.view(), f.view_mut(), short.view_mut())
        .is_err());
}

/// Points with a NaN or an infinite coordinate, amid ordinary ones, get in a batch the
/// values they get one at a time (COCO's: NaN, or |x_i| everywhere).
#[test]
fn the_batch_treats_nan_and_infinity_as_one_at_a_time() {
    use ndarray::{Array1, Array2, ShapeBuilder};
    let p = BbobProblem::new(52, 10, 4).unwrap();
    let k = p.number_of_constraints();
    let cols = 19;
    let mut x = Array2::from_shape_fn((10, cols).f(), |(i, j)| ((i * cols + j) as f64).cos() * 4.5);
    x[[3, 2]] = f64::NAN;
    x[[0, 9]] = f64::INFINITY;
    x[[7, 17]] = f64::NEG_INFINITY;
    let (mut f, mut g) = (Array1::zeros(cols), Array2::zeros((k, cols).f()));
    p.evaluate_batch(x.view(), f.view_mut(), g.view_mut())
        .unwrap();
    assert_eq!(p.evaluations(), (cols as u64, cols as u64));
    let mut one = vec![0.0; k];
    for j in 0..cols {
        let xj = x.column(j).to_vec();
        let fj = p.evaluate(&xj, &mut one).unwrap();
        assert_eq!(f[j].to_bits(), fj.to_bits(), "f of column {j}");
        for (a, b) in g.column(j).iter().zip(&one) {
            assert_eq!(a.to_bits(), b.to_bits(), "g of column {j}");
        }
    }
    assert!(f[2].is_nan() && g.column(2).iter().all(|v| v.is_nan()));
    assert!(g.column(17).iter().all(|&v| v == f64::INFINITY));
}
