//! The CEC2020 real-world competition's score reproduces the organisers' published
//! table: the eight entries of `$CEC2020_RW_ENTRANTS` (default
//! `../shared/cec2020-rw/entrants`), scored together, give each algorithm's best, mean,
//! median and total score to 4 decimals, and their places.

use bench_stats::cec2020::{dimension_weight, score, Entry};

/// The organisers' `Scoring.txt` (best, mean, median, total, place), as published.
const PUBLISHED: [(&str, [f64; 4], usize); 8] = [
    ("SASS", [0.0883, 0.0606, 0.0749, 0.0773], 1),
    ("COLSHADE", [0.0805, 0.1663, 0.1030, 0.1108], 2),
    ("sCMAgES", [0.1414, 0.1998, 0.2031, 0.1713], 3),
    ("BiPop", [0.2061, 0.2518, 0.2675, 0.2321], 4),
    ("EnMODE", [0.2791, 0.2597, 0.2764, 0.2728], 5),
    ("VMCH", [0.2989, 0.2513, 0.2578, 0.2764], 6),
    ("DEQL", [0.5763, 0.5638, 0.5394, 0.5652], 7),
    ("FCHA", [0.8275, 0.8981, 0.8848, 0.8601], 8),
];

#[test]
fn the_eight_entries_give_the_published_table() {
    let dir = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let entries = Entry::read_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(entries.len(), 8, "eight entries in {}", dir.display());
    let weights: Vec<f64> = cec2020_rw::catalog::all()
        .iter()
        .map(|p| dimension_weight(p.dim))
        .collect();
    let scores = score(&entries, &weights, 12).unwrap();
    let mut checked = 0;
    for (name, published, place) in PUBLISHED {
        let s = scores
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        let ours = [s.best, s.mean, s.median, s.total];
        for (o, p) in ours.iter().zip(published) {
            assert_eq!(
                format!("{o:.4}"),
                format!("{p:.4}"),
                "{name}: {ours:?} against {published:?}"
            );
        }
        assert_eq!(s.rank, place, "{name}'s place");
        checked += 1;
    }
    println!("checked {checked} algorithms × 4 scores against the published table");
}

#[test]
fn an_entry_survives_a_write_and_a_read() {
    let dir = tempfile::tempdir().unwrap();
    let e = Entry::from_runs(
        "ours",
        vec!["RC01".into(), "RC02".into()],
        vec![
            vec![(1.5, 0.0), (f64::NAN, f64::INFINITY)],
            vec![(-2.0, 1e-3), (0.1, 0.0)],
        ],
    )
    .unwrap();
    e.write(dir.path()).unwrap();
    let back = Entry::read(dir.path(), "ours").unwrap();
    assert_eq!(back.problems, e.problems);
    assert_eq!(format!("{:?}", back.f), format!("{:?}", e.f));
    assert_eq!(format!("{:?}", back.cv), format!("{:?}", e.cv));
    std::fs::write(dir.path().join("bad.f.csv"), "RC01\n1.0\n").unwrap();
    std::fs::write(dir.path().join("bad.cv.csv"), "RC01\nx\n").unwrap();
    let err = Entry::read(dir.path(), "bad").unwrap_err().to_string();
    assert!(
        err.contains("bad.cv.csv") && err.contains("not a number"),
        "{err}"
    );
}
