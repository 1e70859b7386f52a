//! Behaviour of the strategy beyond the replay: user problems, determinism, faults,
//! validation, and allocation-free generations.

#[path = "support/problems.rs"]
mod problems;
#[path = "support/runs.rs"]
mod runs;
use cec2017_constrained::Suite;
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use ma_es::ask_tell::reports;
use ma_es::control::Limits;
use ma_es::noise::RngNoise;
use ma_es::observer::GenerationReport;
use ma_es::step_size::SigmaCap;
use ma_es::{Components, Config, MaEsError, RunResult, Termination, Variant};
use problems::{small, Simplex};
use runs::{single, single_spec};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ops::ControlFlow;

/// Counts allocations per thread (tests run in parallel threads).
struct Counting;
thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}
fn count_allocation() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        count_allocation();
        unsafe { System.realloc(ptr, layout, new) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn solves_a_user_problem_with_every_variant() {
    // Optimum: x_i = 2/N for N = 4 → f = 4 · (0.5)² = 1.
    for variant in Variant::ALL {
        let mut es = single(Simplex::new(4), &Config::default(), &small(20_000), variant).unwrap();
        let r = es.run(&mut RngNoise::seed_from_u64(3)).unwrap();
        assert!(
            r.best.violation() <= 1e-3,
            "{variant}: ν̄ = {}",
            r.best.violation()
        );
        assert!(
            (r.best.objective() - 1.0).abs() < 0.05,
            "{variant}: f = {}",
            r.best.objective()
        );
        assert_eq!(r.termination, Termination::Budget);
        assert_eq!(r.checkpoints.len(), 3);
    }
}

/// The step-size rules and the ranking beside the presets' are selectable by spec and
/// do what they say inside the strategy.
#[test]
fn the_other_step_size_rules_and_rankings_run_inside_the_strategy() {
    use ma_es::ComponentSpec;
    let run_seeded = |spec: &str, seed: u64| {
        let spec: ComponentSpec = spec.parse().unwrap();
        let limits = Limits {
            record_dynamics: true,
            ..small(20_000)
        };
        let mut es =
            single_spec(Simplex::new(4), &Config::default(), &limits, &spec, seed).unwrap();
        es.run(&mut RngNoise::seed_from_u64(seed)).unwrap()
    };
    let run = |spec: &str| run_seeded(spec, 3);
    // The median success rule adapts σ well enough to solve the problem.
    let r = run("eps-mag-es:step-size=median-success");
    assert!(r.best.violation() <= 1e-3, "ν̄ = {}", r.best.violation());
    assert!(
        (r.best.objective() - 1.0).abs() < 0.05,
        "f = {}",
        r.best.objective()
    );
    let sigmas: Vec<f64> = r
        .dynamics
        .as_ref()
        .unwrap()
        .iter()
        .map(|d| d.sigma)
        .collect();
    assert!(
        sigmas.last().unwrap() < &1e-2,
        "σ shrinks: {:?}",
        sigmas.last()
    );
    // A constant σ stays σ₀ = 1 in every generation.
    let r = run("eps-mag-es:step-size=constant");
    let d = r.dynamics.as_ref().unwrap();
    assert!(d.len() > 100 && d.iter().all(|d| d.sigma == 1.0));
    // Ranking by f alone, constraints ignored: the population is drawn to the
    // unconstrained optimum x = 1 (f = 0), which violates Σ x ≤ 2; the repair and the
    // best-so-far rule still keep a feasible best.
    let r = run("eps-mag-es:ranking=objective");
    assert!(r.best.objective() > 0.5, "f = {}", r.best.objective());
    // Stochastic ranking (P_f = 0.45) solves it too; the run's seed fixes its coin
    // flips: the same seed repeats the run bit for bit, another seed gives another run.
    let a = run_seeded("eps-mag-es:ranking=stochastic", 3);
    assert!(a.best.violation() <= 1e-3, "ν̄ = {}", a.best.violation());
    assert!(
        (a.best.objective() - 1.0).abs() < 0.05,
        "f = {}",
        a.best.objective()
    );
    let again = run_seeded("eps-mag-es:ranking=stochastic", 3);
    assert_eq!(
        a.best.objective().to_bits(),
        again.best.objective().to_bits()
    );
    assert_eq!(a.dynamics, again.dynamics);
    let other = run_seeded("eps-mag-es:ranking=stochastic", 4);
    assert_ne!(a.dynamics, other.dynamics);
    // With the same noise, the coin flips alone make it differ from the ε-level order.
    let eps = run_seeded("eps-mag-es", 3);
    assert_ne!(a.dynamics, eps.dynamics);
    // The augmented-Lagrangian ranking solves it as well, to the last digits (its
    // multiplier converges, so the mean settles on the constraint).
    let al = run("eps-mag-es:ranking=augmented-lagrangian");
    assert!(al.best.violation() <= 1e-3, "ν̄ = {}", al.best.violation());
    assert!(
        (al.best.objective() - 1.0).abs() < 1e-6,
        "f = {}",
        al.best.objective()
    );
    assert_ne!(al.dynamics, eps.dynamics);
}

/// `ranking=by-constraint-kind` is the augmented Lagrangian on a problem with
/// inequalities only and the ε-level order on one with equalities: bit for bit the
/// same runs, and different from the other ranking's.
#[test]
fn the_ranking_by_constraint_kind_follows_the_problems_constraints() {
    use ma_es::ComponentSpec;
    let suite = Suite::synthetic(5);
    let run = |problem: usize, ranking: &str| {
        let p = suite.problem(problem, 10).unwrap();
        let spec: ComponentSpec = format!("eps-mag-es:ranking={ranking}").parse().unwrap();
        let limits = Limits {
            record_dynamics: true,
            ..small(20_000)
        };
        let mut es = single_spec(&p, &Config::default(), &limits, &spec, 7).unwrap();
        es.run(&mut RngNoise::seed_from_u64(7)).unwrap()
    };
    // C01: one inequality; C07: two equalities; C03: one of each.
    for (problem, follows, other) in [
        (1, "augmented-lagrangian", "epsilon-level"),
        (7, "epsilon-level", "augmented-lagrangian"),
        (3, "epsilon-level", "augmented-lagrangian"),
    ] {
        let by_kind = run(problem, "by-constraint-kind");
        assert_eq!(by_kind, run(problem, follows), "C{problem:02}");
        assert_ne!(
            by_kind.dynamics,
            run(problem, other).dynamics,
            "C{problem:02}"
        );
    }
}

fn run_c01(seed: u64, variant: Variant) -> RunResult {
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    single(&p, &Config::default(), &small(30_000), variant)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(seed))
        .unwrap()
}

