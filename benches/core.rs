//! Criterion benchmarks of the sampling/update core of the εMAg-ES and of the CEC2017
//! batch evaluation, at N ∈ {10, 30, 100} with λ = 4N.
//!
//! ```sh
//! cargo bench --bench core                 # everything
//! cargo bench --bench core -- generation   # one group
//! ```
//!
//! After the benchmarks, the ratio of one whole generation at N = 100 to the sum of its
//! unavoidable parts (`M Z`, the rank-μ product, the λ offspring evaluations), measured
//! in the same run, is printed (from criterion's saved estimates).

use cec2017_constrained::{BatchKernel, Cec2017Problem, Fidelity, Suite};
use constraint_handling::linalg::gemm;
use constraint_handling::ordering::{rank_epsilon_level_into, rank_into, EpsilonLevel};
use constraint_handling::ConstrainedProblem;
use criterion::{black_box, criterion_group, BenchmarkId, Criterion, Throughput};
use emages_solver::NoObserver;
use ma_es::adaptation::{MaUpdate, MatrixAdaptation, UpdateInput};
use ma_es::control::Limits;
use ma_es::linalg::SquareSolver;
use ma_es::noise::{FastNoise, NoiseSource, RngNoise};
use ma_es::BackCalculationSolver;
use ma_es::{Config, Options, Variant};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{s, Array1, Array2, ShapeBuilder};
use rand::{Rng, SeedableRng};
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;

const DIMS: [usize; 3] = [10, 30, 100];

fn suite() -> Suite {
    let dir = std::env::var("CEC2017_DATA_DIR").unwrap_or_else(|_| "../shared/cec2017/text".into());
    Suite::official(&dir).unwrap_or_else(|_| Suite::synthetic(2017))
}

fn normals(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
    let mut a = Array2::zeros((rows, cols).f());
    RngNoise::seed_from_u64(seed).fill_normal(a.as_slice_memory_order_mut().unwrap());
    a
}

/// A well-conditioned transformation like those the MA-ES produces: I + 0.3 · noise/√N.
fn matrix(n: usize) -> Array2<f64> {
    let mut m = normals(n, n, 7) * (0.3 / (n as f64).sqrt());
    for i in 0..n {
        m[[i, i]] += 1.0;
    }
    m
}

fn sampling(c: &mut Criterion) {
    let mut g = c.benchmark_group("sampling");
    for n in DIMS {
        let lambda = 4 * n;
        let mut z = Array2::<f64>::zeros((n, lambda).f());
        g.throughput(Throughput::Elements((n * lambda) as u64));
        // Through `dyn NoiseSource`, as the strategy calls them (nothing is inlined
        // into the benchmark's loop).
        let sources: [(&str, Box<dyn NoiseSource>); 2] = [
            ("ziggurat", Box::new(RngNoise::seed_from_u64(1))),
            ("fast", Box::new(FastNoise::seed_from_u64(1))),
        ];
        for (name, mut noise) in sources {
            g.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| noise.fill_normal(black_box(z.as_slice_memory_order_mut().unwrap())));
            });
        }
        // The same numbers as "ziggurat", one `sample` call per normal (RngNoise before
        // `fill_standard_normal`).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        g.bench_function(BenchmarkId::new("ziggurat_per_call", n), |b| {
            b.iter(|| {
                for x in black_box(z.as_slice_memory_order_mut().unwrap()) {
                    *x = rng.sample(StandardNormal);
                }
            });
        });
    }
    g.finish();
}

fn mz_product(c: &mut Criterion) {
    let mut g = c.benchmark_group("mz_product");
    for n in DIMS {
        let lambda = 4 * n;
        let m = matrix(n);
        let z = normals(n, lambda, 2);
        let mut d = Array2::<f64>::zeros((n, lambda).f());
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| gemm(1.0, &m.view(), &black_box(z.view()), 0.0, &mut d.view_mut()));
        });
    }
    g.finish();
}

fn back_calculation(c: &mut Criterion) {
    let mut g = c.benchmark_group("back_calculation");
    for n in DIMS {
        let mu = 4 * n / 3;
        let m = matrix(n);
        let d = normals(n, mu, 3);
        for (name, method) in [
            ("lu", BackCalculationSolver::default()),
            ("pinv", BackCalculationSolver::PseudoInverse),
        ] {
            let mut solver = SquareSolver::new(n, mu, method, 1e-12).unwrap();
            let mut block = d.clone();
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| {
                    solver.prepare(black_box(m.view()));
                    block.assign(&d);
                    solver.solve_in_place(block.view_mut())
                });
            });
        }
    }
    g.finish();
}

