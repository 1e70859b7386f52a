//! Everything a [`ComponentSpec`] can run — one run, or a restart sequence (IPOP,
//! BIPOP, polish, opening; [`crate::restarts`]) — driven by ask and tell, as a value.
//!
//! [`AskTell::ask`] hands out the points the run wants evaluated ([`Request`]: a
//! population, the repair's Jacobian probes, or repaired offspring), [`AskTell::tell`]
//! takes their values back. Between a generation's last tell and the next ask the
//! caller may look at [`AskTell::report`] and end the run with [`AskTell::stop`]. The
//! same seed gives the same trajectory, bit for bit, however the points are evaluated
//! (in batches, in parallel, in another process), and as [`crate::Plan::run`].
//!
//! An [`AskTell`] is a solver of the contract ([`emages_solver::Solver`]):
//! [`emages_solver::Driver`] runs it, as [`crate::Plan::run`] does. It serialises with
//! serde (its noise source too, e.g. [`RngNoise`]) after any tell, to MessagePack or
//! JSON ([`emages_solver::save`] keeps every bit); the restored value continues exactly
//! as the original would.
//!
//! ```
//! use constraint_handling::problem::ProblemShape;
//! use ma_es::Options;
//! use ndarray::Array2;
//!
//! // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 in [−5, 5]², evaluated by the caller.
//! let shape = ProblemShape::new(vec![-5.0; 2], vec![5.0; 2], 1, 0).unwrap();
//! // The recommended strategy (BIPOP restarts), up to 10 000 evaluations; it stops
//! // earlier once converged (ma_es::control).
//! let plan = Options::recommended().budget(10_000).seed(7).build(&shape).unwrap();
//! let mut es = plan.ask_tell().unwrap();
//! while let Some(request) = es.ask().unwrap() {
//!     let x = request.points;
//!     let f: Vec<f64> = x.columns().into_iter().map(|c| c.dot(&c)).collect();
//!     let g = Array2::from_shape_fn((1, x.ncols()), |(_, k)| 1.0 - x[[0, k]] - x[[1, k]]);
//!     es.tell(&f, g.view()).unwrap();
//! }
//! let result = es.result();
//! assert!(result.best.is_feasible() && (result.best.objective() - 0.5).abs() < 1e-6);
//! assert!(result.termination.is_convergence() && result.evaluations < 10_000);
//! ```

use crate::config::{Config, Parameters};
use crate::control::{Convergence, Monitor, RunLimits};
use crate::error::MaEsError;
use crate::noise::NoiseSource;
use crate::observer::{Before, GenerationReport};
use crate::plan::Plan;
use crate::record::Record;
use crate::restarts::{merge, shift, NextRun, RestartRecord, RestartSchedule, Stall};
use crate::result::{RunResult, Termination};
use crate::spec::{ComponentSpec, Components, Polish};
use crate::strategy::{Batching, Request, Strategy, Told};
use constraint_handling::ordering::improves_best_so_far;
use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;
use ndarray::ArrayView2;
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

#[cfg(doc)]
use crate::noise::RngNoise;

/// A run of a [`ComponentSpec`] in progress, restarts included, driven by ask and
/// tell (see the [module](self) documentation).
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "N: Serialize", deserialize = "N: Deserialize<'de>"))]
pub struct AskTell<N> {
    shape: ProblemShape,
    seed: u64,
    batching: Batching,
    /// The run in progress (the last one, once the sequence is over).
    current: Option<Strategy<N>>,
    /// The restart sequence around it (`None`: a single run).
    sequence: Option<Sequence>,
    convergence: Convergence,
    /// The convergence criteria on the current run (`None`: all off).
    monitor: Option<Monitor>,
    /// What is recorded of the whole run: checkpoints, dynamics.
    record: Record,
    /// A generation ended at the last tell and has not been reviewed (stall, end of
    /// the run, the next run) yet.
    review: bool,
    /// The caller stopped the run.
    stopped: bool,
    finished: bool,
    /// The final result, once finished.
    result: Option<RunResult>,
}