#[test]
fn same_seed_same_result_bit_for_bit_across_threads() {
    let reference = run_c01(11, Variant::EpsMagEs);
    assert_eq!(run_c01(11, Variant::EpsMagEs), reference);
    let handles: Vec<_> = (0..3)
        .map(|_| std::thread::spawn(|| run_c01(11, Variant::EpsMagEs)))
        .collect();
    for h in handles {
        let r = h.join().unwrap();
        assert_eq!(r, reference);
        assert_eq!(
            r.best.objective().to_bits(),
            reference.best.objective().to_bits()
        );
    }
    assert_ne!(run_c01(12, Variant::EpsMagEs), reference);
}

#[test]
fn checkpoints_follow_the_budget() {
    let r = run_c01(1, Variant::EpsMagEs);
    let budget = 30_000.0;
    let lambda = 40;
    assert_eq!(r.checkpoints.len(), 3);
    for (cp, frac) in r.checkpoints.iter().zip([0.1, 0.5, 1.0]) {
        // taken after the first generation that reaches the fraction
        assert!(cp.evaluations as f64 >= frac * budget, "{cp:?}");
        assert!(((cp.evaluations - lambda) as f64) < frac * budget || frac == 1.0);
    }
    assert_eq!(r.checkpoints[2].best, r.best.snapshot);
    // Checkpoints at other evaluation counts, as a harness may ask for them.
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let limits = Limits {
        checkpoints: vec![1000, 7000],
        ..small(30_000)
    };
    let own = single(&p, &Config::default(), &limits, Variant::EpsMagEs)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(1))
        .unwrap();
    let at: Vec<usize> = own.checkpoints.iter().map(|c| c.evaluations).collect();
    assert_eq!(at.len(), 2);
    assert!(at[0] >= 1000 && at[0] - lambda < 1000 && at[1] >= 7000 && at[1] - lambda < 7000);
    assert_eq!(own.best, r.best, "the checkpoints do not change the run");
    let bad = Limits {
        checkpoints: vec![500, 500],
        ..small(30_000)
    };
    assert!(single(&p, &Config::default(), &bad, Variant::EpsMagEs).is_err());
    assert!(r.evaluations >= 30_000);
    assert!(r.best.found_at() <= r.evaluations);
}