fn ranking(c: &mut Criterion) {
    let mut g = c.benchmark_group("ranking");
    for n in DIMS {
        let lambda = 4 * n;
        let mut u = vec![0.0; 2 * lambda];
        RngNoise::seed_from_u64(4).fill_uniform(&mut u);
        let f: Vec<f64> = u[..lambda].to_vec();
        // half feasible, half infeasible
        let v: Vec<f64> = u[lambda..].iter().map(|x| (x - 0.5).max(0.0)).collect();
        let mut perm = vec![0; lambda];
        g.bench_with_input(BenchmarkId::new("comparator", n), &n, |b, _| {
            b.iter(|| rank_into(&EpsilonLevel::new(0.1), black_box(&f), &v, &mut perm));
        });
        let mut keys = Vec::new();
        g.bench_with_input(BenchmarkId::new("keys", n), &n, |b, _| {
            b.iter(|| {
                rank_epsilon_level_into(
                    &EpsilonLevel::new(0.1),
                    black_box(&f),
                    &v,
                    &mut perm,
                    &mut keys,
                )
            });
        });
    }
    g.finish();
}

fn recombination_and_update(c: &mut Criterion) {
    let mut g = c.benchmark_group("recombination_update");
    for n in DIMS {
        let mu = 4 * n / 3;
        let params = Config::default().resolve(n).unwrap();
        let w = Array1::from(params.weights.clone());
        let d = normals(n, mu, 5);
        let z = normals(n, mu, 6);
        let m0 = matrix(n);
        let mut m = m0.clone();
        let mut p = Array1::from_elem(n, 0.1);
        let mut zw = Array1::zeros(n);
        let mut update = MaUpdate::new(n, mu);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                general_mat_vec_mul(1.0, &z, &w, 0.0, &mut zw);
                m.assign(&m0);
                update.adapt(
                    m.view_mut(),
                    p.view_mut(),
                    UpdateInput {
                        d: d.view(),
                        z: z.view(),
                        weights: w.as_slice().unwrap(),
                        c1: params.c1,
                        c_mu: params.c_mu,
                    },
                )
            });
        });
    }
    g.finish();
}

/// Problems in the batch benchmarks: three typical ones and the slowest at N = 100.
const BATCH_PROBLEMS: [usize; 4] = [1, 5, 21, 28];

/// 400 points (λ = 4N) through each batch kernel: the vectorised default and the
/// scalar path it replaced (same bits), side by side in the same run.
fn batch_evaluation(c: &mut Criterion) {
    let suite = suite();
    let mut g = c.benchmark_group("batch_evaluation");
    let all: Vec<usize> = (1..=28).collect();
    let problems: &[usize] = if std::env::var_os("BENCH_ALL_PROBLEMS").is_some() {
        &all
    } else {
        &BATCH_PROBLEMS
    };
    for n in DIMS {
        let lambda = 4 * n;
        for &id in problems {
            for (label, kernel, fidelity) in PATHS {
                let p = suite
                    .problem(id, n)
                    .unwrap()
                    .with_batch_kernel(kernel)
                    .with_fidelity(fidelity);
                let x = normals(n, lambda, 8) * 10.0;
                let mut f = Array1::zeros(lambda);
                let mut cons = Array2::zeros((p.num_constraints(), lambda).f());
                g.throughput(Throughput::Elements(lambda as u64));
                let name = format!("C{id:02}/{label}");
                g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                    b.iter(|| {
                        p.evaluate_batch(black_box(x.view()), f.view_mut(), cons.view_mut())
                            .unwrap()
                    });
                });
            }
        }
    }
    g.finish();
}

/// The evaluation paths side by side: the vectorised kernel with the libm's bits (the
/// default), the same with the fast `sin`/`cos` (`--fast`), and the scalar reference.
const PATHS: [(&str, BatchKernel, Fidelity); 3] = [
    ("vectorised", BatchKernel::Auto, Fidelity::Exact),
    ("fast", BatchKernel::Auto, Fidelity::Fast),
    ("scalar", BatchKernel::Scalar, Fidelity::Exact),
];

/// A noise source of the path: the default ziggurat, or `FastNoise` on the fast path.
fn noise_for(fast: bool, seed: u64) -> Box<dyn NoiseSource> {
    if fast {
        Box::new(FastNoise::seed_from_u64(seed))
    } else {
        Box::new(RngNoise::seed_from_u64(seed))
    }
}

