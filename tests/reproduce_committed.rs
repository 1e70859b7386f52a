//! The committed studies reproduce on this machine, bit for bit: a sample of each
//! committed study is run again with the same seeds and configuration, and every rerun
//! must equal its committed record in the seed, the final best-so-far (f, ν̄, the
//! evaluation that found it), the evaluations, generations, termination and every
//! checkpoint (the wall time and the `platform` text aside).
//!
//! Every committed study was computed with OpenBLAS's `Haswell` kernels (the canonical
//! kernel, docs/reproduction.md, "Which kernel, which numbers"); the trajectories are
//! chaotic, so this holds under that kernel only. `cargo test` gets it on every CPU with
//! AVX2 and FMA (scripts/openblas-kernel); where the CPU cannot run it, or the user chose
//! another kernel with `OPENBLAS_CORETYPE`, the comparison is skipped and says why.

mod support;
use support::*;

use constraint_handling::linalg::kernel::{BlasKernel, CANONICAL_KERNEL, CORETYPE_VARIABLE};
use emages::study::store::{load_runs, RunRow};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether the example programs started from this test run the canonical kernel: they
/// restart with it unless `OPENBLAS_CORETYPE` names another one, and need AVX2/FMA.
fn canonical_kernel_here() -> bool {
    let Some(k) = BlasKernel::current() else {
        println!("skipped: the BLAS provider is not the system OpenBLAS");
        return false;
    };
    if !k.cpu_has_avx2_fma() {
        println!(
            "skipped: this CPU cannot run OpenBLAS's {CANONICAL_KERNEL} kernels, with which \
             the committed studies were computed"
        );
        return false;
    }
    match std::env::var(CORETYPE_VARIABLE) {
        Ok(v) if !v.eq_ignore_ascii_case(CANONICAL_KERNEL) => {
            println!(
                "skipped: {CORETYPE_VARIABLE}={v} selects other kernels than the committed \
                 studies' {CANONICAL_KERNEL}"
            );
            false
        }
        _ => true,
    }
}

/// The fields a rerun must reproduce, with the reals as bits.
fn fingerprint(r: &RunRow) -> String {
    let b = |x: f64| format!("{:016x}", x.to_bits());
    let mut s = format!(
        "seed {} best f {} v {} found {:?} evals {} generations {} termination {}",
        r.seed,
        b(r.best.objective()),
        b(r.best.violation()),
        r.best.found_at,
        r.evals,
        r.generations,
        r.termination
    );
    for c in &r.checkpoints {
        s += &format!(
            " | {} at {}: f {} v {}",
            c.fraction,
            c.checkpoint.evaluations,
            b(c.checkpoint.best.objective()),
            b(c.checkpoint.best.violation())
        );
    }
    s
}

/// Runs `example args --out TMP` and compares every run it records with the committed
/// record of the same configuration, problem and run index in `committed`.
fn reproduce(example_name: &str, args: &[&str], committed: &[PathBuf], expect: usize) {
    if !canonical_kernel_here() {
        return;
    }
    let mut by_key = BTreeMap::new();
    for f in committed {
        for r in load_runs(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())) {
            assert!(
                r.platform
                    .as_deref()
                    .is_none_or(|p| p.starts_with(&format!("openblas {CANONICAL_KERNEL};"))),
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
                .is_some_and(|p| p.starts_with(&format!("openblas {CANONICAL_KERNEL};"))),
            "the rerun did not run the canonical kernel: {:?}",
            r.platform
        );
        let c = by_key
            .get(&r.key())
            .unwrap_or_else(|| panic!("no committed record for {:?}", r.key()));
        if fingerprint(c) != fingerprint(r) {
            differ.push(format!(
                "{:?}\n  committed {}\n  rerun     {}",
                r.key(),
                fingerprint(c),
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
    println!(
        "reproduced {} committed runs bit for bit ({example_name} {}) with OpenBLAS {CANONICAL_KERNEL}",
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
    );
}
