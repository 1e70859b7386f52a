//! COCO's bbob-constrained suite through the harness: a study records its runs under
//! the suite's name and labels, the report speaks of it, and εMAg-ES solves the easy
//! problems.

use emages_harness::report::{comparison_report, Contender, Lineup, ReportOptions};
use emages_harness::study::{run_study, Dataset, StudyConfig, StudySpec};
use emages_harness::suites::BbobConstrainedSuite;
use ma_es::{Config, Variant};
use std::sync::Arc;

#[test]
fn a_study_on_bbob_constrained() {
    let suite = Arc::new(BbobConstrainedSuite::new(vec![1, 38, 49], vec![1, 2]).unwrap());
    let configs = vec![
        StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
        StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
    ];
    let spec = StudySpec {
        runs: 2,
        budget_per_dim: 2000,
        threads: Some(2),
        dynamics_problems: vec![1001],
        ..StudySpec::new(suite.clone(), 3, configs)
    };
    let out = tempfile::tempdir().unwrap();
    let outcome = run_study(&spec, out.path()).unwrap();
    assert_eq!(outcome.ran, 2 * 6 * 2);
    let data = Dataset::load(&[out.path().join("runs.jsonl")])
        .unwrap()
        .with_suite(suite.clone())
        .unwrap();
    assert_eq!(data.label(38_002), "f38i02");
    // The sphere with one constraint (f1) is solved: feasible, near the optimum.
    let best = bbob_constrained::BbobProblem::new(1, 3, 1)
        .unwrap()
        .best_value();
    for r in data.runs("eps-mag-es", 1001) {
        assert_eq!(r.best.violation(), 0.0, "{r:?}");
        let f = r.best.objective();
        // After 6000 evaluations Δf < 1 (the initial solution has Δf ≈ 10²–10⁴), and no
        // feasible point is better than the optimum.
        assert!((0.0..1.0).contains(&(f - best)), "f = {f}, optimum {best}");
    }
    let lineup = Lineup::new(
        Contender::variant(Variant::EpsMagEs),
        vec![Contender::variant(Variant::EpsSagEs)],
    );
    let report = out.path().join("report");
    comparison_report(&data, &lineup, &report, &ReportOptions::default()).unwrap();
    let t2 = std::fs::read_to_string(report.join("table2.md")).unwrap();
    assert!(t2.contains("| f49i01 |"), "{t2}");
    assert!(report.join("plots/f01i01_D3_fitness.svg").is_file());
    assert!(!std::fs::read_to_string(report.join("report.html"))
        .unwrap()
        .contains("CEC2017"));
}