/// The restart sequence's state ([`crate::restarts`]).
#[derive(Serialize, Deserialize)]
struct Sequence {
    spec: ComponentSpec,
    /// The configuration with the spec's parameter rules applied.
    config: Config,
    /// It resolved.
    base: Parameters,
    /// The whole sequence's limits.
    limits: RunLimits,
    plan: RestartSchedule,
    polish_from: Option<f64>,
    used: usize,
    history: Vec<RestartRecord>,
    merged: Option<RunResult>,
    /// The σ the run that found the best-so-far ended with.
    best_sigma: f64,
    /// The current run: how it was set up, its stall criterion.
    run: NextRun,
    sigma0: f64,
    t_max: usize,
    polish: bool,
    stall: Stall,
}

impl<N: NoiseSource> AskTell<N> {
    /// The run of a [`Plan`], its repair's evaluations batched as `batching` says,
    /// drawing from `noise` ([`Plan::ask_tell`], [`Plan::run`]). Nothing is resolved
    /// here: a single run takes the plan's parameters, a restart sequence starts from
    /// them.
    pub(crate) fn from_plan(plan: &Plan, batching: Batching, noise: N) -> Result<Self, MaEsError> {
        Self::from_parts(plan, None, batching, noise)
    }

    /// As [`AskTell::from_plan`]; a single run may take hand-made `components`.
    pub(crate) fn from_parts(
        plan: &Plan,
        components: Option<Components>,
        batching: Batching,
        noise: N,
    ) -> Result<Self, MaEsError> {
        let shape = plan.shape().clone();
        let dim = shape.dim();
        let (spec, base, limits) = (*plan.spec(), plan.params(), plan.limits());
        let mut record = Record::new(plan.recorded(), limits);
        record.reserve(limits.budget.min(1 << 20) / 4 + 2);
        let seed = plan.seed();
        let mut es = Self {
            seed,
            batching,
            current: None,
            sequence: None,
            convergence: plan.convergence(),
            monitor: None,
            record,
            review: false,
            stopped: false,
            finished: false,
            result: None,
            shape,
        };
        if !plan.has_restarts() {
            // One run: the hand-made components, or the spec's.
            let components = match components {
                Some(c) => c,
                None => Components::from_spec(&spec, base, seed)?,
            };
            es.monitor = es.convergence_monitor(base.lambda);
            es.current = Some(
                Strategy::with_components(
                    es.shape.clone(),
                    base.clone(),
                    limits,
                    components,
                    noise,
                )?
                .with_batching(batching),
            );
            return Ok(es);
        }
        if components.is_some() {
            return Err(MaEsError::Protocol(
                "hand-made components run a single run: the spec must have no restarts".into(),
            ));
        }
        let sequence = Sequence {
            plan: RestartSchedule::new(spec.restart.kind, base.lambda, seed),
            polish_from: match spec.restart.polish {
                Polish::Off => None,
                Polish::Share(p) => Some(f64::from(p) / 100.0 * limits.budget as f64),
            },
            used: 0,
            history: Vec::new(),
            merged: None,
            best_sigma: base.sigma0,
            run: NextRun {
                lambda: base.lambda,
                sigma_factor: 1.0,
                budget_cap: None,
                large: true,
            },
            sigma0: base.sigma0,
            t_max: base.epsilon.t_max,
            polish: false,
            stall: Stall::new(spec.restart.stall, dim, base.lambda, base.sigma0),
            spec,
            config: plan.config().clone(),
            base: base.clone(),
            limits,
        };
        es.sequence = Some(sequence);
        let (params, limits, components) = es
            .next_run()?
            .expect("the first run of a sequence always starts");
        es.current = Some(
            Strategy::with_components(es.shape.clone(), params, limits, components, noise)?
                .with_batching(batching),
        );
        Ok(es)
    }

    /// The convergence criteria for a run with population `lambda`, if any is on.
    fn convergence_monitor(&self, lambda: usize) -> Option<Monitor> {
        self.convergence
            .is_on()
            .then(|| self.convergence.monitor(self.shape.dim(), lambda))
    }

