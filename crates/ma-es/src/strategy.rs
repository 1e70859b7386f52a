//! The εMAg-ES loop (REFERENCE.md §5), one implementation for every choice of
//! components.
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
//! best-so-far update (lexicographic), stop test, g ← g + 1, ε ← ε(g), checkpoints
//! ```
//!
//! The generation loop allocates nothing: every buffer is sized before the first
//! generation; matrix products go through BLAS.

use crate::back_calculation::Selected;
use crate::config::{Config, ConfigError, Parameters};
use crate::noise::NoiseSource;
use crate::observer::{GenerationReport, NoObserver, Observer};
use crate::ranking::ConstraintValues;
use crate::repair::{Offspring, RepairContext};
use crate::result::{BestSoFar, DynamicsRecord, RunResult, Termination};
use crate::variant::{ComponentSpec, Components, Variant};
use crate::MaEsError;
use constraint_handling::linalg::gemm;
use constraint_handling::ordering::Fitness;
use constraint_handling::problem::validate_bounds;
use constraint_handling::reflection::keep_range;
use constraint_handling::{ConstrainedProblem, ProblemError};
use constraint_handling::{Incumbent, Snapshot};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ShapeBuilder, Zip};

/// A matrix adaptation evolution strategy for one problem.
///
/// ```
/// use cec2017_constrained::Suite;
/// use ma_es::{Config, MaEs, Variant, noise::RngNoise};
///
/// let problem = Suite::synthetic(1).problem(1, 10).unwrap();
/// // The best-so-far also at 400, 2000 and 4000 evaluations (the CEC's 10/50/100 %).
/// let config = Config {
///     budget: Some(4_000),
///     checkpoints: vec![400, 2_000, 4_000],
///     ..Config::default()
/// };
/// let mut es = MaEs::new(&problem, &config, Variant::EpsMagEs).unwrap();
/// let result = es.run(&mut RngNoise::seed_from_u64(42)).unwrap();
/// assert!(result.evaluations >= 4_000);
/// assert_eq!(result.checkpoints.len(), 3);
/// ```
pub struct MaEs<P: ConstrainedProblem> {
    problem: P,
    params: Parameters,
    components: Components,
}

