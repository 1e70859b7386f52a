//! The portfolio: the SQP local phase ([`local_phase::sqp`]) and the ε-level ES
//! (εMAg-ES-R) in rounds, by ask and tell, within a budget that only cuts — the
//! recommended strategy ([`crate::recommended`]).
//!
//! Round `r = 0, 1, …` has an ES budget `b_r = b₀ · 2ʳ` (`b₀ =`
//! [`PortfolioSettings::es_budget_per_dim`]` · N`) and a share `w_r` of it for the local
//! phase:
//!
//! 1. **restarts**: the local phase from a start (round 0: the box's centre, or the
//!    user's `x0`; later: a point drawn uniformly in the box), each run to its own end,
//!    restarted from a new uniform point until the round's restarts have spent
//!    `⌈w_r · b_r⌉` evaluations (at least one run);
//! 2. **the ES**: a run of [`PortfolioSettings::es`] (εMAg-ES-R) with its own budget
//!    `b_r`, to the end (its BIPOP restarts within, no convergence criteria);
//! 3. **polish**: the local phase from the ES run's best point.
//!
//! The share follows progress ("the budget moves towards whichever progresses"):
//! `w₀ =` [`PortfolioSettings::initial_share`]; after a round whose ES and polish
//! improved the best point found by its restarts ([`clearly_better`]), `w_{r+1} = 0`
//! (one start of the local phase); after one whose ES did not while its restarts
//! improved the best point of the rounds before,
//! `w_{r+1} = min(max(2 w_r, w₀),` [`PortfolioSettings::max_share`]`)`; otherwise
//! `w_{r+1} = w_r`.
//!
//! **Stopping.** With [`PortfolioSettings::confirmations`]` = c > 0` (5 by default) the
//! run stops once `c` runs of the local phase in a row have ended at the best point
//! (`ν̄` at most `10⁻¹⁰` above the best point's, `f` within `10⁻⁸ · max(1, |f|)` of it, or
//! above it by at most twice what the run's back-off costs, [`crate::local::sqp::Sqp::back_off_cost`]), a
//! run that ended elsewhere not breaking the series; the studies run
//! [`PortfolioSettings::to_the_end`]. Where each run of the local phase costs about as
//! much as the answer did (`N` beyond about 20), the patience rule
//! ([`PortfolioSettings::patience`]) stops it after two confirmations once the rest
//! would cost more than `100 N` and end after `e + max(2 e, 100 N)`, `e` the last clear
//! improvement; restarts confirm as soon as they arrive at the best point
//! ([`PortfolioSettings::confirm_early`]) and start from the curvature of a run that
//! ended there ([`PortfolioSettings::warm_curvature`]). On a convex quadratic with
//! `N / 5` linear inequalities the run stops within `max(3 h, h + 100 N)` evaluations
//! of its hit `h`, `N` up to 200.
//!
//! **The budget is a cap, not a schedule.** Nothing here knows the budget: the run asks
//! for the same points whatever it is, and the driver stops at the first request that
//! does not fit into what is left ([`emages_solver::Driver::budget`]). The ES runs'
//! seeds and the starts follow from the seed alone.
//!
//! **Derivatives.** For a black box ([`JacobianSource::Differences`]) the local phase
//! and the ES's repair take forward differences: every point asked for wants `f` and
//! `C`, one evaluation each. A shape with [`JacobianSource::Exact`] (a problem that
//! offers its constraint Jacobian) gives the exact Jacobians to the ES's repair: it
//! asks for them ([`RequestKind::Jacobians`], charged as
//! [`emages_solver::Request::evaluations`] says, the CEC2020 rule) where it would probe
//! `N` points. The local phase stays on forward differences even then: `∇f` needs its
//! `N` probes anyway, and they give `J` with it, while an exact `J` at the iterate would
//! be one more evaluation per step.
//!
//! ```
//! use emages::{FnProblem, Termination};
//!
//! // min x₁² + x₂² s.t. 1 − x₁ − x₂ ≤ 0 on [−5, 5]²: the optimum is ½ at (½, ½).
//! let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
//!     c[0] = 1.0 - x[0] - x[1];
//!     Ok(x[0] * x[0] + x[1] * x[1])
//! })?;
//! let outcome = emages::recommended().budget(2_000).seed(7).run(&problem)?;
//! // Strictly feasible: the local phase backs off from g = 0 by ~10⁻⁹.
//! assert!(outcome.best.is_feasible() && (outcome.best.objective() - 0.5).abs() < 1e-8);
//! // It stopped by itself: five runs of the local phase in a row ended there.
//! assert_eq!(outcome.termination, Termination::Confirmed);
//! assert!(outcome.evaluations < 1_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod options;
mod rounds;
mod settings;
pub mod spec;

pub use options::{Options, Plan, DEFAULT_EQUALITY_MARGIN};
pub use rounds::Portfolio;
pub use settings::{clearly_better, clearly_better_by, round_seed, PortfolioSettings};

#[cfg(doc)]
use constraint_handling::problem::JacobianSource;
#[cfg(doc)]
use emages_solver::RequestKind;
