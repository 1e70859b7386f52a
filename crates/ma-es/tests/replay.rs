//! Replays every trajectory of the reference implementation in `MAES_REPLAY_DIR`
//! (default `../shared/fixtures/replay`) with the replay noise source and the official
//! instance data of `CEC2017_DATA_DIR` (default `../shared/cec2017/text`), comparing the
//! header's `compare_generations` leading trace lines with
//! `|a − b| ≤ 1e-6 · max(|a|, |b|) + 1e-9` (integers exactly), the run length of the
//! `_budget` fixtures, and their checkpoints where comparable.

#[path = "support/fixture.rs"]
mod fixture;

use cec2017_constrained::{Fidelity, Suite};
use constraint_handling::linalg::kernel::{BlasKernel, VERIFIED_KERNELS};
use emages_test_support::{cec2017_data, shared};
use fixture::{close, parse_line, real, reals, traced, Header};
use ma_es::ask_tell::reports;
use ma_es::noise::ReplayNoise;
use ma_es::observer::GenerationReport;
use ma_es::{BackCalculationSolver, Options};
use serde_json::Value;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// What the observer saw after the initialisation and after each generation.
struct Line {
    g: usize,
    evals: usize,
    best_evals: usize,
    reals: Vec<(&'static str, Vec<f64>)>,
}

fn line_of(r: &GenerationReport<'_>) -> Line {
    Line {
        g: r.generation,
        evals: r.evaluations,
        best_evals: r.best.found_at(),
        reals: traced(r),
    }
}

/// How many leading trace lines of each fixture this process's BLAS kernel can be held
/// to.
#[derive(Debug, Clone, PartialEq)]
enum Window {
    /// The fixture's own `compare_generations`: the kernel is one of the FMA families
    /// with which the windows are known to hold.
    Full,
    /// Only the first [`REDUCED_WINDOW`] lines (the initialisation and the first
    /// generations, before the chaos has amplified a rounding difference), because the
    /// kernel cannot hold the full windows: the reason.
    Reduced(String),
}

/// The lines every kernel reproduces (with OpenBLAS's pre-FMA kernels the earliest
/// departure from a window is at g = 3).
const REDUCED_WINDOW: usize = 3;

/// The window the running OpenBLAS kernel can be held to; panics with the fix when
/// OpenBLAS fell back to a pre-FMA kernel on a CPU with FMA (the workspace's cargo
/// runner, scripts/openblas-kernel, prevents that: this test checks that it did).
fn window() -> Window {
    let Some(k) = BlasKernel::current() else {
        return Window::Reduced(
            "the BLAS provider is not the system OpenBLAS, whose FMA kernels the windows were \
             checked with"
                .into(),
        );
    };
    if let Some(w) = k.warning().filter(|_| k.is_fallback()) {
        panic!(
            "{w}. `cargo test` starts the tests through scripts/openblas-kernel \
             (.cargo/config.toml), which selects those kernels: was the test binary started \
             some other way?"
        );
    }
    if k.is_verified() {
        return Window::Full;
    }
    let why = if k.cpu_has_avx2_fma() {
        format!(
            "OPENBLAS_CORETYPE={} selects them",
            k.requested().unwrap_or("?")
        )
    } else {
        "this CPU has no AVX2/FMA (or is not x86-64)".to_string()
    };
    Window::Reduced(format!(
        "OpenBLAS runs its `{}` kernels ({why}); the comparison windows hold with its FMA \
         kernels {VERIFIED_KERNELS:?} only: the trajectories are chaotic (the repair's \
         forward differences amplify last-bit differences by 1/η = 1e4) and these kernels \
         round the SVD inside the repair differently (docs/deviations.md, \
         \"Floating-point agreement\")",
        k.name()
    ))
}

/// Replays one fixture; returns the number of trace lines compared, or the mismatches.
fn replay(
    path: &Path,
    suite: &Suite,
    solver: BackCalculationSolver,
    fidelity: Fidelity,
    window: &Window,
) -> Result<usize, Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Header =
        serde_json::from_str(lines.next().expect("header")).expect("header format");
    let rest: Vec<Value> = lines
        .map(|l| parse_line(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect();
    let (trace, tail): (Vec<&Value>, Vec<&Value>) = rest.iter().partition(|v| v.get("g").is_some());
    assert_eq!(
        trace.len(),
        header.trace_lines,
        "{}: trace_lines",
        path.display()
    );

    let variant = header.variant().expect("variant name");
    let problem = suite
        .problem(header.problem, header.dim)
        .expect("problem")
        .with_fidelity(fidelity);
    let config = header.config(solver);
    let plan = Options::new(variant)
        .config(config)
        .limits(header.limits())
        .to_the_end()
        .build_for(&problem)
        .expect("strategy");
    let mut seen = Vec::new();
    let mut observer = reports(|r: &GenerationReport<'_>| {
        seen.push(line_of(r));
        ControlFlow::Continue(())
    });
    let result = plan
        .run_with(&problem, ReplayNoise::new(header.seed), &mut observer)
        .expect("run");
    drop(observer);

    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut errors = Vec::new();
    let mut count = header.compare_generations.max(1).min(trace.len());
    if *window != Window::Full {
        count = count.min(REDUCED_WINDOW);
    }
    for (expected, got) in trace.iter().take(count).zip(&seen) {
        let g = expected["g"].as_u64().unwrap() as usize;
        let int = |key: &str| expected[key].as_u64().unwrap() as usize;
        for (key, want, have) in [
            ("g", g, got.g),
            ("evals", int("evals"), got.evals),
            ("best_evals", int("best_evals"), got.best_evals),
        ] {
            if want != have {
                errors.push(format!("{name} g={g}: {key} expected {want}, got {have}"));
            }
        }
        for (key, have) in &got.reals {
            let want = reals(&expected[*key]);
            if want.len() != have.len() || want.iter().zip(have).any(|(a, b)| !close(*a, *b)) {
                errors.push(format!(
                    "{name} g={g}: {key} expected {want:?}, got {have:?}"
                ));
            }
        }
        if !errors.is_empty() {
            break;
        }
    }
    if seen.len() < count {
        errors.push(format!(
            "{name}: the run produced {} trace lines, {count} expected",
            seen.len()
        ));
    }
    if path.to_string_lossy().contains("_budget") && *window == Window::Full {
        if result.generations != header.trace_lines - 1 {
            errors.push(format!(
                "{name}: the run ended after {} generations, expected {}",
                result.generations,
                header.trace_lines - 1
            ));
        }
        if header.checkpoints_comparable == Some(true) {
            let expected = tail
                .iter()
                .find_map(|v| v.get("checkpoints"))
                .and_then(Value::as_array)
                .expect("checkpoint line");
            assert_eq!(expected.len(), 3);
            for (e, got) in expected.iter().zip(&result.checkpoints) {
                let c: Vec<u32> = e["c"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
                    .collect();
                if !close(real(&e["f"]), got.best.objective())
                    || !close(real(&e["violation"]), got.best.violation())
                    || c != got.best.counts.as_array()
                {
                    errors.push(format!(
                        "{name}: checkpoint at {} evaluations expected {e}, got {got:?}",
                        got.evaluations
                    ));
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(count)
    } else {
        Err(errors)
    }
}

fn replay_all(solver: BackCalculationSolver, fidelity: Fidelity) -> (usize, usize) {
    let dir = shared("MAES_REPLAY_DIR", "fixtures/replay");
    let suite = Suite::official(cec2017_data()).expect("instance data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no replay fixtures in {}", dir.display());
    let window = window();
    if let Window::Reduced(why) = &window {
        eprintln!(
            "NOTE: each fixture is compared over its first {REDUCED_WINDOW} trace lines only: {why}."
        );
    }
    let (mut fixtures, mut lines, mut failures) = (0, 0, Vec::new());
    for f in &files {
        match replay(f, &suite, solver, fidelity, &window) {
            Ok(n) => {
                fixtures += 1;
                lines += n;
            }
            Err(e) => failures.extend(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches (OpenBLAS kernel {}):\n{}\n\nThe trajectories are chaotic: the repair's \
         forward differences amplify last-bit differences by 1/η = 1e4. If only the last \
         compared generations of a few fixtures miss, suspect the BLAS kernels' rounding; \
         `cargo run --release -p ma-es --example replay_check` shows each fixture's margin.",
        failures.len(),
        kernel_name(),
        failures.join("\n")
    );
    eprintln!("OpenBLAS kernel: {}", kernel_name());
    (fixtures, lines)
}

fn kernel_name() -> String {
    BlasKernel::current().map_or_else(|| "unknown".into(), |k| k.to_string())
}

#[test]
fn replay_fixtures() {
    let (fixtures, lines) = replay_all(BackCalculationSolver::default(), Fidelity::Exact);
    println!("replayed {fixtures} fixtures, {lines} trace lines compared");
}

/// The fast path's `sin`/`cos` (`Fidelity::Fast`, not the libm's bits) stay within
/// every comparison window too (docs/performance.md: worst margin 0.67 against 0.86 on
/// the exact path); the fast path's other change, its normals, cannot be replayed.
#[test]
fn replay_fixtures_with_the_fast_sin_cos() {
    let (fixtures, lines) = replay_all(BackCalculationSolver::default(), Fidelity::Fast);
    println!("replayed {fixtures} fixtures, {lines} trace lines compared (fast sin/cos)");
}

#[test]
fn replay_fixtures_with_the_pseudo_inverse_everywhere() {
    let (fixtures, lines) = replay_all(BackCalculationSolver::PseudoInverse, Fidelity::Exact);
    println!("replayed {fixtures} fixtures, {lines} trace lines compared (pseudo-inverse back-calculation)");
}
