//! Behaviour of the strategy beyond the replay: user problems, determinism, faults,
//! validation, and allocation-free generations.

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
use runs::{drive, single, single_spec, Control};
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

/// A user problem: minimise Σ (x_i − 1)² subject to Σ x_i ≤ 2 and x_1 = x_2, on [−3, 3]^N.
struct Simplex {
    lb: Vec<f64>,
    ub: Vec<f64>,
}

impl Simplex {
    fn new(n: usize) -> Self {
        Self {
            lb: vec![-3.0; n],
            ub: vec![3.0; n],
        }
    }
}

impl ConstrainedProblem for Simplex {
    fn dim(&self) -> usize {
        self.lb.len()
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.lb
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.ub
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, c)?;
        c[0] = x.iter().sum::<f64>() - 2.0;
        c[1] = x[0] - x[1];
        Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum())
    }
}

/// A budget, and checkpoints at the CEC's 10/50/100 % of it.
fn small(budget: usize) -> Limits {
    Limits {
        checkpoints: vec![budget / 10, budget / 2, budget],
        ..Limits::budget(budget)
    }
}

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

/// The first user's problem of the design log (docs/strategy-design.md, entry 1): min
/// x₁² + x₂² s.t. x₁ + x₂ ≥ 1 from (3, −2), σ₀ = 1, an unbounded box, the default
/// budget. Returns (failures over seeds 0–49, the worst final f).
fn toy_failures(spec: &str) -> (usize, f64) {
    let spec: ma_es::ComponentSpec = spec.parse().unwrap();
    let problem = FnProblem::new(
        vec![f64::NEG_INFINITY; 2],
        vec![f64::INFINITY; 2],
        1,
        0,
        |x, c| {
            c[0] = 1.0 - x[0] - x[1];
            Ok(x[0] * x[0] + x[1] * x[1])
        },
    )
    .unwrap();
    let config = Config {
        initial_mean: Some(vec![3.0, -2.0]),
        sigma0: 1.0,
        ..Config::default()
    };
    let mut failures = 0;
    let mut worst = 0.5f64;
    for seed in 0..50u64 {
        let mut noise = RngNoise::seed_from_u64(seed);
        let control = Control::to_the_end(Limits::default());
        let (r, _) = drive(&problem, &config, &control, &spec, seed, &mut noise).unwrap();
        if !(r.best.is_feasible() && r.best.objective() - 0.5 <= 1e-6) {
            failures += 1;
            worst = worst.max(r.best.objective());
        }
    }
    (failures, worst)
}

/// IPOP restarts recover the runs whose σ collapsed while ε > 0 (design log, entry 5).
#[test]
fn ipop_restarts_solve_the_first_users_problem() {
    let (single, worst) = toy_failures("eps-mag-es");
    let (ipop, worst_ipop) = toy_failures("eps-mag-es:restarts=ipop");
    println!("toy problem: εMAg-ES fails {single}/50 (worst f {worst}), with IPOP {ipop}/50 (worst f {worst_ipop})");
    assert!(
        single > 0,
        "the single run is expected to miss on some seeds"
    );
    assert!(ipop < single, "{ipop} vs {single}");
    // The two lines that lead the design log's search solve it on every seed, and so
    // does the strategy frozen from the first (entry 13).
    for spec in [
        "eps-mag-es-r",
        "eps-mag-es:restarts=bipop:eps-end=10%:stall=range",
        "eps-mag-es:ranking=augmented-lagrangian:restarts=ipop:eps-end=10%:stall=range",
    ] {
        let (failures, worst) = toy_failures(spec);
        println!("toy problem: {spec} fails {failures}/50 (worst f {worst})");
        assert_eq!(failures, 0, "{spec}");
    }
}

