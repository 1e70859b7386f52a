//! The suite against cocoex 2.8.2: every point of the file named by
//! `BBOB_CONSTRAINED_VECTORS` (default `../shared/fixtures/bbob-constrained/vectors.jsonl`;
//! format in `../shared/fixtures/README.md`) — f and every g to `1e-12 · max(|a|, |b|, 1)`,
//! the number of constraints and the initial solution exactly.
//!
//! ```sh
//! cargo test --release -p bbob-constrained --test reference_vectors
//! ```

use bbob_constrained::BbobProblem;
use emages_test_support::{jsonl, shared};
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

#[test]
fn reference_vectors() {
    let path = shared(
        "BBOB_CONSTRAINED_VECTORS",
        "fixtures/bbob-constrained/vectors.jsonl",
    );
    let rows: Vec<Value> = jsonl(&path);
    assert!(!rows.is_empty(), "no points in {}", path.display());
    let mut problems: HashMap<(usize, usize, usize), BbobProblem> = HashMap::new();
    let mut failures = Vec::new();
    let (mut points, mut worst) = (0, 0f64);
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
        points += 1;
    }
    println!(
        "checked {points} points of {} problems (f, {} g values; largest relative difference {worst:.2e})",
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
}
