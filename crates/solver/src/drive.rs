//! The one driver: [`Driver`] runs any [`Solver`] on a problem (or with any
//! [`Evaluator`]) until it ends by itself, its budget or iteration limit is reached, a
//! target is met, or an observer stops it; the finished run is an [`Outcome`].

use crate::error::SolverError;
use crate::evaluate::{Evaluator, ProblemEvaluator};
use crate::observer::Observer;
use crate::request::{RequestKind, Slots, Told};
use crate::run::{Limits, Outcome, Run};
use crate::solver::Solver;
#[cfg(doc)]
use crate::termination::Termination;
use constraint_handling::parallel::Parallel;
use constraint_handling::problem::{ConstrainedProblem, JacobianSource, ProblemShape};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder};

/// Runs any [`Solver`] on a problem (or with any [`Evaluator`]) until it ends by
/// itself, its budget or iteration limit is reached, a target is met, or an observer
/// stops it.
///
/// Each request is evaluated whole or not at all: the budget is a cap, and a request
/// that would take the evaluations past it is not evaluated (the run then ends with
/// [`Termination::Budget`]). Without a budget the solver's own limits end it. The
/// observers look at the run after every iteration; one that breaks stops it there.
///
/// ```
/// use constraint_handling::{problem::ProblemShape, FnProblem, Fitness, Snapshot};
/// use emages_solver::{Best, Driver, Request, RequestKind, Solver, SolverError, Status, Phase, Termination, Told};
/// use ndarray::{Array2, ArrayView2, ShapeBuilder};
///
/// /// Coordinate search with a halving step, as a solver: one point per request.
/// struct Compass { shape: ProblemShape, x: Vec<f64>, step: f64, k: usize, trial: Array2<f64>, best: Option<Best>, told: usize, stopped: bool }
///
/// impl Solver for Compass {
///     fn shape(&self) -> &ProblemShape { &self.shape }
///     fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
///         if self.stopped || self.step < 1e-9 { return Ok(None); }
///         let n = self.x.len();
///         let (i, sign) = (self.k / 2 % n, if self.k % 2 == 0 { 1.0 } else { -1.0 });
///         self.trial = Array2::from_shape_fn((n, 1).f(), |(j, _)| self.x[j] + if j == i { sign * self.step } else { 0.0 });
///         Ok(Some(Request { points: self.trial.view(), kind: RequestKind::Population, evaluations: 1, jacobians: false }))
///     }
///     fn tell(&mut self, f: &[f64], c: ArrayView2<'_, f64>) -> Result<Told, SolverError> {
///         self.told += 1;
///         let fitness = Fitness::new(f[0], self.shape.mean_violation(&c.column(0).to_vec()));
///         if self.best.as_ref().is_none_or(|b| (fitness.violation, fitness.objective) < (b.violation(), b.objective())) {
///             self.x = self.trial.column(0).to_vec();
///             self.best = Some(Best::new(self.x.clone(), c.column(0).to_vec(), Snapshot::new(fitness.objective, fitness.violation).found_at(self.told)));
///         } else if self.k % (2 * self.x.len()) == 2 * self.x.len() - 1 {
///             self.step /= 2.0;
///         }
///         self.k += 1;
///         Ok(Told::Iteration(None))
///     }
///     fn best(&self) -> Option<Best> { self.best.clone() }
///     fn evaluations(&self) -> usize { self.told }
///     fn iterations(&self) -> usize { self.told }
///     fn termination(&self) -> Option<Termination> {
///         if self.stopped { Some(Termination::Stopped) } else { (self.step < 1e-9).then_some(Termination::Converged) }
///     }
///     fn stop(&mut self) { self.stopped = true; }
///     fn status(&self) -> Status { Status::start(Phase::Local) }
/// }
///
/// // min (x₁ − 1)² + (x₂ − 2)² s.t. x₁ ≤ ½ on [−5, 5]²: the optimum is ¼ at (½, 2).
/// let p = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
///     c[0] = x[0] - 0.5;
///     Ok((x[0] - 1.0).powi(2) + (x[1] - 2.0).powi(2))
/// })?;
/// let shape = ProblemShape::of(&p)?;
/// let mut run = Compass { shape, x: vec![0.0; 2], step: 1.0, k: 0, trial: Array2::zeros((2, 1)), best: None, told: 0, stopped: false };
/// let outcome = Driver::new(&mut run).budget(10_000).run(&p)?;
/// assert!(outcome.best.is_feasible() && (outcome.best.objective() - 0.25).abs() < 1e-8);
/// assert_eq!(outcome.termination, Termination::Converged);
/// assert!(outcome.evaluations < 1_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Driver<'s, 'o, S: Solver + ?Sized> {
    solver: &'s mut S,
    limits: Limits,
    observers: Vec<&'o mut dyn Observer<S>>,
}

impl<'s, 'o, S: Solver + ?Sized> Driver<'s, 'o, S> {
    /// A driver of `solver`: no budget, no iteration limit, no target, no observer.
    pub fn new(solver: &'s mut S) -> Self {
        Self {
            solver,
            limits: Limits::default(),
            observers: Vec::new(),
        }
    }

    /// Evaluations at most: a request that would take the run past them is not
    /// evaluated, and the run ends there ([`Termination::Budget`]).
    #[must_use]
    pub fn budget(mut self, budget: usize) -> Self {
        self.limits.budget = Some(budget);
        self
    }

    /// Iterations at most ([`Termination::GenerationLimit`]).
    #[must_use]
    pub fn max_iterations(mut self, iterations: usize) -> Self {
        self.limits.max_iterations = Some(iterations);
        self
    }

    /// Stop after the first request with a feasible point whose `f ≤ target`
    /// ([`Termination::Target`]; [`Outcome::target_reached_at`] names the point's
    /// evaluation).
    #[must_use]
    pub fn target(mut self, target: f64) -> Self {
        self.limits.target = Some(target);
        self
    }

