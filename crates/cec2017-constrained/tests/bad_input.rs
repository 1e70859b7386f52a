//! Bad input gets a clear error (never a panic); NaN points give NaN values.

use cec2017_constrained::{Cec2017Problem, CecError, InstanceSource, Suite};
use constraint_handling::ConstrainedProblem;
use ndarray::{Array1, Array2};
use std::fs;
use std::path::{Path, PathBuf};

fn official_dir() -> PathBuf {
    std::env::var_os("CEC2017_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cec2017/text")
        })
}

/// A data directory with only the files of problem 2 in N = 10, written by the test.
fn dir_with(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        fs::write(dir.path().join(name), content).unwrap();
    }
    dir
}

fn numbers(count: usize, per_line: usize) -> String {
    (0..count)
        .map(|i| format!("{}.5", i % 7))
        .collect::<Vec<_>>()
        .chunks(per_line)
        .map(|c| c.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn unknown_problems() {
    let suite = Suite::synthetic(1);
    for id in [0, 29, 1000] {
        let e = suite.problem(id, 10).unwrap_err();
        assert!(matches!(e, CecError::UnknownProblem(i) if i == id), "{e}");
        assert!(e.to_string().contains("1 to 28"), "{e}");
    }
}

#[test]
fn unsupported_dimensions() {
    let official = Suite::official(official_dir()).unwrap();
    let synthetic = Suite::synthetic(1);
    for (suite, id, dim) in [
        (&official, 1, 0),
        (&official, 1, 101),
        (&official, 2, 7),
        (&official, 21, 7),
        (&official, 5, 20),
        (&official, 8, 9),
        (&official, 9, 11),
        (&synthetic, 8, 7),
        (&synthetic, 3, 0),
        (&synthetic, 3, 200),
    ] {
        let e = suite.problem(id, dim).unwrap_err();
        assert!(
            matches!(e, CecError::UnsupportedDimension { .. }),
            "C{id} N={dim}: {e}"
        );
        assert!(e.to_string().contains(&format!("N = {dim}")), "{e}");
    }
    // Shifted-only problems take any N ≤ 100 (even N for C08/C09).
    assert!(official.problem(1, 7).is_ok());
    assert!(official.problem(8, 12).is_ok());
    // Synthetic data exists for transformed problems in any N.
    assert!(synthetic.problem(21, 7).is_ok());
}

fn assert_names(e: &CecError, path: &Path, what: &str) {
    let msg = e.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(msg.contains(what), "{msg}");
}

#[test]
fn missing_truncated_and_non_numeric_files() {
    let good_shift = numbers(100, 100);
    let good_matrix = numbers(100, 10);

    // missing shift file
    let dir = dir_with(&[("M_2_D10.txt", good_matrix.clone())]);
    let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
    assert_names(&e, &dir.path().join("shift_data_2.txt"), "cannot read");

    // missing matrix
    let dir = dir_with(&[("shift_data_2.txt", good_shift.clone())]);
    let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
    assert_names(&e, &dir.path().join("M_2_D10.txt"), "cannot read");

    // truncated shift vector
    let dir = dir_with(&[
        ("shift_data_2.txt", numbers(37, 37)),
        ("M_2_D10.txt", good_matrix.clone()),
    ]);
    let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
    assert_names(
        &e,
        &dir.path().join("shift_data_2.txt"),
        "truncated: 37 numbers, expected 100",
    );

    // truncated matrix: 9 rows; a short row
    let dir = dir_with(&[
        ("shift_data_2.txt", good_shift.clone()),
        ("M_2_D10.txt", numbers(90, 10)),
    ]);
    let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
    assert_names(
        &e,
        &dir.path().join("M_2_D10.txt"),
        "truncated: 9 rows, expected 10",
    );
    let short = format!("{}\n1 2 3", numbers(90, 10));
    let dir = dir_with(&[
        ("shift_data_2.txt", good_shift.clone()),
        ("M_2_D10.txt", short),
    ]);
    let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
    assert_names(
        &e,
        &dir.path().join("M_2_D10.txt"),
        "row 10: 3 numbers, expected 10",
    );

    // non-numeric token, and a non-finite one
    for bad in ["abc", "NaN", "inf"] {
        let text = good_shift.replacen("0.5", bad, 1);
        let dir = dir_with(&[
            ("shift_data_2.txt", text),
            ("M_2_D10.txt", good_matrix.clone()),
        ]);
        let e = Cec2017Problem::new(2, 10, &InstanceSource::text(dir.path()).unwrap()).unwrap_err();
        assert!(matches!(e, CecError::NotANumber { line: 1, .. }), "{e}");
        assert_names(&e, &dir.path().join("shift_data_2.txt"), bad);
    }

    // missing directory
    let e = InstanceSource::text("/nonexistent/cec2017").unwrap_err();
    assert!(matches!(e, CecError::MissingDirectory(_)), "{e}");
}

#[test]
fn wrong_lengths_are_errors() {
    let p = Suite::synthetic(3).problem(5, 10).unwrap();
    let mut c = vec![0.0; 2];
    assert!(p.evaluate(&[0.0; 9], &mut c).is_err());
    assert!(p.evaluate(&[0.0; 11], &mut c).is_err());
    assert!(p.evaluate(&[0.0; 10], &mut [0.0; 3]).is_err());
    assert!(p.evaluate_full(&[0.0; 4]).is_err());
    let points = Array2::zeros((9, 4));
    let mut f = Array1::zeros(4);
    let mut cc = Array2::zeros((2, 4));
    assert!(p
        .evaluate_batch(points.view(), f.view_mut(), cc.view_mut())
        .is_err());
    let points = Array2::zeros((10, 4));
    let mut f3 = Array1::zeros(3);
    assert!(p
        .evaluate_batch(points.view(), f3.view_mut(), cc.view_mut())
        .is_err());
    assert!(p.clone().with_equality_margin(-1.0).is_err());
    assert!(p.with_equality_margin(f64::NAN).is_err());
}

#[test]
fn nan_points_give_nan_values() {
    let suite = Suite::synthetic(4);
    for id in 1..=28 {
        let p = suite.problem(id, 10).unwrap();
        let mut x = p.shift().to_vec();
        x[3] = f64::NAN;
        let e = p.evaluate_full(&x).unwrap();
        assert!(
            e.objective().is_nan() || e.mean_violation().is_nan(),
            "C{id}: f = {}, ν̄ = {}",
            e.objective(),
            e.mean_violation()
        );
        // The batch path does not panic either.
        let points = Array2::from_shape_fn((10, 2), |(i, _)| x[i]);
        let mut f = Array1::zeros(2);
        let mut c = Array2::zeros((p.num_constraints(), 2));
        p.evaluate_batch(points.view(), f.view_mut(), c.view_mut())
            .unwrap();
    }
}

#[test]
fn batch_and_single_evaluation_agree() {
    let suite = Suite::official(official_dir()).unwrap();
    let mut worst: f64 = 0.0;
    for id in 1..=28 {
        let p = suite.problem(id, 30).unwrap();
        // Non-contiguous columns (standard layout) exercise the general path.
        let points = Array2::from_shape_fn((30, 5), |(i, j)| {
            p.shift()[i] + (i as f64 - j as f64) * 0.37
        });
        let mut f = Array1::zeros(5);
        let mut c = Array2::zeros((p.num_constraints(), 5));
        p.evaluate_batch(points.view(), f.view_mut(), c.view_mut())
            .unwrap();
        for j in 0..5 {
            let mut cs = vec![0.0; p.num_constraints()];
            let fs = p.evaluate(&points.column(j).to_vec(), &mut cs).unwrap();
            for (a, b) in std::iter::once((fs, f[j]))
                .chain(cs.iter().copied().zip(c.column(j).iter().copied()))
            {
                let rel = (a - b).abs() / a.abs().max(1.0);
                worst = worst.max(rel);
            }
        }
    }
    assert!(
        worst <= 1e-10,
        "batch vs single: relative difference {worst}"
    );
}