#[test]
fn dynamics_and_observer_stop() {
    let p = Suite::synthetic(5).problem(3, 10).unwrap();
    let limits = Limits {
        record_dynamics: true,
        ..small(8_000)
    };
    let r = single(&p, &Config::default(), &limits, Variant::EpsMagEs)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(2))
        .unwrap();
    let dyn_ = r.dynamics.as_ref().unwrap();
    assert_eq!(dyn_.len(), r.generations + 1);
    assert!(dyn_.windows(2).all(|w| w[1].evaluations > w[0].evaluations));
    let mut es = single(&p, &Config::default(), &small(8_000), Variant::EpsMagEs).unwrap();
    let mut stop = |r: &GenerationReport<'_>| {
        if r.generation == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let r = es
        .run_observed(&mut RngNoise::seed_from_u64(2), &mut stop)
        .unwrap();
    assert_eq!((r.generations, r.termination), (5, Termination::Stopped));
}

/// The report's offspring values pair up: `objectives[k]` and `violations[k]` belong to
/// the same offspring — whenever a generation improves the best-so-far, the new best is
/// one of them — and there is one pair per offspring.
#[test]
fn the_report_pairs_each_offspring_objective_with_its_violation() {
    // C01 (inequalities) and C06 (equalities, the repair at work).
    let found = [1, 6].map(|k| {
        let p = Suite::synthetic(5).problem(k, 10).unwrap();
        improvements_among_the_offspring(&p)
    });
    println!("improvements of the best-so-far found among the reported offspring: {found:?}");
    assert!(found.iter().all(|&n| n >= 5), "{found:?}");
}

fn improvements_among_the_offspring<P: ConstrainedProblem>(p: &P) -> usize {
    let mut es = single(p, &Config::default(), &small(40_000), Variant::EpsMagEs).unwrap();
    let (mut last, mut found) = (None, 0);
    let mut check = |r: &GenerationReport<'_>| {
        assert_eq!(r.objectives.len(), r.violations.len());
        assert!(r.violations.iter().all(|&v| v >= 0.0));
        let best = r.best.snapshot.fitness;
        if r.generation > 0 && last != Some(best) {
            assert!(
                r.objectives
                    .iter()
                    .zip(r.violations)
                    .any(|(&f, &v)| (f, v) == (best.objective, best.violation)),
                "generation {}: the new best {best:?} is none of the offspring",
                r.generation
            );
            found += 1;
        }
        last = Some(best);
        ControlFlow::Continue(())
    };
    es.run_observed(&mut RngNoise::seed_from_u64(3), &mut check)
        .unwrap();
    found
}

#[test]
fn generation_limit_stops_after_limit_plus_one_generations() {
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let limits = Limits {
        max_generations: Some(7),
        ..Limits::default()
    };
    let r = single(&p, &Config::default(), &limits, Variant::EpsMaEs)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(2))
        .unwrap();
    assert_eq!(
        (r.generations, r.termination),
        (8, Termination::GenerationLimit)
    );
    // checkpoints not reached hold the final best
    assert!(r
        .checkpoints
        .iter()
        .all(|c| c.best.objective() == r.best.objective()));
}

