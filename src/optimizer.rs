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
//! use emages::optimizer::{Optimizer, Outcome, StopReason, Task, Tracker};
//! use emages::StudyError;
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
//!         let mut tracker = Tracker::new(task);
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

use crate::error::StudyError;
pub use constraint_handling::{Checkpoint, Fitness, Snapshot};
use constraint_handling::{ConstrainedProblem, Incumbent};
use ma_es::noise::{FastNoise, RngNoise};
use ma_es::{ComponentSpec, Components, Config, MaEs, MaEsError, Parameters, Termination, Variant};
use std::fmt::Debug;
use std::sync::Arc;

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
/// use emages::optimizer::StopReason;
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
            Termination::Observer => Self::Interrupted,
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

/// Book-keeping for an optimizer written from scratch: evaluates points, counts the
/// evaluations, keeps the best-so-far and takes the checkpoints a [`Task`] asks for —
/// with the bookkeeping εMAg-ES keeps ([`constraint_handling::Incumbent`]), so that
/// every optimizer is scored alike. Each evaluation is an iteration of its own here: a
/// checkpoint is the best-so-far when the count reaches it (the one at the budget is
/// taken by [`Tracker::finish`]).
#[derive(Debug)]
pub struct Tracker<'t> {
    task: &'t Task<'t>,
    constraints: Vec<f64>,
    evaluations: usize,
    incumbent: Incumbent,
    trace: Option<Vec<TracePoint>>,
}

impl<'t> Tracker<'t> {
    /// A tracker for `task`, no evaluations yet.
    #[must_use]
    pub fn new(task: &'t Task<'t>) -> Self {
        Self {
            task,
            constraints: vec![0.0; task.problem.num_constraints()],
            evaluations: 0,
            incumbent: Incumbent::new(task.checkpoints),
            trace: task.record_trace.then(Vec::new),
        }
    }

    /// Evaluations so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// Whether the budget is used up.
    #[must_use]
    pub fn exhausted(&self) -> bool {
        self.evaluations >= self.task.budget
    }

    /// The best-so-far, if anything was evaluated.
    #[must_use]
    pub fn best(&self) -> Option<&Snapshot> {
        self.incumbent.best()
    }

    /// Evaluates `x` (one evaluation of the budget) and returns its `(f, ν̄)`;
    /// updates the best-so-far and takes the checkpoints that this evaluation reaches.
    ///
    /// # Errors
    /// The problem's errors (e.g. a point of the wrong dimension).
    pub fn evaluate(&mut self, x: &[f64]) -> Result<Fitness, StudyError> {
        let problem = self.task.problem;
        let objective = problem
            .evaluate(x, &mut self.constraints)
            .map_err(|e| StudyError::Other(format!("evaluation failed: {e}")))?;
        // ν̄ with the problem's own margin δ, as every algorithm sees it.
        let fitness = Fitness::new(objective, problem.mean_violation(&self.constraints));
        self.evaluations += 1;
        if self.incumbent.improves(&fitness) {
            self.incumbent.replace(Snapshot {
                fitness,
                counts: problem.constraint_counts(&self.constraints),
                found_at: Some(self.evaluations),
            });
        }
        self.incumbent.reach(self.evaluations, self.task.budget);
        Ok(fitness)
    }

    /// Records a trajectory point with the optimizer's step size (call once per
    /// iteration; ignored unless the task asked for a trace).
    pub fn trace(&mut self, sigma: f64) {
        if let (Some(trace), Some(best)) = (self.trace.as_mut(), self.incumbent.best()) {
            trace.push(TracePoint {
                evaluations: self.evaluations,
                best: best.fitness,
                sigma,
            });
        }
    }

    /// The outcome after `iterations` iterations, stopped for `termination`
    /// (e.g. [`StopReason::Budget`]). Checkpoints not reached hold the final
    /// best-so-far; a run without evaluations reports NaN values.
    #[must_use]
    pub fn finish(self, iterations: usize, termination: StopReason) -> Outcome {
        let (best, checkpoints) = self.incumbent.into_parts(self.evaluations);
        Outcome {
            best,
            checkpoints,
            evaluations: self.evaluations,
            iterations,
            termination,
            trace: self.trace,
        }
    }
}

