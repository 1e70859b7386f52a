//! The εMAg-ES loop (docs/algorithm.md §5), one implementation for every choice of
//! components, as a state machine driven by ask and tell.
//!
//! **Initialisation.** `y_k = lb + (ub − lb) ∘ u_k` for `k = 1..λ`; `ε0` from the
//! initial population; the population is ranked with the ε-order at `ε0` and the parent
//! `ȳ` is the plain mean of the `μ` first; `p_σ = 0`, `M = I`, `σ = σ0`.
//!
//! **One generation.**
//!
//! ```text
//! Z ~ N(0, I)^{N×λ},  D = M Z,  y_k = ȳ + σ d_k
//! ŷ_k = keep_range(y_k), evaluate, repair (component)             — changed_k := ŷ_k ≠ y_k
//! rank by the ε-level order at the current ε; back-calculate the selected (component)
//! z_w = Σ w_m z_{m;λ},  d_w = Σ w_m d_{m;λ},  ȳ ← ȳ + σ d_w
//! p_σ ← (1 − c_σ) p_σ + √(c_σ (2 − c_σ) μ_eff) z_w
//! M ← adapt(M, p_σ, d, z) with reset (component)
//! σ ← cap(σ exp((c_σ/2)(‖p_σ‖²/N − 1)))                           (component)
//! best-so-far update (lexicographic), stop test, g ← g + 1, ε ← ε(g)
//! ```
//!
//! Step 14, the checkpoints, is the driver's: an observer ([`crate::record`]).
//!
//! A run in progress is a value, [`Strategy`]: [`Strategy::ask`] hands out the points it
//! wants evaluated ([`Request`]: the population, the repair's Jacobian probes, or the
//! repaired offspring), [`Strategy::tell`] takes their values: it is a solver
//! ([`emages_solver::Solver`]), and [`emages_solver::Driver`] runs it. [`Strategy::step`]
//! does one generation with a [`ConstrainedProblem`]. [`crate::Plan::strategy`] builds
//! one; [`crate::Plan::run`] drives a run with its convergence criteria and restarts.
//!
//! The generation loop allocates nothing: every buffer is sized before the first
//! generation; matrix products go through BLAS.

use crate::back_calculation::Selected;
use crate::config::Parameters;
use crate::control::RunLimits;
use crate::error::MaEsError;
use crate::noise::NoiseSource;
use crate::observer::{Before, GenerationReport};
use crate::ranking::ConstraintValues;
use crate::repair::{Choice, Derivatives};
use crate::result::{Best, RunResult, Termination};
use crate::saved::column_major;
use crate::spec::Components;
use constraint_handling::linalg::gemm;
use constraint_handling::ordering::Fitness;
use constraint_handling::problem::{validate_bounds, JacobianSource, ProblemShape};
use constraint_handling::reflection::keep_range;
use constraint_handling::{ConstrainedProblem, ProblemError};
use constraint_handling::{Incumbent, Snapshot};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder, Zip};
use serde::{Deserialize, Serialize};

pub use crate::request::{Batching, Request, RequestKind, Slots, Told};
use emages_solver::{Evaluator, ProblemEvaluator};

mod generation;
mod repair_round;

use repair_round::RepairRound;

/// Checks that a problem of this shape can run with `params`.
pub(crate) fn check_problem(shape: &ProblemShape, params: &Parameters) -> Result<(), MaEsError> {
    let n = shape.dim();
    if n == 0 || n != params.dim {
        return Err(ProblemError::DimensionMismatch {
            expected: params.dim,
            found: n,
        }
        .into());
    }
    validate_bounds(&shape.lower, &shape.upper)?;
    // A pre-FMA fallback kernel is slower and leaves the reference's trajectories:
    // say so, once per process.
    constraint_handling::linalg::kernel::warn_once();
    if params.initial_mean.is_none()
        && shape
            .lower
            .iter()
            .chain(&shape.upper)
            .any(|b| !b.is_finite())
    {
        return Err(ProblemError::InvalidBounds(
            "the initial population, uniform in the box, needs finite bounds (or give an initial mean)".into(),
        )
        .into());
    }
    Ok(())
}