/// A restart sequence keeps its books: one budget, absolute checkpoints holding the best
/// over all runs up to them, the first run equal to the single run up to its stall, and
/// the same seed repeating it bit for bit.
#[test]
fn ipop_restarts_keep_one_budget_and_absolute_checkpoints() {
    use crate::runs::drive as run_ipop;
    // C01 (a shifted sphere-like problem) converges well within the budget: a stall,
    // then restarts. T = 50 ends the ε phase early.
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let spec: ma_es::ComponentSpec = "eps-mag-es:restarts=ipop".parse().unwrap();
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let limits = Limits {
        record_dynamics: true,
        ..small(60_000)
    };
    let control = Control::to_the_end(limits.clone());
    let run = || {
        run_ipop(
            &p,
            &config,
            &control,
            &spec,
            9,
            &mut RngNoise::seed_from_u64(9),
        )
        .unwrap()
    };
    let (r, history) = run();
    assert!(history.len() >= 2, "{history:?}");
    assert_eq!(history[0].lambda, 40);
    assert_eq!(history[1].lambda, 80);
    assert_eq!(history[1].start, history[0].evaluations);
    assert_eq!(history[0].t_max, 50);
    assert_eq!(
        history[0].termination,
        ma_es::Termination::Stalled,
        "a stall"
    );
    let total: usize = history.iter().map(|h| h.evaluations).sum();
    assert_eq!(r.evaluations, total);
    assert!(
        total <= 60_000 + history.last().unwrap().lambda * 2,
        "{total}"
    );
    assert_eq!(r.checkpoints.len(), 3);
    for (c, at) in r.checkpoints.iter().zip([6_000, 30_000, 60_000]) {
        assert!(c.evaluations >= at.min(total), "{c:?} at {at}");
    }
    // Checkpoints never get worse, and the last is the final best.
    for w in r.checkpoints.windows(2) {
        assert!(!constraint_handling::ordering::improves_best_so_far(
            &w[0].best.fitness,
            &w[1].best.fitness
        ));
    }
    assert_eq!(r.checkpoints[2].best.fitness, r.best.snapshot.fitness);
    // The best is the best of the runs.
    for h in &history {
        assert!(!constraint_handling::ordering::improves_best_so_far(
            &h.best,
            &r.best.snapshot.fitness
        ));
    }
    // The dynamics run on across restarts (a restart's initial population shares the
    // generation number of the run before it ended).
    let d = r.dynamics.as_ref().unwrap();
    assert!(d
        .windows(2)
        .all(|w| w[1].evaluations > w[0].evaluations && w[1].generation >= w[0].generation));
    // The first run is the single run up to its stall.
    let single = single_spec(&p, &config, &limits, &Variant::EpsMagEs.spec(), 9)
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(9))
        .unwrap();
    let first = history[0].generations;
    assert_eq!(
        &single.dynamics.as_ref().unwrap()[..first],
        &d[..first],
        "the first run leaves the single run before its stall"
    );
    // Same seed, same sequence.
    assert_eq!(run().0, r);
    // A spec with restarts runs its sequence through the same one way in, but it is
    // not one bare strategy.
    let plan = single_spec(&p, &config, &limits, &spec, 9).unwrap().plan;
    assert!(plan.strategy(plan.noise()).is_err());
}

/// `polish=p%`: once at most p % of the budget is left, every further run starts at
/// the best-so-far point with the first run's λ and ε = 0; the runs before follow the
/// plan, and here (synthetic C03, one equality and one inequality) the polished
/// result is below the best of the plan's runs when polishing began.
#[test]
fn polishing_runs_start_from_the_best_once_the_budget_runs_low() {
    use crate::runs::drive as run_restarts;
    let p = Suite::synthetic(5).problem(3, 10).unwrap();
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let control = Control::to_the_end(small(100_000));
    let run = |spec: &str| {
        let spec: ma_es::ComponentSpec = spec.parse().unwrap();
        run_restarts(
            &p,
            &config,
            &control,
            &spec,
            9,
            &mut RngNoise::seed_from_u64(9),
        )
        .unwrap()
    };
    let (plain, plain_history) = run("eps-mag-es:restarts=ipop");
    let (r, history) = run("eps-mag-es:restarts=ipop:polish=50%");
    let first_polish = history
        .iter()
        .position(|h| h.polish)
        .expect("a polishing run");
    assert!(first_polish >= 1);
    for (k, h) in history.iter().enumerate() {
        let left = 100_000 - h.start;
        assert_eq!(h.polish, k > 0 && left <= 50_000, "run {k}: {h:?}");
        if h.polish {
            assert_eq!((h.lambda, h.t_max, h.large), (40, 1, false), "run {k}");
        }
    }
    // Up to polishing, the plan's runs are those without it, bit for bit.
    assert_eq!(history[..first_polish], plain_history[..first_polish]);
    let before = history[..first_polish]
        .iter()
        .map(|h| h.best.objective)
        .fold(f64::INFINITY, f64::min);
    assert!(r.best.is_feasible() && plain.best.is_feasible());
    assert!(
        r.best.objective() < before,
        "polished {:e}, best before {before:e}",
        r.best.objective()
    );
    println!(
        "C03: best before polishing {before:e}, polished {:e}, without polishing {:e}",
        r.best.objective(),
        plain.best.objective()
    );
    // A record that did not polish says nothing of it; one that did, says so.
    let json = serde_json::to_string(&history).unwrap();
    assert_eq!(
        json.matches("\"polish\":true").count(),
        history.len() - first_polish
    );
    assert!(!json.contains("\"polish\":false"));
}

