//! The run that owns its state: [`Run`] keeps a solver's limits (budget, iteration
//! limit, target), the evaluation counts, the end and why, over any [`Solver`]. Every
//! route — the [`crate::Driver`], Python's `minimize` and `AskTell`, the harness —
//! asks and tells through it, so one run reports the same way whichever drives it.

use crate::best::Best;
use crate::error::SolverError;
use crate::request::{Request, RequestKind, Told};
use crate::solver::{Solver, Status};
use crate::termination::Termination;
use constraint_handling::problem::ProblemShape;
use ndarray::ArrayView2;
use serde::{Deserialize, Serialize};

/// The limits a run is held to, whatever solver runs it.
///
/// - `budget`: evaluations at most. Each request is evaluated whole or not at all: a
///   request that would take the evaluations past the budget is not handed out, and the
///   run ends there ([`Termination::Budget`]). How a solver charges and schedules itself
///   against a budget of its own stays its own (an ES's last generation may pass the
///   budget it was built with, as the reference's does).
/// - `max_iterations`: iterations at most ([`Solver::iterations`];
///   [`Termination::GenerationLimit`]).
/// - `target`: the run ends after the first request with a feasible point whose
///   `f ≤ target` ([`Termination::Target`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Evaluations at most.
    pub budget: Option<usize>,
    /// Iterations at most.
    pub max_iterations: Option<usize>,
    /// The value a feasible point must reach.
    pub target: Option<f64>,
}

/// What a run has evaluated, by kind: the points whose `f` were wanted, those whose
/// constraints were, and those whose derivatives (Jacobians, gradients) were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Points whose objective value was wanted (scipy's `nfev`).
    pub objectives: usize,
    /// Points whose constraint values were wanted (0 without constraints).
    pub constraints: usize,
    /// Points whose derivatives were wanted (scipy's `njev`).
    pub derivatives: usize,
}

impl Counts {
    /// Counts a request of `count` points of `kind` on a problem with `constraints`
    /// constraints.
    fn add(&mut self, kind: RequestKind, count: usize, constraints: usize) {
        if kind.derivatives() {
            self.derivatives += count;
            return;
        }
        if !kind.constraints_only() {
            self.objectives += count;
        }
        if constraints > 0 {
            self.constraints += count;
        }
    }
}

/// The request handed out and not told yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Asked {
    kind: RequestKind,
    count: usize,
}