    /// The points wanted next, or `None` once the run is over. Asking again before
    /// telling returns the same request.
    ///
    /// # Errors
    /// [`MaEsError::Problem`] if a point cannot be reflected into the box;
    /// [`MaEsError::Config`] if a restart cannot be set up.
    pub fn ask(&mut self) -> Result<Option<Request<'_>>, MaEsError> {
        self.proceed()?;
        if self.finished {
            return Ok(None);
        }
        self.strategy_mut().ask()
    }

    /// The request asked for and not told yet, if any.
    #[must_use]
    pub fn pending(&self) -> Option<Request<'_>> {
        if self.finished || self.review {
            return None;
        }
        self.strategy().pending()
    }

    /// Takes the values of the points of the last [`AskTell::ask`] (as
    /// [`Strategy::tell`]). Returns [`Told::Iteration`] when a generation (or an
    /// initialisation) ended: [`AskTell::report`] shows it, and [`AskTell::stop`] may
    /// end the run before the next ask.
    ///
    /// # Errors
    /// As [`Strategy::tell`]; the run is unchanged then.
    pub fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, MaEsError> {
        self.tell_values(|s| s.tell(objectives, constraints))
    }

    /// [`AskTell::tell`] with the Jacobians at the request's points, for a request that
    /// welcomes them ([`Request::jacobians`]; as [`Strategy::tell_with_jacobians`]).
    ///
    /// # Errors
    /// As [`Strategy::tell_with_jacobians`]; the run is unchanged then.
    pub fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, MaEsError> {
        self.tell_values(|s| s.tell_with_jacobians(objectives, constraints, jacobians))
    }

    /// A tell to the current run, between an ask and the review of its generation.
    fn tell_values(
        &mut self,
        tell: impl FnOnce(&mut Strategy<N>) -> Result<Told, MaEsError>,
    ) -> Result<Told, MaEsError> {
        if self.finished || self.review {
            return Err(MaEsError::Protocol(
                "tell without a pending ask: ask for the points first".into(),
            ));
        }
        let told = tell(self.strategy_mut())?;
        self.review = matches!(told, Told::Iteration(_));
        if self.review {
            self.record_generation();
        }
        Ok(told)
    }

    /// One generation (or initialisation) with `problem` evaluating the requests (as
    /// [`Strategy::step`]); returns `false` once the run is over.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn step<P: ConstrainedProblem + ?Sized>(&mut self, problem: &P) -> Result<bool, MaEsError> {
        self.proceed()?;
        if self.finished {
            return Ok(false);
        }
        self.strategy_mut().step(problem)?;
        self.review = true;
        self.record_generation();
        Ok(true)
    }

    /// Ends the whole run after the generation just told (termination `Stopped`,
    /// unless that generation met the budget or the generation limit); a request asked
    /// for since is dropped.
    pub fn stop(&mut self) {
        if self.finished {
            return;
        }
        self.stopped = true;
        self.strategy_mut().end(Termination::Stopped);
        self.review = true;
    }

    /// Whether the run is over (after the review of its last generation).
    pub fn is_finished(&mut self) -> Result<bool, MaEsError> {
        self.proceed()?;
        Ok(self.finished)
    }

    fn strategy_mut(&mut self) -> &mut Strategy<N> {
        self.current.as_mut().expect("a run is always set up")
    }

    /// Reviews the generation told last: the stall criterion, the end of the run, the
    /// next run of the sequence.
    fn proceed(&mut self) -> Result<(), MaEsError> {
        if !std::mem::take(&mut self.review) || self.finished {
            return Ok(());
        }
        let stopped = self.stopped;
        let current = self.current.as_mut().expect("a run is always set up");
        if let Some(seq) = &mut self.sequence {
            if !stopped {
                let initialization = current.report().generation == 0;
                let stall = seq.stall.observe(&current.report()).is_break();
                if stall && (initialization || current.termination().is_none()) {
                    current.end(Termination::Stalled);
                }
            }
        }
        if let Some(monitor) = &mut self.monitor {
            if !stopped && current.termination().is_none() {
                if let Some(reason) = monitor.check(&current.report()) {
                    current.end(reason);
                }
            }
        }
        if current.termination().is_none() {
            return Ok(());
        }
        if self.sequence.is_none() {
            self.result = Some(self.record.result(current.result()));
            self.finished = true;
            return Ok(());
        }
        // The run's reached checkpoints, before its end moves the counts on.
        self.record
            .checkpoints
            .end_run(&report(self.current.as_ref(), self.sequence.as_ref()));
        let (last, ending) = self.end_run();
        // A caller's stop is reported as such, whatever the run reached; a sequence
        // whose last run spent what was left of the budget ended at the budget, unless
        // that run converged.
        let ending = ending.filter(|_| !stopped);
        if last || stopped || ending.is_some() {
            let converged = self
                .restarts()
                .last()
                .is_some_and(|r| r.termination.is_convergence());
            self.finish(ending.or((last && !stopped && !converged).then_some(Termination::Budget)));
            return Ok(());
        }
        match self.next_run()? {
            Ok((params, limits, components)) => {
                // The noise source goes on from the run that ended.
                let (_, noise) = self
                    .current
                    .take()
                    .expect("a run is always set up")
                    .into_parts();
                self.current = Some(
                    Strategy::with_components(
                        self.shape.clone(),
                        params,
                        limits,
                        components,
                        noise,
                    )?
                    .with_batching(self.batching),
                );
            }
            // The last run stays, as the run the reports are of.
            Err(reason) => self.finish(reason),
        }
        Ok(())
    }

    /// The parameters, limits and components of the next run of the sequence (its
    /// stall and convergence criteria and record set up), or why there is none: the
    /// budget left is too small for a generation ([`Termination::Budget`]), the whole
    /// run's generation limit is reached, or the restart schedule is over (`None`: the
    /// last run's reason stands).
    #[allow(clippy::type_complexity)]
    fn next_run(
        &mut self,
    ) -> Result<Result<(Parameters, RunLimits, Components), Option<Termination>>, MaEsError> {
        let monitor = self.convergence.is_on().then_some(self.convergence);
        let seq = self.sequence.as_mut().expect("a restart sequence");
        let budget = seq.limits.budget;
        let lambda0 = seq.base.lambda;
        let left = budget.saturating_sub(seq.used);
        let polish = match &seq.merged {
            Some(m) if seq.polish_from.is_some_and(|b| left as f64 <= b) => Some(m.best.x.clone()),
            _ => None,
        };
        let next = match polish {
            Some(_) => NextRun {
                lambda: lambda0,
                sigma_factor: seq.best_sigma / seq.base.sigma0,
                budget_cap: None,
                large: false,
            },
            None => match seq.plan.next(&seq.history) {
                Some(next) => next,
                None => return Ok(Err(None)),
            },
        };
        let run_budget = next.budget_cap.map_or(left, |cap| cap.min(left));
        if !seq.history.is_empty() && run_budget < next.lambda {
            return Ok(Err(Some(Termination::Budget)));
        }
        let share = (run_budget as f64 / next.lambda as f64) / (budget as f64 / lambda0 as f64);
        let t_max = match polish {
            Some(_) => 1,
            None => ((seq.base.epsilon.t_max as f64) * share).round().max(1.0) as usize,
        };
        let sigma0 = seq.base.sigma0 * next.sigma_factor;
        let config = &seq.config;
        let run_config = Config {
            initial_mean: polish.clone().or_else(|| config.initial_mean.clone()),
            lambda: Some(next.lambda),
            mu: config
                .mu
                .map(|m| (m * next.lambda / lambda0).clamp(1, next.lambda)),
            sigma0,
            t_max,
            ..config.clone()
        };
        let mut run_limits = RunLimits {
            budget: run_budget,
            ..seq.limits
        };
        // The whole run's generation limit: what the earlier runs left of it.
        if let Some(total) = seq.limits.total_generations {
            let used: usize = seq.history.iter().map(|r| r.generations).sum();
            if used >= total {
                return Ok(Err(Some(Termination::GenerationLimit)));
            }
            // A run with the limit `g` has at most `g + 1` generations.
            run_limits.max_generations = run_limits.max_generations.min(total - used - 1);
        }
        let k = seq.history.len() as u64;
        // The run's own λ, μ, σ0 and T, from the parameters the plan resolved (the
        // spec's rules are in `config` already); the first run ranks with the opening
        // ranking, if the spec names one.
        let dim = self.shape.dim();
        let params = run_config.resolve(dim)?;
        let ranking = match k {
            0 => seq
                .spec
                .restart
                .opening
                .unwrap_or(seq.spec.components.ranking),
            _ => seq.spec.components.ranking,
        };
        let components =
            Components::with_ranking(&seq.spec, ranking, &params, self.seed.wrapping_add(k))?;
        seq.stall = Stall::new(seq.spec.restart.stall, dim, next.lambda, sigma0);
        seq.run = next;
        seq.sigma0 = sigma0;
        seq.t_max = t_max;
        seq.polish = polish.is_some();
        self.monitor = monitor.map(|c| c.monitor(dim, next.lambda));
        Ok(Ok((params, run_limits, components)))
    }
}