impl<P: ConstrainedProblem> std::fmt::Debug for MaEs<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaEs")
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<P: ConstrainedProblem> MaEs<P> {
    /// A strategy of the given variant (preset) for `problem`.
    ///
    /// # Errors
    /// [`MaEsError::Config`] for impossible parameters, [`MaEsError::Problem`] for a
    /// problem of dimension 0 or with invalid bounds (`lb > ub`, wrong length).
    pub fn new(problem: P, config: &Config, variant: Variant) -> Result<Self, MaEsError> {
        // The presets' components are deterministic: no seed enters them.
        Self::with_spec(problem, config, &variant.spec(), 0)
    }

    /// A strategy with the components of `spec`, for the run with seed `seed` (the
    /// seed of its noise source): stochastic components derive their own random stream
    /// from it ([`Components::from_spec`]), so the same seed repeats the run.
    ///
    /// # Errors
    /// As [`MaEs::new`].
    pub fn with_spec(
        problem: P,
        config: &Config,
        spec: &ComponentSpec,
        seed: u64,
    ) -> Result<Self, MaEsError> {
        if spec.restarts != crate::variant::RestartKind::Off {
            return Err(ConfigError::Invalid {
                name: "restarts",
                value: spec.to_string(),
                expected:
                    "a single run here: a spec with restarts runs through ma_es::restarts::run",
            }
            .into());
        }
        let params = spec
            .configure(config, problem.dim())?
            .resolve(problem.dim())?;
        let components = Components::from_spec(spec, &params, seed)?;
        Self::with_components(problem, params, components)
    }

    /// A strategy with hand-made components (any implementations of the component
    /// traits).
    ///
    /// # Errors
    /// [`MaEsError::Problem`] if the problem does not fit `params`.
    pub fn with_components(
        problem: P,
        params: Parameters,
        components: Components,
    ) -> Result<Self, MaEsError> {
        let n = problem.dim();
        if n == 0 || n != params.dim {
            return Err(ProblemError::DimensionMismatch {
                expected: params.dim,
                found: n,
            }
            .into());
        }
        let (lb, ub) = (problem.lower_bounds(), problem.upper_bounds());
        if lb.len() != n || ub.len() != n {
            return Err(ProblemError::InvalidBounds(format!(
                "{} lower and {} upper bounds for dimension {n}",
                lb.len(),
                ub.len()
            ))
            .into());
        }
        validate_bounds(lb, ub)?;
        // A pre-FMA fallback kernel is slower and leaves the reference's trajectories:
        // say so, once per process.
        constraint_handling::linalg::kernel::warn_once();
        if params.initial_mean.is_none() && lb.iter().chain(ub).any(|b| !b.is_finite()) {
            return Err(ProblemError::InvalidBounds(
                "the initial population, uniform in the box, needs finite bounds (or give an initial mean)".into(),
            )
            .into());
        }
        Ok(Self {
            problem,
            params,
            components,
        })
    }

    /// The resolved parameters.
    #[must_use]
    pub fn params(&self) -> &Parameters {
        &self.params
    }

    /// The problem.
    pub fn problem(&self) -> &P {
        &self.problem
    }

    /// The components (e.g. to read the back-calculation's statistics).
    pub fn components(&self) -> &Components {
        &self.components
    }

    /// Runs until the budget or the generation limit is reached.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run(&mut self, noise: &mut dyn NoiseSource) -> Result<RunResult, MaEsError> {
        self.run_observed(noise, &mut NoObserver)
    }

    /// Runs with an observer called after the initialisation and every generation.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn run_observed(
        &mut self,
        noise: &mut dyn NoiseSource,
        observer: &mut dyn Observer,
    ) -> Result<RunResult, MaEsError> {
        let mut session = self.start(noise)?;
        if observer.observe(&session.report()).is_break() {
            session.progress.termination = Some(Termination::Observer);
        }
        while session.progress.termination.is_none() {
            let stop = session.step(noise)?;
            if observer.observe(&session.report()).is_break() && stop.is_none() {
                session.progress.termination = Some(Termination::Observer);
            }
        }
        Ok(session.finish())
    }

    /// Initialises a run (the initial population, `ε0`, the parent) and returns it as
    /// a [`Session`] to be advanced one generation at a time — for embedding the
    /// strategy in other tools, or for benchmarking single generations.
    ///
    /// ```
    /// use cec2017_constrained::Suite;
    /// use ma_es::{noise::RngNoise, Config, MaEs, Variant};
    /// let problem = Suite::synthetic(1).problem(3, 10).unwrap();
    /// let mut es = MaEs::new(&problem, &Config::default(), Variant::EpsMagEs).unwrap();
    /// let mut noise = RngNoise::seed_from_u64(1);
    /// let mut session = es.start(&mut noise).unwrap();
    /// while session.report().evaluations < 5_000 {
    ///     session.step(&mut noise).unwrap();
    /// }
    /// let result = session.finish();
    /// assert!(result.evaluations >= 5_000 && result.generations > 0);
    /// ```
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn start(&mut self, noise: &mut dyn NoiseSource) -> Result<Session<'_>, MaEsError> {
        let mut session = Session::new(&self.problem, &self.params, &mut self.components)?;
        session.initialize(noise)?;
        session.progress.epsilon0 = session.dist.epsilon;
        session.record_dynamics();
        Ok(session)
    }
}

/// A run in progress: its state and the buffers of its generation loop.
///
/// Created by [`MaEs::start`]; [`Session::step`] performs one generation,
/// [`Session::finish`] returns the [`RunResult`].
pub struct Session<'a> {
    problem: &'a dyn ConstrainedProblem,
    params: &'a Parameters,
    components: &'a mut Components,
    weights: Array1<f64>,
    pop: Population,
    sel: Selection,
    dist: Distribution,
    progress: Progress,
}

