//! The portfolio run in progress, by ask and tell: [`Portfolio`].

use crate::error::Error;
use crate::portfolio::settings::{
    clearly_better, clearly_better_by, improves_record, round_seed, PortfolioSettings,
};
use constraint_handling::problem::ProblemShape;
use constraint_handling::{Fitness, Snapshot};
use emages_solver::{
    Best, Phase as Running, Request, RequestKind, Solver, SolverError, Status, Termination, Told,
};
use local_phase::sqp::{Sqp, SqpSettings};
use local_phase::starts::{centre, uniform_in_box};
use ma_es::ask_tell::AskTell;
use ma_es::noise::RngNoise;
use ma_es::Options as EsOptions;
use ndarray::ArrayView2;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

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

/// A portfolio run in progress, by ask and tell (see the [module](crate::portfolio) documentation).
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
    best: Option<Best>,
    evaluations: usize,
    iterations: usize,
    /// The number of points of the request being evaluated (0: none).
    asked: usize,
    /// What that request is, and the evaluations it is charged.
    #[serde(default = "population")]
    asked_kind: RequestKind,
    #[serde(default)]
    asked_charge: usize,
    /// The evaluations charged for derivatives (a part of `evaluations`).
    #[serde(default)]
    jacobian_evaluations: usize,
    /// The best point's fitness when the current run of the local phase started.
    before_local: Option<Fitness>,
    /// Runs of the local phase in a row that ended at the best point.
    confirmed: usize,
    /// The evaluation at which the current run of the local phase started.
    #[serde(default)]
    local_started: usize,
    /// The caller stopped the run.
    #[serde(default)]
    stopped_by_caller: bool,
    /// The last run of the local phase before an ES round, whose curvature model the
    /// round's polishing run starts from ([`PortfolioSettings::warm_curvature`]).
    #[serde(default)]
    learned: Option<Box<Sqp>>,
    /// The counts of the patience rule ([`PortfolioSettings::patience`]).
    #[serde(default)]
    patience: Patience,
}

/// What the patience rule ([`PortfolioSettings::patience`]) counts.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Patience {
    /// The evaluation at which the best point last improved clearly
    /// ([`clearly_better`]).
    improved_at: usize,
    /// The runs of the local phase that ended by themselves, and their evaluations.
    runs: usize,
    spent: usize,
    /// The rule ended the portfolio.
    out: bool,
}

impl Patience {
    /// A run of the local phase that took `spent` evaluations ended at evaluation
    /// `evaluations`, the best point confirmed `confirmed` of the `wanted` times:
    /// whether the portfolio stops — at least two confirmations and at least half of
    /// the ended runs among them (the landscape looks unimodal: the runs arrive at
    /// one point), and the runs still wanted, each as long as the runs so far on
    /// average, would take more than `100 N` evaluations and end after the window
    /// `e + max(2 e, 100 N)`, `e` the evaluation of the last clear improvement.
    fn run_ended(
        &mut self,
        spent: usize,
        (confirmed, wanted): (usize, usize),
        evaluations: usize,
        dim: usize,
    ) -> bool {
        self.runs += 1;
        self.spent += spent;
        if confirmed >= 2 && 2 * confirmed >= self.runs && confirmed < wanted {
            let rest = (wanted - confirmed) * (self.spent / self.runs);
            let e = self.improved_at;
            self.out = rest > 100 * dim && evaluations + rest > e + (2 * e).max(100 * dim);
        }
        self.out
    }
}

