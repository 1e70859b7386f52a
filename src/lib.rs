//! The εMAg-ES ablation study of Hellwig & Beyer, composed from the workspace crates:
//! a resumable, shardable, reproducible study runner; the paper's tables, plots and an
//! HTML report.
//!
//! | module | what |
//! |---|---|
//! | [`study`] | study specification, seeds, shards, parallel execution with a progress bar |
//! | [`status`] | `--status`: runs done / expected per shard file, the slowest problems, an ETA |
//! | [`store`] | `runs.jsonl` / `dynamics.jsonl`: one record per finished run, appended atomically |
//! | [`suite`] | the benchmark seam: problem numbers, labels, groups, instance data (CEC2017 is one suite) |
//! | [`dataset`] | results of one or several files (shards), checked and grouped |
//! | [`report`] | Tables 1, A1, 2, 4, 5, the CEC statistics, the Section 5 plots, `report.html` |
//! | [`params`] | the parameter studies of Section 6 (population size, repair repetitions) |
//! | [`plots`], [`html`] | SVG/PNG charts and heat maps; the self-contained HTML page |
//!
//! The examples `ablation` and `parameter_study` are the command-line front ends.
#![warn(missing_docs)]

/// Prints a line to standard error like `eprintln!`, but a closed or broken stream
/// (`ablation … 2>&1 | head`) is ignored: messages are not part of a study's results,
/// and the study goes on to write its files.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Prints a line to standard output like `println!`, ignoring a closed stream (see
/// [`say!`]).
#[macro_export]
macro_rules! show {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod cli;

mod error;
pub mod optimizer;
pub mod report;
pub mod reproduction;

pub mod study;
pub mod suites;

pub use error::StudyError;
