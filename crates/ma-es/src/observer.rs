//! Observers: a hook called after the initialisation and after every generation, for
//! logging, progress, custom stopping rules, or embedding the strategy in other tools.

use crate::result::BestSoFar;
use ndarray::ArrayView2;
use std::ops::ControlFlow;

/// The strategy's state after a generation (or after the initialisation, `generation = 0`).
#[derive(Debug)]
pub struct GenerationReport<'a> {
    /// Generations done.
    pub generation: usize,
    /// Evaluations consumed.
    pub evaluations: usize,
    /// The mutation strength `σ`.
    pub sigma: f64,
    /// The threshold the next generation will rank with.
    pub epsilon: f64,
    /// The parent `ȳ`.
    pub parent: &'a [f64],
    /// The search path `p_σ`.
    pub p_sigma: &'a [f64],
    /// The transformation matrix `M`.
    pub m: ArrayView2<'a, f64>,
    /// The best-so-far solution.
    pub best: &'a BestSoFar,
    /// The objective values of the generation's offspring (after the initialisation:
    /// of the initial population).
    pub objectives: &'a [f64],
    /// Their mean constraint violations `ν̄`, in the same order.
    pub violations: &'a [f64],
}

/// Called after the initialisation and after each generation; returning
/// `ControlFlow::Break(())` ends the run (termination `Observer`).
///
/// Closures `FnMut(&GenerationReport) -> ControlFlow<()>` are observers:
///
/// ```
/// use ma_es::observer::{GenerationReport, Observer};
/// use std::ops::ControlFlow;
/// let mut sigmas = Vec::new();
/// let mut obs = |r: &GenerationReport| {
///     sigmas.push(r.sigma);
///     if r.generation >= 10 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// };
/// # let _: &mut dyn Observer = &mut obs;
/// ```
pub trait Observer {
    /// Looks at the state.
    fn observe(&mut self, report: &GenerationReport<'_>) -> ControlFlow<()>;
}

/// The observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn observe(&mut self, _report: &GenerationReport<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<F: FnMut(&GenerationReport<'_>) -> ControlFlow<()>> Observer for F {
    fn observe(&mut self, report: &GenerationReport<'_>) -> ControlFlow<()> {
        self(report)
    }
}
