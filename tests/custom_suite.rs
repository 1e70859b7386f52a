//! A benchmark suite of the user's own goes through the whole pipeline — study runner,
//! records, dataset, report — with its labels and groups, and without the CEC data.

use constraint_handling::{ConstrainedProblem, ProblemError};
use emages::dataset::Dataset;
use emages::report::{comparison_report, Contender, Lineup, ReportOptions};
use emages::store::load_runs;
use emages::study::{run_study, StudyConfig, StudySpec};
use emages::suite::{ProblemGroup, SharedProblem, Suite};
use emages::StudyError;
use ma_es::{Config, Variant};
use std::sync::Arc;

/// `min Σ (x_k − s)²` s.t. `s/2 − x₁ ≤ 0` (and, for the equality twin, `x₂ − s = 0`).
#[derive(Debug)]
struct Bowl {
    shift: f64,
    equality: bool,
    lb: Vec<f64>,
    ub: Vec<f64>,
}

impl ConstrainedProblem for Bowl {
    fn dim(&self) -> usize {
        self.lb.len()
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        usize::from(self.equality)
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.lb
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.ub
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        c[0] = self.shift / 2.0 - x[0];
        if self.equality {
            c[1] = x[1] - self.shift;
        }
        Ok(x.iter().map(|v| (v - self.shift).powi(2)).sum())
    }
}

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
        Ok(Arc::new(Bowl {
            shift: id as f64,
            equality: id == 3,
            lb: vec![-10.0; dim],
            ub: vec![10.0; dim],
        }))
    }
}

fn spec(problems: Vec<usize>) -> StudySpec {
    StudySpec {
        dim: 4,
        runs: 3,
        problems,
        configs: vec![
            StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
        ],
        budget_per_dim: 300,
        seed: 5,
        suite: Arc::new(Bowls),
        dynamics_problems: vec![2],
        shard: None,
        threads: Some(2),
        progress: false,
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
        plot_problems: vec![2],
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
        .with_suite(Arc::new(emages::suite::Cec2017Suite::default()))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the results are of the bowls suite, not cec2017"),
        "{err}"
    );
}
