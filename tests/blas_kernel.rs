//! The OpenBLAS kernel a newcomer's machine runs with: the workspace's programs and its
//! cargo runner select the canonical AVX2/FMA kernels when OpenBLAS falls back to its
//! pre-FMA ones on a CPU it does not know, respect a kernel the user chose, warn about
//! a misspelt one, and every run record names the kernel that ran.
//!
//! The fallback is simulated for real: `OPENBLAS_CORETYPE=Prescott` loads OpenBLAS's
//! pre-FMA kernels into the started program, and `EMAGES_SIMULATE_KERNEL_FALLBACK=1`
//! makes that count as OpenBLAS's own choice rather than the user's, as on a CPU newer
//! than the installed OpenBLAS. The programs are started directly (not through cargo's
//! runner), so the correction seen is the program's own.

mod support;
use support::*;

use constraint_handling::linalg::kernel::{
    cpu_has_avx2_fma, CANONICAL_KERNEL, CORETYPE_VARIABLE, SIMULATE_FALLBACK_VARIABLE,
};
use std::path::Path;
use std::process::{Command, Output};

/// A one-run study (C01, N = 10, εMAg-ES, 500 evaluations) with the given kernel
/// environment; returns the process output and the recorded `platform`.
fn tiny_study(env: &[(&str, &str)]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut cmd = Command::new(example("ablation"));
    cmd.args([
        "--runs",
        "1",
        "--problems",
        "1",
        "--variants",
        "eps-mag-es",
        "--budget-per-dim",
        "50",
        "--plot-problems",
        "1",
        "--threads",
        "1",
        "--no-progress",
        "--data",
        &data_dir(),
        "--out",
    ])
    .arg(&out)
    .env_remove(CORETYPE_VARIABLE)
    .env_remove(SIMULATE_FALLBACK_VARIABLE)
    .env_remove("OPENBLAS_NUM_THREADS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "study failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let platform = platform_of(&out.join("runs.jsonl"));
    (output, platform)
}

fn platform_of(runs: &Path) -> String {
    let text = std::fs::read_to_string(runs).unwrap();
    let first = text.lines().next().expect("one record");
    let v: serde_json::Value = serde_json::from_str(first).unwrap();
    v["platform"].as_str().expect("platform field").to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether this CPU can show the behaviour (the canonical kernel needs AVX2 and FMA).
fn fma_cpu() -> bool {
    let yes = cpu_has_avx2_fma();
    if !yes {
        println!("this CPU has no AVX2/FMA: OpenBLAS's own choice stays, nothing to correct");
    }
    yes
}

#[test]
fn a_fallback_kernel_is_replaced_by_the_canonical_one() {
    if !fma_cpu() {
        return;
    }
    let (out, platform) = tiny_study(&[
        (CORETYPE_VARIABLE, "Prescott"),
        (SIMULATE_FALLBACK_VARIABLE, "1"),
    ]);
    assert!(
        platform.starts_with(&format!("openblas {CANONICAL_KERNEL};")),
        "recorded platform {platform:?}"
    );
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    println!("simulated Prescott fallback: the run recorded {platform:?}");
}

/// Not a test by itself: builds two strategies and a CEC problem the way a program that
/// links the crates does (no restart), for [`a_program_that_links_the_crates_gets_one_warning`]
/// to run in a process of its own.
#[test]
#[ignore = "run by a_program_that_links_the_crates_gets_one_warning in a child process"]
fn child_builds_strategies_without_restarting() {
    use constraint_handling::FnProblem;
    use ma_es::{Options, Variant};
    let suite = cec2017_constrained::Suite::official(data_dir()).unwrap();
    let _c01 = suite.problem(1, 10).unwrap();
    for _ in 0..2 {
        let p = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 1, 0, |x, c| {
            c[0] = x[0];
            Ok(x[1])
        })
        .unwrap();
        Options::new(Variant::EpsMagEs).build_for(&p).unwrap();
    }
}

#[test]
fn a_program_that_links_the_crates_gets_one_warning() {
    if !fma_cpu() {
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "child_builds_strategies_without_restarting",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CORETYPE_VARIABLE, "Prescott")
        .env(SIMULATE_FALLBACK_VARIABLE, "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "one warning per process: {err}");
    assert!(
        warnings[0].contains("`Prescott`") && warnings[0].contains("OPENBLAS_CORETYPE=Haswell"),
        "{}",
        warnings[0]
    );
}

#[test]
fn the_users_kernel_is_respected_and_recorded() {
    if !fma_cpu() {
        return;
    }
    let (out, platform) = tiny_study(&[(CORETYPE_VARIABLE, "Sandybridge")]);
    assert!(
        platform.starts_with("openblas Sandybridge;"),
        "recorded platform {platform:?}"
    );
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

#[test]
fn a_misspelt_kernel_gets_one_warning_line() {
    let (out, platform) = tiny_study(&[(CORETYPE_VARIABLE, "Hasswell")]);
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("OPENBLAS_CORETYPE=Hasswell names no kernel"),
        "{err}"
    );
    // The record says what really ran.
    let ran = platform
        .strip_prefix("openblas ")
        .and_then(|p| p.split(';').next())
        .unwrap();
    assert!(
        warnings[0].contains(&format!("`{ran}`")),
        "{err} / {platform}"
    );
}

/// The cargo runner (scripts/openblas-kernel) applies the same rule before a program
/// starts: `cargo test`, `cargo run` and `cargo bench` go through it.
#[test]
fn the_cargo_runner_selects_the_canonical_kernel_unless_the_user_chose() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openblas-kernel");
    let config =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".cargo/config.toml"))
            .unwrap();
    assert!(config.contains("runner = \"scripts/openblas-kernel\""));
    let run = |env: &[(&str, &str)]| -> String {
        let mut cmd = Command::new(&script);
        cmd.args([
            "sh",
            "-c",
            "echo \"${OPENBLAS_CORETYPE:-unset} ${OPENBLAS_NUM_THREADS:-unset} ${EMAGES_SIMULATE_KERNEL_FALLBACK:-unset}\"",
        ])
        .env_remove(CORETYPE_VARIABLE)
        .env_remove(SIMULATE_FALLBACK_VARIABLE)
        .env_remove("OPENBLAS_NUM_THREADS");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap().trim().to_string()
    };
    let canonical = if cfg!(target_arch = "x86_64") && cpu_has_avx2_fma() {
        CANONICAL_KERNEL
    } else {
        "unset"
    };
    assert_eq!(run(&[]), format!("{canonical} 1 unset"));
    assert_eq!(
        run(&[
            (CORETYPE_VARIABLE, "Prescott"),
            (SIMULATE_FALLBACK_VARIABLE, "1")
        ]),
        format!("{canonical} 1 unset")
    );
    assert_eq!(
        run(&[
            (CORETYPE_VARIABLE, "SkylakeX"),
            ("OPENBLAS_NUM_THREADS", "2")
        ]),
        "SkylakeX 2 unset"
    );
}
