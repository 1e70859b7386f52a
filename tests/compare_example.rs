//! `examples/compare.rs`: a user-written optimizer (ε-constrained DE, public APIs only)
//! against εMAg-ES through the study pipeline — runs, records, statistics, rankings,
//! plots and report — on a reduced set.

mod support;
use support::*;

use std::path::Path;
use std::process::Command;

fn compare(out: &Path, threads: &str) -> String {
    let o = Command::new(example("compare"))
        .args([
            "--problems",
            "1,3,7",
            "--runs",
            "6",
            "--budget-per-dim",
            "1000",
        ])
        .args([
            "--plot-problems",
            "3",
            "--threads",
            threads,
            "--no-progress",
        ])
        .arg("--out")
        .arg(out)
        .args(["--data", &data_dir()])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "compare failed: {text}");
    text
}

/// The run records without their wall times.
fn records(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("runs.jsonl")).unwrap();
    let mut rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect();
    rows.sort_by_key(|v| v.to_string());
    rows
}

#[test]
fn a_user_optimizer_goes_through_the_whole_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one");
    let text = compare(&one, "1");
    assert!(text.contains("| εDE |"), "{text}");
    let rows = records(&one);
    assert_eq!(rows.len(), 2 * 3 * 6);
    let de: Vec<_> = rows.iter().filter(|r| r["config"] == "eps-de").collect();
    assert_eq!(de.len(), 18);
    for r in &de {
        assert_eq!(r["variant"], "eps-de");
        assert!(r["evals"].as_u64().unwrap() >= 10_000);
        let cps = r["checkpoints"].as_array().unwrap();
        assert_eq!(cps.len(), 3);
        // Checkpoints at 10/50/100 % of the budget, best-so-far never worse later
        // (feasible runs: f non-increasing).
        let evals: Vec<u64> = cps
            .iter()
            .map(|c| c["evaluations"].as_u64().unwrap())
            .collect();
        assert_eq!(evals, [1000, 5000, 10_000]);
    }
    let table1 = std::fs::read_to_string(one.join("table1.csv")).unwrap();
    assert!(
        table1.lines().nth(1).unwrap().starts_with("eps-de,"),
        "{table1}"
    );
    for f in [
        "table1.md",
        "table2.md",
        "table_detail.md",
        "stats_eps-de.md",
        "stats_eps-mag-es.md",
        "plots/C03_D10_fitness.svg",
        "report.html",
    ] {
        assert!(one.join(f).is_file(), "{f} missing");
    }
    assert!(std::fs::read_to_string(one.join("report.html"))
        .unwrap()
        .contains("εDE"));
    // Reproducible whatever the thread count; a rerun resumes (nothing to do).
    let two = dir.path().join("two");
    compare(&two, "2");
    assert_eq!(records(&one), records(&two));
    let again = compare(&one, "2");
    assert!(
        again.contains("0 runs done (36 already finished before)"),
        "{again}"
    );
    println!("checked {} records of two algorithms", rows.len());
}