/// A run of the strategy in progress, driven by ask and tell: its state, its
/// components, its noise source and the buffers of its generation loop. It serialises
/// with serde (when its components are the built-in ones and its noise source
/// serialises) and continues bit for bit where it was saved.
///
/// ```
/// use constraint_handling::problem::ProblemShape;
/// use ma_es::{Options, Variant};
/// // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 in [−5, 5]², evaluated by the caller.
/// let shape = ProblemShape::new(vec![-5.0; 2], vec![5.0; 2], 1, 0).unwrap();
/// let plan = Options::new(Variant::EpsMagEs).budget(6_000).seed(1).build(&shape).unwrap();
/// let mut es = plan.strategy(plan.noise()).unwrap();
/// while let Some(request) = es.ask().unwrap() {
///     let x = request.points.to_owned();
///     let f: Vec<f64> = x.columns().into_iter().map(|c| c[0] * c[0] + c[1] * c[1]).collect();
///     let g = ndarray::Array2::from_shape_fn((1, x.ncols()), |(_, k)| 1.0 - x[[0, k]] - x[[1, k]]);
///     es.tell(&f, g.view()).unwrap();
/// }
/// let best = es.result().best;
/// assert!(best.is_feasible() && (best.objective() - 0.5).abs() < 1e-3);
/// ```
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "N: Serialize", deserialize = "N: Deserialize<'de>"))]
pub struct Strategy<N> {
    shape: ProblemShape,
    params: Parameters,
    limits: RunLimits,
    #[serde(with = "crate::saved::components")]
    components: Components,
    noise: N,
    batching: Batching,
    weights: Array1<f64>,
    pop: Population,
    #[serde(skip)]
    sel: Option<Selection>,
    dist: Distribution,
    progress: Progress,
    repair: RepairRound,
    phase: Phase,
}

/// Where a run is between its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The initial population is to be drawn.
    Start,
    /// The population (initial if `initial`) was drawn and is asked for.
    Population { initial: bool },
    /// The offspring of the generation are to be drawn.
    Sample,
    /// The probes (or the Jacobians) of the offspring being repaired are asked for.
    Probes,
    /// Their repaired points are asked for.
    Repaired,
}

/// The λ offspring of a generation, one per column (column-major, so that columns are
/// contiguous): `z`, `d = M z`, the candidates `ȳ + σ d`, the evaluated points (after
/// reflection and repair), their `f`, `C`, `ν̄`, whether they changed, and the ranking.
#[derive(Serialize, Deserialize)]
struct Population {
    #[serde(with = "column_major")]
    z: Array2<f64>,
    #[serde(with = "column_major")]
    d: Array2<f64>,
    #[serde(with = "column_major")]
    candidates: Array2<f64>,
    #[serde(with = "column_major")]
    points: Array2<f64>,
    objectives: Array1<f64>,
    #[serde(with = "column_major")]
    constraints: Array2<f64>,
    violations: Vec<f64>,
    changed: Vec<bool>,
    ranking: Vec<usize>,
}

/// The μ selected offspring in rank order, and the weighted means `⟨z⟩_w`, `⟨d⟩_w`
/// (scratch of one generation: not saved).
struct Selection {
    z: Array2<f64>,
    d: Array2<f64>,
    points: Array2<f64>,
    changed: Vec<bool>,
    z_w: Array1<f64>,
    d_w: Array1<f64>,
}

impl Selection {
    fn new(n: usize, mu: usize) -> Self {
        Self {
            z: Array2::zeros((n, mu).f()),
            d: Array2::zeros((n, mu).f()),
            points: Array2::zeros((n, mu).f()),
            changed: vec![false; mu],
            z_w: Array1::zeros(n),
            d_w: Array1::zeros(n),
        }
    }
}

/// The search distribution: parent `ȳ`, path `p_σ`, transformation `M`, mutation
/// strength `σ`, and the threshold `ε` the next ranking uses.
#[derive(Serialize, Deserialize)]
struct Distribution {
    parent: Array1<f64>,
    p_sigma: Array1<f64>,
    m: Array2<f64>,
    sigma: f64,
    epsilon: f64,
}

/// The bookkeeping: counters, the best-so-far, termination (what is recorded of a run
/// is the driver's: [`crate::record`]).
#[derive(Serialize, Deserialize)]
struct Progress {
    generation: usize,
    evaluations: usize,
    /// The point and constraint values of the best-so-far, and its snapshot (the same
    /// as the incumbent's): what observers and the result report.
    #[serde(with = "crate::saved::best_so_far")]
    best: Best,
    /// The best-so-far rule (step 10), as every optimizer of the workspace keeps it.
    incumbent: Incumbent,
    resets: usize,
    epsilon0: f64,
    termination: Option<Termination>,
}

