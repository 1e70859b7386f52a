//! The repair component (docs/algorithm.md §5, generation step 3.3).
//!
//! [`PeriodicRepair`] is the εMAg-ES rule: only in generations with `g mod N = 0`, each
//! offspring draws one uniform `u` (no draw in other generations); if `u ≤ θ_p`, it is
//! repaired at most `θ_r` times while `ν̄ > 0`: `ŷ ← keep_range(repair(ŷ))`, evaluate,
//! charge `N + 1` evaluations, and mark the offspring as changed if `ŷ ≠ y`.
//! [`NoRepair`] draws nothing and changes nothing.
//!
//! A repair is split at its evaluations, so that a run driven by ask and tell
//! ([`crate::strategy::Strategy`]) can hand them out in batches: the component
//! [chooses](Repair::choose) the offspring it will repair this generation (and draws its
//! random numbers then, in offspring order); each repair step asks for the
//! [probe points](Repair::probe_points) of its Jacobian (constraints only) — or, when the
//! problem offers its exact Jacobian ([`JacobianSource::Exact`]), for the Jacobian at
//! the offspring — computes the [repaired point](Repair::step) from their values, and
//! the strategy has that point evaluated. The strategy repeats steps while an offspring stays infeasible, up to
//! [`Repair::max_steps`]. Which offspring are repaired, and every value they end with,
//! do not depend on how the evaluations are batched.

use crate::error::MaEsError;
use crate::noise::NoiseSource;
use constraint_handling::levenberg_marquardt::{
    LevenbergMarquardt, LevenbergMarquardtParams, Scaling, Solve,
};
use constraint_handling::problem::{JacobianSource, ProblemShape};
use constraint_handling::repair::{
    forward_difference_jacobian, forward_difference_probes, GradientRepair, RepairParams,
};
use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder};
use serde::{Deserialize, Serialize};
use std::any::Any;

/// What a repair component sees when it chooses the offspring of a generation.
pub struct Choice<'a> {
    /// The generation counter `g` (0 for the first generation).
    pub generation: usize,
    /// The dimension `N`.
    pub dim: usize,
    /// The offspring's mean violations `ν̄` after their evaluation.
    pub violations: &'a [f64],
    /// The noise source (for the repair decision).
    pub noise: &'a mut dyn NoiseSource,
}

