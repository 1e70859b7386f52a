//! A first portfolio (issue 55, training): the SQP local phase and the ε-level ES in
//! rounds, within one budget that only cuts. Round `r`:
//!
//! 1. the local phase from a start (round 0: the box's centre; later: a point drawn
//!    uniformly in the box), until it stops by itself;
//! 2. an ES run (εMAg-ES-R by default, with its BIPOP restarts, to the end) with a
//!    budget of its own, `b₀ · 2ʳ` with `b₀ = es_budget_per_dim · N`;
//! 3. the local phase from the ES run's best point (polishing).
//!
//! No step looks at the task's budget: the run asks for the same points whatever the
//! budget, and a batch (a local phase's, an ES generation's) that would not fit into
//! what is left is not asked for. The seeds of the ES runs and the starts follow from
//! the task's seed alone.

use super::local_phase::{black_box_shape, centre, run_sqp, uniform_in_box, Batch, SqpEnd};
use super::{Optimizer, Outcome, StopReason, Task, Tracker};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use local_phase::sqp::SqpSettings;
use ma_es::portfolio::{clearly_better, round_seed, Portfolio, PortfolioSettings};
use ma_es::request::RequestKind;
use ma_es::{ComponentSpec, Options};
use rand::SeedableRng;

/// A first portfolio (issue 55, training): the SQP local phase and the ε-level ES in
/// rounds, within one budget that only cuts. Round `r`:
///
/// 1. the local phase from a start (round 0: the box's centre; later: a point drawn
///    uniformly in the box), until it stops by itself;
/// 2. an ES run (εMAg-ES-R by default, with its BIPOP restarts, to the end) with a
///    budget of its own, `b₀ · 2ʳ` with `b₀ = es_budget_per_dim · N`;
/// 3. the local phase from the ES run's best point (polishing).
///
/// No step looks at the task's budget: the run asks for the same points whatever the
/// budget, and a batch (a local phase's, an ES generation's) that would not fit into
/// what is left is not asked for. The seeds of the ES runs and the starts follow from
/// the task's seed alone.
///
/// `kind` is `portfolio` (`portfolio+` with `restart_while_improving`).
#[derive(Clone, Debug)]
pub struct PortfolioOptimizer {
    /// The local phase's settings ([`SqpSettings::frozen`] by default, as the studies
    /// ran; `portfolio-share0:nan-last:curvature` turns `curvature_steering` on).
    pub sqp: SqpSettings,
    /// The ES of step 2.
    pub es: ComponentSpec,
    /// `b₀ / N`, the first ES run's budget per dimension.
    pub es_budget_per_dim: usize,
    /// Whether each round restarts the local phase from new points while a restart
    /// improves the best point (`portfolio+`), before the ES run.
    pub restart_while_improving: bool,
    /// A share of each round's budget for restarts of the local phase, moving towards
    /// the part that progressed (`portfolio-share`); replaces `restart_while_improving`.
    pub sqp_share: Option<SqpShare>,
    /// Whether the run's record orders NaN violations last
    /// ([`constraint_handling::ordering::improves_best_so_far_nan_last`]), in the
    /// portfolio's own record (`portfolio-share0`'s [`PortfolioSettings::nan_last`]) and
    /// in the harness's ([`Tracker::nan_last`]). Off, as frozen: a NaN first point stays
    /// the best (`portfolio-share0` on CEC2020's RC34–RC43). `portfolio-share0:nan-last`
    /// has it on.
    pub nan_last: bool,
    /// Whether the run takes the problem's constraint Jacobian where it offers one
    /// ([`ConstrainedProblem::constraint_jacobian`](constraint_handling::ConstrainedProblem::constraint_jacobian)):
    /// the ES rounds' repair then asks for exact Jacobians, charged by the CEC2020 rule,
    /// instead of `N` difference probes each (`portfolio-share0` only, as `--jacobian
    /// exact` runs it, labelled `+jacobian=exact`). Off: a black box, as every study
    /// before ran.
    pub exact_jacobians: bool,
    /// Whether a run of the local phase ends once it has spent the round's ES budget
    /// ([`PortfolioSettings::bound_local_runs`]; `portfolio-share0` only, as the names
    /// ending in `:bound` run it). Off: each run goes to its own end, as every study
    /// before ran.
    pub bound_local_runs: bool,
}