/// `opening=RANKING`: the first run of a restart sequence ranks with it, the later runs
/// with the spec's `ranking`. The first run is the opening ranking's own first run bit
/// for bit, and the second run is not (one noise source runs through the sequence, so
/// with the same ranking it would be the same run too).
#[test]
fn an_opening_ranking_ranks_the_first_run_only() {
    use crate::runs::drive as run_restarts;
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let control = Control::to_the_end(small(60_000));
    let run = |spec: &str| {
        let spec: ma_es::ComponentSpec = spec.parse().unwrap();
        run_restarts(
            &p,
            &config,
            &control,
            &spec,
            9,
            &mut RngNoise::seed_from_u64(9),
        )
        .unwrap()
        .1
    };
    let al = run("eps-mag-es:ranking=augmented-lagrangian:restarts=ipop");
    let eps = run("eps-mag-es:restarts=ipop");
    let opened = run("eps-mag-es:restarts=ipop:opening=augmented-lagrangian");
    assert!(opened.len() >= 2 && al.len() >= 2, "{opened:?}");
    assert_eq!(opened[0], al[0]);
    assert_ne!(opened[0], eps[0]);
    assert_ne!(opened[1], al[1]);
    // The text form: `same` is the default and not written; a bad name is an error
    // that lists the choices.
    let spec: ma_es::ComponentSpec = "eps-mag-es-r:opening=augmented-lagrangian".parse().unwrap();
    assert_eq!(
        spec.to_string(),
        "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%:opening=augmented-lagrangian"
    );
    let same: ma_es::ComponentSpec = "eps-mag-es-r:opening=same".parse().unwrap();
    assert_eq!(same, "eps-mag-es-r".parse().unwrap());
    let err = "eps-mag-es:opening=lagrange"
        .parse::<ma_es::ComponentSpec>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected same or a ranking"), "{err}");
}

