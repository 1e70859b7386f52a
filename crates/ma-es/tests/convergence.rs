//! The convergence criteria of `ma_es::control`: each stops a run for its own reason,
//! the run up to there is the run without them, a restart sequence ends once a restart
//! finds the best-so-far again, and off they change nothing.

#[path = "support/runs.rs"]
mod runs;
use constraint_handling::{ConstrainedProblem, FnProblem};
use ma_es::control::{Convergence, Limits};
use ma_es::noise::RngNoise;
use ma_es::restarts::RestartRecord;
use ma_es::{ComponentSpec, Config, RunResult, Termination};
use runs::{drive, Control};

/// min Σ x_i² s.t. 1 − x₁ − x₂ ≤ 0 on [−5, 5]^4: f* = 0.5 at (½, ½, 0, 0).
fn half_plane() -> impl ConstrainedProblem {
    FnProblem::new(vec![-5.0; 4], vec![5.0; 4], 1, 0, |x, g| {
        g[0] = 1.0 - x[0] - x[1];
        Ok(x.iter().map(|v| v * v).sum())
    })
    .unwrap()
}

fn run(
    problem: &impl ConstrainedProblem,
    spec: &str,
    convergence: Convergence,
    seed: u64,
) -> (RunResult, Vec<RestartRecord>) {
    let limits = Limits {
        record_dynamics: true,
        ..Limits::budget(80_000)
    };
    run_limited(problem, spec, limits, convergence, seed)
}

/// `spec` on `problem` under `limits` and `convergence`, the noise seeded by `seed`.
fn run_limited(
    problem: &impl ConstrainedProblem,
    spec: &str,
    limits: Limits,
    convergence: Convergence,
    seed: u64,
) -> (RunResult, Vec<RestartRecord>) {
    let spec: ComponentSpec = spec.parse().unwrap();
    let control = Control {
        limits,
        convergence,
    };
    drive(
        problem,
        &Config::default(),
        &control,
        &spec,
        seed,
        &mut RngNoise::seed_from_u64(seed),
    )
    .unwrap()
}

fn solved(r: &RunResult) -> bool {
    r.best.is_feasible() && (r.best.objective() - 0.5).abs() < 1e-8
}

/// With the defaults a single run stops by `tol_fun` or `tol_x` long before its
/// budget, solved, and is the run without criteria up to there.
#[test]
fn a_converged_run_stops_solved_and_is_the_same_run_up_to_there() {
    let p = half_plane();
    let mut checked = 0;
    for seed in 0..10 {
        let (full, _) = run(&p, "eps-mag-es", Convergence::off(), seed);
        let (r, _) = run(&p, "eps-mag-es", Convergence::default(), seed);
        println!(
            "seed {seed}: {:?} after {} evaluations, f − f* = {:e}, ν̄ = {:e}",
            r.termination,
            r.evaluations,
            r.best.objective() - 0.5,
            r.best.violation()
        );
        assert_eq!(full.termination, Termination::Budget);
        assert!(
            matches!(
                r.termination,
                Termination::TolFun | Termination::TolX | Termination::Stagnation
            ),
            "seed {seed}: {:?}",
            r.termination
        );
        assert!(r.evaluations < full.evaluations / 2, "seed {seed}");
        assert!(solved(&r), "seed {seed}: {:?}", r.best);
        let (a, b) = (r.dynamics.unwrap(), full.dynamics.unwrap());
        assert_eq!(a[..], b[..a.len()], "seed {seed}");
        checked += 1;
    }
    println!("checked {checked} converged runs against their runs to the budget");
}

/// Each criterion alone, with its own reason; `target` at any ε.
#[test]
fn each_criterion_stops_for_its_own_reason() {
    let p = half_plane();
    let off = Convergence::off();
    let (r, _) = run(
        &p,
        "eps-mag-es",
        Convergence {
            target: Some(0.5 + 1e-3),
            ..off
        },
        1,
    );
    assert_eq!(r.termination, Termination::Target);
    assert!(r.best.is_feasible() && r.best.objective() <= 0.5 + 1e-3);
    let (r, _) = run(&p, "eps-mag-es", Convergence { tol_x: 1e-6, ..off }, 1);
    assert_eq!(r.termination, Termination::TolX);
    let (r, _) = run(
        &p,
        "eps-mag-es",
        Convergence {
            tol_fun: 1e-9,
            ..off
        },
        1,
    );
    assert_eq!(r.termination, Termination::TolFun);
    // A flat objective never improves: stagnation after exactly the window (the
    // criteria count from ε = 0, here from the start: no constraints).
    let flat = FnProblem::new(vec![-1.0; 3], vec![1.0; 3], 0, 0, |_, _| Ok(1.0)).unwrap();
    let (r, _) = run(
        &flat,
        "eps-mag-es",
        Convergence {
            stagnation: Some(30),
            ..off
        },
        1,
    );
    assert_eq!(
        (r.termination, r.generations),
        (Termination::Stagnation, 30)
    );
}

