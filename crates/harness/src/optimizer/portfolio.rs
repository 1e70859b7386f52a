//! The recommended strategy, the portfolio ([`emages::portfolio`]), as a harness
//! optimizer: its run by ask and tell, every point evaluated through the task's
//! [`Tracker`].

use super::local_phase::{black_box_shape, drive};
use super::{Optimizer, Outcome, StopReason, Task, Tracker};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use emages::portfolio::PortfolioSettings;
use emages::Options;
use emages_solver::{Solver, Termination};
use local_phase::sqp::SqpSettings;

/// The portfolio ([`emages::portfolio`]) as a harness optimizer: the run of
/// `options` (with the task's budget and seed), by ask and tell, every point evaluated
/// through the task's [`Tracker`] (in the request's order, one at a time, as the
/// harness evaluates every optimizer). The problem is a black box unless
/// `exact_jacobians`.
///
/// ```
/// use emages_harness::optimizer::{Optimizer, PortfolioOptimizer, Task};
/// use constraint_handling::FnProblem;
/// // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 on [−5, 5]²: f* = ½
/// let p = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
///     c[0] = 1.0 - x[0] - x[1];
///     Ok(x[0] * x[0] + x[1] * x[1])
/// })
/// .unwrap();
/// let out = PortfolioOptimizer::default().run(&Task::new(&p, 5_000, 1)).unwrap();
/// assert!((out.best.objective() - 0.5).abs() < 1e-8 && out.best.violation() == 0.0);
/// // The recommended strategy stops by itself.
/// assert!(out.evaluations < 1_000 && out.termination.to_string() == "confirmed");
/// ```
#[derive(Clone, Debug)]
pub struct PortfolioOptimizer {
    /// The portfolio's options (their budget and seed are the task's).
    pub options: Options,
    /// Whether the run takes the problem's constraint Jacobian where it offers one
    /// ([`ConstrainedProblem::constraint_jacobian`](constraint_handling::ConstrainedProblem::constraint_jacobian)):
    /// the ES rounds' repair then asks for exact Jacobians, charged by the CEC2020 rule,
    /// instead of `N` difference probes each (labelled `+jacobian=exact`). Off: a black
    /// box.
    pub exact_jacobians: bool,
}

impl Default for PortfolioOptimizer {
    /// The recommended strategy ([`Options::recommended`]), a black box.
    fn default() -> Self {
        Self {
            options: Options::recommended(),
            exact_jacobians: false,
        }
    }
}

impl PortfolioOptimizer {
    /// The portfolio of `options`, a black box.
    #[must_use]
    pub fn new(options: Options) -> Self {
        Self {
            options,
            exact_jacobians: false,
        }
    }

    /// The `portfolio-share0` family of the fourth design round by name: the portfolio
    /// run to the budget with the problem's own equality margin, the local phase
    /// without the curvature steering but for `…:curvature`, NaN violations ordered
    /// last but for `portfolio-share0` itself, with `…:soc` the second-order
    /// correction and with `…:bound` bounded local runs; the settings the family
    /// predates (warm curvature, patience, early confirmation, the decrease tolerance,
    /// speculative probes, the accuracy) off; `None` for another name.
    ///
    /// ```
    /// use emages_harness::optimizer::PortfolioOptimizer;
    /// let curvature = PortfolioOptimizer::share0("portfolio-share0:nan-last:curvature").unwrap();
    /// assert_eq!(
    ///     curvature.options.to_string(),
    ///     "portfolio:confirmations=0:margin=problem:soc=off:warm=off:patience=off:early=off:speculate=off:decrease=0:accuracy=off"
    /// );
    /// assert!(PortfolioOptimizer::share0("portfolio-share1").is_none());
    /// ```
    #[must_use]
    pub fn share0(name: &str) -> Option<Self> {
        const FAMILY: [&str; 6] = [
            "portfolio-share0",
            "portfolio-share0:nan-last",
            "portfolio-share0:nan-last:curvature",
            "portfolio-share0:nan-last:curvature:soc",
            "portfolio-share0:nan-last:curvature:bound",
            "portfolio-share0:nan-last:curvature:soc:bound",
        ];
        if !FAMILY.contains(&name) {
            return None;
        }
        let settings = PortfolioSettings {
            sqp: SqpSettings {
                curvature_steering: name.contains(":curvature"),
                second_order_correction: name.contains(":soc"),
                decrease_tolerance: 0.0,
                speculative_probes: false,
                ..SqpSettings::default()
            },
            nan_last: name != "portfolio-share0",
            bound_local_runs: name.ends_with(":bound"),
            warm_curvature: false,
            patience: false,
            confirm_early: false,
            ..PortfolioSettings::default()
        }
        .to_the_end();
        Some(Self::new(
            Options::recommended()
                .with_settings(settings)
                .equality_margin(None),
        ))
    }
}