/// The local phase's share of a round (`portfolio-share`): round `r` restarts the local
/// phase from new points until it has spent `w_r · b₀ · 2ʳ` evaluations (a restart
/// runs to its own end), then runs the ES with `b₀ · 2ʳ`. The share follows progress:
/// `w_{r+1} = w_r / 2` when the ES run and its polish improved the best point found by
/// the round's restarts, `2 w_r` when the restarts improved the best point of the
/// rounds before and the ES did not, clamped to `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SqpShare {
    /// `w₀`.
    pub initial: f64,
    /// The smallest share.
    pub min: f64,
    /// The largest share.
    pub max: f64,
    /// `portfolio-share0`: a round whose ES made progress sets the share to 0 (the
    /// next round starts the local phase once), and one whose ES did not while the
    /// restarts did sets it to `max(2 w, w₀)`.
    pub zero_after_es: bool,
}

impl Default for SqpShare {
    fn default() -> Self {
        Self {
            initial: 0.25,
            min: 1.0 / 16.0,
            max: 1.0,
            zero_after_es: false,
        }
    }
}

impl Default for PortfolioOptimizer {
    fn default() -> Self {
        Self {
            // As the training and test studies ran (`curvature_steering` off).
            sqp: SqpSettings::frozen(),
            es: ComponentSpec::recommended(),
            es_budget_per_dim: 2000,
            restart_while_improving: false,
            sqp_share: None,
            nan_last: false,
            exact_jacobians: false,
            bound_local_runs: false,
        }
    }
}

/// How an ES run ended.
enum EsEnd {
    Stopped(Vec<f64>),
    Budget,
}

fn run_es(
    tracker: &Tracker<'_>,
    shape: &ProblemShape,
    options: Options,
    iterations: &mut usize,
) -> Result<EsEnd, StudyError> {
    let k = shape.num_constraints();
    let plan = options
        .build(shape)
        .map_err(|e| StudyError::Invalid(e.to_string()))?;
    let mut es = plan
        .ask_tell()
        .map_err(|e| StudyError::Invalid(e.to_string()))?;
    let mut batch = Batch::new(shape.dim(), k);
    loop {
        let request = es.ask().map_err(|e| StudyError::Other(e.to_string()))?;
        let Some(request) = request else { break };
        if request.points.ncols() > tracker.remaining() {
            return Ok(EsEnd::Budget);
        }
        let (objectives, constraints) = batch.evaluate(tracker, request.points)?;
        if matches!(
            es.tell(objectives, constraints)
                .map_err(|e| StudyError::Other(e.to_string()))?,
            ma_es::request::Told::Generation(_)
        ) {
            *iterations += 1;
            tracker.trace(es.report().sigma);
        }
    }
    Ok(EsEnd::Stopped(es.result().best.y))
}

impl PortfolioOptimizer {
    /// Restarts the local phase from new points while each restart improves the best
    /// point; `false` once the budget is spent.
    fn restarts_while_improving(
        &self,
        tracker: &Tracker<'_>,
        shape: &ProblemShape,
        rng: &mut impl rand::Rng,
        start: &mut [f64],
        iterations: &mut usize,
    ) -> Result<bool, StudyError> {
        loop {
            let before = tracker.best().map(|b| b.fitness);
            uniform_in_box(shape, rng, start);
            if let SqpEnd::Budget = run_sqp(tracker, shape, start, &self.sqp, iterations)? {
                return Ok(false);
            }
            if !clearly_better(tracker.best().map(|b| b.fitness), before) {
                return Ok(true);
            }
        }
    }
}

impl PortfolioOptimizer {
    /// Restarts the local phase from new points until `allowance` evaluations are
    /// spent (the first start is `start`); `false` once the budget is spent.
    fn restarts_within(
        &self,
        tracker: &Tracker<'_>,
        shape: &ProblemShape,
        rng: &mut impl rand::Rng,
        start: &mut [f64],
        allowance: usize,
        iterations: &mut usize,
    ) -> Result<bool, StudyError> {
        let first = tracker.evaluations();
        loop {
            if let SqpEnd::Budget = run_sqp(tracker, shape, start, &self.sqp, iterations)? {
                return Ok(false);
            }
            uniform_in_box(shape, rng, start);
            if tracker.evaluations() - first >= allowance {
                return Ok(true);
            }
        }
    }