    /// All three limits at once ([`Limits`]: budget, iteration limit, target; `None`
    /// for none).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Look at the run after every iteration; `ControlFlow::Break` stops it there
    /// ([`Termination::Stopped`]).
    #[must_use]
    pub fn observe(mut self, observer: &'o mut dyn Observer<S>) -> Self {
        self.observers.push(observer);
        self
    }

    /// Runs on `problem` in this thread — or, for a problem that declares itself
    /// expensive ([`ConstrainedProblem::as_expensive`]), with each request's points
    /// evaluated on all cores ([`Parallel`]: the values, and so the run, are those of
    /// one thread).
    ///
    /// # Errors
    /// The problem's and the solver's errors; a problem of another shape than the
    /// run's ([`SolverError::Invalid`], naming what differs); a run that ended before
    /// any evaluation ([`SolverError::NothingEvaluated`]).
    pub fn run<P: ConstrainedProblem + ?Sized>(self, problem: &P) -> Result<Outcome, SolverError> {
        check_shape(self.solver.shape(), problem)?;
        match problem.as_expensive() {
            Some(expensive) => {
                let parallel = Parallel::on_all_cores(expensive);
                self.run_with(&mut ProblemEvaluator::new(&parallel))
            }
            None => self.run_with(&mut ProblemEvaluator::new(problem)),
        }
    }

    /// [`Driver::run`] with each request's points evaluated on `threads` threads
    /// ([`Parallel`]: the values, and so the run, are those of one thread).
    ///
    /// # Errors
    /// As [`Driver::run`].
    pub fn run_on_threads<P: ConstrainedProblem + Sync + ?Sized>(
        self,
        problem: &P,
        threads: usize,
    ) -> Result<Outcome, SolverError> {
        check_shape(self.solver.shape(), problem)?;
        let parallel = Parallel::new(problem, threads);
        self.run_with(&mut ProblemEvaluator::new(&parallel))
    }

    /// Runs with `evaluator` evaluating every request.
    ///
    /// # Errors
    /// The evaluator's and the solver's errors; a run that ended before any evaluation
    /// ([`SolverError::NothingEvaluated`]).
    pub fn run_with(self, evaluator: &mut dyn Evaluator) -> Result<Outcome, SolverError> {
        let mut observers = self.observers;
        let mut run = Run::new(self.solver).with_limits(self.limits);
        let shape = run.shape().clone();
        let (n, k) = (shape.dim(), shape.num_constraints());
        let mut buffers = Buffers::default();
        loop {
            let Some(request) = run.ask()? else {
                break;
            };
            let count = request.len();
            let jacobians = request.kind.derivatives();
            let together = request.jacobians;
            let columns = if jacobians { n * count } else { count };
            let gradients = if request.kind == RequestKind::Gradients {
                n * count
            } else {
                count
            };
            buffers.objectives.clear();
            buffers.objectives.resize(gradients, f64::NAN);
            buffers.constraints.clear();
            buffers.constraints.resize(k * columns, 0.0);
            if together {
                buffers.jacobians.clear();
                buffers.jacobians.resize(k * n * count, 0.0);
            }
            let slots = Slots {
                request,
                objectives: ArrayViewMut1::from(&mut buffers.objectives[..]),
                constraints: ArrayViewMut2::from_shape((k, columns).f(), &mut buffers.constraints)
                    .expect("sized above"),
                jacobians: together.then(|| {
                    ArrayViewMut2::from_shape((k, n * count).f(), &mut buffers.jacobians)
                        .expect("sized above")
                }),
            };
            let wrote = evaluator.evaluate(slots)?;
            let constraints = ArrayView2::from_shape((k, columns).f(), &buffers.constraints)
                .expect("sized above");
            let told = if together && wrote {
                let jac = ArrayView2::from_shape((k, n * count).f(), &buffers.jacobians)
                    .expect("sized above");
                run.tell_with_jacobians(&buffers.objectives, constraints, jac)?
            } else {
                run.tell(&buffers.objectives, constraints)?
            };
            if let Told::Iteration(_) = told {
                let mut stop = false;
                for observer in &mut observers {
                    stop |= observer.observe(&**run.solver()).is_break();
                }
                if stop {
                    run.stop();
                }
            }
        }
        run.outcome()
    }
}

/// The driver's buffers, grown to the largest request once and reused.
#[derive(Default)]
struct Buffers {
    objectives: Vec<f64>,
    constraints: Vec<f64>,
    jacobians: Vec<f64>,
}

/// The problem must be of the run's shape — its dimension, box and constraint counts —
/// and offer the derivatives a run with exact ones asks for: the error names what
/// differs. The equality margin is the run's own (it judges the values it is told).
fn check_shape<P: ConstrainedProblem + ?Sized>(
    shape: &ProblemShape,
    problem: &P,
) -> Result<(), SolverError> {
    let mut given = ProblemShape::of(problem)?;
    given.equality_margin = shape.equality_margin;
    if let Some(what) = shape.difference(&given) {
        return Err(SolverError::Invalid(format!(
            "the problem is not of the shape the run was built for: {what}"
        )));
    }
    if shape.jacobian == JacobianSource::Exact && problem.constraint_jacobian().is_none() {
        return Err(SolverError::Invalid(
            "the run takes exact Jacobians, and the problem offers none (ConstrainedProblem::constraint_jacobian)".into(),
        ));
    }
    if shape.gradient && problem.objective_gradient().is_none() {
        return Err(SolverError::Invalid(
            "the run takes the objective's gradient, and the problem offers none (ConstrainedProblem::objective_gradient)".into(),
        ));
    }
    Ok(())
}
