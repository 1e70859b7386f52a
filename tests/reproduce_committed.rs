//! The committed studies reproduce on this machine, bit for bit: a sample of each
//! committed study is run again with the same seeds and configuration, and every rerun
//! must equal its committed record in the seed, the final best-so-far (f, ν̄, the
//! evaluation that found it), the evaluations, generations, termination and every
//! checkpoint (the wall time and the `platform` text aside).
//!
//! The trajectories are chaotic, so a study reproduces under the OpenBLAS kernel family
//! it was computed with only (docs/reproduction.md, "Which kernel, which numbers"): the
//! reruns run with that family (`OPENBLAS_CORETYPE` set for them), and where this CPU
//! cannot run it the comparison is skipped and says why.

mod support;
use support::rerun::*;
use support::*;

use constraint_handling::linalg::kernel::CORETYPE_VARIABLE;
use emages_harness::study::store::{load_dynamics, load_runs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `example args --out TMP` with OpenBLAS's `kernel` (the committed study's) and
/// compares every run it records with the committed record of the same configuration,
/// problem and run index in `committed`.
fn reproduce(
    example_name: &str,
    args: &[&str],
    committed: &[PathBuf],
    expect: usize,
    kernel: &str,
) {
    reproduce_with_dynamics(example_name, args, committed, expect, kernel, 0);
}

