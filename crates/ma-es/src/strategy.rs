//! The εMAg-ES loop (REFERENCE.md §5), one implementation for every choice of
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
//! repaired offspring), [`Strategy::tell`] takes their values. [`Strategy::step`] does
//! that for one generation with a [`ConstrainedProblem`], [`Strategy::run`] for the whole
//! run. [`crate::Plan::strategy`] builds one; [`crate::Plan::run`] drives a run with its
//! convergence criteria and restarts.
//!
//! The generation loop allocates nothing: every buffer is sized before the first
//! generation; matrix products go through BLAS.

use crate::back_calculation::Selected;
use crate::config::Parameters;
use crate::control::RunLimits;
use crate::error::MaEsError;
use crate::noise::NoiseSource;
use crate::observer::{Before, GenerationReport, Observer};
use crate::ranking::ConstraintValues;
use crate::repair::{Choice, Derivatives};
use crate::result::{BestSoFar, RunResult, Termination};
use crate::saved::column_major;
use crate::spec::Components;
use constraint_handling::linalg::gemm;
use constraint_handling::ordering::Fitness;
use constraint_handling::problem::{
    validate_bounds, ConstraintJacobian, JacobianSource, ProblemShape,
};
use constraint_handling::reflection::keep_range;
use constraint_handling::{ConstrainedProblem, ProblemError};
use constraint_handling::{Incumbent, Snapshot};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder, Zip};
use serde::{Deserialize, Serialize};

pub use crate::request::{Batching, Request, RequestKind, Slots, Told};

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
    best: BestSoFar,
    /// The best-so-far rule (step 10), as every optimizer of the workspace keeps it.
    incumbent: Incumbent,
    resets: usize,
    epsilon0: f64,
    termination: Option<Termination>,
}

/// The most probe coordinates (`N × N` per offspring) one request holds: 2²² numbers,
/// 32 MiB.
const MAX_PROBE_ENTRIES: usize = 1 << 22;

/// The repair of one generation: the offspring chosen, those in the current step,
/// and the buffers of their requests (sized for every offspring once; only the first
/// columns are used and saved).
#[derive(Serialize, Deserialize)]
struct RepairRound {
    /// The offspring chosen this generation, ascending.
    chosen: Vec<usize>,
    /// How many of `chosen` have been started ([`Batching::Offspring`]).
    started: usize,
    /// The offspring in the current step.
    active: Vec<usize>,
    /// The current step (0 for the first).
    step: usize,
    /// The offspring that holds the injected best-so-far, if any
    /// ([`Repair::best_steps`]).
    #[serde(default)]
    best: Option<usize>,
    /// `N × (N · active)`: the probes.
    probes: Vec<f64>,
    /// Scratch for the probes' `f`.
    probe_objectives: Vec<f64>,
    /// `(l + m) × (N · active)`.
    probe_constraints: Vec<f64>,
    /// `N × active`: the repaired points.
    points: Vec<f64>,
    /// Their `f`.
    objectives: Vec<f64>,
    /// `(l + m) × active`.
    constraints: Vec<f64>,
    /// `(l + m) × (N · active)`: the Jacobians at the repaired points, when told with
    /// their values ([`Request::jacobians`]).
    #[serde(default)]
    next_jacobians: Vec<f64>,
    /// The repaired points' Jacobians came with their values.
    #[serde(default)]
    jacobians_ready: bool,
}

impl RepairRound {
    /// The most offspring one step asks for at once: all of λ, but no more than keep
    /// the probes within `MAX_PROBE_ENTRIES` numbers (a huge λ is repaired in waves).
    fn wave(n: usize, lambda: usize) -> usize {
        (MAX_PROBE_ENTRIES / (n * n).max(1)).clamp(1, lambda.max(1))
    }

    fn new(n: usize, k: usize, lambda: usize, steps: usize) -> Self {
        // Reserved for a wave of offspring once; grown within that, never reallocated.
        let cap = if steps == 0 { 0 } else { Self::wave(n, lambda) };
        Self {
            chosen: Vec::with_capacity(cap),
            started: 0,
            active: Vec::with_capacity(cap),
            step: 0,
            best: None,
            probes: Vec::with_capacity(n * n * cap),
            probe_objectives: Vec::with_capacity(n * cap),
            probe_constraints: Vec::with_capacity(k * n * cap),
            points: Vec::with_capacity(n * cap),
            objectives: Vec::with_capacity(cap),
            constraints: Vec::with_capacity(k * cap),
            next_jacobians: Vec::with_capacity(k * n * cap),
            jacobians_ready: false,
        }
    }

