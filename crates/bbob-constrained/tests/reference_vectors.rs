//! The suite against cocoex 2.8.2: every point of the file named by
//! `BBOB_CONSTRAINED_VECTORS` (default `../shared/fixtures/bbob-constrained/vectors.jsonl`)
//! and of `BBOB_CONSTRAINED_VECTORS_I17_28` (default `…/vectors-i17-28.jsonl`: instances
//! 17 and 28;
//! format in `../shared/fixtures/README.md`) — f and every g to `1e-12 · max(|a|, |b|, 1)`,
//! the number of constraints and the initial solution exactly.
//!
//! ```sh
//! cargo test --release -p bbob-constrained --test reference_vectors
//! ```

use bbob_constrained::BbobProblem;
use constraint_handling::ConstrainedProblem;
use emages_test_support::{jsonl, shared};
use ndarray::{Array1, Array2, ShapeBuilder};
use serde_json::Value;
use std::collections::HashMap;

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

fn reals(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// A point with its one-at-a-time `f` and `g`.
type Evaluated = (Vec<f64>, f64, Vec<f64>);

#[test]
fn reference_vectors() {
    check(&shared(
        "BBOB_CONSTRAINED_VECTORS",
        "fixtures/bbob-constrained/vectors.jsonl",
    ));
}

/// Instances 17 and 28, beyond cocoex's `instance_indices` (1–15): the test instances
/// of the design rounds (16–30) are the suite's too.
#[test]
fn reference_vectors_of_instances_17_and_28() {
    let path = shared(
        "BBOB_CONSTRAINED_VECTORS_I17_28",
        "fixtures/bbob-constrained/vectors-i17-28.jsonl",
    );
    let instances = check(&path);
    assert_eq!(instances, vec![17, 28], "{}", path.display());
}

/// Checks every point of the file; returns the instances it holds.
fn check(path: &std::path::Path) -> Vec<usize> {
    let rows: Vec<Value> = jsonl(path);
    assert!(!rows.is_empty(), "no points in {}", path.display());
    let mut problems: HashMap<(usize, usize, usize), BbobProblem> = HashMap::new();
    let mut failures = Vec::new();
    let (mut points, mut worst) = (0, 0f64);
    // Per problem, the points and their one-at-a-time values, for the batch check.
    let mut evaluated: HashMap<(usize, usize, usize), Vec<Evaluated>> = HashMap::new();
    for row in &rows {
        let u = |k: &str| row[k].as_u64().unwrap_or_else(|| panic!("{k}")) as usize;
        let (function, instance, dim) = (u("function"), u("instance"), u("dim"));
        let id = row["id"].as_str().unwrap_or("?").to_string();
        let p = problems
            .entry((function, instance, dim))
            .or_insert_with(|| BbobProblem::new(function, dim, instance).expect("a problem"));
        assert_eq!(p.id(), id);
        let x = reals(&row["x"]);
        let (f_want, g_want) = (row["f"].as_f64().unwrap(), reals(&row["g"]));
        if p.number_of_constraints() != u("constraints") || g_want.len() != u("constraints") {
            failures.push(format!(
                "{id}: {} constraints, expected {}",
                p.number_of_constraints(),
                u("constraints")
            ));
            continue;
        }
        let x0 = reals(&row["initial_solution"]);
        if p.initial_solution() != x0.as_slice() {
            failures.push(format!(
                "{id}: initial solution {:?}, expected {x0:?}",
                p.initial_solution()
            ));
        }
        let f = p.objective(&x);
        let mut g = vec![0.0; p.number_of_constraints()];
        p.constraints(&x, &mut g);
        let rel = |a: f64, b: f64| (a - b).abs() / a.abs().max(b.abs()).max(1.0);
        worst = worst.max(rel(f, f_want));
        if !close(f, f_want) {
            failures.push(format!("{id} at {x:?}: f = {f:e}, expected {f_want:e}"));
        }
        for (k, (&a, &b)) in g.iter().zip(&g_want).enumerate() {
            worst = worst.max(rel(a, b));
            if !close(a, b) {
                failures.push(format!("{id} at {x:?}: g{} = {a:e}, expected {b:e}", k + 1));
            }
        }
        evaluated
            .entry((function, instance, dim))
            .or_default()
            .push((x.clone(), f, g.clone()));
        points += 1;
    }
    // The batch evaluation (several points side by side) gives the same bits.
    let mut batch_points = 0;
    for (key, list) in &evaluated {
        let p = &problems[key];
        let (n, k) = (p.dim(), p.number_of_constraints());
        let x = Array2::from_shape_fn((n, list.len()).f(), |(i, j)| list[j].0[i]);
        let mut fs = Array1::zeros(list.len());
        let mut gs = Array2::zeros((k, list.len()).f());
        p.evaluate_batch(x.view(), fs.view_mut(), gs.view_mut())
            .unwrap();
        for (j, (x, f, g)) in list.iter().enumerate() {
            let same_g = gs
                .column(j)
                .iter()
                .zip(g)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            if fs[j].to_bits() != f.to_bits() || !same_g {
                failures.push(format!(
                    "{} at {x:?}: the batch differs from one at a time",
                    p.id()
                ));
            }
            batch_points += 1;
        }
    }
    assert_eq!(batch_points, points);
    println!(
        "{}: checked {points} points of {} problems (f, {} g values; largest relative difference {worst:.2e}), and their batch evaluation bit for bit",
        path.display(),
        problems.len(),
        rows.iter().map(|r| r["g"].as_array().map_or(0, Vec::len)).sum::<usize>()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    let mut instances: Vec<usize> = problems.keys().map(|&(_, i, _)| i).collect();
    instances.sort_unstable();
    instances.dedup();
    instances
}
