//! The portfolio of the fourth design round (issue 55): the SQP local phase
//! ([`local_phase::sqp`]) and the ε-level ES in rounds, by ask and tell, within a budget
//! that only cuts.
//!
//! Round `r = 0, 1, …` has an ES budget `b_r = b₀ · 2ʳ` (`b₀ =` [`PortfolioSettings::es_budget_per_dim`]` · N`)
//! and a share `w_r` of it for the local phase:
//!
//! 1. **restarts**: the local phase from a start (round 0: the box's centre; later: a
//!    point drawn uniformly in the box), each run to its own end, restarted from a new
//!    uniform point until the round's restarts have spent `⌈w_r · b_r⌉` evaluations (at
//!    least one run);
//! 2. **the ES**: a run of [`PortfolioSettings::es`] (εMAg-ES-R) with its own budget
//!    `b_r`, to the end (its BIPOP restarts within, no convergence criteria);
//! 3. **polish**: the local phase from the ES run's best point.
//!
//! The share follows progress ("the budget moves towards whichever progresses"):
//! `w₀ =` [`PortfolioSettings::initial_share`]; after a round whose ES and polish improved the best
//! point found by its restarts ([`clearly_better`]), `w_{r+1} = 0` (one start of the
//! local phase); after one whose ES did not while its restarts improved the best point
//! of the rounds before, `w_{r+1} = min(max(2 w_r, w₀),` [`PortfolioSettings::max_share`]`)`;
//! otherwise `w_{r+1} = w_r`.
//!
//! **Stopping.** With [`PortfolioSettings::confirmations`]` = c > 0` (5 by default) the run
//! stops once `c` runs of the local phase in a row have ended at the best point (`ν̄` at
//! most `10⁻¹⁰` above the best point's, `f` within `10⁻⁸ · max(1, |f|)`), a run that
//! ended elsewhere not breaking the series; the studies run [`PortfolioSettings::to_the_end`].
//!
//! **The budget is a cap, not a schedule.** Nothing here knows the budget: the run asks
//! for the same points whatever it is, and whoever evaluates them stops at the first
//! batch that does not fit into what is left ([`Portfolio::run`] does). The ES runs'
//! seeds and the starts follow from the seed alone.
//!
//! **Derivatives.** For a black box ([`JacobianSource::Differences`]) the local phase
//! and the ES's repair take forward differences: every point asked for wants `f` and
//! `C`, one evaluation each. A shape with [`JacobianSource::Exact`] (a problem that
//! offers its constraint Jacobian) gives the exact Jacobians to the ES's repair: it
//! asks for them ([`RequestKind::Jacobians`], charged as [`Request::evaluations`]
//! says, the CEC2020 rule) where it would probe `N` points. The local phase stays on
//! forward differences even then: `∇f` needs its `N` probes anyway, and they give `J`
//! with it, while an exact `J` at the iterate would be one more evaluation per step.
//!
//! ```
//! use constraint_handling::FnProblem;
//! use ma_es::portfolio::{Portfolio, PortfolioSettings};
//!
//! // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 on [−5, 5]²: the optimum is ½ at (½, ½).
//! let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
//!     c[0] = 1.0 - x[0] - x[1];
//!     Ok(x[0] * x[0] + x[1] * x[1])
//! })?;
//! let mut run = Portfolio::for_problem(&problem, PortfolioSettings::default(), 7)?;
//! let best = run.run(&problem, 2_000)?;
//! // Strictly feasible: the local phase backs off from g = 0 by ~10⁻⁹.
//! assert!(best.fitness.violation == 0.0 && (best.fitness.objective - 0.5).abs() < 1e-8);
//! // It stopped by itself: five runs of the local phase in a row ended there.
//! assert!(run.stopped() && run.evaluations() < 1_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::ask_tell::AskTell;
use crate::error::MaEsError;
use crate::noise::RngNoise;
use crate::plan::Options;
use crate::request::{Request, RequestKind, Told};
use crate::spec::ComponentSpec;
use constraint_handling::ordering::{improves_best_so_far, improves_best_so_far_nan_last};
use constraint_handling::problem::{JacobianSource, ProblemShape};
use constraint_handling::{ConstrainedProblem, Fitness};
use local_phase::sqp::{Sqp, SqpError, SqpSettings};
use local_phase::starts::{centre, uniform_in_box};
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// Whether `candidate` replaces `best` in the portfolio's record:
/// [`improves_best_so_far`], or with `nan_last` [`improves_best_so_far_nan_last`]
/// ([`PortfolioSettings::nan_last`]).
fn improves_record(candidate: &Fitness, best: &Fitness, nan_last: bool) -> bool {
    if nan_last {
        improves_best_so_far_nan_last(candidate, best)
    } else {
        improves_best_so_far(candidate, best)
    }
}