/// The parts of one generation and the generation itself, on `problem`; on the fast
/// path (`FastNoise`, `Fidelity::Fast`) with `fast`.
fn generation_parts(c: &mut Criterion, problem: &Cec2017Problem, tag: &str, fast: bool) {
    let fidelity = if fast {
        Fidelity::Fast
    } else {
        Fidelity::Exact
    };
    let problem = &problem.clone().with_fidelity(fidelity);
    let tag = if fast {
        format!("{tag}_fast")
    } else {
        tag.to_string()
    };
    let n = problem.dim();
    let lambda = 4 * n;
    let mu = lambda / 3;
    let mut g = c.benchmark_group(format!("generation_{tag}"));
    let m = matrix(n);
    let z = normals(n, lambda, 9);
    let mut d = Array2::<f64>::zeros((n, lambda).f());
    g.bench_function(BenchmarkId::new("mz_product", n), |b| {
        b.iter(|| gemm(1.0, &m.view(), &black_box(z.view()), 0.0, &mut d.view_mut()));
    });
    let dsel = normals(n, mu, 10);
    let mut mm = m.clone();
    g.bench_function(BenchmarkId::new("rank_mu_product", n), |b| {
        b.iter(|| {
            gemm(
                0.01,
                &dsel.view(),
                &black_box(z.slice(s![.., 0..mu])).t(),
                1.0,
                &mut mm.view_mut(),
            )
        });
    });
    // The whole generation, in the steady state of a long run.
    let limits = Limits {
        budget: Some(usize::MAX / 2),
        max_generations: Some(usize::MAX / 2),
        ..Limits::default()
    };
    let plan = Options::new(Variant::EpsMagEs)
        .limits(limits)
        .to_the_end()
        .build_for(problem)
        .unwrap();
    let mut noise = noise_for(fast, 12);
    let mut strategy = plan.strategy(&mut *noise).unwrap();
    strategy.step(problem).unwrap(); // the initialisation
    for _ in 0..300 {
        strategy.step(problem).unwrap();
    }
    // The evaluations of offspring distributed as the strategy's: ȳ + σ M z, in the box.
    let x = {
        let r = strategy.report();
        let mut x = Array2::<f64>::zeros((n, lambda).f());
        gemm(r.sigma, &r.m, &z.view(), 0.0, &mut x.view_mut());
        for mut col in x.columns_mut() {
            col += &ndarray::ArrayView1::from(r.parent);
            constraint_handling::keep_range(
                col.as_slice_mut().unwrap(),
                problem.lower_bounds(),
                problem.upper_bounds(),
            )
            .unwrap();
        }
        x
    };
    let mut f = Array1::zeros(lambda);
    let mut cons = Array2::zeros((problem.num_constraints(), lambda).f());
    g.bench_function(BenchmarkId::new("evaluations", n), |b| {
        b.iter(|| {
            problem
                .evaluate_batch(black_box(x.view()), f.view_mut(), cons.view_mut())
                .unwrap()
        });
    });
    g.bench_function(BenchmarkId::new("generation", n), |b| {
        b.iter(|| strategy.step(problem).unwrap());
    });
    g.finish();
}

fn generation(c: &mut Criterion) {
    let suite = suite();
    for fast in [false, true] {
        for n in DIMS {
            let cheap = suite.problem(1, n).unwrap();
            generation_parts(c, &cheap, "C01", fast);
        }
        generation_parts(c, &suite.problem(21, 100).unwrap(), "C21", fast);
    }
}

/// Whole runs of each of the paper's seven variants (seed 13, exact noise and fidelity),
/// on C01 (inequalities only) and C21 (equalities: the repair acts): at N = 10 the
/// paper's budget of 2·10⁵ evaluations, at N = 100 the first 2·10⁵ (500 generations of
/// λ = 400). A run is the same work on every build (the same seed gives the same
/// generations), unlike a step of a running strategy, whose cost drifts with its state;
/// the generations of each run are printed, so a time per generation follows. This
/// group is how a change elsewhere is checked not to slow the paper's study.
fn variant_runs(c: &mut Criterion) {
    let suite = suite();
    let mut g = c.benchmark_group("variant_runs");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_millis(500));
    for id in [1, 21] {
        for n in [10, 100] {
            let problem = suite.problem(id, n).unwrap();
            for variant in Variant::ALL {
                let plan = Options::new(variant)
                    .budget(200_000)
                    .to_the_end()
                    .build_for(&problem)
                    .unwrap();
                let run = || {
                    plan.run_with(&problem, RngNoise::seed_from_u64(13), &mut NoObserver)
                        .unwrap()
                };
                let outcome = run();
                eprintln!(
                    "variant_runs/{} C{id:02}/{n}: {} generations, {} evaluations",
                    variant.name(),
                    outcome.generations,
                    outcome.evaluations
                );
                let name = format!("{} C{id:02}", variant.name());
                g.bench_function(BenchmarkId::new(name, n), |b| b.iter(run));
            }
        }
    }
    g.finish();
}

