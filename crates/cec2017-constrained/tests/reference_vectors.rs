//! Every case of the reference vectors (`CEC2017_VECTORS`, default
//! `../shared/fixtures/vectors/cec2017_reference.jsonl`) evaluated with the instance data
//! of `CEC2017_DATA_DIR` (default `../shared/cec2017/text`): f, g and h must agree with
//! `|a − b| ≤ 1e-9 · max(1, |a|)`, by single-point and by batch evaluation.

use cec2017_constrained::{Cec2017Problem, InstanceSource, Suite};
use constraint_handling::ConstrainedProblem;
use emages_test_support::{cec2017_data, jsonl, shared};
use ndarray::{Array1, Array2, ShapeBuilder};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    problem: usize,
    dim: usize,
    x: Vec<f64>,
    f: f64,
    g: Vec<f64>,
    h: Vec<f64>,
}

fn close(expected: f64, actual: f64) -> bool {
    (expected - actual).abs() <= 1e-9 * expected.abs().max(1.0)
}

fn load_cases() -> Vec<Case> {
    jsonl(&shared(
        "CEC2017_VECTORS",
        "fixtures/vectors/cec2017_reference.jsonl",
    ))
}

/// Compares one evaluation with the case; returns a description of each mismatch.
fn mismatches(case: &Case, problem: &Cec2017Problem, f: f64, c: &[f64]) -> Vec<String> {
    let l = problem.num_inequalities();
    let m = problem.num_equalities();
    let mut out = Vec::new();
    let tag = format!("C{:02} D{} x[0]={}", case.problem, case.dim, case.x[0]);
    if !close(case.f, f) {
        out.push(format!("{tag}: f expected {} got {f}", case.f));
    }
    // A problem without inequalities (equalities) reports the placeholder [0].
    let expect = |name: &str, exp: &[f64], got: &[f64], count: usize, out: &mut Vec<String>| {
        if count == 0 {
            if exp != [0.0] {
                out.push(format!(
                    "{tag}: {name} placeholder expected [0], fixture has {exp:?}"
                ));
            }
            return;
        }
        if exp.len() != count {
            out.push(format!(
                "{tag}: {name} has {} values, problem has {count}",
                exp.len()
            ));
            return;
        }
        for (i, (e, a)) in exp.iter().zip(got).enumerate() {
            if !close(*e, *a) {
                out.push(format!("{tag}: {name}[{i}] expected {e} got {a}"));
            }
        }
    };
    expect("g", &case.g, &c[..l], l, &mut out);
    expect("h", &case.h, &c[l..l + m], m, &mut out);
    out
}

fn check_all(suite: &Suite, label: &str) -> usize {
    let cases = load_cases();
    assert!(!cases.is_empty(), "no reference vectors found");
    let mut failures = Vec::new();
    for case in &cases {
        let problem = suite
            .problem(case.problem, case.dim)
            .unwrap_or_else(|e| panic!("C{:02} D{}: {e}", case.problem, case.dim));
        let mut c = vec![0.0; problem.num_constraints()];
        let f = problem.evaluate(&case.x, &mut c).expect("evaluation");
        failures.extend(mismatches(case, &problem, f, &c));

        // The batch path: the point as the middle column of a three-column population.
        let n = case.dim;
        let mut points = Array2::zeros((n, 3).f());
        for j in 0..3 {
            points.column_mut(j).assign(&Array1::from(case.x.clone()));
        }
        let mut fb = Array1::zeros(3);
        let mut cb = Array2::zeros((problem.num_constraints(), 3).f());
        problem
            .evaluate_batch(points.view(), fb.view_mut(), cb.view_mut())
            .expect("batch evaluation");
        let col: Vec<f64> = cb.column(1).to_vec();
        failures.extend(
            mismatches(case, &problem, fb[1], &col)
                .into_iter()
                .map(|m| format!("batch: {m}")),
        );
    }
    assert!(
        failures.is_empty(),
        "{label}: {} mismatches, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    cases.len()
}

#[test]
fn reference_vectors_text_data() {
    let dir = cec2017_data();
    let suite = Suite::official(&dir).expect("instance data directory");
    let n = check_all(&suite, "text data");
    println!("checked {n} vectors");
}

/// Asserts that `other` holds the text data's shift vectors and matrices for all 28
/// problems in the four official dimensions; returns how many instances it compared.
#[cfg(feature = "matlab")]
fn assert_same_data_as_text(other: &Suite) -> usize {
    let text = Suite::official(cec2017_data()).unwrap();
    let mut compared = 0;
    for id in 1..=28 {
        for dim in [10, 30, 50, 100] {
            let a = text.problem(id, dim).unwrap();
            let b = other.problem(id, dim).unwrap();
            assert_eq!(a.data(), b.data(), "C{id:02} D{dim}");
            compared += 1;
        }
    }
    assert_eq!(compared, 112);
    compared
}

#[cfg(feature = "matlab")]
#[test]
fn matlab_data_equals_text_data() {
    let mat_dir = shared("CEC2017_MATLAB_DIR", "cec2017/matlab");
    let compared = assert_same_data_as_text(&Suite::new(InstanceSource::matlab(&mat_dir).unwrap()));
    println!("compared {compared} instances of the MATLAB and text data");
}

#[cfg(feature = "embedded")]
#[test]
fn embedded_data_equals_text_data_and_passes_the_reference_vectors() {
    let embedded = Suite::embedded();
    let compared = assert_same_data_as_text(&embedded);
    let n = check_all(&embedded, "embedded data");
    println!("compared {compared} instances of the embedded and text data; checked {n} vectors");
}

/// `f` and the constraints (`k × count`) of the points (columns) by batch evaluation.
fn batch(p: &Cec2017Problem, points: &Array2<f64>) -> (Array1<f64>, Array2<f64>) {
    let count = points.ncols();
    let mut f = Array1::zeros(count);
    let mut c = Array2::zeros((p.num_constraints(), count).f());
    p.evaluate_batch(points.view(), f.view_mut(), c.view_mut())
        .expect("batch");
    (f, c)
}

/// The vectorised batch kernel gives the bits of the scalar one: on the reference
/// vectors (all of one problem and dimension in one population) and on random points
/// of each box, at 10 and 100 dimensions and in populations whose size is not a
/// multiple of the block width.
#[test]
fn batch_kernels_agree_bit_for_bit() {
    use cec2017_constrained::BatchKernel;
    use rand::{Rng, SeedableRng};
    let suite = Suite::official(cec2017_data()).expect("instance data");
    let cases = load_cases();
    assert!(!cases.is_empty(), "no reference vectors found");
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut points_compared, mut differences) = (0usize, Vec::new());
    for id in 1..=28 {
        for dim in [10, 30, 50, 100] {
            let fast = suite.problem(id, dim).expect("problem");
            let avx2 = fast.clone().with_batch_kernel(BatchKernel::Avx2);
            let scalar = fast.clone().with_batch_kernel(BatchKernel::Scalar);
            let bound = fast.upper_bounds()[0];
            let mut columns: Vec<Vec<f64>> = cases
                .iter()
                .filter(|c| c.problem == id && c.dim == dim)
                .map(|c| c.x.clone())
                .collect();
            // Random points of the box and near the shift (small |y|: the rounding
            // branches of C18, the tiny arguments of the trigonometric functions).
            for j in 0..203 {
                let scale = if j % 2 == 0 { bound } else { 1e-3 };
                let o = fast.shift();
                columns.push(
                    (0..dim)
                        .map(|i| (j % 2) as f64 * o[i] + rng.random_range(-scale..scale))
                        .collect(),
                );
            }
            let count = columns.len();
            let points = Array2::from_shape_fn((dim, count).f(), |(i, j)| columns[j][i]);
            let k = fast.num_constraints();
            let run = |p: &Cec2017Problem| batch(p, &points);
            let (fs, cs) = run(&scalar);
            let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            for (label, (fa, ca)) in [("auto", run(&fast)), ("avx2", run(&avx2))] {
                for j in 0..count {
                    let ok = same(fa[j], fs[j]) && (0..k).all(|i| same(ca[[i, j]], cs[[i, j]]));
                    if !ok {
                        differences.push(format!(
                            "{label}: C{id:02} D{dim} point {j}: f {:e} vs {:e}, C {:?} vs {:?}",
                            fa[j],
                            fs[j],
                            ca.column(j).to_vec(),
                            cs.column(j).to_vec()
                        ));
                    }
                }
            }
            points_compared += count;
        }
    }
    println!(
        "compared {points_compared} points, kernels {} and {} vs scalar: {} differ",
        BatchKernel::Auto.resolved(),
        BatchKernel::Avx2.resolved(),
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{}",
        differences[..differences.len().min(10)].join("\n")
    );
}

