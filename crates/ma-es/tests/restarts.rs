//! Restarts and the rules that end a run early: IPOP and BIPOP within one budget,
//! polishing runs, an opening ranking, the population and ε end rules, and the stalls
//! that restart a flat run.

#[path = "support/problems.rs"]
mod problems;
#[path = "support/runs.rs"]
mod runs;
use cec2017_constrained::Suite;
use constraint_handling::{ConstrainedProblem, FnProblem};
use ma_es::control::Limits;
use ma_es::noise::RngNoise;
use ma_es::{Config, Variant};
use problems::{small, Simplex};
use runs::{drive, single_spec, Control};

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
