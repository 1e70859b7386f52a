//! How closely this build replays the reference trajectories.
//!
//! ```sh
//! # every fixture: the largest deviation over its compared window, as a multiple of the
//! # tolerance 1e-6·max(|a|, |b|) + 1e-9 (below 1 passes), worst first
//! cargo run --release -p ma-es --example replay_check
//! # one fixture: the relative deviation of each traced quantity, generation by generation
//! cargo run --release -p ma-es --example replay_check -- ../shared/fixtures/replay/epsMAgES_C12_D10_s12345.jsonl
//! ```
//!
//! Add `pinv` to use the pseudo-inverse back-calculation everywhere, `fast` to evaluate
//! populations with the fast `sin`/`cos` (`Fidelity::Fast`, the studies' `--fast`;
//! the noise is the reference's either way). The fixtures come
//! from `MAES_REPLAY_DIR` (default `../shared/fixtures/replay`), the instance data from
//! `CEC2017_DATA_DIR` (default `../shared/cec2017/text`). Useful to see how a BLAS
//! build's rounding (e.g. `OPENBLAS_CORETYPE`) moves the chaotic trajectories.

#[path = "../tests/support/fixture.rs"]
mod fixture;

use cec2017_constrained::{Fidelity, Suite};
use constraint_handling::linalg::kernel;
use fixture::{deviation, parse_line, reals, traced, Header};
use ma_es::ask_tell::reports;
use ma_es::noise::ReplayNoise;
use ma_es::observer::GenerationReport;
use ma_es::{BackCalculationSolver, Options};
use serde_json::Value;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

fn fail(msg: String) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1)
}

/// The lines of a fixture (header first).
fn load(path: &Path) -> Vec<Value> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse_line(l).unwrap_or_else(|e| fail(format!("{}: {e}", path.display()))))
        .collect()
}

/// Replays a fixture, calling `visit(expected line, report)` for every trace line.
fn replay(
    path: &Path,
    rows: &[Value],
    suite: &Suite,
    (pinv, fast): (bool, bool),
    visit: &mut dyn FnMut(&Value, &GenerationReport<'_>),
) {
    let header: Header = serde_json::from_value(rows[0].clone())
        .unwrap_or_else(|e| fail(format!("{}: header: {e}", path.display())));
    let problem = suite
        .problem(header.problem, header.dim)
        .unwrap_or_else(|e| fail(e.to_string()))
        .with_fidelity(if fast {
            Fidelity::Fast
        } else {
            Fidelity::Exact
        });
    let variant = header.variant().unwrap_or_else(|e| fail(e));
    let solver = if pinv {
        BackCalculationSolver::PseudoInverse
    } else {
        BackCalculationSolver::default()
    };
    let plan = Options::new(variant)
        .config(header.config(solver))
        .limits(header.limits())
        .to_the_end()
        .build_for(&problem)
        .unwrap_or_else(|e| fail(e.to_string()));
    let mut obs = reports(|r: &GenerationReport<'_>| {
        if let Some(e) = rows.get(r.generation + 1).filter(|e| e.get("g").is_some()) {
            visit(e, r);
        }
        ControlFlow::Continue(())
    });
    plan.run_with(&problem, ReplayNoise::new(header.seed), &mut obs)
        .unwrap_or_else(|e| fail(e.to_string()));
}

fn main() {
    // The canonical OpenBLAS kernel unless OPENBLAS_CORETYPE names another one.
    canonical_kernel::at_program_start();
    if let Some(k) = kernel::BlasKernel::current() {
        eprintln!("OpenBLAS kernel: {k}");
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pinv = args.iter().any(|a| a == "pinv");
    let fast = args.iter().any(|a| a == "fast");
    let file = args.iter().find(|a| *a != "pinv" && *a != "fast");
    let data =
        std::env::var("CEC2017_DATA_DIR").unwrap_or_else(|_| "../shared/cec2017/text".into());
    let suite = Suite::official(&data).unwrap_or_else(|e| fail(e.to_string()));
    let rel = |a: f64, b: f64| {
        if a == b || (a.is_nan() && b.is_nan()) {
            0.0
        } else {
            (a - b).abs() / a.abs().max(b.abs())
        }
    };

    if let Some(file) = file {
        let path = Path::new(file);
        replay(path, &load(path), &suite, (pinv, fast), &mut |e, r| {
            let deviations: Vec<String> = traced(r)
                .iter()
                .map(|(k, v)| {
                    let d = reals(&e[*k])
                        .iter()
                        .zip(v)
                        .map(|(a, b)| rel(*a, *b))
                        .fold(0.0f64, f64::max);
                    format!("{k} {d:.1e}")
                })
                .collect();
            println!(
                "g={:3} evals {}/{} best_evals {}/{}  {}",
                r.generation,
                r.evaluations,
                e["evals"],
                r.best.found_at(),
                e["best_evals"],
                deviations.join("  ")
            );
        });
        return;
    }
    let dir =
        std::env::var("MAES_REPLAY_DIR").unwrap_or_else(|_| "../shared/fixtures/replay".into());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| fail(format!("{dir}: {e}")))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut margins = Vec::new();
    for f in files {
        let rows = load(&f);
        let window = rows[0]["compare_generations"].as_u64().unwrap_or(1) as usize;
        let mut margin: f64 = 0.0;
        replay(&f, &rows, &suite, (pinv, fast), &mut |e, r| {
            if r.generation >= window {
                return;
            }
            for (k, v) in traced(r) {
                for (a, b) in reals(&e[k]).iter().zip(&v) {
                    margin = margin.max(deviation(*a, *b));
                }
            }
        });
        margins.push((
            margin,
            f.file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default(),
        ));
    }
    margins.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (m, n) in &margins {
        println!("{m:7.3}  {n}");
    }
}
