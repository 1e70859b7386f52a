//! The contract of a run in progress: [`Solver`].

use crate::best::Best;
use crate::error::SolverError;
use crate::request::{Request, Told};
use crate::termination::Termination;
use constraint_handling::problem::ProblemShape;
use ndarray::ArrayView2;
use serde::{Deserialize, Serialize};

/// A run in progress, driven by ask and tell: the ES (`ma_es::ask_tell::AskTell`), the
/// SQP local phase (`local_phase::sqp::Sqp`) and the portfolio
/// (`emages::portfolio::Portfolio`) are solvers, and [`crate::Driver`] runs any of them.
///
/// The protocol: [`Solver::ask`] gives the points the run wants evaluated (a
/// [`Request`]: one point per column, what is wanted there, what they are charged), or
/// `None` once the run is over; asking again before telling gives the same request.
/// [`Solver::tell`] takes their values — `objectives[j]` and column `j` of `constraints`
/// (`(l + m) × k`, rows `g` then `h`) for column `j` of the request; for a
/// [`crate::RequestKind::Jacobians`] request, columns `jN .. (j+1)N` of `constraints`
/// are `∂C/∂x` at point `j`. Between a tell that ends an iteration and the next ask the
/// caller may look at the run ([`Solver::status`], [`Solver::best`]) and end it
/// ([`Solver::stop`]).
///
/// Every solver of the workspace serialises with serde between a tell and the next
/// ask; the restored value continues bit for bit ([`crate::save`] keeps every bit in
/// JSON).
pub trait Solver {
    /// The shape of the problem the run was built for (its box, constraint counts,
    /// equality margin and Jacobian source).
    fn shape(&self) -> &ProblemShape;

    /// The points wanted next, or `None` once the run is over.
    ///
    /// # Errors
    /// The solver's own (a restart that cannot be set up, a point that cannot be
    /// reflected into the box).
    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError>;

    /// Takes the values at the points of the last [`Solver::ask`].
    ///
    /// # Errors
    /// [`SolverError::Protocol`] without a pending ask; [`SolverError::TellShape`] for
    /// values that do not fit the request; the run is unchanged then.
    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError>;

    /// [`Solver::tell`] with the constraint Jacobians at the request's points, for a
    /// request that welcomes them ([`Request::jacobians`]): `jacobians` is
    /// `(l + m) × (N · k)`, its columns `jN .. (j+1)N` are `∂C/∂x` at point `j`.
    ///
    /// # Errors
    /// As [`Solver::tell`]; [`SolverError::Protocol`] from a solver that takes none.
    fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        let _ = (objectives, constraints, jacobians);
        Err(SolverError::Protocol(
            "this run takes no Jacobians with the values".into(),
        ))
    }

    /// The best point evaluated so far (`None` before the first tell).
    fn best(&self) -> Option<Best>;

    /// The evaluations charged so far.
    fn evaluations(&self) -> usize;

    /// The iterations done so far: an ES's generations (its initialisation counts as
    /// none), the local phase's steps, the portfolio's both.
    fn iterations(&self) -> usize;

    /// Why the run ended, once it has (then [`Solver::ask`] returns `None`).
    fn termination(&self) -> Option<Termination>;

    /// Ends the run after the last tell: the next [`Solver::ask`] returns `None` and
    /// [`Solver::termination`] is [`Termination::Stopped`].
    fn stop(&mut self);

    /// The run's state after the last tell, for progress lines and histories.
    fn status(&self) -> Status;
}

/// Which part of a strategy is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// An evolution strategy: the step size is its mutation strength `σ`.
    Es,
    /// The local phase: the step size is its step bound `Δ`.
    Local,
}

impl Phase {
    /// `es` or `local`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Es => "es",
            Self::Local => "local",
        }
    }
}

/// A run's state after its last tell: one row of its history.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// Iterations so far ([`Solver::iterations`]).
    pub iterations: usize,
    /// Evaluations charged so far.
    pub evaluations: usize,
    /// The best point's `f` (NaN before the first tell).
    pub objective: f64,
    /// The best point's `ν̄` (NaN before the first tell).
    pub violation: f64,
    /// The running phase's step size: an ES's `σ`, the local phase's step bound `Δ`.
    pub step_size: f64,
    /// The ε level an ES ranks with; NaN in the local phase, which has none.
    pub epsilon: f64,
    /// Which part is running.
    pub phase: Phase,
    /// The current run of a restart sequence (1-based; an ES's restarts, the
    /// portfolio's rounds).
    pub run: usize,
}

impl Status {
    /// The state of a run with nothing told yet in `phase`.
    #[must_use]
    pub fn start(phase: Phase) -> Self {
        Self {
            iterations: 0,
            evaluations: 0,
            objective: f64::NAN,
            violation: f64::NAN,
            step_size: f64::NAN,
            epsilon: f64::NAN,
            phase,
            run: 1,
        }
    }

    /// Whether the local phase is running.
    #[must_use]
    pub fn is_local(&self) -> bool {
        self.phase == Phase::Local
    }
}

/// `&mut S` and `Box<S>` are the solver `S` (a driver can borrow a run, and a
/// program can hold any solver as `Box<dyn Solver>`).
macro_rules! forward_solver {
    ($($ty:ty),+) => {$(
        impl<S: Solver + ?Sized> Solver for $ty {
            fn shape(&self) -> &ProblemShape {
                (**self).shape()
            }
            fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
                (**self).ask()
            }
            fn tell(
                &mut self,
                objectives: &[f64],
                constraints: ArrayView2<'_, f64>,
            ) -> Result<Told, SolverError> {
                (**self).tell(objectives, constraints)
            }
            fn tell_with_jacobians(
                &mut self,
                objectives: &[f64],
                constraints: ArrayView2<'_, f64>,
                jacobians: ArrayView2<'_, f64>,
            ) -> Result<Told, SolverError> {
                (**self).tell_with_jacobians(objectives, constraints, jacobians)
            }
            fn best(&self) -> Option<Best> {
                (**self).best()
            }
            fn evaluations(&self) -> usize {
                (**self).evaluations()
            }
            fn iterations(&self) -> usize {
                (**self).iterations()
            }
            fn termination(&self) -> Option<Termination> {
                (**self).termination()
            }
            fn stop(&mut self) {
                (**self).stop();
            }
            fn status(&self) -> Status {
                (**self).status()
            }
        }
    )+};
}

forward_solver!(&mut S, Box<S>);