/// A run in progress over solver `S`: the one owner of its limits ([`Limits`]), its
/// counts ([`Counts`]), when it reached its target, and why it ended.
///
/// [`Run::ask`] and [`Run::tell`] are the solver's, within the limits: a request past
/// the budget or the iteration limit is not handed out, and a tell that reaches the
/// target ends the run. [`Run::termination`] is the one rule of a run's end:
///
/// 1. a limit the run reached (budget, iteration limit, target), unless the solver
///    had ended by itself before — then
/// 2. the solver's own reason ([`Solver::termination`]);
/// 3. a convergence on an infeasible best point is [`Termination::Infeasible`]
///    ([`Termination::given_feasibility`]).
///
/// The run serialises with serde between a tell and the next ask (where `S` does) and
/// continues bit for bit.
///
/// ```
/// use constraint_handling::{problem::ProblemShape, FnProblem};
/// use emages_solver::{Limits, Run, Solver, Termination};
/// # use emages_solver::{Best, Phase, Request, RequestKind, SolverError, Status, Told};
/// # use constraint_handling::{Fitness, Snapshot};
/// # use ndarray::{Array2, ArrayView2, ShapeBuilder};
/// # /// Random points on a fixed grid: one point per request, never ends by itself.
/// # struct Grid { shape: ProblemShape, k: usize, p: Array2<f64>, best: Option<Best>, stopped: bool }
/// # impl Solver for Grid {
/// #     fn shape(&self) -> &ProblemShape { &self.shape }
/// #     fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
/// #         if self.stopped { return Ok(None); }
/// #         self.p = Array2::from_shape_fn((1, 1).f(), |_| -1.0 + (self.k % 41) as f64 * 0.05);
/// #         Ok(Some(Request { points: self.p.view(), kind: RequestKind::Population, evaluations: 1, jacobians: false }))
/// #     }
/// #     fn tell(&mut self, f: &[f64], c: ArrayView2<'_, f64>) -> Result<Told, SolverError> {
/// #         self.k += 1;
/// #         if self.best.as_ref().is_none_or(|b| f[0] < b.objective()) {
/// #             self.best = Some(Best::new(self.p.column(0).to_vec(), vec![], Snapshot::new(f[0], 0.0).found_at(self.k)));
/// #         }
/// #         Ok(Told::Iteration(None))
/// #     }
/// #     fn best(&self) -> Option<Best> { self.best.clone() }
/// #     fn evaluations(&self) -> usize { self.k }
/// #     fn iterations(&self) -> usize { self.k }
/// #     fn termination(&self) -> Option<Termination> { self.stopped.then_some(Termination::Stopped) }
/// #     fn stop(&mut self) { self.stopped = true; }
/// #     fn status(&self) -> Status { Status::start(Phase::Es) }
/// # }
/// # let shape = ProblemShape::new(vec![-1.0], vec![1.0], 0, 0)?;
/// # let grid = Grid { shape, k: 0, p: Array2::zeros((1, 1)), best: None, stopped: false };
/// // `grid` is a solver that never ends by itself; the run holds it to 30 evaluations.
/// let mut run = Run::new(grid).with_limits(Limits { budget: Some(30), ..Limits::default() });
/// while let Some(request) = run.ask()? {
///     let x = request.points[[0, 0]];
///     run.tell(&[x * x], ndarray::Array2::zeros((0, 1)).view())?;
/// }
/// assert_eq!(run.evaluations(), 30);
/// assert_eq!(run.termination(), Some(Termination::Budget));
/// assert!(!run.outcome()?.success());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run<S> {
    solver: S,
    limits: Limits,
    counts: Counts,
    asked: Option<Asked>,
    /// A limit the run reached.
    ended: Option<Termination>,
    /// The solver's ask handed out nothing more.
    #[serde(default)]
    exhausted: bool,
    /// The caller stopped the run: the iteration limit no longer applies.
    stopping: bool,
    target_reached_at: Option<usize>,
    /// The charge of a first request that did not fit into the budget.
    refused: usize,
}

impl<S: Solver> Run<S> {
    /// A run of `solver` without limits: it ends when the solver does.
    pub fn new(solver: S) -> Self {
        Self {
            solver,
            limits: Limits::default(),
            counts: Counts::default(),
            asked: None,
            ended: None,
            exhausted: false,
            stopping: false,
            target_reached_at: None,
            refused: 0,
        }
    }

