//! A benchmark suite of the user's own goes through the whole pipeline — study runner,
//! records, dataset, report — with its labels and groups, and without the CEC data.

use constraint_handling::FnProblem;
use emages_harness::report::{comparison_report, Contender, Lineup, ReportOptions};
use emages_harness::study::store::load_runs;
use emages_harness::study::Dataset;
use emages_harness::study::{run_study, StudyConfig, StudySpec};
use emages_harness::suites::{ProblemGroup, SharedProblem, Suite};
use emages_harness::StudyError;
use ma_es::{Config, Variant};
use std::sync::Arc;

#[derive(Debug)]
struct Bowls;

impl Suite for Bowls {
    fn name(&self) -> &str {
        "bowls"
    }
    fn problems(&self) -> Vec<usize> {
        vec![1, 2, 3]
    }
    fn label(&self, id: usize) -> String {
        format!("B{id}")
    }
    fn groups(&self) -> Vec<ProblemGroup> {
        vec![ProblemGroup::new(
            "equality",
            "bowls with an equality",
            vec![3],
        )]
    }
    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        if !(1..=3).contains(&id) {
            return Err(self.unknown(id));
        }
        // min Σ (x_k − s)²  s.t.  s/2 − x₁ ≤ 0 (and, for B3, x₂ − s = 0)
        let (shift, equality) = (id as f64, id == 3);
        let bowl = FnProblem::new(
            vec![-10.0; dim],
            vec![10.0; dim],
            1,
            usize::from(equality),
            move |x, c| {
                c[0] = shift / 2.0 - x[0];
                if equality {
                    c[1] = x[1] - shift;
                }
                Ok(x.iter().map(|v| (v - shift).powi(2)).sum())
            },
        )?;
        Ok(Arc::new(bowl))
    }
}

fn spec(problems: Vec<usize>) -> StudySpec {
    let configs = vec![
        StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
        StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
    ];
    StudySpec {
        runs: 3,
        problems,
        budget_per_dim: 300,
        seed: 5,
        dynamics_problems: vec![2],
        threads: Some(2),
        ..StudySpec::new(Arc::new(Bowls), 4, configs)
    }
}

#[test]
fn a_users_suite_runs_and_reports_with_its_labels_and_groups() {
    let out = tempfile::tempdir().unwrap();
    let outcome = run_study(&spec(vec![1, 2, 3]), out.path()).unwrap();
    assert_eq!(outcome.ran, 2 * 3 * 3);

    let rows = load_runs(&out.path().join("runs.jsonl")).unwrap();
    assert!(rows
        .iter()
        .all(|r| r.suite == "bowls" && r.instance == "default"));
    // Known here only by name: default labels; attached: the suite's own.
    let data = Dataset::load(&[out.path().join("runs.jsonl")]).unwrap();
    assert_eq!(data.label(2), "P2");
    let data = data.with_suite(Arc::new(Bowls)).unwrap();
    assert_eq!(data.label(2), "B2");

    let lineup = Lineup::new(
        Contender::new("eps-mag-es", "εMAg-ES"),
        vec![Contender::new("eps-sag-es", "εSAg-ES")],
    );
    let report_dir = out.path().join("report");
    let options = ReportOptions {
        plot_problems: Some(vec![2]),
        ..ReportOptions::default()
    };
    comparison_report(&data, &lineup, &report_dir, &options).unwrap();
    let group = std::fs::read_to_string(report_dir.join("table4_equality.md")).unwrap();
    assert!(
        group.contains("Table 4 — bowls with an equality (1 problems), N = 4"),
        "{group}"
    );
    let t2 = std::fs::read_to_string(report_dir.join("table2.csv")).unwrap();
    let labels: Vec<&str> = t2
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    assert_eq!(labels, ["B1", "B2", "B3"]);
    assert!(report_dir.join("plots/B2_D4_fitness.svg").is_file());
    assert!(
        !report_dir.join("table5_rotated.md").exists(),
        "no CEC groups"
    );
    assert!(!report_dir.join("paper_comparison.md").exists(), "no paper");
    println!(
        "custom suite: {} runs, labels {labels:?}, group table written",
        rows.len()
    );
}

#[test]
fn a_users_suite_rejects_what_it_does_not_have() {
    let out = tempfile::tempdir().unwrap();
    let err = run_study(&spec(vec![1, 4]), out.path()).unwrap_err();
    assert!(
        err.to_string()
            .contains("problem 4 is not in the bowls suite (it has 1–3)"),
        "{err}"
    );
    // Results of one suite do not mix with another's.
    run_study(&spec(vec![1]), out.path()).unwrap();
    let data = Dataset::load(&[out.path().join("runs.jsonl")]).unwrap();
    let err = data
        .with_suite(Arc::new(emages_harness::suites::Cec2017Suite::catalogue()))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the results are of the bowls suite, not cec2017"),
        "{err}"
    );
}

#[test]
fn a_studys_wall_time_counts_its_runs_not_the_wait_after_preparing() {
    // cec2020_rw prepares every dimension group first (checking input and locking the
    // files) and runs them one after another: each group's time starts at its run.
    let out = tempfile::tempdir().unwrap();
    let spec = spec(vec![1]);
    run_study(&spec, out.path()).unwrap();
    let prepared = spec.prepare(out.path()).unwrap();
    assert_eq!(prepared.pending(), 0);
    let wait = std::time::Duration::from_millis(400);
    std::thread::sleep(wait);
    let outcome = prepared.run().unwrap();
    assert_eq!((outcome.ran, outcome.skipped), (0, 6));
    assert!(outcome.elapsed < wait, "{:?}", outcome.elapsed);
}
