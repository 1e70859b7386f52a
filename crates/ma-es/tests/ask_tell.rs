//! The strategy driven by ask and tell: the same trajectory as the drivers' runs, bit
//! for bit, however the repair's evaluations are batched; a run saved after any tell
//! continues exactly; the repair's requests come in batches. (The Jacobians it asks
//! for: `jacobians.rs`.)

#[path = "support/asking.rs"]
mod asking;
#[path = "support/runs.rs"]
mod runs;
use asking::{answer, ask_tell, assert_same, control, simplex, start, SPECS};
use cec2017_constrained::Suite;
use constraint_handling::ConstrainedProblem;
use ma_es::ask_tell::AskTell;
use ma_es::noise::RngNoise;
use ma_es::strategy::{Batching, RequestKind, Told};
use ma_es::{ComponentSpec, Config};
use ndarray::Array2;
use runs::{drive, Control};

/// Ask and tell, batched either way, gives the driver's result bit for bit: on a user
/// problem and on CEC2017 problems whose batches round differently from single points.
#[test]
fn ask_and_tell_replays_the_drivers_runs_bit_for_bit() {
    let suite = Suite::synthetic(3);
    let mut checked = 0;
    for text in SPECS {
        let spec: ComponentSpec = text.parse().unwrap();
        for (name, problem) in [
            (
                "simplex",
                Box::new(simplex(4)) as Box<dyn ConstrainedProblem>,
            ),
            ("C05", Box::new(suite.problem(5, 10).unwrap())),
            ("C22", Box::new(suite.problem(22, 10).unwrap())),
        ] {
            let problem = &*problem;
            let budget = 12_000;
            let (expected, runs) = drive(
                &problem,
                &Config::default(),
                &control(budget),
                &spec,
                5,
                &mut RngNoise::seed_from_u64(5),
            )
            .unwrap();
            for batching in [Batching::Generation, Batching::Offspring] {
                let (r, history, _) = ask_tell(
                    &problem,
                    &Config::default(),
                    &control(budget),
                    &spec,
                    5,
                    batching,
                );
                assert_same(&r, &expected, &format!("{text} on {name}, {batching:?}"));
                assert_eq!(history, runs, "{text} on {name}, {batching:?}");
                checked += 1;
            }
        }
    }
    println!("checked {checked} ask-and-tell runs against the driver");
    assert_eq!(checked, SPECS.len() * 3 * 2);
}

/// As [`control`], with the convergence criteria on (their state is saved too).
fn converging(budget: usize) -> Control {
    Control {
        convergence: ma_es::control::Convergence::default(),
        ..control(budget)
    }
}

/// A run saved (MessagePack) after tell number `k` and restored continues exactly as
/// the original: same requests, same result — inside restart sequences too, with the
/// convergence criteria on.
#[test]
fn a_run_saved_after_any_tell_continues_bit_for_bit() {
    let problem = Suite::synthetic(3).problem(7, 10).unwrap();
    let mut saves = 0;
    for text in SPECS {
        let spec: ComponentSpec = text.parse().unwrap();
        let budget = 8_000;
        let (expected, runs, sizes) = ask_tell(
            &problem,
            &Config::default(),
            &converging(budget),
            &spec,
            11,
            Batching::Generation,
        );
        // Save before the first ask and at a few tells spread over the run, in the
        // repair's phases too, as MessagePack and as JSON.
        let total = sizes.len();
        let cuts = [0, 1, 2, 3, total / 3, total / 2 + 1, total - 2];
        for (cut, json) in cuts.into_iter().flat_map(|c| [(c, false), (c, true)]) {
            let mut es = converging(budget)
                .options(&spec, &Config::default(), 11)
                .build_for(&problem)
                .unwrap()
                .ask_tell()
                .unwrap();
            let mut seen = Vec::new();
            for _ in 0..cut {
                answer(&mut es, &problem, &mut seen).unwrap();
            }
            let mut restored: AskTell<RngNoise> = if json {
                let saved = serde_json::to_string(&es)
                    .unwrap_or_else(|e| panic!("{text}, tell {cut}: to JSON: {e}"));
                serde_json::from_str(&saved)
                    .unwrap_or_else(|e| panic!("{text}, tell {cut}: from JSON: {e}"))
            } else {
                let bytes = rmp_serde::to_vec_named(&es).unwrap();
                rmp_serde::from_slice(&bytes).unwrap()
            };
            saves += 1;
            while answer(&mut restored, &problem, &mut seen)
                .unwrap()
                .is_some()
            {}
            let what = format!(
                "{text}, saved after tell {cut} as {}",
                if json { "JSON" } else { "MessagePack" }
            );
            assert_eq!(seen, sizes, "{what}: the requests");
            assert_same(&restored.result(), &expected, &what);
            assert_eq!(restored.restarts(), &runs[..], "{what}");
        }
    }
    println!("{saves} runs saved midway (MessagePack and JSON) and restored");
    assert_eq!(saves, SPECS.len() * 14);
}

