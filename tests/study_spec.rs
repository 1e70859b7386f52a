//! What a study specification decides beyond its runs: the checkpoints (the spec's, not
//! the strategy's), and that a study's records stay of one OpenBLAS kernel.

mod support;

use emages_harness::study::store::load_runs;
use emages_harness::study::Dataset;
use emages_harness::study::{run_study, StudyConfig, StudySpec};
use emages_harness::suites::Cec2017Suite;
use ma_es::{Config, Variant};
use std::sync::Arc;

fn spec() -> StudySpec {
    let configs = vec![StudyConfig::preset(
        "eps-mag-es",
        Variant::EpsMagEs,
        Config::default(),
    )];
    StudySpec {
        runs: 2,
        problems: vec![1, 3],
        budget_per_dim: 300,
        threads: Some(2),
        ..StudySpec::new(Arc::new(Cec2017Suite::synthetic(4)), 10, configs)
    }
}

#[test]
fn the_study_chooses_the_checkpoints() {
    let out = tempfile::tempdir().unwrap();
    let quarters = StudySpec {
        checkpoint_fractions: vec![0.25, 0.75],
        ..spec()
    };
    run_study(&quarters, out.path()).unwrap();
    let rows = load_runs(&out.path().join("runs.jsonl")).unwrap();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let at: Vec<(f64, usize)> = r
            .checkpoints
            .iter()
            .map(|c| (c.fraction, c.checkpoint.evaluations))
            .collect();
        assert_eq!(at.len(), 2);
        // ⌈f · 3000⌉ = 750 and 2250, taken after the generation that reaches them (a
        // generation spends λ = 40 evaluations and those of its repairs).
        assert!(
            at[0].0 == 0.25 && at[0].1 >= 750 && at[0].1 < 2250,
            "{at:?}"
        );
        assert!(
            at[1].0 == 0.75 && at[1].1 >= 2250 && at[1].1 <= r.evals,
            "{at:?}"
        );
    }
    let data = Dataset::load(&[out.path().join("runs.jsonl")]).unwrap();
    assert_eq!(data.checkpoint_fractions, [0.25, 0.75]);
    // Resuming with other checkpoints is another study.
    let err = run_study(&spec(), out.path()).unwrap_err().to_string();
    assert!(err.contains("checkpoints at [0.25, 0.75]"), "{err}");
    // Bad fractions are refused before anything runs.
    for bad in [vec![], vec![0.5, 0.5], vec![0.0, 1.0], vec![0.5, 1.5]] {
        let s = StudySpec {
            checkpoint_fractions: bad.clone(),
            ..spec()
        };
        let dir = tempfile::tempdir().unwrap();
        let err = run_study(&s, dir.path()).unwrap_err().to_string();
        assert!(err.contains("checkpoint fractions"), "{bad:?}: {err}");
    }
}