/// All files under `dir` (relative path → bytes).
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// A study writes COCO's files beside its records, each run exactly once however often
/// it is resumed; the runs' final values agree with the records'.
#[test]
fn a_study_writes_cocos_files_once_per_run() {
    let configs = || {
        vec![
            StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            StudyConfig::preset("eps-mag-es-sigma", Variant::EpsMagEs, Config::default()),
        ]
    };
    let out = tempfile::tempdir().unwrap();
    let coco = out.path().join("coco");
    let spec = |instances: Vec<usize>| StudySpec {
        runs: 1,
        budget_per_dim: 500,
        threads: Some(2),
        coco: Some(coco.clone()),
        ..StudySpec::new(
            Arc::new(BbobConstrainedSuite::new(vec![1, 38, 54], instances).unwrap()),
            3,
            configs(),
        )
    };
    assert_eq!(run_study(&spec(vec![1, 2]), out.path()).unwrap().ran, 12);
    let first = tree(&coco);
    let info = String::from_utf8(first["eps-mag-es/bbobexp_f38.info"].clone()).unwrap();
    assert!(
        info.starts_with("suite = 'bbob-constrained', funcId = 38, DIM = 3,"),
        "{info}"
    );
    // One entry per instance, in the order the runs finished (each .dat block in the
    // same order).
    assert!(info.contains("data_f38/bbobexp_f38_DIM3.dat, "), "{info}");
    assert!(info.contains(" 1:") && info.contains(" 2:"), "{info}");
    assert_eq!(first.keys().filter(|k| k.ends_with(".info")).count(), 6);
    // Resuming with nothing to do changes nothing; more instances append to the files.
    assert_eq!(run_study(&spec(vec![1, 2]), out.path()).unwrap().ran, 0);
    assert_eq!(tree(&coco), first);
    assert_eq!(run_study(&spec(vec![1, 2, 3]), out.path()).unwrap().ran, 6);
    let second = tree(&coco);
    for (path, bytes) in &first {
        if path.ends_with(".dat") || path.ends_with(".tdat") {
            assert!(second[path].starts_with(bytes), "{path} rewritten");
        }
    }
    let info = String::from_utf8(second["eps-mag-es/bbobexp_f38.info"].clone()).unwrap();
    assert_eq!(info.matches(" 3:").count(), 1, "{info}");
    // Each run's last .dat line is COCO's best-so-far, min over the evaluated points of
    // max(f, f_opt) + Σ g⁺ − f_opt: at most the record's feasible best (one of those
    // points), smaller where an infeasible point came closer.
    let data = Dataset::load(&[out.path().join("runs.jsonl")]).unwrap();
    let dat = String::from_utf8(second["eps-mag-es/data_f1/bbobexp_f1_DIM3.dat"].clone()).unwrap();
    let info = String::from_utf8(second["eps-mag-es/bbobexp_f1.info"].clone()).unwrap();
    let order: Vec<usize> = info
        .lines()
        .last()
        .unwrap()
        .split(", ")
        .skip(1)
        .map(|e| e.split(':').next().unwrap().parse().unwrap())
        .collect();
    let lasts: Vec<Vec<String>> = dat
        .split('%')
        .filter(|b| !b.trim().is_empty())
        .map(|b| {
            let last = b.trim_end().lines().last().unwrap();
            last.split_whitespace().map(str::to_string).collect()
        })
        .collect();
    let finals: Vec<f64> = lasts.iter().map(|l| l[2].parse().unwrap()).collect();
    assert_eq!(finals.len(), 3);
    for (k, &i) in order.iter().enumerate() {
        let r = &data.runs("eps-mag-es", 1000 + i)[0];
        let fopt = bbob_constrained::BbobProblem::new(1, 3, i)
            .unwrap()
            .best_value();
        assert_eq!(r.best.violation(), 0.0);
        let delta = (r.best.objective() - fopt).max(0.0);
        assert!(
            finals[k] <= delta * (1.0 + 1e-9),
            "instance {i}: COCO {} vs record {delta}",
            finals[k]
        );
        assert!(finals[k] >= 0.0);
        // Every evaluation the optimizer counts evaluates g once; f is not evaluated
        // for the repair's Jacobian probes.
        let (f_evals, g_evals): (usize, usize) =
            (lasts[k][0].parse().unwrap(), lasts[k][1].parse().unwrap());
        assert_eq!(g_evals, r.evals, "instance {i}");
        assert!(
            f_evals <= g_evals && f_evals > g_evals / 2,
            "{f_evals} {g_evals}"
        );
    }
}

#[test]
fn coco_output_needs_a_coco_suite_and_every_recorded_run() {
    let configs = vec![StudyConfig::preset(
        "eps-mag-es",
        Variant::EpsMagEs,
        Config::default(),
    )];
    let out = tempfile::tempdir().unwrap();
    let cec = StudySpec {
        runs: 1,
        problems: vec![1],
        budget_per_dim: 100,
        coco: Some(out.path().join("coco")),
        ..StudySpec::new(
            Arc::new(emages_harness::suites::Cec2017Suite::synthetic(1)),
            10,
            configs.clone(),
        )
    };
    let err = run_study(&cec, out.path()).unwrap_err().to_string();
    assert!(
        err.contains("does not name its problems as COCO does"),
        "{err}"
    );
    // Runs recorded without --coco cannot be continued with it.
    let suite = Arc::new(BbobConstrainedSuite::new(vec![1], vec![1, 2]).unwrap());
    let plain = StudySpec {
        runs: 1,
        budget_per_dim: 100,
        problems: vec![1001],
        ..StudySpec::new(suite, 2, configs)
    };
    let dir = out.path().join("plain");
    run_study(&plain, &dir).unwrap();
    let with_coco = StudySpec {
        coco: Some(dir.join("coco")),
        problems: vec![1001, 1002],
        ..plain
    };
    let err = run_study(&with_coco, &dir).unwrap_err().to_string();
    assert!(err.contains("1 runs already recorded"), "{err}");
}