/// What a [`Portfolio`] is made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PortfolioSettings {
    /// The local phase's settings.
    pub sqp: SqpSettings,
    /// The ES of each round (εMAg-ES-R).
    pub es: ComponentSpec,
    /// `b₀ / N`, the first round's ES budget per dimension (2 000).
    pub es_budget_per_dim: usize,
    /// `w₀`, the local phase's first share (¼: with `b₀ = 2 000 · N`, the first
    /// round's restarts take `500 · N` evaluations).
    pub initial_share: f64,
    /// The largest share (½).
    pub max_share: f64,
    /// Stop once this many runs of the local phase in a row have ended at the best
    /// point ([`Portfolio::confirmations`]); 0: never stop, run to the budget (the
    /// studies' protocol, [`PortfolioSettings::to_the_end`]). 5 by default.
    pub confirmations: usize,
    /// Whether a point whose violation is a number replaces a best-so-far whose
    /// violation is NaN (on by default). Off, the reference's rule alone
    /// ([`improves_best_so_far`]: `NaN < ν̄` is false) keeps a NaN first point to the
    /// end: the frozen `portfolio-share0` ran so, and did so on all ten CEC2020
    /// power-system problems, RC34–RC43, whose constraints are NaN at the box centre
    /// (docs/strategy-design.md, section 28). A best can only be NaN if the first point
    /// was, so no other run depends on this setting.
    pub nan_last: bool,
    /// `σ0` of each round's ES run (its [`Config::sigma0`](crate::Config); `None`: the
    /// ES's default, 1). The runs start uniformly in the box, as the reference does.
    pub sigma0: Option<f64>,
    /// Stop once the best point is feasible with `f ≤ target` (pycma's `ftarget`,
    /// the ES's [`Convergence::target`](crate::control::Convergence)); `None`, the
    /// default: no target.
    pub target: Option<f64>,
    /// Whether a run of the local phase ends once it has spent the round's ES budget
    /// `b_r` (off by default; a saved run without the field reads as off). Off, a run
    /// of the local phase goes on to its own end, which on a long crawl is never: on
    /// CEC2017 C11, C16 and C25 at N = 50 the first run from the box's centre takes the
    /// whole budget of 10⁶ evaluations and the ES never starts
    /// (docs/strategy-design.md §34). A run ended so confirms nothing
    /// ([`Portfolio::confirmations`]); the round goes on as after a run that ended by
    /// itself. The bound depends on the round alone, not on the run's budget.
    pub bound_local_runs: bool,
}

impl PortfolioSettings {
    /// These settings without the stopping rule: the run goes on until the budget is
    /// spent (as the studies run it).
    #[must_use]
    pub fn to_the_end(self) -> Self {
        Self {
            confirmations: 0,
            ..self
        }
    }
}

impl Default for PortfolioSettings {
    fn default() -> Self {
        Self {
            sqp: SqpSettings::default(),
            es: ComponentSpec::recommended(),
            es_budget_per_dim: 2000,
            initial_share: 0.25,
            max_share: 0.5,
            confirmations: 5,
            nan_last: true,
            sigma0: None,
            target: None,
            bound_local_runs: false,
        }
    }
}