fn full_run(c: &mut Criterion) {
    let suite = suite();
    let mut g = c.benchmark_group("full_run");
    g.sample_size(10);
    for id in [1, 21] {
        let p = suite.problem(id, 10).unwrap();
        g.bench_function(BenchmarkId::new(format!("eps-mag-es C{id:02}"), 10), |b| {
            b.iter(|| {
                Options::new(Variant::EpsMagEs)
                    .to_the_end()
                    .build_for(&p)
                    .unwrap()
                    .run_with(&p, RngNoise::seed_from_u64(13), &mut NoObserver)
                    .unwrap()
            });
        });
    }
    g.finish();
}

/// Whole runs at N = 100 (budget 2·10⁶ evaluations, seed 1) with each batch kernel:
/// 10 samples of 4–6 s each, about two minutes per entry.
fn full_run_100(c: &mut Criterion) {
    let suite = suite();
    let mut g = c.benchmark_group("full_run_100");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_millis(1));
    for id in [1, 21] {
        for (label, kernel, fidelity) in PATHS {
            let p = suite
                .problem(id, 100)
                .unwrap()
                .with_batch_kernel(kernel)
                .with_fidelity(fidelity);
            let fast = fidelity == Fidelity::Fast;
            let name = format!("eps-mag-es C{id:02}/{label}");
            g.bench_function(BenchmarkId::new(name, 100), |b| {
                b.iter(|| {
                    Options::new(Variant::EpsMagEs)
                        .to_the_end()
                        .build_for(&p)
                        .unwrap()
                        .run_with(&p, &mut *noise_for(fast, 1), &mut NoObserver)
                        .unwrap()
                });
            });
        }
    }
    g.finish();
}

criterion_group!(
    benches,
    sampling,
    mz_product,
    back_calculation,
    ranking,
    recombination_and_update,
    batch_evaluation,
    generation,
    variant_runs,
    full_run,
    full_run_100
);

/// The median estimate (ns) criterion saved for a benchmark.
fn median_ns(group: &str, function: &str, param: &str) -> Option<f64> {
    let dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let path = dir
        .join("criterion")
        .join(group)
        .join(function)
        .join(param)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn print_ratios() {
    println!("batch kernel: {}", BatchKernel::Auto.resolved());
    for id in BATCH_PROBLEMS {
        let group = "batch_evaluation";
        let time = |k: &str| median_ns(group, &format!("C{id:02}_{k}"), "100");
        if let (Some(vec), Some(fast), Some(scalar)) =
            (time("vectorised"), time("fast"), time("scalar"))
        {
            println!(
                "N = 100, C{id:02}, 400 points: vectorised {:.1} µs, fast {:.1} µs, scalar {:.1} µs; speed-up {:.2} (exact), {:.2} (fast)",
                vec / 1e3,
                fast / 1e3,
                scalar / 1e3,
                scalar / vec,
                scalar / fast
            );
        }
    }
    for (tag, n) in [
        ("C01", "100"),
        ("C21", "100"),
        ("C01_fast", "100"),
        ("C21_fast", "100"),
        ("C01", "10"),
        ("C01_fast", "10"),
    ] {
        let group = format!("generation_{tag}");
        let part = |f: &str| median_ns(&group, f, n);
        if let (Some(gen), Some(mz), Some(rmu), Some(ev)) = (
            part("generation"),
            part("mz_product"),
            part("rank_mu_product"),
            part("evaluations"),
        ) {
            let sum = mz + rmu + ev;
            println!(
                "N = {n}, {tag}: generation {:.2} µs; M Z {:.2} µs + rank-μ {:.2} µs + evaluations {:.2} µs = {:.2} µs; ratio {:.2}; generation / evaluations {:.2}",
                gen / 1e3,
                mz / 1e3,
                rmu / 1e3,
                ev / 1e3,
                sum / 1e3,
                gen / sum,
                gen / ev
            );
        }
    }
}

fn main() {
    // The kernel the studies run with (restarts when OpenBLAS picked another one and
    // OPENBLAS_CORETYPE is unset); the figures name it.
    canonical_kernel::at_program_start();
    if let Some(k) = constraint_handling::linalg::kernel::BlasKernel::current() {
        eprintln!("OpenBLAS kernel: {k}");
    }
    // Benchmarks measure one core: OpenBLAS on one thread, as in the studies.
    emages_harness::study::pin_blas_to_one_thread();
    // criterion's plots render text with plotters: give it a font that needs no system fonts.
    emages_harness::report::register_font().expect("plot font");
    benches();
    Criterion::default().configure_from_args().final_summary();
    print_ratios();
}