    /// The run held to `limits`.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes the limits of a run in progress (a resumed run given more budget); a run
    /// that ended at a limit goes on if the new limits allow it.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        if matches!(
            self.ended,
            Some(Termination::Budget | Termination::GenerationLimit)
        ) {
            self.ended = None;
        }
    }

    /// The points wanted next, or `None` once the run is over: the solver ended, or its
    /// next request would take the run past its budget or iteration limit. Asking again
    /// before telling gives the same request.
    ///
    /// # Errors
    /// The solver's.
    pub fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        if self.ended.is_some() || self.exhausted {
            return Ok(None);
        }
        let over_iterations = self
            .limits
            .max_iterations
            .is_some_and(|m| self.solver.iterations() >= m);
        if over_iterations && !self.stopping && self.solver.termination().is_none() {
            self.ended = Some(Termination::GenerationLimit);
            return Ok(None);
        }
        let done = self.solver.evaluations();
        let budget = self.limits.budget;
        let Some(request) = self.solver.ask()? else {
            self.exhausted = true;
            return Ok(None);
        };
        if budget.is_some_and(|b| done + request.evaluations > b) {
            if done == 0 {
                self.refused = request.evaluations;
            }
            self.ended = Some(Termination::Budget);
            return Ok(None);
        }
        self.asked = Some(Asked {
            kind: request.kind,
            count: request.len(),
        });
        Ok(Some(request))
    }

    /// The request handed out by the last [`Run::ask`] and not told yet: its kind and
    /// number of points.
    #[must_use]
    pub fn pending(&self) -> Option<(RequestKind, usize)> {
        self.asked.map(|a| (a.kind, a.count))
    }

    /// Takes the values at the points of the last [`Run::ask`] ([`Solver::tell`]).
    ///
    /// # Errors
    /// [`SolverError::Protocol`] without a pending ask; the solver's errors (the run is
    /// unchanged then).
    pub fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        self.tell_inner(objectives, constraints, None)
    }

    /// [`Run::tell`] with the constraint Jacobians at the request's points
    /// ([`Solver::tell_with_jacobians`]).
    ///
    /// # Errors
    /// As [`Run::tell`].
    pub fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        self.tell_inner(objectives, constraints, Some(jacobians))
    }

    fn tell_inner(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: Option<ArrayView2<'_, f64>>,
    ) -> Result<Told, SolverError> {
        let asked = self.asked.ok_or_else(|| {
            SolverError::Protocol("a tell without a pending ask: ask for the points first".into())
        })?;
        let done = self.solver.evaluations();
        let at_target = match self.limits.target {
            Some(target) if self.target_reached_at.is_none() && !asked.kind.derivatives() => {
                first_at_target(self.solver.shape(), objectives, constraints, target)
            }
            _ => None,
        };
        let told = match jacobians {
            Some(jac) => self
                .solver
                .tell_with_jacobians(objectives, constraints, jac)?,
            None => self.solver.tell(objectives, constraints)?,
        };
        self.asked = None;
        let k = self.solver.shape().num_constraints();
        self.counts.add(asked.kind, asked.count, k);
        if let Some(j) = at_target {
            self.target_reached_at = Some(done + j + 1);
            self.ended = Some(Termination::Target);
        }
        Ok(told)
    }

    /// Ends the run after the last tell: the next [`Run::ask`] returns `None`, and the
    /// solver says why ([`Solver::stop`]: [`Termination::Stopped`], unless the last
    /// iteration met a limit of the solver's own).
    pub fn stop(&mut self) {
        self.stopping = true;
        self.solver.stop();
    }

    /// Why the run ended, once it has (see the type's documentation for the rule).
    #[must_use]
    pub fn termination(&self) -> Option<Termination> {
        // A solver that hands out nothing more and names no reason has nothing left
        // within the budget it was built with.
        let reason = self
            .ended
            .or_else(|| self.solver.termination())
            .or(self.exhausted.then_some(Termination::Budget))?;
        Some(match self.solver.best() {
            Some(best) => reason.given_feasibility(best.is_feasible()),
            None => reason,
        })
    }

    /// The best point evaluated so far (the solver's rule; `None` before the first
    /// tell).
    #[must_use]
    pub fn best(&self) -> Option<Best> {
        self.solver.best()
    }

    /// The evaluations charged so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.solver.evaluations()
    }

    /// The iterations done so far.
    #[must_use]
    pub fn iterations(&self) -> usize {
        self.solver.iterations()
    }

    /// The points evaluated so far, by kind.
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The evaluation (1-based) of the first feasible point with `f ≤ target`, once one
    /// was told.
    #[must_use]
    pub fn target_reached_at(&self) -> Option<usize> {
        self.target_reached_at
    }

    /// The run's state after the last tell ([`Solver::status`]).
    #[must_use]
    pub fn status(&self) -> Status {
        self.solver.status()
    }

    /// The problem's shape ([`Solver::shape`]).
    #[must_use]
    pub fn shape(&self) -> &ProblemShape {
        self.solver.shape()
    }

    /// The solver.
    #[must_use]
    pub fn solver(&self) -> &S {
        &self.solver
    }

    /// The solver, to change what its own API allows between a tell and the next ask.
    pub fn solver_mut(&mut self) -> &mut S {
        &mut self.solver
    }

    /// The solver, the run ended.
    pub fn into_solver(self) -> S {
        self.solver
    }

    /// The run as it stands: its best point, counts and why it ended — or, for a run
    /// not over yet, `None` as the reason ([`Outcome::termination`] is then the reason it
    /// would end with now: see [`Run::outcome`]).
    ///
    /// # Errors
    /// [`SolverError::NothingEvaluated`] before the first tell.
    pub fn outcome(&self) -> Result<Outcome, SolverError> {
        let best = self
            .solver
            .best()
            .ok_or(SolverError::NothingEvaluated(self.refused))?;
        let termination = self.termination();
        Ok(Outcome {
            evaluations: self.solver.evaluations(),
            iterations: self.solver.iterations(),
            termination: termination
                .unwrap_or_else(|| Termination::Budget.given_feasibility(best.is_feasible())),
            ended: termination.is_some(),
            target_reached_at: self.target_reached_at,
            counts: self.counts,
            best,
        })
    }
}