impl Portfolio {
    /// A run for a problem of this shape, seeded with `seed`, with settings
    /// [`PortfolioSettings::validate`] accepted.
    ///
    /// # Errors
    /// A shape the local phase refuses.
    pub(crate) fn new(
        shape: ProblemShape,
        settings: PortfolioSettings,
        seed: u64,
    ) -> Result<Self, Error> {
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
            stopped_by_caller: false,
            learned: None,
            patience: Patience::default(),
        })
    }

    /// The run with its first start at `x0` (clipped into the box) instead of the box's
    /// centre; the later starts are as before.
    ///
    /// # Errors
    /// A shape the local phase refuses (the start was checked by
    /// [`crate::Options::build`]).
    pub(crate) fn with_start(mut self, x0: &[f64]) -> Result<Self, Error> {
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

    fn local_phase(
        shape: &ProblemShape,
        start: &[f64],
        settings: &SqpSettings,
    ) -> Result<Box<Sqp>, Error> {
        Ok(Box::new(Sqp::new(shape.clone(), start, settings.clone())?))
    }

    /// `next` with the curvature model of `previous` where the settings say so
    /// ([`PortfolioSettings::warm_curvature`]) and `previous` ended at the best point
    /// `best` (as [`Portfolio::confirm`] matches it): the curvature of the best basin,
    /// never of another local optimum's.
    fn warm(
        settings: &PortfolioSettings,
        next: Box<Sqp>,
        previous: &Sqp,
        best: Option<Fitness>,
    ) -> Box<Sqp> {
        let at_best =
            best.is_some_and(|record| Self::ended_at(previous, record, settings.confirm_tolerance));
        if settings.warm_curvature && at_best {
            Box::new(next.with_curvature_of(previous))
        } else {
            next
        }
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

    /// Whether the best point of the run `sqp` is the point `record`: no more violated
    /// (beyond 10⁻¹⁰), and `f` within `tolerance · max(1, |f|)` of the record's — above
    /// it, also within twice what the run's back-off costs by its model
    /// ([`Sqp::back_off_cost`]): a run that holds its back-off ends that far above a
    /// record found closer to the boundary (by an ES round, or a refined run).
    fn ended_at(sqp: &Sqp, record: Fitness, tolerance: f64) -> bool {
        let Some(end) = sqp.best_ref() else {
            return false;
        };
        let below = tolerance * record.objective.abs().max(1.0);
        let above = below.max(2.0 * sqp.back_off_cost());
        let gap = end.objective() - record.objective;
        end.violation() <= record.violation + 1e-10 && -below <= gap && gap <= above
    }

    /// Counts a finished run of the local phase: one that ended at the best point
    /// ([`Portfolio::ended_at`]) confirms it — the first confirmation if the run found
    /// a new best point lower by more than `tolerance` (at least `10⁻⁸`,
    /// [`clearly_better_by`]), one more otherwise; a run that ended elsewhere changes
    /// nothing. Gives the count.
    fn confirm(
        confirmed: &mut usize,
        sqp: &Sqp,
        (best, before): (Option<Fitness>, Option<Fitness>),
        tolerance: f64,
    ) -> usize {
        let Some(best) = best else {
            return *confirmed;
        };
        if Self::ended_at(sqp, best, tolerance) {
            *confirmed = if clearly_better_by(Some(best), before, tolerance.max(1e-8)) {
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
        self.stopped_by_caller || self.ended_by_itself()
    }

    /// Whether the run ended by its own rules (confirmations or target).
    fn ended_by_itself(&self) -> bool {
        (self.settings.confirmations > 0 && self.confirmed >= self.settings.confirmations)
            || self.patience.out
            || self.reached_target()
    }

    /// Whether a restart of the local phase has arrived at the best point found before
    /// it started ([`PortfolioSettings::confirm_early`]): the record has not improved
    /// clearly since, and the run's best point matches it as [`Portfolio::confirm`]
    /// asks.
    fn arrived(
        sqp: &Sqp,
        (best, before): (Option<Fitness>, Option<Fitness>),
        tolerance: f64,
    ) -> bool {
        let Some(record) = best else {
            return false;
        };
        !clearly_better_by(best, before, tolerance.max(1e-8))
            && Self::ended_at(sqp, record, tolerance)
    }

    /// Counts a run of the local phase that just ended ([`Portfolio::confirm`]) and
    /// says whether the portfolio stops: [`PortfolioSettings::confirmations`] runs
    /// ended at the best point, or the patience rule ([`Patience::run_ended`]).
    fn ends(
        settings: &PortfolioSettings,
        confirmed: &mut usize,
        patience: &mut Patience,
        sqp: &Sqp,
        fitness: (Option<Fitness>, Option<Fitness>),
        (evaluations, started, dim): (usize, usize, usize),
    ) -> bool {
        let count = Self::confirm(confirmed, sqp, fitness, settings.confirm_tolerance);
        let wanted = settings.confirmations;
        if wanted == 0 {
            return false;
        }
        let tired = settings.patience
            && patience.run_ended(evaluations - started, (count, wanted), evaluations, dim);
        count >= wanted || tired
    }

    /// Whether the best point is feasible with `f ≤` [`PortfolioSettings::target`].
    #[must_use]
    pub fn reached_target(&self) -> bool {
        match (self.settings.target, &self.best) {
            (Some(target), Some(best)) => best.violation() == 0.0 && best.objective() <= target,
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
    fn advance(&mut self) -> Result<(), Error> {
        loop {
            let best = self.best.as_ref().map(|b| b.snapshot.fitness);
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
                    let arrived = self.settings.confirm_early
                        && Self::arrived(
                            sqp,
                            (best, self.before_local),
                            self.settings.confirm_tolerance,
                        );
                    if !cut && !arrived && sqp.points().is_some() {
                        return Ok(());
                    }
                    if !cut
                        && Self::ends(
                            &self.settings,
                            &mut self.confirmed,
                            &mut self.patience,
                            sqp,
                            (best, self.before_local),
                            (self.evaluations, self.local_started, self.shape.dim()),
                        )
                    {
                        return Ok(());
                    }
                    let (lower, upper) = (&self.shape.lower, &self.shape.upper);
                    uniform_in_box(lower, upper, &mut self.rng, &mut self.start);
                    if self.evaluations - *first < *allowance {
                        let next = Self::local_phase(&self.shape, &self.start, &self.settings.sqp)?;
                        *sqp = Self::warm(&self.settings, next, sqp, best);
                        self.before_local = best;
                        self.local_started = self.evaluations;
                        continue;
                    }
                    self.after_restarts = best;
                    let mut options = EsOptions::new(self.settings.es)
                        .budget(Self::es_budget(
                            &self.settings,
                            self.shape.dim(),
                            self.round,
                        ))
                        .seed(round_seed(self.seed, u64::from(self.round)))
                        .to_the_end();
                    if let Some(sigma0) = self.settings.sigma0 {
                        let config = ma_es::Config {
                            sigma0,
                            ..options.constants().clone()
                        };
                        options = options.config(config);
                    }
                    let es = options.build(&self.shape)?.ask_tell()?;
                    if self.settings.warm_curvature {
                        self.learned = Some(sqp.clone());
                    }
                    self.phase = Phase::Es { es: Box::new(es) };
                }
                Phase::Es { es } => {
                    if es.pending().is_some() || Solver::ask(es.as_mut())?.is_some() {
                        return Ok(());
                    }
                    let mut sqp =
                        Self::local_phase(&self.shape, &es.result().best.x, &self.settings.sqp)?;
                    if let Some(learned) = self.learned.take() {
                        sqp = Self::warm(&self.settings, sqp, &learned, best);
                    }
                    self.before_local = best;
                    self.local_started = self.evaluations;
                    self.phase = Phase::Polish { sqp };
                }
                Phase::Polish { sqp } => {
                    if !cut && sqp.points().is_some() {
                        return Ok(());
                    }
                    if !cut
                        && Self::ends(
                            &self.settings,
                            &mut self.confirmed,
                            &mut self.patience,
                            sqp,
                            (best, self.before_local),
                            (self.evaluations, self.local_started, self.shape.dim()),
                        )
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
                    let next = Self::local_phase(&self.shape, &self.start, &self.settings.sqp)?;
                    let sqp = Self::warm(&self.settings, next, sqp, best);
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
    /// ([`RequestKind::Jacobians`]), and for a shape with derivatives the local phase's
    /// `∇f` and `∂C/∂x` ([`RequestKind::Gradients`]). `None` once the run stopped by itself
    /// ([`Portfolio::stopped`]). Asking again before telling gives the same request.
    ///
    /// # Errors
    /// The ES's errors when a round sets it up.
    fn next_request(&mut self) -> Result<Option<Request<'_>>, Error> {
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
            .ok_or_else(|| SolverError::Protocol("a step with nothing to ask".into()))?;
        (self.asked, self.asked_kind, self.asked_charge) = (count, kind, charge);
        Ok(self.current())
    }

    /// The current step's request, if it has one.
    fn current(&self) -> Option<Request<'_>> {
        match &self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => sqp.request(),
            // Every point an ES round asks for wants f and C (a difference probe's f
            // counts for the record too), but for the exact Jacobians of its repair.
            Phase::Es { es } => es.pending().map(|r| Request {
                kind: if r.kind == RequestKind::Jacobians {
                    RequestKind::Jacobians
                } else {
                    RequestKind::Population
                },
                jacobians: false,
                ..r
            }),
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

    /// Takes the values at the points of the last ask ([`Solver::tell`]): `objectives[j]`
    /// and column `j` of `constraints` (`(l + m) × k`) are `f` and `C` at point `j`;
    /// for a [`RequestKind::Jacobians`] request, columns `jN .. (j+1)N` of
    /// `constraints` (`(l + m) × (N · k)`) are `∂C/∂x` at point `j`, and `objectives`
    /// may be empty; for a [`RequestKind::Gradients`] request, `objectives[jN ..
    /// (j+1)N]` is `∇f` at point `j`.
    ///
    /// # Errors
    /// [`SolverError::Protocol`] without an ask, [`SolverError::TellShape`] for values
    /// that do not fit; the phase's own errors.
    fn take_values(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<(), Error> {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if self.asked == 0 {
            return Err(SolverError::Protocol("a tell without an ask".into()).into());
        }
        let jacobians = self.asked_kind.derivatives();
        let gradients = self.asked_kind == RequestKind::Gradients;
        let columns = if jacobians {
            n * self.asked
        } else {
            self.asked
        };
        let expected = if gradients {
            n * self.asked
        } else {
            self.asked
        };
        let objectives_fit =
            objectives.len() == expected || (jacobians && !gradients && objectives.is_empty());
        if !objectives_fit {
            return Err(SolverError::TellShape {
                what: if gradients { "gradients" } else { "objectives" },
                found: vec![objectives.len()],
                expected: vec![expected],
            }
            .into());
        }
        if constraints.dim() != (k, columns) {
            return Err(SolverError::TellShape {
                what: if jacobians {
                    "Jacobians (N columns per point)"
                } else {
                    "constraints (one column per point)"
                },
                found: constraints.shape().to_vec(),
                expected: vec![k, columns],
            }
            .into());
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
                Solver::tell(sqp.as_mut(), objectives, constraints)?;
                self.iterations += 1;
            }
            Phase::Es { es } => {
                if matches!(
                    Solver::tell(es.as_mut(), objectives, constraints)?,
                    Told::Iteration(_)
                ) {
                    self.iterations += 1;
                }
            }
        }
        if let Some(best) = improved {
            let before = self.best.as_ref().map(|b| b.snapshot.fitness);
            if clearly_better(Some(best.snapshot.fitness), before) {
                self.patience.improved_at = best.found_at();
            }
            self.best = Some(best);
        }
        self.evaluations += self.charge();
        if jacobians {
            self.jacobian_evaluations += self.charge();
        }
        self.asked = 0;
        Ok(())
    }

    /// The point of the pending request that improves the record most, if one does.
    fn best_of(
        &self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Option<Best>, Error> {
        let points = self
            .current()
            .ok_or_else(|| SolverError::Protocol("a tell without an ask".into()))?
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
                .or(self.best.as_ref().map(|b| &b.snapshot.fitness));
            if best.is_none_or(|b| improves_record(&fitness, b, self.settings.nan_last)) {
                improved = Some((j, fitness));
            }
        }
        Ok(improved.map(|(j, fitness)| {
            Best::new(
                points.column(j).to_vec(),
                constraints.column(j).to_vec(),
                Snapshot::new(fitness.objective, fitness.violation)
                    .found_at(self.evaluations + j + 1),
            )
        }))
    }

    /// The evaluations charged for derivatives: the Jacobians of the ES's repair and the
    /// local phase's gradients (0 for a black box).
    #[must_use]
    pub fn jacobian_evaluations(&self) -> usize {
        self.jacobian_evaluations
    }

    /// The problem's dimension `N`.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.shape.dim()
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

    /// The scale of the current phase's search per coordinate: the local phase's step
    /// bound `Δ` for each, or the ES round's `σ √((M Mᵀ)_ii)`.
    #[must_use]
    pub fn stds(&self) -> Vec<f64> {
        match &self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => {
                vec![sqp.step_bound(); self.shape.dim()]
            }
            Phase::Es { es } => es.stds(),
        }
    }

    /// The centre of the current phase's search: the local phase's iterate, or the
    /// mean (parent) of the ES round's search distribution.
    #[must_use]
    pub fn mean(&self) -> Vec<f64> {
        match &self.phase {
            Phase::Restarts { sqp, .. } | Phase::Polish { sqp } => sqp.iterate().to_vec(),
            Phase::Es { es } => es.report().parent.to_vec(),
        }
    }

    /// The state after the last tell, as a row of the run's history.
    fn history_row(&self) -> Status {
        let (objective, violation) = self
            .best
            .as_ref()
            .map_or((f64::NAN, f64::NAN), |b| (b.objective(), b.violation()));
        let (epsilon, phase) = match &self.phase {
            Phase::Restarts { .. } | Phase::Polish { .. } => (f64::NAN, Running::Local),
            Phase::Es { es } => (es.report().epsilon, Running::Es),
        };
        Status {
            iterations: self.iterations,
            evaluations: self.evaluations,
            objective,
            violation,
            step_size: self.step_size(),
            epsilon,
            phase,
            run: self.round as usize + 1,
        }
    }
}

fn population() -> RequestKind {
    RequestKind::Population
}

impl Solver for Portfolio {
    fn shape(&self) -> &ProblemShape {
        &self.shape
    }

    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        self.next_request().map_err(SolverError::from)
    }

    /// A tell that completes a step of the local phase or a generation of an ES round
    /// ends an iteration.
    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        let before = self.iterations;
        self.take_values(objectives, constraints)?;
        Ok(if self.iterations > before {
            Told::Iteration(self.termination())
        } else {
            Told::Pending
        })
    }

    fn best(&self) -> Option<Best> {
        self.best.clone()
    }

    fn evaluations(&self) -> usize {
        self.evaluations
    }

    fn iterations(&self) -> usize {
        self.iterations
    }

    fn termination(&self) -> Option<Termination> {
        if self.stopped_by_caller {
            Some(Termination::Stopped)
        } else if self.reached_target() {
            Some(Termination::Target)
        } else if self.ended_by_itself() {
            Some(Termination::Confirmed)
        } else {
            None
        }
    }

    fn stop(&mut self) {
        self.stopped_by_caller = true;
    }

    fn status(&self) -> Status {
        self.history_row()
    }
}