/// `Fidelity::Fast` (the plain double `sin`/`cos`, no libm) against the exact path on
/// the reference vectors: every f, g, h within `1e-12 · max(1, |a|)` (the fixtures'
/// convention; values below 1 are sums that cancel, e.g. C07's `h` ≈ 0.012 from terms
/// of size 100, where one ulp of one term is 1e-12 of the result), and still within
/// the fixtures' `1e-9` of the reference values; with both vector kernels.
#[test]
fn fast_fidelity_agrees_to_1e_12_relative() {
    use cec2017_constrained::{BatchKernel, Fidelity};
    let suite = Suite::official(cec2017_data()).expect("instance data");
    let cases = load_cases();
    assert!(!cases.is_empty(), "no reference vectors found");
    let (mut values, mut worst, mut differ, mut failures) = (0usize, 0.0f64, 0usize, Vec::new());
    for id in 1..=28 {
        for dim in [10, 30, 50, 100] {
            let mine: Vec<&Case> = cases
                .iter()
                .filter(|c| c.problem == id && c.dim == dim)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let exact = suite.problem(id, dim).expect("problem");
            let count = mine.len();
            let points = Array2::from_shape_fn((dim, count).f(), |(i, j)| mine[j].x[i]);
            let k = exact.num_constraints();
            let run = |p: &Cec2017Problem| batch(p, &points);
            let (fe, ce) = run(&exact);
            for kernel in [BatchKernel::Auto, BatchKernel::Avx2] {
                let fast = exact
                    .clone()
                    .with_batch_kernel(kernel)
                    .with_fidelity(Fidelity::Fast);
                let (ff, cf) = run(&fast);
                for (j, case) in mine.iter().enumerate() {
                    let pairs = std::iter::once((fe[j], ff[j]))
                        .chain((0..k).map(|i| (ce[[i, j]], cf[[i, j]])));
                    for (a, b) in pairs {
                        let rel = (a - b).abs() / a.abs().max(1.0);
                        worst = worst.max(rel);
                        differ += usize::from(a.to_bits() != b.to_bits());
                        values += 1;
                        if rel > 1e-12 {
                            failures.push(format!("C{id:02} D{dim} point {j}: {a:e} vs {b:e}"));
                        }
                    }
                    let bad = mismatches(case, &fast, ff[j], cf.column(j).as_slice().unwrap());
                    failures.extend(bad);
                }
            }
        }
    }
    println!(
        "fast vs exact: {values} values ({} cases, 2 kernels), {differ} differ in their bits, worst {worst:.2e} of max(1, |a|)",
        cases.len()
    );
    assert!(values > 0, "no values compared");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(10)].join("\n")
    );
}