/// Whether `after` improves on `before` by more than rounding: a lower `ν̄` where
/// `before` was infeasible (by a factor `1 − 10⁻⁸`), or, both feasible, `f` lower by
/// `10⁻⁸ · max(1, |f|)`; anything improves on nothing.
///
/// ```
/// use constraint_handling::Fitness;
/// use ma_es::portfolio::clearly_better;
/// let best = Some(Fitness::new(1.0, 0.0));
/// assert!(clearly_better(Some(Fitness::new(0.9, 0.0)), best));
/// assert!(!clearly_better(Some(Fitness::new(1.0 - 1e-12, 0.0)), best));
/// assert!(!clearly_better(Some(Fitness::new(-5.0, 0.1)), best));
/// assert!(clearly_better(best, None));
/// ```
#[must_use]
pub fn clearly_better(after: Option<Fitness>, before: Option<Fitness>) -> bool {
    match (after, before) {
        (Some(a), Some(b)) => {
            if b.violation > 0.0 {
                a.violation < b.violation * (1.0 - 1e-8)
            } else {
                a.violation == 0.0 && a.objective < b.objective - 1e-8 * b.objective.abs().max(1.0)
            }
        }
        (Some(_), None) => true,
        _ => false,
    }
}

/// The seed of round `r`'s ES run (SplitMix64 of the run's seed and `r`).
#[must_use]
pub fn round_seed(seed: u64, r: u64) -> u64 {
    let mut z = seed ^ r.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The best point evaluated so far, by the best-so-far order on `(ν̄, f)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PortfolioBest {
    /// The point.
    pub x: Vec<f64>,
    /// `(f, ν̄)` there, `ν̄` with the problem's margin.
    pub fitness: Fitness,
    /// `C = (g, h)` there.
    pub constraints: Vec<f64>,
    /// The evaluation (1-based) that found it.
    pub found_at: usize,
}

/// A portfolio run's state after an iteration (a tell of the local phase, a
/// generation of an ES round): one row of its history.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PortfolioStep {
    /// Iterations so far ([`Portfolio::iterations`]).
    pub iteration: usize,
    /// Evaluations so far, Jacobians' charges included ([`Portfolio::evaluations`]).
    pub evaluations: usize,
    /// The best point's `f` (NaN before the first tell).
    pub objective: f64,
    /// The best point's `ν̄` (NaN before the first tell).
    pub violation: f64,
    /// The current phase's step size ([`Portfolio::step_size`]): the local phase's
    /// step bound `Δ`, or the ES's `σ`.
    pub step_size: f64,
    /// The ES round's ε level; NaN in the local phase, which has none.
    pub epsilon: f64,
    /// Whether the run is in the local phase (its restarts or the round's polish).
    pub local: bool,
}

/// What a round is doing.
#[derive(Serialize, Deserialize)]
enum Phase {
    /// Step 1: the local phase's restarts since evaluation `first`.
    Restarts {
        sqp: Box<Sqp>,
        first: usize,
        allowance: usize,
    },
    /// Step 2.
    Es { es: Box<AskTell<RngNoise>> },
    /// Step 3.
    Polish { sqp: Box<Sqp> },
}

/// A portfolio run in progress, by ask and tell (see the [module](self) documentation).
/// Its state serialises with serde: a run saved between a tell and the next ask
/// continues bit for bit.
#[derive(Serialize, Deserialize)]
pub struct Portfolio {
    /// The problem's shape, as a black box.
    shape: ProblemShape,
    settings: PortfolioSettings,
    seed: u64,
    rng: Xoshiro256PlusPlus,
    round: u32,
    share: f64,
    /// The next restart's start.
    start: Vec<f64>,
    phase: Phase,
    /// The best point's fitness before the round, and after its restarts.
    before: Option<Fitness>,
    after_restarts: Option<Fitness>,
    best: Option<PortfolioBest>,
    evaluations: usize,
    iterations: usize,
    /// The number of points of the request being evaluated (0: none).
    asked: usize,
    /// What that request is, and the evaluations it is charged.
    #[serde(default = "population")]
    asked_kind: RequestKind,
    #[serde(default)]
    asked_charge: usize,
    /// The evaluations charged for Jacobians (a part of `evaluations`).
    #[serde(default)]
    jacobian_evaluations: usize,
    /// The best point's fitness when the current run of the local phase started.
    before_local: Option<Fitness>,
    /// Runs of the local phase in a row that ended at the best point.
    confirmed: usize,
    /// The evaluation at which the current run of the local phase started.
    #[serde(default)]
    local_started: usize,
}

impl Portfolio {
    /// A run for a problem of this shape (taken as a black box), seeded with `seed`.
    ///
    /// # Errors
    /// [`MaEsError::Portfolio`] for settings that cannot run (a zero ES budget, shares
    /// outside `[0, 1]`) and for a shape the local phase refuses.
    pub fn new(
        shape: ProblemShape,
        settings: PortfolioSettings,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        if settings.es_budget_per_dim == 0 {
            return Err(MaEsError::Portfolio(
                "es_budget_per_dim must be positive".into(),
            ));
        }
        if let Some(sigma0) = settings.sigma0 {
            if !(sigma0.is_finite() && sigma0 > 0.0) {
                return Err(MaEsError::Portfolio(format!(
                    "sigma0 must be a finite positive number, not {sigma0}"
                )));
            }
        }
        if let Some(target) = settings.target {
            if target.is_nan() {
                return Err(MaEsError::Portfolio(
                    "target must be a number, not NaN".into(),
                ));
            }
        }
        for (name, w) in [
            ("initial_share", settings.initial_share),
            ("max_share", settings.max_share),
        ] {
            if !(0.0..=1.0).contains(&w) {
                return Err(MaEsError::Portfolio(format!(
                    "{name} must be in [0, 1], not {w}"
                )));
            }
        }
        let start = centre(&shape.lower, &shape.upper);
        let sqp = Self::local_phase(&shape, &start, &settings.sqp)?;
        Ok(Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            share: settings.initial_share,
            phase: Phase::Restarts {
                sqp,
                first: 0,
                allowance: Self::allowance(settings.initial_share, &settings, shape.dim(), 0),
            },
            shape,
            settings,
            seed,
            round: 0,
            start,
            before: None,
            after_restarts: None,
            best: None,
            evaluations: 0,
            iterations: 0,
            asked: 0,
            asked_kind: RequestKind::Population,
            asked_charge: 0,
            jacobian_evaluations: 0,
            before_local: None,
            confirmed: 0,
            local_started: 0,
        })
    }

    /// The run with its first start at `x0` (clipped into the box) instead of the box's
    /// centre; the later starts are as before.
    ///
    /// # Errors
    /// [`MaEsError::Portfolio`] for an `x0` of the wrong length or not finite, or after
    /// the first ask.
    pub fn with_start(mut self, x0: &[f64]) -> Result<Self, MaEsError> {
        if self.evaluations > 0 || self.asked > 0 {
            return Err(MaEsError::Portfolio(
                "the start is set before the first ask".into(),
            ));
        }
        if x0.len() != self.shape.dim() || !x0.iter().all(|v| v.is_finite()) {
            return Err(MaEsError::Portfolio(format!(
                "the start must be {} finite numbers, not {x0:?}",
                self.shape.dim()
            )));
        }
        let start: Vec<f64> = x0
            .iter()
            .zip(self.shape.lower.iter().zip(&self.shape.upper))
            .map(|(&x, (&l, &u))| x.clamp(l, u))
            .collect();
        let sqp = Self::local_phase(&self.shape, &start, &self.settings.sqp)?;
        if let Phase::Restarts { sqp: first, .. } = &mut self.phase {
            *first = sqp;
        }
        Ok(self)
    }

    /// [`Portfolio::new`] with the problem's shape.
    ///
    /// # Errors
    /// As [`Portfolio::new`]; a problem whose shape is inconsistent.
    pub fn for_problem<P: ConstrainedProblem + ?Sized>(
        problem: &P,
        settings: PortfolioSettings,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        Self::new(ProblemShape::of(problem)?, settings, seed)
    }

    fn local_phase(
        shape: &ProblemShape,
        start: &[f64],
        settings: &SqpSettings,
    ) -> Result<Box<Sqp>, MaEsError> {
        Sqp::new(shape.clone(), start, settings.clone())
            .map(Box::new)
            .map_err(local_phase_error)
    }

    /// Round `r`'s ES budget `b₀ · 2ʳ`.
    fn es_budget(settings: &PortfolioSettings, dim: usize, r: u32) -> usize {
        settings
            .es_budget_per_dim
            .saturating_mul(dim)
            .saturating_mul(1usize << r.min(40))
    }

    /// `⌈w · b_r⌉`.
    fn allowance(w: f64, settings: &PortfolioSettings, dim: usize, r: u32) -> usize {
        (w * Self::es_budget(settings, dim, r) as f64).ceil() as usize
    }

    /// Counts a finished run of the local phase: one that ended at the best point (`ν̄`
    /// at most `10⁻¹⁰` above the best's, `f` within `10⁻⁸ · max(1, |f|)`) confirms it — the first confirmation
    /// if the run found a new best point, one more otherwise; a run that ended
    /// elsewhere changes nothing. Gives the count.
    fn confirm(
        confirmed: &mut usize,
        sqp: &Sqp,
        best: Option<Fitness>,
        before: Option<Fitness>,
    ) -> usize {
        let (Some(end), Some(best)) = (sqp.best(), best) else {
            return *confirmed;
        };
        let tolerance = 1e-8 * best.objective.abs().max(1.0);
        if end.violation <= best.violation + 1e-10 && (end.f - best.objective).abs() <= tolerance {
            *confirmed = if clearly_better(Some(best), before) {
                1
            } else {
                *confirmed + 1
            };
        }
        *confirmed
    }

    /// Whether the run stopped by itself: [`PortfolioSettings::confirmations`] runs of
    /// the local phase in a row ended at the best point, or the best point reached
    /// [`PortfolioSettings::target`].
    #[must_use]
    pub fn stopped(&self) -> bool {
        (self.settings.confirmations > 0 && self.confirmed >= self.settings.confirmations)
            || self.reached_target()
    }

    /// Whether the best point is feasible with `f ≤` [`PortfolioSettings::target`].
    #[must_use]
    pub fn reached_target(&self) -> bool {
        match (self.settings.target, &self.best) {
            (Some(target), Some(best)) => {
                best.fitness.violation == 0.0 && best.fitness.objective <= target
            }
            _ => false,
        }
    }

    /// Runs of the local phase in a row that ended at the best point so far (see
    /// [`PortfolioSettings::confirmations`]).
    #[must_use]
    pub fn confirmations(&self) -> usize {
        self.confirmed
    }

    /// Moves on to the next step until the current one has points to ask for.
    fn advance(&mut self) -> Result<(), MaEsError> {
        loop {
            let best = self.best.as_ref().map(|b| b.fitness);
            // The current run of the local phase has spent the round's ES budget.
            let cut = self.settings.bound_local_runs
                && self.evaluations - self.local_started
                    >= Self::es_budget(&self.settings, self.shape.dim(), self.round);
            match &mut self.phase {
                Phase::Restarts {
                    sqp,
                    first,
                    allowance,
                } => {
                    if !cut && sqp.ask().is_some() {
                        return Ok(());
                    }
                    let confirmations = self.settings.confirmations;
                    if !cut
                        && Self::confirm(&mut self.confirmed, sqp, best, self.before_local)
                            >= confirmations
                        && confirmations > 0
                    {
                        return Ok(());
                    }
                    let (lower, upper) = (&self.shape.lower, &self.shape.upper);
                    uniform_in_box(lower, upper, &mut self.rng, &mut self.start);
                    if self.evaluations - *first < *allowance {
                        *sqp = Self::local_phase(&self.shape, &self.start, &self.settings.sqp)?;
                        self.before_local = best;
                        self.local_started = self.evaluations;
                        continue;
                    }
                    self.after_restarts = best;
                    let mut options = Options::new(self.settings.es)
                        .budget(Self::es_budget(
                            &self.settings,
                            self.shape.dim(),
                            self.round,
                        ))
                        .seed(round_seed(self.seed, u64::from(self.round)))
                        .to_the_end();
                    if let Some(sigma0) = self.settings.sigma0 {
                        let config = crate::Config {
                            sigma0,
                            ..options.constants().clone()
                        };
                        options = options.config(config);
                    }
                    let es = options.build(&self.shape)?.ask_tell()?;
                    self.phase = Phase::Es { es: Box::new(es) };
                }
                Phase::Es { es } => {
                    if es.pending().is_some() || es.ask()?.is_some() {
                        return Ok(());
                    }
                    let sqp =
                        Self::local_phase(&self.shape, &es.result().best.y, &self.settings.sqp)?;
                    self.before_local = best;
                    self.local_started = self.evaluations;
                    self.phase = Phase::Polish { sqp };
                }
                Phase::Polish { sqp } => {
                    if !cut && sqp.ask().is_some() {
                        return Ok(());
                    }
                    if !cut
                        && Self::confirm(&mut self.confirmed, sqp, best, self.before_local)
                            >= self.settings.confirmations
                        && self.settings.confirmations > 0
                    {
                        return Ok(());
                    }
                    // The round is over: the share follows progress.
                    let es_progressed = clearly_better(best, self.after_restarts);
                    let restarts_progressed = clearly_better(self.after_restarts, self.before);
                    if es_progressed {
                        self.share = 0.0;
                    } else if restarts_progressed {
                        self.share = (2.0 * self.share)
                            .max(self.settings.initial_share)
                            .min(self.settings.max_share);
                    }
                    self.round += 1;
                    self.before = best;
                    let allowance =
                        Self::allowance(self.share, &self.settings, self.shape.dim(), self.round);
                    let sqp = Self::local_phase(&self.shape, &self.start, &self.settings.sqp)?;
                    self.before_local = best;
                    self.local_started = self.evaluations;
                    self.phase = Phase::Restarts {
                        sqp,
                        first: self.evaluations,
                        allowance,
                    };
                }
            }
        }
    }

    /// The next request: its points, one per column (`N × k`), and what is wanted
    /// there — `f` and `C` ([`RequestKind::Population`], [`RequestKind::Repaired`], and
    /// [`RequestKind::JacobianProbes`], whose `f` counts for the record too), or, for a
    /// shape with exact Jacobians, the constraint Jacobians of the ES's repair
    /// ([`RequestKind::Jacobians`]). `None` once the run stopped by itself
    /// ([`Portfolio::stopped`]). Asking again before telling gives the same request.
    ///
    /// # Errors
    /// The ES's errors when a round sets it up.
    pub fn ask(&mut self) -> Result<Option<Request<'_>>, MaEsError> {
        if self.stopped() {
            return Ok(None);
        }
        self.advance()?;
        if self.stopped() {
            return Ok(None);
        }
        let (count, kind, charge) = self
            .current()
            .map(|r| (r.points.ncols(), r.kind, r.evaluations))
            .ok_or_else(|| MaEsError::Portfolio("a step with nothing to ask".into()))?;
        (self.asked, self.asked_kind, self.asked_charge) = (count, kind, charge);
        Ok(self.current())
    }

    /// The current step's request, if it has one.
    fn current(&self) -> Option<Request<'_>> {
        match &self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => {
                sqp.ask().map(|points| Request {
                    evaluations: points.ncols(),
                    points,
                    kind: RequestKind::Population,
                    jacobians: false,
                })
            }
            Phase::Es { es } => es.pending(),
        }
    }

    /// The evaluations the pending request is charged: one per point, but for the
    /// Jacobians of the ES's repair ([`Request::evaluations`]).
    fn charge(&self) -> usize {
        if self.asked_kind == RequestKind::Jacobians {
            self.asked_charge
        } else {
            self.asked
        }
    }

    /// Tells the values at the points of the last [`Portfolio::ask`]: `objectives[j]`
    /// and column `j` of `constraints` (`(l + m) × k`) are `f` and `C` at point `j`;
    /// for a [`RequestKind::Jacobians`] request, columns `jN .. (j+1)N` of
    /// `constraints` (`(l + m) × (N · k)`) are `∂C/∂x` at point `j`, and `objectives`
    /// may be empty.
    ///
    /// # Errors
    /// [`MaEsError::Portfolio`] without an ask or for values that do not fit; the
    /// phase's own errors.
    pub fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<(), MaEsError> {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if self.asked == 0 {
            return Err(MaEsError::Portfolio("a tell without an ask".into()));
        }
        let jacobians = self.asked_kind == RequestKind::Jacobians;
        let columns = if jacobians {
            n * self.asked
        } else {
            self.asked
        };
        let objectives_fit = objectives.len() == self.asked || (jacobians && objectives.is_empty());
        if !objectives_fit || constraints.dim() != (k, columns) {
            return Err(MaEsError::Portfolio(format!(
                "{} points asked for ({}), told {} objectives and a {}×{} constraint matrix (expected {k}×{columns})",
                self.asked,
                if jacobians { "their Jacobians" } else { "f and C" },
                objectives.len(),
                constraints.nrows(),
                constraints.ncols(),
            )));
        }
        // The best point among the asked ones, before the phase moves on (a Jacobian
        // brings no new point).
        let improved = if jacobians {
            None
        } else {
            self.best_of(objectives, constraints)?
        };
        match &mut self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => {
                sqp.tell(objectives, constraints)
                    .map_err(local_phase_error)?;
                self.iterations += 1;
            }
            Phase::Es { es } => {
                if matches!(es.tell(objectives, constraints)?, Told::Generation(_)) {
                    self.iterations += 1;
                }
            }
        }
        if improved.is_some() {
            self.best = improved;
        }
        self.evaluations += self.charge();
        if jacobians {
            self.jacobian_evaluations += self.asked_charge;
        }
        self.asked = 0;
        Ok(())
    }

    /// The point of the pending request that improves the record most, if one does.
    fn best_of(
        &self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Option<PortfolioBest>, MaEsError> {
        let points = self
            .current()
            .ok_or_else(|| MaEsError::Portfolio("a tell without an ask".into()))?
            .points;
        let mut improved = None;
        for (j, (&f, c)) in objectives.iter().zip(constraints.columns()).enumerate() {
            let fitness = match c.as_slice() {
                Some(c) => Fitness::new(f, self.shape.mean_violation(c)),
                None => Fitness::new(f, self.shape.mean_violation(&c.to_vec())),
            };
            let best = improved
                .as_ref()
                .map(|(_, b)| b)
                .or(self.best.as_ref().map(|b| &b.fitness));
            if best.is_none_or(|b| improves_record(&fitness, b, self.settings.nan_last)) {
                improved = Some((j, fitness));
            }
        }
        Ok(improved.map(|(j, fitness)| PortfolioBest {
            x: points.column(j).to_vec(),
            fitness,
            constraints: constraints.column(j).to_vec(),
            found_at: self.evaluations + j + 1,
        }))
    }

    /// Runs on `problem` until it stops by itself or the next request would take the
    /// evaluations past `budget`; gives the best point. The Jacobians of a shape with
    /// [`JacobianSource::Exact`] come from the problem's
    /// [`ConstrainedProblem::constraint_jacobian`].
    ///
    /// # Errors
    /// The problem's errors; a budget too small for the first batch
    /// ([`MaEsError::Portfolio`]); a shape with exact Jacobians for a problem that
    /// offers none.
    pub fn run<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        budget: usize,
    ) -> Result<PortfolioBest, MaEsError> {
        self.run_observed(problem, budget, |_| ControlFlow::Continue(()))
    }

    /// [`Portfolio::run`], calling `observe` after every tell that ends an iteration (a
    /// history, progress lines, a user's stop): the run is the same, whatever `observe`
    /// reads, up to the iteration after which it breaks; the run then ends there, with
    /// the best point so far (and can go on by ask and tell, or another `run`).
    ///
    /// # Errors
    /// As [`Portfolio::run`].
    pub fn run_observed<P: ConstrainedProblem + ?Sized>(
        &mut self,
        problem: &P,
        budget: usize,
        mut observe: impl FnMut(&Self) -> ControlFlow<()>,
    ) -> Result<PortfolioBest, MaEsError> {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        let exact = problem.constraint_jacobian();
        if self.shape.jacobian == JacobianSource::Exact && exact.is_none() {
            return Err(MaEsError::Portfolio(
                "the run takes exact Jacobians, and the problem offers none".into(),
            ));
        }
        let (mut objectives, mut constraints) = (Vec::new(), Vec::new());
        let shaped = |e: ndarray::ShapeError| MaEsError::Portfolio(e.to_string());
        loop {
            let done = self.evaluations;
            let Some(request) = self.ask()? else { break };
            let count = request.points.ncols();
            if done + request.evaluations > budget {
                break;
            }
            // The buffers grow to the largest batch once and are reused; a Jacobian
            // request fills `N` columns a point.
            let columns = if request.kind == RequestKind::Jacobians {
                let jacobian = exact.expect("checked above");
                objectives.clear();
                constraints.resize(k * n * count, 0.0);
                for (j, block) in constraints.chunks_exact_mut(k * n).enumerate() {
                    let block = ArrayViewMut2::from_shape((k, n).f(), block).map_err(shaped)?;
                    jacobian.evaluate_jacobian(request.point(j), None, block)?;
                }
                n * count
            } else {
                objectives.resize(count, 0.0);
                constraints.resize(k * count, 0.0);
                problem.evaluate_batch(
                    request.points,
                    ArrayViewMut1::from(&mut objectives[..]),
                    ArrayViewMut2::from_shape((k, count).f(), &mut constraints[..])
                        .map_err(shaped)?,
                )?;
                count
            };
            let view =
                ArrayView2::from_shape((k, columns).f(), &constraints[..]).map_err(shaped)?;
            let before = self.iterations;
            self.tell(&objectives, view)?;
            if self.iterations > before && observe(self).is_break() {
                break;
            }
        }
        self.best
            .clone()
            .ok_or_else(|| MaEsError::Portfolio("the budget allowed no evaluation".into()))
    }

    /// The best point so far.
    #[must_use]
    pub fn best(&self) -> Option<&PortfolioBest> {
        self.best.as_ref()
    }

    /// Evaluations told so far (with those charged for Jacobians).
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// The evaluations charged for the Jacobians of the ES's repair (0 for a black box).
    #[must_use]
    pub fn jacobian_evaluations(&self) -> usize {
        self.jacobian_evaluations
    }

    /// The problem's dimension `N`.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.shape.dim()
    }

    /// Iterations so far: the local phase's tells and the ES's generations.
    #[must_use]
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// The current round `r`.
    #[must_use]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The local phase's current share `w_r`.
    #[must_use]
    pub fn share(&self) -> f64 {
        self.share
    }

    /// The step size of the current phase: the local phase's step bound, or the ES's σ.
    #[must_use]
    pub fn step_size(&self) -> f64 {
        match &self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => sqp.step_bound(),
            Phase::Es { es } => es.report().sigma,
        }
    }

    /// The state after the last tell, as a row of the run's history.
    #[must_use]
    pub fn step(&self) -> PortfolioStep {
        let (objective, violation) = self.best.as_ref().map_or((f64::NAN, f64::NAN), |b| {
            (b.fitness.objective, b.fitness.violation)
        });
        let (epsilon, local) = match &self.phase {
            Phase::Restarts { .. } | Phase::Polish { .. } => (f64::NAN, true),
            Phase::Es { es } => (es.report().epsilon, false),
        };
        PortfolioStep {
            iteration: self.iterations,
            evaluations: self.evaluations,
            objective,
            violation,
            step_size: self.step_size(),
            epsilon,
            local,
        }
    }
}

fn population() -> RequestKind {
    RequestKind::Population
}

fn local_phase_error(e: SqpError) -> MaEsError {
    MaEsError::Portfolio(format!("local phase: {e}"))
}