/// BIPOP alternates its two regimes by the evaluations each has used, within one
/// budget: large runs double λ, small ones draw λ between the default and half the
/// last large λ and σ₀ in [σ₀/100, σ₀], each at most half the last large run long.
#[test]
fn bipop_restarts_alternate_regimes_within_one_budget() {
    use crate::runs::drive as run;
    use ma_es::restarts::RestartRecord;
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let spec: ma_es::ComponentSpec = "eps-mag-es:restarts=bipop".parse().unwrap();
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let control = Control::to_the_end(small(150_000));
    let go = |seed: u64| {
        run(
            &p,
            &config,
            &control,
            &spec,
            seed,
            &mut RngNoise::seed_from_u64(seed),
        )
        .unwrap()
    };
    let (r, history) = go(9);
    println!(
        "BIPOP on C01 N = 10: {:?}",
        history
            .iter()
            .map(|h| (h.large, h.lambda, h.sigma0, h.evaluations))
            .collect::<Vec<_>>()
    );
    let small_runs = history.iter().filter(|h| !h.large).count();
    assert!(small_runs >= 1 && history.len() >= 3, "{history:?}");
    assert!(history[0].large && history[0].lambda == 40 && history[0].sigma0 == 1.0);
    let spent = |upto: &[RestartRecord], large: bool| -> usize {
        upto.iter()
            .filter(|h| h.large == large)
            .map(|h| h.evaluations)
            .sum()
    };
    let mut large_lambda = 40;
    for (k, h) in history.iter().enumerate().skip(1) {
        let before = &history[..k];
        assert_eq!(h.start, spent(before, true) + spent(before, false));
        let last_large = before.iter().rev().find(|b| b.large).unwrap();
        if h.large {
            large_lambda *= 2;
            assert_eq!(h.lambda, large_lambda, "run {k}");
            assert_eq!(h.sigma0, 1.0);
            assert!(spent(before, false) >= spent(before, true), "run {k}");
        } else {
            assert!(spent(before, false) < spent(before, true), "run {k}");
            let half = last_large.lambda / 2;
            assert!(
                (half.min(40)..=half.max(40)).contains(&h.lambda),
                "run {k}: λ {}",
                h.lambda
            );
            assert!((0.01..=1.0).contains(&h.sigma0), "run {k}: σ₀ {}", h.sigma0);
            assert!(
                h.evaluations < last_large.evaluations / 2 + h.lambda,
                "run {k}: {} evaluations",
                h.evaluations
            );
        }
    }
    assert_eq!(
        r.evaluations,
        spent(&history, true) + spent(&history, false)
    );
    assert!(r.evaluations <= 150_000 + history.last().unwrap().lambda);
    for h in &history {
        assert!(!constraint_handling::ordering::improves_best_so_far(
            &h.best,
            &r.best.snapshot.fitness
        ));
    }
    // The seed decides the draws: the same seed repeats, another differs.
    assert_eq!(go(9), (r, history.clone()));
    let (_, other) = go(10);
    assert_ne!(
        other
            .iter()
            .map(|h| (h.lambda, h.sigma0.to_bits()))
            .collect::<Vec<_>>(),
        history
            .iter()
            .map(|h| (h.lambda, h.sigma0.to_bits()))
            .collect::<Vec<_>>()
    );
}

/// The parameter rules of a spec: `population=log` and `eps-end=p%` set λ and T for
/// the run (and round-trip through the text form); bad values are refused by name.
#[test]
fn population_and_epsilon_end_rules_set_lambda_and_t() {
    use ma_es::variant::{EpsilonEnd, PopulationKind};
    use ma_es::ComponentSpec;
    let spec: ComponentSpec = "eps-mag-es:population=log:eps-end=10%".parse().unwrap();
    assert_eq!(spec.components.population, PopulationKind::Log);
    assert_eq!(spec.epsilon_end, EpsilonEnd::Share(10));
    assert_eq!(spec.to_string(), "eps-mag-es:population=log:eps-end=10%");
    assert_eq!(spec.to_string().parse::<ComponentSpec>().unwrap(), spec);
    let json = serde_json::to_string(&spec).unwrap();
    assert_eq!(serde_json::from_str::<ComponentSpec>(&json).unwrap(), spec);
    // A spec serialised before the rules existed reads as the paper's.
    let old = r#"{"repair":true,"back_calculation":"pseudo-inverse","sigma_cap":true,"matrix_adaptation":true,"ordering":"epsilon-level"}"#;
    assert_eq!(
        serde_json::from_str::<ComponentSpec>(old).unwrap(),
        Variant::EpsMagEs.spec()
    );
    // N = 10: λ = 4 + ⌊3 ln 10⌋ = 10; the budget 20 000 allows 2000 generations, T = 200.
    let c = spec.configure(&Config::default(), 10, 20_000);
    assert_eq!((c.lambda, c.t_max), (Some(10), 200));
    // The run has that λ: 20 000 evaluations (repairs included) in at most 2000
    // generations of 10; λ = 40 takes at most 500.
    let generations = |spec: &ComponentSpec| {
        single_spec(
            Simplex::new(10),
            &Config::default(),
            &small(20_000),
            spec,
            1,
        )
        .unwrap()
        .run(&mut RngNoise::seed_from_u64(1))
        .unwrap()
        .generations
    };
    let (log, paper) = (generations(&spec), generations(&Variant::EpsMagEs.spec()));
    println!("Simplex N = 10: {log} generations with population=log, {paper} with λ = 4N");
    assert!((1500..=2001).contains(&log), "{log} generations");
    assert!(paper <= 501 && log > 3 * paper, "{paper} generations");
    for bad in [
        "eps-mag-es:eps-end=0%",
        "eps-mag-es:eps-end=101%",
        "eps-mag-es:eps-end=5",
        "eps-mag-es:population=huge",
        "eps-mag-es:restarts=lipop",
        "eps-mag-es:stall=never",
    ] {
        let e = bad.parse::<ComponentSpec>().unwrap_err().to_string();
        let key = bad.split(':').nth(1).unwrap();
        assert!(e.contains(key) && e.contains("expected"), "{bad}: {e}");
    }
}

