//! The two contributor tasks of docs/architecture.md, run as a newcomer would on a tiny
//! budget: `examples/custom_suite.rs` (a user's two-problem suite through the whole
//! study command line) and `examples/custom_component.rs` (a user's step-size rule
//! through a study and a report).

mod support;
use support::*;

use std::path::Path;
use std::process::{Command, Output};

fn run(example_name: &str, args: &[&str]) -> Output {
    let out = Command::new(example(example_name))
        .args(args)
        .arg("--no-progress")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{example_name} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    read(dir, "runs.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_users_suite_goes_through_the_whole_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("bowls");
    let o = out.to_str().unwrap();
    let study = ["--dim", "4", "--runs", "3", "--budget-per-dim", "300"];
    // Two shards, then the status, then the report over both.
    for shard in ["1/2", "2/2"] {
        run(
            "custom_suite",
            &[&study[..], &["--shard", shard, "--out", o]].concat(),
        );
    }
    let status = run(
        "custom_suite",
        &[&study[..], &["--status", "--out", o]].concat(),
    );
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains("12 of 12 runs done"), "{status}");
    assert!(status.contains("the study is complete"), "{status}");
    let shards = [
        out.join("runs.shard-1-of-2.jsonl"),
        out.join("runs.shard-2-of-2.jsonl"),
    ];
    let report = tmp.path().join("report");
    let mut args = vec!["--report".to_string()];
    args.extend(shards.iter().map(|p| p.display().to_string()));
    args.extend(["--out".into(), report.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run("custom_suite", &args);
    // Its labels, its group, its plots; no CEC2017 anywhere.
    let t2 = read(&report, "table2.md");
    assert!(t2.contains("| B1 |") && t2.contains("| B2 |"), "{t2}");
    let group = read(&report, "table4_equality.md");
    assert!(
        group.contains("with an equality constraint (1 problems)"),
        "{group}"
    );
    assert!(report.join("plots/B2_D4_fitness.svg").is_file());
    for f in ["table1.md", "table1_cec.md", "table2.md", "report.html"] {
        assert!(
            !read(&report, f).contains("CEC2017"),
            "{f} speaks of CEC2017"
        );
    }
    // The same study in one process gives the same tables.
    let single = tmp.path().join("single");
    run(
        "custom_suite",
        &[&study[..], &["--out", single.to_str().unwrap()]].concat(),
    );
    for f in [
        "table1.md",
        "table2.md",
        "table4_equality.md",
        "stats_eps-mag-es.csv",
    ] {
        assert_eq!(read(&single, f), read(&report, f), "{f}");
    }
    // A problem it does not have: one line.
    let bad = Command::new(example("custom_suite"))
        .args([
            "--problems",
            "3",
            "--out",
            tmp.path().join("x").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(
        err.trim(),
        "error: problem 3 is not in the bowls suite (it has 1–2)"
    );
}

#[test]
fn a_users_step_size_rule_goes_through_a_study_and_a_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("decay");
    run(
        "custom_component",
        &[
            "--runs",
            "3",
            "--problems",
            "1,3",
            "--budget-per-dim",
            "500",
            "--plot-problems",
            "3",
            "--data",
            &data_dir(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let rows = records(&out);
    assert_eq!(rows.len(), 2 * 2 * 3);
    let decay: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["config"] == "geometric-decay")
        .collect();
    assert_eq!(decay.len(), 6);
    assert!(decay
        .iter()
        .all(|r| r["variant"] == "eps-mag-es, σ ← 0.998 σ"));
    let t1 = read(&out, "table1.md");
    assert!(t1.contains("| εMAg-ES, σ decay |"), "{t1}");
    // The rule acts: the recorded σ of the decaying runs falls by 0.998 a generation.
    let dynamics = read(&out, "dynamics.jsonl");
    let first: serde_json::Value = dynamics
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|d| d["config"] == "geometric-decay")
        .expect("dynamics of the plot problem");
    let sigma: Vec<f64> = first["sigma"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect();
    assert!(sigma.windows(2).all(|w| w[1] <= w[0]), "{sigma:?}");
    assert!(sigma.last().unwrap() < &sigma[0]);
}

/// A CMA-ES from crates.io (`cmaes`) through the `Optimizer` seam beside εMAg-ES: its
/// runs use the budget (restarts included), are recorded like εMAg-ES's, repeat bit for
/// bit with the same seed, and reach the report.
#[test]
fn a_third_party_optimizer_goes_through_the_harness() {
    let tmp = tempfile::tempdir().unwrap();
    let study = |out: &Path| {
        run(
            "third_party",
            &[
                "--runs",
                "2",
                "--problems",
                "1,6",
                "--budget-per-dim",
                "300",
                "--threads",
                "2",
                "--data",
                &data_dir(),
                "--out",
                out.to_str().unwrap(),
            ],
        )
    };
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    study(&a);
    study(&b);
    let strip = |dir: &Path| {
        let mut rows = records(dir);
        for r in &mut rows {
            r["seconds"] = serde_json::Value::Null;
        }
        rows.sort_by_key(|r| {
            (
                r["config"].to_string(),
                r["problem"].as_u64(),
                r["run"].as_u64(),
            )
        });
        rows
    };
    let rows = strip(&a);
    assert_eq!(rows.len(), 2 * 2 * 2);
    let cmaes: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["config"] == "cmaes-penalty")
        .collect();
    assert_eq!(cmaes.len(), 4);
    for r in &cmaes {
        assert_eq!(r["variant"], "cmaes-penalty");
        let evals = r["evals"].as_u64().unwrap();
        assert!((3000..3100).contains(&evals), "budget 3000 used: {evals}");
        assert!(r["best"]["objective"].as_f64().unwrap().is_finite(), "{r}");
    }
    assert_eq!(rows, strip(&b), "the same seeds, the same runs");
    let t2 = read(&a, "table2.md");
    assert!(
        t2.contains("CMA-ES (cmaes crate, penalty)") && t2.contains("| C06 |"),
        "{t2}"
    );
}
