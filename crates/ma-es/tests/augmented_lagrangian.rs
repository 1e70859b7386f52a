//! The augmented-Lagrangian ranking against pycma's `AugmentedLagrangian`: the
//! populations, rankings and coefficients of `tests/data/pycma-augmented-lagrangian.json`
//! (written by scripts/reference/pycma_al.py with pycma 4.5) replayed step by step.

use ma_es::ranking::{AugmentedLagrangianRanking, ConstraintValues, PopulationRanking};
use ndarray::Array2;
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    source: String,
    dim: usize,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
struct Step {
    f: Vec<f64>,
    g: Vec<Vec<f64>>,
    ranking: Vec<usize>,
    gamma: Vec<f64>,
    omega: Vec<f64>,
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn the_ranking_and_its_coefficients_follow_pycma() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/pycma-augmented-lagrangian.json"),
    )
    .unwrap();
    let reference: Reference = serde_json::from_str(&text).unwrap();
    let mut al = AugmentedLagrangianRanking::new(reference.dim);
    let mut checked = 0;
    let mut increases = (0, 0);
    let mut last_omega: Vec<f64> = Vec::new();
    for (k, step) in reference.steps.iter().enumerate() {
        let lambda = step.f.len();
        let kc = step.g[0].len();
        // One column per offspring.
        let values = Array2::from_shape_fn((kc, lambda), |(i, j)| step.g[j][i]);
        let constraints = ConstraintValues {
            values: values.view(),
            inequalities: kc,
            equality_margin: 1e-4,
        };
        let mut perm = vec![0; lambda];
        al.rank_constrained(0.0, &step.f, &vec![0.0; lambda], &constraints, &mut perm)
            .unwrap();
        assert_eq!(perm, step.ranking, "step {k}: the ranking");
        let (gamma, omega) = al.coefficients();
        for i in 0..kc {
            assert!(
                close(gamma[i], step.gamma[i]) && close(omega[i], step.omega[i]),
                "step {k}, constraint {i}: γ {} ω {} against pycma's {} {}",
                gamma[i],
                omega[i],
                step.gamma[i],
                step.omega[i]
            );
            if let Some(&w) = last_omega.get(i) {
                if omega[i] > w {
                    increases.0 += 1;
                } else if omega[i] < w {
                    increases.1 += 1;
                }
            }
        }
        last_omega = omega.to_vec();
        checked += 1;
    }
    assert!(checked >= 50, "{checked} steps");
    // The replay exercises both directions of the ω update.
    assert!(increases.0 > 0 && increases.1 > 0, "{increases:?}");
    println!(
        "{checked} generations equal to {} (ω up {} times, down {} times)",
        reference.source, increases.0, increases.1
    );
}

/// Equalities enter as two inequalities `h − δ ≤ 0`, `−h − δ ≤ 0`; an offspring far
/// outside is ranked behind a feasible one once the coefficients are set, and the
/// ranking allocates nothing after its first generation.
#[test]
fn equalities_count_twice_and_violators_fall_behind() {
    let mut al = AugmentedLagrangianRanking::new(2);
    // One inequality and one equality; four offspring.
    let values = ndarray::array![[-1.0, 0.5, 2.0, -0.5], [0.0, 0.3, -3.0, 1e-5]];
    let cv = ConstraintValues {
        values: values.view(),
        inequalities: 1,
        equality_margin: 1e-4,
    };
    let f = [1.0, 0.5, 0.0, 0.9];
    let mut perm = [0; 4];
    al.rank_constrained(0.0, &f, &[0.0; 4], &cv, &mut perm)
        .unwrap();
    assert_eq!(perm, [2, 1, 3, 0], "by f before the coefficients exist");
    let (gamma, omega) = al.coefficients();
    assert_eq!((gamma.len(), omega.len()), (3, 3));
    assert!(omega.iter().all(|&w| w > 0.0), "{omega:?}");
    al.rank_constrained(0.0, &f, &[0.0; 4], &cv, &mut perm)
        .unwrap();
    // Offspring 2 (g = 2, h = −3) is now behind both feasible ones (0 and 3).
    let place = |j: usize| perm.iter().position(|&p| p == j).unwrap();
    assert!(place(2) > place(0) && place(2) > place(3), "{perm:?}");
    // Lengths are checked.
    assert!(al
        .rank_constrained(0.0, &f[..3], &[0.0; 3], &cv, &mut [0; 3])
        .is_err());
}

/// The best-so-far candidate is the best offspring by `(ν̄, f)`, not the first place by
/// the penalised fitness (before the coefficients exist the first place is the lowest
/// `f`, here an infeasible offspring).
#[test]
fn the_best_so_far_candidate_is_the_best_by_violation_then_f() {
    let mut al = AugmentedLagrangianRanking::new(2);
    let values = ndarray::array![[1.0, -0.5, -0.1, 2.0]];
    let cv = ConstraintValues {
        values: values.view(),
        inequalities: 1,
        equality_margin: 1e-4,
    };
    let (f, nu) = ([0.0, 2.0, 1.5, -1.0], [1.0, 0.0, 0.0, 2.0]);
    let mut perm = [0; 4];
    al.rank_constrained(0.0, &f, &nu, &cv, &mut perm).unwrap();
    assert_eq!(perm[0], 3, "the lowest f ranks first");
    assert_eq!(
        al.best_so_far_candidate(&f, &nu, &perm),
        2,
        "feasible, lower f"
    );
    // The reference's rankings keep the first place.
    let mut eps = ma_es::ranking::EpsilonLevelRanking::default();
    eps.rank(10.0, &f, &nu, &mut perm).unwrap();
    assert_eq!(eps.best_so_far_candidate(&f, &nu, &perm), perm[0]);
}