/// `stall=tolfun` ends a run whose feasible best has stopped moving (by 10⁻¹¹ over
/// 10 + ⌈30 N / λ⌉ generations) before the stagnation rule would; the first run is the
/// same run up to there.
#[test]
fn the_tolfun_stall_restarts_a_flat_run_earlier() {
    use crate::runs::drive as run;
    let p = Suite::synthetic(5).problem(1, 10).unwrap();
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let control = Control::to_the_end(small(60_000));
    let first = |spec: &str| {
        let spec: ma_es::ComponentSpec = spec.parse().unwrap();
        assert_eq!(
            spec.to_string().parse::<ma_es::ComponentSpec>().unwrap(),
            spec
        );
        let (_, h) = run(
            &p,
            &config,
            &control,
            &spec,
            9,
            &mut RngNoise::seed_from_u64(9),
        )
        .unwrap();
        h[0]
    };
    let stagnation = first("eps-mag-es:restarts=ipop");
    let tolfun = first("eps-mag-es:restarts=ipop:stall=tolfun");
    println!(
        "C01 N = 10: the first run stalls after {} generations by stagnation, {} by tolfun",
        stagnation.generations, tolfun.generations
    );
    assert!(tolfun.generations < stagnation.generations);
    assert_eq!(tolfun.termination, ma_es::Termination::Stalled);
    assert!(tolfun.best.violation == 0.0);
}

/// `stall=range` ends a run once the offspring's `f` (and the generations' lowest `f`
/// over the history) lie within 10⁻¹² of `|f|`: early on a problem whose optimum is
/// far from 0, never on one that converges to `f = 0`, which polishes on.
#[test]
fn the_range_stall_is_relative() {
    use crate::runs::drive as run;
    use ma_es::restarts::RestartRecord;
    fn first<P: ConstrainedProblem>(problem: &P, spec: &str) -> RestartRecord {
        let spec: ma_es::ComponentSpec = spec.parse().unwrap();
        let config = Config {
            t_max: 20,
            ..Config::default()
        };
        let control = Control::to_the_end(small(40_000));
        let (_, h) = run(
            problem,
            &config,
            &control,
            &spec,
            5,
            &mut RngNoise::seed_from_u64(5),
        )
        .unwrap();
        h[0]
    }
    // min c + Σ x² s.t. x₁ ≥ 1: optimum c + 1.
    let problem = |c: f64| {
        FnProblem::new(vec![-5.0; 4], vec![5.0; 4], 1, 0, move |x, g| {
            g[0] = 1.0 - x[0];
            Ok(c + x.iter().map(|v| v * v).sum::<f64>())
        })
        .unwrap()
    };
    let offset = problem(1000.0);
    let (stagnation, range) = (
        first(&offset, "eps-mag-es:restarts=ipop"),
        first(&offset, "eps-mag-es:restarts=ipop:stall=range"),
    );
    println!(
        "f* = 1001: the first run stalls after {} generations by stagnation, {} by range",
        stagnation.generations, range.generations
    );
    assert!(range.generations < stagnation.generations);
    assert!((range.best.objective - 1001.0).abs() < 1e-6 && range.best.violation == 0.0);
    // f* = 0: the relative range never closes before the stagnation rule ends the run.
    let plain = problem(-1.0);
    let (stagnation, range) = (
        first(&plain, "eps-mag-es:restarts=ipop"),
        first(&plain, "eps-mag-es:restarts=ipop:stall=range"),
    );
    assert_eq!(range.generations, stagnation.generations);
}