/// Returns NaN or ±∞ in parts of the space.
fn faulty() -> impl ConstrainedProblem {
    FnProblem::new(vec![-5.0; 3], vec![5.0; 3], 1, 1, |x, c| {
        c[0] = if x[0] > 2.0 { f64::NAN } else { x[0] - 1.0 };
        c[1] = if x[1] < -2.0 { f64::INFINITY } else { x[1] };
        Ok(if x[2] > 3.0 {
            f64::NAN
        } else if x[2] < -4.0 {
            f64::NEG_INFINITY
        } else {
            x.iter().map(|v| v * v).sum()
        })
    })
    .unwrap()
}

#[test]
fn non_finite_values_never_panic() {
    for variant in Variant::ALL {
        let r = single(faulty(), &Config::default(), &small(5_000), variant)
            .unwrap()
            .run(&mut RngNoise::seed_from_u64(9))
            .unwrap();
        // −∞ objectives exist but only on points with x₂ < −4 … and NaN ranks last:
        assert!(!r.best.objective().is_nan(), "{variant}");
        assert!(!r.best.violation().is_nan(), "{variant}");
    }
}

/// A σ "cap" that multiplies σ by 1e200: σ overflows to +∞ after two generations.
struct Explode;
impl SigmaCap for Explode {
    fn apply(&self, sigma: f64) -> f64 {
        sigma * 1e200
    }
}

#[test]
fn sigma_overflow_does_not_panic() {
    let p = Suite::synthetic(5).problem(6, 10).unwrap();
    let plan = ma_es::Options::new(Variant::EpsMagEsNl)
        .limits(small(4_000))
        .to_the_end()
        .build_for(&p)
        .unwrap();
    let mut components = Components::from_spec(plan.spec(), plan.params(), 0).unwrap();
    components.sigma_cap = Box::new(Explode);
    let mut sigmas = Vec::new();
    let mut obs = |r: &GenerationReport<'_>| {
        sigmas.push(r.sigma);
        ControlFlow::Continue(())
    };
    let r = plan
        .run_components(
            &p,
            components,
            RngNoise::seed_from_u64(1),
            &mut reports(&mut obs),
        )
        .unwrap();
    assert!(sigmas.iter().any(|s| s.is_infinite()), "{sigmas:?}");
    assert!(!r.sigma.is_finite(), "σ = {}", r.sigma);
    assert!(r.evaluations >= 4_000);
    // The best-so-far of the first generations survives the NaN offspring.
    assert!(r.best.objective().is_finite());
    // With σ0 near the largest double the capped variant comes back to σ ≤ σ_max.
    let config = Config {
        sigma0: 1e308,
        ..Config::default()
    };
    let r = single(&p, &config, &small(4_000), Variant::EpsMagEs)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(1))
        .unwrap();
    assert!(r.sigma <= 100.0);
}

#[test]
fn invalid_configurations_and_problems_are_errors() {
    let p = Simplex::new(3);
    for config in [
        Config {
            lambda: Some(1),
            ..Config::default()
        },
        Config {
            mu: Some(0),
            ..Config::default()
        },
        Config {
            mu: Some(13),
            ..Config::default()
        },
        Config {
            sigma0: -1.0,
            ..Config::default()
        },
        Config {
            sigma0: f64::NAN,
            ..Config::default()
        },
    ] {
        let e = single(&p, &config, &Limits::default(), Variant::EpsMagEs).unwrap_err();
        assert!(matches!(e, MaEsError::Config(_)), "{e}");
    }
    let e = single(
        &p,
        &Config::default(),
        &Limits::budget(0),
        Variant::EpsMagEs,
    )
    .unwrap_err();
    assert!(matches!(e, MaEsError::Config(_)), "{e}");
    let bad = Simplex {
        lb: vec![1.0, 0.0],
        ub: vec![0.0, 1.0],
    };
    assert!(matches!(
        single(
            &bad,
            &Config::default(),
            &Limits::default(),
            Variant::EpsMagEs
        )
        .unwrap_err(),
        MaEsError::Problem(_)
    ));
    let mismatched = Simplex {
        lb: vec![0.0; 3],
        ub: vec![1.0; 2],
    };
    assert!(single(
        &mismatched,
        &Config::default(),
        &Limits::default(),
        Variant::EpsMagEs
    )
    .is_err());
    let zero_width = Simplex {
        lb: vec![0.5; 3],
        ub: vec![0.5; 3],
    };
    let r = single(
        &zero_width,
        &Config::default(),
        &small(500),
        Variant::EpsMagEs,
    )
    .unwrap()
    .run(&mut RngNoise::seed_from_u64(1))
    .unwrap();
    assert!(r.best.x.iter().all(|&v| v == 0.5));
}

