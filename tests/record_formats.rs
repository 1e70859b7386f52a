//! Results files written by earlier versions stay readable: `tests/fixtures/records-v1/`
//! holds a small ablation study (C01 and C03, seven variants, two runs, budget 100·N)
//! and one shard of it, written on 2026-11-26 by the code before record versioning
//! (records without `format`). They load, report, and give the `table1.csv` that code
//! wrote; records written now carry `format = 4` (2 added `setting`, 3 `suite`, 4 the
//! result types of `constraint-handling` unchanged), and version-1 records written
//! again in format 4 read back equal.

use emages_harness::report::ReportOptions;
use emages_harness::study::store::{load_runs, RECORD_FORMAT};
use emages_harness::study::Dataset;
use emages_paper::ablation_report;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records-v1")
        .join(name)
}

#[test]
fn version_1_records_load_and_report_as_before() {
    let rows = load_runs(&fixture("runs.jsonl")).unwrap();
    assert_eq!(rows.len(), 7 * 2 * 2);
    assert!(rows
        .iter()
        .all(|r| r.format == 1 && r.setting.is_none() && r.suite == "cec2017"));
    let shard = load_runs(&fixture("runs.shard-1-of-2.jsonl")).unwrap();
    assert_eq!(shard.len(), 14);
    // The shard's runs are the same runs as in the whole study.
    for r in &shard {
        let same = rows.iter().find(|x| x.key() == r.key()).unwrap();
        assert_eq!((same.best, same.seed), (r.best, r.seed));
    }
    let data = Dataset::load(&[fixture("runs.jsonl")]).unwrap();
    assert_eq!(data.dynamics("eps-mag-es", 3).len(), 2);
    let out = tempfile::tempdir().unwrap();
    let options = ReportOptions {
        plot_problems: Some(vec![3]),
        ..ReportOptions::default()
    };
    ablation_report(&data, out.path(), &options).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.path().join("table1.csv")).unwrap(),
        std::fs::read_to_string(fixture("table1.csv")).unwrap(),
        "table1.csv of the version-1 records changed"
    );
    assert_eq!(RECORD_FORMAT, 4);
    // Read into the current types: the final best carries the final checkpoint's
    // counts and its evaluation count; written again (format 4) it reads back equal.
    for r in &rows {
        let last = r.checkpoints.last().unwrap().checkpoint;
        assert_eq!(r.best.counts, last.best.counts);
        assert_eq!(r.best.fitness, last.best.fitness);
        assert!(r.best.found_at.is_some() && last.best.found_at.is_none());
        let json = serde_json::to_string(r).unwrap();
        assert!(json.contains("\"best\":{\"objective\":"), "{json}");
        let back: emages_harness::study::store::RunRow = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, r);
    }
    assert_eq!(data.suite().name(), "cec2017");
    assert_eq!(data.label(3), "C03");
    println!(
        "read {} version-1 records and {} of a shard",
        rows.len(),
        shard.len()
    );
}
