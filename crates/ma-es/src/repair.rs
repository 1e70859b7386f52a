//! The repair component (REFERENCE.md §5, generation step 3.3).
//!
//! [`PeriodicRepair`] is the εMAg-ES rule: only in generations with `g mod N = 0`, each
//! offspring draws one uniform `u` (no draw in other generations); if `u ≤ θ_p`, it is
//! repaired at most `θ_r` times while `ν̄ > 0`: `ŷ ← keep_range(repair(ŷ))`, evaluate,
//! charge `N + 1` evaluations, and mark the offspring as changed if `ŷ ≠ y`.
//! [`NoRepair`] draws nothing and changes nothing.

use crate::noise::NoiseSource;
use crate::MaEsError;
use constraint_handling::reflection::keep_range;
use constraint_handling::repair::{GradientRepair, RepairParams};
use constraint_handling::ConstrainedProblem;

/// One offspring after its evaluation, as the repair sees it.
pub struct Offspring<'a> {
    /// The sampled candidate `y_k = ȳ + σ d_k` (before reflection).
    pub candidate: &'a [f64],
    /// The evaluated point `ŷ` (reflected into the box); updated in place.
    pub point: &'a mut [f64],
    /// `f(ŷ)`.
    pub objective: &'a mut f64,
    /// `C(ŷ) = (g, h)`.
    pub constraints: &'a mut [f64],
    /// `ν̄(ŷ)`.
    pub violation: &'a mut f64,
    /// Whether `ŷ ≠ y_k`.
    pub changed: &'a mut bool,
}

/// What a repair component may use.
pub struct RepairContext<'a> {
    /// The generation counter `g` (0 for the first generation).
    pub generation: usize,
    /// The problem.
    pub problem: &'a dyn ConstrainedProblem,
    /// The noise source (for the repair decision).
    pub noise: &'a mut dyn NoiseSource,
    /// The evaluation counter, to be increased by what the repair charges.
    pub evaluations: &'a mut usize,
}

/// A repair component.
pub trait Repair: Send {
    /// Possibly repairs `offspring` in place; charges its evaluations to the context.
    ///
    /// # Errors
    /// Evaluation failures of the problem.
    fn repair(
        &mut self,
        ctx: &mut RepairContext<'_>,
        offspring: Offspring<'_>,
    ) -> Result<(), MaEsError>;
}

/// No repair (the εMA-ES and lexMA-ES variants): draws no uniform.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRepair;

impl Repair for NoRepair {
    fn repair(
        &mut self,
        _ctx: &mut RepairContext<'_>,
        _offspring: Offspring<'_>,
    ) -> Result<(), MaEsError> {
        Ok(())
    }
}

/// The εMAg-ES repair rule: gradient repair every `N` generations with probability
/// `θ_p` per offspring, at most `θ_r` steps while infeasible.
#[derive(Clone, Debug)]
pub struct PeriodicRepair {
    repair: GradientRepair,
    probability: f64,
    repetitions: usize,
    scratch: Vec<f64>,
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
            scratch: Vec::new(),
        })
    }
}

impl Repair for PeriodicRepair {
    fn repair(&mut self, ctx: &mut RepairContext<'_>, o: Offspring<'_>) -> Result<(), MaEsError> {
        let problem = ctx.problem;
        let n = problem.dim();
        if n == 0 || !ctx.generation.is_multiple_of(n) {
            return Ok(());
        }
        let u = ctx.noise.uniform();
        if u > self.probability {
            return Ok(());
        }
        self.scratch.resize(n, 0.0); // allocates on the first call only
        for _ in 0..self.repetitions {
            if o.violation.is_nan() || *o.violation <= 0.0 {
                break;
            }
            self.repair
                .step(problem, o.point, o.constraints, &mut self.scratch)?;
            o.point.copy_from_slice(&self.scratch);
            keep_range(o.point, problem.lower_bounds(), problem.upper_bounds())?;
            *o.objective = problem.evaluate(o.point, o.constraints)?;
            *o.violation = problem.mean_violation(o.constraints);
            *ctx.evaluations += GradientRepair::cost(n);
            if o.point.iter().zip(o.candidate).any(|(a, b)| a != b) {
                *o.changed = true;
            }
        }
        Ok(())
    }
}
