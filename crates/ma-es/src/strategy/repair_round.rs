//! The repair of one generation as rounds of requests (docs/algorithm.md §5, step 3.3): the
//! offspring chosen, their probes or Jacobians, their repaired points, step after step
//! and wave after wave, and SASS's repair of the best-so-far.

#![allow(clippy::wildcard_imports)]
use super::*;

/// The most probe coordinates (`N × N` per offspring) one request holds: 2²² numbers,
/// 32 MiB.
pub(super) const MAX_PROBE_ENTRIES: usize = 1 << 22;

/// The repair of one generation: the offspring chosen, those in the current step,
/// and the buffers of their requests (sized for every offspring once; only the first
/// columns are used and saved).
#[derive(Serialize, Deserialize)]
pub(super) struct RepairRound {
    /// The offspring chosen this generation, ascending.
    pub(super) chosen: Vec<usize>,
    /// How many of `chosen` have been started ([`Batching::Offspring`]).
    pub(super) started: usize,
    /// The offspring in the current step.
    pub(super) active: Vec<usize>,
    /// The current step (0 for the first).
    pub(super) step: usize,
    /// The offspring that holds the injected best-so-far, if any
    /// ([`Repair::best_steps`]).
    #[serde(default)]
    pub(super) best: Option<usize>,
    /// `N × (N · active)`: the probes.
    pub(super) probes: Vec<f64>,
    /// Scratch for the probes' `f`.
    pub(super) probe_objectives: Vec<f64>,
    /// `(l + m) × (N · active)`.
    pub(super) probe_constraints: Vec<f64>,
    /// `N × active`: the repaired points.
    pub(super) points: Vec<f64>,
    /// Their `f`.
    pub(super) objectives: Vec<f64>,
    /// `(l + m) × active`.
    pub(super) constraints: Vec<f64>,
    /// `(l + m) × (N · active)`: the Jacobians at the repaired points, when told with
    /// their values ([`Request::jacobians`]).
    #[serde(default)]
    pub(super) next_jacobians: Vec<f64>,
    /// The repaired points' Jacobians came with their values.
    #[serde(default)]
    pub(super) jacobians_ready: bool,
}

impl RepairRound {
    /// The most offspring one step asks for at once: all of λ, but no more than keep
    /// the probes within `MAX_PROBE_ENTRIES` numbers (a huge λ is repaired in waves).
    pub(super) fn wave(n: usize, lambda: usize) -> usize {
        (MAX_PROBE_ENTRIES / (n * n).max(1)).clamp(1, lambda.max(1))
    }

    pub(super) fn new(n: usize, k: usize, lambda: usize, steps: usize) -> Self {
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
    pub(super) fn size(&mut self, n: usize, k: usize) {
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

impl<N: NoiseSource> Strategy<N> {
    /// Sets up the next repair step (the probes it asks for), or completes the
    /// generation when no offspring needs one.
    pub(super) fn next_repair_step(&mut self) -> Result<Told, MaEsError> {
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
            return Ok(Told::Iteration(stop));
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
    pub(super) fn inject_best(&mut self) -> Option<usize> {
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
            .assign(&ndarray::ArrayView1::from(&best.x[..]));
        self.pop
            .constraints
            .column_mut(o)
            .assign(&ndarray::ArrayView1::from(&best.constraints[..]));
        self.pop.objectives[o] = best.snapshot.fitness.objective;
        self.pop.violations[o] = best.snapshot.fitness.violation;
        let candidate = self.pop.candidates.column(o);
        if best.x.iter().zip(candidate).any(|(a, b)| a != b) {
            self.pop.changed[o] = true;
        }
        if let Err(at) = self.repair.chosen.binary_search(&o) {
            self.repair.chosen.insert(at, o);
        }
        Some(o)
    }

    /// The repaired points from the probes' values, reflected into the box.
    pub(super) fn repair_step(&mut self) -> Result<(), MaEsError> {
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
    pub(super) fn take_repaired(&mut self) {
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
}

/// Whether an offspring of mean violation `v` gets another repair step: it is
/// infeasible (a NaN `ν̄` is not repaired).
pub(super) fn needs_repair(v: f64) -> bool {
    !v.is_nan() && v > 0.0
}