impl<N> std::fmt::Debug for Strategy<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Strategy")
            .field("generation", &self.progress.generation)
            .field("evaluations", &self.progress.evaluations)
            .field("sigma", &self.dist.sigma)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl<N: NoiseSource> Strategy<N> {
    /// A run with hand-made components. It saves (serde) only if they are built-in
    /// ones.
    ///
    /// # Errors
    /// [`MaEsError::Problem`] if the shape does not fit `params`.
    pub fn with_components(
        shape: ProblemShape,
        params: Parameters,
        limits: RunLimits,
        components: Components,
        noise: N,
    ) -> Result<Self, MaEsError> {
        check_problem(&shape, &params)?;
        let (n, lambda, mu) = (params.dim, params.lambda, params.mu);
        let k = shape.num_constraints();
        let steps = components.repair.max_steps();
        Ok(Self {
            weights: Array1::from(params.weights.clone()),
            pop: Population {
                z: Array2::zeros((n, lambda).f()),
                d: Array2::zeros((n, lambda).f()),
                candidates: Array2::zeros((n, lambda).f()),
                points: Array2::zeros((n, lambda).f()),
                objectives: Array1::zeros(lambda),
                constraints: Array2::zeros((k, lambda).f()),
                violations: vec![0.0; lambda],
                changed: vec![false; lambda],
                ranking: vec![0; lambda],
            },
            sel: Some(Selection::new(n, mu)),
            dist: Distribution {
                parent: Array1::zeros(n),
                p_sigma: Array1::zeros(n),
                m: Array2::eye(n),
                sigma: params.sigma0,
                epsilon: 0.0,
            },
            progress: Progress {
                generation: 0,
                evaluations: 0,
                best: Best {
                    x: vec![0.0; n],
                    constraints: vec![0.0; k],
                    snapshot: crate::saved::best_so_far::placeholder(),
                },
                resets: 0,
                incumbent: Incumbent::new(&[]),
                epsilon0: 0.0,
                termination: None,
            },
            repair: RepairRound::new(n, k, lambda, steps),
            phase: Phase::Start,
            batching: Batching::default(),
            shape,
            params,
            limits,
            components,
            noise,
        })
    }

    /// The same run with its repair's evaluations batched otherwise (the values are
    /// the same either way).
    #[must_use]
    pub fn with_batching(mut self, batching: Batching) -> Self {
        self.batching = batching;
        self
    }

    /// The resolved parameters.
    #[must_use]
    pub fn params(&self) -> &Parameters {
        &self.params
    }

    /// The run's limits (budget, generation limit, what it records).
    #[must_use]
    pub fn limits(&self) -> &RunLimits {
        &self.limits
    }

    /// The problem's shape.
    #[must_use]
    pub fn shape(&self) -> &ProblemShape {
        &self.shape
    }

    /// The components.
    #[must_use]
    pub fn components(&self) -> &Components {
        &self.components
    }

    /// The components and the noise source, once the run is over.
    #[must_use]
    pub fn into_parts(self) -> (Components, N) {
        (self.components, self.noise)
    }

    /// The components, once the run is over.
    #[must_use]
    pub fn into_components(self) -> Components {
        self.components
    }

    /// Whether the initial population has been evaluated.
    #[must_use]
    pub fn is_initialized(&self) -> bool {
        !matches!(
            self.phase,
            Phase::Start | Phase::Population { initial: true }
        )
    }

    /// The points wanted next, drawing them first if they are not drawn yet (the
    /// initial population, or a generation's offspring), or `None` once the run has
    /// ended (its budget, its generation limit, or [`Strategy::stop`]). Asking again
    /// before telling returns the same request.
    ///
    /// # Errors
    /// [`MaEsError::Problem`] if a point cannot be reflected into the box.
    pub fn ask(&mut self) -> Result<Option<Request<'_>>, MaEsError> {
        if self.progress.termination.is_some() && self.phase == Phase::Sample {
            return Ok(None);
        }
        self.draw().map(Some)
    }

    /// The points wanted next, drawn first if need be (whether or not the run ended).
    fn draw(&mut self) -> Result<Request<'_>, MaEsError> {
        match self.phase {
            Phase::Start => {
                self.draw_initial()?;
                self.phase = Phase::Population { initial: true };
            }
            Phase::Sample => {
                self.sample()?;
                self.phase = Phase::Population { initial: false };
            }
            _ => {}
        }
        Ok(self.request())
    }

    /// The request asked for and not told yet, if any (it does not draw anything).
    #[must_use]
    pub fn pending(&self) -> Option<Request<'_>> {
        match self.phase {
            Phase::Start | Phase::Sample => None,
            _ => Some(self.request()),
        }
    }

    /// The request of the current phase (drawn).
    fn request(&self) -> Request<'_> {
        let n = self.params.dim;
        let a = self.repair.active.len();
        let evaluations = self.charge();
        let jacobians = self.jacobians_welcome();
        match self.phase {
            Phase::Probes if self.exact() => Request {
                points: ArrayView2::from_shape((n, a).f(), &self.repair.probes[..n * a])
                    .expect("probe buffer sized"),
                kind: RequestKind::Jacobians,
                evaluations,
                jacobians,
            },
            Phase::Probes => Request {
                points: ArrayView2::from_shape((n, n * a).f(), &self.repair.probes)
                    .expect("probe buffer sized"),
                kind: RequestKind::JacobianProbes,
                evaluations,
                jacobians,
            },
            Phase::Repaired => Request {
                points: ArrayView2::from_shape((n, a).f(), &self.repair.points)
                    .expect("repair buffer sized"),
                kind: RequestKind::Repaired,
                evaluations,
                jacobians,
            },
            _ => Request {
                points: self.pop.points.view(),
                kind: RequestKind::Population,
                evaluations,
                jacobians,
            },
        }
    }

    /// The request and the buffers its values go to.
    fn slots(&mut self) -> Slots<'_> {
        let n = self.params.dim;
        let k = self.shape.num_constraints();
        let a = self.repair.active.len();
        let exact = self.exact();
        let evaluations = self.charge();
        let jacobians = self.jacobians_welcome();
        let r = &mut self.repair;
        match self.phase {
            Phase::Probes if exact => Slots::new(
                Request {
                    points: ArrayView2::from_shape((n, a).f(), &r.probes[..n * a])
                        .expect("probe buffer sized"),
                    kind: RequestKind::Jacobians,
                    evaluations,
                    jacobians,
                },
                ArrayViewMut1::from(&mut r.probe_objectives[..a]),
                ArrayViewMut2::from_shape((k, n * a).f(), &mut r.probe_constraints)
                    .expect("probe buffer sized"),
            ),
            Phase::Probes => Slots::new(
                Request {
                    points: ArrayView2::from_shape((n, n * a).f(), &r.probes)
                        .expect("probe buffer sized"),
                    kind: RequestKind::JacobianProbes,
                    evaluations,
                    jacobians,
                },
                ArrayViewMut1::from(&mut r.probe_objectives[..]),
                ArrayViewMut2::from_shape((k, n * a).f(), &mut r.probe_constraints)
                    .expect("probe buffer sized"),
            ),
            Phase::Repaired => Slots {
                request: Request {
                    points: ArrayView2::from_shape((n, a).f(), &r.points)
                        .expect("repair buffer sized"),
                    kind: RequestKind::Repaired,
                    evaluations,
                    jacobians,
                },
                objectives: ArrayViewMut1::from(&mut r.objectives[..]),
                constraints: ArrayViewMut2::from_shape((k, a).f(), &mut r.constraints)
                    .expect("repair buffer sized"),
                jacobians: jacobians.then(|| {
                    ArrayViewMut2::from_shape((k, n * a).f(), &mut r.next_jacobians[..k * n * a])
                        .expect("Jacobian buffer sized")
                }),
            },
            _ => Slots::new(
                Request {
                    points: self.pop.points.view(),
                    kind: RequestKind::Population,
                    evaluations,
                    jacobians,
                },
                self.pop.objectives.view_mut(),
                self.pop.constraints.view_mut(),
            ),
        }
    }

    /// Takes the values of the points of the last [`Strategy::ask`]: `objectives[j]`
    /// and column `j` of `constraints` (`(l + m) × n`, rows `g` then `h`) belong to
    /// column `j` of the request. For Jacobian probes `objectives` may be empty.
    ///
    /// # Errors
    /// [`MaEsError::Problem`] for values of the wrong shape or a tell without an ask
    /// ([`ProblemError::BatchShape`]); the run is unchanged then.
    pub fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, MaEsError> {
        self.tell_values(objectives, constraints, None)
    }

    /// [`Strategy::tell`] for a request that welcomes the Jacobians at its points
    /// ([`Request::jacobians`]): `jacobians` is `(l + m) × (N · n)`, its columns
    /// `jN .. (j+1)N` are `∂C/∂x` at point `j`. The next repair step then asks for no
    /// Jacobians at these points.
    ///
    /// # Errors
    /// As [`Strategy::tell`]; [`MaEsError::Protocol`] for a request that does not
    /// welcome Jacobians.
    pub fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, MaEsError> {
        self.tell_values(objectives, constraints, Some(jacobians))
    }

    fn tell_values(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: Option<ArrayView2<'_, f64>>,
    ) -> Result<Told, MaEsError> {
        if matches!(self.phase, Phase::Start | Phase::Sample) {
            return Err(MaEsError::Protocol(
                "tell without a pending ask: ask for the points first".into(),
            ));
        }
        let Slots {
            request,
            objectives: mut f,
            constraints: mut c,
            jacobians: mut j,
        } = self.slots();
        let n = request.points.ncols();
        let probes_without_f = request.kind.constraints_only() && objectives.is_empty();
        if objectives.len() != n && !probes_without_f {
            return Err(ProblemError::BatchShape {
                what: "objectives",
                expected: vec![n],
                found: vec![objectives.len()],
            }
            .into());
        }
        if constraints.dim() != c.dim() {
            return Err(ProblemError::BatchShape {
                what: "constraints (one column per point)",
                expected: c.shape().to_vec(),
                found: constraints.shape().to_vec(),
            }
            .into());
        }
        match (&jacobians, &j) {
            (Some(_), None) => {
                return Err(MaEsError::Protocol(
                    "this request does not take Jacobians (Request::jacobians is false): tell its values alone".into(),
                ))
            }
            (Some(given), Some(slot)) if given.dim() != slot.dim() => {
                return Err(ProblemError::BatchShape {
                    what: "Jacobians (N columns per point)",
                    expected: slot.shape().to_vec(),
                    found: given.shape().to_vec(),
                }
                .into())
            }
            _ => {}
        }
        if !probes_without_f {
            f.assign(
                &ArrayView2::from_shape((1, n), objectives)
                    .expect("n values")
                    .row(0),
            );
        }
        c.assign(&constraints);
        let told_jacobians = match (jacobians, j.as_mut()) {
            (Some(given), Some(slot)) => {
                slot.assign(&given);
                true
            }
            _ => false,
        };
        self.repair.jacobians_ready = told_jacobians;
        self.told()
    }

    /// Evaluates the pending request with `evaluate(slots)`, which writes the values
    /// into the slots' buffers (and returns whether it wrote the Jacobians too, where
    /// [`Slots::jacobians`] offers their place), and tells them.
    ///
    /// # Errors
    /// Whatever `evaluate` returns, and as [`Strategy::ask`].
    pub fn evaluate_with<E>(
        &mut self,
        evaluate: impl FnOnce(Slots<'_>) -> Result<bool, E>,
    ) -> Result<Told, MaEsError>
    where
        MaEsError: From<E>,
    {
        self.draw()?;
        let slots = self.slots();
        let with_jacobians = slots.jacobians.is_some();
        let wrote = evaluate(slots)?;
        self.repair.jacobians_ready = with_jacobians && wrote;
        self.told()
    }

    /// One generation (or the initialisation, if the run has not been initialised) with
    /// `problem` evaluating every request, in the reference's grouping
    /// ([`ProblemEvaluator`]: the population as one batch, each offspring's probes as
    /// one batch, each repaired point alone, so that a problem whose batches round
    /// differently gives the reference's numbers). Returns the termination the
    /// generation met, as [`Told::Iteration`].
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn step<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
    ) -> Result<Option<Termination>, MaEsError> {
        let mut evaluator = ProblemEvaluator::new(problem);
        loop {
            let told = self.evaluate_with(|slots| evaluator.evaluate(slots))?;
            if let Told::Iteration(stop) = told {
                return Ok(stop);
            }
        }
    }

    /// Ends the run after the generation just told (termination `Stopped`), unless it
    /// has ended already; [`Strategy::ask`] returns `None` from then on.
    pub fn stop(&mut self) {
        self.end(Termination::Stopped);
    }

    /// Ends the run for `reason`, unless it has ended already.
    pub(crate) fn end(&mut self, reason: Termination) {
        self.progress.termination.get_or_insert(reason);
    }

    /// The values of the last request have been written into the slots: continue.
    fn told(&mut self) -> Result<Told, MaEsError> {
        match self.phase {
            Phase::Population { initial: true } => {
                self.take_population();
                self.initialize()?;
                self.phase = Phase::Sample;
                Ok(Told::Iteration(None))
            }
            Phase::Population { initial: false } => {
                self.take_population();
                self.components.repair.choose(
                    Choice {
                        generation: self.progress.generation,
                        dim: self.params.dim,
                        violations: &self.pop.violations,
                        noise: &mut self.noise,
                    },
                    &mut self.repair.chosen,
                );
                self.repair.best = self.inject_best();
                self.repair.started = 0;
                self.repair.active.clear();
                self.next_repair_step()
            }
            Phase::Probes => {
                self.repair_step()?;
                self.phase = Phase::Repaired;
                Ok(Told::Pending)
            }
            Phase::Repaired => {
                self.take_repaired();
                self.repair.step += 1;
                self.next_repair_step()
            }
            Phase::Start | Phase::Sample => unreachable!("checked by the callers"),
        }
    }

    /// The evaluations charged for the request of the current phase (as
    /// [`Strategy::take_population`] and [`Strategy::take_repaired`] charge them).
    fn charge(&self) -> usize {
        let (n, a) = (self.params.dim, self.repair.active.len());
        let repair = &self.components.repair;
        match self.phase {
            Phase::Probes => {
                a * repair
                    .cost(n, self.shape.jacobian, self.repair.step)
                    .saturating_sub(1)
            }
            Phase::Repaired => a,
            _ => self.params.lambda,
        }
    }

    /// Whether the repairs take the problem's exact Jacobians.
    fn exact(&self) -> bool {
        self.shape.jacobian == JacobianSource::Exact
    }

    /// Whether the pending request takes the Jacobians at its points with their values:
    /// repaired points of a run with exact Jacobians, one of which may take another step.
    fn jacobians_welcome(&self) -> bool {
        let repair = &self.components.repair;
        self.phase == Phase::Repaired
            && self.exact()
            && self.repair.step + 1 < repair.max_steps().max(repair.best_steps())
    }

    /// `ν̄` of the population's values; charges the λ evaluations.
    fn take_population(&mut self) {
        for (v, c) in self
            .pop
            .violations
            .iter_mut()
            .zip(self.pop.constraints.columns())
        {
            *v = self
                .shape
                .mean_violation(c.as_slice().expect("column-major constraint matrix"));
        }
        self.progress.evaluations += self.params.lambda;
    }
}