impl Optimizer for PortfolioOptimizer {
    fn kind(&self) -> &str {
        "portfolio"
    }

    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        let shape = ProblemShape::new(vec![0.0; dim], vec![1.0; dim], 0, 0)
            .map_err(|e| StudyError::Invalid(e.to_string()))?;
        self.options
            .build(&shape)
            .map(|_| ())
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let shape = if self.exact_jacobians {
            ProblemShape::of(task.problem).map_err(|e| StudyError::Invalid(e.to_string()))?
        } else {
            black_box_shape(task)?
        };
        let invalid = |e: emages::Error| StudyError::Invalid(e.to_string());
        let mut run = self
            .options
            .clone()
            .budget(task.budget)
            .seed(task.seed)
            .build(&shape)
            .map_err(invalid)?
            .ask_tell()
            .map_err(invalid)?;
        let tracker = Tracker::new(task).nan_last(self.options.settings().nan_last);
        let mut iterations = 0;
        drive(&tracker, &mut run, &mut iterations)?;
        let termination = run.termination().unwrap_or(Termination::Budget);
        Ok(tracker.finish(iterations, StopReason::from(termination)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimizer::{LocalPhaseOptimizer, RoundsOptimizer};
    use constraint_handling::FnProblem;
    use std::sync::Mutex;

    /// The points a run evaluates, in order (bit patterns).
    fn points_of(optimizer: &dyn Optimizer, budget: usize) -> (Vec<u64>, Outcome) {
        let seen = Mutex::new(Vec::new());
        // A multimodal problem with an equality: the runs restart and reach the ES.
        let p = FnProblem::new(vec![-5.0; 3], vec![5.0; 3], 1, 1, |x, c| {
            seen.lock().unwrap().extend(x.iter().map(|v| v.to_bits()));
            c[0] = x[0] * x[0] + x[1] * x[1] - 4.0;
            c[1] = x[0] + x[1] + x[2] - 1.0;
            Ok(x.iter().map(|v| v * v - 3.0 * (2.0 * v).cos()).sum())
        })
        .unwrap();
        let out = optimizer.run(&Task::new(&p, budget, 11)).unwrap();
        let points = seen.into_inner().unwrap();
        (points, out)
    }

    /// `portfolio-share0` and `portfolio-share0:nan-last` (NaN violations ordered
    /// last), with short ES rounds.
    fn share0(nan_last: bool) -> PortfolioOptimizer {
        let name = if nan_last {
            "portfolio-share0:nan-last"
        } else {
            "portfolio-share0"
        };
        let mut optimizer = PortfolioOptimizer::share0(name).unwrap();
        let settings = PortfolioSettings {
            es_budget_per_dim: 100,
            ..optimizer.options.settings().clone()
        };
        optimizer.options = optimizer.options.with_settings(settings);
        optimizer
    }

    /// A problem whose constraint is NaN at the box centre, the first point evaluated
    /// (as on CEC2020's RC34–RC43): without `nan-last` the harness's record keeps that point to
    /// the end; with `nan_last` the run ends feasible at the optimum `(0.6, 0)`, and the
    /// checkpoints after the first numeric point hold numbers.
    #[test]
    fn nan_last_leaves_a_nan_centre_for_the_first_number() {
        let p = FnProblem::new(vec![0.0, -1.0], vec![2.0, 1.0], 1, 0, |x, c| {
            c[0] = if (x[0] - 1.0).abs() < 0.05 {
                f64::NAN
            } else {
                0.6 - x[0]
            };
            Ok(x[0] * x[0] + x[1] * x[1])
        })
        .unwrap();
        let checkpoints = [100, 1000, 5000];
        let task = Task::new(&p, 5000, 3).with_checkpoints(&checkpoints);
        let kept = share0(false).run(&task).unwrap();
        assert_eq!(kept.best.found_at, Some(1));
        assert!(kept.best.fitness.violation.is_nan());
        let fixed = share0(true).run(&task).unwrap();
        let found = fixed.best.found_at.expect("found");
        assert!(found > 1, "found at {found}");
        assert_eq!(
            fixed.best.fitness.violation, 0.0,
            "{:?}",
            fixed.best.fitness
        );
        assert!(
            (fixed.best.fitness.objective - 0.36).abs() < 1e-6,
            "{:?}",
            fixed.best
        );
        assert_eq!(fixed.checkpoints.len(), 3);
        assert!(fixed
            .checkpoints
            .iter()
            .all(|c| !c.best.fitness.violation.is_nan()));
        assert_eq!(fixed.evaluations, kept.evaluations);
        println!("NaN centre: feasible f = 0.36 found at evaluation {found} of 5000");
    }

    /// Where no violation is NaN, `nan_last` changes nothing: the same points, bit for
    /// bit, and the same outcome (so `portfolio-share0`'s committed runs on such problems
    /// are `portfolio-share0:nan-last`'s too).
    #[test]
    fn nan_last_changes_nothing_without_nan() {
        let (plain, out_plain) = points_of(&share0(false), 4000);
        let (fixed, out_fixed) = points_of(&share0(true), 4000);
        assert!(out_plain.iterations > 0);
        assert_eq!(plain, fixed);
        assert_eq!(out_plain.best, out_fixed.best);
        assert_eq!(out_plain.evaluations, out_fixed.evaluations);
    }

    /// The budget only cuts: with budgets B and 10·B a run evaluates the same first
    /// points, bit for bit, and never more than its budget.
    #[test]
    fn the_budget_is_a_cap_not_a_schedule() {
        let rounds = RoundsOptimizer {
            es_budget_per_dim: 100,
            ..RoundsOptimizer::default()
        };
        let shared = share0(false);
        let recommended = {
            let settings = PortfolioSettings {
                es_budget_per_dim: 100,
                ..PortfolioSettings::default()
            };
            PortfolioOptimizer::new(Options::recommended().with_settings(settings).to_the_end())
        };
        let optimizers: [&dyn Optimizer; 4] = [
            &rounds,
            &shared,
            &recommended,
            &LocalPhaseOptimizer::default(),
        ];
        for optimizer in optimizers {
            for budget in [50, 400, 3000] {
                let (short, out_short) = points_of(optimizer, budget);
                let (long, out_long) = points_of(optimizer, 10 * budget);
                assert!(out_short.evaluations <= budget && out_long.evaluations <= 10 * budget);
                assert_eq!(short.len(), 3 * out_short.evaluations);
                assert!(
                    out_short.evaluations + 3 * 12 + 1 > budget,
                    "{}: {budget}: {}",
                    optimizer.kind(),
                    out_short.evaluations
                );
                assert_eq!(
                    short[..],
                    long[..short.len()],
                    "{} at {budget}",
                    optimizer.kind()
                );
            }
        }
    }

    /// With exact Jacobians (a CEC2020 problem that offers them, `--jacobian exact`),
    /// the harness's run through its tracker is the native run of
    /// [`emages::Plan::run`], charge for charge: the same best point,
    /// found at the same evaluation, and the same count. As a black box it asks for no
    /// Jacobian, and differs.
    #[test]
    fn exact_jacobians_through_the_tracker_are_the_native_run() {
        use crate::study::StudyConfig;
        use crate::suites::{Cec2020RwSuite, Suite};
        use constraint_handling::JacobianSource;
        let suite = Cec2020RwSuite {
            jacobian: JacobianSource::Exact,
            ..Cec2020RwSuite::default()
        };
        let name = "portfolio-share0:nan-last:curvature";
        let (id, dim, budget, seed) = (11, 7, 30_000, 17);
        let problem = suite.problem(id, dim).unwrap();
        assert_eq!(
            ProblemShape::of(&*problem).unwrap().jacobian,
            JacobianSource::Exact
        );
        let exact = StudyConfig::other_with_jacobian(name, JacobianSource::Exact).unwrap();
        let task = Task::new(&*problem, budget, seed);
        let harness = exact.optimizer.run(&task).unwrap();

        let plan = PortfolioOptimizer::share0(name)
            .unwrap()
            .options
            .budget(budget)
            .seed(seed)
            .build_for(&*problem)
            .unwrap();
        let native = plan.run(&*problem).unwrap();
        let best = native.best;
        assert_eq!(harness.evaluations, native.evaluations);
        assert_eq!(harness.best.found_at, Some(best.found_at()));
        assert_eq!(harness.best.fitness, best.fitness());

        let black_box = StudyConfig::other(name)
            .unwrap()
            .optimizer
            .run(&task)
            .unwrap();
        assert_ne!(
            (black_box.best.fitness, black_box.best.found_at),
            (harness.best.fitness, harness.best.found_at)
        );
        println!(
            "RC{id:02}: exact {:?} at {:?} of {}; black box {:?} at {:?}",
            harness.best.fitness,
            harness.best.found_at,
            harness.evaluations,
            black_box.best.fitness,
            black_box.best.found_at
        );
    }
}
