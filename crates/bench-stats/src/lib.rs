//! Statistics to compare optimizers honestly, with the exact semantics of the εMAg-ES
//! paper (docs/algorithm.md §6):
//!
//! | module | what |
//! |---|---|
//! | [`wilcoxon`] | the signed-rank test as MATLAB's `signrank` (tolerance ties, exact for `n ≤ 15`); the rank-sum test as `ranksum` |
//! | [`cec2020`] | the CEC2020 real-world competition's entry files and score (best, mean, median, total) over any number of algorithms |
//! | [`cec`] | per-problem CEC statistics: best, median (with `c` and `ν̄`), mean, std, worst, FR, vio, mRTgb |
//! | [`pairwise`] | the baseline-vs-variant median/mean/total rank with and without significance testing; `+/=/−` tallies; Table 2 cells |
//! | [`bootstrap`] | how much the `+/=/−` tallies move with other runs: the bootstrap over runs |
//! | [`configurations`] | ranking many configurations per problem and overall (heat maps) |
//! | [`table`] | tables as Markdown and CSV |
//!
//! The crate consumes per-run results only (final `f`, `ν̄`, `c`, the evaluation count
//! of the best) and depends on no optimizer or benchmark.
//!
//! # Example
//!
//! ```
//! use bench_stats::Snapshot;
//! use bench_stats::pairwise::{compare, Significance, Summary};
//!
//! // Two algorithms, 25 runs each, on two problems.
//! let runs = |offset: f64| -> Vec<Snapshot> {
//!     (0..25).map(|i| Snapshot::new(offset + (i as f64 * 0.37).sin(), 0.0)).collect()
//! };
//! let problems = [(runs(0.0), runs(1.0)), (runs(0.0), runs(0.0))];
//! let comparisons: Vec<_> = problems
//!     .iter()
//!     .map(|(b, s)| compare(b, s, Significance::default()).unwrap())
//!     .collect();
//! let summary = Summary::of(&comparisons);
//! assert_eq!(summary.total.to_string(), "1/1/0"); // baseline better on one, tie on one
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bootstrap;
pub mod cec;
pub mod cec2020;
pub mod configurations;
mod error;
pub mod pairwise;
pub mod table;
pub mod wilcoxon;

pub use cec::{CecStatistics, Snapshot};
/// The former name of [`Snapshot`] (the per-run input of the statistics).
#[deprecated(note = "use `Snapshot` (constraint_handling::Snapshot)")]
pub type RunRecord = Snapshot;
pub use error::StatsError;
pub use pairwise::{compare, Comparison, Significance, Summary, Tally, Verdict};
pub use table::Table;
pub use wilcoxon::{ranksum, signrank, Method, TestResult};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
