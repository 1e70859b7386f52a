//! Why a run ended: one table for every solver, every driver and Python's `status`.

use serde::{Deserialize, Serialize};

/// Why a run ended.
///
/// Every variant says why: the run reached a limit ([`Termination::Budget`],
/// [`Termination::GenerationLimit`]), was stopped ([`Termination::Stopped`]), converged
/// by a measure named in the variant, reached its target, or could go no further
/// ([`Termination::Infeasible`], [`Termination::Stalled`], [`Termination::NotFinite`]).
/// [`Termination::name`] is the word users read (Python's `termination`),
/// [`Termination::status`] scipy's `status`, [`Termination::message`] the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Termination {
    /// The evaluation budget is spent: the next request would not fit into it.
    Budget,
    /// The generation (iteration) limit was reached.
    GenerationLimit,
    /// The caller or an observer stopped the run.
    #[serde(alias = "observer")]
    Stopped,
    /// Converged: the offspring's `f` and `ν̄` and the recent generations' lowest lay
    /// within `tol_fun` (the ES's convergence criteria).
    TolFun,
    /// Converged: every coordinate's step `σ √((M Mᵀ)_ii)` fell below `tol_x`.
    TolX,
    /// The best-so-far did not improve for the `stagnation` window.
    Stagnation,
    /// A feasible best-so-far reached the target value.
    Target,
    /// Converged: restarts ended at the best point found so far again (an ES's restart
    /// within `tol_fun`; the portfolio's runs of the local phase, as many in a row as
    /// its `confirmations`).
    Confirmed,
    /// Converged: the local phase's step became negligible at a KKT point of its
    /// model (to the accuracy of its difference gradients).
    Converged,
    /// No feasible point: the run ended at a local minimum of the violation (the local
    /// phase's step became negligible while its linearised constraints had no common
    /// point), or it converged on an infeasible best point.
    Infeasible,
    /// No step made progress: the local phase's line search failed twice (the second
    /// time after resetting its curvature model) or its quadratic program could not be
    /// solved; an ES run of a restart sequence stalled by the sequence's stall rule.
    Stalled,
    /// A value the run needs was not finite (`f` or `C` at the start, or in a
    /// gradient's probes).
    NotFinite,
}

impl Termination {
    /// Every reason, in the order of the enum.
    pub const ALL: [Termination; 12] = [
        Self::Budget,
        Self::GenerationLimit,
        Self::Stopped,
        Self::TolFun,
        Self::TolX,
        Self::Stagnation,
        Self::Target,
        Self::Confirmed,
        Self::Converged,
        Self::Infeasible,
        Self::Stalled,
        Self::NotFinite,
    ];

    /// The reason's name where users read it (Python's `termination`, reports): the
    /// one table of these names.
    ///
    /// ```
    /// use emages_solver::Termination;
    /// assert_eq!(Termination::GenerationLimit.name(), "generation limit");
    /// assert_eq!(Termination::Stopped.name(), "stopped");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Budget => "budget",
            Self::GenerationLimit => "generation limit",
            Self::Stopped => "stopped",
            Self::TolFun => "tol_fun",
            Self::TolX => "tol_x",
            Self::Stagnation => "stagnation",
            Self::Target => "target",
            Self::Confirmed => "confirmed",
            Self::Converged => "converged",
            Self::Infeasible => "infeasible",
            Self::Stalled => "stalled",
            Self::NotFinite => "not finite",
        }
    }

    /// The reason as a sentence (scipy's `message`).
    #[must_use]
    pub fn message(self) -> &'static str {
        match self {
            Self::Budget => "The evaluation budget is spent.",
            Self::GenerationLimit => "The generation limit (maxiter) is reached.",
            Self::Stopped => {
                "Stopped by the caller (a callback's StopIteration, an observer, or stop())."
            }
            Self::TolFun => "Converged: the objective and the violation changed less than tol_fun.",
            Self::TolX => "Converged: every coordinate's step fell below tol_x.",
            Self::Stagnation => "Converged: no improvement within the stagnation window.",
            Self::Target => "Stopped at the target: a feasible point with fun <= target.",
            Self::Confirmed => "Converged: restarts ended at the best point found again (the portfolio: its local phase's last runs).",
            Self::Converged => {
                "Converged: the local phase's step became negligible at a KKT point of its model."
            }
            Self::Infeasible => {
                "No feasible point was found: the run ended at a local minimum of the violation."
            }
            Self::Stalled => "Stalled: no step made progress.",
            Self::NotFinite => "A value the run needs was not finite.",
        }
    }

    /// scipy's `status` of a run that ended so: 0 converged (or reached its target), 1
    /// at a limit, 2 stopped by the caller, 3 no feasible point, 4 stalled, 5 a value
    /// not finite.
    #[must_use]
    pub fn status(self) -> u8 {
        match self {
            _ if self.is_convergence() => 0,
            Self::Stopped => 2,
            Self::Infeasible => 3,
            Self::Stalled => 4,
            Self::NotFinite => 5,
            _ => 1,
        }
    }

    /// Whether the run stopped because it converged or reached its target (not at a
    /// limit, not by a caller, not for want of progress).
    #[must_use]
    pub fn is_convergence(self) -> bool {
        matches!(
            self,
            Self::TolFun
                | Self::TolX
                | Self::Stagnation
                | Self::Target
                | Self::Confirmed
                | Self::Converged
        )
    }

    /// The reason of a run that ended so with this best point: a convergence on an
    /// infeasible point is [`Termination::Infeasible`] (a run that never found a
    /// feasible point is never reported converged); every other reason is itself.
    ///
    /// ```
    /// use emages_solver::Termination;
    /// assert_eq!(Termination::Confirmed.given_feasibility(false), Termination::Infeasible);
    /// assert_eq!(Termination::Confirmed.given_feasibility(true), Termination::Confirmed);
    /// assert_eq!(Termination::Budget.given_feasibility(false), Termination::Budget);
    /// ```
    #[must_use]
    pub fn given_feasibility(self, feasible: bool) -> Self {
        if self.is_convergence() && !feasible {
            Self::Infeasible
        } else {
            self
        }
    }
}

/// A run that has not ended, as a result read midway shows it: the name, scipy's
/// `status` (−1: no end yet) and the sentence (Python's `termination`, `status` and
/// `message` before `ask()` returns `None`). Not a [`Termination`]: a run in progress
/// has none.
pub const IN_PROGRESS: (&str, i8, &str) = (
    "running",
    -1,
    "The run is in progress: this is the best point so far.",
);

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names, statuses and serde words are one table: distinct names, every
    /// variant listed once, and the serde word of the caller's stop still reads the
    /// word the records of earlier versions hold.
    #[test]
    fn one_table() {
        let names: std::collections::BTreeSet<_> =
            Termination::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), Termination::ALL.len());
        for t in Termination::ALL {
            let word = serde_json::to_string(&t).unwrap();
            assert_eq!(serde_json::from_str::<Termination>(&word).unwrap(), t);
            assert!(t.message().ends_with('.'), "{t}");
        }
        assert_eq!(
            serde_json::from_str::<Termination>("\"observer\"").unwrap(),
            Termination::Stopped
        );
        assert_eq!(Termination::Infeasible.status(), 3);
        assert!(!Termination::Stalled.is_convergence());
    }
}
