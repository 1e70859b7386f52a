//! What a portfolio is made of ([`PortfolioSettings`]) and the rules its rounds follow.

use crate::error::Error;
#[cfg(doc)]
use crate::portfolio::Portfolio;
use constraint_handling::ordering::{improves_best_so_far, improves_best_so_far_nan_last};
use constraint_handling::problem::ProblemShape;
use constraint_handling::Fitness;
use local_phase::sqp::{Sqp, SqpSettings};
use ma_es::ComponentSpec;
use serde::{Deserialize, Serialize};

/// Whether `candidate` replaces `best` in the portfolio's record:
/// [`improves_best_so_far`], or with `nan_last` [`improves_best_so_far_nan_last`]
/// ([`PortfolioSettings::nan_last`]).
pub(crate) fn improves_record(candidate: &Fitness, best: &Fitness, nan_last: bool) -> bool {
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
    /// The local phase's settings: [`SqpSettings::default`] with an accuracy of
    /// `10⁻¹²` ([`SqpSettings::accuracy`]: the back-off scaled down at the end), a
    /// decrease tolerance of `10⁻¹²` ([`SqpSettings::decrease_tolerance`]), the
    /// second-order correction ([`SqpSettings::second_order_correction`]) and speculative
    /// probes ([`SqpSettings::speculative_probes`]).
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
    /// A run of the local phase ends at the best point when its `f` is within
    /// `confirm_tolerance · max(1, |f|)` of the best's (and its `ν̄` within `10⁻¹⁰`):
    /// `10⁻⁸` by default (pycma's `tolfun` for the portfolio). A run that ends lower than
    /// the best point by no more than that (at least `10⁻⁸`) confirms it too, rather
    /// than starting the count again ([`clearly_better_by`]): with a local phase that
    /// stops coarsely ([`SqpSettings::step_tolerance`]), its runs end that far apart.
    pub confirm_tolerance: f64,
    /// Whether a point whose violation is a number replaces a best-so-far whose
    /// violation is NaN (on by default). Off, the reference's rule alone
    /// ([`improves_best_so_far`]: `NaN < ν̄` is false) keeps a NaN first point to the
    /// end, as on the CEC2020 power-system problems RC34–RC43, whose constraints are
    /// NaN at the box centre. A best can only be NaN if the first point was, so no
    /// other run depends on this setting.
    pub nan_last: bool,
    /// `σ0` of each round's ES run (its [`Config::sigma0`](ma_es::Config); `None`: the
    /// ES's default, 1). The runs start uniformly in the box, as the reference does.
    pub sigma0: Option<f64>,
    /// Stop once the best point is feasible with `f ≤ target` (pycma's `ftarget`,
    /// the ES's [`Convergence::target`](ma_es::control::Convergence)); `None`, the
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
    /// Whether a restart of the local phase starts from the curvature model `B` the run
    /// before it learned ([`Sqp::with_curvature_of`]) instead of the identity, where that
    /// run ended at the best point (the curvature of the best basin, never of another
    /// local optimum's); a round's polishing run likewise from the run before the
    /// round's ES, where the ES found nothing better (a saved run without the field
    /// reads as off).
    #[serde(default)]
    pub warm_curvature: bool,
    /// Whether the run also stops by the patience rule: once at least two runs of the
    /// local phase, and at least half of the runs that ended, ended at the best point
    /// (the landscape looks unimodal), and the confirmations still wanted, each as long
    /// as the runs so far on average, would take more than `100 N` evaluations and end
    /// after `e + max(2 e, 100 N)`, `e` the evaluation at which the best point last
    /// improved clearly. Where each run of the local phase costs about as much as
    /// finding the optimum did (`N` beyond about 20), five confirmations would cost
    /// five times the answer (off: [`PortfolioSettings::confirmations`] alone; a saved
    /// run without the field reads as off).
    #[serde(default)]
    pub patience: bool,
    /// Whether a restart of the local phase ends, confirming, as soon as its best point
    /// matches the best point found before it started (as a run that ended there
    /// confirms it), instead of converging all the way first (a saved run without the
    /// field reads as off).
    #[serde(default)]
    pub confirm_early: bool,
}

