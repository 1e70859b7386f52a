//! A crate outside the workspace: a tiny optimizer of its own, run by the emages harness
//! on CEC2017 and bbob-constrained, its CEC statistics read back. Built by
//! scripts/outside-crate/check with `emages` as its only dependency.

use emages_harness::optimizer::{Optimizer, Outcome, StopReason, Task, Tracker};
use emages_harness::study::{run_study, Dataset, StudyConfig, StudySpec};
use emages_harness::suites::{BbobConstrainedSuite, Cec2017Suite, Suite};
use emages_harness::StudyError;
use std::path::Path;
use std::sync::Arc;

/// (1+1) random local search with a fixed step, from the box's centre; its random
/// numbers (xorshift64*) follow from the task's seed alone.
#[derive(Debug)]
struct LocalSearch;

impl Optimizer for LocalSearch {
    fn kind(&self) -> &str {
        "local-search"
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let mut state = task.seed | 1;
        let mut uniform = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        };
        let (lb, ub) = (task.problem.lower_bounds(), task.problem.upper_bounds());
        let tracker = Tracker::new(task);
        let mut x: Vec<f64> = lb.iter().zip(ub).map(|(l, u)| 0.5 * (l + u)).collect();
        let mut best = tracker.evaluate(&x)?;
        let mut y = x.clone();
        while !tracker.exhausted() {
            for k in 0..x.len() {
                let step = 0.05 * (ub[k] - lb[k]) * (2.0 * uniform() - 1.0);
                y[k] = (x[k] + step).clamp(lb[k], ub[k]);
            }
            let candidate = tracker.evaluate(&y)?;
            let better = (candidate.violation, candidate.objective)
                < (best.violation, best.objective);
            if better {
                best = candidate;
                x.clone_from(&y);
            }
        }
        let iterations = tracker.evaluations();
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}

fn study(suite: Arc<dyn Suite>, out: &Path) -> Result<Dataset, StudyError> {
    let spec = StudySpec {
        runs: 5,
        problems: suite.problems().into_iter().take(4).collect(),
        budget_per_dim: 200,
        threads: Some(2),
        ..StudySpec::new(suite, 10, vec![StudyConfig::custom("mine", LocalSearch)])
    };
    let outcome = run_study(&spec, out)?;
    assert_eq!(outcome.ran, 4 * 5);
    Dataset::load(&[spec.files(out).runs])
}

fn main() -> Result<(), StudyError> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).expect("an output folder"));
    let cec = study(Arc::new(Cec2017Suite::official()), &out.join("cec2017"))?;
    assert_eq!(cec.instance, "official");
    let bbob = study(
        Arc::new(BbobConstrainedSuite::new(vec![1, 2], vec![1, 2])?),
        &out.join("bbob"),
    )?;
    for data in [&cec, &bbob] {
        for p in data.problems() {
            let s = data.statistics("mine", p, 1.0)?;
            assert_eq!(s.runs, 5);
            assert!((0.0..=1.0).contains(&s.feasibility_rate));
            println!(
                "{:>8} {}: best {:.4e}, median {:.4e}, feasible {:.0} %",
                data.label(p),
                data.suite().name(),
                s.best,
                s.median,
                100.0 * s.feasibility_rate
            );
        }
        // A checkpoint that was not recorded is an error, not the nearest one.
        assert!(data.statistics("mine", data.problems().into_iter().next().unwrap(), 0.3).is_err());
    }
    println!("an outside crate ran two studies and read their statistics");
    Ok(())
}