    /// Sizes the buffers for the active offspring.
    fn size(&mut self, n: usize, k: usize) {
        let a = self.active.len();
        self.probes.resize(n * n * a, 0.0);
        self.probe_objectives.resize(n * a, 0.0);
        self.probe_constraints.resize(k * n * a, 0.0);
        self.points.resize(n * a, 0.0);
        self.objectives.resize(a, 0.0);
        self.constraints.resize(k * a, 0.0);
        self.next_jacobians.resize(k * n * a, 0.0);
    }
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
                best: BestSoFar {
                    y: vec![0.0; n],
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
    /// `problem` evaluating every request, in the reference's grouping: the population
    /// as one batch, each offspring's probes as one batch, each repaired point alone
    /// (so that a problem whose batches round differently gives the reference's
    /// numbers). Returns the termination the generation met, as [`Told::Generation`].
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn step<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
    ) -> Result<Option<Termination>, MaEsError> {
        let n = self.params.dim;
        loop {
            let told = self.evaluate_with(|slots| evaluate(problem, n, slots))?;
            if let Told::Generation(stop) = told {
                return Ok(stop);
            }
        }
    }

    /// Runs to the end with `problem` evaluating every request; returns the result.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
    ) -> Result<RunResult, MaEsError> {
        self.run_observed(problem, &mut crate::observer::NoObserver)
    }

    /// [`Strategy::run`], calling `observer` after the initialisation and after every
    /// generation (`ControlFlow::Break` ends the run, termination `Observer`).
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run_observed<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        observer: &mut dyn Observer,
    ) -> Result<RunResult, MaEsError> {
        if !self.is_initialized() {
            self.step(problem)?;
            if observer.observe(&self.report()).is_break() {
                self.end(Termination::Observer);
            }
        }
        while self.progress.termination.is_none() {
            let stop = self.step(problem)?;
            if observer.observe(&self.report()).is_break() && stop.is_none() {
                self.end(Termination::Observer);
            }
        }
        Ok(self.result())
    }

    /// Ends the run after the generation just told (termination `Observer`), unless it
    /// has ended already; [`Strategy::ask`] returns `None` from then on.
    pub fn stop(&mut self) {
        self.end(Termination::Observer);
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
                Ok(Told::Generation(None))
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

    /// Sets up the next repair step (the probes it asks for), or completes the
    /// generation when no offspring needs one.
    fn next_repair_step(&mut self) -> Result<Told, MaEsError> {
        let max_steps = self.components.repair.max_steps();
        let best_steps = self.components.repair.best_steps();
        let mut active = std::mem::take(&mut self.repair.active);
        let (step, best) = (self.repair.step, self.repair.best);
        let (n, k) = (self.params.dim, self.shape.num_constraints());
        // The Jacobians told with the repaired points' values move with the offspring
        // that go on.
        let told = std::mem::take(&mut self.repair.jacobians_ready) && step > 0;
        let block = k * n;
        let mut kept = 0;
        for j in 0..active.len() {
            let o = active[j];
            let limit = if best == Some(o) {
                best_steps
            } else {
                max_steps
            };
            if step < limit && needs_repair(self.pop.violations[o]) {
                if told && kept != j {
                    self.repair
                        .next_jacobians
                        .copy_within(j * block..(j + 1) * block, kept * block);
                }
                active[kept] = o;
                kept += 1;
            }
        }
        active.truncate(kept);
        let continuing = told && !active.is_empty();
        if active.is_empty() {
            self.repair.step = 0;
            // The next wave: the chosen offspring not started yet that need a repair,
            // one at a time or as many as a request holds.
            let wave = match self.batching {
                Batching::Offspring => 1,
                Batching::Generation => RepairRound::wave(self.params.dim, self.params.lambda),
            };
            let chosen = &self.repair.chosen;
            let started = &mut self.repair.started;
            while max_steps > 0 && *started < chosen.len() && active.len() < wave {
                let k = chosen[*started];
                *started += 1;
                if needs_repair(self.pop.violations[k]) {
                    active.push(k);
                }
            }
        }
        self.repair.active = active;
        if self.repair.active.is_empty() {
            self.repair.chosen.clear();
            let stop = self.complete_generation()?;
            self.phase = Phase::Sample;
            return Ok(Told::Generation(stop));
        }
        self.repair.size(n, k);
        if continuing {
            // The Jacobians at these points came with their values: no request for them.
            let r = &mut self.repair;
            r.probe_constraints.copy_from_slice(&r.next_jacobians);
            self.repair_step()?;
            self.phase = Phase::Repaired;
            return Ok(Told::Pending);
        }
        let exact = self.exact();
        for (j, &o) in self.repair.active.iter().enumerate() {
            let x = self.pop.points.column(o);
            let x = x.as_slice().expect("column-major population");
            if exact {
                // The Jacobians are wanted at the offspring themselves.
                self.repair.probes[j * n..(j + 1) * n].copy_from_slice(x);
                continue;
            }
            let probes = ArrayViewMut2::from_shape(
                (n, n).f(),
                &mut self.repair.probes[j * n * n..(j + 1) * n * n],
            )
            .expect("probe buffer sized");
            self.components.repair.probe_points(x, probes);
        }
        self.phase = Phase::Probes;
        Ok(Told::Pending)
    }

    /// SASS's repair of the best-so-far ([`Repair::repairs_best`]): in a generation
    /// with repairs, an infeasible best-so-far (dimension 20 and more, equalities)
    /// takes the place of the offspring with the largest violation, values included (no
    /// evaluation), and is repaired with the chosen ones. Its point differs from the
    /// offspring's candidate, so back-calculation treats it as a repaired offspring.
    fn inject_best(&mut self) -> Option<usize> {
        let best = &self.progress.best;
        if !self.components.repair.repairs_best()
            || self.repair.chosen.is_empty()
            || self.params.dim < 20
            || self.shape.equalities == 0
            || best.snapshot.fitness.violation.is_nan()
            || best.snapshot.fitness.violation <= 0.0
        {
            return None;
        }
        let o = (0..self.pop.violations.len())
            .max_by(|&a, &b| self.pop.violations[a].total_cmp(&self.pop.violations[b]))?;
        self.pop
            .points
            .column_mut(o)
            .assign(&ndarray::ArrayView1::from(&best.y[..]));
        self.pop
            .constraints
            .column_mut(o)
            .assign(&ndarray::ArrayView1::from(&best.constraints[..]));
        self.pop.objectives[o] = best.snapshot.fitness.objective;
        self.pop.violations[o] = best.snapshot.fitness.violation;
        let candidate = self.pop.candidates.column(o);
        if best.y.iter().zip(candidate).any(|(a, b)| a != b) {
            self.pop.changed[o] = true;
        }
        if let Err(at) = self.repair.chosen.binary_search(&o) {
            self.repair.chosen.insert(at, o);
        }
        Some(o)
    }

    /// The repaired points from the probes' values, reflected into the box.
    fn repair_step(&mut self) -> Result<(), MaEsError> {
        let (n, k) = (self.params.dim, self.shape.num_constraints());
        let exact = self.exact();
        for (j, &o) in self.repair.active.iter().enumerate() {
            let values = ArrayView2::from_shape(
                (k, n).f(),
                &self.repair.probe_constraints[j * k * n..(j + 1) * k * n],
            )
            .expect("probe buffer sized");
            let derivatives = if exact {
                Derivatives::Jacobian(values)
            } else {
                Derivatives::Probes(values)
            };
            let repaired = &mut self.repair.points[j * n..(j + 1) * n];
            self.components.repair.step(
                &self.shape,
                self.pop
                    .points
                    .column(o)
                    .as_slice()
                    .expect("column-major population"),
                self.pop
                    .constraints
                    .column(o)
                    .as_slice()
                    .expect("column-major constraints"),
                derivatives,
                repaired,
            )?;
            keep_range(repaired, &self.shape.lower, &self.shape.upper)?;
        }
        Ok(())
    }

    /// The repaired points and their values replace the offspring's; each step is
    /// charged.
    fn take_repaired(&mut self) {
        let (n, k) = (self.params.dim, self.shape.num_constraints());
        let cost = self
            .components
            .repair
            .cost(n, self.shape.jacobian, self.repair.step);
        for (j, &o) in self.repair.active.iter().enumerate() {
            let repaired = &self.repair.points[j * n..(j + 1) * n];
            let mut point = self.pop.points.column_mut(o);
            let point = point.as_slice_mut().expect("column-major population");
            point.copy_from_slice(repaired);
            self.pop.objectives[o] = self.repair.objectives[j];
            let mut c = self.pop.constraints.column_mut(o);
            let c = c.as_slice_mut().expect("column-major constraints");
            c.copy_from_slice(&self.repair.constraints[j * k..(j + 1) * k]);
            self.pop.violations[o] = self.shape.mean_violation(c);
            self.progress.evaluations += cost;
            let candidate = self.pop.candidates.column(o);
            if point.iter().zip(candidate).any(|(a, b)| a != b) {
                self.pop.changed[o] = true;
            }
        }
    }

    fn rank(&mut self) -> Result<(), MaEsError> {
        let objectives = self
            .pop
            .objectives
            .as_slice()
            .expect("contiguous objectives");
        let constraints = ConstraintValues {
            values: self.pop.constraints.view(),
            inequalities: self.shape.inequalities,
            equality_margin: self.shape.equality_margin,
        };
        self.components.ranking.rank_constrained(
            self.dist.epsilon,
            objectives,
            &self.pop.violations,
            &constraints,
            &mut self.pop.ranking,
        )?;
        Ok(())
    }

    fn set_best(&mut self, k: usize) {
        self.progress
            .best
            .y
            .iter_mut()
            .zip(self.pop.points.column(k))
            .for_each(|(a, &b)| *a = b);
        self.progress
            .best
            .constraints
            .iter_mut()
            .zip(self.pop.constraints.column(k))
            .for_each(|(a, &b)| *a = b);
        let snapshot = Snapshot::new(self.pop.objectives[k], self.pop.violations[k])
            .with_counts(
                self.shape
                    .constraint_counts(&self.progress.best.constraints),
            )
            .found_at(self.progress.evaluations);
        self.progress.best.snapshot = snapshot;
        self.progress.incumbent.replace(snapshot);
    }

    /// Draws the initial population into `points`.
    fn draw_initial(&mut self) -> Result<(), MaEsError> {
        let lb = &self.shape.lower;
        let ub = &self.shape.upper;
        let points = self
            .pop
            .points
            .as_slice_memory_order_mut()
            .expect("column-major population");
        if let Some(x0) = &self.params.initial_mean {
            // Around x0: y = x0 + σ0 z, reflected into the box.
            self.noise.fill_normal(points);
            let sigma0 = self.params.sigma0;
            for col in points.chunks_exact_mut(x0.len().max(1)) {
                for (y, &m) in col.iter_mut().zip(x0) {
                    *y = m + sigma0 * *y;
                }
                keep_range(col, lb, ub)?;
            }
        } else {
            self.noise.fill_uniform(points);
            for mut col in self.pop.points.columns_mut() {
                for ((y, &l), &u) in col.iter_mut().zip(lb).zip(ub) {
                    *y = l + (u - l) * *y;
                }
            }
        }
        Ok(())
    }

    /// After the initial population's evaluation: `ε0`, the ranking, the parent, the
    /// best-so-far.
    fn initialize(&mut self) -> Result<(), MaEsError> {
        let objectives = self
            .pop
            .objectives
            .as_slice()
            .expect("contiguous objectives");
        self.dist.epsilon = self
            .components
            .schedule
            .initialize(objectives, &self.pop.violations)?;
        self.rank()?;
        // The plain (unweighted) mean of the μ first.
        self.dist.parent.fill(0.0);
        for &k in &self.pop.ranking[..self.params.mu] {
            Zip::from(&mut self.dist.parent)
                .and(self.pop.points.column(k))
                .for_each(|p, &y| *p += y);
        }
        let mu = self.params.mu as f64;
        self.dist.parent.mapv_inplace(|p| p / mu);
        self.set_best(self.pop.ranking[0]);
        self.progress.epsilon0 = self.dist.epsilon;
        Ok(())
    }

    /// Steps 1–2: sample, transform, reflect.
    fn sample(&mut self) -> Result<(), MaEsError> {
        self.noise.fill_normal(
            self.pop
                .z
                .as_slice_memory_order_mut()
                .expect("column-major Z"),
        );
        gemm(
            1.0,
            &self.dist.m.view(),
            &self.pop.z.view(),
            0.0,
            &mut self.pop.d.view_mut(),
        );
        let sigma = self.dist.sigma;
        let lb = &self.shape.lower;
        let ub = &self.shape.upper;
        let n = lb.len();
        let parent = self.dist.parent.as_slice().expect("contiguous parent");
        let candidates = self
            .pop
            .candidates
            .as_slice_memory_order_mut()
            .expect("column-major candidates");
        let points = self
            .pop
            .points
            .as_slice_memory_order_mut()
            .expect("column-major population");
        let d = self.pop.d.as_slice_memory_order().expect("column-major D");
        // Column by column on slices (ndarray's Zip per column cost more than the
        // arithmetic at N = 10).
        for (k, ((cand, point), dk)) in candidates
            .chunks_exact_mut(n)
            .zip(points.chunks_exact_mut(n))
            .zip(d.chunks_exact(n))
            .enumerate()
        {
            for (((c, p), &y), &di) in cand.iter_mut().zip(point.iter_mut()).zip(parent).zip(dk) {
                *c = y + sigma * di;
                *p = *c;
            }
            self.pop.changed[k] = keep_range(point, lb, ub)?;
        }
        Ok(())
    }

    /// Steps 4–14 once the offspring are evaluated and repaired.
    fn complete_generation(&mut self) -> Result<Option<Termination>, MaEsError> {
        self.select_and_adapt()?;
        self.update_best();
        // Step 11: stop after this generation (steps 12–14 still happen).
        let stop = if self.progress.evaluations >= self.limits.budget {
            Some(Termination::Budget)
        } else if self.progress.generation >= self.limits.max_generations {
            Some(Termination::GenerationLimit)
        } else {
            None
        };
        if self.progress.termination.is_none() {
            self.progress.termination = stop;
        }
        self.progress.generation += 1;
        self.dist.epsilon = self.components.schedule.epsilon(self.progress.generation);
        Ok(stop)
    }

    /// Steps 4–9: rank, select, back-calculate, recombine, adapt.
    fn select_and_adapt(&mut self) -> Result<(), MaEsError> {
        self.rank()?;
        let n = self.pop.z.nrows();
        let sel = self
            .sel
            .get_or_insert_with(|| Selection::new(n, self.params.mu));
        for (m, &k) in self.pop.ranking[..self.params.mu].iter().enumerate() {
            for (to, from) in [
                (&mut sel.z, &self.pop.z),
                (&mut sel.d, &self.pop.d),
                (&mut sel.points, &self.pop.points),
            ] {
                let from = from
                    .as_slice_memory_order()
                    .expect("column-major population");
                to.as_slice_memory_order_mut()
                    .expect("column-major selection")[m * n..(m + 1) * n]
                    .copy_from_slice(&from[k * n..(k + 1) * n]);
            }
            sel.changed[m] = self.pop.changed[k];
        }
        self.components.back_calculation.back_calculate(Selected {
            m: self.dist.m.view(),
            parent: self.dist.parent.view(),
            sigma: self.dist.sigma,
            points: sel.points.view(),
            changed: &sel.changed,
            d: sel.d.view_mut(),
            z: sel.z.view_mut(),
        })?;
        let p = &self.params;
        general_mat_vec_mul(1.0, &sel.z, &self.weights, 0.0, &mut sel.z_w);
        general_mat_vec_mul(1.0, &sel.d, &self.weights, 0.0, &mut sel.d_w);
        let sigma = self.dist.sigma;
        Zip::from(&mut self.dist.parent)
            .and(&sel.d_w)
            .for_each(|y, &d| *y += sigma * d);
        let cs = p.c_sigma;
        let path_factor = (cs * (2.0 - cs) * p.mu_eff).sqrt();
        Zip::from(&mut self.dist.p_sigma)
            .and(&sel.z_w)
            .for_each(|ps, &zw| *ps = (1.0 - cs) * *ps + path_factor * zw);
        let reset = self.components.adaptation.adapt(
            self.dist.m.view_mut(),
            self.dist.p_sigma.view_mut(),
            crate::adaptation::UpdateInput {
                d: sel.d.view(),
                z: sel.z.view(),
                weights: self.weights.as_slice().expect("contiguous weights"),
                c1: p.c1,
                c_mu: p.c_mu,
            },
        );
        self.progress.resets += usize::from(reset);
        let sigma = self
            .components
            .step_size
            .update(&crate::step_size::StepSizeContext {
                sigma: self.dist.sigma,
                p_sigma: self.dist.p_sigma.view(),
                c_sigma: cs,
                generation: self.progress.generation,
                epsilon: self.dist.epsilon,
                objectives: self
                    .pop
                    .objectives
                    .as_slice()
                    .expect("contiguous objectives"),
                violations: &self.pop.violations,
                ranking: &self.pop.ranking,
            });
        self.dist.sigma = self.components.sigma_cap.apply(sigma);
        Ok(())
    }

    /// Step 10: the lexicographic best-so-far update with the first-ranked offspring
    /// (or the one the ranking names instead).
    fn update_best(&mut self) {
        let c = self.components.ranking.best_so_far_candidate(
            self.pop
                .objectives
                .as_slice()
                .expect("contiguous objectives"),
            &self.pop.violations,
            &self.pop.ranking,
        );
        let candidate = Fitness::new(self.pop.objectives[c], self.pop.violations[c]);
        if self.progress.incumbent.improves(&candidate) {
            self.set_best(c);
        }
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
    pub fn best(&self) -> &BestSoFar {
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
        }
    }
}

