//! The seam between the study harness and an algorithm: any optimizer that can run on
//! a [`ConstrainedProblem`] with a budget and a seed takes part in a study — runs,
//! records, CEC statistics, rankings, plots and report — exactly as εMAg-ES does.
//!
//! In the spirit of argmin's solver/executor split, the harness owns the *task* (the
//! problem, the budget, the seed, the evaluation counts at which it wants the
//! best-so-far — the CEC checkpoints in the ablation study) and the optimizer owns the
//! search. A [`Tracker`] does the bookkeeping for an optimizer written from scratch:
//! it evaluates points, counts evaluations, keeps the best-so-far by the reference's
//! rule (lower `ν̄` first, then lower `f`;
//! [`constraint_handling::ordering::improves_best_so_far`]), and takes the snapshots the
//! task asks for — with the same bookkeeping the strategy keeps
//! ([`constraint_handling::Incumbent`]).
//!
//! ```
//! use emages_harness::optimizer::{Optimizer, Outcome, StopReason, Task, Tracker};
//! use emages_harness::StudyError;
//!
//! /// Pure random search in the box.
//! #[derive(Debug)]
//! struct RandomSearch;
//!
//! impl Optimizer for RandomSearch {
//!     fn kind(&self) -> &str { "random-search" }
//!     fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
//!         use rand::{Rng, SeedableRng};
//!         let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
//!         let (lb, ub) = (task.problem.lower_bounds(), task.problem.upper_bounds());
//!         let tracker = Tracker::new(task);
//!         let mut x = vec![0.0; lb.len()];
//!         while !tracker.exhausted() {
//!             for (k, xk) in x.iter_mut().enumerate() {
//!                 *xk = rng.random_range(lb[k]..=ub[k]);
//!             }
//!             tracker.evaluate(&x)?;
//!         }
//!         let iterations = tracker.evaluations();
//!         Ok(tracker.finish(iterations, StopReason::Budget))
//!     }
//! }
//!
//! let problem = cec2017_constrained::Suite::synthetic(1).problem(1, 10).unwrap();
//! let task = Task::new(&problem, 1000, 7).with_checkpoints(&[100, 500, 1000]);
//! let outcome = RandomSearch.run(&task).unwrap();
//! assert_eq!(outcome.evaluations, 1000);
//! assert_eq!(outcome.checkpoints.len(), 3);
//! assert!(outcome.checkpoints[0].best.objective() >= outcome.best.objective());
//! ```

mod local_phase;
mod ma_es_optimizer;
mod portfolio;
mod rounds;
mod tracker;

pub use local_phase::LocalPhaseOptimizer;
pub use ma_es_optimizer::{ComponentFactory, MaEsComponents, MaEsOptimizer};
pub use portfolio::PortfolioOptimizer;
pub use rounds::{RoundsOptimizer, SqpShare};
pub use tracker::{Tracker, TrackerEvaluator};

use crate::error::StudyError;
use constraint_handling::{Checkpoint, ConstrainedProblem, Fitness, Snapshot};
use ma_es::restarts::RestartRecord;
use ma_es::Termination;
use std::fmt::Debug;

/// A run the harness asks for.
#[derive(Clone, Copy)]
pub struct Task<'a> {
    /// The problem (any [`ConstrainedProblem`]; the ablation study passes CEC2017 ones).
    pub problem: &'a (dyn ConstrainedProblem + Sync),
    /// The evaluation budget.
    pub budget: usize,
    /// The run's seed: the optimizer's random numbers must follow from it alone.
    pub seed: u64,
    /// Evaluation counts (ascending) at which the best-so-far is wanted.
    pub checkpoints: &'a [usize],
    /// Whether to record the trajectory (best-so-far and, if the optimizer has one,
    /// its step size after every iteration) for the dynamics plots.
    pub record_trace: bool,
    /// The study runs on the fast path ([`crate::study::StudySpec::fast`]): the
    /// optimizer may take a faster path that does not reproduce its reference bit for
    /// bit (the εMAg-ES draws its normals from [`ma_es::noise::FastNoise`]).
    pub fast: bool,
}

impl std::fmt::Debug for Task<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task")
            .field("dim", &self.problem.dim())
            .field("budget", &self.budget)
            .field("seed", &self.seed)
            .field("checkpoints", &self.checkpoints)
            .field("record_trace", &self.record_trace)
            .field("fast", &self.fast)
            .finish_non_exhaustive()
    }
}

