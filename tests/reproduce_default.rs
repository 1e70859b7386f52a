//! Today's default — the fifth round's candidate, `portfolio:accuracy=1e-12:soc=on`,
//! plain `portfolio` since — repeats its committed test runs bit for bit: a sample of
//! each of its test studies (`results/strategy-design/round5/`) is run again with the
//! same labels (and so the same seeds) and must equal the committed records in the
//! seed, the final best-so-far (f, ν̄, the evaluation that found it), the evaluations,
//! iterations, termination and every checkpoint.
//!
//! These are the runs the refactorings of the run's state and options must not move.

mod support;
use support::rerun::*;
use support::*;

use emages_harness::study::store::{load_runs, RunRow};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The candidate's label on bbob-constrained and as a black box on CEC2020 before the
/// protocol's form.
const CANDIDATE: &str = "portfolio:accuracy=1e-12:soc=on";

/// The candidate's form under the CEC protocols: to the budget, the problem's margin.
const CANDIDATE_CEC: &str = "portfolio:confirmations=0:margin=problem:accuracy=1e-12:soc=on";

/// Every rerun equals the committed record of its key; at least `expect` of them.
fn assert_reproduced(
    what: &str,
    committed: &BTreeMap<RunKeyText, RunRow>,
    rerun: &[RunRow],
    expect: usize,
) {
    assert_eq!(rerun.len(), expect, "{what}: runs done");
    let differ: Vec<String> = rerun
        .iter()
        .filter_map(|r| {
            let c = committed
                .get(&key(r))
                .unwrap_or_else(|| panic!("{what}: no committed record for {:?}", r.key()));
            let c = as_recorded_now(c, r);
            (fingerprint(&c) != fingerprint(r)).then(|| {
                format!(
                    "{:?}\n  committed {}\n  rerun     {}",
                    r.key(),
                    fingerprint(&c),
                    fingerprint(r)
                )
            })
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: {} of {} reruns differ from the committed records:\n{}",
        differ.len(),
        rerun.len(),
        differ.join("\n")
    );
    println!(
        "{what}: reproduced {} committed runs bit for bit",
        rerun.len()
    );
}

/// A run's identity as text (configuration, problem, run).
type RunKeyText = (String, usize, usize);

fn key(r: &RunRow) -> RunKeyText {
    (r.config.clone(), r.problem, r.run)
}

fn by_key(rows: impl IntoIterator<Item = RunRow>) -> BTreeMap<RunKeyText, RunRow> {
    rows.into_iter().map(|r| (key(&r), r)).collect()
}

/// bbob-constrained's test instance 31, all 54 functions, at n = 2, 5 and 10 (162 runs of
/// `results/strategy-design/round5/test-bbob/`).
#[test]
fn the_defaults_bbob_test_runs_repeat() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    for dim in [2, 5, 10] {
        let file = root().join(format!(
            "results/strategy-design/round5/test-bbob/candidate-D{dim}-runs.jsonl.gz"
        ));
        let committed = by_key(load_runs(&file).unwrap());
        assert_eq!(committed.len(), 810, "{}", file.display());
        let dim_text = dim.to_string();
        let rows = rerun_example(
            "bbob_constrained",
            &[
                "--dim",
                &dim_text,
                "--instances",
                "31",
                "--with",
                CANDIDATE,
                "--only-with",
                "--no-coco",
                "--threads",
                "2",
            ],
            run_as,
        );
        assert_reproduced(
            &format!("bbob-constrained n = {dim}, instance 31"),
            &committed,
            &rows,
            54,
        );
    }
}

/// CEC2020 under the competition's protocol, black box and with exact Jacobians: the
/// first run of every problem of dimension at most 5 (15 problems per form, from
/// `results/strategy-design/round5/test-cec2020-margin/{bb,exact}/`).
#[test]
fn the_defaults_cec2020_protocol_runs_repeat() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    for (form, jacobian) in [("bb", "differences"), ("exact", "exact")] {
        let study = root()
            .join("results/strategy-design/round5/test-cec2020-margin")
            .join(form);
        let committed = by_key(
            cec2020_runs(&study, true)
                .into_iter()
                .filter(|r| r.dim <= 5 && r.run == 0),
        );
        assert!(
            committed.len() >= 10,
            "{form}: {} committed runs",
            committed.len()
        );
        let problems: std::collections::BTreeSet<usize> =
            committed.values().map(|r| r.problem).collect();
        let list = problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let rows = rerun_example(
            "cec2020_rw",
            &[
                "--with",
                CANDIDATE_CEC,
                "--jacobian",
                jacobian,
                "--problems",
                &list,
                "--runs",
                "1",
                "--threads",
                "2",
            ],
            run_as,
        );
        assert_reproduced(
            &format!("CEC2020 ({form}), the protocol"),
            &committed,
            &rows,
            committed.len(),
        );
    }
}

/// CEC2017 at N = 50 under its protocol (the test): the first run on C06 and C13, a
/// win and a tie of the candidate's against εMAg-ES-R (`results/strategy-design/round5/test-cec2017-D50/`).
#[test]
fn the_defaults_cec2017_n50_run_repeats() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    let dir = root().join("results/strategy-design/round5/test-cec2017-D50");
    let committed = by_key(
        (1..=4)
            .flat_map(|i| load_runs(&dir.join(format!("runs.shard-{i}-of-4.jsonl.gz"))).unwrap()),
    );
    assert_eq!(committed.len(), 700);
    let data = data_dir();
    let rows = rerun_example(
        "ablation",
        &[
            "--dim",
            "50",
            "--baseline",
            "eps-mag-es-r",
            "--with",
            CANDIDATE_CEC,
            "--only-with",
            "--problems",
            "6,13",
            "--runs",
            "1",
            "--threads",
            "1",
            "--data",
            &data,
        ],
        run_as,
    );
    assert_reproduced("CEC2017 N = 50, C06 and C13", &committed, &rows, 2);
}

/// Keeps the comparison honest: a committed record with one bit changed is caught.
#[test]
fn a_changed_record_is_caught() {
    let file = root().join("results/strategy-design/round5/test-bbob/candidate-D2-runs.jsonl.gz");
    let rows = load_runs(Path::new(&file)).unwrap();
    let a = rows[0].clone();
    let mut b = a.clone();
    b.generations += 1;
    assert_ne!(fingerprint(&a), fingerprint(&b));
}
