//! Observers: a look at a run after every iteration, for progress lines, histories,
//! a user's stopping rule, or embedding a solver in other tools.

use crate::solver::{Solver, Status};
use std::ops::ControlFlow;

/// Looks at a run of solver type `S` after every iteration; `ControlFlow::Break(())`
/// stops the run there ([`crate::Termination::Stopped`]).
///
/// Closures `FnMut(&S) -> ControlFlow<()>` are observers; one written for any solver
/// reads the contract ([`Solver::status`], [`Solver::best`]), one for a given solver
/// type may read more of it (an ES's generation report, say).
///
/// ```
/// use emages_solver::{Observer, Solver};
/// use std::ops::ControlFlow;
/// fn stop_after_ten<S: Solver + ?Sized>() -> impl FnMut(&S) -> ControlFlow<()> {
///     |run: &S| if run.iterations() >= 10 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// }
/// ```
pub trait Observer<S: ?Sized> {
    /// Looks at the run.
    fn observe(&mut self, solver: &S) -> ControlFlow<()>;
}

impl<S: ?Sized, F: FnMut(&S) -> ControlFlow<()>> Observer<S> for F {
    fn observe(&mut self, solver: &S) -> ControlFlow<()> {
        self(solver)
    }
}

/// The observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<S: ?Sized> Observer<S> for NoObserver {
    fn observe(&mut self, _solver: &S) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// The run's [`Status`] after every iteration: its history.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// One row per iteration, in order.
    pub rows: Vec<Status>,
}

impl<S: Solver + ?Sized> Observer<S> for History {
    fn observe(&mut self, solver: &S) -> ControlFlow<()> {
        self.rows.push(solver.status());
        ControlFlow::Continue(())
    }
}