/// The λ offspring of a generation, one per column (column-major, so that columns are
/// contiguous): `z`, `d = M z`, the candidates `ȳ + σ d`, the evaluated points (after
/// reflection and repair), their `f`, `C`, `ν̄`, whether they changed, and the ranking.
struct Population {
    z: Array2<f64>,
    d: Array2<f64>,
    candidates: Array2<f64>,
    points: Array2<f64>,
    objectives: Array1<f64>,
    constraints: Array2<f64>,
    violations: Vec<f64>,
    changed: Vec<bool>,
    ranking: Vec<usize>,
}

/// The μ selected offspring in rank order, and the weighted means `⟨z⟩_w`, `⟨d⟩_w`.
struct Selection {
    z: Array2<f64>,
    d: Array2<f64>,
    points: Array2<f64>,
    changed: Vec<bool>,
    z_w: Array1<f64>,
    d_w: Array1<f64>,
}

/// The search distribution: parent `ȳ`, path `p_σ`, transformation `M`, mutation
/// strength `σ`, and the threshold `ε` the next ranking uses.
struct Distribution {
    parent: Array1<f64>,
    p_sigma: Array1<f64>,
    m: Array2<f64>,
    sigma: f64,
    epsilon: f64,
}

/// The bookkeeping: counters, the best-so-far, checkpoints, dynamics, termination.
struct Progress {
    generation: usize,
    evaluations: usize,
    /// The point and constraint values of the best-so-far, and its snapshot (the same
    /// as the incumbent's): what observers and the result report.
    best: BestSoFar,
    /// The best-so-far rule and the checkpoints (steps 10 and 14), as every optimizer
    /// of the workspace keeps them.
    incumbent: Incumbent,
    resets: usize,
    dynamics: Option<Vec<DynamicsRecord>>,
    epsilon0: f64,
    termination: Option<Termination>,
}

impl std::fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("generation", &self.progress.generation)
            .field("evaluations", &self.progress.evaluations)
            .field("sigma", &self.dist.sigma)
            .finish_non_exhaustive()
    }
}

