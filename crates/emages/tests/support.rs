//! The portfolio run as the tests drive it: built from settings for a problem or a
//! shape (with the problem's equality margin), run by the driver to a budget.
#![allow(dead_code)] // each includer uses a part

use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;
use emages::portfolio::{Portfolio, PortfolioSettings};
use emages::{Best, Driver, Error, Options, SolverError};
use emages_solver::ProblemEvaluator;
use std::ops::ControlFlow;

/// The options of `settings` with the problem's own equality margin, seed `seed`.
fn options(settings: PortfolioSettings, seed: u64) -> Options {
    Options::recommended()
        .with_settings(settings)
        .equality_margin(None)
        .seed(seed)
}

/// A run for `problem`.
pub fn portfolio<P: ConstrainedProblem + ?Sized>(
    problem: &P,
    settings: PortfolioSettings,
    seed: u64,
) -> Result<Portfolio, Error> {
    options(settings, seed).build_for(problem)?.ask_tell()
}

/// A run for a problem of `shape`.
pub fn portfolio_of_shape(
    shape: ProblemShape,
    settings: PortfolioSettings,
    seed: u64,
) -> Result<Portfolio, Error> {
    options(settings, seed).build(&shape)?.ask_tell()
}

/// Runs `run` on `problem` until it stops by itself or the next request would not fit
/// into `budget`; gives the best point.
pub fn run<P: ConstrainedProblem + ?Sized>(
    run: &mut Portfolio,
    problem: &P,
    budget: usize,
) -> Result<Best, SolverError> {
    run_observed(run, problem, budget, |_| ControlFlow::Continue(()))
}

/// [`run`] with an observer after every iteration.
pub fn run_observed<P: ConstrainedProblem + ?Sized>(
    run: &mut Portfolio,
    problem: &P,
    budget: usize,
    mut observe: impl FnMut(&Portfolio) -> ControlFlow<()>,
) -> Result<Best, SolverError> {
    Driver::new(run)
        .budget(budget)
        .observe(&mut observe)
        .run_with(&mut ProblemEvaluator::new(problem))
        .map(|o| o.best)
}