impl<N> Strategy<N> {
    /// The current state (after the initialisation or the last generation).
    #[must_use]
    pub fn report(&self) -> GenerationReport<'_> {
        GenerationReport {
            generation: self.progress.generation,
            evaluations: self.progress.evaluations,
            sigma: self.dist.sigma,
            epsilon: self.dist.epsilon,
            parent: self.dist.parent.as_slice().expect("contiguous parent"),
            p_sigma: self.dist.p_sigma.as_slice().expect("contiguous path"),
            m: self.dist.m.view(),
            best: &self.progress.best,
            objectives: self
                .pop
                .objectives
                .as_slice()
                .expect("contiguous objectives"),
            violations: &self.pop.violations,
            before: Before::default(),
        }
    }

    /// Why the run has ended, once a generation met the stop criterion (or
    /// [`Strategy::stop`] was called).
    #[must_use]
    pub fn termination(&self) -> Option<Termination> {
        self.progress.termination
    }

    /// The evaluations charged so far.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.progress.evaluations
    }

    /// The best-so-far.
    #[must_use]
    pub fn best(&self) -> &Best {
        &self.progress.best
    }

    /// The result of the run so far, without checkpoints or dynamics: a strategy
    /// records nothing; its driver does ([`crate::record::Record`]).
    #[must_use]
    pub fn result(&self) -> RunResult {
        RunResult {
            best: self.progress.best.clone(),
            checkpoints: Vec::new(),
            generations: self.progress.generation,
            evaluations: self.progress.evaluations,
            termination: self.progress.termination.unwrap_or(Termination::Budget),
            epsilon0: self.progress.epsilon0,
            sigma: self.dist.sigma,
            resets: self.progress.resets,
            dynamics: None,
            restarts: Vec::new(),
        }
    }
}