impl<'a> Session<'a> {
    fn new<P: ConstrainedProblem>(
        problem: &'a P,
        params: &'a Parameters,
        components: &'a mut Components,
    ) -> Result<Self, MaEsError> {
        let (n, lambda, mu) = (params.dim, params.lambda, params.mu);
        let k = problem.num_constraints();
        let expected_generations = params.budget / lambda + 2;
        Ok(Self {
            problem,
            params,
            components,
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
            sel: Selection {
                z: Array2::zeros((n, mu).f()),
                d: Array2::zeros((n, mu).f()),
                points: Array2::zeros((n, mu).f()),
                changed: vec![false; mu],
                z_w: Array1::zeros(n),
                d_w: Array1::zeros(n),
            },
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
                    snapshot: Snapshot::new(f64::NAN, f64::NAN).found_at(0),
                },
                resets: 0,
                incumbent: Incumbent::new(&params.checkpoints),
                dynamics: params.record_dynamics.then(|| {
                    Vec::with_capacity(expected_generations.min(params.max_generations + 2))
                }),
                epsilon0: 0.0,
                termination: None,
            },
        })
    }

    /// Evaluates the columns of `points`, fills `objectives`, `constraints`, `violations`.
    fn evaluate_population(&mut self) -> Result<(), MaEsError> {
        self.problem.evaluate_batch(
            self.pop.points.view(),
            self.pop.objectives.view_mut(),
            self.pop.constraints.view_mut(),
        )?;
        for (v, c) in self
            .pop
            .violations
            .iter_mut()
            .zip(self.pop.constraints.columns())
        {
            let c = c.as_slice().expect("column-major constraint matrix");
            *v = self.problem.mean_violation(c);
        }
        self.progress.evaluations += self.params.lambda;
        Ok(())
    }

    fn rank(&mut self) -> Result<(), MaEsError> {
        let objectives = self
            .pop
            .objectives
            .as_slice()
            .expect("contiguous objectives");
        let constraints = ConstraintValues {
            values: self.pop.constraints.view(),
            inequalities: self.problem.num_inequalities(),
            equality_margin: self.problem.equality_margin(),
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
                self.problem
                    .constraint_counts(&self.progress.best.constraints),
            )
            .found_at(self.progress.evaluations);
        self.progress.best.snapshot = snapshot;
        self.progress.incumbent.replace(snapshot);
    }

    fn initialize(&mut self, noise: &mut dyn NoiseSource) -> Result<(), MaEsError> {
        let lb = self.problem.lower_bounds();
        let ub = self.problem.upper_bounds();
        let points = self
            .pop
            .points
            .as_slice_memory_order_mut()
            .expect("column-major population");
        if let Some(x0) = &self.params.initial_mean {
            // Around x0: y = x0 + σ0 z, reflected into the box.
            noise.fill_normal(points);
            let sigma0 = self.params.sigma0;
            for col in points.chunks_exact_mut(x0.len().max(1)) {
                for (y, &m) in col.iter_mut().zip(x0) {
                    *y = m + sigma0 * *y;
                }
                keep_range(col, lb, ub)?;
            }
        } else {
            noise.fill_uniform(points);
            for mut col in self.pop.points.columns_mut() {
                for ((y, &l), &u) in col.iter_mut().zip(lb).zip(ub) {
                    *y = l + (u - l) * *y;
                }
            }
        }
        self.evaluate_population()?;
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
        Ok(())
    }

    /// Steps 1–3: sample, reflect, evaluate, repair.
    fn sample_and_evaluate(&mut self, noise: &mut dyn NoiseSource) -> Result<(), MaEsError> {
        noise.fill_normal(
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
        let lb = self.problem.lower_bounds();
        let ub = self.problem.upper_bounds();
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
        self.evaluate_population()?;
        let mut ctx = RepairContext {
            generation: self.progress.generation,
            problem: self.problem,
            noise,
            evaluations: &mut self.progress.evaluations,
        };
        for ((((cand, point), objective), constraints), (violation, changed)) in self
            .pop
            .candidates
            .columns()
            .into_iter()
            .zip(self.pop.points.columns_mut())
            .zip(self.pop.objectives.iter_mut())
            .zip(self.pop.constraints.columns_mut())
            .zip(
                self.pop
                    .violations
                    .iter_mut()
                    .zip(self.pop.changed.iter_mut()),
            )
        {
            self.components.repair.repair(
                &mut ctx,
                Offspring {
                    candidate: cand.to_slice().expect("column-major candidates"),
                    point: point.into_slice().expect("column-major population"),
                    objective,
                    constraints: constraints.into_slice().expect("column-major constraints"),
                    violation,
                    changed,
                },
            )?;
        }
        Ok(())
    }

    /// Steps 4–9: rank, select, back-calculate, recombine, adapt.
    fn select_and_adapt(&mut self) -> Result<(), MaEsError> {
        self.rank()?;
        let n = self.pop.z.nrows();
        for (m, &k) in self.pop.ranking[..self.params.mu].iter().enumerate() {
            for (to, from) in [
                (&mut self.sel.z, &self.pop.z),
                (&mut self.sel.d, &self.pop.d),
                (&mut self.sel.points, &self.pop.points),
            ] {
                let from = from
                    .as_slice_memory_order()
                    .expect("column-major population");
                to.as_slice_memory_order_mut()
                    .expect("column-major selection")[m * n..(m + 1) * n]
                    .copy_from_slice(&from[k * n..(k + 1) * n]);
            }
            self.sel.changed[m] = self.pop.changed[k];
        }
        self.components.back_calculation.back_calculate(Selected {
            m: self.dist.m.view(),
            parent: self.dist.parent.view(),
            sigma: self.dist.sigma,
            points: self.sel.points.view(),
            changed: &self.sel.changed,
            d: self.sel.d.view_mut(),
            z: self.sel.z.view_mut(),
        })?;
        let p = self.params;
        general_mat_vec_mul(1.0, &self.sel.z, &self.weights, 0.0, &mut self.sel.z_w);
        general_mat_vec_mul(1.0, &self.sel.d, &self.weights, 0.0, &mut self.sel.d_w);
        let sigma = self.dist.sigma;
        Zip::from(&mut self.dist.parent)
            .and(&self.sel.d_w)
            .for_each(|y, &d| *y += sigma * d);
        let cs = p.c_sigma;
        let path_factor = (cs * (2.0 - cs) * p.mu_eff).sqrt();
        Zip::from(&mut self.dist.p_sigma)
            .and(&self.sel.z_w)
            .for_each(|ps, &zw| *ps = (1.0 - cs) * *ps + path_factor * zw);
        let reset = self.components.adaptation.adapt(
            self.dist.m.view_mut(),
            self.dist.p_sigma.view_mut(),
            crate::adaptation::UpdateInput {
                d: self.sel.d.view(),
                z: self.sel.z.view(),
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

    /// Step 14: the checkpoints this generation reached, except those at or beyond
    /// the budget (the final one), which [`Session::finish`] takes.
    fn take_checkpoints(&mut self) {
        self.progress
            .incumbent
            .reach(self.progress.evaluations, self.params.budget);
    }

    fn record_dynamics(&mut self) {
        if let Some(dynamics) = &mut self.progress.dynamics {
            dynamics.push(DynamicsRecord {
                generation: self.progress.generation,
                evaluations: self.progress.evaluations,
                best: self.progress.best.snapshot.fitness,
                sigma: self.dist.sigma,
                best_norm: self.progress.best.norm(),
                epsilon: self.dist.epsilon,
            });
        }
    }

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
        }
    }

    /// Why the run has ended, once a generation met the stop criterion.
    #[must_use]
    pub fn termination(&self) -> Option<Termination> {
        self.progress.termination
    }

    /// One generation (REFERENCE.md §5 steps 1–14). Returns the termination reason
    /// if this generation met the budget or the generation limit (the generation is
    /// complete either way; stepping further continues the run past it).
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    pub fn step(&mut self, noise: &mut dyn NoiseSource) -> Result<Option<Termination>, MaEsError> {
        self.sample_and_evaluate(noise)?;
        self.select_and_adapt()?;
        self.update_best();
        // Step 11: stop after this generation (steps 12–14 still happen).
        let stop = if self.progress.evaluations >= self.params.budget {
            Some(Termination::Budget)
        } else if self.progress.generation >= self.params.max_generations {
            Some(Termination::GenerationLimit)
        } else {
            None
        };
        if self.progress.termination.is_none() {
            self.progress.termination = stop;
        }
        self.progress.generation += 1;
        self.dist.epsilon = self.components.schedule.epsilon(self.progress.generation);
        self.take_checkpoints();
        self.record_dynamics();
        Ok(stop)
    }

    /// The result of the run so far. Checkpoints not reached hold the final
    /// best-so-far.
    #[must_use]
    pub fn finish(self) -> RunResult {
        let (_, checkpoints) = self
            .progress
            .incumbent
            .into_parts(self.progress.evaluations);
        RunResult {
            best: self.progress.best,
            checkpoints,
            generations: self.progress.generation,
            evaluations: self.progress.evaluations,
            termination: self.progress.termination.unwrap_or(Termination::Budget),
            epsilon0: self.progress.epsilon0,
            sigma: self.dist.sigma,
            resets: self.progress.resets,
            dynamics: self.progress.dynamics,
        }
    }
}
