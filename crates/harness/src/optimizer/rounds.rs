//! The training algorithms of the portfolio's design (docs/strategy-design.md §26–§28):
//! the SQP local phase and the ε-level ES in rounds, within one budget that only cuts.
//! Round `r`:
//!
//! 1. the local phase from a start (round 0: the box's centre; later: a point drawn
//!    uniformly in the box), until it stops by itself;
//! 2. an ES run (εMAg-ES-R by default, with its BIPOP restarts, to the end) with a
//!    budget of its own, `b₀ · 2ʳ` with `b₀ = es_budget_per_dim · N`;
//! 3. the local phase from the ES run's best point (polishing).
//!
//! `rounds` is that loop, `rounds+` restarts the local phase while a restart improves,
//! `rounds-share` gives the local phase a share of each round's budget (the portfolio's
//! precursor). The recommended strategy, the portfolio, is `emages::portfolio`
//! ([`super::PortfolioOptimizer`]).

use super::local_phase::{black_box_shape, centre, drive, run_sqp, uniform_in_box, LocalEnd};
use super::{Optimizer, Outcome, StopReason, Task, Tracker};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use emages::portfolio::{clearly_better, round_seed};
use local_phase::sqp::SqpSettings;
use ma_es::{ComponentSpec, Options};
use rand::SeedableRng;

/// The training rounds of the portfolio's design (docs/strategy-design.md §26–§28):
/// in round `r`, the local phase from a start (round 0: the box's centre; later: a
/// uniform point) until it stops by itself, an ES run (εMAg-ES-R, to the end) with a
/// budget of its own `b₀ · 2ʳ` (`b₀ = es_budget_per_dim · N`), and the local phase from
/// that run's best point. No step looks at the
/// task's budget: the run asks for the same points whatever the budget, and a request
/// (a local phase's, an ES generation's) that would not fit into what is left is not
/// evaluated. The seeds of the ES runs and the starts follow from the task's seed
/// alone.
///
/// `kind` is `rounds` (`rounds+` with `restart_while_improving`, `rounds-share` with
/// `share`).
#[derive(Clone, Debug)]
pub struct RoundsOptimizer {
    /// The local phase's settings ([`SqpSettings::linear_steering`]).
    pub sqp: SqpSettings,
    /// The ES of step 2.
    pub es: ComponentSpec,
    /// `b₀ / N`, the first ES run's budget per dimension.
    pub es_budget_per_dim: usize,
    /// Whether each round restarts the local phase from new points while a restart
    /// improves the best point (`rounds+`), before the ES run.
    pub restart_while_improving: bool,
    /// A share of each round's budget for restarts of the local phase, moving towards
    /// the part that progressed (`rounds-share`); replaces `restart_while_improving`.
    pub share: Option<SqpShare>,
}

/// The local phase's share of a round (`rounds-share`): round `r` restarts the local
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
}

impl Default for SqpShare {
    fn default() -> Self {
        Self {
            initial: 0.25,
            min: 1.0 / 16.0,
            max: 1.0,
        }
    }
}

impl Default for RoundsOptimizer {
    fn default() -> Self {
        Self {
            sqp: SqpSettings::linear_steering(),
            es: ComponentSpec::recommended(),
            es_budget_per_dim: 2000,
            restart_while_improving: false,
            share: None,
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
    let invalid = |e: ma_es::MaEsError| StudyError::Invalid(e.to_string());
    let mut es = options
        .build(shape)
        .map_err(invalid)?
        .ask_tell()
        .map_err(invalid)?;
    Ok(match drive(tracker, &mut es, iterations)? {
        LocalEnd::Budget => EsEnd::Budget,
        LocalEnd::Stopped => EsEnd::Stopped(es.result().best.x),
    })
}

impl RoundsOptimizer {
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
            if let LocalEnd::Budget = run_sqp(tracker, shape, start, &self.sqp, iterations)? {
                return Ok(false);
            }
            if !clearly_better(tracker.best().map(|b| b.fitness), before) {
                return Ok(true);
            }
        }
    }
}

impl RoundsOptimizer {
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
            if let LocalEnd::Budget = run_sqp(tracker, shape, start, &self.sqp, iterations)? {
                return Ok(false);
            }
            uniform_in_box(shape, rng, start);
            if tracker.evaluations() - first >= allowance {
                return Ok(true);
            }
        }
    }

    /// The `rounds-share` rounds.
    fn run_shared(&self, task: &Task<'_>, share: SqpShare) -> Result<Outcome, StudyError> {
        let shape = black_box_shape(task)?;
        let n = shape.dim();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task);
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
            if let LocalEnd::Budget = run_sqp(&tracker, &shape, &best, &self.sqp, &mut iterations)?
            {
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

impl Optimizer for RoundsOptimizer {
    fn kind(&self) -> &str {
        "rounds"
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        if let Some(share) = self.share {
            return self.run_shared(task, share);
        }
        let shape = black_box_shape(task)?;
        let n = shape.dim();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task);
        let mut iterations = 0;
        let mut start = centre(&shape);
        for r in 0u32.. {
            if let LocalEnd::Budget = run_sqp(&tracker, &shape, &start, &self.sqp, &mut iterations)?
            {
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
            if let LocalEnd::Budget = run_sqp(&tracker, &shape, &best, &self.sqp, &mut iterations)?
            {
                break;
            }
            uniform_in_box(&shape, &mut rng, &mut start);
        }
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}