    /// `portfolio-share0`: [`ma_es::portfolio::Portfolio`], by ask and tell through the
    /// tracker.
    fn run_portfolio(&self, task: &Task<'_>, share: SqpShare) -> Result<Outcome, StudyError> {
        let shape = if self.exact_jacobians {
            ProblemShape::of(task.problem).map_err(|e| StudyError::Invalid(e.to_string()))?
        } else {
            black_box_shape(task)?
        };
        let settings = PortfolioSettings {
            sqp: self.sqp.clone(),
            es: self.es,
            es_budget_per_dim: self.es_budget_per_dim,
            initial_share: share.initial,
            max_share: share.max,
            confirmations: 0,
            // Off as frozen (`4a7897a`): the committed test runs repeat.
            nan_last: self.nan_last,
            sigma0: None,
            target: None,
            bound_local_runs: self.bound_local_runs,
        };
        let (n, k) = (shape.dim(), shape.num_constraints());
        let mut run = Portfolio::new(shape, settings, task.seed)
            .map_err(|e| StudyError::Invalid(e.to_string()))?;
        let tracker = Tracker::new(task).nan_last(self.nan_last);
        let mut batch = Batch::new(n, k);
        while let Some(request) = run.ask().map_err(|e| StudyError::Other(e.to_string()))? {
            if request.evaluations > tracker.remaining() {
                break;
            }
            let (objectives, constraints) = if request.kind == RequestKind::Jacobians {
                batch.jacobians(&tracker, &request)?
            } else {
                batch.evaluate(&tracker, request.points)?
            };
            let iterations = run.iterations();
            run.tell(objectives, constraints)
                .map_err(|e| StudyError::Other(e.to_string()))?;
            if run.iterations() > iterations {
                tracker.trace(run.step_size());
            }
        }
        Ok(tracker.finish(run.iterations(), StopReason::Budget))
    }

    /// The `portfolio-share` rounds.
    fn run_shared(&self, task: &Task<'_>, share: SqpShare) -> Result<Outcome, StudyError> {
        let shape = black_box_shape(task)?;
        let n = shape.dim();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task).nan_last(self.nan_last);
        let mut iterations = 0;
        let mut start = centre(&shape);
        let mut w = share.initial;
        for r in 0u32.. {
            let budget = self
                .es_budget_per_dim
                .saturating_mul(n)
                .saturating_mul(1usize << r.min(40));
            let before = tracker.best().map(|b| b.fitness);
            let allowance = (w * budget as f64).ceil() as usize;
            if !self.restarts_within(
                &tracker,
                &shape,
                &mut rng,
                &mut start,
                allowance,
                &mut iterations,
            )? {
                break;
            }
            let after_restarts = tracker.best().map(|b| b.fitness);
            let options = Options::new(self.es)
                .budget(budget)
                .seed(round_seed(task.seed, u64::from(r)))
                .to_the_end();
            let EsEnd::Stopped(best) = run_es(&tracker, &shape, options, &mut iterations)? else {
                break;
            };
            if let SqpEnd::Budget = run_sqp(&tracker, &shape, &best, &self.sqp, &mut iterations)? {
                break;
            }
            let es_progressed = clearly_better(tracker.best().map(|b| b.fitness), after_restarts);
            if es_progressed {
                w *= 0.5;
            } else if r > 0 && clearly_better(after_restarts, before) {
                w *= 2.0;
            }
            w = w.clamp(share.min, share.max);
        }
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}