/// A restart sequence (εMAg-ES-R) ends once a restart finds the best-so-far again; the
/// runs before it are the sequence's without the criteria.
#[test]
fn a_restart_sequence_ends_when_a_restart_confirms_the_best() {
    let p = half_plane();
    for seed in 0..5 {
        let (full, full_runs) = run(&p, "eps-mag-es-r", Convergence::off(), seed);
        let (r, runs) = run(&p, "eps-mag-es-r", Convergence::default(), seed);
        assert_eq!(full.termination, Termination::Budget);
        assert_eq!(
            r.termination,
            Termination::Confirmed,
            "seed {seed}: {runs:?}"
        );
        assert!(solved(&r), "seed {seed}");
        assert!(runs.len() >= 2 && r.evaluations < full.evaluations);
        let last = runs[runs.len() - 1].best;
        assert!((last.objective - r.best.objective()).abs() <= 1e-11 * 0.5f64.max(1.0));
        // The first run ends where it ended without the criteria, or earlier by them.
        assert!(
            runs[0].generations <= full_runs[0].generations,
            "seed {seed}"
        );
    }
}

/// Impossible criteria are errors, before anything runs.
#[test]
fn impossible_criteria_are_errors() {
    let p = half_plane();
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    for bad in [
        Convergence {
            tol_fun: -1.0,
            ..Convergence::default()
        },
        Convergence {
            tol_x: f64::NAN,
            ..Convergence::default()
        },
        Convergence {
            target: Some(f64::NAN),
            ..Convergence::default()
        },
    ] {
        let control = Control {
            limits: Limits::default(),
            convergence: bad,
        };
        let e = drive(
            &p,
            &Config::default(),
            &control,
            &spec,
            1,
            &mut RngNoise::seed_from_u64(1),
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("tol_") || e.to_string().contains("target"),
            "{e}"
        );
    }
    // Serde: unknown keys are refused, defaults fill in.
    let c: Convergence = serde_json::from_str(r#"{"tol_fun": 1e-8}"#).unwrap();
    assert_eq!((c.tol_fun, c.tol_x), (1e-8, 1e-11));
    assert!(serde_json::from_str::<Convergence>(r#"{"tolfun": 1e-8}"#).is_err());
}

/// The spec's keys set criteria over the driver's: a run to the budget stops by the
/// spec's `tol-fun`, and a spec that switches all off runs a converging driver to the
/// budget; the criteria print in the spec's canonical text.
#[test]
fn spec_keys_set_criteria_over_the_drivers() {
    let p = half_plane();
    let (r, _) = run(&p, "eps-mag-es:tol-fun=1e-9", Convergence::off(), 1);
    assert_eq!(r.termination, Termination::TolFun);
    let off = "eps-mag-es:tol-fun=0:tol-x=0:stagnation=0";
    let (r, _) = run(&p, off, Convergence::default(), 1);
    let (to_budget, _) = run(&p, "eps-mag-es", Convergence::off(), 1);
    assert_eq!(r, to_budget);
    let spec: ComponentSpec = "eps-mag-es-r:tol-fun=1e-8:target=-3.5".parse().unwrap();
    assert_eq!(
        spec.to_string(),
        "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%:tol-fun=1e-8:target=-3.5"
    );
    assert_eq!(spec.convergence.apply(Convergence::off()).tol_fun, 1e-8);
    assert!("eps-mag-es:tol-fun=-1".parse::<ComponentSpec>().is_err());
}

/// A problem that declares itself expensive has each request spread over the cores by
/// `Plan::run`, with the result of one thread, bit for bit.
#[test]
fn an_expensive_problem_is_evaluated_on_all_cores_with_the_same_result() {
    use constraint_handling::ProblemError;
    use std::collections::HashSet;
    use std::sync::Mutex;
    struct Simulation {
        expensive: bool,
        threads: Mutex<HashSet<std::thread::ThreadId>>,
    }
    impl ConstrainedProblem for Simulation {
        fn dim(&self) -> usize {
            4
        }
        fn num_inequalities(&self) -> usize {
            1
        }
        fn num_equalities(&self) -> usize {
            1
        }
        fn lower_bounds(&self) -> &[f64] {
            &[-5.0; 4]
        }
        fn upper_bounds(&self) -> &[f64] {
            &[5.0; 4]
        }
        fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
            self.check_buffers(x, c)?;
            self.threads
                .lock()
                .unwrap()
                .insert(std::thread::current().id());
            c[0] = 1.0 - x[0] - x[1];
            c[1] = x[2] - x[3] * x[3];
            Ok(x.iter()
                .map(|v| (v - 0.3).powi(2))
                .sum::<f64>()
                .sqrt()
                .exp())
        }
        fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
            self.expensive
                .then_some(self as &(dyn ConstrainedProblem + Sync))
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut results = Vec::new();
    for expensive in [false, true] {
        let p = Simulation {
            expensive,
            threads: Mutex::new(HashSet::new()),
        };
        results.push(run(&p, "eps-mag-es-r", Convergence::default(), 4));
        let used = p.threads.lock().unwrap().len();
        println!("expensive = {expensive}: evaluated on {used} thread(s), {cores} core(s)");
        if expensive && cores > 1 {
            assert!(used > 1, "{used} threads");
        } else if !expensive {
            assert_eq!(used, 1);
        }
    }
    assert_eq!(results[0], results[1]);
}

/// A caller's stop is reported as a stop, even where the run it ends has found the
/// sequence's best again (which would have confirmed it).
#[test]
fn a_callers_stop_is_not_a_confirmation() {
    let p = half_plane();
    let spec: ComponentSpec = "eps-mag-es-r".parse().unwrap();
    let mut es = ma_es::Options::new(spec)
        .budget(80_000)
        .seed(0)
        .build_for(&p)
        .unwrap()
        .ask_tell()
        .unwrap();
    let mut stopped = false;
    while es.step(&p).unwrap() {
        if let [first] = es.restarts() {
            let now = es.report().best.snapshot.fitness;
            if now.violation == 0.0 && (now.objective - first.best.objective).abs() <= 1e-11 {
                es.stop();
                stopped = true;
            }
        }
    }
    assert!(stopped, "the second run found the first one's best");
    assert_eq!(es.result().termination, Termination::Stopped);
}

/// `Limits::max_total_generations` limits the whole restart sequence: the runs'
/// generations add up to at most the limit, the last run is cut to what is left and the
/// sequence ends with the generation limit; each run's own `max_generations` alone lets
/// the sequence go on to its budget. Without it, nothing changes.
#[test]
fn the_whole_runs_generation_limit_spans_the_restarts() {
    let p = half_plane();
    let with = |limits: Limits, seed: u64| {
        run_limited(&p, "eps-mag-es-r", limits, Convergence::off(), seed)
    };
    let mut checked = 0;
    for seed in 0..4 {
        let per_run = with(
            Limits {
                max_generations: Some(150),
                ..Limits::budget(80_000)
            },
            seed,
        );
        assert!(per_run.1.len() > 1, "restarts, each with 150 generations");
        let total: usize = per_run.1.iter().map(|r| r.generations).sum();
        assert!(
            total > 150,
            "the runs' own limits let the sequence go on: {total}"
        );
        for limit in [150, 400] {
            let (r, runs) = with(
                Limits {
                    max_total_generations: Some(limit),
                    ..Limits::budget(80_000)
                },
                seed,
            );
            let total: usize = runs.iter().map(|r| r.generations).sum();
            assert!(total <= limit, "seed {seed}: {total} generations > {limit}");
            assert!(
                total + runs.len() >= limit,
                "seed {seed}: stopped at {total} of {limit}"
            );
            assert_eq!(r.termination, Termination::GenerationLimit, "seed {seed}");
            assert!(r.evaluations < 80_000);
            checked += 1;
        }
        let unlimited = with(Limits::budget(80_000), seed);
        let explicit = with(
            Limits {
                max_total_generations: None,
                ..Limits::budget(80_000)
            },
            seed,
        );
        assert_eq!(unlimited.0, explicit.0);
    }
    assert!(
        Limits {
            max_total_generations: Some(0),
            ..Limits::default()
        }
        .resolve(4)
        .is_err(),
        "a limit of 0 generations is an error"
    );
    println!("checked {checked} restart sequences under a whole-run generation limit");
}
