//! Reruns of committed studies: the kernel a rerun runs with, the fields it must
//! reproduce bit for bit, and the CEC2020 example run into a fresh folder.

use super::{cec2020_runs, example};
use constraint_handling::linalg::kernel::{cpu_has_avx2_fma, BlasKernel, CORETYPE_VARIABLE};
use emages_harness::study::store::RunRow;
use std::process::Command;

/// The kernel family a rerun of a study computed with `kernel` runs with here: the same
/// family, or one with the same double-precision kernels (`SkylakeX` for `Cooperlake`,
/// whose kernels differ only in bfloat16); `None` (with the reason printed) if this CPU
/// cannot run either.
pub fn kernel_here(kernel: &str) -> Option<&'static str> {
    if BlasKernel::current().is_none() {
        println!("skipped: the BLAS provider is not the system OpenBLAS");
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl");
        let choice = match kernel {
            "Haswell" => cpu_has_avx2_fma().then_some("Haswell"),
            "Cooperlake" if avx512 && has!("avx512bf16") => Some("Cooperlake"),
            "Cooperlake" | "SkylakeX" if avx512 => Some("SkylakeX"),
            _ => None,
        };
        if choice.is_none() {
            println!("skipped: this CPU cannot run OpenBLAS's {kernel} kernels, with which the study was computed");
        }
        choice
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        println!("skipped: OpenBLAS's {kernel} kernels, with which the study was computed, are x86-64 kernels");
        None
    }
}

/// The fields a rerun must reproduce, with the reals as bits.
pub fn fingerprint(r: &RunRow) -> String {
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

/// The committed record `c` in the words a rerun `r` records: a restart sequence
/// whose last run stalled was recorded `observer` before the reasons were told apart;
/// it ended at the budget (or stalled at the end of its schedule), as the rerun says.
/// Every other field stays as committed.
pub fn as_recorded_now(c: &RunRow, r: &RunRow) -> RunRow {
    let mut c = c.clone();
    let now = r.termination.to_string();
    if c.termination.to_string() == "observer" && (now == "budget" || now == "stalled") {
        c.termination = r.termination.clone();
    }
    c
}

/// A CEC2020 rerun `r` is its committed record `c`, field for field ([`fingerprint`]).
pub fn assert_same_run(c: &RunRow, r: &RunRow) {
    let c = &as_recorded_now(c, r);
    assert_eq!(
        fingerprint(c),
        fingerprint(r),
        "RC{:02} run {}",
        r.problem,
        r.run
    );
}

/// Runs `examples/cec2020_rw.rs` with `args` into a fresh folder under the OpenBLAS
/// kernel family `run_as`, and returns its run records.
pub fn rerun_cec2020(args: &[&str], run_as: &str) -> Vec<RunRow> {
    rerun_example("cec2020_rw", args, run_as)
}

/// Runs example `name` with `args --no-progress --out TMP` under the OpenBLAS kernel
/// family `run_as`, and returns its run records: `TMP/runs.jsonl` and every dimension
/// group's (`TMP/D*/runs*`).
pub fn rerun_example(name: &str, args: &[&str], run_as: &str) -> Vec<RunRow> {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(example(name))
        .args(args)
        .args(["--no-progress", "--out"])
        .arg(dir.path())
        .env(CORETYPE_VARIABLE, run_as)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut rows =
        emages_harness::study::store::load_runs(&dir.path().join("runs.jsonl")).unwrap_or_default();
    rows.extend(cec2020_runs(dir.path(), false));
    rows
}
