//! The fast path (`--fast`) end to end: recorded in every record, reproducible
//! whatever the thread count, other runs than the exact path's, and never mixed with
//! them in one results file or dataset.

mod support;

use emages_harness::study::Dataset;
use emages_harness::study::{run_study, StudyConfig, StudySpec};
use emages_harness::suites::Cec2017Suite;
use emages_paper::path_check::PathCheck;
use ma_es::{Config, Variant};
use std::sync::Arc;
use support::records_without_time as records;

fn spec(fast: bool, threads: usize) -> StudySpec {
    let configs = vec![StudyConfig::preset(
        "eps-mag-es",
        Variant::EpsMagEs,
        Config::default(),
    )];
    StudySpec {
        runs: 4,
        problems: vec![1, 5, 21],
        budget_per_dim: 400,
        seed: 3,
        threads: Some(threads),
        fast,
        ..StudySpec::new(Arc::new(Cec2017Suite::synthetic(7)), 10, configs)
    }
}

#[test]
fn the_fast_path_is_recorded_reproducible_and_kept_apart() {
    let (exact, fast, fast2) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    run_study(&spec(false, 2), exact.path()).unwrap();
    run_study(&spec(true, 2), fast.path()).unwrap();
    run_study(&spec(true, 1), fast2.path()).unwrap();
    let (e, f) = (records(exact.path()), records(fast.path()));
    assert_eq!(e.len(), 12);
    assert!(e.iter().all(|r| !r.fast) && f.iter().all(|r| r.fast));
    // Same seeds, other numbers; the same numbers on one thread as on two.
    assert_eq!(
        e.iter().map(|r| r.seed).collect::<Vec<_>>(),
        f.iter().map(|r| r.seed).collect::<Vec<_>>()
    );
    let differ = e.iter().zip(&f).filter(|(a, b)| a.best != b.best).count();
    assert!(differ > 0, "the fast path gave the exact path's runs");
    assert_eq!(f, records(fast2.path()));
    let text = std::fs::read_to_string(fast.path().join("runs.jsonl")).unwrap();
    assert!(text.lines().all(|l| l.contains("\"fast\":true")));
    let text = std::fs::read_to_string(exact.path().join("runs.jsonl")).unwrap();
    assert!(
        !text.contains("\"fast\""),
        "exact records keep format 4 as it was"
    );

    // One results file holds one path.
    let err = run_study(&spec(false, 2), fast.path()).unwrap_err();
    assert!(
        err.to_string()
            .contains("runs of the fast path (--fast) (this study: the exact path)"),
        "{err}"
    );
    let files = [
        exact.path().join("runs.jsonl"),
        fast.path().join("runs.jsonl"),
    ];
    let err = Dataset::load(&files).unwrap_err();
    assert!(
        err.to_string().contains("mix runs of the fast path"),
        "{err}"
    );

    // The statistical comparison takes one of each, in that order.
    let de = Dataset::load(&files[..1]).unwrap();
    let df = Dataset::load(&files[1..]).unwrap();
    assert!(df.warning().unwrap().contains("fast path"));
    let check = PathCheck::compare(&de, &df, 0.05).unwrap();
    assert_eq!(check.cells.len(), 3);
    assert!(check.cells.iter().all(|c| c.runs == (4, 4)));
    assert!(PathCheck::compare(&df, &de, 0.05).is_err());
    println!(
        "fast path: {} records, {differ} differ from the exact path's; {} of {} cells significant",
        f.len(),
        check.significant(),
        check.cells.len()
    );
}