impl<N> AskTell<N> {
    /// The current run's state after its last generation: its counts start at the
    /// current run's start, and `before` says what the earlier runs of a restart
    /// sequence did ([`GenerationReport::total_evaluations`] and so on).
    #[must_use]
    pub fn report(&self) -> GenerationReport<'_> {
        report(self.current.as_ref(), self.sequence.as_ref())
    }

    /// The search distribution's scale per coordinate, `σ √((M Mᵀ)_ii)` (pycma's
    /// `stds`; the measure the `tol_x` criterion compares).
    #[must_use]
    pub fn stds(&self) -> Vec<f64> {
        let report = self.report();
        report
            .m
            .rows()
            .into_iter()
            .map(|row| report.sigma * row.dot(&row).sqrt())
            .collect()
    }

    /// Records the generation just told.
    fn record_generation(&mut self) {
        let _ = self
            .record
            .observe(&report(self.current.as_ref(), self.sequence.as_ref()));
    }

    /// The current run.
    #[must_use]
    pub fn strategy(&self) -> &Strategy<N> {
        self.current.as_ref().expect("a run is always set up")
    }

    /// The final result, once the run is over.
    pub(crate) fn finished_result(&self) -> Option<&RunResult> {
        self.result.as_ref().filter(|_| self.finished)
    }

    /// The runs of the restart sequence that have ended (empty without restarts).
    #[must_use]
    pub fn restarts(&self) -> &[RestartRecord] {
        self.sequence.as_ref().map_or(&[], |s| &s.history)
    }

    /// The evaluations charged over the whole run.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        match (&self.result, &self.sequence) {
            (Some(r), _) => r.evaluations,
            (None, Some(seq)) => seq.used + self.strategy().evaluations(),
            (None, None) => self.strategy().evaluations(),
        }
    }

    /// The result: the final one once the run is over, else the best over the runs so
    /// far, counted over the whole run, with the checkpoints taken so far (those ahead
    /// hold the current best).
    #[must_use]
    pub fn result(&self) -> RunResult {
        if let Some(r) = &self.result {
            return r.clone();
        }
        let mut r = self.strategy().result();
        if let Some(seq) = &self.sequence {
            shift(&mut r, seq.used);
            let total = seq.used + r.evaluations;
            if let Some(m) = &seq.merged {
                r = merge(m.clone(), r);
            }
            r.evaluations = total;
            r.restarts.clone_from(&seq.history);
        }
        self.record.result(r)
    }

    /// The run's end: its result merged into the sequence's; returns whether it was
    /// the last (it spent the budget), and the reason the sequence ends early, if any
    /// (the target reached, or the best-so-far confirmed: [`crate::control`]).
    fn end_run(&mut self) -> (bool, Option<Termination>) {
        let tol_fun = self.convergence.tol_fun;
        let seq = self.sequence.as_mut().expect("a restart sequence");
        let current = self.current.as_ref().expect("a run is always set up");
        let left = seq.limits.budget.saturating_sub(seq.used);
        let mut r = current.result();
        let used = seq.used;
        shift(&mut r, used);
        let last = r.evaluations >= left;
        seq.history.push(RestartRecord {
            start: used,
            lambda: seq.run.lambda,
            sigma0: seq.sigma0,
            large: seq.run.large,
            t_max: seq.t_max,
            generations: r.generations,
            evaluations: r.evaluations,
            best: r.best.snapshot.fitness,
            termination: r.termination,
            polish: seq.polish,
        });
        seq.used += r.evaluations;
        let found = r.best.snapshot.fitness;
        let ending = match (r.termination, &seq.merged) {
            (Termination::Target, _) => Some(Termination::Target),
            (t, Some(m)) if tol_fun > 0.0 && (t == Termination::Stalled || t.is_convergence()) => {
                let best = m.best.snapshot.fitness;
                let same = found.violation == 0.0
                    && best.violation == 0.0
                    && (found.objective - best.objective).abs()
                        <= tol_fun * best.objective.abs().max(1.0);
                same.then_some(Termination::Confirmed)
            }
            _ => None,
        };
        if seq.merged.as_ref().is_none_or(|m| {
            improves_best_so_far(&r.best.snapshot.fitness, &m.best.snapshot.fitness)
        }) && r.sigma.is_finite()
            && r.sigma > 0.0
        {
            seq.best_sigma = r.sigma;
        }
        seq.merged = Some(match seq.merged.take() {
            None => r,
            Some(m) => merge(m, r),
        });
        (last, ending)
    }

    /// The sequence's final result (with `ending` as its termination, if given).
    fn finish(&mut self, ending: Option<Termination>) {
        let seq = self.sequence.as_mut().expect("a restart sequence");
        let mut result = seq.merged.clone().expect("the first run always happens");
        result.evaluations = seq.used;
        result.restarts.clone_from(&seq.history);
        if let Some(t) = ending {
            result.termination = t;
        }
        self.result = Some(self.record.result(result));
        self.finished = true;
    }
}