/// Batched by generation, the repair asks for all its probes at once and all its
/// repaired points at once; a request of one point is a generation that repairs one
/// offspring. Batched by offspring, every repaired point comes alone.
#[test]
fn the_repair_asks_in_batches() {
    // C06: six equality constraints, infeasible offspring all along.
    let problem = Suite::synthetic(3).problem(6, 10).unwrap();
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    let count = |batching| {
        let (_, _, sizes) = ask_tell(
            &problem,
            &Config::default(),
            &control(20_000),
            &spec,
            2,
            batching,
        );
        let requests = |kind: RequestKind| sizes.iter().filter(|(k, _)| *k == kind).count();
        let points = |kind: RequestKind| -> usize {
            sizes
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, n)| n)
                .sum()
        };
        (
            requests(RequestKind::Repaired),
            points(RequestKind::Repaired),
            requests(RequestKind::JacobianProbes),
            sizes.iter().filter(|(_, n)| *n == 1).count(),
        )
    };
    let (by_generation, repaired, probes, single) = count(Batching::Generation);
    let (by_offspring, repaired_too, probes_alone, single_alone) = count(Batching::Offspring);
    println!(
        "repaired points {repaired}: {by_generation} requests by generation ({single} of one point), {by_offspring} by offspring; probe requests {probes} against {probes_alone}"
    );
    assert_eq!(repaired, repaired_too);
    assert_eq!(by_offspring, repaired, "one request per repaired point");
    assert_eq!(single_alone, repaired);
    assert!(repaired > 50, "the run repairs ({repaired})");
    // At most θ_r = 3 steps per repair generation: at most 3 requests of each kind.
    let repair_generations = 20_000 / 40 / 10 + 1;
    assert!(by_generation <= 3 * repair_generations, "{by_generation}");
    assert!(probes <= 3 * repair_generations, "{probes}");
    assert!(single < by_generation);
}

/// Telling values of the wrong shape, or without an ask, is an error that leaves the
/// run as it was.
#[test]
fn bad_tells_are_errors_and_change_nothing() {
    let problem = simplex(3);
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    let mut es = start(&problem, &spec, 2_000, 1);
    let err = es.tell(&[1.0], Array2::zeros((2, 1)).view()).unwrap_err();
    assert!(err.to_string().contains("without a pending ask"), "{err}");
    let lambda = es.ask().unwrap().unwrap().points.ncols();
    let err = es
        .tell(&[0.0; 3], Array2::zeros((2, lambda)).view())
        .unwrap_err();
    assert!(err.to_string().contains("objectives"), "{err}");
    let err = es
        .tell(&vec![0.0; lambda], Array2::zeros((lambda, 2)).view())
        .unwrap_err();
    assert!(err.to_string().contains("constraints"), "{err}");
    // The run goes on as if nothing had happened.
    let mut sizes = Vec::new();
    while answer(&mut es, &problem, &mut sizes).unwrap().is_some() {}
    let (expected, _, _) = ask_tell(
        &problem,
        &Config::default(),
        &control(2_000),
        &spec,
        1,
        Batching::Generation,
    );
    assert_same(&es.result(), &expected, "after bad tells");
}

/// A population whose probes would not fit one request (N = 128, λ = 512: 2²² / N² =
/// 256 offspring a request) is repaired in waves, with the driver's values.
#[test]
fn a_huge_population_is_repaired_in_waves() {
    let problem = simplex(128);
    let spec: ComponentSpec = "eps-mag-es".parse().unwrap();
    // Every offspring repaired in generation 0 (θ_p = 1); the budget ends the run there.
    let config = Config {
        theta_p: 1.0,
        ..Config::default()
    };
    let control = control(2_000);
    let (expected, _) = drive(
        &problem,
        &config,
        &control,
        &spec,
        3,
        &mut RngNoise::seed_from_u64(3),
    )
    .unwrap();
    let (r, _, sizes) = ask_tell(&problem, &config, &control, &spec, 3, Batching::Generation);
    assert_same(&r, &expected, "λ = 512 at N = 128");
    let probes: Vec<usize> = sizes
        .iter()
        .filter(|(k, _)| *k == RequestKind::JacobianProbes)
        .map(|(_, n)| n / 128)
        .collect();
    println!("probe requests (offspring each): {probes:?}");
    assert!(
        probes.len() >= 2 && probes.iter().all(|&a| a <= 256),
        "{probes:?}"
    );
    assert_eq!(probes[0], 256);
}

/// In the middle of a restart sequence the result counts the whole run: its
/// evaluations, its checkpoints taken so far (in order, none beyond the count), and the
/// dynamics up to the generation just told.
#[test]
fn a_result_midway_counts_the_whole_sequence() {
    let problem = suite_problem();
    let spec: ComponentSpec = "eps-mag-es-r".parse().unwrap();
    let mut es = start(&problem, &spec, 30_000, 2);
    let (mut sizes, mut checked, mut later_runs) = (Vec::new(), 0, 0);
    while let Some(told) = answer(&mut es, &problem, &mut sizes).unwrap() {
        if !matches!(told, Told::Iteration(_)) {
            continue;
        }
        let r = es.result();
        let total = es.evaluations();
        assert_eq!(r.evaluations, total);
        let dynamics = r.dynamics.as_ref().unwrap();
        assert_eq!(dynamics.last().unwrap().evaluations, total);
        assert!(dynamics
            .windows(2)
            .all(|w| w[0].evaluations <= w[1].evaluations));
        assert!(r.checkpoints.iter().all(|c| c.evaluations <= total));
        later_runs += usize::from(es.report().before.runs > 0);
        checked += 1;
    }
    println!("checked {checked} generations, {later_runs} in later runs");
    assert!(later_runs > 0, "the sequence restarted");
}

fn suite_problem() -> impl ConstrainedProblem {
    Suite::synthetic(3).problem(5, 10).unwrap()
}
