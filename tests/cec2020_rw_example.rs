//! `examples/cec2020_rw.rs` end to end on a reduced study: the competition's protocol
//! (budgets by dimension, ten checkpoints), the same records whatever the thread count
//! or sharding, resumption, the entry files, the score command, and bad input.

mod support;
use support::*;

use std::path::Path;
use std::process::{Command, Output};

fn cec2020(args: &[&str], out: &Path) -> Output {
    Command::new(example("cec2020_rw"))
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--no-progress")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every run record of a study folder, without wall times and platform, sorted.
fn records(out: &Path) -> Vec<serde_json::Value> {
    let mut rows: Vec<serde_json::Value> = cec2020_runs(out, false)
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("seconds");
            o.remove("platform");
            v
        })
        .collect();
    rows.sort_by_key(|v| v.to_string());
    rows
}

#[test]
fn a_reduced_study_follows_the_protocol_and_gives_an_entry_and_a_score() {
    let dir = tempfile::tempdir().unwrap();
    let (one, sharded) = (dir.path().join("one"), dir.path().join("sharded"));
    // RC08 (D = 2), RC17 (D = 3) and RC20 (D = 2): two dimension groups, 25 runs each
    // (a few seconds: these problems cost about 0.05 s a run)
    let args = ["--problems", "8,17,20", "--runs", "25"];
    let o = cec2020(&[&args[..], &["--threads", "2"]].concat(), &one);
    assert!(o.status.success(), "{}", text(&o));
    for shard in ["1/2", "2/2"] {
        let o = cec2020(
            &[&args[..], &["--threads", "1", "--shard", shard]].concat(),
            &sharded,
        );
        assert!(o.status.success(), "{}", text(&o));
    }
    let rows = records(&one);
    assert_eq!(rows.len(), 75);
    assert_eq!(rows, records(&sharded), "sharding or threads changed a run");
    for r in &rows {
        assert_eq!(r["suite"], "cec2020-rw");
        assert_eq!(r["budget"], 100_000, "MaxFEs for D ≤ 10");
        let fractions: Vec<f64> = r["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["fraction"].as_f64().unwrap())
            .collect();
        assert_eq!(
            fractions,
            [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        );
        assert!(
            r["evals"].as_u64().unwrap() >= 100_000,
            "the whole budget is used: {r}"
        );
    }
    // resuming runs what is missing (a record removed), skips what is complete
    let d2 = one.join("D002/runs.jsonl");
    let kept: Vec<String> = std::fs::read_to_string(&d2)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&d2, kept.concat()).unwrap();
    let again = cec2020(&[&args[..], &["--threads", "2"]].concat(), &one);
    let t = text(&again);
    assert!(t.contains("1 runs done (49 before)"), "{t}");
    assert!(
        t.contains("1 dimension group(s) complete (all runs recorded)"),
        "{t}"
    );
    assert_eq!(records(&one), rows, "the resumed run is the same run");

    // what the runs cost, per class
    let costs = cec2020(&["--costs"], &one);
    assert!(costs.status.success(), "{}", text(&costs));
    assert!(
        text(&costs).contains("| Mechanical engineering | 2–30 | 50 |"),
        "{}",
        text(&costs)
    );
    assert!(
        text(&costs).contains("| all | 2–158 | 75 |"),
        "{}",
        text(&costs)
    );

    // a complete group archived as committed (gzip'd) is skipped, and read by --entry
    for name in ["runs.jsonl", "dynamics.jsonl"] {
        let path = one.join("D003").join(name);
        let st = Command::new("gzip").arg(&path).status().unwrap();
        assert!(st.success());
    }
    let archived = cec2020(&[&args[..], &["--threads", "2"]].concat(), &one);
    assert!(archived.status.success(), "{}", text(&archived));
    assert!(
        text(&archived).contains("2 dimension group(s) complete (all runs recorded)"),
        "{}",
        text(&archived)
    );

    // the sharded study, resumed without shards, has nothing left to run
    let whole = cec2020(&[&args[..], &["--threads", "2"]].concat(), &sharded);
    assert!(whole.status.success(), "{}", text(&whole));
    assert!(
        text(&whole).contains("2 dimension group(s) complete"),
        "{}",
        text(&whole)
    );
    assert!(!sharded.join("D002/runs.jsonl").exists());

    // an entry of the complete problems only is refused, then written with NaN
    let refused = cec2020(&["--entry"], &one);
    assert!(
        !refused.status.success() && text(&refused).contains("--allow-incomplete"),
        "{}",
        text(&refused)
    );
    let o = cec2020(&["--entry", "--allow-incomplete", "--name", "mine"], &one);
    assert!(o.status.success(), "{}", text(&o));
    let f = std::fs::read_to_string(one.join("entry/mine.f.csv")).unwrap();
    let lines: Vec<&str> = f.lines().collect();
    assert_eq!(lines.len(), 26);
    assert!(lines[0].starts_with("RC01,RC02,") && lines[0].ends_with("RC57"));
    let rc08: Vec<f64> = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
        .collect();
    assert!(
        rc08.windows(2).all(|w| w[0] <= w[1]),
        "sorted best first: {rc08:?}"
    );
    assert!(
        (rc08[0] - 2.0).abs() < 1e-3,
        "RC08's optimum is 2: {rc08:?}"
    );
    assert!(
        lines[1].split(',').next() == Some("nan"),
        "RC01 was not run"
    );
    // the guidelines' per-problem files: 10 checkpoints × 25 trials, the last row the
    // entry's values
    let m = std::fs::read_to_string(one.join("entry/submission/mine RC08 F.txt")).unwrap();
    let rows: Vec<Vec<f64>> = m
        .lines()
        .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!((rows.len(), rows[0].len()), (10, 25));
    let mut last = rows[9].clone();
    last.sort_by(f64::total_cmp);
    let mut sorted = rc08.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(last, sorted, "the final row holds the entry's values");
    let cv = std::fs::read_to_string(one.join("entry/submission/mine RC08 CV.txt")).unwrap();
    assert_eq!(cv.lines().count(), 10);
    let rc01 = std::fs::read_to_string(one.join("entry/submission/mine RC01 F.txt")).unwrap();
    assert!(
        rc01.lines().all(|l| l.split(' ').all(|v| v == "NaN")),
        "RC01 was not run"
    );

    // scored with the eight entries on the problems run
    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let entry_dir = one.join("entry");
    let o = Command::new(example("cec2020_rw"))
        .arg("--score")
        .arg(&entrants)
        .arg(&entry_dir)
        .args([
            "--subset",
            "8,17,20",
            "--name",
            "mine",
            "--versus",
            "SASS,BiPop",
        ])
        .output()
        .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("| mine |") && t.contains("vs SASS") && t.contains("| all | 3 |"),
        "{t}"
    );
    // …and with all 57 problems the NaN columns count as the worst
    let o = Command::new(example("cec2020_rw"))
        .arg("--score")
        .arg(&entrants)
        .arg(&entry_dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn bad_input_gets_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--problems", "58"][..], "1–57"),
        (&["--runs", "0"][..], "--runs"),
        (&["--t-max", "soon", "--problems", "8"][..], "--t-max soon"),
        (
            &["--score", "/nonexistent/entries"][..],
            "/nonexistent/entries",
        ),
    ] {
        let o = cec2020(args, dir.path());
        let t = text(&o);
        assert!(!o.status.success(), "{args:?} succeeded: {t}");
        assert!(t.contains(says), "{args:?}: {t}");
        assert_eq!(t.trim().lines().count(), 1, "{args:?}: {t}");
    }
}