/// Where an [`MaEsOptimizer`] gets its components.
#[derive(Clone)]
pub enum MaEsComponents {
    /// Built from a spec (the paper's presets are specs): recorded as the spec's text
    /// form, e.g. `eps-mag-es` or `eps-mag-es:step-size=median-success`.
    Spec(ComponentSpec),
    /// Built by a user's function for every run, from the run's resolved parameters —
    /// any implementations of the component traits, e.g. a step-size rule of one's own.
    Factory {
        /// The name recorded as the runs' `variant` (say what the components are).
        name: String,
        /// Builds the components of one run.
        make: ComponentFactory,
    },
}

/// A user's function that builds the strategy's components for one run
/// ([`MaEsComponents::Factory`]).
pub type ComponentFactory = Arc<dyn Fn(&Parameters) -> Result<Components, MaEsError> + Send + Sync>;

impl std::fmt::Debug for MaEsComponents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Spec(spec) => write!(f, "Spec({spec})"),
            Self::Factory { name, .. } => write!(f, "Factory({name})"),
        }
    }
}

/// The MA-ES of the paper behind the [`Optimizer`] seam: any combination of its
/// components, chosen by a [`ComponentSpec`] (the seven presets are specs) or built by
/// a user's factory, with a configuration.
///
/// ```
/// use emages::optimizer::{MaEsOptimizer, Optimizer};
/// use ma_es::Variant;
/// assert_eq!(MaEsOptimizer::preset(Variant::EpsMagEsNl).kind(), "eps-mag-es-nl");
/// let msr = MaEsOptimizer::with_spec("eps-mag-es:step-size=median-success".parse().unwrap());
/// assert_eq!(msr.kind(), "eps-mag-es:step-size=median-success");
/// ```
#[derive(Clone, Debug)]
pub struct MaEsOptimizer {
    components: MaEsComponents,
    kind: String,
    /// The configuration (its budget, checkpoints and dynamics flag are set per task).
    pub config: Config,
}

impl MaEsOptimizer {
    /// A preset with the default configuration.
    #[must_use]
    pub fn preset(variant: Variant) -> Self {
        Self::with_spec(variant.spec())
    }

    /// The components of `spec`, default configuration.
    #[must_use]
    pub fn with_spec(spec: ComponentSpec) -> Self {
        Self {
            kind: spec.to_string(),
            components: MaEsComponents::Spec(spec),
            config: Config::default(),
        }
    }

    /// Components built by `make` for every run, recorded under `name`; default
    /// configuration.
    ///
    /// ```
    /// use emages::optimizer::{MaEsOptimizer, Optimizer};
    /// use ma_es::step_size::ConstantSigma;
    /// use ma_es::{Components, Variant};
    /// // εMAg-ES with σ held at σ₀, as a hand-made component.
    /// let opt = MaEsOptimizer::with_factory("eps-mag-es, σ held", |params| {
    ///     let mut c = Components::from_spec(&Variant::EpsMagEs.spec(), params)?;
    ///     c.step_size = Box::new(ConstantSigma);
    ///     Ok(c)
    /// });
    /// assert_eq!(opt.kind(), "eps-mag-es, σ held");
    /// ```
    #[must_use]
    pub fn with_factory(
        name: impl Into<String>,
        make: impl Fn(&Parameters) -> Result<Components, MaEsError> + Send + Sync + 'static,
    ) -> Self {
        let name = name.into();
        Self {
            kind: name.clone(),
            components: MaEsComponents::Factory {
                name,
                make: Arc::new(make),
            },
            config: Config::default(),
        }
    }

    /// The same optimizer with another configuration.
    #[must_use]
    pub fn with_config(self, config: Config) -> Self {
        Self { config, ..self }
    }