/// Whether an offspring of mean violation `v` gets another repair step: it is
/// infeasible (a NaN `ν̄` is not repaired).
fn needs_repair(v: f64) -> bool {
    !v.is_nan() && v > 0.0
}

/// Evaluates `request` with `problem` into `f`, `c`, in the reference's grouping (see
/// [`Strategy::step`]).
fn evaluate<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    n: usize,
    slots: Slots<'_>,
) -> Result<bool, MaEsError> {
    let Slots {
        request,
        objectives: mut f,
        constraints: mut c,
        jacobians,
    } = slots;
    match request.kind {
        RequestKind::Population => {
            problem.evaluate_batch(request.points, f, c)?;
        }
        RequestKind::JacobianProbes => {
            for j in 0..request.points.ncols() / n.max(1) {
                let cols = ndarray::s![.., j * n..(j + 1) * n];
                problem.evaluate_constraints_batch(
                    request.points.slice(cols),
                    f.slice_mut(ndarray::s![j * n..(j + 1) * n]),
                    c.slice_mut(cols),
                )?;
            }
        }
        RequestKind::Jacobians => {
            let jacobian = offered_jacobian(problem)?;
            for (j, x) in request.points.columns().into_iter().enumerate() {
                jacobian.evaluate_jacobian(
                    x.as_slice().expect("column-major request"),
                    None,
                    c.slice_mut(ndarray::s![.., j * n..(j + 1) * n]),
                )?;
            }
        }
        RequestKind::Repaired => {
            // Where the problem computes f, C and ∂C/∂x in one pass, ask for all three
            // at once: the next repair step needs no call of its own then.
            if let (Some(mut jac), Some(source)) = (jacobians, problem.constraint_jacobian()) {
                let mut together = true;
                for (j, x) in request.points.columns().into_iter().enumerate() {
                    let x = x.as_slice().expect("column-major request");
                    let mut cj = c.column_mut(j);
                    let cj = cj.as_slice_mut().expect("column-major values");
                    let jj = jac.slice_mut(ndarray::s![.., j * n..(j + 1) * n]);
                    f[j] = match source.evaluate_with_jacobian(x, cj, jj) {
                        Some(value) => value?,
                        None => {
                            together = false;
                            problem.evaluate(x, cj)?
                        }
                    };
                }
                return Ok(together);
            }
            for (j, x) in request.points.columns().into_iter().enumerate() {
                let mut cj = c.column_mut(j);
                f[j] = problem.evaluate(
                    x.as_slice().expect("column-major request"),
                    cj.as_slice_mut().expect("column-major values"),
                )?;
            }
        }
    }
    Ok(false)
}

/// The problem's constraint Jacobian, which a run with exact Jacobians asks for.
fn offered_jacobian<P: ConstrainedProblem + ?Sized>(
    problem: &P,
) -> Result<&dyn ConstraintJacobian, MaEsError> {
    problem.constraint_jacobian().ok_or_else(|| {
        MaEsError::Protocol(
            "the run asks for exact Jacobians, but the problem offers none (ConstrainedProblem::constraint_jacobian)".into(),
        )
    })
}
