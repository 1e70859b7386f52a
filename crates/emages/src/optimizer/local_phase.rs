//! The SQP local phase ([`local_phase::sqp`]) as a harness optimizer, restarted: the
//! first run from the box's centre, each further one from a point drawn uniformly in
//! the box (the task's seed alone decides them), until the budget is spent. A run's
//! batch that would not fit into the budget left is not asked for: the run never
//! evaluates more points than its budget.

use super::{Optimizer, Outcome, StopReason, Task, Tracker};
use crate::error::StudyError;
use constraint_handling::problem::ProblemShape;
use local_phase::sqp::{Sqp, SqpSettings};
use ma_es::request::Request;
use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder};
use rand::{Rng, SeedableRng};

/// The SQP local phase ([`local_phase::sqp`]) as a harness optimizer, restarted: the
/// first run from the box's centre, each further one from a point drawn uniformly in
/// the box (the task's seed alone decides them), until the budget is spent. A run's
/// batch that would not fit into the budget left is not asked for: the run never
/// evaluates more points than its budget.
///
/// `kind` is `sqp-restarts`.
///
/// ```
/// use emages::optimizer::{LocalPhaseOptimizer, Optimizer, Task};
/// use constraint_handling::FnProblem;
/// // min x₁ + x₂  s.t.  x₁² + x₂² ≤ 2: f* = −2
/// let p = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 1, 0, |x, g| {
///     g[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
///     Ok(x[0] + x[1])
/// })
/// .unwrap();
/// let out = LocalPhaseOptimizer::default().run(&Task::new(&p, 400, 1)).unwrap();
/// assert!(out.evaluations <= 400 && out.restarts.is_empty());
/// assert!((out.best.objective() + 2.0).abs() < 1e-6 && out.best.violation() == 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct LocalPhaseOptimizer {
    /// The settings of each run ([`SqpSettings::frozen`] by default: the training
    /// studies' `sqp-restarts`).
    pub settings: SqpSettings,
}

impl Default for LocalPhaseOptimizer {
    fn default() -> Self {
        Self {
            settings: SqpSettings::frozen(),
        }
    }
}

impl Optimizer for LocalPhaseOptimizer {
    fn kind(&self) -> &str {
        "sqp-restarts"
    }