/// A run as it stands or as it ended: the best point, the counts and why it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The best point evaluated.
    pub best: Best,
    /// The evaluations charged.
    pub evaluations: usize,
    /// The iterations done.
    pub iterations: usize,
    /// Why the run ended ([`Run::termination`]). For a run read before its end
    /// (`ended` false), the reason it would end with if it ended now: the budget.
    pub termination: Termination,
    /// Whether the run has ended.
    #[serde(default = "ended_default")]
    pub ended: bool,
    /// The evaluation (1-based) of the first feasible point with `f ≤ target`, when a
    /// target was given and a point reached it.
    pub target_reached_at: Option<usize>,
    /// The points evaluated, by kind.
    #[serde(default)]
    pub counts: Counts,
}

fn ended_default() -> bool {
    true
}

impl Outcome {
    /// The outcome of a run that ended for `termination` at `best`, by the one rule of
    /// a run's end: a convergence on an infeasible best point is
    /// [`Termination::Infeasible`] ([`Termination::given_feasibility`]).
    #[must_use]
    pub fn ended_with(
        best: Best,
        evaluations: usize,
        iterations: usize,
        termination: Termination,
    ) -> Self {
        Self {
            termination: termination.given_feasibility(best.is_feasible()),
            best,
            evaluations,
            iterations,
            ended: true,
            target_reached_at: None,
            counts: Counts::default(),
        }
    }

    /// Whether the run succeeded: it ended by converging (or at its target) on a
    /// feasible point. A run ended by a limit (budget, iteration limit), by its caller,
    /// for want of progress, or not ended yet did not — whatever its best point.
    #[must_use]
    pub fn success(&self) -> bool {
        self.ended && self.termination.is_convergence() && self.best.is_feasible()
    }

    /// scipy's `status` (the one table, [`Termination::status`]); −1 for a run not
    /// ended yet.
    #[must_use]
    pub fn status(&self) -> i8 {
        if self.ended {
            i8::try_from(self.termination.status()).unwrap_or(i8::MAX)
        } else {
            crate::termination::IN_PROGRESS.1
        }
    }

    /// The reason's word ([`Termination::name`]); `running` for a run not ended yet.
    #[must_use]
    pub fn name(&self) -> &'static str {
        if self.ended {
            self.termination.name()
        } else {
            crate::termination::IN_PROGRESS.0
        }
    }

    /// The reason as a sentence ([`Termination::message`]).
    #[must_use]
    pub fn message(&self) -> &'static str {
        if self.ended {
            self.termination.message()
        } else {
            crate::termination::IN_PROGRESS.2
        }
    }
}

/// The first point of a request that is feasible with `f ≤ target`.
fn first_at_target(
    shape: &ProblemShape,
    objectives: &[f64],
    constraints: ArrayView2<'_, f64>,
    target: f64,
) -> Option<usize> {
    let mut c = vec![0.0; constraints.nrows()];
    objectives
        .iter()
        .zip(constraints.columns())
        .position(|(&f, column)| {
            c.iter_mut().zip(column).for_each(|(d, s)| *d = *s);
            f <= target && shape.mean_violation(&c) == 0.0
        })
}
