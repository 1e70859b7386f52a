//! One run of a variant on a CEC2017 problem, with its wall time and the OpenBLAS kernel
//! it ran with.
//!
//! ```sh
//! cargo run --release -p ma-es --example single_run -- [PROBLEM] [DIM] [VARIANT] [SEED] [exact|fast]
//! ```
//!
//! Defaults: C01, N = 10, `eps-mag-es`, seed 1, budget 20000·N, the exact path (`fast`:
//! `FastNoise` normals and `Fidelity::Fast` evaluation, as the studies' `--fast`). The
//! instance data comes from `CEC2017_DATA_DIR` (default `../shared/cec2017/text`).

use cec2017_constrained::{Fidelity, Suite};
use constraint_handling::linalg::kernel::{self, BlasKernel};
use ma_es::noise::{FastNoise, NoiseSource, RngNoise};
use ma_es::{Options, Variant};
use std::time::Instant;

fn main() {
    // The canonical OpenBLAS kernel unless OPENBLAS_CORETYPE says otherwise (restarts
    // the program when OpenBLAS picked another one).
    canonical_kernel::at_program_start();
    // One BLAS thread, as in the studies (the products' bits depend on the count).
    kernel::set_num_threads(1);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let fail = |msg: String| -> ! {
        eprintln!("error: {msg}");
        std::process::exit(2)
    };
    let problem: usize = arg(0, "1")
        .parse()
        .unwrap_or_else(|e| fail(format!("problem: {e}")));
    let dim: usize = arg(1, "10")
        .parse()
        .unwrap_or_else(|e| fail(format!("dimension: {e}")));
    let variant: Variant = arg(2, "eps-mag-es")
        .parse()
        .unwrap_or_else(|e| fail(format!("{e}")));
    let seed: u64 = arg(3, "1")
        .parse()
        .unwrap_or_else(|e| fail(format!("seed: {e}")));
    let fast = match arg(4, "exact").as_str() {
        "exact" => false,
        "fast" => true,
        other => fail(format!("path: expected exact or fast, got {other}")),
    };
    let data =
        std::env::var("CEC2017_DATA_DIR").unwrap_or_else(|_| "../shared/cec2017/text".into());
    let suite = Suite::official(&data).unwrap_or_else(|e| fail(e.to_string()));
    let p = suite
        .problem(problem, dim)
        .unwrap_or_else(|e| fail(e.to_string()))
        .with_fidelity(if fast {
            Fidelity::Fast
        } else {
            Fidelity::Exact
        });
    let mut noise: Box<dyn NoiseSource> = if fast {
        Box::new(FastNoise::seed_from_u64(seed))
    } else {
        Box::new(RngNoise::seed_from_u64(seed))
    };
    // The paper's single run, to the default budget of 20 000 N evaluations.
    let plan = Options::new(variant)
        .to_the_end()
        .seed(seed)
        .build_for(&p)
        .unwrap_or_else(|e| fail(e.to_string()));
    let mut es = plan
        .strategy(&mut *noise)
        .unwrap_or_else(|e| fail(e.to_string()));
    let start = Instant::now();
    emages_solver::Driver::new(&mut es)
        .run(&p)
        .unwrap_or_else(|e| fail(e.to_string()));
    let r = es.result();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "C{problem:02} N={dim} {variant} ({} path, OpenBLAS {}): f = {:.6e}, ν̄ = {:.3e}, {} evaluations, {} generations, {:.3} s ({:?})",
        if fast { "fast" } else { "exact" },
        BlasKernel::current().map_or_else(|| "unknown".to_string(), |k| k.to_string()),
        r.best.objective(),
        r.best.violation(),
        r.evaluations,
        r.generations,
        secs,
        es.components().back_calculation.stats()
    );
}