    /// Where its components come from.
    #[must_use]
    pub fn components(&self) -> &MaEsComponents {
        &self.components
    }
}

impl Optimizer for MaEsOptimizer {
    fn kind(&self) -> &str {
        &self.kind
    }

    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        self.config
            .resolve(dim)
            .map(|_| ())
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    /// Runs the strategy, with the task's checkpoints (none if it asks for none).
    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let config = Config {
            budget: Some(task.budget),
            record_dynamics: task.record_trace,
            checkpoints: task.checkpoints.to_vec(),
            ..self.config.clone()
        };
        let mut es = match &self.components {
            MaEsComponents::Spec(spec) => MaEs::with_spec(task.problem, &config, spec)?,
            MaEsComponents::Factory { make, .. } => {
                let params = config
                    .resolve(task.problem.dim())
                    .map_err(MaEsError::from)?;
                let components = make(&params)?;
                MaEs::with_components(task.problem, params, components)?
            }
        };
        let result = if task.fast {
            es.run(&mut FastNoise::seed_from_u64(task.seed))?
        } else {
            es.run(&mut RngNoise::seed_from_u64(task.seed))?
        };
        Ok(Outcome {
            best: result.best.snapshot,
            checkpoints: result.checkpoints,
            evaluations: result.evaluations,
            iterations: result.generations,
            termination: result.termination.into(),
            trace: result.dynamics.map(|d| {
                d.iter()
                    .map(|r| TracePoint {
                        evaluations: r.evaluations,
                        best: r.best,
                        sigma: r.sigma,
                    })
                    .collect()
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use constraint_handling::FnProblem;

    #[test]
    fn the_tracker_keeps_the_reference_best_and_takes_the_checkpoints() {
        // minimise x  s.t.  x ≥ 1 (g = 1 − x ≤ 0), x ∈ [−5, 5].
        let above_one = FnProblem::new(vec![-5.0], vec![5.0], 1, 0, |x, c| {
            c[0] = 1.0 - x[0];
            Ok(x[0])
        })
        .unwrap();
        let task = Task {
            record_trace: true,
            ..Task::new(&above_one, 5, 1).with_checkpoints(&[2, 4, 5])
        };
        let mut t = Tracker::new(&task);
        // Infeasible points rank by ν̄ alone, any feasible point beats them.
        t.evaluate(&[-1.0]).unwrap(); // ν̄ = 2
        t.trace(0.5);
        t.evaluate(&[-3.0]).unwrap(); // ν̄ = 4, f lower: not better
        assert_eq!(t.best().unwrap().objective(), -1.0);
        t.evaluate(&[3.0]).unwrap(); // feasible
        t.evaluate(&[2.0]).unwrap(); // feasible and lower
        t.trace(0.25);
        assert!(!t.exhausted());
        assert!(
            t.evaluate(&[1.0, 2.0]).is_err(),
            "a point of the wrong dimension"
        );
        let out = t.finish(2, StopReason::Budget);
        assert_eq!(out.best.fitness, Fitness::new(2.0, 0.0));
        assert_eq!(out.best.found_at, Some(4));
        let cps: Vec<(usize, f64)> = out
            .checkpoints
            .iter()
            .map(|c| (c.evaluations, c.best.objective()))
            .collect();
        // At 2 evaluations the best was x = −1 (ν̄ = 2); at 4, x = 2; 5 was not
        // reached: the final best.
        assert_eq!(cps, [(2, -1.0), (4, 2.0), (4, 2.0)]);
        assert_eq!(out.checkpoints[0].best.counts.as_array(), [1, 0, 0]); // g = 2 > 1
        assert_eq!(out.checkpoints[0].best.found_at, Some(1));
        assert_eq!(out.best.counts.as_array(), [0, 0, 0]);
        let trace = out.trace.unwrap();
        assert_eq!(trace.len(), 2);
        assert_eq!((trace[1].evaluations, trace[1].sigma), (4, 0.25));
    }
}