#[test]
fn evaluation_errors_are_returned() {
    // A problem whose evaluation always fails.
    let failing = FnProblem::new(vec![0.0; 2], vec![1.0; 2], 0, 0, |_, _| {
        Err(ProblemError::Evaluation("simulator crashed".into()))
    })
    .unwrap();
    let e = single(
        failing,
        &Config::default(),
        &Limits::default(),
        Variant::EpsMagEs,
    )
    .unwrap()
    .run(&mut RngNoise::seed_from_u64(1))
    .unwrap_err();
    assert!(e.to_string().contains("simulator crashed"), "{e}");
}

#[test]
fn generations_do_not_allocate() {
    let p = Suite::synthetic(5).problem(21, 10).unwrap();
    let mut specs: Vec<ma_es::ComponentSpec> = Variant::ALL.iter().map(|v| v.spec()).collect();
    for s in [
        "eps-mag-es:step-size=median-success",
        "eps-mag-es:step-size=constant",
        "eps-mag-es:ranking=objective",
        "eps-mag-es:ranking=stochastic",
        "eps-mag-es:ranking=augmented-lagrangian",
        "eps-mag-es:ranking=by-constraint-kind",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=2:lm-scaling=box",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-solve=full",
    ] {
        specs.push(s.parse().unwrap());
    }
    for variant in specs {
        let mut es = single_spec(&p, &Config::default(), &small(40_000), &variant, 1).unwrap();
        let (generations, allocating) = allocating_generations(
            |obs| es.run_observed(&mut RngNoise::seed_from_u64(4), obs),
            |_| {},
        );
        assert!(generations > 100, "{variant}: {generations} generations");
        assert!(
            allocating.is_empty(),
            "{variant}: generations {allocating:?} allocated"
        );
    }
    // The restarts' stall criteria watch every generation too (their verdict ignored
    // here, so that the run goes on).
    use ma_es::restarts::Stall;
    use ma_es::variant::StallKind;
    for kind in [StallKind::Range, StallKind::Progress] {
        let config = Config {
            t_max: 50,
            ..Config::default()
        };
        let mut es = single(&p, &config, &small(40_000), Variant::EpsMagEs).unwrap();
        let mut stall = Stall::new(kind, 10, 40, config.sigma0);
        let (generations, allocating) = allocating_generations(
            |obs| es.run_observed(&mut RngNoise::seed_from_u64(4), obs),
            |r| {
                let _ = stall.observe(r);
            },
        );
        assert!(generations > 100);
        assert!(
            allocating.is_empty(),
            "stall {kind:?}: generations {allocating:?} allocated"
        );
    }
}