/// The report of the run in progress, with what the sequence's earlier runs did.
fn report<'a, N>(
    current: Option<&'a Strategy<N>>,
    sequence: Option<&'a Sequence>,
) -> GenerationReport<'a> {
    let mut report = current.expect("a run is always set up").report();
    if let Some(seq) = sequence {
        report.before = Before {
            runs: seq.history.len(),
            generations: seq.merged.as_ref().map_or(0, |m| m.generations),
            evaluations: seq.used,
            best: seq.merged.as_ref().map(|m| &m.best),
        };
    }
    report
}

impl<N> std::fmt::Debug for AskTell<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AskTell")
            .field("current", &self.current)
            .field("restarts", &self.restarts().len())
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

/// An observer of a run ([`emages_solver::Observer`] of an [`AskTell`]) from a closure
/// over its generation reports: `f(&es.report())` after the initialisation and every
/// generation.
///
/// ```
/// use ma_es::ask_tell::reports;
/// use ma_es::observer::GenerationReport;
/// use ma_es::Options;
/// use constraint_handling::FnProblem;
/// use std::ops::ControlFlow;
/// let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 0, 0, |x, _| Ok(x[0] * x[0] + x[1] * x[1]))?;
/// let plan = Options::recommended().budget(2_000).seed(1).build_for(&problem)?;
/// let mut sigmas = Vec::new();
/// let mut observer = reports(|r: &GenerationReport<'_>| {
///     sigmas.push(r.sigma);
///     ControlFlow::Continue(())
/// });
/// plan.run_with(&problem, plan.noise(), &mut observer)?;
/// drop(observer);
/// assert!(!sigmas.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reports<N>(
    mut f: impl FnMut(&GenerationReport<'_>) -> ControlFlow<()>,
) -> impl FnMut(&AskTell<N>) -> ControlFlow<()> {
    move |es: &AskTell<N>| f(&es.report())
}