impl PortfolioSettings {
    /// Checks that these settings can run, naming the first field that cannot: a
    /// positive `es_budget_per_dim`, shares in `[0, 1]`, a finite positive `sigma0`, a
    /// target that is a number, and local-phase settings the local phase takes.
    ///
    /// # Errors
    /// [`Error::Settings`] naming the field.
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |text: String| Err(Error::Settings(text));
        if self.es_budget_per_dim == 0 {
            return invalid("es_budget_per_dim must be positive, not 0".into());
        }
        if let Some(sigma0) = self.sigma0 {
            if !(sigma0.is_finite() && sigma0 > 0.0) {
                return invalid(format!(
                    "sigma0 must be a finite positive number, not {sigma0}"
                ));
            }
        }
        let tolerance = self.confirm_tolerance;
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return invalid(format!(
                "confirm_tolerance must be a number >= 0, not {tolerance}"
            ));
        }
        if self.target.is_some_and(f64::is_nan) {
            return invalid("target must be a number, not NaN".into());
        }
        for (name, w) in [
            ("initial_share", self.initial_share),
            ("max_share", self.max_share),
        ] {
            if !(0.0..=1.0).contains(&w) {
                return invalid(format!("{name} must be in [0, 1], not {w}"));
            }
        }
        let shape = ProblemShape::new(vec![0.0], vec![1.0], 0, 0)?;
        Sqp::new(shape, &[0.5], self.sqp.clone())?;
        Ok(())
    }

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
            sqp: SqpSettings {
                accuracy: Some(1e-12),
                decrease_tolerance: 1e-12,
                second_order_correction: true,
                speculative_probes: true,
                ..SqpSettings::default()
            },
            es: ComponentSpec::recommended(),
            es_budget_per_dim: 2000,
            initial_share: 0.25,
            max_share: 0.5,
            confirmations: 5,
            confirm_tolerance: 1e-8,
            nan_last: true,
            sigma0: None,
            target: None,
            bound_local_runs: false,
            warm_curvature: true,
            patience: true,
            confirm_early: true,
        }
    }
}

/// Whether `after` improves on `before` by more than rounding: a lower `ν̄` where
/// `before` was infeasible (by a factor `1 − 10⁻⁸`), or, both feasible, `f` lower by
/// `10⁻⁸ · max(1, |f|)`; anything improves on nothing ([`clearly_better_by`] with
/// `10⁻⁸`).
///
/// ```
/// use constraint_handling::Fitness;
/// use emages::portfolio::clearly_better;
/// let best = Some(Fitness::new(1.0, 0.0));
/// assert!(clearly_better(Some(Fitness::new(0.9, 0.0)), best));
/// assert!(!clearly_better(Some(Fitness::new(1.0 - 1e-12, 0.0)), best));
/// assert!(!clearly_better(Some(Fitness::new(-5.0, 0.1)), best));
/// assert!(clearly_better(best, None));
/// ```
#[must_use]
pub fn clearly_better(after: Option<Fitness>, before: Option<Fitness>) -> bool {
    clearly_better_by(after, before, 1e-8)
}

/// Whether `after` improves on `before` by more than `tolerance`: a lower `ν̄` where
/// `before` was infeasible (by a factor `1 − 10⁻⁸`), or, both feasible, `f` lower by
/// `tolerance · max(1, |f|)`; anything improves on nothing. The confirmations count a
/// run that ends lower than the best point by no more than
/// [`PortfolioSettings::confirm_tolerance`] (at least `10⁻⁸`) as one more that ended
/// there, not as a new best point.
///
/// ```
/// use constraint_handling::Fitness;
/// use emages::portfolio::clearly_better_by;
/// let best = Some(Fitness::new(-44.0, 0.0));
/// let lower = Some(Fitness::new(-44.0 - 1e-4, 0.0));
/// assert!(clearly_better_by(lower, best, 1e-8));
/// assert!(!clearly_better_by(lower, best, 1e-4));
/// assert!(!clearly_better_by(Some(Fitness::new(-50.0, 1e-3)), best, 1e-4));
/// ```
#[must_use]
pub fn clearly_better_by(after: Option<Fitness>, before: Option<Fitness>, tolerance: f64) -> bool {
    match (after, before) {
        (Some(a), Some(b)) => {
            if b.violation > 0.0 {
                a.violation < b.violation * (1.0 - 1e-8)
            } else {
                a.violation == 0.0
                    && a.objective < b.objective - tolerance * b.objective.abs().max(1.0)
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