/// Runs `run` with an observer that calls `watch`, then notes each generation from the
/// second on in which the allocation count changed; returns the run's generations and
/// those.
fn allocating_generations(
    run: impl FnOnce(
        &mut dyn FnMut(&GenerationReport<'_>) -> ControlFlow<()>,
    ) -> Result<RunResult, MaEsError>,
    mut watch: impl FnMut(&GenerationReport<'_>),
) -> (usize, Vec<usize>) {
    let mut last = 0usize;
    let mut allocating = Vec::new();
    let mut obs = |r: &GenerationReport<'_>| {
        watch(r);
        let now = allocations();
        // Generation 1 (g = 0) sets up the repair workspace once.
        if r.generation >= 2 && now != last {
            allocating.push(r.generation);
        }
        last = allocations();
        ControlFlow::Continue(())
    };
    let generations = run(&mut obs).unwrap().generations;
    (generations, allocating)
}

/// The problem owns the equality margin δ: the strategy measures ν̄ with the margin the
/// problem carries (here a wide one on C07, two equality constraints), and a wider
/// margin can only make points look less violated.
#[test]
fn the_strategy_uses_the_problems_equality_margin() {
    let tight = Suite::synthetic(3).problem(7, 10).unwrap();
    let wide = Suite::synthetic(3)
        .problem(7, 10)
        .unwrap()
        .with_equality_margin(50.0)
        .unwrap();
    let mut checked = 0;
    for p in [&tight, &wide] {
        let mut es = single(
            p,
            &Config::default(),
            &Limits::budget(2_000),
            Variant::EpsMagEs,
        )
        .unwrap();
        let r = es.run(&mut RngNoise::seed_from_u64(9)).unwrap();
        assert_eq!(r.best.violation(), p.mean_violation(&r.best.constraints));
        checked += 1;
    }
    // C07 has two equality constraints only: |h| = 10 violates δ = 1e-4, not δ = 50.
    assert_eq!((tight.num_inequalities(), tight.num_equalities()), (0, 2));
    let c = [10.0, -10.0];
    assert_eq!(wide.mean_violation(&c), 0.0);
    assert!(tight.mean_violation(&c) > 9.0);
    assert_eq!(checked, 2);
}

/// The initial population around a given point (a departure from the reference's
/// uniform start): centred there, σ0 wide, reflected into the box; an unbounded box
/// works then; a point of the wrong length or with a NaN is an error.
#[test]
fn the_initial_population_can_start_around_a_point() {
    let x0 = vec![2.5, -2.0, 1.0, 0.5];
    let config = Config {
        initial_mean: Some(x0.clone()),
        sigma0: 1e-3,
        ..Config::default()
    };
    let limits = Limits {
        record_dynamics: true,
        ..Limits::budget(16)
    };
    let mut es = single(Simplex::new(4), &config, &limits, Variant::EpsMaEs).unwrap();
    let r = es.run(&mut RngNoise::seed_from_u64(5)).unwrap();
    // The initial population and one generation (λ = 16 each): the best point is one
    // of them, within a few σ0 of x0.
    assert_eq!(r.evaluations, 32);
    for (y, m) in r.best.x.iter().zip(&x0) {
        assert!((y - m).abs() < 0.01, "{y} vs {m}");
    }
    // An unbounded problem: the uniform start is impossible, the start around x0 works.
    let free = FnProblem::new(
        vec![f64::NEG_INFINITY; 2],
        vec![f64::INFINITY; 2],
        1,
        0,
        |x, c| {
            c[0] = 1.0 - x[0];
            Ok(x[0] * x[0] + x[1] * x[1])
        },
    )
    .unwrap();
    let config = Config {
        initial_mean: Some(vec![3.0, 3.0]),
        ..Config::default()
    };
    let mut es = single(free, &config, &Limits::budget(4000), Variant::EpsMagEs).unwrap();
    let r = es.run(&mut RngNoise::seed_from_u64(1)).unwrap();
    assert!(
        r.best.is_feasible() && (r.best.objective() - 1.0).abs() < 1e-3,
        "{:?}",
        r.best
    );
    for bad in [vec![1.0; 3], vec![f64::NAN; 4]] {
        let config = Config {
            initial_mean: Some(bad),
            ..Config::default()
        };
        assert!(single(
            Simplex::new(4),
            &config,
            &Limits::default(),
            Variant::EpsMagEs
        )
        .is_err());
    }
}
