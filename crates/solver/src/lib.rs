//! The solver contract of the emages workspace.
//!
//! A **solver** is a run in progress driven by ask and tell ([`Solver`]): it hands out
//! the points it wants evaluated ([`Request`]) and takes their values back, keeps its
//! best point ([`Best`]), counts its evaluations and iterations, and says why it ended
//! ([`Termination`]). The ES of Hellwig & Beyer with its restarts
//! (`ma_es::ask_tell::AskTell`), the SQP local phase (`local_phase::sqp::Sqp`) and the
//! portfolio of both (`emages::portfolio::Portfolio`) are solvers; so can yours be.
//!
//! One **run** ([`Run`]) owns what every solver's run has: the limits (a budget that
//! only cuts, an iteration limit, a target), the evaluation counts and the one rule of
//! why the run ended; ask and tell go through it. One **driver** ([`Driver`]) runs any solver on a problem — with a budget that only
//! cuts, an iteration limit, a target, observers ([`Observer`]: progress lines,
//! histories, your stopping rule) and, for expensive problems, the points of each
//! request evaluated on several threads — and gives one [`Outcome`].
//!
//! | piece | what |
//! |---|---|
//! | [`Solver`] | ask → points, tell ← values (and Jacobians where welcome), best, evaluations, iterations, termination, stop, status |
//! | [`Request`], [`RequestKind`], [`Slots`], [`Values`], [`Told`] | what is asked for, where values go, what a tell completed |
//! | [`Run`], [`Limits`], [`Counts`] | the run that owns its state: the solver within its budget, iteration limit and target, what it evaluated, why it ended |
//! | [`Driver`], [`Outcome`] | the one loop over a [`Run`], and what it returns: best point, counts, termination, `success`, status and message |
//! | [`Evaluator`], [`ProblemEvaluator`] | who evaluates a request: a problem in the reference's grouping, or any closure |
//! | [`Observer`], [`History`], [`Progress`] | looks after every iteration; the progress lines Python prints too |
//! | [`Termination`] | why a run ended: name, sentence, scipy's `status` |
//! | [`save`] | JSON that keeps every bit of a saved run |
//!
//! Every solver of the workspace serialises with serde between a tell and the next ask
//! and continues bit for bit when restored ([`save::to_json`], [`save::from_json`]).
#![deny(missing_docs)]

mod best;
mod drive;
mod error;
mod evaluate;
mod observer;
mod progress;
mod request;
mod run;
pub mod save;
mod solver;
mod termination;

pub use best::Best;
pub use drive::Driver;
pub use error::SolverError;
pub use evaluate::{Evaluator, ProblemEvaluator};
pub use observer::{History, NoObserver, Observer};
pub use progress::{scientific, Progress};
pub use request::{Request, RequestKind, Slots, Told, Values};
pub use run::{Counts, Limits, Outcome, Run};
pub use solver::{Phase, Solver, Status};
pub use termination::{Termination, IN_PROGRESS};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
