//! COCO's bbob-constrained suite through the harness: a study records its runs under
//! the suite's name and labels, the report speaks of it, and εMAg-ES solves the easy
//! problems.

use emages::report::{comparison_report, Contender, Lineup, ReportOptions};
use emages::study::{run_study, Dataset, StudyConfig, StudySpec};
use emages::suites::BbobConstrainedSuite;
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