/// As [`reproduce`]; the rerun's sampled dynamics (best-so-far `f`, `ν̄` and σ on the
/// evaluation grid) must equal the committed ones too, `dynamics` rows of them.
fn reproduce_with_dynamics(
    example_name: &str,
    args: &[&str],
    committed: &[PathBuf],
    expect: usize,
    kernel: &str,
    dynamics: usize,
) {
    let Some(run_as) = kernel_here(kernel) else {
        return;
    };
    let mut by_key = BTreeMap::new();
    for f in committed {
        for r in load_runs(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())) {
            assert!(
                r.platform
                    .as_deref()
                    .is_some_and(|p| p.starts_with(&format!("openblas {kernel};"))),
                "{}: a committed record of another kernel: {:?}",
                f.display(),
                r.platform
            );
            by_key.insert(r.key(), r);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = Command::new(example(example_name))
        .args(args)
        .args(["--no-progress", "--data", &data_dir(), "--out"])
        .arg(&out)
        .env(CORETYPE_VARIABLE, run_as)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{example_name} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rerun = load_runs(&out.join("runs.jsonl")).unwrap();
    assert_eq!(rerun.len(), expect, "runs done");
    let mut differ = Vec::new();
    for r in &rerun {
        assert!(
            r.platform
                .as_deref()
                .is_some_and(|p| p.starts_with(&format!("openblas {run_as};"))),
            "the rerun did not run the {run_as} kernels: {:?}",
            r.platform
        );
        let c = by_key
            .get(&r.key())
            .unwrap_or_else(|| panic!("no committed record for {:?}", r.key()));
        let c = as_recorded_now(c, r);
        if fingerprint(&c) != fingerprint(r) {
            differ.push(format!(
                "{:?}\n  committed {}\n  rerun     {}",
                r.key(),
                fingerprint(&c),
                fingerprint(r)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} reruns differ from the committed records:\n{}",
        differ.len(),
        rerun.len(),
        differ.join("\n")
    );
    if dynamics > 0 {
        let mut committed_rows = BTreeMap::new();
        for f in committed {
            let Some(path) = emages_harness::study::dynamics_path(f) else {
                continue;
            };
            for d in load_dynamics(&path).unwrap() {
                committed_rows.insert((d.config.clone(), d.problem, d.run), d);
            }
        }
        let path = emages_harness::study::dynamics_path(&out.join("runs.jsonl"))
            .expect("the rerun recorded dynamics");
        let rows = load_dynamics(&path).unwrap();
        assert_eq!(rows.len(), dynamics, "dynamics rows rerun");
        for d in &rows {
            let c = &committed_rows[&(d.config.clone(), d.problem, d.run)];
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                (&c.evals, bits(&c.f), bits(&c.violation), bits(&c.sigma)),
                (&d.evals, bits(&d.f), bits(&d.violation), bits(&d.sigma)),
                "the dynamics of {} on C{:02} run {}",
                d.config,
                d.problem,
                d.run
            );
        }
    }
    println!(
        "reproduced {} committed runs bit for bit ({example_name} {}) with OpenBLAS {run_as} (the study's: {kernel}), {dynamics} of them with their dynamics",
        rerun.len(),
        args.join(" ")
    );
}

fn committed(dir: &str) -> Vec<PathBuf> {
    let dir = root().join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("runs") && n.contains(".jsonl"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no committed runs in {}", dir.display());
    files
}

/// The first run of every variant on every problem of the N = 10 ablation (196 runs).
#[test]
fn the_n10_ablation_reproduces() {
    reproduce(
        "ablation",
        &["--runs", "1", "--threads", "2"],
        &committed("results/ablation-D10-seed1"),
        196,
        "Haswell",
    );
}

/// The frozen εMAg-ES-R's restart sequences (BIPOP, stalls, polish): the first run of
/// every problem of the N = 10 design study that froze it (56 runs with the baseline's),
/// checkpoints included.
#[test]
fn the_n10_restart_sequences_reproduce() {
    reproduce(
        "ablation",
        &["--runs", "1", "--threads", "2", "--variants", FROZEN_R],
        &committed("results/strategy-design/polish-D10"),
        56,
        "Haswell",
    );
}

/// εMAg-ES-R's spec as the design log froze it.
const FROZEN_R: &str = "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%";

/// The N = 50 test set's runs on C03 and C07 with their recorded dynamics: a restart
/// sequence's record (checkpoints and dynamics over its runs) as committed.
#[test]
fn the_n50_restart_sequences_reproduce_with_their_dynamics() {
    reproduce_with_dynamics(
        "ablation",
        &[
            "--dim",
            "50",
            "--runs",
            "1",
            "--problems",
            "3,7",
            "--plot-problems",
            "3,7",
            "--threads",
            "2",
            "--variants",
            FROZEN_R,
        ],
        &committed("results/strategy-design/test-sets/cec2017-D50"),
        4,
        "Haswell",
        4,
    );
}

/// Keeps the helper honest: a record that differs in one bit is caught.
#[test]
fn a_changed_bit_is_caught() {
    let files = committed("results/ablation-D10-seed1");
    let rows = load_runs(Path::new(&files[0])).unwrap();
    let a = rows[0].clone();
    let mut b = a.clone();
    b.evals += 1;
    assert_ne!(fingerprint(&a), fingerprint(&b));
    let mut c = a.clone();
    c.checkpoints[0].checkpoint.best = constraint_handling::Snapshot {
        fitness: constraint_handling::Fitness::new(
            f64::from_bits(a.checkpoints[0].checkpoint.best.objective().to_bits() ^ 1),
            a.checkpoints[0].checkpoint.best.violation(),
        ),
        ..a.checkpoints[0].checkpoint.best
    };
    assert_ne!(fingerprint(&a), fingerprint(&c));
}

/// The same sample of the fast-path study (`--fast`: other normals and `sin`/`cos`).
#[test]
fn the_n10_fast_path_study_reproduces() {
    reproduce(
        "ablation",
        &["--runs", "1", "--threads", "2", "--fast"],
        &committed("results/fast-path-D10"),
        196,
        "Haswell",
    );
}

/// The arguments of a rerun of a sample of an N = 100 study: one run of each of
/// `variants` on C01 and C21, plus `extra`.
fn n100_sample<'a>(variants: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--dim",
        "100",
        "--runs",
        "1",
        "--problems",
        "1,21",
        "--variants",
        variants,
        "--plot-problems",
        "1",
        "--threads",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

/// Four runs of the committed N = 100 ablation (εMAg-ES and εMA-ES on C01 and C21; the
/// canonical Haswell kernel).
#[test]
fn the_n100_ablation_reproduces() {
    reproduce(
        "ablation",
        &n100_sample("eps-mag-es,eps-ma-es", &[]),
        &committed("results/ablation-D100"),
        4,
        "Haswell",
    );
}

/// Two runs of the committed N = 100 fast-path study (εMAg-ES, `--fast`, C01 and C21).
#[test]
fn the_n100_fast_path_study_reproduces() {
    reproduce(
        "ablation",
        &n100_sample("eps-mag-es", &["--fast"]),
        &committed("results/fast-path-D100"),
        2,
        "Haswell",
    );
}

/// The same four runs of the earlier N = 100 study, computed with the Cooperlake
/// kernels (`results/ablation-D100-cooperlake/`), on CPUs with AVX-512.
#[test]
fn the_n100_cooperlake_ablation_reproduces() {
    reproduce(
        "ablation",
        &n100_sample("eps-mag-es,eps-ma-es", &[]),
        &committed("results/ablation-D100-cooperlake"),
        4,
        "Cooperlake",
    );
}

/// Runs of the N = 100 λ study as far as it is committed (`results/lambda-D100/`,
/// Haswell): run 0 of λ = 3 on C01 (μ = 1, where the back-calculation takes the
/// pseudo-inverse) and of λ = 2000 on C07, both in shard 1.
#[test]
fn the_n100_lambda_study_reproduces() {
    for (value, problem) in [("3", "1"), ("2000", "7")] {
        reproduce(
            "parameter_study",
            &[
                "--param",
                "lambda",
                "--dim",
                "100",
                "--values",
                value,
                "--problems",
                problem,
                "--runs",
                "1",
                "--threads",
                "1",
            ],
            &committed("results/lambda-D100"),
            1,
            "Haswell",
        );
    }
}

/// The first run of each of the 30 problems of dimension ≤ 22 of the committed CEC2020
/// real-world study (εMAg-ES with T scaled, the competition's budgets): rerun through
/// `examples/cec2020_rw.rs` and compared with the committed records, bit for bit.
#[test]
fn the_cec2020_rw_study_reproduces() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    let results = root().join("results/cec2020-rw");
    let mut by_key = BTreeMap::new();
    for r in cec2020_runs(&results, true) {
        assert!(r
            .platform
            .as_deref()
            .is_some_and(|p| p.starts_with("openblas Haswell;")));
        by_key.insert(r.key(), r);
    }
    let problems: Vec<usize> = cec2020_rw::catalog::all()
        .iter()
        .filter(|p| p.dim <= 22)
        .map(|p| p.id)
        .collect();
    assert_eq!(problems.len(), 30);
    let list = problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let rerun = rerun_cec2020(
        &["--runs", "1", "--threads", "2", "--problems", &list],
        run_as,
    );
    assert_eq!(rerun.len(), 30);
    let differ: Vec<String> = rerun
        .iter()
        .filter_map(|r| {
            let c = by_key
                .get(&r.key())
                .unwrap_or_else(|| panic!("no committed record for {:?}", r.key()));
            (fingerprint(c) != fingerprint(r)).then(|| {
                format!(
                    "{:?}\n  committed {}\n  rerun     {}",
                    r.key(),
                    fingerprint(c),
                    fingerprint(r)
                )
            })
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{} of 30 reruns differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    println!("reproduced 30 committed CEC2020 runs bit for bit with OpenBLAS {run_as}");
}

/// The Levenberg–Marquardt studies computed before the reduced solve replay with
/// `lm-solve=full`: the first three runs of each problem of dimension 3 (RC09, RC17) of
/// the committed candidate-C1 training study
/// (`results/strategy-design/round3/lm-f1p20-box-best-exact-odd/D003`, exact Jacobians),
/// bit for bit. `lm-solve` is not part of the seed's label, so the rerun's seeds are
/// the committed ones.
#[test]
fn the_levenberg_marquardt_studies_replay_with_the_full_solve() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    let study = root().join("results/strategy-design/round3/lm-f1p20-box-best-exact-odd");
    let committed: BTreeMap<_, _> = load_runs(&study.join("D003/runs.jsonl.gz"))
        .unwrap()
        .into_iter()
        .map(|r| ((r.problem, r.run), r))
        .collect();
    assert_eq!(committed.len(), 50, "RC09 and RC17, 25 runs each");
    let variant = "eps-mag-es-r:repair=levenberg-marquardt:lm-frequency=1:lm-probability=20%:lm-best=on:lm-scaling=box:lm-solve=full";
    let rerun = rerun_cec2020(
        &[
            "--variant",
            variant,
            "--jacobian",
            "exact",
            "--problems",
            "9,17",
            "--runs",
            "3",
            "--threads",
            "1",
        ],
        run_as,
    );
    assert_eq!(rerun.len(), 6);
    for r in &rerun {
        assert!(r.config.contains(":lm-solve=full:"), "{}", r.config);
        let c = &committed[&(r.problem, r.run)];
        assert_eq!(
            c.config,
            r.config.replace(":lm-solve=full", ""),
            "the same configuration otherwise"
        );
        assert_same_run(c, r);
    }
    println!(
        "replayed {} committed Levenberg-Marquardt runs bit for bit with lm-solve=full, OpenBLAS {run_as}",
        rerun.len()
    );
}

/// The frozen portfolio's black-box runs repeat: the first three runs of each CEC2020
/// problem of dimension at most 7 of the committed `portfolio-share0` test
/// (`results/strategy-design/round4/test-cec2020-bb`, 21 problems), bit for bit — the
/// portfolio's ask and tell carries request kinds and exact Jacobians since, and a black
/// box must not notice.
#[test]
fn the_frozen_portfolios_cec2020_runs_repeat() {
    let Some(run_as) = kernel_here("Haswell") else {
        return;
    };
    let study = root().join("results/strategy-design/round4/test-cec2020-bb");
    let committed: BTreeMap<_, _> = cec2020_runs(&study, true)
        .into_iter()
        .filter(|r| r.dim <= 7 && r.run < 3)
        .map(|r| (r.key(), r))
        .collect();
    assert_eq!(committed.len(), 63, "21 problems × 3 runs");
    let problems: std::collections::BTreeSet<usize> =
        committed.values().map(|r| r.problem).collect();
    let list = problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let rerun = rerun_cec2020(
        &[
            "--with",
            "portfolio-share0",
            "--problems",
            &list,
            "--runs",
            "3",
            "--threads",
            "2",
        ],
        run_as,
    );
    assert_eq!(rerun.len(), 63);
    for r in &rerun {
        let c = committed
            .get(&r.key())
            .unwrap_or_else(|| panic!("no committed record for {:?}", r.key()));
        assert_same_run(c, r);
    }
    println!(
        "reproduced {} committed portfolio-share0 CEC2020 runs bit for bit with OpenBLAS {run_as}",
        rerun.len()
    );
}