    fn validate(&self, dim: usize) -> Result<(), StudyError> {
        let shape = ProblemShape::new(vec![0.0; dim], vec![1.0; dim], 0, 0)
            .map_err(|e| StudyError::Invalid(e.to_string()))?;
        Sqp::new(shape, &vec![0.5; dim], self.settings.clone())
            .map(|_| ())
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    fn run(&self, task: &Task<'_>) -> Result<Outcome, StudyError> {
        let shape = black_box_shape(task)?;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(task.seed);
        let tracker = Tracker::new(task);
        let mut start = centre(&shape);
        let mut iterations = 0;
        while let SqpEnd::Stopped =
            run_sqp(&tracker, &shape, &start, &self.settings, &mut iterations)?
        {
            uniform_in_box(&shape, &mut rng, &mut start);
        }
        Ok(tracker.finish(iterations, StopReason::Budget))
    }
}

/// How a run of the local phase ended.
pub(super) enum SqpEnd {
    /// It stopped by itself.
    Stopped,
    /// Its next batch did not fit into the budget left.
    Budget,
}

/// The task's problem's shape, with the repairs' Jacobians from differences (a black
/// box: the harness compares algorithms on values alone).
pub(super) fn black_box_shape(task: &Task<'_>) -> Result<ProblemShape, StudyError> {
    Ok(ProblemShape::of(task.problem)
        .map_err(|e| StudyError::Invalid(e.to_string()))?
        .with_jacobian(constraint_handling::JacobianSource::Differences))
}

/// The box's centre ([`local_phase::starts::centre`]).
pub(super) fn centre(shape: &ProblemShape) -> Vec<f64> {
    local_phase::starts::centre(&shape.lower, &shape.upper)
}

/// A point drawn uniformly in the box, into `x` ([`local_phase::starts::uniform_in_box`]).
pub(super) fn uniform_in_box(shape: &ProblemShape, rng: &mut impl Rng, x: &mut [f64]) {
    local_phase::starts::uniform_in_box(&shape.lower, &shape.upper, rng, x);
}

/// One run of the local phase from `start`, every point evaluated through `tracker`
/// (one iteration per batch).
///
/// # Errors
/// The problem's errors; a start or settings the local phase refuses.
pub(super) fn run_sqp(
    tracker: &Tracker<'_>,
    shape: &ProblemShape,
    start: &[f64],
    settings: &SqpSettings,
    iterations: &mut usize,
) -> Result<SqpEnd, StudyError> {
    let k = shape.num_constraints();
    let mut sqp = Sqp::new(shape.clone(), start, settings.clone())
        .map_err(|e| StudyError::Invalid(e.to_string()))?;
    let mut batch = Batch::new(shape.dim(), k);
    while let Some(points) = sqp.ask() {
        if points.ncols() > tracker.remaining() {
            return Ok(SqpEnd::Budget);
        }
        let (objectives, constraints) = batch.evaluate(tracker, points)?;
        sqp.tell(objectives, constraints)
            .map_err(|e| StudyError::Other(e.to_string()))?;
        *iterations += 1;
        tracker.trace(sqp.step_bound());
    }
    Ok(SqpEnd::Stopped)
}

/// The buffers of a batch evaluated point by point through a [`Tracker`]: the
/// objectives, and the constraints column-major (column `j` is point `j`'s `C`), as a
/// tell takes them. Reused from batch to batch.
pub(super) struct Batch {
    x: Vec<f64>,
    c: Vec<f64>,
    objectives: Vec<f64>,
    constraints: Vec<f64>,
}

impl Batch {
    pub(super) fn new(dim: usize, constraints: usize) -> Self {
        Self {
            x: vec![0.0; dim],
            c: vec![0.0; constraints],
            objectives: Vec::new(),
            constraints: Vec::new(),
        }
    }

    /// Evaluates the points (one per column) through `tracker`.
    ///
    /// # Errors
    /// The problem's errors.
    pub(super) fn evaluate(
        &mut self,
        tracker: &Tracker<'_>,
        points: ArrayView2<'_, f64>,
    ) -> Result<(&[f64], ArrayView2<'_, f64>), StudyError> {
        self.objectives.clear();
        self.constraints.clear();
        for x in points.columns() {
            self.x.iter_mut().zip(x).for_each(|(d, s)| *d = *s);
            let fitness = tracker.evaluate_into(&self.x, &mut self.c)?;
            self.objectives.push(fitness.objective);
            self.constraints.extend_from_slice(&self.c);
        }
        let view = ArrayView2::from_shape((self.c.len(), points.ncols()).f(), &self.constraints)
            .expect("count · (l + m) values");
        Ok((&self.objectives, view))
    }

    /// The constraint Jacobians at the points of a [`RequestKind::Jacobians`] request
    /// through `tracker` (charged as the request says, spread over its points), as the tell
    /// takes them: no objectives, `(l + m) × (N · count)`.
    ///
    /// # Errors
    /// The problem's errors; a problem that offers no Jacobian.
    pub(super) fn jacobians(
        &mut self,
        tracker: &Tracker<'_>,
        request: &Request<'_>,
    ) -> Result<(&[f64], ArrayView2<'_, f64>), StudyError> {
        let (k, n, count) = (self.c.len(), self.x.len(), request.len());
        self.objectives.clear();
        self.constraints.clear();
        self.constraints.resize(k * n * count, 0.0);
        for (j, block) in self.constraints.chunks_exact_mut(k * n).enumerate() {
            let block = ArrayViewMut2::from_shape((k, n).f(), block).expect("(l + m) × N values");
            let charge = request.evaluations * (j + 1) / count - request.evaluations * j / count;
            tracker.jacobian(request.point(j), block, charge)?;
        }
        let view = ArrayView2::from_shape((k, n * count).f(), &self.constraints)
            .expect("(l + m) × (N · count) values");
        Ok((&self.objectives, view))
    }
}