impl Optimizer for PortfolioOptimizer {
    fn kind(&self) -> &str {
        "portfolio"
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        match self.sqp_share {
            Some(share) if share.zero_after_es => return self.run_portfolio(task, share),
            Some(share) => return self.run_shared(task, share),
            None => {}
        }
        let shape = black_box_shape(task)?;
        let n = shape.dim();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task).nan_last(self.nan_last);
        let mut iterations = 0;
        let mut start = centre(&shape);
        for r in 0u32.. {
            if let SqpEnd::Budget = run_sqp(&tracker, &shape, &start, &self.sqp, &mut iterations)? {
                break;
            }
            // The budget goes where progress is: the local phase restarts from new
            // points while each restart improves the best point found.
            if self.restart_while_improving
                && !self.restarts_while_improving(
                    &tracker,
                    &shape,
                    &mut rng,
                    &mut start,
                    &mut iterations,
                )?
            {
                break;
            }
            let budget = self
                .es_budget_per_dim
                .saturating_mul(n)
                .saturating_mul(1usize << r.min(40));
            // The ES runs to its own budget (its BIPOP restarts within), as in the CEC
            // protocol; the stopping rules of a whole run would end it early.
            let options = Options::new(self.es)
                .budget(budget)
                .seed(round_seed(task.seed, u64::from(r)))
                .to_the_end();
            let EsEnd::Stopped(best) = run_es(&tracker, &shape, options, &mut iterations)? else {
                break;
            };
            if let SqpEnd::Budget = run_sqp(&tracker, &shape, &best, &self.sqp, &mut iterations)? {
                break;
            }
            uniform_in_box(&shape, &mut rng, &mut start);
        }
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimizer::LocalPhaseOptimizer;
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

    /// `portfolio-share0` as frozen and with NaN violations ordered last.
    fn share0(nan_last: bool) -> PortfolioOptimizer {
        PortfolioOptimizer {
            es_budget_per_dim: 100,
            sqp_share: Some(SqpShare {
                max: 0.5,
                zero_after_es: true,
                ..SqpShare::default()
            }),
            nan_last,
            ..PortfolioOptimizer::default()
        }
    }

    /// A problem whose constraint is NaN at the box centre, the first point evaluated
    /// (as on CEC2020's RC34–RC43): as frozen the harness's record keeps that point to
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
        let frozen = share0(false).run(&task).unwrap();
        assert_eq!(frozen.best.found_at, Some(1));
        assert!(frozen.best.fitness.violation.is_nan());
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
        assert_eq!(fixed.evaluations, frozen.evaluations);
        println!("NaN centre: feasible f = 0.36 found at evaluation {found} of 5000");
    }

    /// Where no violation is NaN, `nan_last` changes nothing: the same points, bit for
    /// bit, and the same outcome (so `portfolio-share0`'s committed runs on such problems
    /// are `portfolio-share0:nan-last`'s too).
    #[test]
    fn nan_last_changes_nothing_without_nan() {
        let (frozen, out_frozen) = points_of(&share0(false), 4000);
        let (fixed, out_fixed) = points_of(&share0(true), 4000);
        assert!(out_frozen.iterations > 0);
        assert_eq!(frozen, fixed);
        assert_eq!(out_frozen.best, out_fixed.best);
        assert_eq!(out_frozen.evaluations, out_fixed.evaluations);
    }

    /// The budget only cuts: with budgets B and 10·B a run evaluates the same first
    /// points, bit for bit, and never more than its budget.
    #[test]
    fn the_budget_is_a_cap_not_a_schedule() {
        let portfolio = PortfolioOptimizer {
            es_budget_per_dim: 100,
            ..PortfolioOptimizer::default()
        };
        let shared = PortfolioOptimizer {
            es_budget_per_dim: 100,
            sqp_share: Some(SqpShare {
                max: 0.5,
                zero_after_es: true,
                ..SqpShare::default()
            }),
            ..PortfolioOptimizer::default()
        };
        let optimizers: [&dyn Optimizer; 3] =
            [&portfolio, &shared, &LocalPhaseOptimizer::default()];
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
    /// [`ma_es::portfolio::Portfolio::run`], charge for charge: the same best point,
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

        let optimizer = StudyConfig::share0(name, true);
        let settings = PortfolioSettings {
            sqp: optimizer.sqp.clone(),
            es: optimizer.es,
            es_budget_per_dim: optimizer.es_budget_per_dim,
            initial_share: 0.25,
            max_share: 0.5,
            confirmations: 0,
            nan_last: true,
            sigma0: None,
            target: None,
            bound_local_runs: optimizer.bound_local_runs,
        };
        let mut native = Portfolio::for_problem(&*problem, settings, seed).unwrap();
        let best = native.run(&*problem, budget).unwrap();
        assert_eq!(harness.evaluations, native.evaluations());
        assert_eq!(harness.best.found_at, Some(best.found_at));
        assert_eq!(harness.best.fitness, best.fitness);

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