impl<'a> Task<'a> {
    /// A task without checkpoints and trace.
    #[must_use]
    pub fn new(problem: &'a (dyn ConstrainedProblem + Sync), budget: usize, seed: u64) -> Self {
        Self {
            problem,
            budget,
            seed,
            checkpoints: &[],
            record_trace: false,
            fast: false,
        }
    }

    /// The same task with snapshots at these evaluation counts (ascending).
    #[must_use]
    pub fn with_checkpoints(self, checkpoints: &'a [usize]) -> Self {
        Self {
            checkpoints,
            ..self
        }
    }
}

/// One point of a run's trajectory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracePoint {
    /// Evaluations consumed.
    pub evaluations: usize,
    /// The best-so-far `(f, ν̄)`.
    pub best: Fitness,
    /// The step size (σ), NaN if the optimizer has none.
    pub sigma: f64,
}

/// Why a run stopped. Recorded in every run record as text (`budget`,
/// `generation-limit`, `observer`, or the optimizer's own word), which is what the
/// earlier record formats hold.
///
/// ```
/// use emages_harness::optimizer::StopReason;
/// assert_eq!(StopReason::Budget.to_string(), "budget");
/// assert_eq!("generation-limit".parse::<StopReason>().unwrap(), StopReason::IterationLimit);
/// assert_eq!("converged".parse::<StopReason>().unwrap(), StopReason::Other("converged".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", from = "String")]
pub enum StopReason {
    /// The evaluation budget was used up.
    Budget,
    /// The optimizer's iteration (generation) limit was reached.
    IterationLimit,
    /// Stopped from outside (an observer, a user's request).
    Interrupted,
    /// The optimizer's own reason (e.g. `converged`).
    Other(String),
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Budget => "budget",
            Self::IterationLimit => "generation-limit",
            Self::Interrupted => "observer",
            Self::Other(s) => s,
        })
    }
}

impl From<String> for StopReason {
    fn from(s: String) -> Self {
        match s.as_str() {
            "budget" => Self::Budget,
            "generation-limit" | "iteration-limit" => Self::IterationLimit,
            "observer" | "interrupted" => Self::Interrupted,
            _ => Self::Other(s),
        }
    }
}

impl From<StopReason> for String {
    fn from(r: StopReason) -> Self {
        r.to_string()
    }
}

impl std::str::FromStr for StopReason {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self::from(s.to_string()))
    }
}

impl From<Termination> for StopReason {
    fn from(t: Termination) -> Self {
        match t {
            Termination::Budget => Self::Budget,
            Termination::GenerationLimit => Self::IterationLimit,
            Termination::Stopped => Self::Interrupted,
            // The convergence criteria's names (ma_es::control), as pycma's words.
            Termination::TolFun => Self::Other("tolfun".into()),
            Termination::TolX => Self::Other("tolx".into()),
            Termination::NotFinite => Self::Other("not-finite".into()),
            other => Self::Other(other.name().into()),
        }
    }
}

/// What a run reports to the harness: the types of `constraint-handling`, which the
/// store writes and the statistics read unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The final best-so-far (`found_at`: the evaluation count after the iteration that
    /// found it — what meanRTgb averages).
    pub best: Snapshot,
    /// One per requested checkpoint (a checkpoint the run did not reach holds the final
    /// best-so-far).
    pub checkpoints: Vec<Checkpoint>,
    /// Evaluations consumed.
    pub evaluations: usize,
    /// Iterations (generations) done.
    pub iterations: usize,
    /// Why the run stopped.
    pub termination: StopReason,
    /// The trajectory, if the task asked for it.
    pub trace: Option<Vec<TracePoint>>,
    /// The runs of a restart sequence, in order (empty for one run).
    pub restarts: Vec<RestartRecord>,
}

/// An algorithm the harness can run. Implementations must be deterministic given
/// [`Task::seed`] (the study's reproducibility rests on it) and must not use more
/// evaluations than [`Task::budget`] beyond the last iteration.
pub trait Optimizer: Debug + Send + Sync {
    /// What algorithm this is (recorded in every run record as `variant`), e.g.
    /// `eps-mag-es` or `random-search`.
    fn kind(&self) -> &str;

    /// Checks the optimizer's settings for dimension `dim` before any run starts.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] naming the bad setting.
    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        let _ = dim;
        Ok(())
    }

    /// Does one run.
    ///
    /// # Errors
    /// Evaluation failures of the problem; the optimizer's own errors.
    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError>;
}
