//! The convergence criteria of `ma_es::control`: each stops a run for its own reason,
//! the run up to there is the run without them, a restart sequence ends once a restart
//! finds the best-so-far again, and off they change nothing.

use constraint_handling::{ConstrainedProblem, FnProblem};
use ma_es::control::{Control, Convergence, Limits};
use ma_es::noise::RngNoise;
use ma_es::restarts::RestartRecord;
use ma_es::{driver, ComponentSpec, Config, RunResult, Termination};

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
    let spec: ComponentSpec = spec.parse().unwrap();
    let control = Control {
        limits: Limits {
            record_dynamics: true,
            ..Limits::budget(80_000)
        },
        convergence,
    };
    driver::run(
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
        let e = driver::run(
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