/// A repair component.
pub trait Repair: Any + Send {
    /// Writes into `chosen` (cleared first) the offspring to be repaired this
    /// generation, in ascending order. Called once per generation, after the
    /// population's evaluation; any random numbers are drawn here.
    fn choose(&mut self, choice: Choice<'_>, chosen: &mut Vec<usize>);

    /// The most repair steps per offspring and generation (`θ_r`).
    fn max_steps(&self) -> usize;

    /// Whether the best-so-far point, when it is infeasible, is repaired too in a
    /// generation where `chosen` is not empty (SASS's rule: only in dimension 20 and
    /// more, on problems with equalities). The strategy then puts it in place of the
    /// offspring with the largest violation, at no evaluation (its values are known),
    /// and repairs it with the chosen ones. No by default.
    fn repairs_best(&self) -> bool {
        false
    }

    /// The most repair steps of the injected best-so-far ([`Repair::repairs_best`]):
    /// [`Repair::max_steps`] by default.
    fn best_steps(&self) -> usize {
        self.max_steps()
    }

    /// The evaluations charged for step `step` (0 for the first) of an offspring's
    /// repair in dimension `dim` with Jacobians from `source`: with the exact Jacobian
    /// a further step's Jacobian is counted with the previous repaired point's values
    /// ([`crate::strategy::RequestKind::Jacobians`]).
    fn cost(&self, dim: usize, source: JacobianSource, step: usize) -> usize;

    /// The probe points of one step at `x` (whose constraints only are evaluated), one
    /// per column of `probes` (`N × N`), when the Jacobian comes from differences.
    fn probe_points(&self, x: &[f64], probes: ArrayViewMut2<'_, f64>);

    /// One repair step: from `x`, `C(x)` and the derivatives (the probes' constraint
    /// values or the exact Jacobian), writes the repaired point into `repaired`
    /// (before it is reflected into the box).
    ///
    /// # Errors
    /// [`MaEsError::Repair`] if the step cannot be set up.
    fn step(
        &mut self,
        shape: &ProblemShape,
        x: &[f64],
        constraints: &[f64],
        derivatives: Derivatives<'_>,
        repaired: &mut [f64],
    ) -> Result<(), MaEsError>;
}

/// The derivatives of the constraints at the point a repair step starts from.
#[derive(Clone, Copy, Debug)]
pub enum Derivatives<'a> {
    /// The probes' constraint values, `(l + m) × N`: column `i` is `C(x + η e_i)`
    /// ([`JacobianSource::Differences`]).
    Probes(ArrayView2<'a, f64>),
    /// The problem's Jacobian `∂C/∂x` at `x`, `(l + m) × N`
    /// ([`JacobianSource::Exact`]).
    Jacobian(ArrayView2<'a, f64>),
}

/// No repair (the εMA-ES and lexMA-ES variants): draws no uniform.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct NoRepair;

impl Repair for NoRepair {
    fn choose(&mut self, _choice: Choice<'_>, chosen: &mut Vec<usize>) {
        chosen.clear();
    }

    fn max_steps(&self) -> usize {
        0
    }

    fn cost(&self, _dim: usize, _source: JacobianSource, _step: usize) -> usize {
        0
    }

    fn probe_points(&self, _x: &[f64], _probes: ArrayViewMut2<'_, f64>) {}

    fn step(
        &mut self,
        _shape: &ProblemShape,
        x: &[f64],
        _constraints: &[f64],
        _derivatives: Derivatives<'_>,
        repaired: &mut [f64],
    ) -> Result<(), MaEsError> {
        repaired.copy_from_slice(x);
        Ok(())
    }
}

/// The charge of repair step `step` (see [`Repair::cost`]).
fn step_cost(dim: usize, source: JacobianSource, step: usize) -> usize {
    if step == 0 {
        GradientRepair::cost(dim, source)
    } else {
        GradientRepair::cost_of_further_step(dim, source)
    }
}

/// The εMAg-ES repair rule: gradient repair every `N` generations with probability
/// `θ_p` per offspring, at most `θ_r` steps while infeasible.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "PeriodicRepairParams", try_from = "PeriodicRepairParams")]
pub struct PeriodicRepair {
    repair: GradientRepair,
    probability: f64,
    repetitions: usize,
}

/// What a [`PeriodicRepair`] is made of (its serialised form: it has no other state).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct PeriodicRepairParams {
    probability: f64,
    repetitions: usize,
    params: RepairParams,
}

impl From<PeriodicRepair> for PeriodicRepairParams {
    fn from(r: PeriodicRepair) -> Self {
        Self {
            probability: r.probability,
            repetitions: r.repetitions,
            params: *r.repair.params(),
        }
    }
}

impl TryFrom<PeriodicRepairParams> for PeriodicRepair {
    type Error = MaEsError;
    fn try_from(p: PeriodicRepairParams) -> Result<Self, MaEsError> {
        Self::new(p.probability, p.repetitions, p.params)
    }
}

impl PeriodicRepair {
    /// The rule with repair probability `θ_p`, at most `θ_r` repetitions, and the
    /// gradient repair's `η` and pseudo-inverse cutoff.
    ///
    /// # Errors
    /// [`MaEsError::Repair`] for an invalid `η` or cutoff.
    pub fn new(
        probability: f64,
        repetitions: usize,
        params: RepairParams,
    ) -> Result<Self, MaEsError> {
        Ok(Self {
            repair: GradientRepair::new(params)?,
            probability,
            repetitions,
        })
    }
}

impl Repair for PeriodicRepair {
    fn choose(&mut self, choice: Choice<'_>, chosen: &mut Vec<usize>) {
        chosen.clear();
        let n = choice.dim;
        if n == 0 || !choice.generation.is_multiple_of(n) {
            return;
        }
        for k in 0..choice.violations.len() {
            if choice.noise.uniform() <= self.probability {
                chosen.push(k);
            }
        }
    }

    fn max_steps(&self) -> usize {
        self.repetitions
    }

    fn cost(&self, dim: usize, source: JacobianSource, step: usize) -> usize {
        step_cost(dim, source, step)
    }

    fn probe_points(&self, x: &[f64], probes: ArrayViewMut2<'_, f64>) {
        self.repair.probe_points(x, probes);
    }

    fn step(
        &mut self,
        shape: &ProblemShape,
        x: &[f64],
        constraints: &[f64],
        derivatives: Derivatives<'_>,
        repaired: &mut [f64],
    ) -> Result<(), MaEsError> {
        let l = shape.inequalities;
        match derivatives {
            Derivatives::Probes(p) => self.repair.step_from_probes(l, x, constraints, p, repaired),
            Derivatives::Jacobian(j) => {
                self.repair
                    .step_from_jacobian(l, x, constraints, j, repaired)
            }
        }?;
        Ok(())
    }
}

/// The Levenberg–Marquardt repair on the slack system
/// ([`constraint_handling::levenberg_marquardt`], the repair of the CEC2020 entries SASS
/// and sCMAgES): every `frequency` generations (every `N` by default), each offspring
/// with probability `probability` is repaired by at most `iterations` iterations while
/// infeasible. Each iteration asks for the Jacobian at its point (its `N` difference
/// probes, or the problem's exact Jacobian) and evaluates the new point: `N + 1`
/// evaluations with differences; with the exact Jacobian 2 for the first iteration and
/// 1 for each further one (the Jacobian at a new point counts with its values), so `t`
/// iterations cost `t + 1`, as SASS counts them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "LmRepairParams", try_from = "LmRepairParams")]
pub struct LevenbergMarquardtRepair {
    settings: LmSettings,
    eta: f64,
    lm: LevenbergMarquardt,
    /// The Jacobian from the probes' values (scratch).
    jacobian: Vec<f64>,
}

/// What a [`LevenbergMarquardtRepair`] is made of (its serialised form).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct LmRepairParams {
    settings: LmSettings,
    eta: f64,
}

impl From<LevenbergMarquardtRepair> for LmRepairParams {
    fn from(r: LevenbergMarquardtRepair) -> Self {
        Self {
            settings: r.settings,
            eta: r.eta,
        }
    }
}

impl TryFrom<LmRepairParams> for LevenbergMarquardtRepair {
    type Error = MaEsError;
    fn try_from(p: LmRepairParams) -> Result<Self, MaEsError> {
        Self::new(p.settings, p.eta)
    }
}

impl LevenbergMarquardtRepair {
    /// The repair with these settings and the difference step `η`.
    ///
    /// # Errors
    /// [`MaEsError::Repair`] for an `η` that is not finite and positive, a probability
    /// above 100 % or no iterations.
    pub fn new(settings: LmSettings, eta: f64) -> Result<Self, MaEsError> {
        if !(eta.is_finite() && eta > 0.0) || settings.probability > 100 || settings.iterations == 0
        {
            return Err(
                constraint_handling::repair::RepairError::InvalidParameter(format!(
                    "Levenberg–Marquardt repair: η = {eta}, probability {} %, {} iterations",
                    settings.probability, settings.iterations
                ))
                .into(),
            );
        }
        Ok(Self {
            settings,
            eta,
            lm: LevenbergMarquardt::new(LevenbergMarquardtParams {
                iterations: settings.iterations as usize,
                eta,
                scaling: settings.scaling,
                solve: settings.solve,
            }),
            jacobian: Vec::new(),
        })
    }
}

impl Repair for LevenbergMarquardtRepair {
    fn choose(&mut self, choice: Choice<'_>, chosen: &mut Vec<usize>) {
        chosen.clear();
        let every = self.settings.frequency.map_or(choice.dim, |g| g as usize);
        if every == 0 || !choice.generation.is_multiple_of(every) {
            return;
        }
        let p = f64::from(self.settings.probability) / 100.0;
        for k in 0..choice.violations.len() {
            if choice.noise.uniform() <= p {
                chosen.push(k);
            }
        }
    }

    fn max_steps(&self) -> usize {
        self.settings.iterations as usize
    }

    fn repairs_best(&self) -> bool {
        self.settings.best
    }

    fn best_steps(&self) -> usize {
        self.settings
            .best_iterations
            .unwrap_or(self.settings.iterations) as usize
    }

    fn cost(&self, dim: usize, source: JacobianSource, step: usize) -> usize {
        step_cost(dim, source, step)
    }

    fn probe_points(&self, x: &[f64], probes: ArrayViewMut2<'_, f64>) {
        forward_difference_probes(x, self.eta, probes);
    }

    fn step(
        &mut self,
        shape: &ProblemShape,
        x: &[f64],
        constraints: &[f64],
        derivatives: Derivatives<'_>,
        repaired: &mut [f64],
    ) -> Result<(), MaEsError> {
        let (n, k) = (x.len(), constraints.len());
        let (lower, upper) = (&shape.lower, &shape.upper);
        let l = shape.inequalities;
        match derivatives {
            Derivatives::Jacobian(j) => {
                self.lm.step(l, lower, upper, x, constraints, j, repaired)?;
            }
            Derivatives::Probes(p) => {
                self.jacobian.resize(k * n, 0.0);
                let mut j = ArrayViewMut2::from_shape((k, n).f(), &mut self.jacobian)
                    .expect("a k × N Jacobian");
                forward_difference_jacobian(constraints, p, self.eta, j.view_mut());
                self.lm
                    .step(l, lower, upper, x, constraints, j.view(), repaired)?;
            }
        }
        Ok(())
    }
}

/// The Levenberg–Marquardt repair's settings (SASS's by default): every `frequency`
/// generations (`None`: every `N`), each offspring with probability `probability` %,
/// at most `iterations` iterations while infeasible; with `best`, the infeasible
/// best-so-far too in those generations (in dimension 20 and more, on problems with
/// equalities: SASS's rule; [`Repair::repairs_best`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LmSettings {
    /// Generations between repair generations (`None`: the dimension `N`).
    pub frequency: Option<u32>,
    /// The probability of repair per offspring, in per cent.
    pub probability: u8,
    /// The most iterations per offspring.
    pub iterations: u32,
    /// Whether the infeasible best-so-far is repaired too ([`Repair::repairs_best`]).
    pub best: bool,
    /// The most iterations for the best-so-far (`None`: `iterations`).
    pub best_iterations: Option<u32>,
    /// The units of the step ([`Scaling`]; SASS's: the variables' own).
    pub scaling: Scaling,
    /// How the step's linear system is solved ([`Solve`]; the slacks eliminated by
    /// default, the whole slack system to replay the studies run before).
    pub solve: Solve,
}

impl Default for LmSettings {
    fn default() -> Self {
        Self {
            frequency: None,
            probability: 20,
            iterations: 4,
            best: false,
            best_iterations: None,
            scaling: Scaling::None,
            solve: Solve::Reduced,
        }
    }
}