/// Records of another kernel family are not continued: the same seeds would give other
/// runs, and the study would mix two roundings. (The records are made by this process
/// and relabelled, as if another machine had written them.)
#[test]
fn a_study_of_another_kernel_is_not_continued() {
    let out = tempfile::tempdir().unwrap();
    let first = StudySpec { runs: 1, ..spec() };
    run_study(&first, out.path()).unwrap();
    let path = out.path().join("runs.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let here = emages_harness::study::platform();
    let kernel = here
        .strip_prefix("openblas ")
        .and_then(|p| p.split(';').next())
        .expect("the platform names the OpenBLAS kernel")
        .to_string();
    let other = if kernel == "Cooperlake" {
        "Sandybridge"
    } else {
        "Cooperlake"
    };
    std::fs::write(&path, text.replace(&kernel, other)).unwrap();
    let err = run_study(&spec(), out.path()).unwrap_err().to_string();
    assert!(
        err.contains(&format!("OpenBLAS's {other} kernels"))
            && err.contains(&format!("OPENBLAS_CORETYPE={other}")),
        "{err}"
    );
    // Reading them is fine: --status and reports do not run anything.
    let status = emages_harness::study::status::study_status(&first, out.path()).unwrap();
    assert!(status.to_string().contains("complete"), "{status}");
}

/// A stochastic component reached from a spec's text form: stochastic ranking
/// (`ranking=stochastic`) draws its coin flips from a stream derived from each run's
/// seed, so the study's records are the same on one thread as on two, sharded or not.
#[test]
fn a_stochastic_ranking_from_a_spec_repeats_bit_for_bit() {
    use emages_harness::optimizer::MaEsOptimizer;
    use emages_harness::study::store::RunRow;
    use emages_harness::study::Shard;
    use support::records_without_time;
    let sr: ma_es::ComponentSpec = "eps-mag-es:ranking=stochastic".parse().unwrap();
    let study = |threads: usize, shard: Option<Shard>| StudySpec {
        threads: Some(threads),
        shard,
        runs: 3,
        ..StudySpec::new(
            Arc::new(Cec2017Suite::synthetic(4)),
            10,
            vec![
                StudyConfig::custom(sr.to_string(), MaEsOptimizer::with_spec(sr)),
                StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            ],
        )
    };
    let (two, one, sharded) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    run_study(
        &StudySpec {
            budget_per_dim: 500,
            ..study(2, None)
        },
        two.path(),
    )
    .unwrap();
    run_study(
        &StudySpec {
            budget_per_dim: 500,
            ..study(1, None)
        },
        one.path(),
    )
    .unwrap();
    for index in 1..=2 {
        let shard = Some(Shard { index, count: 2 });
        run_study(
            &StudySpec {
                budget_per_dim: 500,
                ..study(1, shard)
            },
            sharded.path(),
        )
        .unwrap();
    }
    let a = records_without_time(two.path());
    assert_eq!(a.len(), 2 * 3 * 28, "C01–C28, 3 runs, 2 configurations");
    let stochastic: Vec<&RunRow> = a
        .iter()
        .filter(|r| r.variant == "eps-mag-es:ranking=stochastic")
        .collect();
    assert_eq!(
        stochastic.len(),
        84,
        "the spec's text form is the recorded variant"
    );
    assert_eq!(
        a,
        records_without_time(one.path()),
        "one thread against two"
    );
    assert_eq!(
        a,
        records_without_time(sharded.path()),
        "two shards against one file"
    );
    println!("checked {} records of 2 configurations three ways", a.len());
}

/// Run control belongs to the study (budget, checkpoints, dynamics: `Config` has no
/// such fields any more). The optimizer keeps a generation limit of its own, and the
/// convergence criteria are off unless a configuration switches them on: the study's
/// runs go to the budget, as the suites' protocols say.
#[test]
fn runs_go_to_the_budget_unless_a_configuration_stops_them() {
    use emages_harness::optimizer::{MaEsOptimizer, StopReason};
    use ma_es::control::Convergence;
    let run = |optimizer: MaEsOptimizer| {
        let out = tempfile::tempdir().unwrap();
        let spec = StudySpec {
            configs: vec![StudyConfig::custom("eps-mag-es", optimizer)],
            budget_per_dim: 3000,
            ..spec()
        };
        run_study(&spec, out.path()).unwrap();
        load_runs(&out.path().join("runs.jsonl")).unwrap()
    };
    let plain = MaEsOptimizer::preset(Variant::EpsMagEs);
    for r in run(plain.clone()) {
        assert_eq!(r.termination, StopReason::Budget, "{r:?}");
        assert!(r.evals >= 30_000);
    }
    for r in run(plain.clone().with_max_generations(20)) {
        assert_eq!(
            (r.termination, r.generations),
            (StopReason::IterationLimit, 21)
        );
    }
    // Switched on (T = 50 ends the ε phase early): synthetic C01 converges well
    // within the budget, and the record says by which criterion.
    let config = Config {
        t_max: 50,
        ..Config::default()
    };
    let converging = plain
        .with_config(config)
        .with_convergence(Convergence::default());
    let rows = run(converging);
    let c01: Vec<_> = rows.iter().filter(|r| r.problem == 1).collect();
    assert_eq!(c01.len(), 2);
    for r in c01 {
        assert!(
            matches!(&r.termination, StopReason::Other(w) if ["tolfun", "tolx", "stagnation"].contains(&w.as_str())),
            "{r:?}"
        );
        assert!(r.evals < 30_000, "{r:?}");
    }
}

/// A configuration with restarts records its restart history in every run record: the
/// runs' evaluations add up to the run's, each run starts where the ones before it
/// ended, and the history survives the store (read back equal); a single run records
/// none. The records repeat on one thread and on two.
#[test]
fn restart_histories_are_recorded_and_read_back() {
    use emages_harness::optimizer::MaEsOptimizer;
    use support::records_without_time;
    let bipop: ma_es::ComponentSpec = "eps-mag-es:restarts=bipop:eps-end=5%".parse().unwrap();
    let study = |threads: usize| StudySpec {
        threads: Some(threads),
        runs: 2,
        problems: vec![1, 2, 6],
        budget_per_dim: 4000,
        ..StudySpec::new(
            Arc::new(Cec2017Suite::synthetic(4)),
            10,
            vec![
                StudyConfig::custom(bipop.to_string(), MaEsOptimizer::with_spec(bipop)),
                StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            ],
        )
    };
    let (two, one) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_study(&study(2), two.path()).unwrap();
    run_study(&study(1), one.path()).unwrap();
    let rows = records_without_time(two.path());
    assert_eq!(rows.len(), 12);
    let mut restarted = 0;
    for r in &rows {
        if r.variant == "eps-mag-es" {
            assert!(r.restarts.is_empty(), "{r:?}");
            continue;
        }
        assert!(!r.restarts.is_empty(), "{r:?}");
        assert_eq!(
            r.restarts.iter().map(|h| h.evaluations).sum::<usize>(),
            r.evals
        );
        let mut start = 0;
        for h in &r.restarts {
            assert_eq!(h.start, start);
            start += h.evaluations;
        }
        assert!(r.restarts[0].large && r.restarts[0].lambda == 40);
        restarted += usize::from(r.restarts.len() > 1);
    }
    assert!(restarted >= 1, "some run restarted");
    // The JSON lines carry the history; the single runs' lines do not mention it.
    let text: String = std::fs::read_dir(two.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("runs"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for line in text.lines() {
        assert_eq!(
            line.contains("\"restarts\""),
            line.contains("restarts=bipop"),
            "{line}"
        );
    }
    assert_eq!(
        rows,
        records_without_time(one.path()),
        "one thread against two"
    );
    println!(
        "{restarted} of 6 BIPOP runs restarted; {} records checked",
        rows.len()
    );
}
